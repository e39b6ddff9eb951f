//! Script errors with the file, line and column a designer needs to fix them.

use henka_api::SourceLocation;
use rhai::{EvalAltResult, ParseError, Position};

/// A script that failed to compile, run, or describe a valid variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub location: Option<SourceLocation>,
    pub message: String,
    /// Script functions the error passed through, outermost first (for a call-stack view).
    pub call_stack: Vec<String>,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        f.write_str(&self.message)?;
        if !self.call_stack.is_empty() {
            write!(f, " (in {})", self.call_stack.join(" → "))?;
        }
        Ok(())
    }
}

impl std::error::Error for ScriptError {}

pub(crate) fn location(source: &str, pos: Position) -> Option<SourceLocation> {
    Some(SourceLocation {
        file: source.to_string(),
        line: pos.line()? as u32,
        column: pos.position().unwrap_or(1) as u32,
    })
}

impl ScriptError {
    pub fn at(source: &str, pos: Position, message: impl Into<String>) -> ScriptError {
        ScriptError { location: location(source, pos), message: message.into(), call_stack: Vec::new() }
    }

    pub fn from_parse(source: &str, e: ParseError) -> ScriptError {
        ScriptError::at(source, e.1, format!("syntax error: {}", e.0))
    }

    /// Unwraps nested function-call errors to the innermost one, which has the useful position.
    pub fn from_eval(source: &str, e: EvalAltResult) -> ScriptError {
        let mut call_stack = Vec::new();
        let mut err = e;
        let mut outer_pos = Position::NONE;
        loop {
            match err {
                EvalAltResult::ErrorInFunctionCall(name, _, inner, pos) => {
                    // Rhai names closures "anon$…"; say "closure" instead.
                    call_stack.push(if name.starts_with("anon$") { "closure".into() } else { name });
                    outer_pos = pos;
                    err = *inner;
                }
                other => {
                    err = other;
                    break;
                }
            }
        }
        let mut pos = err.take_position();
        if pos.is_none() {
            pos = outer_pos;
        }
        let message = match &err {
            EvalAltResult::ErrorTooManyOperations(_) => {
                "the script ran too long (operation limit reached): is there an endless loop?".to_string()
            }
            EvalAltResult::ErrorTerminated(..) => "the script ran for over a second and was stopped".to_string(),
            EvalAltResult::ErrorStackOverflow(_) => {
                "the script recursed too deeply (call depth limit reached)".to_string()
            }
            EvalAltResult::ErrorDataTooLarge(what, _) => {
                format!("{what} too large: the script built a value over the sandbox's size limit")
            }
            EvalAltResult::ErrorRuntime(d, _) => d.to_string(),
            other => other.to_string(),
        };
        ScriptError { location: location(source, pos), message, call_stack }
    }
}

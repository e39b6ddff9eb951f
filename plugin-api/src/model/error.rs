//! What goes wrong while a variant's rules run, and where in a source file.

use serde::{Deserialize, Serialize};

/// Where in a source file something went wrong (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLocation {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A failure while applying a variant's rules at run time: a script hook that raised an error or
/// ran too long, or a plugin that panicked. The game and the host carry on; the caller shows it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RuleError {
    pub message: String,
    pub location: Option<SourceLocation>,
}

impl RuleError {
    pub fn new(message: impl Into<String>) -> RuleError {
        RuleError { message: message.into(), location: None }
    }
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "{loc}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

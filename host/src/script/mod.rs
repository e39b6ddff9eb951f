//! Rhai variant scripts: load, sandbox, build the kit variant, and report errors by file:line:col.
//!
//! A script builds its definition with `variant(#{ … })` and builder methods (see the README's
//! script reference) and returns it. Loading compiles the script, runs its top level once under the
//! sandbox's limits, turns the definition into a [`RuleSet`](henka_api::rules::RuleSet) and lets the
//! kit compile it. Hooks stay script functions, called by the kit once per position.

mod api;
mod callback_memo;
mod engine;
mod error;
mod field_api;
mod hooks;
mod options;
mod position_api;

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use henka_api::kit::{Hooks, KitError, KitVariant};
use henka_api::rules::RuleSetError;
use henka_api::{Geometry, Variant};
use rhai::{Dynamic, Position};

pub use api::VariantBuilder;
pub use error::ScriptError;
use hooks::ScriptHooks;
pub use options::{
    DeclaredOption, RuleOptions, check_known as check_options, describe as describe_options,
    parse_assignment as parse_option,
};

/// A script turned into a playable variant.
#[derive(Debug, Clone)]
pub struct LoadedScript {
    pub variant: Arc<KitVariant>,
    /// The name errors use: the file path, or `embedded:<name>` for built-in scripts.
    pub source_name: String,
    /// A hash of the script text, for "did it really change?" on reload and for game records.
    pub content_hash: u64,
    /// The AI's piece values the script sets (`value:` in a piece map), by piece id.
    pub piece_values: Vec<Option<i32>>,
    /// The rule options the script declares, with the values this load used.
    pub options: Vec<DeclaredOption>,
}

pub fn content_hash(src: &str) -> u64 {
    src.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Loads a script from a file with its default options.
pub fn load_file(path: &Path) -> Result<LoadedScript, ScriptError> {
    load_file_with(path, &RuleOptions::new())
}

/// Loads a script from a file with the given rule options.
pub fn load_file_with(path: &Path, options: &RuleOptions) -> Result<LoadedScript, ScriptError> {
    let name = path.display().to_string();
    let src = std::fs::read_to_string(path).map_err(|e| ScriptError {
        location: None,
        message: format!("{name}: cannot read: {e}"),
        call_stack: vec![],
    })?;
    load_source_with(&name, &src, options)
}

/// Which script each loaded variant came from, by the text's hash: what the AI looks its tuned
/// evaluation up by. Weak, so a dropped variant is forgotten.
type Registry = Vec<(Weak<dyn Variant>, u64)>;
static SCRIPTS: Mutex<Registry> = Mutex::new(Vec::new());

/// Remembers that `variant` was loaded from a script with content hash `hash`.
fn note_script(variant: &Arc<dyn Variant>, hash: u64) {
    let mut r = SCRIPTS.lock().unwrap_or_else(|e| e.into_inner());
    r.retain(|(w, _)| w.strong_count() > 0);
    r.push((Arc::downgrade(variant), hash));
}

/// The content hash of the script `variant` was loaded from (`None` for a plugin).
pub fn script_hash_of(variant: &Arc<dyn Variant>) -> Option<u64> {
    let r = SCRIPTS.lock().unwrap_or_else(|e| e.into_inner());
    let me = Arc::as_ptr(variant) as *const ();
    r.iter().find(|(w, _)| w.strong_count() > 0 && w.as_ptr() as *const () == me).map(|&(_, h)| h)
}

/// The largest script Henka compiles. Parsing is not covered by the sandbox's time limit, and a
/// megabyte takes seconds; the largest bundled script (Taishin) is 15 KB.
pub const MAX_SCRIPT_BYTES: usize = 256 * 1024;

/// Loads a script from text with its default options; `source_name` names it in error messages.
pub fn load_source(source_name: &str, src: &str) -> Result<LoadedScript, ScriptError> {
    load_source_with(source_name, src, &RuleOptions::new())
}

/// Loads a script from text with the given rule options.
pub fn load_source_with(source_name: &str, src: &str, chosen: &RuleOptions) -> Result<LoadedScript, ScriptError> {
    load_source_budgeted(source_name, src, chosen, hooks::SEARCH_TIME_LIMIT)
}

/// Loads a script whose hooks may run `search_budget` in all per search (the tests shorten it).
fn load_source_budgeted(
    source_name: &str,
    src: &str,
    chosen: &RuleOptions,
    search_budget: std::time::Duration,
) -> Result<LoadedScript, ScriptError> {
    if src.len() > MAX_SCRIPT_BYTES {
        return Err(ScriptError::at(
            source_name,
            Position::new(1, 1),
            format!("the script is {} KB; a script may be at most {} KB", src.len() / 1024, MAX_SCRIPT_BYTES / 1024),
        ));
    }
    let (mut engine, deadline) = engine::sandbox_engine();
    let option_log = options::register(&mut engine, chosen);
    let mut ast = engine.compile(src).map_err(|e| ScriptError::from_parse(source_name, e))?;
    ast.set_source(source_name);
    deadline.arm();
    let result: Dynamic = engine.eval_ast(&ast).map_err(|e| ScriptError::from_eval(source_name, *e))?;
    let end = Position::new(src.lines().count().max(1) as u16, 1);
    let options = options::finish(&option_log);
    let builder = result.try_cast::<VariantBuilder>().ok_or_else(|| {
        ScriptError::at(source_name, end, "the script must end with the variant it built (e.g. a last line `v`)")
    })?;
    let rules = builder.rule_set().map_err(|(pos, msg)| ScriptError::at(source_name, pos, msg))?;

    let mut hooks = ScriptHooks {
        id: hooks::next_id(),
        engine: Arc::new(engine),
        deadline,
        ast: Arc::new(ast),
        source: source_name.to_string(),
        game_end: None,
        filter_moves: None,
        stranded: None,
        capture_hook: builder.capture_hook.as_ref().map(|h| (h.value.0.clone(), (h.value.1.clone(), h.at))),
        move_callbacks: (builder.move_callbacks.iter())
            .map(|h| (h.value.0.clone(), h.value.1.clone(), (h.value.2.clone(), h.at)))
            .collect(),
        drop_callbacks: builder.drop_callbacks.iter().map(|h| (h.value.0.clone(), (h.value.1.clone(), h.at))).collect(),
        effect: builder.effect.as_ref().map(|h| (h.value.0.clone(), (h.value.1.clone(), h.at))),
        callback_of: OnceLock::new(),
        drop_callback_of: OnceLock::new(),
        info: OnceLock::new(),
        kit: OnceLock::new(),
        search: hooks::SearchClock::new(search_budget),
    };
    for h in &builder.hooks {
        let (name, f) = &h.value;
        match name.as_str() {
            "game_end" => hooks.game_end = Some((f.clone(), h.at)),
            "filter_moves" => hooks.filter_moves = Some((f.clone(), h.at)),
            "stranded" => hooks.stranded = Some((f.clone(), h.at)),
            _ => unreachable!("hook names are checked when registered"),
        }
    }
    let has_hooks = !builder.hooks.is_empty()
        || builder.capture_hook.is_some()
        || !builder.move_callbacks.is_empty()
        || !builder.drop_callbacks.is_empty()
        || builder.effect.is_some();
    let hooks = has_hooks.then(|| Arc::new(hooks));
    let kit = KitVariant::new(rules, hooks.clone().map(|h| h as Arc<dyn Hooks>)).map_err(|e| {
        let at = match &e {
            KitError::Rules(RuleSetError::Piece { index, .. }) => builder.pieces[*index].at,
            KitError::Rules(RuleSetError::Start(_)) => builder.setup.as_ref().map_or(builder.declared_at, |s| s.at),
            KitError::Rules(RuleSetError::Geometry(_) | RuleSetError::Invalid(_)) | KitError::Compile(_) => {
                builder.declared_at
            }
            KitError::Hook(e) => {
                return ScriptError { location: e.location.clone(), message: e.message.clone(), call_stack: vec![] };
            }
        };
        ScriptError::at(source_name, at, e.to_string())
    })?;
    if let Some(h) = &hooks {
        let geometry = Geometry::new(&kit.info().geometry).expect("the kit validated the board");
        h.info.set(Arc::new((kit.info().clone(), geometry))).expect("set once");
    }
    let variant = Arc::new(kit);
    if let Some(h) = &hooks {
        h.kit.set(Arc::downgrade(&variant)).expect("set once");
    }
    // Run the hooks once on the start position so a broken hook is a load error, not a surprise.
    let start = variant.start_position();
    let mut moves = Vec::new();
    let checked = variant.legal_moves(&start, &mut moves).and_then(|_| variant.outcome(&start, &[]));
    if let Err(e) = checked {
        return Err(ScriptError { location: e.location, message: e.message, call_stack: vec![] });
    }
    // The AI finds a variant's tuned evaluation by its script's hash (`henka tune`).
    note_script(&(variant.clone() as Arc<dyn henka_api::Variant>), content_hash(src));
    Ok(LoadedScript {
        variant,
        source_name: source_name.to_string(),
        content_hash: content_hash(src),
        piece_values: builder.values.clone(),
        options,
    })
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use henka_api::variant::SearchScope;

    use super::*;

    /// A filter that takes a few milliseconds a call: under the limit per call, but a perft makes
    /// hundreds of calls.
    const SLOW_FILTER: &str = r#"let v = variant(#{ name: "Slow", board: [5, 5] });
v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
v.piece(#{ name: "Rook", token: "R", moves: "R" });
v.setup("4k/5/5/5/KR3 b - 1");
v.on("filter_moves", |pos, moves| {
    let n = 0;
    while n < 10000 { n += 1; }
    moves
});
v
"#;

    #[test]
    fn slow_hooks_stop_a_search_at_the_budget_per_search_with_their_line() {
        let budget = Duration::from_millis(300);
        let v = load_source_budgeted("slow.rhai", SLOW_FILTER, &RuleOptions::new(), budget).unwrap().variant;
        let start = v.start_position();
        let t = Instant::now();
        let e = v.perft(&start, 5).unwrap_err();
        assert!(e.message.contains("the hooks have run") && e.message.contains("in this search"), "{e}");
        assert_eq!(e.location.as_ref().map(|l| l.line), Some(5), "the hook's line: {e:?}");
        assert!(t.elapsed() < budget + Duration::from_secs(2), "stopped within a second of the budget");
        // Outside a search each call is bounded on its own: the editor can still ask for moves.
        let mut moves = Vec::new();
        v.legal_moves(&start, &mut moves).unwrap();
        assert!(!moves.is_empty());
        // A new search starts with a fresh budget; nested scopes share the outer one's.
        let outer = SearchScope::new(v.as_ref());
        assert!(v.perft(&start, 1).is_ok());
        drop(outer);
        assert!(v.perft(&start, 2).is_ok(), "a small perft fits its own budget");
    }
}

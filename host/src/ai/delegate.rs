//! Searching somewhere else: a variant whose rules run in another process (a plugin worker,
//! `crate::plugin::remote`) would pay a round trip per node if the search ran here, so its
//! searches run where its rules are, whole, one request each.
//!
//! The AI cannot name the plugin layer (it sits below it), so the plugin layer registers each
//! such variant here with what can search for it, and [`super::Searcher`] asks before searching
//! — the same pointer-keyed registry as `crate::script::script_hash_of`.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, Weak};

use henka_api::{HistoryEntry, Position, RuleError, Variant};

use super::eval::Terms;
use super::search::{Limits, Report};
use super::values::PieceValues;

/// What searches for a variant elsewhere.
pub trait SearchElsewhere: Send + Sync {
    /// A place for one searcher's searches, which keeps what it learns between them.
    fn open_session(&self) -> Result<Box<dyn SearchSession>, RuleError>;
}

/// One searcher's searches, run elsewhere.
pub trait SearchSession: Send {
    /// Searches like [`super::Searcher::search`]: `stop` set stops it (it then answers with what
    /// it has), `on_report` gets every completed depth. An error leaves the session unusable.
    fn search(
        &mut self,
        pos: &Position,
        history: &[HistoryEntry],
        limits: Limits,
        setup: &DelegatedSetup,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&Report),
    ) -> Result<Option<Report>, RuleError>;
}

/// The searcher's settings, so the search elsewhere evaluates as this one would.
#[derive(Clone, Debug)]
pub struct DelegatedSetup {
    pub values: PieceValues,
    pub terms: Terms,
    pub table_mb: usize,
    pub threads: usize,
    /// Forget earlier searches first.
    pub new_game: bool,
}

type Entry = (Weak<dyn Variant>, Weak<dyn SearchElsewhere>);

static ELSEWHERE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// Registers `variant` as searched by `by`.
pub fn register(variant: &Arc<dyn Variant>, by: &Arc<dyn SearchElsewhere>) {
    let mut r = ELSEWHERE.lock().unwrap_or_else(|e| e.into_inner());
    r.retain(|(w, _)| w.strong_count() > 0);
    r.push((Arc::downgrade(variant), Arc::downgrade(by)));
}

/// What searches for `variant`, if it is searched elsewhere.
pub fn elsewhere(variant: &Arc<dyn Variant>) -> Option<Arc<dyn SearchElsewhere>> {
    let r = ELSEWHERE.lock().unwrap_or_else(|e| e.into_inner());
    let me = Arc::as_ptr(variant) as *const ();
    r.iter().find(|(w, _)| w.strong_count() > 0 && w.as_ptr() as *const () == me).and_then(|(_, by)| by.upgrade())
}

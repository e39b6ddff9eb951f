//! The sandboxed Rhai engine every script runs in.
//!
//! Scripts come from other people, so the engine has no file, network or module access, and hard
//! limits on operations, call depth, expression depth and value sizes. A wall-clock deadline
//! (checked every few thousand operations) stops any run within a second whatever the build.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rhai::{Dynamic, Engine};

/// How long one script run or hook call may take.
pub const TIME_LIMIT: Duration = Duration::from_millis(900);

/// A shared deadline the engine's progress callback reads.
#[derive(Clone, Debug)]
pub struct Deadline {
    epoch: Instant,
    /// Milliseconds after `epoch`; `u64::MAX` = none.
    at_ms: Arc<AtomicU64>,
}

impl Deadline {
    fn new() -> Deadline {
        Deadline { epoch: Instant::now(), at_ms: Arc::new(AtomicU64::new(u64::MAX)) }
    }

    /// Starts the clock for one run.
    pub fn arm(&self) {
        let at = (self.epoch.elapsed() + TIME_LIMIT).as_millis() as u64;
        self.at_ms.store(at, Ordering::Relaxed);
    }

    fn expired(&self) -> bool {
        self.epoch.elapsed().as_millis() as u64 > self.at_ms.load(Ordering::Relaxed)
    }
}

/// Builds the sandboxed engine with the script API registered. Limits are set explicitly so debug
/// and release builds behave the same (docs/architecture.md, "Rhai in debug builds").
pub fn sandbox_engine() -> (Engine, Deadline) {
    let mut engine = Engine::new();
    let deadline = Deadline::new();
    let d = deadline.clone();
    engine
        .set_max_operations(20_000_000)
        .set_max_call_levels(48)
        .set_max_expr_depths(64, 32)
        .set_max_string_size(256 * 1024)
        .set_max_array_size(10_000)
        .set_max_map_size(10_000)
        .set_max_variables(1_000)
        .set_max_functions(1_000)
        .set_max_modules(0)
        .set_strict_variables(true)
        .on_progress(move |ops| if ops % 4096 == 0 && d.expired() { Some(Dynamic::from("time limit")) } else { None })
        .on_print(|s| eprintln!("[script] {s}"))
        .on_debug(|s, src, pos| eprintln!("[script {}:{pos}] {s}", src.unwrap_or("")));
    engine.disable_symbol("eval");
    super::api::register(&mut engine);
    (engine, deadline)
}

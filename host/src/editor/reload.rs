//! Hot reload: a worker thread compiles scripts off the UI thread — every compile the editor makes
//! — and a folder watcher feeds it the designer's saves from any external editor.
//!
//! Each text compile carries the rule options it is for; a file change compiles with the options
//! of the latest text compile asked for, so the options live in one place (the controller) and
//! reach the worker only with its requests.
//!
//! The watcher watches the script's *folder*, not the file: editors that save by writing a temp
//! file and renaming it over the original replace the inode, and a file watch goes silent after the
//! first such save (docs/architecture.md, "Watch the folder, not the file"). Any event naming the
//! file counts as "maybe changed"; the worker re-reads it and compiles only if its hash differs
//! from the last text it knows, because one save can arrive as several debounced batches.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use notify_debouncer_full::notify::event::{AccessKind, AccessMode, EventKind};
use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use super::session::text_hash;
use crate::script::{self, LoadedScript, RuleOptions, ScriptError};

/// How long the watcher waits for a burst of file events to settle. Short, because the reload
/// goal is 50 ms from save to new rules; a save split across batches only costs a hash check.
const FILE_DEBOUNCE: Duration = Duration::from_millis(20);

/// A script compiled by the worker.
#[derive(Debug)]
pub struct Compiled {
    /// The file it came from, or `None` for text typed in the editor.
    pub path: Option<PathBuf>,
    pub source_name: String,
    pub text: String,
    pub result: Result<LoadedScript, ScriptError>,
    /// When the change happened (the file event, or the end of the typing pause).
    pub since: Instant,
    pub compile: Duration,
}

enum Job {
    Text { source_name: String, text: String, options: RuleOptions, since: Instant },
    File { path: PathBuf, since: Instant },
}

/// Called by the worker after it sends a result, so the UI wakes up to take it.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// The compile worker and the folder watcher of the open script.
pub struct Reloader {
    jobs: Sender<Job>,
    results: Receiver<Compiled>,
    /// The text hash last seen for each watched file, so unchanged saves are not recompiled.
    known: Arc<Mutex<HashMap<PathBuf, u64>>>,
    watcher: Option<(PathBuf, Debouncer<RecommendedWatcher, RecommendedCache>)>,
}

impl std::fmt::Debug for Reloader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reloader").field("watching", &self.watcher.as_ref().map(|w| &w.0)).finish()
    }
}

impl Reloader {
    pub fn new(wake: Waker) -> Reloader {
        let (jobs, job_rx) = channel();
        let (result_tx, results) = channel();
        let known = Arc::new(Mutex::new(HashMap::new()));
        let worker_known = known.clone();
        std::thread::Builder::new()
            .name("henka-compile".into())
            .spawn(move || worker(job_rx, result_tx, worker_known, wake))
            .expect("spawning the compile thread");
        Reloader { jobs, results, known, watcher: None }
    }

    /// Compiles the editor's text with `options` (later file changes compile with them too).
    pub fn compile_text(&self, source_name: &str, text: &str, options: &RuleOptions, since: Instant) {
        let job =
            Job::Text { source_name: source_name.to_string(), text: text.to_string(), options: options.clone(), since };
        let _ = self.jobs.send(job);
    }

    /// Records that `path` now holds `text` (after opening or saving it), so the watcher's echo of
    /// the editor's own save does not recompile.
    pub fn note_file_text(&self, path: &Path, text: &str) {
        self.known.lock().expect("known-hash lock").insert(normalise(path), text_hash(text));
    }

    /// Watches the folder of `path` for changes to that file (and stops watching any other).
    pub fn watch(&mut self, path: &Path) -> Result<(), String> {
        let path = normalise(path);
        if self.watcher.as_ref().is_some_and(|(p, _)| *p == path) {
            return Ok(());
        }
        self.watcher = None;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        let jobs = self.jobs.clone();
        let target = path.clone();
        let handler = move |res: DebounceEventResult| {
            let Ok(events) = res else { return };
            let mut first: Option<Instant> = None;
            for e in &events {
                if is_content_event(&e.event.kind) && e.event.paths.iter().any(|p| normalise(p) == target) {
                    first = Some(first.map_or(e.time, |t| t.min(e.time)));
                }
            }
            if let Some(since) = first {
                let _ = jobs.send(Job::File { path: target.clone(), since });
            }
        };
        let mut deb = new_debouncer(FILE_DEBOUNCE, None, handler).map_err(|e| format!("cannot watch: {e}"))?;
        deb.watch(&dir, RecursiveMode::NonRecursive).map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
        self.watcher = Some((path, deb));
        Ok(())
    }

    /// Stops watching (for a bundled script, which has no file).
    pub fn unwatch(&mut self) {
        self.watcher = None;
    }

    /// The next finished compile, if any.
    pub fn try_recv(&self) -> Option<Compiled> {
        self.results.try_recv().ok()
    }

    /// Waits up to `timeout` for the next finished compile (for tests and the CLI).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Compiled> {
        self.results.recv_timeout(timeout).ok()
    }

    /// Waits for the next finished compile, however long it takes (the sandbox bounds a compile's
    /// time); `None` only if the worker is gone.
    pub fn wait(&self) -> Option<Compiled> {
        self.results.recv().ok()
    }
}

/// Makes paths from events and from the user comparable (absolute, symlinks resolved where the
/// file exists).
fn normalise(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let abs = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(p) };
    match (abs.parent().and_then(|d| d.canonicalize().ok()), abs.file_name()) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => abs,
    }
}

/// Whether an event may mean new content: creation, modification, removal (a rename's first
/// half), or a write that finished. Opens and reads are not.
fn is_content_event(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Create(_)
            | EventKind::Modify(_)
            | EventKind::Remove(_)
            | EventKind::Access(AccessKind::Close(AccessMode::Write))
    )
}

fn worker(jobs: Receiver<Job>, results: Sender<Compiled>, known: Arc<Mutex<HashMap<PathBuf, u64>>>, wake: Waker) {
    // The options of the latest text job: file changes compile with them.
    let mut options = RuleOptions::new();
    while let Ok(first) = jobs.recv() {
        // Compile only the newest text and each file once, however many jobs queued meanwhile.
        let mut text_job = None;
        let mut file_jobs: Vec<(PathBuf, Instant)> = Vec::new();
        for job in std::iter::once(first).chain(jobs.try_iter()) {
            match job {
                Job::Text { options: ref chosen, .. } => {
                    options = chosen.clone();
                    text_job = Some(job);
                }
                Job::File { path, since } => match file_jobs.iter_mut().find(|(p, _)| *p == path) {
                    Some(entry) => entry.1 = entry.1.min(since),
                    None => file_jobs.push((path, since)),
                },
            }
        }
        for (path, since) in file_jobs {
            // A file being replaced may be briefly missing; the create event that follows retries.
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let hash = text_hash(&text);
            if known.lock().expect("known-hash lock").insert(path.clone(), hash) == Some(hash) {
                continue;
            }
            let source_name = path.display().to_string();
            let t = Instant::now();
            let result = script::load_source_with(&source_name, &text, &options);
            let done = Compiled { path: Some(path), source_name, text, result, since, compile: t.elapsed() };
            if results.send(done).is_err() {
                return;
            }
            wake();
        }
        if let Some(Job::Text { source_name, text, since, .. }) = text_job {
            let t = Instant::now();
            let result = script::load_source_with(&source_name, &text, &options);
            if results.send(Compiled { path: None, source_name, text, result, since, compile: t.elapsed() }).is_err() {
                return;
            }
            wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("henka-reload-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    const MINI: &str = include_str!("../../../examples/first-variant.rhai");

    #[test]
    fn saves_by_write_and_by_rename_are_both_seen_and_unchanged_saves_are_skipped() {
        let dir = temp_dir("styles");
        let file = dir.join("mini.rhai");
        std::fs::write(&file, MINI).unwrap();
        let mut r = Reloader::new(Arc::new(|| {}));
        r.note_file_text(&file, MINI);
        r.watch(&file).unwrap();
        std::thread::sleep(Duration::from_millis(50));

        // In-place write.
        let v2 = MINI.replace("1.0", "2.0");
        std::fs::write(&file, &v2).unwrap();
        let c = r.recv_timeout(Duration::from_secs(5)).expect("in-place save seen");
        assert_eq!(c.text, v2);
        assert!(c.result.is_ok());

        // Write a temp file and rename it over (how many editors save atomically).
        let v3 = MINI.replace("1.0", "3.0");
        std::fs::write(dir.join(".mini.rhai.tmp"), &v3).unwrap();
        std::fs::rename(dir.join(".mini.rhai.tmp"), &file).unwrap();
        let c = r.recv_timeout(Duration::from_secs(5)).expect("rename save seen");
        assert_eq!(c.text, v3);

        // The same text again: no recompile.
        std::fs::write(&file, &v3).unwrap();
        assert!(r.recv_timeout(Duration::from_millis(300)).is_none());

        // A different file in the folder is not ours.
        std::fs::write(dir.join("other.rhai"), MINI).unwrap();
        assert!(r.recv_timeout(Duration::from_millis(300)).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn typed_text_compiles_off_the_calling_thread_with_errors_located() {
        let r = Reloader::new(Arc::new(|| {}));
        r.compile_text("typed.rhai", "let v = ;", &RuleOptions::new(), Instant::now());
        let c = r.recv_timeout(Duration::from_secs(5)).unwrap();
        let e = c.result.unwrap_err();
        assert_eq!(e.location.unwrap().line, 1);
    }
}

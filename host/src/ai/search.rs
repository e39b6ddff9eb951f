//! The search: iterative deepening principal variation search (negamax alpha-beta) over any
//! [`Variant`], with a transposition table, move ordering, moves in stages (good captures
//! before the full list), late move reductions, pruning near the horizon (reverse futility,
//! futility, late moves), internal iterative reduction, null-move pruning, check extensions
//! (except for quiet checks the opponent can answer by taking the checker, which are searched
//! like any quiet move), aspiration windows at the root and a capped quiescence search on
//! captures alone that skips captures losing material to a recapture (a two-ply static
//! exchange) and answers a check with every legal move. Static evaluations are remembered by
//! position hash, since the same positions come back in every iteration.
//! With [`Searcher::set_threads`] above one, helper threads search the same root at once and
//! share the transposition table (Lazy SMP): they fill it with results the main thread reuses.
//!
//! It knows the rules only through the trait. Game ends are found where they are cheap: a node
//! with no legal move asks [`Variant::outcome`] why (mate, stalemate, a captured last royal — the
//! trait promises no moves then), a position repeated on the path scores as a draw, and the root's
//! children are judged by the full `outcome` with the game's history, once per search, so declared
//! results (baring, repetition rules, a script's `game_end`) are seen one ply ahead without paying
//! for them at every node of a 25×25 tree.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use henka_api::{HistoryEntry, Move, Position, RuleError, Side, Variant};

use super::delegate::{self, DelegatedSetup, SearchElsewhere, SearchSession};
use super::eval::{Evaluator, Terms};
use super::exchange::Exchange;
use super::mate::MateProbe;
use super::order::{Ordering, bad_capture_score, is_quiet, pick, pick_from_list, victim_value};
use super::tt::{Bound, Table};
use super::values::PieceValues;

/// The score of mating now; mate in `n` plies scores `MATE - n`. Far above any material sum: a
/// Taishin army is worth a few hundred thousand centipawns, and a lead must never read as mate.
pub const MATE: i32 = 100_000_000;
const INFINITY: i32 = MATE + 1_000_000;
/// The deepest the search goes (plies from the root, quiescence included).
const MAX_PLY: usize = 96;
/// Scores beyond this are mates; evaluations stay inside it.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Quiescence stops after this many captures in a row...
const QUIESCENCE_DEPTH: usize = 6;
/// ...and tries only this many captures per position (the most valuable victims): on a big board
/// a position can have dozens, and the rest rarely matter.
const QUIESCENCE_CAPTURES: usize = 12;
/// A capture that cannot bring the score within this of alpha is not tried in quiescence.
const DELTA_MARGIN: i32 = 200;
/// The clock and the stop flag are looked at every this many nodes.
const CHECK_EVERY: u64 = 256;
/// Null-move pruning from this depth on...
const NULL_MIN_DEPTH: i32 = 3;
/// ...and a verification search (without null moves) of its cuts from this depth on.
const NULL_VERIFY_DEPTH: i32 = 8;
/// Reverse futility pruning: how many plies from the horizon a static evaluation far above beta
/// ends a node.
const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// Futility pruning of quiet moves: within this many plies of the horizon.
const FUTILITY_DEPTH: i32 = 3;
/// Late-move pruning of quiet moves: within this many plies of the horizon.
const LATE_MOVE_DEPTH: i32 = 6;
/// Internal iterative reduction: nodes without a table move from this depth on.
const IIR_DEPTH: i32 = 4;
/// Quiet moves remembered per node for the history's malus when a later one cuts.
const TRIED_MAX: usize = 64;
/// The first aspiration window around the last iteration's score, in centipawns.
const ASPIRATION: i32 = 60;
/// Aspiration windows from this depth on.
const ASPIRATION_DEPTH: u32 = 4;
/// Static evaluations remembered per searcher (a power of two).
const EVAL_CACHE: usize = 1 << 16;
/// An evaluation cache slot's score while it holds none.
const NOT_CACHED: i32 = i32::MIN;

/// A search result's score as people read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move (a pawn-like piece ≈ 100).
    Cp(i32),
    /// Mate in this many of the side to move's moves; negative: it is mated in that many.
    Mate(i32),
}

impl Score {
    /// Reads an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) if n > 0 => write!(f, "mate in {n}"),
            Score::Mate(n) => write!(f, "mated in {}", -n),
        }
    }
}

/// When to stop. With none set the search runs until stopped (USI `go infinite`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The search ends when this much time has passed.
    pub time: Option<Duration>,
    /// No new iteration starts after this much time: a player on a clock keeps what the search
    /// would likely not finish for later moves. Without it a timed search uses all of `time`
    /// (a fixed time per move is lost if unused, and an iteration cut short still counts).
    pub soft_time: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl Limits {
    /// A fixed time for the move, all of it used.
    pub fn time(t: Duration) -> Limits {
        Limits { time: Some(t), ..Limits::default() }
    }
}

/// Where a search stands after an iteration, and its final answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The last completed depth (plies, without quiescence).
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// For the side to move at the root.
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line, best move first; never empty.
    pub pv: Vec<Move>,
}

impl Report {
    pub fn best(&self) -> Move {
        self.pv[0]
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// Why a search unwound early.
enum Halt {
    /// Time, node limit or the stop flag.
    Stopped,
    Rule(RuleError),
}

impl From<RuleError> for Halt {
    fn from(e: RuleError) -> Halt {
        Halt::Rule(e)
    }
}

/// A root move, the position after it, and what the rules say about that position.
#[derive(Clone)]
struct RootMove {
    mv: Move,
    child: Position,
    /// The score of a position the rules declare over (from the root's side), searched no further.
    decided: Option<i32>,
}

/// A search engine for one variant. Keeps its table and history between searches (the next move
/// of a game starts warm); [`Searcher::new_game`] forgets them.
pub struct Searcher {
    variant: Arc<dyn Variant>,
    eval: Evaluator,
    tt: Arc<Table>,
    order: Ordering,
    exchange: Exchange,
    mate: MateProbe,
    /// The mate probe's buffer of attackers.
    mate_cells: Vec<henka_api::Cell>,
    stop: Arc<AtomicBool>,
    /// Set while the search unwinds because it was stopped.
    stopped: bool,
    /// Threads per search, this one included.
    threads: usize,
    /// The helper threads' searchers (Lazy SMP), sharing the table; built on first use.
    helpers: Vec<Searcher>,
    /// Nodes the helpers searched in the current search.
    helper_nodes: Arc<AtomicU64>,
    /// The smallest non-royal piece value, and which types are royal (null-move guard).
    smallest: i32,
    royal: Vec<bool>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    seldepth: usize,
    /// The first depth of the iterative deepening (a helper thread may skip depth 1).
    first_depth: u32,
    /// Repetition hashes of the game's positions and the current line's ancestors.
    path: Vec<u64>,
    /// Move and score buffers per ply, reused so the search does not allocate per node.
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    /// Scratch for sorting a long move list ([`pick_from_list`]).
    pairs: Vec<(i32, Move)>,
    /// Per ply, the quiet moves searched so far at the node (the history's malus).
    tried: Vec<Vec<Move>>,
    /// Per ply, the captures searched in the node's first stage (`search_moves`).
    early: Vec<Vec<Move>>,
    /// Per ply, the position a move is played on: overwritten for each move rather than cloned,
    /// so that trying a move allocates nothing.
    children: Vec<Option<Position>>,
    /// Per ply, the static evaluation of the node on the current line there and its side to
    /// move (`None` in check): whether a side's position is improving compares with it.
    evals: Vec<Option<(Side, i32)>>,
    /// Static evaluations by position hash (see [`Searcher::evaluate`]).
    eval_cache: Vec<(u64, i32)>,
    /// The table size asked for (a search elsewhere builds its table there).
    table_mb: usize,
    /// Where a variant whose rules run in another process is searched ([`super::delegate`]),
    /// the session this searcher has there, and whether it should forget earlier searches.
    elsewhere: Option<Arc<dyn SearchElsewhere>>,
    session: Option<Box<dyn SearchSession>>,
    forget: bool,
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher").field("variant", &self.variant.info().meta.name).finish()
    }
}

impl Searcher {
    /// A searcher with a transposition table of about `table_mb` megabytes.
    pub fn new(variant: Arc<dyn Variant>, values: PieceValues, table_mb: usize) -> Searcher {
        Searcher::with_terms(variant, values, Terms::default(), table_mb)
    }

    /// A searcher whose evaluation also weighs `terms` (tuned ones, see [`super::tuned`]).
    pub fn with_terms(variant: Arc<dyn Variant>, values: PieceValues, terms: Terms, table_mb: usize) -> Searcher {
        let eval = Evaluator::with_terms(variant.as_ref(), values, terms);
        Searcher::with_evaluator(variant, eval, table_mb)
    }

    /// A searcher that evaluates with `eval` (a tuned one with a placement table, say). A variant
    /// searched in its plugin's process gets the values and terms only: plugins have no script
    /// hash, so nothing tuned, table or not, is ever stored for them.
    pub fn with_evaluator(variant: Arc<dyn Variant>, eval: Evaluator, table_mb: usize) -> Searcher {
        let elsewhere = delegate::elsewhere(&variant);
        // Searched elsewhere, the table lives there; this one stays at its smallest.
        let local_mb = if elsewhere.is_some() { 0 } else { table_mb };
        let mut s = Searcher::from_parts(variant, eval, Arc::new(Table::new(local_mb)));
        s.table_mb = table_mb;
        s.elsewhere = elsewhere;
        s
    }

    /// The static evaluation of `pos`, remembered by its hash: a search meets the same positions
    /// again (transpositions, the first plies of every iteration), and a lookup costs less than
    /// an evaluation that walks every piece's attacks. A collision of two hashes costs one wrong
    /// evaluation, as in the transposition table.
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = pos.hash();
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE - 1)];
        if slot.0 == key && slot.1 != NOT_CACHED {
            return slot.1;
        }
        let score = self.eval.evaluate(pos);
        *slot = (key, score);
        score
    }

    /// Starts loading `pos`'s slot of the evaluation cache (see [`super::tt::prefetch`]).
    #[inline]
    fn prefetch_evaluation(&self, pos: &Position) {
        super::tt::prefetch(&self.eval_cache[pos.hash() as usize & (EVAL_CACHE - 1)]);
    }

    fn from_parts(variant: Arc<dyn Variant>, eval: Evaluator, tt: Arc<Table>) -> Searcher {
        let types = variant.info().pieces.len();
        let cells = variant.geometry().len();
        let royal: Vec<bool> = variant.info().pieces.iter().map(|p| p.royal).collect();
        let smallest =
            (0..types).filter(|&t| !royal[t]).map(|t| eval.values().board(t as henka_api::PieceId)).min().unwrap_or(0);
        Searcher {
            exchange: Exchange::new(variant.as_ref()),
            mate: MateProbe::new(variant.as_ref()),
            mate_cells: Vec::new(),
            eval,
            variant,
            tt,
            order: Ordering::new(types, cells),
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            threads: 1,
            helpers: Vec::new(),
            helper_nodes: Arc::new(AtomicU64::new(0)),
            smallest,
            royal,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            seldepth: 0,
            first_depth: 1,
            path: Vec::new(),
            moves: vec![Vec::new(); MAX_PLY + 1],
            scores: vec![Vec::new(); MAX_PLY + 1],
            pairs: Vec::new(),
            eval_cache: vec![(0, NOT_CACHED); EVAL_CACHE],
            tried: vec![Vec::new(); MAX_PLY + 1],
            early: vec![Vec::new(); MAX_PLY + 1],
            children: vec![None; MAX_PLY + 1],
            evals: vec![None; MAX_PLY + 1],
            table_mb: 0,
            elsewhere: None,
            session: None,
            forget: false,
        }
    }

    pub fn variant(&self) -> &Arc<dyn Variant> {
        &self.variant
    }

    /// Setting this flag stops a running search, which then answers with what it has. The caller
    /// clears it before the next search (so a stop sent just before a search starts is not lost).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Makes `flag` this searcher's stop flag (one flag can then stop whichever searcher runs).
    pub fn share_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Replaces the transposition table with one of about `table_mb` megabytes.
    pub fn resize_table(&mut self, table_mb: usize) {
        self.table_mb = table_mb;
        if self.elsewhere.is_none() {
            self.tt = Arc::new(Table::new(table_mb));
        }
        self.helpers.clear();
    }

    /// Searches with `threads` threads (at least one): the extra ones are Lazy SMP helpers.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, 256);
        self.helpers.truncate(self.threads - 1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The evaluation this searcher uses.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Forgets what earlier searches learnt.
    pub fn new_game(&mut self) {
        self.forget = true;
        self.tt.clear();
        self.order.clear();
        for h in &mut self.helpers {
            h.order.clear();
        }
    }

    /// Searches `pos`, reached after the game positions in `history` (oldest first, as
    /// [`henka_api::Game::history`] keeps them), calling `on_report` after every completed depth.
    /// Returns the last report, or `None` when the side to move has no legal move.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[HistoryEntry],
        limits: Limits,
        mut on_report: impl FnMut(&Report),
    ) -> Result<Option<Report>, RuleError> {
        if let Some(by) = self.elsewhere.clone() {
            return self.search_elsewhere(by.as_ref(), pos, history, limits, &mut on_report);
        }
        let start = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.order.new_search();
        let v = self.variant.clone();
        // Script hooks get one time budget for the whole search (helpers included).
        let _search = henka_api::variant::SearchScope::new(v.as_ref());

        let mut legal = Vec::new();
        v.legal_moves(pos, &mut legal)?;
        if legal.is_empty() {
            return Ok(None);
        }
        let mut root = self.root_moves(pos, history, &legal)?;
        let max_depth = match (limits.depth, limits.time) {
            (Some(d), _) => d.clamp(1, MAX_PLY as u32 - 1),
            // With one move, or a win in one, there is nothing to think about.
            (None, Some(_)) if root.len() == 1 || root[0].decided == Some(MATE - 1) => 1,
            _ => MAX_PLY as u32 - 1,
        };
        if self.threads <= 1 || max_depth <= 1 {
            return self.iterate(&mut root, pos, limits, max_depth, start, &mut on_report).map(Some);
        }
        // Lazy SMP: helpers search the same root without limits until the main search ends.
        while self.helpers.len() < self.threads - 1 {
            let mut h = Searcher::from_parts(self.variant.clone(), self.eval.clone(), self.tt.clone());
            h.stop = Arc::new(AtomicBool::new(false));
            self.helpers.push(h);
        }
        let helper_stop = Arc::new(AtomicBool::new(false));
        self.helper_nodes.store(0, AtomicOrdering::Relaxed);
        let mut helpers = std::mem::take(&mut self.helpers);
        let path = self.path.clone();
        let result = std::thread::scope(|scope| {
            for (k, h) in helpers.iter_mut().enumerate() {
                h.share_stop_flag(helper_stop.clone());
                h.path.clone_from(&path);
                let mut root = root.clone();
                let counter = self.helper_nodes.clone();
                scope.spawn(move || {
                    h.nodes = 0;
                    h.seldepth = 0;
                    h.stopped = false;
                    h.node_limit = u64::MAX;
                    h.deadline = None;
                    h.order.new_search();
                    // Half the helpers start a ply deeper, so the threads spread over depths.
                    h.first_depth = 1 + (k as u32 % 2);
                    let _ = h.iterate(&mut root, pos, Limits::default(), max_depth, start, &mut |_| {});
                    h.first_depth = 1;
                    counter.fetch_add(h.nodes, AtomicOrdering::Relaxed);
                });
            }
            let r = self.iterate(&mut root, pos, limits, max_depth, start, &mut on_report);
            helper_stop.store(true, AtomicOrdering::Relaxed);
            r
        });
        self.helpers = helpers;
        result.map(Some)
    }

    /// The whole search in the variant's own process, one request (see [`super::delegate`]).
    fn search_elsewhere(
        &mut self,
        by: &dyn SearchElsewhere,
        pos: &Position,
        history: &[HistoryEntry],
        limits: Limits,
        on_report: &mut dyn FnMut(&Report),
    ) -> Result<Option<Report>, RuleError> {
        let mut session = match self.session.take() {
            Some(s) => s,
            None => by.open_session()?,
        };
        let setup = DelegatedSetup {
            values: self.eval.values().clone(),
            terms: self.eval.terms(),
            table_mb: self.table_mb,
            threads: self.threads,
            new_game: std::mem::take(&mut self.forget),
        };
        // A failed session is dropped: the next search opens a fresh one.
        let r = session.search(pos, history, limits, &setup, &self.stop, on_report)?;
        self.session = Some(session);
        Ok(r)
    }

    /// Iterative deepening over `root` up to `max_depth`: the last completed iteration's report.
    fn iterate(
        &mut self,
        root: &mut Vec<RootMove>,
        pos: &Position,
        limits: Limits,
        max_depth: u32,
        start: Instant,
        on_report: &mut dyn FnMut(&Report),
    ) -> Result<Report, RuleError> {
        let mut best = 0usize;
        let mut report: Option<Report> = None;
        let mut last_score = 0i32;
        for depth in self.first_depth.min(max_depth)..=max_depth {
            let windowed = depth >= ASPIRATION_DEPTH && last_score.abs() < MATE_BOUND / 2 && report.is_some();
            let mut delta = ASPIRATION;
            let (mut alpha, mut beta) =
                if windowed { (last_score - delta, last_score + delta) } else { (-INFINITY, INFINITY) };
            let outcome = loop {
                match self.search_root(root, pos, depth as i32, alpha, beta) {
                    Ok((index, score)) if !self.stopped && score <= alpha && alpha > -INFINITY => {
                        // Failed low: widen downwards and search again.
                        let _ = index;
                        delta = delta.saturating_mul(3);
                        alpha = if delta > MATE_BOUND / 4 { -INFINITY } else { (score - delta).max(-INFINITY) };
                    }
                    Ok((_, score)) if !self.stopped && score >= beta && beta < INFINITY => {
                        delta = delta.saturating_mul(3);
                        beta = if delta > MATE_BOUND / 4 { INFINITY } else { (score + delta).min(INFINITY) };
                    }
                    // A fail low found while stopping says nothing about the moves.
                    Ok((_, score)) if self.stopped && score <= alpha && alpha > -INFINITY => break Err(Halt::Stopped),
                    other => break other,
                }
            };
            match outcome {
                Ok((index, score)) => {
                    best = index;
                    last_score = score;
                    let mv = root[best].mv;
                    let child = root[best].child.clone();
                    let r = self.report(depth, score, mv, &child, start)?;
                    on_report(&r);
                    report = Some(r);
                    // The best move first next time; the rest keep their order.
                    let chosen = root.remove(best);
                    root.insert(0, chosen);
                    best = 0;
                }
                Err(Halt::Stopped) => break,
                Err(Halt::Rule(e)) => return Err(e),
            }
            let elapsed = start.elapsed();
            let score = report.as_ref().map(|r| r.score);
            let mate_found = matches!(score, Some(Score::Mate(n)) if n.unsigned_abs() * 2 <= depth);
            // An iteration cut short still counts (`search_root`), so a fixed time is used up;
            // on a clock, one that would likely not finish is not started (`soft_time`).
            let out_of_time = limits.soft_time.is_some_and(|t| elapsed > t);
            if mate_found
                || out_of_time
                || self.stopped
                || self.nodes >= self.node_limit
                || self.stop.load(AtomicOrdering::Relaxed)
            {
                break;
            }
        }
        // Stopped before depth 1 finished: the ordering's first choice is still a legal move.
        let mut r = match report {
            Some(r) => r,
            None => {
                let child = root[best].child.clone();
                let score = self.eval.evaluate(&child);
                // From the root's side (the child's unless the move gave the mover another move).
                let score = if child.side_to_move() == pos.side_to_move() { score } else { -score };
                self.report(0, score, root[best].mv, &child, start)?
            }
        };
        r.nodes += self.helper_nodes.load(AtomicOrdering::Relaxed);
        Ok(r)
    }

    /// The root moves in a first order (captures and promotions first, decided losses last),
    /// each judged by the full rules while the clock allows.
    fn root_moves(
        &mut self,
        pos: &Position,
        history: &[HistoryEntry],
        legal: &[Move],
    ) -> Result<Vec<RootMove>, RuleError> {
        let v = self.variant.clone();
        let mut game_history = history.to_vec();
        game_history.push(HistoryEntry::new(pos.repetition_hash(), v.in_check(pos)));
        let mut scores = Vec::new();
        self.order.score(pos, legal, None, 0, self.eval.values(), &mut scores);
        let mut order: Vec<usize> = (0..legal.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let me = pos.side_to_move();
        let mut root = Vec::with_capacity(legal.len());
        for i in order {
            let mv = legal[i];
            let mut child = pos.clone();
            v.play(&mut child, mv)?;
            if let Some(root_entry) = game_history.last_mut() {
                root_entry.played = mv;
            }
            let out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
            let decided = if out_of_time {
                None
            } else {
                v.outcome(&child, &game_history)?.map(|o| match o.winner {
                    Some(w) if w == me => MATE - 1,
                    Some(_) => -(MATE - 1),
                    None => 0,
                })
            };
            root.push(RootMove { mv, child, decided });
        }
        // A win first, losses last: the first move is searched with the full window.
        root.sort_by_key(|r| match r.decided {
            Some(s) if s > 0 => 0,
            None => 1,
            Some(0) => 2,
            Some(_) => 3,
        });
        self.path.clear();
        self.path.extend(history.iter().map(|h| h.hash));
        Ok(root)
    }

    /// One iteration over the root moves; the best index and its score.
    /// Within the window `(alpha, beta)`: a score at or below `alpha` is an upper bound (every
    /// move failed low), one at or above `beta` a lower bound for the move returned.
    fn search_root(
        &mut self,
        root: &[RootMove],
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<(usize, i32), Halt> {
        let floor = alpha;
        let mut best = None;
        self.path.push(pos.repetition_hash());
        let result = (|| {
            for (i, rm) in root.iter().enumerate() {
                let score = match rm.decided {
                    Some(s) => s,
                    None if i == 0 => self.child_score(pos, &rm.child, depth - 1, 1, alpha, beta, true, true)?,
                    None => {
                        let s = self.child_score(pos, &rm.child, depth - 1, 1, alpha, alpha + 1, false, true)?;
                        if s > alpha && s < beta {
                            self.child_score(pos, &rm.child, depth - 1, 1, alpha, beta, true, true)?
                        } else {
                            s
                        }
                    }
                };
                if score > alpha || best.is_none() {
                    alpha = score.max(alpha);
                    best = Some((i, score));
                    if score >= beta {
                        break;
                    }
                }
            }
            Ok(())
        })();
        self.path.pop();
        match result {
            Ok(()) => Ok(best.expect("the root has moves")),
            // Stopped part-way: a move that beat the previous best after it was searched in full
            // is still a better answer than the last iteration's.
            Err(Halt::Stopped) => match best {
                Some((i, score)) if i > 0 && score > floor => Ok((i, score)),
                _ => Err(Halt::Stopped),
            },
            Err(e) => Err(e),
        }
    }

    fn report(
        &mut self,
        depth: u32,
        score: i32,
        best: Move,
        child: &Position,
        start: Instant,
    ) -> Result<Report, RuleError> {
        let mut pv = vec![best];
        self.extend_pv(child, &mut pv)?;
        Ok(Report {
            depth,
            seldepth: self.seldepth as u32,
            score: Score::from_internal(score),
            nodes: self.nodes,
            elapsed: start.elapsed(),
            pv,
        })
    }

    /// Follows the table's moves from `pos` while they are legal and the line does not repeat.
    fn extend_pv(&self, pos: &Position, pv: &mut Vec<Move>) -> Result<(), RuleError> {
        let mut pos = pos.clone();
        let mut seen = vec![pos.hash()];
        let mut legal = Vec::new();
        while pv.len() < MAX_PLY {
            let Some(mv) = self.tt.probe(pos.hash()).and_then(|e| e.mv) else { break };
            self.variant.legal_moves(&pos, &mut legal)?;
            if !legal.contains(&mv) {
                break;
            }
            self.variant.play(&mut pos, mv)?;
            pv.push(mv);
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
        }
        Ok(())
    }

    /// Counts a node; says stop when the time, the node budget or the stop flag says so.
    #[inline]
    fn tick(&mut self, ply: usize) -> Result<(), Halt> {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes.is_multiple_of(CHECK_EVERY)
            && (self.stop.load(AtomicOrdering::Relaxed)
                || self.nodes >= self.node_limit
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
            return Err(Halt::Stopped);
        }
        Ok(())
    }

    /// Whether the position with repetition hash `rep` occurred before with the same side to move.
    fn repeated(&self, rep: u64) -> bool {
        let n = self.path.len();
        (2..=n).step_by(2).any(|back| self.path[n - back] == rep)
    }

    /// The score of a position without legal moves, from its side to move's view.
    fn terminal(&self, pos: &Position, ply: usize) -> Result<i32, Halt> {
        let mate = MATE - ply as i32;
        Ok(match self.variant.outcome(pos, &[])? {
            Some(o) => match o.winner {
                Some(w) if w == pos.side_to_move() => mate,
                Some(_) => -mate,
                None => 0,
            },
            None => 0,
        })
    }

    /// Whether the side to move has enough besides its royals that passing is no real option
    /// for it (null-move pruning assumes a move that helps exists; zugzwang needs bare sides).
    fn has_material(&self, pos: &Position) -> bool {
        let me = pos.side_to_move();
        let values = self.eval.values();
        let mut total = 0;
        for p in pos.cells().iter().flatten() {
            if p.side == me && !self.royal[p.ty as usize] {
                total += values.board(p.ty);
            }
        }
        for ty in 0..self.royal.len() {
            if !self.royal[ty] {
                total += pos.hand(me, ty as henka_api::PieceId) as i32 * values.hand(ty as henka_api::PieceId);
            }
        }
        total >= 3 * self.smallest.max(1)
    }

    /// A child's score from the parent's side, within the parent's window `(alpha, beta)`: the
    /// child is searched from its own side to move, which is the parent's opponent after most
    /// moves, and the parent itself after a move whose effect gives the mover another move.
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        parent: &Position,
        child: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        pv: bool,
        null_ok: bool,
    ) -> Result<i32, Halt> {
        // The child's table slot (where it is searched, not handed to quiescence) and cached
        // evaluation are read once the repetition and check tests are done: loaded meanwhile.
        if depth > 0 {
            self.tt.prefetch(child.hash());
        }
        self.prefetch_evaluation(child);
        if child.side_to_move() == parent.side_to_move() {
            self.negamax(child, depth, ply, alpha, beta, pv, null_ok)
        } else {
            Ok(-self.negamax(child, depth, ply, -beta, -alpha, pv, null_ok)?)
        }
    }

    /// [`Searcher::child_score`] for the quiescence search.
    #[allow(clippy::too_many_arguments)]
    fn child_quiesce(
        &mut self,
        parent: &Position,
        child: &Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        qdepth: usize,
        generated: bool,
    ) -> Result<i32, Halt> {
        self.prefetch_evaluation(child);
        if child.side_to_move() == parent.side_to_move() {
            self.quiesce(child, ply, alpha, beta, qdepth, generated)
        } else {
            Ok(-self.quiesce(child, ply, -beta, -alpha, qdepth, generated)?)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv: bool,
        null_ok: bool,
    ) -> Result<i32, Halt> {
        let rep = pos.repetition_hash();
        if self.repeated(rep) {
            return Ok(0);
        }
        let in_check = ply < MAX_PLY / 2 && self.variant.in_check(pos);
        // A check is searched one ply deeper: the reply is forced, and mates hide behind checks.
        let depth = if in_check { depth.max(0) + 1 } else { depth };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, ply, alpha, beta, 0, false);
        }
        // Counted here, not on entry: a position handed to quiescence is counted there, once.
        self.tick(ply)?;
        // No line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Ok(alpha);
        }
        let key = pos.hash();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            let s = from_table(e.score, ply);
            if !pv && e.depth as i32 >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return Ok(s);
                }
            }
        }
        // A node the table knows no move for is new to the search: a shallower look orders it
        // for the next iteration at a fraction of the cost (internal iterative reduction).
        let depth = if tt_move.is_none() && depth >= IIR_DEPTH { depth - 1 } else { depth };
        // In check, the static evaluation says nothing: every reply must be searched.
        let static_eval = (!in_check).then(|| self.evaluate(pos));
        let improving = self.improving(pos.side_to_move(), static_eval, ply);
        // Reverse futility: far enough above beta near the horizon, no reply will bring it down.
        if let Some(e) = static_eval
            && !pv
            && depth <= REVERSE_FUTILITY_DEPTH
            && beta.abs() < MATE_BOUND
            && e - self.futility_margin(depth - improving as i32) >= beta
        {
            return Ok(e);
        }
        // Null move: if passing still beats beta after a shallower search, a real move will too.
        if let Some(e) = static_eval
            && !pv
            && null_ok
            && depth >= NULL_MIN_DEPTH
            && beta.abs() < MATE_BOUND
            && self.has_material(pos)
            && e >= beta
        {
            let r = 2 + depth / 4;
            let mut child = pos.clone();
            child.switch_turn();
            self.path.push(rep);
            let s = self.negamax(&child, depth - 1 - r, ply + 1, -beta, -beta + 1, false, false);
            self.path.pop();
            let s = -s?;
            if s >= beta {
                let s = if s >= MATE_BOUND { beta } else { s };
                if depth < NULL_VERIFY_DEPTH {
                    return Ok(s);
                }
                // Deep cuts are checked by a reduced search without null moves.
                if self.negamax(pos, depth - 1 - r, ply, beta - 1, beta, false, false)? >= beta {
                    return Ok(s);
                }
            }
        }
        let node = Node { depth, ply, pv, static_eval, rep, improving };
        let (best, best_move) = match self.search_moves(pos, tt_move, node, alpha, beta)? {
            Some(r) => r,
            None => return self.terminal(pos, ply),
        };
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, depth as i16, to_table(best, ply), bound, best_move);
        Ok(best)
    }

    /// The move loop of [`Searcher::negamax`]: the best score and move, or `None` without moves.
    ///
    /// Moves come in stages where the table's move is a capture or there is none: first the
    /// captures that do not lose material (generated alone, which skips the drops and most of the
    /// legality tests), then everything else. A cut by a capture, the common case, never pays for
    /// the full move list.
    fn search_moves(
        &mut self,
        pos: &Position,
        tt_move: Option<Move>,
        node: Node,
        mut alpha: i32,
        beta: i32,
    ) -> Result<Option<(i32, Option<Move>)>, Halt> {
        let Node { depth, ply, pv, static_eval, rep, improving } = node;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let v = self.variant.clone();
        let stages: &[Stage] =
            if tt_move.is_none_or(|m| pos.is_capture(m)) { &[Stage::GoodCaptures, Stage::Rest] } else { &[Stage::All] };
        // Near the horizon, a quiet move that comes late in the order is not searched at all,
        // checks included (Stockfish's move picker skips them alike: a king fight offers dozens
        // of checking drops, and searching every one a ply deeper doubled its tree); one that
        // cannot lift a hopeless static evaluation above alpha is not searched unless it checks.
        let futile =
            static_eval.is_some_and(|e| !pv && depth <= FUTILITY_DEPTH && e + self.futility_margin(depth) <= alpha);
        let late = if !pv && static_eval.is_some() && depth <= LATE_MOVE_DEPTH {
            late_move_count(depth, improving)
        } else {
            usize::MAX
        };
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut tried = std::mem::take(&mut self.tried[ply]);
        tried.clear();
        let mut early = std::mem::take(&mut self.early[ply]);
        early.clear();
        let mut child = self.children[ply].take().unwrap_or_else(|| pos.clone());
        let mut has_moves = false;
        self.path.push(rep);
        let result = (|| {
            let mut quiets = 0;
            // Moves looked at so far, over all stages: the first is searched with the full window.
            let mut i = 0;
            'stages: for &stage in stages {
                match stage {
                    Stage::GoodCaptures => v.legal_captures(pos, &mut moves)?,
                    Stage::Rest | Stage::All => v.legal_moves(pos, &mut moves)?,
                }
                has_moves |= !moves.is_empty();
                if stage == Stage::Rest {
                    moves.retain(|m| !early.contains(m));
                }
                self.order.score(pos, &moves, tt_move, ply, self.eval.values(), &mut scores);
                if depth >= 2 {
                    // Captures that lose the capturer to a recapture go after the killers.
                    for k in 0..moves.len() {
                        if is_quiet(scores[k]) || Some(moves[k]) == tt_move {
                            continue;
                        }
                        if let Some(loss) = self.exchange_loss(pos, moves[k], ply)?
                            && loss > 0
                        {
                            scores[k] = bad_capture_score(loss);
                        }
                    }
                }
                let mut sorted = false;
                for k in 0..moves.len() {
                    let mv = pick_from_list(&mut moves, &mut scores, k, &mut sorted, &mut self.pairs);
                    let quiet = is_quiet(scores[k]);
                    if stage == Stage::GoodCaptures {
                        if quiet {
                            // A losing capture: it waits for the next stage, with the quiet moves.
                            continue 'stages;
                        }
                        early.push(mv);
                    }
                    let calm = quiet && !pos.is_capture(mv);
                    let index = i;
                    i += 1;
                    if quiet {
                        quiets += 1;
                    }
                    let may_prune = quiet && index > 0 && best > -MATE_BOUND;
                    if may_prune && quiets > late {
                        continue;
                    }
                    let prunable = may_prune && futile;
                    // Whether the move gives check (or keeps the turn): such moves are never
                    // reduced or pruned as futile. The variant may tell without the move being
                    // played (drops, in the kit), which spares playing the many moves pruned here.
                    let mut gives = if prunable { v.gives_check_unplayed(pos, mv) } else { None };
                    if gives == Some(false) {
                        continue;
                    }
                    child.clone_from(pos);
                    v.play(&mut child, mv)?;
                    // Only quiet moves are ever pruned, reduced or judged spite checks: the others
                    // are not asked (an attack test per capture saved).
                    let gives = quiet
                        && *gives
                            .get_or_insert_with(|| child.side_to_move() == pos.side_to_move() || v.in_check(&child));
                    // A quiet check whose checker the opponent can take is no forced line (a
                    // king hunt offers dozens of such checking drops): it is searched like any
                    // quiet move, and the check extension it earns the reply is taken back.
                    let spite =
                        gives && child.side_to_move() != pos.side_to_move() && self.retaken(&child, mv.to, ply)?;
                    let forcing = gives && !spite;
                    if prunable && !forcing {
                        continue;
                    }
                    // Taking the extension back: the whole move is searched a ply shallower.
                    let depth = depth - spite as i32;
                    let score = if index == 0 {
                        self.child_score(pos, &child, depth - 1, ply + 1, alpha, beta, pv, true)?
                    } else {
                        // Late quiet moves (and losing captures) rarely matter: look at them
                        // shallower first, the later the shallower.
                        let reduction = if depth >= 3 && quiet && index >= 2 + pv as usize && !forcing {
                            reduction(depth, index, pv)
                        } else {
                            0
                        };
                        let mut s = self.child_score(
                            pos,
                            &child,
                            depth - 1 - reduction,
                            ply + 1,
                            alpha,
                            alpha + 1,
                            false,
                            true,
                        )?;
                        if s > alpha && reduction > 0 {
                            s = self.child_score(pos, &child, depth - 1, ply + 1, alpha, alpha + 1, false, true)?;
                        }
                        if s > alpha && s < beta && pv {
                            s = self.child_score(pos, &child, depth - 1, ply + 1, alpha, beta, true, true)?;
                        }
                        s
                    };
                    if score > best {
                        best = score;
                        best_move = Some(mv);
                        if score > alpha {
                            alpha = score;
                            if score >= beta {
                                if calm {
                                    self.order.reward(pos.side_to_move(), mv, &tried, ply, depth);
                                }
                                break 'stages;
                            }
                        }
                    }
                    if calm && tried.len() < TRIED_MAX {
                        tried.push(mv);
                    }
                }
            }
            Ok(())
        })();
        self.path.pop();
        self.tried[ply] = tried;
        self.early[ply] = early;
        self.children[ply] = Some(child);
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        result.map(|()| has_moves.then_some((best, best_move)))
    }

    /// Records the node's static evaluation and says whether its side stands better than at its
    /// own node two plies up the line (four, if it was in check there; true when neither is
    /// known), as Stockfish's pruning asks. An improving side is trusted sooner to stay above
    /// beta (reverse futility's margin is a ply smaller); a side not improving tries half as
    /// many quiet moves before late-move pruning.
    fn improving(&mut self, me: Side, static_eval: Option<i32>, ply: usize) -> bool {
        self.evals[ply] = static_eval.map(|e| (me, e));
        let Some(e) = static_eval else { return false };
        let back = |k: usize| if ply >= k { self.evals[ply - k] } else { None };
        match (back(2), back(4)) {
            (Some((s, earlier)), _) | (None, Some((s, earlier))) if s == me => e > earlier,
            _ => true,
        }
    }

    /// How far above beta (or below alpha) the static evaluation must stand `depth` plies from
    /// the horizon for a move to be judged without searching it: two of the smallest piece per
    /// ply, so the margin scales with the variant's values.
    fn futility_margin(&self, depth: i32) -> i32 {
        2 * self.smallest.max(1) * depth
    }

    /// What a capture loses on its target: by the static exchange where the variant lists
    /// attackers, else by the two-ply `victim − capturer` when the opponent can take back there
    /// (its captures are then left in `self.moves[ply + 1]`); `None` for a capture that cannot
    /// lose (its victim is worth at least the capturer).
    fn exchange_loss(&mut self, pos: &Position, mv: Move, ply: usize) -> Result<Option<i32>, Halt> {
        let values = self.eval.values();
        let victim = victim_value(pos, mv, values);
        let capturer = values.board(mv.piece);
        if victim == 0 || victim >= capturer || ply + 1 > MAX_PLY {
            return Ok(None);
        }
        if let Some(balance) = self.exchange.evaluate(self.variant.as_ref(), pos, mv, values) {
            return Ok(Some((-balance).max(0)));
        }
        let mut child = pos.clone();
        self.variant.play(&mut child, mv)?;
        let retaken = self.retaken(&child, mv.to, ply)?;
        Ok(Some(if retaken { capturer - victim } else { 0 }))
    }

    /// Whether the side to move in `child` (reached from the node at `ply`) can take on `cell`.
    /// Its legal captures are left in `self.moves[ply + 1]`, where the child's search finds them.
    fn retaken(&mut self, child: &Position, cell: henka_api::Cell, ply: usize) -> Result<bool, Halt> {
        let mut replies = std::mem::take(&mut self.moves[ply + 1]);
        let r = self.variant.legal_captures(child, &mut replies);
        let retaken = replies.iter().any(|m| m.to == cell);
        self.moves[ply + 1] = replies;
        r?;
        Ok(retaken)
    }

    /// Captures only, until the position is quiet: the side to move may also stand pat. A side
    /// in check may not: it answers with every legal move (a check at the horizon can be a mate
    /// or a fork). With `generated`, `self.moves[ply]` already holds the position's legal
    /// captures.
    fn quiesce(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qdepth: usize,
        generated: bool,
    ) -> Result<i32, Halt> {
        self.tick(ply)?;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        let mut child = self.children[ply].take().unwrap_or_else(|| pos.clone());
        let result = (|| {
            let v = self.variant.clone();
            let in_check = v.in_check(pos);
            if in_check {
                v.legal_moves(pos, &mut moves)?;
                if moves.is_empty() {
                    return self.terminal(pos, ply);
                }
            }
            let stand = self.evaluate(pos);
            if (stand >= beta && !in_check) || qdepth >= QUIESCENCE_DEPTH || ply >= MAX_PLY - 1 {
                return Ok(stand);
            }
            // The captures only once standing pat has not ended the node: generating legal
            // captures is the costliest step of the rest.
            if !in_check && !generated {
                v.legal_captures(pos, &mut moves)?;
            }
            // Where the main search ended, a mate by a drop is looked for before the captures:
            // the move that allowed it is refuted here rather than a ply later. Only below beta
            // (a mate above it changes nothing) and only at the horizon itself, not after the
            // captures that follow it.
            if !in_check && qdepth == 0 {
                let mut scratch = std::mem::take(&mut self.moves[ply + 1]);
                let mut cells = std::mem::take(&mut self.mate_cells);
                let found = self.mate.drop_mate(v.as_ref(), pos, &mut scratch, &mut cells);
                self.moves[ply + 1] = scratch;
                self.mate_cells = cells;
                if found?.is_some() {
                    return Ok(MATE - ply as i32 - 1);
                }
            }
            let mut best = if in_check { -MATE + ply as i32 } else { stand };
            alpha = alpha.max(best);
            let values = self.eval.values();
            scores.clear();
            scores.extend(moves.iter().map(|&mv| victim_value(pos, mv, values)));
            let tried = if in_check { moves.len() } else { moves.len().min(QUIESCENCE_CAPTURES) };
            for i in 0..tried {
                let mv = pick(&mut moves, &mut scores, i);
                let victim = scores[i];
                // Sorted by victim: once one cannot help, none after it can.
                if !in_check && (victim == 0 || stand + victim + DELTA_MARGIN <= alpha) {
                    break;
                }
                // A capture that loses material is no way to a quiet position: by the static
                // exchange where the variant has it, else when the capturer is worth more and
                // can be taken back.
                let risky = !in_check && victim < self.eval.values().board(mv.piece) && ply + 1 < MAX_PLY;
                let exchange = if risky {
                    self.exchange.evaluate(self.variant.as_ref(), pos, mv, self.eval.values())
                } else {
                    None
                };
                if exchange.is_some_and(|balance| balance < 0) {
                    continue;
                }
                child.clone_from(pos);
                self.variant.play(&mut child, mv)?;
                let mut generated = false;
                if risky && exchange.is_none() {
                    if self.retaken(&child, mv.to, ply)? {
                        continue;
                    }
                    generated = true;
                }
                let s = self.child_quiesce(pos, &child, ply + 1, alpha, beta, qdepth + 1, generated)?;
                if s > best {
                    best = s;
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            break;
                        }
                    }
                }
            }
            Ok(best)
        })();
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        self.children[ply] = Some(child);
        result
    }
}

/// What [`Searcher::negamax`] hands its move loop about the node.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    pv: bool,
    /// The static evaluation; `None` in check.
    static_eval: Option<i32>,
    rep: u64,
    improving: bool,
}

/// The stages of a node's moves ([`Searcher::search_moves`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The captures that do not lose material, by themselves.
    GoodCaptures,
    /// Every legal move not searched in the first stage.
    Rest,
    /// Every legal move at once (the table's move is a quiet one, so it must come first).
    All,
}

/// How many quiet moves a node `depth` plies from the horizon searches before it prunes the
/// rest (drop variants offer a hundred quiet moves; the first few by history are the ones that
/// matter there), half as many where the side is not improving (Stockfish's rule).
fn late_move_count(depth: i32, improving: bool) -> usize {
    (3 + (depth * depth) as usize) / (2 - improving as usize)
}

/// How many plies shallower the `i`-th move of a node is first searched: more for later moves
/// and deeper nodes (the logarithmic rule of engines since Stockfish), one less on the
/// principal variation, and always leaving at least one ply.
fn reduction(depth: i32, i: usize, pv: bool) -> i32 {
    let r = (0.5 + (depth as f64).ln() * (i as f64).ln() / 1.6) as i32 - pv as i32;
    r.clamp(0, (depth - 2).max(0))
}

/// Mate scores are stored relative to the node, so they stay right wherever the node recurs.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A searcher for `v` with its piece values estimated (and `overrides` applied).
/// When `henka tune` stored weights for the variant's exact script (or Henka ships some for it),
/// they are used instead.
pub fn searcher_for(v: Arc<dyn Variant>, overrides: &[Option<i32>], table_mb: usize) -> Searcher {
    if let Some(t) = super::tuned::for_variant(&v) {
        let eval = t.evaluator(v.as_ref());
        return Searcher::with_evaluator(v, eval, table_mb);
    }
    let values = PieceValues::estimate(v.as_ref(), overrides);
    Searcher::new(v, values, table_mb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use henka_api::{Game, Side};

    fn bundled(name: &str) -> Arc<dyn Variant> {
        crate::catalog::bundled_script(name).variant
    }

    fn search(v: &Arc<dyn Variant>, position: &str, limits: Limits) -> Report {
        let mut s = searcher_for(v.clone(), &[], 8);
        let pos = v.parse_position(position).unwrap();
        s.search(&pos, &[], limits, |_| {}).unwrap().unwrap()
    }

    /// A mate that gives checking drops away is found, within five plies of nominal depth:
    /// every mate in three here sacrifices a drop (Fairy-Stockfish finds it as mate in 5 plies).
    #[test]
    fn finds_a_mate_through_sacrificed_checking_drops() {
        let v = bundled("shogi");
        let position = "7sk/5s3/6s1+B/5+B3/9/9/9/9/K8 b GGS 1";
        let r = search(&v, position, Limits { depth: Some(5), ..Limits::default() });
        assert_eq!(r.score, Score::Mate(3), "{:?}", r.pv);
        let mut game = Game::new(v.parse_position(position).unwrap());
        for &mv in &r.pv {
            game.play(v.as_ref(), mv).unwrap();
        }
        let o = game.outcome(v.as_ref()).unwrap().unwrap();
        assert_eq!(o.winner, Some(Side::First), "{o}");
    }

    #[test]
    fn sees_a_mate_by_a_drop_just_beyond_the_horizon() {
        let v = bundled("shogi");
        // Black threatens G*5b, guarded by the Knight on 4d, with White's King walled in by its
        // own Lances and Pawns. White may take a Rook on 1b, or fill 5b with a Pawn. Two plies
        // see the mate only if the position after White's move is probed for it.
        let sfen = "3lkl2s/3p1p2R/9/5N3/9/9/9/9/4K4 w Gp 1";
        let r = search(&v, sfen, Limits { depth: Some(2), ..Limits::default() });
        let pos = v.parse_position(sfen).unwrap();
        assert_eq!(v.format_move(&pos, r.best()), "P*5b", "{r:?}");
    }

    /// A side in check at the horizon may not stand pat: a Knight forking King and Rook costs
    /// White the Rook whatever it plays, and quiescence must say so although nothing can be taken.
    #[test]
    fn quiescence_answers_a_check_with_every_move() {
        let v = bundled("shogi");
        let pos = v.parse_position("9/9/3r1k3/9/4N4/9/9/9/4K4 w - 1").unwrap();
        assert!(v.in_check(&pos));
        let mut s = searcher_for(v.clone(), &[], 8);
        let stand = s.evaluator().evaluate(&pos);
        let rook = s.evaluator().values().board(v.info().pieces.iter().position(|p| p.token == "R").unwrap() as u8);
        let q = s.quiesce(&pos, 0, -INFINITY, INFINITY, 0, false).unwrap_or_else(|_| panic!("stopped"));
        assert!(q <= stand - rook / 2, "quiescence {q}, standing pat {stand}, a Rook {rook}");
    }

    /// A Silver takes a pawn that only the Rook defends, and the Gold defends the Silver: the
    /// Rook taking back would lose itself, so the pawn is won. Quiescence weighs that by the
    /// static exchange; the two-ply test before it (the capturer is worth more than its victim
    /// and can be taken back) skipped the capture.
    #[test]
    fn quiescence_takes_a_pawn_whose_defender_would_lose_by_taking_back() {
        let v = bundled("shogi");
        let pos = v.parse_position("4r3k/9/4p4/4SG3/9/9/9/9/K8 b - 1").unwrap();
        let mut s = searcher_for(v.clone(), &[], 8);
        let stand = s.evaluator().evaluate(&pos);
        let pawn = s.evaluator().values().board(v.info().pieces.iter().position(|p| p.token == "P").unwrap() as u8);
        let q = s.quiesce(&pos, 0, -INFINITY, INFINITY, 0, false).unwrap_or_else(|_| panic!("stopped"));
        assert!(q >= stand + pawn / 2, "quiescence {q}, standing pat {stand}, a pawn {pawn}");
    }

    /// Checking drops the defender can take are searched like quiet moves (no extra ply, reduced
    /// and pruned late): in a king hunt with Rook, Bishop and Gold in hand (round 5 of
    /// docs/ai-strength.md) depth 5 took 160,000 nodes when every such drop was extended.
    #[test]
    fn checks_the_defender_can_take_do_not_blow_up_the_tree() {
        let nodes =
            shogi_nodes_to_depth("lns1k1snl/6b2/PRp4gp/1p2pppp1/2PN4P/9/LP2P1PP1/1S1G1K1S1/4G2NL w Prbg3p 68", 5);
        assert!(nodes < 80_000, "depth 5 took {nodes} nodes");
    }

    /// Checking drops the defender cannot take are pruned late like any quiet move. In the
    /// benchmark's king fight (White to move, Black holding Rook and Gold) every one of them
    /// used to be searched, each a ply deeper. With the shipped shogi table of round 29, depth 6
    /// takes 128,052 nodes, and 159,262 when checking drops are exempt from late pruning (with
    /// round 24's table: 107,178 and 142,057).
    #[test]
    fn late_checks_in_a_king_fight_are_pruned_like_quiet_moves() {
        let nodes = shogi_nodes_to_depth("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 6);
        assert!(nodes < 140_000, "depth 6 took {nodes} nodes");
    }

    /// The nodes a shogi search of `position` takes to complete `depth` (the tree-size tests).
    fn shogi_nodes_to_depth(position: &str, depth: u32) -> u64 {
        let r = search(&bundled("shogi"), position, Limits { depth: Some(depth), ..Limits::default() });
        assert_eq!(r.depth, depth);
        r.nodes
    }

    /// A position is one node, also where the main search hands it to quiescence at the
    /// horizon: depth 1 from shogi's start visits its 30 replies once each (no capture follows
    /// any of them), not twice. Untuned, so that no reply beats the first and is searched again
    /// with a wider window (shogi's shipped placement table would make some do so).
    #[test]
    fn a_position_at_the_horizon_counts_as_one_node() {
        let v = bundled("shogi");
        let mut s = Searcher::new(v.clone(), PieceValues::estimate(v.as_ref(), &[]), 8);
        let r = s
            .search(&v.start_position(), &[], Limits { depth: Some(1), ..Limits::default() }, |_| {})
            .unwrap()
            .unwrap();
        assert_eq!(r.nodes, 30);
    }

    /// A side is improving when its static evaluation rose since its own node two plies up
    /// the line, or four where it was in check two plies up; unknown counts as improving.
    #[test]
    fn improving_compares_with_the_same_sides_last_node() {
        let v = bundled("shogi");
        let mut s = searcher_for(v, &[], 1);
        assert!(s.improving(Side::First, Some(10), 0), "nothing before it");
        s.improving(Side::Second, Some(0), 1);
        assert!(s.improving(Side::First, Some(20), 2));
        s.improving(Side::Second, Some(0), 3);
        assert!(!s.improving(Side::First, Some(20), 4), "20 is no rise over 20");
        s.improving(Side::Second, None, 5);
        assert!(!s.improving(Side::First, None, 6), "in check");
        s.improving(Side::Second, Some(0), 7);
        assert!(s.improving(Side::First, Some(30), 8), "above 20, four plies up past the check");
        assert!(!s.improving(Side::First, Some(10), 8), "below 20");
    }

    #[test]
    fn finds_a_mate_in_one_and_says_so() {
        let v = bundled("shogi");
        // A gold dropped on 1b (guarded by the pawn) or 3b mates; a few other drops leave White
        // without a move, which loses too.
        let r = search(&v, "8k/9/8P/9/9/9/9/9/K8 b G 1", Limits { depth: Some(3), ..Limits::default() });
        let mut pos = v.parse_position("8k/9/8P/9/9/9/9/9/K8 b G 1").unwrap();
        assert_eq!(r.score, Score::Mate(1));
        v.play(&mut pos, r.best()).unwrap();
        let o = v.outcome(&pos, &[]).unwrap().unwrap();
        assert_eq!(o.winner, Some(henka_api::Side::First), "{o}");
    }

    /// A move whose effect gives the mover another move (two moves a turn) is searched from the
    /// mover's side: the AI sees a mate that takes both moves of its turn.
    #[test]
    fn a_turn_of_two_moves_is_searched_from_the_movers_side() {
        let v = bundled("double-move-shogi");
        let position = "R2pk/3pp/2G2/b4/3K1 b - 5";
        let pos = v.parse_position(position).unwrap();
        let black_wins = |p: &Position| v.outcome(p, &[]).unwrap().is_some_and(|o| o.winner == Some(Side::First));
        let moves = |p: &Position| {
            let mut m = Vec::new();
            v.legal_moves(p, &mut m).unwrap();
            m
        };
        let after = |p: &Position, m: Move| {
            let mut next = p.clone();
            v.play(&mut next, m).unwrap();
            next
        };
        // By brute force: no single move wins, a turn of two does.
        assert!(!moves(&pos).into_iter().any(|m| black_wins(&after(&pos, m))));
        let two = |m1| {
            let p1 = after(&pos, m1);
            p1.side_to_move() == Side::First && moves(&p1).into_iter().any(|m2| black_wins(&after(&p1, m2)))
        };
        assert!(moves(&pos).into_iter().any(two), "the position has a mate in one turn");

        let r = search(&v, position, Limits { depth: Some(3), ..Limits::default() });
        assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
        let p1 = after(&pos, r.best());
        assert_eq!(p1.side_to_move(), Side::First, "the first move keeps the turn");
        let r2 = search(&v, &v.format_position(&p1), Limits { depth: Some(2), ..Limits::default() });
        assert!(black_wins(&after(&p1, r2.best())), "and the second mates");
    }

    #[test]
    fn wins_material_it_can_take_safely() {
        let v = bundled("okisaki");
        // Black's rook takes the undefended queen on 5b.
        let position = "k9/5q4/10/10/10/10/10/p9/10/5R3K b - 1";
        let r = search(&v, position, Limits { depth: Some(3), ..Limits::default() });
        let pos = v.parse_position(position).unwrap();
        assert!(v.format_move(&pos, r.best()).starts_with("5j5b"), "takes, promoting or not");
        // Up a queen, or (seeing the lone pawn fall next) about to bare White's king.
        assert!(
            matches!(r.score, Score::Cp(cp) if cp > 500) || matches!(r.score, Score::Mate(n) if n > 0),
            "{:?}",
            r.score
        );
    }

    #[test]
    fn a_declared_result_is_seen_at_the_root() {
        let v = bundled("okisaki");
        // Without the pawn, taking the queen bares White's king: Okisaki's baring rule wins at
        // once, which only `outcome` knows.
        let position = "k9/5q4/10/10/10/10/10/10/10/5R3K b - 1";
        let r = search(&v, position, Limits::time(Duration::from_secs(5)));
        let pos = v.parse_position(position).unwrap();
        assert!(v.format_move(&pos, r.best()).starts_with("5j5b"));
        assert_eq!(r.score, Score::Mate(1));
        assert_eq!(r.depth, 1, "a win in one needs no deeper search");
    }

    /// A 25×25 board with queens: hundreds of moves per position, and the clock still holds.
    #[test]
    fn keeps_to_the_time_on_a_big_board_with_hundreds_of_moves() {
        let src = r#"
            let v = variant(#{ name: "Big", board: [25, 25] });
            v.piece(#{ name: "King", token: "K", moves: "K", royal: true });
            v.piece(#{ name: "Queen", token: "Q", moves: "Q" });
            v.piece(#{ name: "Pawn", token: "P", moves: "fW" });
            v.setup("11k13/25/25/pppppppppppppppppppppppp1/25/4q4q4q4q4q/25/25/25/25/25/25/25/25/25/25/25/25/25/4Q4Q4Q4Q4Q/25/1PPPPPPPPPPPPPPPPPPPPPPPP/25/25/11K13 b - 1");
            v
        "#;
        let v: Arc<dyn Variant> = crate::script::load_source("big.rhai", src).unwrap().variant;
        let mut moves = Vec::new();
        v.legal_moves(&v.start_position(), &mut moves).unwrap();
        assert!(moves.len() > 200, "{} moves", moves.len());
        let t = Instant::now();
        let r = search(&v, &v.info().start, Limits::time(Duration::from_millis(300)));
        assert!(t.elapsed() < Duration::from_millis(1500), "took {:?}", t.elapsed());
        assert!(moves.contains(&r.best()));
    }

    #[test]
    fn a_stop_flag_set_before_the_search_still_gives_a_legal_move() {
        let v = bundled("ogi");
        let mut s = searcher_for(v.clone(), &[], 1);
        s.stop_flag().store(true, AtomicOrdering::Relaxed);
        let game = Game::new(v.start_position());
        let r = s.search(game.position(), game.history(), Limits::default(), |_| {}).unwrap().unwrap();
        let mut legal = Vec::new();
        v.legal_moves(game.position(), &mut legal).unwrap();
        assert!(legal.contains(&r.best()));
    }

    #[test]
    fn helper_threads_share_the_table_and_agree_on_a_mate() {
        let v = bundled("shogi");
        let mut s = searcher_for(v.clone(), &[], 8);
        s.set_threads(2);
        let position = "8k/9/8P/9/9/9/9/9/K8 b G 1";
        let pos = v.parse_position(position).unwrap();
        let r = s.search(&pos, &[], Limits { depth: Some(4), ..Limits::default() }, |_| {}).unwrap().unwrap();
        assert_eq!(r.score, Score::Mate(1));
        // A timed search with helpers ends and answers a legal move.
        let v = bundled("okisaki");
        let mut s = searcher_for(v.clone(), &[], 8);
        s.set_threads(2);
        let game = Game::new(v.start_position());
        let r = s
            .search(game.position(), game.history(), Limits::time(Duration::from_millis(200)), |_| {})
            .unwrap()
            .unwrap();
        let mut legal = Vec::new();
        v.legal_moves(game.position(), &mut legal).unwrap();
        assert!(legal.contains(&r.best()));
        assert!(r.depth >= 1);
    }

    #[test]
    fn mate_scores_read_as_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(35).to_string(), "+0.35");
        assert_eq!(to_table(from_table(MATE - 7, 4), 4), MATE - 7);
    }
}

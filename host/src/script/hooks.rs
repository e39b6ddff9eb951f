//! Script functions as kit hooks. Each call gets the sandbox's time limit, and any error becomes a
//! [`RuleError`] with the script's file:line:col, so a broken hook never takes the host down.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use henka_api::kit::{EffectTrigger, Hooks, KitVariant, MoveCallback, Played, Support};
use henka_api::{
    Cell, EndReason, Geometry, HistoryEntry, Move, MoveKind, NO_CELL, Outcome, Piece, PieceId, Position, RuleError,
    Side, VariantInfo, notation,
};
use rhai::{AST, Array, Dynamic, Engine, FnPtr, Map};

use super::api::EffectOptions;
use super::callback_memo;
use super::engine::Deadline;
use super::error::ScriptError;
use super::field_api::Field;
use super::position_api::{EffectState, MoveEffect, Reads, ScriptPosition, piece_type_named};

/// Numbers each script load's hooks, so answers remembered per thread never cross scripts.
static NEXT_HOOKS_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh number for a script load's hooks.
pub(crate) fn next_id() -> u64 {
    NEXT_HOOKS_ID.fetch_add(1, Ordering::Relaxed)
}

/// The hooks a script registered with `v.on(name, function)`.
pub struct ScriptHooks {
    /// This load's number ([`next_id`]).
    pub(crate) id: u64,
    pub(crate) engine: Arc<Engine>,
    pub(crate) deadline: Deadline,
    pub(crate) ast: Arc<AST>,
    pub(crate) source: String,
    /// Each hook with the position of the `v.on(...)` call that registered it, which errors
    /// without a position of their own (an operation limit hit inside a closure) point at.
    pub(crate) game_end: Option<(FnPtr, rhai::Position)>,
    pub(crate) filter_moves: Option<(FnPtr, rhai::Position)>,
    pub(crate) stranded: Option<(FnPtr, rhai::Position)>,
    /// The capture hook (`v.on_capture`): the piece names that trigger it.
    pub(crate) capture_hook: Option<(Vec<String>, (FnPtr, rhai::Position))>,
    /// Movement callbacks (`v.on_moves`): piece name, reach, function.
    pub(crate) move_callbacks: Vec<(String, Option<String>, (FnPtr, rhai::Position))>,
    /// Drop callbacks (`v.on_drop`): piece name, function.
    pub(crate) drop_callbacks: Vec<(String, (FnPtr, rhai::Position))>,
    /// The move effect (`v.after_move`): the movers' names (none: every move), whether only after
    /// moves that take a piece, the function.
    pub(crate) effect: Option<(Vec<String>, EffectOptions, (FnPtr, rhai::Position))>,
    /// Per piece type, once built: which callback computes its moves, and which decides its drops.
    pub(crate) callback_of: OnceLock<Vec<Option<usize>>>,
    pub(crate) drop_callback_of: OnceLock<Vec<Option<usize>>>,
    /// The variant's description, known once the kit has built it.
    pub(crate) info: OnceLock<Arc<(VariantInfo, Geometry)>>,
    /// The variant these hooks belong to, whose native queries the position handle calls. Weak:
    /// the variant owns the hooks.
    pub(crate) kit: OnceLock<Weak<KitVariant>>,
    /// The hooks' time in the search under way.
    pub(crate) search: SearchClock,
}

/// How long all hook calls of one search (a perft, an AI search, a replay) may take together.
/// The limit per call ([`super::engine::TIME_LIMIT`]) stops a runaway call; this stops a hook
/// that is merely slow from making a search run for hours. Generous: a hook written through the
/// position handle costs about a microsecond a call.
pub const SEARCH_TIME_LIMIT: Duration = Duration::from_secs(60);

/// The hook time spent in the search under way, from [`Hooks::begin_search`] to
/// [`Hooks::end_search`]. Calls outside a search (the editor asking for one position's moves)
/// are bounded per call only.
#[derive(Debug)]
pub(crate) struct SearchClock {
    /// Searches begun and not yet ended (an AI search and a perft may overlap).
    open: AtomicUsize,
    /// Nanoseconds of hook calls since the first open search began.
    spent_ns: AtomicU64,
    pub(crate) budget: Duration,
}

impl SearchClock {
    pub(crate) fn new(budget: Duration) -> SearchClock {
        SearchClock { open: AtomicUsize::new(0), spent_ns: AtomicU64::new(0), budget }
    }

    fn begin(&self) {
        if self.open.fetch_add(1, Ordering::Relaxed) == 0 {
            self.spent_ns.store(0, Ordering::Relaxed);
        }
    }

    fn end(&self) {
        // Never below zero, whatever the pairing.
        let _ = self.open.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
    }

    fn searching(&self) -> bool {
        self.open.load(Ordering::Relaxed) > 0
    }

    fn spent(&self) -> Duration {
        Duration::from_nanos(self.spent_ns.load(Ordering::Relaxed))
    }

    fn add(&self, d: Duration) {
        self.spent_ns.fetch_add(d.as_nanos().min(u64::MAX as u128) as u64, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for ScriptHooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptHooks")
            .field("source", &self.source)
            .field("game_end", &self.game_end.is_some())
            .field("filter_moves", &self.filter_moves.is_some())
            .field("stranded", &self.stranded.is_some())
            .field("capture_hook", &self.capture_hook.as_ref().map(|c| &c.0))
            .finish()
    }
}

impl ScriptHooks {
    fn call(&self, (f, registered): &(FnPtr, rhai::Position), args: impl rhai::FuncArgs) -> Result<Dynamic, RuleError> {
        let searching = self.search.searching();
        if searching && self.search.spent() > self.search.budget {
            let name = f.fn_name();
            let which = if name.starts_with("anon$") { String::new() } else { format!(" (`{name}`)") };
            return Err(RuleError {
                message: format!(
                    "hook{which}: the hooks have run {:.1} s in this search, over the budget of {} s per search; \
                     make the hook cheaper (docs/scripting.md, \"What hooks cost\")",
                    self.search.spent().as_secs_f64(),
                    self.search.budget.as_secs()
                ),
                location: super::error::location(&self.source, *registered),
            });
        }
        // Only a search's calls are timed: the clock costs nothing elsewhere.
        let started = searching.then(Instant::now);
        self.deadline.arm();
        let result = f.call::<Dynamic>(&self.engine, &self.ast, args);
        if let Some(t) = started {
            self.search.add(t.elapsed());
        }
        result.map_err(|e| {
            let e = ScriptError::from_eval(&self.source, *e);
            // Rhai moves a limit's error (time, operations, call depth) to the call site of each
            // script function it leaves, and a hook's call site is the host: such errors arrive
            // without a position, so they point at the `v.on(...)` and name the function.
            let location = e.location.or_else(|| super::error::location(&self.source, *registered));
            let name = f.fn_name();
            let within = if e.call_stack.is_empty() && !name.starts_with("anon$") {
                format!(" (in `{name}`)")
            } else {
                String::new()
            };
            // A hook runs after the script's top level has finished, so `global::NAME` finds
            // nothing: say how tables do reach a hook.
            let hint = if e.message.contains("global::") {
                " (a hook runs after the script: give a `fn` its tables through a closure, \
                 `|pos| judge(pos, TABLE)`, or `Fn(\"judge\").curry(TABLE)`; see docs/scripting.md, \"Hooks\")"
            } else {
                ""
            };
            RuleError { message: format!("hook: {}{within}{hint}", e.message), location }
        })
    }

    fn script_position(&self, pos: &Position, history: &[HistoryEntry]) -> Result<ScriptPosition, RuleError> {
        let early = || RuleError::new("hook called before the variant was built");
        let info = self.info.get().ok_or_else(early)?;
        let kit = self.kit.get().and_then(Weak::upgrade).ok_or_else(early)?;
        Ok(ScriptPosition { pos: pos.clone(), info: info.clone(), kit, history: history.to_vec(), reads: None })
    }

    fn err(&self, (_, registered): &(FnPtr, rhai::Position), message: String) -> RuleError {
        RuleError { message: format!("hook: {message}"), location: super::error::location(&self.source, *registered) }
    }

    /// The piece types a hook names (every type of that name), or the hook's error.
    fn types_named(
        &self,
        info: &VariantInfo,
        names: &[String],
        hook: &(FnPtr, rhai::Position),
        what: &str,
    ) -> Result<Vec<PieceId>, RuleError> {
        let mut ids = Vec::new();
        for name in names {
            let matching: Vec<PieceId> =
                (0..info.pieces.len()).filter(|&i| &info.pieces[i].name == name).map(|i| i as PieceId).collect();
            if matching.is_empty() {
                return Err(self.err(hook, format!("{what}: no piece is named {name:?}")));
            }
            ids.extend(matching);
        }
        Ok(ids)
    }

    /// Which of `hooks` (by index) serves each piece type.
    fn index_by_type<T>(
        &self,
        info: &VariantInfo,
        hooks: &[T],
        name_and_fn: impl Fn(&T) -> (&String, &(FnPtr, rhai::Position)),
        what: &str,
    ) -> Result<Vec<Option<usize>>, RuleError> {
        let mut of = vec![None; info.pieces.len()];
        for (i, h) in hooks.iter().enumerate() {
            let (name, f) = name_and_fn(h);
            for ty in self.types_named(info, std::slice::from_ref(name), f, what)? {
                of[ty as usize] = Some(i);
            }
        }
        Ok(of)
    }

    /// Reads one move a movement callback returned: a cell name, or `#{ to, via, becomes }`.
    fn callback_move(
        &self,
        sp: &ScriptPosition,
        f: &(FnPtr, rhai::Position),
        from: Cell,
        piece: Piece,
        d: Dynamic,
    ) -> Result<Move, RuleError> {
        let cell = |d: &Dynamic, key: &str| -> Result<Cell, RuleError> {
            let name =
                d.clone().into_string().map_err(|t| self.err(f, format!("`{key}` must be a cell name, not {t}")))?;
            sp.cell(&name).map_err(|e| self.err(f, format!("`{key}`: {e}")))
        };
        if d.is_string() {
            return Ok(Move::board(from, cell(&d, "to")?, piece.ty));
        }
        let m = d
            .try_cast::<Map>()
            .ok_or_else(|| self.err(f, "must return an array of cells or of maps #{ to, via, becomes }".into()))?;
        if let Some(k) = m.keys().find(|k| !["to", "via", "becomes"].contains(&k.as_str())) {
            return Err(self.err(f, format!("returned a move with an unknown key `{k}` (known: to, via, becomes)")));
        }
        let to = cell(m.get("to").ok_or_else(|| self.err(f, "returned a move without `to`".into()))?, "to")?;
        let via = m.get("via").map(|d| cell(d, "via")).transpose()?.unwrap_or(NO_CELL);
        let becomes = match m.get("becomes") {
            None => piece.ty,
            Some(d) => {
                let name = d.to_string();
                piece_type_named(&sp.info.0, &name).map_err(|e| self.err(f, format!("`becomes`: {e}")))?
            }
        };
        Ok(Move { kind: MoveKind::Board, piece: becomes, from, to, via })
    }

    /// What `fx` tells the effect about the move: the mover where it stands now, the cells, the
    /// move's text and what it took off the board.
    fn effect_facts(&self, sp: &ScriptPosition, before: &Position, played: &Played) -> Map {
        let (info, geo) = &*sp.info;
        let mv = played.mv;
        let name = |c: Cell| if c == NO_CELL { String::new() } else { sp.cell_name(c) };
        let mut m = Map::new();
        // A pass has no mover; any other move's piece now stands on its end cell, as the type it
        // ended as.
        let mover = played.mover.map_or(Dynamic::UNIT, |p| sp.piece_map(mv.to, Piece::new(mv.piece, p.side)).into());
        m.insert("mover".into(), mover);
        m.insert("from".into(), name(mv.from).into());
        m.insert("to".into(), name(mv.to).into());
        m.insert("move".into(), notation::format_move(info, geo, before, mv).into());
        let taken: Array = played.taken().map(|(c, p)| sp.piece_map(c, p).into()).collect();
        m.insert("captured".into(), taken.into());
        m
    }
}

impl Hooks for ScriptHooks {
    fn move_callbacks(&self, info: &VariantInfo) -> Result<Vec<MoveCallback>, RuleError> {
        let of = self.index_by_type(info, &self.move_callbacks, |(n, _, f)| (n, f), "on_moves")?;
        let callbacks = (of.iter().enumerate())
            .filter_map(|(ty, i)| {
                i.map(|i| MoveCallback { piece: ty as PieceId, reach: self.move_callbacks[i].1.clone() })
            })
            .collect();
        let _ = self.callback_of.set(of);
        Ok(callbacks)
    }

    fn piece_moves(&self, pos: &Position, from: Cell, piece: Piece, out: &mut Vec<Move>) -> Result<(), RuleError> {
        let Some(i) = self.callback_of.get().and_then(|of| of[piece.ty as usize]) else { return Ok(()) };
        if callback_memo::recall(self.id, pos, from, piece, out) {
            return Ok(());
        }
        let f = &self.move_callbacks[i].2;
        let reads = Arc::new(Mutex::new(Reads::default()));
        let mut sp = self.script_position(pos, &[])?;
        sp.reads = Some(reads.clone());
        let cell = sp.cell_name(from);
        let r = self.call(f, (sp.clone(), cell))?;
        let returned = r.try_cast::<Array>().ok_or_else(|| self.err(f, "must return an array of moves".into()))?;
        let start = out.len();
        for d in returned {
            out.push(self.callback_move(&sp, f, from, piece, d)?);
        }
        let reads = reads.lock().unwrap_or_else(|e| e.into_inner());
        callback_memo::remember(self.id, pos, from, piece, &reads, &out[start..]);
        Ok(())
    }

    fn callback_location(&self, piece: PieceId) -> Option<henka_api::SourceLocation> {
        let i = self.callback_of.get()?.get(piece as usize).copied().flatten()?;
        super::error::location(&self.source, self.move_callbacks[i].2.1)
    }

    fn drop_callbacks(&self, info: &VariantInfo) -> Result<Vec<PieceId>, RuleError> {
        let of = self.index_by_type(info, &self.drop_callbacks, |(n, f)| (n, f), "on_drop")?;
        let types = (of.iter().enumerate()).filter(|(_, i)| i.is_some()).map(|(ty, _)| ty as PieceId).collect();
        let _ = self.drop_callback_of.set(of);
        Ok(types)
    }

    fn drop_cells(&self, pos: &Position, ty: PieceId, side: Side, cells: &mut Vec<Cell>) -> Result<(), RuleError> {
        let Some(i) = self.drop_callback_of.get().and_then(|of| of[ty as usize]) else { return Ok(()) };
        let f = &self.drop_callbacks[i].1;
        let mut sp = self.script_position(pos, &[])?;
        // The callback answers for `side`, whoever is to move in the copy it is given.
        sp.pos.set_side_to_move(side);
        let offered: Array = cells.iter().map(|&c| sp.cell_name(c).into()).collect();
        let r = self.call(f, (sp.clone(), offered))?;
        let kept = r.try_cast::<Array>().ok_or_else(|| self.err(f, "must return an array of cells".into()))?;
        cells.clear();
        for d in kept {
            let name = d.into_string().map_err(|t| self.err(f, format!("must return cell names, not {t}")))?;
            cells.push(sp.cell(&name).map_err(|e| self.err(f, e.to_string()))?);
        }
        Ok(())
    }

    fn effect_trigger(&self, info: &VariantInfo) -> Result<Option<EffectTrigger>, RuleError> {
        let Some((names, options, f)) = &self.effect else { return Ok(None) };
        let trigger = if names.is_empty() {
            EffectTrigger::every()
        } else {
            EffectTrigger::movers(self.types_named(info, names, f, "after_move")?)
        };
        Ok(Some(EffectTrigger { taking: options.taking, counters_only: options.counters_only, ..trigger }))
    }

    fn after_move(&self, pos: &mut Position, before: &Position, played: &Played) -> Result<bool, RuleError> {
        let Some((_, _, f)) = &self.effect else { return Ok(false) };
        let sp = self.script_position(pos, &[])?;
        let facts = Arc::new(self.effect_facts(&sp, before, played));
        let state = Arc::new(Mutex::new(EffectState { view: sp, again: false }));
        drop(self.call(f, (MoveEffect { state: state.clone(), facts },))?);
        let state = state.lock().unwrap_or_else(|e| e.into_inner());
        *pos = state.view.pos.clone();
        Ok(state.again)
    }

    fn begin_search(&self) {
        self.search.begin();
    }

    fn end_search(&self) {
        self.search.end();
    }

    fn has_move_filter(&self) -> bool {
        self.filter_moves.is_some()
    }

    fn filter_moves(&self, pos: &Position, moves: &mut Vec<Move>) -> Result<(), RuleError> {
        let Some(f) = &self.filter_moves else {
            return Ok(());
        };
        let sp = self.script_position(pos, &[])?;
        let (info, geo) = &*sp.info;
        let names: Vec<String> = moves.iter().map(|&m| notation::format_move(info, geo, pos, m)).collect();
        let array: Array = names.iter().map(|s| Dynamic::from(s.clone())).collect();
        let kept = self.call(f, (sp, array))?;
        let kept: Array =
            kept.try_cast::<Array>().ok_or_else(|| self.err(f, "must return an array of moves".into()))?;
        let mut keep = vec![false; names.len()];
        for d in kept {
            let name = d.into_string().map_err(|t| self.err(f, format!("must return move strings, not {t}")))?;
            // A move that was not offered is a bug in the hook, not a way to add moves.
            let i = names.iter().position(|n| *n == name).ok_or_else(|| {
                self.err(f, format!("returned {name:?}, which is not one of the legal moves it was given"))
            })?;
            keep[i] = true;
        }
        let mut i = 0;
        moves.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        Ok(())
    }

    fn has_stranding(&self) -> bool {
        self.stranded.is_some()
    }

    fn stranded(&self, pos: &mut Position, support: &Arc<Support>) -> Result<(), RuleError> {
        let Some(f) = &self.stranded else { return Ok(()) };
        let info = self.info.get().ok_or_else(|| RuleError::new("hook called before the variant was built"))?;
        let field = Field { pos: Arc::new(Mutex::new(pos.clone())), info: info.clone(), support: support.clone() };
        drop(self.call(f, (field.clone(),))?);
        *pos = field.pos.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Ok(())
    }

    fn capture_triggers(&self, info: &VariantInfo) -> Result<Vec<PieceId>, RuleError> {
        let Some((names, f)) = &self.capture_hook else { return Ok(Vec::new()) };
        self.types_named(info, names, f, "on_capture")
    }

    fn after_capture(&self, pos: &Position, mv: Move, victims: &[Piece]) -> Result<PieceId, RuleError> {
        let Some((_, f)) = &self.capture_hook else { return Ok(mv.piece) };
        let sp = self.script_position(pos, &[])?;
        let mover = pos.piece_at(mv.from).ok_or_else(|| self.err(f, "no piece on the move's start".into()))?;
        let victim_cells =
            [mv.via, mv.to].into_iter().filter(|&c| c != NO_CELL && c != mv.from && pos.piece_at(c).is_some());
        let victims: Array = victim_cells.zip(victims).map(|(c, &v)| sp.piece_map(c, v).into()).collect();
        let info = &sp.info.0;
        let mut capture = Map::new();
        capture.insert("mover".into(), sp.piece_map(mv.from, mover).into());
        capture.insert("victims".into(), victims.into());
        capture.insert("becomes".into(), info.pieces[mv.piece as usize].name.clone().into());
        let r = self.call(f, (sp.clone(), capture))?;
        if r.is_unit() {
            return Ok(mv.piece);
        }
        let name = r.into_string().map_err(|t| self.err(f, format!("must return a piece name or (), not {t}")))?;
        piece_type_named(info, &name).map_err(|e| self.err(f, format!("returned {e}")))
    }

    fn has_outcome(&self) -> bool {
        self.game_end.is_some()
    }

    fn outcome(&self, pos: &Position, history: &[HistoryEntry]) -> Result<Option<Outcome>, RuleError> {
        let Some(f) = &self.game_end else {
            return Ok(None);
        };
        let r = self.call(f, (self.script_position(pos, history)?,))?;
        if r.is_unit() {
            return Ok(None);
        }
        let m = r.try_cast::<Map>().ok_or_else(|| {
            self.err(f, "must return () or #{ winner: \"black\"|\"white\"|\"draw\", reason: \"…\" }".into())
        })?;
        if let Some(k) = m.keys().find(|k| !["winner", "reason"].contains(&k.as_str())) {
            return Err(self.err(f, format!("returned a map with an unknown key `{k}` (known: winner, reason)")));
        }
        let reason = m.get("reason").map(|d| d.to_string()).unwrap_or_else(|| "the variant's rule".into());
        let Some(winner) = m.get("winner") else {
            return Err(self.err(f, "returned a result without `winner` (\"black\", \"white\" or \"draw\")".into()));
        };
        let winner = winner.to_string();
        let outcome = match winner.as_str() {
            "black" => Outcome::win(Side::First, EndReason::Rule(reason)),
            "white" => Outcome::win(Side::Second, EndReason::Rule(reason)),
            "draw" => Outcome::draw(EndReason::Rule(reason)),
            o => {
                return Err(self.err(f, format!("`winner` must be \"black\", \"white\" or \"draw\", not {o:?}")));
            }
        };
        Ok(Some(outcome))
    }
}

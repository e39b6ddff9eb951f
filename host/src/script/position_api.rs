//! What hooks see of a position: the read-only position handle (`Position` in scripts) and the
//! move effect's handle (`Effect`), which answers the same queries and may also change the
//! position it was given. Every query runs the kit's native code; cells and tokens are in the
//! variant's notation.

use std::sync::{Arc, Mutex};

use henka_api::kit::KitVariant;
use henka_api::model::position::{COUNTERS, RULE_COUNTERS};
use henka_api::{
    Cell, Geometry, HistoryEntry, Move, Piece, PieceId, Position as Pos, Side, Variant, VariantInfo, Vector, notation,
};
use rhai::{Array, Dynamic, Engine, EvalAltResult, Map};

type Res<T> = Result<T, Box<EvalAltResult>>;

pub(crate) fn side_name(s: Side) -> &'static str {
    match s {
        Side::First => "black",
        Side::Second => "white",
    }
}

pub(crate) fn parse_side(s: &str) -> Res<Side> {
    match s {
        "black" | "b" | "first" => Ok(Side::First),
        "white" | "w" | "second" => Ok(Side::Second),
        _ => Err(format!("a side is \"black\" or \"white\", not {s:?}").into()),
    }
}

/// Reads `[files, ranks]` or `[files, ranks, levels]`, seen from the mover.
pub(crate) fn parse_vector(d: &Dynamic) -> Res<Vector> {
    let v = d.clone().try_cast::<Array>().ok_or("a vector is `[files, ranks]` or `[files, ranks, levels]`")?;
    if !(2..=3).contains(&v.len()) {
        return Err("a vector needs 2 or 3 numbers: [files, ranks] or [files, ranks, levels]".into());
    }
    let mut c = [0i8; 3];
    for (i, x) in v.iter().enumerate() {
        let x = x.as_int().map_err(|_| "vector entries must be whole numbers")?;
        c[i] = i8::try_from(x).map_err(|_| "vector entries must be from -127 to 127")?;
    }
    if c == [0, 0, 0] {
        return Err("a vector may not be zero".into());
    }
    Ok(Vector::new(c[0], c[1], c[2]))
}

/// The piece type a script names, by token (`"P"`, `"+P"`, `"(LN)"`) or by name (`"Lion"`).
pub(crate) fn piece_type_named(info: &VariantInfo, text: &str) -> Result<PieceId, String> {
    if let Ok((t, _)) = notation::lookup_token(info, &text.to_ascii_uppercase()) {
        return Ok(t);
    }
    let named: Vec<usize> = (0..info.pieces.len()).filter(|&i| info.pieces[i].name == text).collect();
    match named[..] {
        [one] => Ok(one as PieceId),
        [] => Err(format!("{text:?} is no piece's name or token")),
        _ => Err(format!("{text:?} names several pieces; use the token (e.g. \"+(DV)\")")),
    }
}

/// The position handle hooks receive: a copy of the kit's position and the variant itself, so
/// every query (attacks, check, legal moves) runs the kit's native code rather than script code.
/// Read-only: nothing a hook does through it changes the game.
#[derive(Clone, Debug)]
pub struct ScriptPosition {
    pub pos: Pos,
    pub info: Arc<(VariantInfo, Geometry)>,
    pub kit: Arc<KitVariant>,
    /// The game's earlier positions, where the caller knows them (empty in perft and search).
    pub history: Vec<HistoryEntry>,
    /// Where a movement callback's reads are logged, so its answer can be reused in another
    /// position that agrees on them (see `callback_memo`).
    pub reads: Option<Arc<Mutex<Reads>>>,
}

/// What a hook read of its position during one call: the cells it looked at, or something that
/// depends on more than cells (the side to move, the pieces list, an attack test, …).
#[derive(Debug, Default)]
pub struct Reads {
    pub cells: Vec<Cell>,
    pub whole: bool,
}

impl ScriptPosition {
    /// Notes that the hook read this cell.
    fn read_cell(&self, c: Cell) {
        if let Some(r) = &self.reads {
            r.lock().unwrap_or_else(|e| e.into_inner()).cells.push(c);
        }
    }

    /// Notes that the hook's answer may depend on the whole position.
    fn read_whole(&self) {
        if let Some(r) = &self.reads {
            r.lock().unwrap_or_else(|e| e.into_inner()).whole = true;
        }
    }

    pub(crate) fn piece_map(&self, cell: Cell, p: Piece) -> Map {
        let info = &self.info.0.pieces[p.ty as usize];
        let mut m = Map::new();
        m.insert("cell".into(), notation::cell_name(&self.info.1, cell).into());
        m.insert("token".into(), info.written().into());
        m.insert("name".into(), info.name.clone().into());
        m.insert("side".into(), side_name(p.side).into());
        m.insert("royal".into(), info.royal.into());
        m
    }

    pub(crate) fn cell(&self, name: &str) -> Res<Cell> {
        notation::parse_cell(&self.info.1, name).map_err(|e| e.to_string().into())
    }

    pub(crate) fn cell_name(&self, c: Cell) -> String {
        notation::cell_name(&self.info.1, c)
    }

    fn cell_names(&self, cells: impl IntoIterator<Item = Cell>) -> Array {
        cells.into_iter().map(|c| self.cell_name(c).into()).collect()
    }

    fn move_names(&self, moves: &[Move]) -> Array {
        moves.iter().map(|&m| notation::format_move(&self.info.0, &self.info.1, &self.pos, m).into()).collect()
    }

    fn pieces_of(&self, side: Option<Side>) -> Array {
        (self.pos.cells().iter().enumerate())
            .filter_map(|(c, q)| {
                q.filter(|q| side.is_none_or(|s| q.side == s)).map(|q| self.piece_map(c as u16, q).into())
            })
            .collect()
    }

    fn legal_moves(&self) -> Res<Array> {
        let mut moves = Vec::new();
        self.kit.rule_moves(&self.pos, &mut moves).map_err(|e| e.to_string())?;
        Ok(self.move_names(&moves))
    }

    fn moves_of(&self, cell: &str) -> Res<Array> {
        let c = self.cell(cell)?;
        let mut moves = Vec::new();
        self.kit.rule_moves_from(&self.pos, c, &mut moves).map_err(|e| e.to_string())?;
        Ok(self.move_names(&moves))
    }

    /// A move of the game as a map: `kind` ("move", "drop", "pass", "place"), `from`, `via`
    /// and `to` (cell names, `""` where the move has none) and `piece`, the name of the type the
    /// piece ended as (or was dropped as).
    fn move_map(&self, mv: Move) -> Map {
        let name = |c: Cell| if c == henka_api::NO_CELL { String::new() } else { self.cell_name(c) };
        let kind = match mv.kind {
            henka_api::MoveKind::Board => "move",
            henka_api::MoveKind::Drop => "drop",
            henka_api::MoveKind::Pass => "pass",
            henka_api::MoveKind::Place => "place",
        };
        let mut m = Map::new();
        m.insert("kind".into(), kind.into());
        m.insert("from".into(), name(mv.from).into());
        m.insert("via".into(), name(mv.via).into());
        m.insert("to".into(), name(mv.to).into());
        let piece = if mv.kind == henka_api::MoveKind::Pass {
            String::new()
        } else {
            self.info.0.pieces.get(mv.piece as usize).map_or_else(String::new, |p| p.name.clone())
        };
        m.insert("piece".into(), piece.into());
        m
    }

    /// How often this position occurred before in the game (0 where the history is unknown).
    fn repetitions(&self) -> i64 {
        let now = self.pos.repetition_hash();
        self.history.iter().filter(|h| h.hash == now).count() as i64
    }

    pub(crate) fn token_type(&self, token: &str) -> Res<u8> {
        piece_type_named(&self.info.0, token).map_err(Into::into)
    }

    /// The cell name `v` leads to from `c` as `side` sees it (forward is toward the opponent),
    /// or `()` off the board.
    fn offset(&self, c: Cell, v: Vector, side: Side) -> Dynamic {
        self.info.1.offset(c, v.for_side(side)).map_or(Dynamic::UNIT, |to| self.cell_name(to).into())
    }

    /// The index of a rule's own counter `i` (0–3) in the position.
    fn counter_index(i: i64) -> Res<usize> {
        let own = COUNTERS - RULE_COUNTERS;
        usize::try_from(i)
            .ok()
            .filter(|&i| i < own)
            .map(|i| RULE_COUNTERS + i)
            .ok_or_else(|| format!("a rule has counters 0 to {}, not {i}", own - 1).into())
    }

    /// The position after `text`, one of the moves the data rules allow here, with its effect.
    fn after(&self, text: &str) -> Res<ScriptPosition> {
        let (info, geo) = &*self.info;
        let mv = notation::parse_move(info, geo, &self.pos, text).map_err(|e| e.to_string())?;
        let mut allowed = Vec::new();
        self.kit.rule_moves(&self.pos, &mut allowed).map_err(|e| e.to_string())?;
        if !allowed.contains(&mv) {
            return Err(format!("play: {text} is not a move of this position").into());
        }
        let mut next = self.clone();
        self.kit.play(&mut next.pos, mv).map_err(|e| e.to_string())?;
        next.history.clear();
        next.reads = None;
        Ok(next)
    }
}

/// A move's effect (`v.after_move`): the position after the kit's move, to change, and what the
/// move was. Shared, because the hook's `fx` is a copy of this handle and the host reads the
/// changes back after the call.
#[derive(Clone, Debug)]
pub struct MoveEffect {
    pub(crate) state: Arc<Mutex<EffectState>>,
    /// `fx.mover`, `fx.from`, `fx.to`, `fx.move`, `fx.captured`, fixed for the call.
    pub(crate) facts: Arc<Map>,
}

#[derive(Debug)]
pub(crate) struct EffectState {
    pub view: ScriptPosition,
    /// The mover moves again.
    pub again: bool,
}

impl MoveEffect {
    fn with<R>(&self, f: impl FnOnce(&mut EffectState) -> R) -> R {
        f(&mut self.state.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn fact(&mut self, key: &str) -> Dynamic {
        self.facts.get(key).cloned().unwrap_or(Dynamic::UNIT)
    }

    fn place(&mut self, cell: &str, token: &str, side: &str) -> Res<()> {
        self.with(|s| {
            let (c, ty, side) = (s.view.cell(cell)?, s.view.token_type(token)?, parse_side(side)?);
            s.view.pos.set(c, Some(Piece::new(ty, side)));
            Ok(())
        })
    }

    fn remove(&mut self, cell: &str) -> Res<()> {
        self.with(|s| {
            let c = s.view.cell(cell)?;
            s.view.pos.set(c, None);
            Ok(())
        })
    }

    fn move_piece(&mut self, from: &str, to: &str) -> Res<()> {
        self.with(|s| {
            let (a, b) = (s.view.cell(from)?, s.view.cell(to)?);
            let Some(p) = s.view.pos.piece_at(a) else { return Err(format!("move_piece: {from} is empty").into()) };
            if a != b && s.view.pos.piece_at(b).is_some() {
                return Err(format!("move_piece: {to} is occupied; remove its piece first").into());
            }
            s.view.pos.set(a, None);
            s.view.pos.set(b, Some(p));
            Ok(())
        })
    }

    fn change(&mut self, cell: &str, token: &str) -> Res<()> {
        self.with(|s| {
            let (c, ty) = (s.view.cell(cell)?, s.view.token_type(token)?);
            let Some(p) = s.view.pos.piece_at(c) else { return Err(format!("change: {cell} is empty").into()) };
            s.view.pos.set(c, Some(Piece { ty, ..p }));
            Ok(())
        })
    }

    fn set_side(&mut self, cell: &str, side: &str) -> Res<()> {
        self.with(|s| {
            let (c, side) = (s.view.cell(cell)?, parse_side(side)?);
            let Some(p) = s.view.pos.piece_at(c) else { return Err(format!("set_side: {cell} is empty").into()) };
            s.view.pos.set(c, Some(Piece { side, ..p }));
            Ok(())
        })
    }

    fn set_hand(&mut self, token: &str, side: &str, n: i64) -> Res<()> {
        self.with(|s| {
            let (ty, side) = (s.view.token_type(token)?, parse_side(side)?);
            if !s.view.info.0.hand_types.contains(&ty) {
                return Err(format!("set_hand: a {token} is never held in hand in this variant").into());
            }
            let n = u8::try_from(n).map_err(|_| format!("set_hand: a hand holds 0 to 255 of a type, not {n}"))?;
            s.view.pos.set_hand(side, ty, n);
            Ok(())
        })
    }

    fn set_counter(&mut self, i: i64, value: i64) -> Res<()> {
        let i = ScriptPosition::counter_index(i)?;
        let value =
            u16::try_from(value).map_err(|_| format!("set_counter: a counter holds 0 to 65535, not {value}"))?;
        self.with(|s| s.view.pos.set_counter(i, value));
        Ok(())
    }
}

/// A hook's handle on a position: the plain one, or an effect's (whose position is shared).
trait Handle: Clone + Send + Sync + 'static {
    /// The position, for a query that may depend on all of it.
    fn view<R>(&mut self, f: impl FnOnce(&ScriptPosition) -> R) -> R {
        self.cells_view(|p| {
            p.read_whole();
            f(p)
        })
    }

    /// The position, for a query that reads only what it says (`piece_at` logs its cell).
    fn cells_view<R>(&mut self, f: impl FnOnce(&ScriptPosition) -> R) -> R;
}

impl Handle for ScriptPosition {
    fn cells_view<R>(&mut self, f: impl FnOnce(&ScriptPosition) -> R) -> R {
        f(self)
    }
}

impl Handle for MoveEffect {
    fn cells_view<R>(&mut self, f: impl FnOnce(&ScriptPosition) -> R) -> R {
        self.with(|s| f(&s.view))
    }
}

/// The queries every handle answers (docs/scripting.md, "The position handle").
fn register_queries<T: Handle>(engine: &mut Engine) {
    engine
        .register_get("side_to_move", |p: &mut T| p.view(|p| side_name(p.pos.side_to_move()).to_string()))
        .register_get("move_number", |p: &mut T| p.view(|p| p.pos.move_number() as i64))
        .register_fn("piece_at", |p: &mut T, cell: &str| -> Res<Dynamic> {
            p.cells_view(|p| {
                let c = p.cell(cell)?;
                p.read_cell(c);
                Ok(p.pos.piece_at(c).map_or(Dynamic::UNIT, |q| p.piece_map(c, q).into()))
            })
        })
        .register_fn("pieces", |p: &mut T| p.view(|p| p.pieces_of(None)))
        .register_fn("pieces", |p: &mut T, side: &str| -> Res<Array> {
            let side = parse_side(side)?;
            Ok(p.view(|p| p.pieces_of(Some(side))))
        })
        .register_fn("royals", |p: &mut T, side: &str| -> Res<Array> {
            let side = parse_side(side)?;
            Ok(p.view(|p| p.cell_names(p.kit.royal_cells(&p.pos, side))))
        })
        .register_fn("attacked", |p: &mut T, cell: &str, by: &str| -> Res<bool> {
            let by = parse_side(by)?;
            p.view(|p| Ok(p.kit.attacks(&p.pos, p.cell(cell)?, by)))
        })
        .register_fn("in_check", |p: &mut T, side: &str| -> Res<bool> {
            let side = parse_side(side)?;
            Ok(p.view(|p| p.kit.side_in_check(&p.pos, side)))
        })
        .register_fn("in_check", |p: &mut T| p.view(|p| p.kit.side_in_check(&p.pos, p.pos.side_to_move())))
        .register_fn("legal_moves", |p: &mut T| p.view(ScriptPosition::legal_moves))
        .register_fn("moves_of", |p: &mut T, cell: &str| p.view(|p| p.moves_of(cell)))
        .register_fn("repetitions", |p: &mut T| p.view(ScriptPosition::repetitions))
        .register_fn("history", |p: &mut T| -> Array {
            p.view(|p| {
                let now = p.pos.repetition_hash();
                (p.history.iter())
                    .map(|h| {
                        let mut m = Map::new();
                        m.insert("in_check".into(), h.in_check.into());
                        m.insert("same_as_now".into(), (h.hash == now).into());
                        m.insert("move".into(), p.move_map(h.played).into());
                        m.into()
                    })
                    .collect()
            })
        })
        .register_fn("last_move", |p: &mut T| -> Dynamic {
            p.view(|p| p.history.last().map_or(Dynamic::UNIT, |h| p.move_map(h.played).into()))
        })
        .register_fn("count", |p: &mut T, token: &str, side: &str| -> Res<i64> {
            let side = parse_side(side)?;
            p.view(|p| {
                let ty = p.token_type(token)?;
                Ok(p.pos.cells().iter().flatten().filter(|q| q.ty == ty && q.side == side).count() as i64)
            })
        })
        .register_fn("piece_count", |p: &mut T, side: &str| -> Res<i64> {
            let side = parse_side(side)?;
            Ok(p.view(|p| p.pos.cells().iter().flatten().filter(|q| q.side == side).count() as i64))
        })
        .register_fn("cells_of", |p: &mut T, piece: &str, side: &str| -> Res<Array> {
            let side = parse_side(side)?;
            p.view(|p| {
                let info = &p.info.0;
                // A token names one type; a name, every type of that name (a promoted Kirin is a Lion).
                let types: Vec<PieceId> = match notation::lookup_token(info, &piece.to_ascii_uppercase()) {
                    Ok((t, _)) => vec![t],
                    Err(_) => {
                        (0..info.pieces.len() as PieceId).filter(|&t| info.pieces[t as usize].name == piece).collect()
                    }
                };
                if types.is_empty() {
                    return Err(format!("{piece:?} is no piece's name or token").into());
                }
                let cells = (p.pos.cells().iter().enumerate())
                    .filter(|(_, q)| q.is_some_and(|q| q.side == side && types.contains(&q.ty)))
                    .map(|(c, _)| c as Cell);
                Ok(p.cell_names(cells))
            })
        })
        .register_fn("hand", |p: &mut T, token: &str, side: &str| -> Res<i64> {
            let side = parse_side(side)?;
            p.view(|p| Ok(p.pos.hand(side, p.token_type(token)?) as i64))
        })
        .register_fn("offset", |p: &mut T, cell: &str, v: Dynamic| -> Res<Dynamic> {
            let v = parse_vector(&v)?;
            p.cells_view(|p| {
                let c = p.cell(cell)?;
                p.read_cell(c);
                let side = p.pos.piece_at(c).map_or(Side::First, |q| q.side);
                Ok(p.offset(c, v, side))
            })
        })
        .register_fn("offset", |p: &mut T, cell: &str, v: Dynamic, side: &str| -> Res<Dynamic> {
            let (v, side) = (parse_vector(&v)?, parse_side(side)?);
            p.cells_view(|p| Ok(p.offset(p.cell(cell)?, v, side)))
        })
        .register_fn("neighbours", |p: &mut T, cell: &str| -> Res<Array> {
            p.cells_view(|p| {
                let c = p.cell(cell)?;
                let g = &p.info.1;
                let (f, r, l) = g.coords(c);
                let around = (-1..=1)
                    .flat_map(|dl| (-1..=1).flat_map(move |dr| (-1..=1).map(move |df| (df, dr, dl))))
                    .filter(|&d| d != (0, 0, 0))
                    .filter_map(|(df, dr, dl)| g.cell(f + df, r + dr, l + dl));
                Ok(p.cell_names(around))
            })
        })
        .register_fn("counter", |p: &mut T, i: i64| -> Res<i64> {
            let i = ScriptPosition::counter_index(i)?;
            Ok(p.view(|p| p.pos.counter(i) as i64))
        })
        .register_fn("play", |p: &mut T, mv: &str| p.view(|p| p.after(mv)))
        .register_fn("to_string", |p: &mut T| p.view(|p| notation::format_position(&p.info.0, &p.info.1, &p.pos)));
}

/// Registers the position handle and the effect handle.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<ScriptPosition>("Position");
    register_queries::<ScriptPosition>(engine);
    engine
        .register_type_with_name::<MoveEffect>("Effect")
        .register_get("mover", |e: &mut MoveEffect| e.fact("mover"))
        .register_get("from", |e: &mut MoveEffect| e.fact("from"))
        .register_get("to", |e: &mut MoveEffect| e.fact("to"))
        .register_get("move", |e: &mut MoveEffect| e.fact("move"))
        .register_get("captured", |e: &mut MoveEffect| e.fact("captured"))
        .register_fn("place", MoveEffect::place)
        .register_fn("remove", MoveEffect::remove)
        .register_fn("move_piece", MoveEffect::move_piece)
        .register_fn("change", MoveEffect::change)
        .register_fn("set_side", MoveEffect::set_side)
        .register_fn("set_hand", MoveEffect::set_hand)
        .register_fn("set_counter", MoveEffect::set_counter)
        .register_fn("again", |e: &mut MoveEffect| e.with(|s| s.again = true));
    register_queries::<MoveEffect>(engine);
}

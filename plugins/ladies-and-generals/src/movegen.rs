//! Legal move generation: slides and steps on the mailbox, promotion choices, drops, and
//! legality from attack tests on the mover's Emperor rather than by trying moves.
//!
//! Once per position the generator scans the 26 radials from the mover's Emperor for checkers
//! (and the squares that block them) and pinned pieces (with their line). Then a pinned piece
//! moves only along its line, a move while in check must end on a blocking square, and the
//! Emperor's steps are tested against attacks with the Emperor lifted off the board. The same
//! walk lists moves or only counts them ([`Sink`]); perft's last ply counts drops from the
//! restriction groups without visiting a cell.

use henka_api::{PieceId, Side};

use crate::board::{
    Board, CELLS, EMPTY, FILESTACKS, Mv, RANKS, REAL, Sq, owned_by, side_bit, side_of, square, type_of,
};
use crate::pieces::{DEFS, EMPEROR, PRINCELING, Promotion, TYPES, hand_types};
use crate::radials::COUNT;
use crate::restrictions::{FILES, MEMBERSHIP};
use crate::tables::{Tables, in_zone, on_far_rank};

/// Where generated moves go: a list, or a count.
pub trait Sink {
    fn push(&mut self, mv: Mv);
}

impl Sink for Vec<Mv> {
    #[inline]
    fn push(&mut self, mv: Mv) {
        Vec::push(self, mv);
    }
}

/// A sink that only counts.
#[derive(Debug, Default)]
pub struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _: Mv) {
        self.0 += 1;
    }
}

/// Checks and pins on the mover's Emperor.
#[derive(Clone, Copy, Debug, Default)]
pub struct Threats {
    checkers: u8,
    /// With one checker: its square and the squares between it and the Emperor.
    block: [u16; RANKS],
    block_len: u8,
    /// Pinned pieces: square and the radial from the Emperor to them.
    pins: [(u16, u8); COUNT],
    pin_len: u8,
}

impl Threats {
    /// Scans the radials from `side`'s Emperor on `emperor`.
    fn find(t: &Tables, b: &Board, emperor: Sq, side: Side) -> Threats {
        let (own, enemy) = (side_bit(side), side.opponent());
        let mut threats = Threats::default();
        for d in 0..COUNT {
            let off = t.off[d];
            let (first, distance) = first_piece(b, emperor, off);
            let c = b.at(first);
            if owned_by(c, side_bit(enemy)) {
                if t.attacks_along(enemy, type_of(c), d, distance) {
                    threats.checkers += 1;
                    if threats.checkers == 1 {
                        for k in 1..=distance as isize {
                            threats.block[threats.block_len as usize] = (emperor as isize + k * off) as u16;
                            threats.block_len += 1;
                        }
                    }
                }
            } else if owned_by(c, own) {
                let (second, _) = first_piece(b, first, off);
                let c2 = b.at(second);
                if owned_by(c2, side_bit(enemy)) && t.attacks_along(enemy, type_of(c2), d, 2) {
                    threats.pins[threats.pin_len as usize] = (first as u16, d as u8);
                    threats.pin_len += 1;
                }
            }
        }
        threats
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers > 0
    }

    #[inline]
    fn blocks(&self, sq: Sq) -> bool {
        self.block[..self.block_len as usize].contains(&(sq as u16))
    }

    /// The squares a move must end on to answer a single check (none in double check).
    fn blocking_squares(&self) -> impl Iterator<Item = Sq> + '_ {
        let len = if self.checkers == 1 { self.block_len as usize } else { 0 };
        self.block[..len].iter().map(|&sq| sq as Sq)
    }

    #[inline]
    fn pin(&self, sq: Sq) -> Option<usize> {
        self.pins[..self.pin_len as usize].iter().find(|p| p.0 as Sq == sq).map(|p| p.1 as usize)
    }
}

/// The first square along offset `off` from `from` that is not empty (a piece or a guard), and
/// how many steps away it is.
#[inline]
fn first_piece(b: &Board, from: Sq, off: isize) -> (Sq, u32) {
    let mut sq = from as isize + off;
    let mut distance = 1;
    while b.at(sq as Sq) == EMPTY {
        sq += off;
        distance += 1;
    }
    (sq as Sq, distance)
}

/// Whether a piece of `by` attacks `sq`.
pub fn attacked(t: &Tables, b: &Board, sq: Sq, by: Side) -> bool {
    let bit = side_bit(by);
    (0..COUNT).any(|d| {
        let (at, distance) = first_piece(b, sq, t.off[d]);
        let c = b.at(at);
        owned_by(c, bit) && t.attacks_along(by, type_of(c), d, distance)
    })
}

/// Whether the side to move is in check.
pub fn in_check(t: &Tables, b: &Board) -> bool {
    let side = b.to_move;
    b.emperor(side).is_some_and(|e| attacked(t, b, e, side.opponent()))
}

/// The legal moves of the side to move (none if it has no Emperor).
pub fn legal_moves(t: &Tables, b: &mut Board, out: &mut Vec<Mv>) {
    out.clear();
    if let Some(threats) = board_moves(t, b, out) {
        list_drops(b, &threats, out);
    }
}

/// How many legal moves the side to move has, without listing drops.
pub fn count_legal_moves(t: &Tables, b: &mut Board) -> u64 {
    let mut count = Counter::default();
    match board_moves(t, b, &mut count) {
        Some(threats) => count.0 + count_drops(b, &threats),
        None => 0,
    }
}

/// The moves of the piece on `from` as its owner would have them, whoever is to move and
/// whatever attacks its Emperor: what picking the piece up shows.
pub fn piece_moves(t: &Tables, b: &mut Board, from: Sq, out: &mut Vec<Mv>) {
    let code = b.at(from);
    let side = side_of(code);
    if type_of(code) == EMPEROR {
        for &d in t.steps(side, EMPEROR) {
            let to = (from as isize + t.off[d as usize]) as Sq;
            if b.at(to) & side_bit(side) == 0 {
                out.push(Mv::board(from, to, EMPEROR));
            }
        }
    } else {
        non_emperor_moves(t, b, from, &Threats::default(), out);
    }
}

/// The Emperor's moves and, unless it is in double check, every other piece's board moves.
/// Returns the threats for the drops (`None` when the mover has no Emperor and so no moves).
fn board_moves<S: Sink>(t: &Tables, b: &mut Board, sink: &mut S) -> Option<Threats> {
    let side = b.to_move;
    let emperor = b.emperor(side)?;
    let threats = Threats::find(t, b, emperor, side);
    emperor_moves(t, b, emperor, side, sink);
    if threats.checkers < 2 {
        let board: &Board = b;
        board.for_each_piece(side, |sq| {
            if sq != emperor {
                non_emperor_moves(t, board, sq, &threats, sink);
            }
        });
    }
    Some(threats)
}

/// The Emperor's steps onto squares the enemy does not attack once it has left its own.
fn emperor_moves<S: Sink>(t: &Tables, b: &mut Board, from: Sq, side: Side, sink: &mut S) {
    let code = b.lift(from);
    for &d in t.steps(side, EMPEROR) {
        let to = (from as isize + t.off[d as usize]) as Sq;
        if b.at(to) & side_bit(side) == 0 && !attacked(t, b, to, side.opponent()) {
            sink.push(Mv::board(from, to, EMPEROR));
        }
    }
    b.restore(from, code);
}

/// The slides and steps of the (non-Emperor) piece on `from` that respect its pin and, in
/// check, block or capture the checker.
fn non_emperor_moves<S: Sink>(t: &Tables, b: &Board, from: Sq, threats: &Threats, sink: &mut S) {
    let code = b.at(from);
    let (side, ty) = (side_of(code), type_of(code));
    let own = side_bit(side);
    let pin = threats.pin(from);
    if pin.is_some() && threats.in_check() {
        // Its line and the checker's meet only at the Emperor: it cannot help.
        return;
    }
    let along_pin = |d: usize| pin.is_none_or(|p| d == p || d == t.opposite[p] as usize);
    for &d in t.slides(side, ty) {
        let d = d as usize;
        if !along_pin(d) {
            continue;
        }
        let off = t.off[d];
        let mut to = (from as isize + off) as Sq;
        loop {
            let c = b.at(to);
            if c & own == 0 {
                choices(b, side, ty, from, to, threats, sink);
            }
            if c != EMPTY {
                break;
            }
            to = (to as isize + off) as Sq;
        }
    }
    for &d in t.steps(side, ty) {
        let d = d as usize;
        if along_pin(d) {
            let to = (from as isize + t.off[d]) as Sq;
            if b.at(to) & own == 0 {
                choices(b, side, ty, from, to, threats, sink);
            }
        }
    }
}

/// The moves `from` → `to` of a piece of type `ty`: with and without promotion where §7 offers
/// it, within the restrictions of §6, and only onto blocking squares while in check.
#[inline]
fn choices<S: Sink>(b: &Board, side: Side, ty: PieceId, from: Sq, to: Sq, threats: &Threats, sink: &mut S) {
    if threats.in_check() && !threats.blocks(to) {
        return;
    }
    let zone = in_zone(side, from) || in_zone(side, to);
    match DEFS[ty as usize].promotion {
        Promotion::Never => sink.push(Mv::board(from, to, ty)),
        Promotion::To(promoted) => {
            if zone {
                sink.push(Mv::board(from, to, promoted));
            }
            if ty == PRINCELING {
                let forced = on_far_rank(side, to);
                let changes_file = MEMBERSHIP[from].file != MEMBERSHIP[to].file;
                if !forced && (!changes_file || b.groups.may_add(side, ty, to)) {
                    sink.push(Mv::board(from, to, ty));
                }
            } else {
                sink.push(Mv::board(from, to, ty));
            }
        }
        Promotion::SwitchBack(ranker) => {
            sink.push(Mv::board(from, to, ty));
            if zone && b.groups.may_add(side, ranker, to) {
                sink.push(Mv::board(from, to, ranker));
            }
        }
    }
}

/// Whether `side` may drop a `ty` on the empty square `sq`: never a Princeling on its far rank
/// (§8), and within the restrictions (§6).
#[inline]
fn drop_allowed(b: &Board, side: Side, ty: PieceId, sq: Sq) -> bool {
    !(ty == PRINCELING && on_far_rank(side, sq)) && b.groups.may_add(side, ty, sq)
}

/// Every type that can be in hand, in id order.
static HAND_TYPES: std::sync::LazyLock<Vec<PieceId>> = std::sync::LazyLock::new(hand_types);

/// The types the side to move holds.
fn held(b: &Board) -> impl Iterator<Item = PieceId> + '_ {
    HAND_TYPES.iter().copied().filter(|&ty| b.hand(b.to_move, ty) > 0)
}

/// The drops of the held types onto those of `squares` that are empty.
fn drops_onto<S: Sink>(b: &Board, squares: impl Iterator<Item = Sq>, sink: &mut S) {
    let side = b.to_move;
    let mut types = [0; TYPES];
    let mut n = 0;
    for ty in held(b) {
        types[n] = ty;
        n += 1;
    }
    if n == 0 {
        return;
    }
    for sq in squares.filter(|&sq| b.at(sq) == EMPTY) {
        for &ty in &types[..n] {
            if drop_allowed(b, side, ty, sq) {
                sink.push(Mv::drop(ty, sq));
            }
        }
    }
}

/// The legal drops: onto the blocking squares in check, anywhere empty otherwise.
fn list_drops(b: &Board, threats: &Threats, out: &mut Vec<Mv>) {
    if threats.in_check() {
        drops_onto(b, threats.blocking_squares(), out);
    } else {
        drops_onto(b, REAL.iter().copied(), out);
    }
}

/// The number of legal drops. Out of check they are counted per group: each held type may go
/// to every empty cell of the groups below their limit, less the Princeling's far rank.
fn count_drops(b: &Board, threats: &Threats) -> u64 {
    if threats.in_check() {
        let mut count = Counter::default();
        drops_onto(b, threats.blocking_squares(), &mut count);
        return count.0;
    }
    let side = b.to_move;
    held(b)
        .map(|ty| {
            let open = u64::from(b.groups.cells_open_to(side, ty));
            if ty == PRINCELING { open - far_rank_open_to_princelings(b, side) } else { open }
        })
        .sum()
}

/// The empty far-rank cells of `side` whose file could take another Princeling (the cells
/// [`Groups::cells_open_to`](crate::restrictions::Groups::cells_open_to) counts but §8 forbids).
fn far_rank_open_to_princelings(b: &Board, side: Side) -> u64 {
    let rank = if side == Side::First { RANKS - 1 } else { 0 };
    (0..FILES)
        .map(|file| square(file % FILESTACKS, rank, file / FILESTACKS))
        .filter(|&sq| b.at(sq) == EMPTY && b.groups.may_add(side, PRINCELING, sq))
        .count() as u64
}

const _: () = assert!(TYPES <= 32, "type masks are u32");
const _: () = assert!(CELLS == FILES * RANKS);

//! Legal moves (docs/rules/ki-shogi.md §6, §8; docs/ki-shogi.md "Moves" and "Legal moves"): the
//! Gyoku placements, board moves (a flip, or one move per face a capture may turn to) and drops
//! (one per face shown), each tried on a copy of the board through the end of the turn — except in
//! a quiet node (out of check, every cube supported), where most drops and board moves can be
//! judged without trying them (see `Node`).
//!
//! Moves go to a [`Sink`]: a list for the host, or a counter for perft's last ply, which then
//! counts a capture's face choices at once (the face chosen changes nothing about legality: the
//! moved cube's support does not depend on its face within a cube, and it never attacks its own
//! Gyoku).

use henka_api::{Move, MoveKind};

use crate::Rules;
use crate::board::Board;
use crate::faces::{CUBE_FIRST_FACES, FACES, Face, GYOKU, KI_CUBE, cube_of, is_relay};
use crate::support::{Men, all, end_turn, supported};
use crate::tables::{CELLS, Cells, NONE, Reach, SIZE, Sq, Tables, ones};

/// Where generated moves go.
pub trait Sink {
    fn add(&mut self, mv: Move);
    /// One move per face (`base.piece` ignored).
    fn add_faces(&mut self, base: Move, faces: &[Face]);
    /// A drop on `to` of every face in the set `faces` (bit = face id).
    fn add_drops(&mut self, to: Sq, faces: u32);
}

impl Sink for Vec<Move> {
    #[inline]
    fn add(&mut self, mv: Move) {
        self.push(mv);
    }
    #[inline]
    fn add_faces(&mut self, base: Move, faces: &[Face]) {
        self.extend(faces.iter().map(|&piece| Move { piece, ..base }));
    }
    #[inline]
    fn add_drops(&mut self, to: Sq, faces: u32) {
        self.extend(ones(faces).map(|f| Move::drop(f as Face, to as u16)));
    }
}

/// Counts moves without listing them.
#[derive(Debug, Default)]
pub struct Count(pub u64);

impl Sink for Count {
    #[inline]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline]
    fn add_faces(&mut self, _: Move, faces: &[Face]) {
        self.0 += faces.len() as u64;
    }
    #[inline]
    fn add_drops(&mut self, _: Sq, faces: u32) {
        self.0 += faces.count_ones() as u64;
    }
}

/// Plays a legal move with its end of turn; returns the supported cubes after it.
pub fn play(t: &Tables, b: &mut Board, mv: Move) -> Men {
    b.apply(mv);
    end_turn(t, b, supported(t, b))
}

/// Whether `mv` (pseudo-legal for the side to move) is legal: a moved cube must end supported
/// unless sacrifices are allowed, and after the end of the turn the mover's Gyoku must not be
/// attacked.
fn legal_after(t: &Tables, r: &Rules, b: &Board, mv: Move, mover_is_gyoku: bool) -> bool {
    let me = b.stm;
    let mut a = *b;
    a.apply(mv);
    let sup = supported(t, &a);
    if mv.kind == MoveKind::Board && !mover_is_gyoku && !r.sacrifices {
        let i = a.man_at(mv.to as Sq).expect("the moved cube");
        if sup >> i & 1 == 0 {
            return false;
        }
    }
    end_turn(t, &mut a, sup);
    let g = a.gyoku[me];
    g == NONE || !a.attacked(t, g, 1 - me)
}

/// The cells within `from..=to` king steps of `c`.
fn ring(t: &Tables, c: Sq, from: i32, to: i32) -> impl Iterator<Item = Sq> {
    let (x, y) = t.xy(c);
    (-to..=to).flat_map(move |dy| {
        (-to..=to).filter_map(move |dx| {
            let (nx, ny) = (x + dx, y + dy);
            let inside = (0..SIZE).contains(&nx) && (0..SIZE).contains(&ny);
            (inside && dx.abs().max(dy.abs()) >= from).then(|| (ny * SIZE + nx) as Sq)
        })
    })
}

/// What a node knows before trying its moves.
struct Node {
    /// Out of check with every cube supported: most moves need no trial (see [`Node::fast`]).
    quiet: bool,
    /// The cells of the relays (Ki faces) on the field.
    relays: Cells,
    /// The cells next to a Gyoku or a relay: where a moved cube is supported (only when quiet,
    /// when every relay is supported).
    zone: Cells,
    /// Own cubes that alone stand between the own Gyoku and an enemy slide (only when quiet).
    pins: Cells,
}

impl Node {
    fn new(t: &Tables, b: &Board, sup: Men, mine: Sq) -> Node {
        let me = b.stm;
        let quiet = sup == all(b) && !b.attacked(t, mine, 1 - me);
        let mut node = Node { quiet, relays: Cells::default(), zone: Cells::default(), pins: Cells::default() };
        for m in b.men() {
            if is_relay(m.face) {
                node.relays.insert(m.sq);
            }
            if quiet && (m.face == GYOKU || is_relay(m.face)) {
                node.zone = node.zone.union(t.around(m.sq));
            }
            if quiet
                && m.side as usize != me
                && let Reach::Slide(step) = t.reach(m.face, 1 - me, m.sq, mine)
            {
                let between = (1..).map(|k| (m.sq as i16 + k * step) as Sq).take_while(|&c| c != mine);
                let mut blockers = between.filter(|&c| b.occupied(c));
                if let (Some(c), None) = (blockers.next(), blockers.next())
                    && b.man_at(c).is_some_and(|i| b.men()[i].side as usize == me)
                {
                    node.pins.insert(c);
                }
            }
        }
        node
    }

    /// Whether a board move is judged legal without trying it: in a quiet node, a cube that is
    /// neither Gyoku nor Ki, capturing none or no Ki, changes no other cube's support, so only its
    /// own matters; ending supported, it can expose its Gyoku only by leaving a pin line.
    /// `None`: try the move.
    fn fast(&self, r: &Rules, mover: Face, from: Sq, to: Sq) -> Option<bool> {
        if !self.quiet || mover == GYOKU || is_relay(mover) || self.relays.contains(to) {
            return None;
        }
        match self.zone.contains(to) {
            // Unsupported: illegal in the base game; a sacrifice (the cube is lost, which may open
            // a line through `to`) is tried.
            false if !r.sacrifices => Some(false),
            false => None,
            true if self.pins.contains(from) => None,
            true => Some(true),
        }
    }
}

/// Generates the legal moves of the side to move into `out`.
pub fn generate<S: Sink>(t: &Tables, r: &Rules, b: &Board, out: &mut S) {
    generate_supported(t, r, b, supported(t, b), out);
}

/// [`generate`] given the supported cubes of `b` (as [`play`] returns them).
pub fn generate_supported<S: Sink>(t: &Tables, r: &Rules, b: &Board, sup: Men, out: &mut S) {
    let me = b.stm;
    let theirs = b.gyoku[1 - me];
    if b.hands[me][cube_of(GYOKU)] > 0 {
        placements(t, r, b, theirs, out);
        return;
    }
    let mine = b.gyoku[me];
    if mine == NONE {
        return;
    }
    let node = Node::new(t, b, sup, mine);
    for m in b.men() {
        if m.side as usize == me {
            board_moves(t, r, b, &node, m.face, m.sq, theirs, out);
        }
    }
    drops(t, r, b, sup, mine, theirs, node.quiet, out);
}

fn placements<S: Sink>(t: &Tables, r: &Rules, b: &Board, theirs: Sq, out: &mut S) {
    let mut try_cell = |c: Sq| {
        let mv = Move::place(GYOKU, c as u16);
        if !b.occupied(c) && legal_after(t, r, b, mv, true) {
            out.add(mv);
        }
    };
    if theirs == NONE {
        (0..CELLS as Sq).for_each(&mut try_cell);
    } else {
        ring(t, theirs, 2, 2).for_each(&mut try_cell);
    }
}

/// The moves of the cube `face` on `from`: jumps, then slides up to the first cube.
#[allow(clippy::too_many_arguments)]
fn board_moves<S: Sink>(t: &Tables, r: &Rules, b: &Board, node: &Node, face: Face, from: Sq, theirs: Sq, out: &mut S) {
    let me = b.stm;
    let gyoku = face == GYOKU;
    let def = &FACES[face as usize];
    let mut target = |to: Sq| {
        // The Gyoku stay exactly two apart.
        if gyoku && theirs != NONE && t.distance(to, theirs) != 2 {
            return;
        }
        let base = Move::board(from as u16, to as u16, face);
        let legal = |mv: Move| node.fast(r, face, from, to).unwrap_or_else(|| legal_after(t, r, b, mv, gyoku));
        match b.man_at(to) {
            None => {
                let mv = Move { piece: def.opposite, ..base };
                if legal(mv) {
                    out.add(mv);
                }
            }
            Some(j) if b.men()[j].side as usize != me => {
                if gyoku {
                    if legal(base) {
                        out.add(base);
                    }
                } else if legal(Move { piece: def.after_capture[0], ..base }) {
                    out.add_faces(base, def.after_capture);
                }
            }
            Some(_) => {}
        }
    };
    for &to in t.jumps(face, me, from) {
        target(to);
    }
    for &d in t.slide_dirs(face, me) {
        for &to in t.ray(from, d) {
            target(to);
            if b.occupied(to) {
                break;
            }
        }
    }
}

/// Drops: a Ki-cube face one or two cells from the own Gyoku; any other face next to the own
/// Gyoku or an own active Ki; never next to the enemy Gyoku, never giving check.
#[allow(clippy::too_many_arguments)]
fn drops<S: Sink>(t: &Tables, r: &Rules, b: &Board, sup: Men, mine: Sq, theirs: Sq, quiet: bool, out: &mut S) {
    let me = b.stm;
    let allowed = |c: Sq| !b.occupied(c) && (theirs == NONE || t.distance(c, theirs) > 1);
    let mut near = Cells::default();
    let mut supporters = Cells::default();
    supporters.insert(mine);
    for i in ones(all(b)) {
        let m = b.men()[i];
        if m.side as usize == me && is_relay(m.face) && (sup >> i & 1 == 1 || m.grace) {
            supporters.insert(m.sq);
        }
    }
    for s in supporters.iter() {
        t.neighbours(s).filter(|&c| allowed(c)).for_each(|c| near.insert(c));
    }
    for cube in 1..r.cubes {
        if b.hands[me][cube] == 0 {
            continue;
        }
        let end = CUBE_FIRST_FACES.get(cube + 1).copied().unwrap_or(FACES.len() as Face);
        let faces = (1u32 << end) - (1u32 << CUBE_FIRST_FACES[cube]);
        let mut drop_on = |c: Sq| {
            let mut ok = faces;
            if theirs != NONE {
                let ch = t.checkers(me, c, theirs);
                let slides = ch.slide & faces != 0 && b.clear_between(c, theirs, ch.step);
                ok &= !(ch.jump | if slides { ch.slide } else { 0 });
            }
            if quiet {
                out.add_drops(c, ok);
            } else {
                for face in ones(ok) {
                    let mv = Move::drop(face as Face, c as u16);
                    if legal_after(t, r, b, mv, false) {
                        out.add(mv);
                    }
                }
            }
        };
        if cube == KI_CUBE {
            ring(t, mine, 1, 2).filter(|&c| allowed(c)).for_each(&mut drop_on);
        } else {
            near.iter().for_each(&mut drop_on);
        }
    }
}

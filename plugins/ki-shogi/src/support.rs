//! Support and stranding (docs/rules/ki-shogi.md §7, §9, §10; docs/ki-shogi.md "Legal moves"):
//! which cubes stand next to a supporter, and the end of a turn, when unsupported cubes are put
//! under grace or lost.
//!
//! Support grows outward from the Gyoku: a Gyoku needs none; a Ki face is supported within two
//! cells of either Gyoku or next to a supported Ki (never by a grace mark); every other cube is
//! supported next to a Gyoku or next to an *active* Ki (supported, or under grace). Sets of cubes
//! are bit masks over [`Board::men`]'s indices.

use crate::board::{Board, MAX_MEN};
use crate::faces::{GYOKU, is_relay};
use crate::tables::{Cells, NONE, Sq, Tables, ones};

/// A set of cubes by their index in [`Board::men`].
pub type Men = u32;

const _: () = assert!(MAX_MEN <= Men::BITS as usize);

/// How far from a Gyoku a Ki face is supported (`relay_reach`).
pub(crate) const KI_REACH: i32 = 2;

/// Whether a Ki on `c` is anchored: within reach of a Gyoku (either one, `ki_anchor`'s default).
fn anchored(t: &Tables, b: &Board, c: Sq) -> bool {
    b.gyoku.iter().any(|&g| g != NONE && t.distance(g, c) <= KI_REACH)
}

/// The supported cubes of `b`.
pub fn supported(t: &Tables, b: &Board) -> Men {
    let men = b.men();
    let (mut sup, mut relays, mut grace): (Men, Men, Men) = (0, 0, 0);
    for (i, m) in men.iter().enumerate() {
        if m.face == GYOKU {
            sup |= 1 << i;
        } else if is_relay(m.face) {
            relays |= 1 << i;
            grace |= (m.grace as Men) << i;
            if anchored(t, b, m.sq) {
                sup |= 1 << i;
            }
        }
    }
    let mut active = 0;
    if relays != 0 {
        // A Ki next to a supported Ki is supported, until nothing changes.
        loop {
            let mut grown = sup;
            for i in ones(relays & !sup) {
                if ones(relays & sup).any(|j| t.distance(men[i].sq, men[j].sq) == 1) {
                    grown |= 1 << i;
                }
            }
            if grown == sup {
                break;
            }
            sup = grown;
        }
        active = (relays & sup) | grace;
    }
    let next_to_gyoku = b.gyoku.iter().filter(|&&g| g != NONE).fold(Cells::default(), |z, &g| z.union(t.around(g)));
    for (i, m) in men.iter().enumerate() {
        if m.face != GYOKU
            && !is_relay(m.face)
            && (next_to_gyoku.contains(m.sq) || ones(active).any(|j| t.distance(m.sq, men[j].sq) == 1))
        {
            sup |= 1 << i;
        }
    }
    sup
}

/// Every cube on the field.
#[inline]
pub fn all(b: &Board) -> Men {
    ((1u64 << b.men().len()) - 1) as Men
}

/// The side to move's cubes under grace.
fn own_grace(b: &Board) -> Men {
    let me = b.stm as u8;
    (b.men().iter().enumerate()).filter(|(_, m)| m.side == me && m.grace).fold(0, |s, (i, _)| s | 1 << i)
}

/// Ends the turn of the side to move (rules §9 as the script's `stranded` hook does it), then hands
/// the turn over. Round after round: every unsupported cube of the opponent not yet under grace
/// is put under grace, then every unsupported cube of the mover is lost to the opponent; the
/// rounds end when nothing is lost. Last, the mover's grace marks are cleared (each was recovered
/// or has just been lost). `supported` is [`supported`] of `b`, which the caller often has.
pub fn end_turn(t: &Tables, b: &mut Board, supported_now: Men) -> Men {
    let me = b.stm;
    let mut unsupported = all(b) & !supported_now;
    if unsupported != 0 || own_grace(b) != 0 {
        loop {
            for i in ones(unsupported) {
                let m = b.men()[i];
                if m.side as usize != me && !m.grace {
                    b.set_grace(i, true);
                }
            }
            unsupported = all(b) & !supported(t, b);
            let mut lost: Men = 0;
            for i in ones(unsupported) {
                if b.men()[i].side as usize == me {
                    lost |= 1 << i;
                }
            }
            if lost == 0 {
                break;
            }
            // Highest index first: taking a cube off moves the last one into its place, and the
            // last one is never still to be taken.
            while lost != 0 {
                let i = (Men::BITS - 1 - lost.leading_zeros()) as usize;
                b.capture(i, 1 - me);
                lost &= !(1 << i);
            }
            unsupported = all(b) & !supported(t, b);
        }
        // Clearing a mark changes no support: the mover's marked cubes left are supported.
        for i in ones(own_grace(b)) {
            b.set_grace(i, false);
        }
    }
    b.stm = 1 - me;
    all(b) & !unsupported
}

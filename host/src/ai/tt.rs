//! The transposition table: search results keyed by the position hash, so a position reached by
//! another move order is not searched again and its best move is tried first next time.
//!
//! The hash covers cells, hands, counters and the side to move ([`henka_api::Position::hash`]);
//! a collision costs at most a wrong bound, and a stored move is only used after the search finds
//! it in the legal move list.

use henka_api::Move;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    key: u64,
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

const EMPTY: Entry = Entry { key: 0, mv: None, score: 0, depth: -1, bound: Bound::Upper };

/// A fixed-size, always-replace-unless-deeper hash table.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` (rounded down to a power of two entries, at least 1,024).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<Entry>();
        let len = (wanted.next_power_of_two() / 2).max(1024);
        Table { entries: vec![EMPTY; len], mask: len - 1 }
    }

    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    /// Stores a result, keeping a deeper one for the same position unless this one is exact.
    #[inline]
    pub fn store(&mut self, key: u64, depth: i16, score: i32, bound: Bound, mv: Option<Move>) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && slot.depth > depth && bound != Bound::Exact {
            return;
        }
        let mv = mv.or(if slot.key == key { slot.mv } else { None });
        *slot = Entry { key, mv, score, depth: depth.max(0), bound };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_keeps_the_deeper_result() {
        let mut t = Table::new(1);
        let mv = Move::pass();
        t.store(42, 5, 10, Bound::Lower, Some(mv));
        t.store(42, 2, 99, Bound::Upper, None);
        let e = t.probe(42).unwrap();
        assert_eq!((e.depth, e.score, e.mv), (5, 10, Some(mv)));
        assert!(t.probe(43).is_none());
        t.clear();
        assert!(t.probe(42).is_none());
    }
}

//! The transposition table: search results keyed by the position hash, so a position reached by
//! another move order is not searched again and its best move is tried first next time.
//!
//! The hash covers cells, hands, counters and the side to move ([`henka_api::Position::hash`]);
//! a collision costs at most a wrong bound, and a stored move is only used after the search finds
//! it in the legal move list.
//!
//! The table is shared by the threads of one search (Lazy SMP): every slot is three atomic words,
//! the move, the data and the key XORed with both, so a slot torn by two threads writing at once
//! reads as empty rather than as another position's result (the "lockless hashing" trick).

use std::sync::atomic::{AtomicU64, Ordering};

use henka_api::{Move, MoveKind};

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
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

/// A fixed-size, always-replace-unless-deeper hash table, safe to share between threads.
#[derive(Debug)]
pub struct Table {
    /// `[check, move, data]` per slot.
    slots: Vec<[AtomicU64; 3]>,
    mask: usize,
}

fn pack_move(mv: Option<Move>) -> u64 {
    match mv {
        None => 0,
        Some(m) => {
            (m.kind as u64 + 1)
                | (m.piece as u64) << 8
                | (m.from as u64) << 16
                | (m.to as u64) << 32
                | (m.via as u64) << 48
        }
    }
}

fn unpack_move(w: u64) -> Option<Move> {
    let kind = match w & 0xff {
        0 => return None,
        1 => MoveKind::Board,
        2 => MoveKind::Drop,
        3 => MoveKind::Pass,
        4 => MoveKind::Place,
        _ => return None,
    };
    Some(Move { kind, piece: (w >> 8) as u8, from: (w >> 16) as u16, to: (w >> 32) as u16, via: (w >> 48) as u16 })
}

fn pack_data(score: i32, depth: i16, bound: Bound) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (score as u32 as u64) | (depth as u16 as u64) << 32 | b << 48
}

fn unpack_data(w: u64) -> Option<(i32, i16, Bound)> {
    let bound = match (w >> 48) & 0xff {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some((w as u32 as i32, (w >> 32) as u16 as i16, bound))
}

impl Table {
    /// A table of about `megabytes` (rounded down to a power of two entries, at least 1,024).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<[AtomicU64; 3]>();
        let len = (wanted.next_power_of_two() / 2).max(1024);
        Table { slots: (0..len).map(|_| Default::default()).collect(), mask: len - 1 }
    }

    pub fn clear(&self) {
        for s in &self.slots {
            for w in s {
                w.store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn read(&self, key: u64) -> Option<(u64, u64)> {
        let s = &self.slots[key as usize & self.mask];
        let (check, mv, data) =
            (s[0].load(Ordering::Relaxed), s[1].load(Ordering::Relaxed), s[2].load(Ordering::Relaxed));
        (data != 0 && check ^ mv ^ data == key).then_some((mv, data))
    }

    /// Starts loading `key`'s slot into the processor's cache, so that the probe that follows a
    /// little later does not wait for memory: the table is far bigger than the cache, and a
    /// probe's miss was the largest single cost of a node. A hint only; nothing read changes.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        // A slot of three words may straddle two cache lines: both ends are asked for.
        let slot = &self.slots[key as usize & self.mask];
        prefetch(&slot[0]);
        prefetch(&slot[2]);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let (mv, data) = self.read(key)?;
        let (score, depth, bound) = unpack_data(data)?;
        Some(Entry { mv: unpack_move(mv), score, depth, bound })
    }

    /// Stores a result, keeping a deeper one for the same position unless this one is exact.
    #[inline]
    pub fn store(&self, key: u64, depth: i16, score: i32, bound: Bound, mv: Option<Move>) {
        let old = self.probe(key);
        if let Some(e) = old
            && e.depth > depth
            && bound != Bound::Exact
        {
            return;
        }
        let mv = pack_move(mv.or(old.and_then(|e| e.mv)));
        let data = pack_data(score, depth.max(0), bound);
        let s = &self.slots[key as usize & self.mask];
        s[0].store(key ^ mv ^ data, Ordering::Relaxed);
        s[1].store(mv, Ordering::Relaxed);
        s[2].store(data, Ordering::Relaxed);
    }
}

/// Asks the processor to bring the cache line holding `value` closer (a no-op where there is no
/// such instruction). Prefetching never faults and changes no memory, so it cannot change a result.
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: every x86-64 processor has SSE, which the instruction needs; it reads
        // nothing the program sees and cannot fault, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_keeps_the_deeper_result() {
        let t = Table::new(1);
        let mv = Move::pass();
        t.store(42, 5, 10, Bound::Lower, Some(mv));
        t.store(42, 2, 99, Bound::Upper, None);
        let e = t.probe(42).unwrap();
        assert_eq!((e.depth, e.score, e.mv), (5, 10, Some(mv)));
        assert!(t.probe(43).is_none());
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn moves_and_scores_survive_packing() {
        let t = Table::new(1);
        for (i, mv) in [Move::board(3, 77, 5), Move::drop(9, 1000), Move { via: 12, ..Move::board(0, 65_000, 199) }]
            .into_iter()
            .enumerate()
        {
            let key = 0x1234_5678_9abc_def0 + i as u64;
            t.store(key, 7, -(MATE_LIKE), Bound::Exact, Some(mv));
            let e = t.probe(key).unwrap();
            assert_eq!((e.mv, e.score, e.depth, e.bound), (Some(mv), -(MATE_LIKE), 7, Bound::Exact));
        }
    }

    const MATE_LIKE: i32 = 99_999_990;
}

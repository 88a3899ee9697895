//! The doubles window: gnubg's search of a double's sub-moves, tabulated per position so
//! that the fast generator ([`super::generate`]) reads one entry where gnubg searches three
//! levels deep.

use super::exact::{ExactSource, Scored};
use super::single_moves::SingleMoves;
use crate::levels::PipLevels;
use crate::prefetch::prefetch;

/// The doubles search of gnubg's `GenerateMoves`, tabulated per position for a window of
/// pip levels.
///
/// After a first sub-move from source `s` a double continues with up to three more
/// sub-moves of the same die, each from a source no higher than the one before. For every
/// position `x`, die, number of sub-moves `k` still to play (1-3) and bound `s` on the
/// next source, the window keeps how many sub-moves the longest sequences of that
/// sub-search use and their first best successors in gnubg's order, by bear-off and by
/// gammon score. Entry `k` is built from entries `k - 1` of the positions one sub-move
/// lower, so one lookup replaces a three-level search. gnubg keeps only the longest
/// sequences of a roll and, among them, the first best; blocks offered in search order
/// with their own longest length and first best give the same choice.
///
/// A position's entries are needed only while positions at most 6 pips higher are
/// computed, so 7 pip levels are kept.
#[derive(Debug)]
pub struct DoublesWindow {
    points: usize,
    pub(super) stride: usize,
    pub(super) slots: [Option<Slot>; WINDOW],
    /// Per position: its rank within its pip level, and its level modulo [`WINDOW`] in
    /// the top 3 bits (one load finds an entry).
    pub(super) loc: Vec<u32>,
}

pub(super) const WINDOW: usize = 7;

/// One level's entries: zeroed anonymous memory sized for the largest level it will
/// hold, its pages mapped in one call (cheaper than a page fault per page). Level 0's
/// entries (the all-off position: no moves) are these zeros.
#[derive(Debug)]
pub(super) struct Slot(fileio::mmap::AnonMap);

impl Slot {
    fn new(values: usize) -> Option<Slot> {
        fileio::mmap::AnonMap::zeroed((values * 4).max(4), true)
            .ok()
            .map(Slot)
    }
    fn values(&self) -> &[u32] {
        bytemuck::cast_slice(&self.0)
    }
    pub(super) fn values_mut(&mut self) -> &mut [u32] {
        bytemuck::cast_slice_mut(&mut self.0)
    }
}

impl DoublesWindow {
    /// `u32` values per position: 6 dice × `points` bounds × 3 depths × 4 (bear-off
    /// best with the sequence length in its top bits, its score, gammon best, its
    /// score); the three depths of one die and bound are adjacent (48 bytes, one or two
    /// cache lines).
    pub fn stride(points: usize) -> usize {
        6 * 3 * points * 4
    }

    /// Bytes the window needs for `levels`: level `p` uses slot `p % 7`, each slot is
    /// sized for the largest level it holds.
    pub fn bytes(levels: &PipLevels, points: usize) -> u64 {
        let largest: usize = (0..WINDOW).map(|r| Self::slot_positions(levels, r)).sum();
        (largest * Self::stride(points) * 4) as u64
    }

    /// Positions of the largest level that uses slot `r`.
    fn slot_positions(levels: &PipLevels, r: usize) -> usize {
        (r..=levels.max_pip())
            .step_by(WINDOW)
            .map(|p| levels.len_of(p))
            .max()
            .unwrap_or(0)
            .max(1)
    }

    /// The window for `levels`, or `None` if its memory cannot be mapped.
    pub(super) fn new(points: usize, levels: &PipLevels) -> Option<DoublesWindow> {
        let loc = levels
            .pip
            .iter()
            .zip(&levels.rank)
            .map(|(&p, &r)| r | ((usize::from(p) % WINDOW) as u32) << 29)
            .collect();
        let stride = Self::stride(points);
        let mut slots: [Option<Slot>; WINDOW] = Default::default();
        for (r, slot) in slots.iter_mut().enumerate() {
            *slot = Some(Slot::new(Self::slot_positions(levels, r) * stride)?);
        }
        Some(DoublesWindow {
            points,
            stride,
            slots,
            loc,
        })
    }

    /// Where position `x`'s entries for die `d` and bound `bound` start.
    #[inline(always)]
    fn at(&self, x: u64, d: u8, bound: usize) -> (&[u32], usize) {
        let loc = self.loc[x as usize];
        let slot = self.slots[(loc >> 29) as usize]
            .as_ref()
            .map_or(&[][..], Slot::values);
        let at = (loc & 0x1FFF_FFFF) as usize * self.stride
            + ((usize::from(d) - 1) * self.points + bound.min(self.points - 1)) * 12;
        (slot, at)
    }

    #[inline]
    pub(super) fn entry(&self, x: u64, d: u8, k: usize, bound: usize) -> (u8, Scored, Scored) {
        let (slot, at) = self.at(x, d, bound);
        let at = at + (k - 1) * 4;
        let e = &slot[at..at + 4];
        (
            (e[0] >> 30) as u8,
            (u64::from(e[0] & 0x3FFF_FFFF), e[1]),
            (u64::from(e[2]), e[3]),
        )
    }

    /// Fills the entries of a position (its successors' entries must be present) from
    /// its single moves `moves[d - 1]` (sources descending, as [`for_each_single_move`]
    /// lists them) and its own scores `here`.
    ///
    /// [`for_each_single_move`]: crate::movegen::for_each_single_move
    pub(super) fn compute(
        &self,
        here: (Scored, Scored),
        moves: &[SingleMoves; 6],
        src: &impl ExactSource,
        out: &mut [u32],
    ) {
        let p = self.points;
        // `a`'s sequences come first in gnubg's order; `b` with no moves is empty.
        let better = |a: (u8, Scored, Scored), b: (u8, Scored, Scored)| {
            if b.0 == 0 || a.0 > b.0 {
                return a;
            }
            if b.0 > a.0 {
                return b;
            }
            let bear = if a.1 .1 <= b.1 .1 { a.1 } else { b.1 };
            let gam = if a.2 .1 <= b.2 .1 { a.2 } else { b.2 };
            (a.0, bear, gam)
        };
        let pack = |c: (u8, Scored, Scored)| {
            [
                c.1 .0 as u32 | u32::from(c.0) << 30,
                c.1 .1,
                c.2 .0 as u32,
                c.2 .1,
            ]
        };
        for d in 1..=6u8 {
            let m = &moves[usize::from(d) - 1];
            // Depths 1-3 side by side, bounds ascending: the entries are written in
            // memory order.
            let mut cur = [(0u8, here.0, here.1); 3];
            // Sources ascending, so that bound `s` puts the move from `s` in front.
            let mut next = m.len;
            for (s, entry) in out[(usize::from(d) - 1) * p * 12..][..p * 12]
                .chunks_exact_mut(12)
                .enumerate()
            {
                if next > 0 && usize::from(m.list[next - 1].0) == s {
                    next -= 1;
                    let x1 = u64::from(m.list[next].2);
                    let (a, g) = src.scored(x1);
                    cur[0] = better((1, a, g), cur[0]);
                    for k in 2..=3 {
                        let (n, b, g) = self.entry(x1, d, k - 1, s);
                        cur[k - 1] = better((1 + n, b, g), cur[k - 1]);
                    }
                }
                for (e, c) in entry.chunks_exact_mut(4).zip(cur) {
                    e.copy_from_slice(&pack(c));
                }
            }
        }
    }

    /// Fetches ahead the entries of `x` for die `d` and bound `bound` (all depths).
    #[inline]
    pub(super) fn prefetch(&self, x: u64, d: u8, bound: usize) {
        let (slot, at) = self.at(x, d, bound);
        // The three depths span 48 bytes: at most two cache lines.
        if let Some(e) = slot.get(at) {
            prefetch(e);
        }
        if let Some(e) = slot.get(at + 11) {
            prefetch(e);
        }
    }
}

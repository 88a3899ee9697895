//! One position of an exact one-sided table, computed as gnubg's `makebearoff -o` does,
//! value for value: the reference for the fast generator ([`super::generate`]) and the
//! recomputation of `verify`.
//!
//! For a position (its successors already known) and each of the 21 rolls, the successor
//! with the strictly smallest score `sum(i * a[i])` of its bear-off array is chosen, the
//! first one in gnubg's move order winning ties; independently the same for the gammon
//! ("first checker off") array.
//! The chosen arrays, shifted by one roll (slot 31 drops off), are summed with weight 1
//! (doubles) or 2 and rounded with gnubg's `(acc + 18) / 36` and first-mode correction.
//! Gammon arrays are computed only while all 15 checkers are on the board; otherwise they
//! are a delta at 0 rolls.

use crate::format::encoding::{round_distribution, ROLLS as SLOTS};
use crate::format::index::PositionIndex;
use crate::movegen::{
    counts_of, for_each_sequence, for_each_single_move, Counts, Ranker, SaveFilter, Saved, ROLLS,
};

/// Where a position's successors' values come from (the table being built, or a file
/// being verified).
pub trait ExactSource: Sync {
    /// Scores (`sum(i * a[i])`) of the bear-off and gammon arrays of position `j`.
    fn scores(&self, j: u64) -> (u32, u32);
    /// The bear-off array of position `j`.
    fn bearoff(&self, j: u64) -> [u16; SLOTS];
    /// The gammon array of position `j`.
    fn gammon(&self, j: u64) -> [u16; SLOTS];
    /// If known: the first best single-checker successors of position `x` with `die`
    /// (by bear-off score, by gammon score), in the order of [`for_each_single_move`].
    fn best_single(&self, _x: u64, _die: u8) -> Option<(Scored, Scored)> {
        None
    }
    /// If known: the outcome of gnubg's doubles search from position `x` with three
    /// more sub-moves of `die`, sources at most `bound` (see [`DoublesWindow`]): the
    /// sub-moves the longest sequences use and their first best successors (bear-off,
    /// gammon).
    ///
    /// [`DoublesWindow`]: super::generate::DoublesWindow
    fn best_double(&self, _x: u64, _die: u8, _bound: usize) -> Option<(u8, Scored, Scored)> {
        None
    }
    /// Position `j` with its bear-off score, and with its gammon score.
    #[inline]
    fn scored(&self, j: u64) -> (Scored, Scored) {
        let (r, g) = self.scores(j);
        ((j, r), (j, g))
    }
}

/// A successor with the score that ranks it.
pub type Scored = (u64, u32);

/// One distribution (32 `u16`) on a 64-byte boundary: one cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Dist(pub [u16; SLOTS]);

impl std::ops::Deref for Dist {
    type Target = [u16; SLOTS];
    fn deref(&self) -> &[u16; SLOTS] {
        &self.0
    }
}

/// One position's two arrays.
pub type ExactRecord = ([u16; SLOTS], [u16; SLOTS]);

/// The all-off position: both arrays a delta at 0 rolls.
pub fn all_off() -> ExactRecord {
    let mut a = [0u16; SLOTS];
    a[0] = 0xFFFF;
    (a, a)
}

/// The first-best choice for one roll, kept under gnubg's `SaveMoves` rule.
pub(super) struct Choice {
    filter: SaveFilter,
    pub(super) best: (u32, u64),
    pub(super) gbest: (u32, u64),
}

impl Choice {
    pub(super) fn new() -> Choice {
        Choice {
            filter: SaveFilter::default(),
            best: (u32::MAX, 0),
            gbest: (u32::MAX, 0),
        }
    }

    /// Offers the successors `j` (bear-off candidate) and `g` (gammon candidate), with
    /// their scores, of a block of sequences that all have `moves` sub-moves and `pips`
    /// pips.
    #[inline]
    pub(super) fn offer(&mut self, moves: u8, pips: u8, j: Scored, g: Scored, want_gammon: bool) {
        match self.filter.offer(moves, pips) {
            Saved::Discard => return,
            Saved::Restart => {
                self.best = (u32::MAX, 0);
                self.gbest = (u32::MAX, 0);
            }
            Saved::Keep => {}
        }
        if j.1 < self.best.0 {
            self.best = (j.1, j.0);
        }
        if want_gammon && g.1 < self.gbest.0 {
            self.gbest = (g.1, g.0);
        }
    }
}

/// The successor of the one legal bear-off with `die` from `board` (rank `index`), if
/// any: from the exact point, or from the highest point when the die is larger.
fn bear_off_successor(ranker: &Ranker, board: &Counts, index: u64, die: u8) -> Option<u64> {
    let top = board.iter().rposition(|&c| c > 0)?;
    bear_off_from(ranker, board, top, index, die)
}

/// [`bear_off_successor`] with the highest occupied point `top` given.
#[inline]
pub(super) fn bear_off_from(ranker: &Ranker, board: &Counts, top: usize, index: u64, die: u8) -> Option<u64> {
    let die = usize::from(die);
    let src = if top > 5 {
        return None;
    } else if top < die - 1 {
        top
    } else if board[die - 1] > 0 {
        die - 1
    } else {
        return None;
    };
    let mut m = 0u8;
    let mut suffix = [0u8; 7];
    for k in (0..=top.min(5)).rev() {
        m += board[k];
        suffix[k] = m;
    }
    Some(index - (0..=src).map(|k| ranker.delta_at(k, suffix[k])).sum::<u64>())
}

/// A non-double roll using the per-position single-move bests: the first pass's leaves
/// after a first move form one block per first move, whose first best is stored; the
/// second pass needs only sequences with a bear-off (see `for_each_sequence`).
fn non_double_with_tables(
    ranker: &Ranker,
    board: &Counts,
    i: u64,
    d0: u8,
    d1: u8,
    src: &impl ExactSource,
    want_gammon: bool,
) -> Option<Choice> {
    let mut choice = Choice::new();
    let mut ok = true;
    let off = src.scored(0);
    for_each_single_move(ranker, board, i, d0, &mut |_, _, i1, _| {
        if i1 == 0 {
            choice.offer(1, d0, off.0, off.1, want_gammon);
        } else if let Some((j, g)) = src.best_single(i1, d1) {
            choice.offer(2, d0 + d1, j, g, want_gammon);
        } else {
            ok = false;
        }
    });
    for_each_single_move(ranker, board, i, d1, &mut |_, dest, i1, b1| {
        if i1 == 0 {
            choice.offer(1, d1, off.0, off.1, want_gammon);
        } else if dest < 0 {
            if let Some((j, g)) = src.best_single(i1, d0) {
                choice.offer(2, d0 + d1, j, g, want_gammon);
            } else {
                ok = false;
            }
        } else if let Some(j) = bear_off_successor(ranker, b1, i1, d0) {
            let (a, g) = src.scored(j);
            choice.offer(2, d0 + d1, a, g, want_gammon);
        }
    });
    ok.then_some(choice)
}

/// A double using the doubles window: each first move opens a block of sequences (the
/// rest of the search from the position after it, sources at most the first move's),
/// whose longest sequences' first best is stored.
fn double_with_tables(
    ranker: &Ranker,
    board: &Counts,
    i: u64,
    d: u8,
    src: &impl ExactSource,
    want_gammon: bool,
) -> Option<Choice> {
    let mut choice = Choice::new();
    let mut ok = true;
    for_each_single_move(ranker, board, i, d, &mut |s, _, i1, _| {
        if let Some((m, j, g)) = src.best_double(i1, d, s) {
            choice.offer(1 + m, (1 + m) * d, j, g, want_gammon);
        } else {
            ok = false;
        }
    });
    ok.then_some(choice)
}

/// Computes position `i` (> 0) from its successors, exactly as gnubg's `BearOff`.
/// With `gammon` false the gammon array is left as the delta at 0.
pub fn compute_exact(
    index: &PositionIndex,
    ranker: &Ranker,
    i: u64,
    gammon: bool,
    src: &impl ExactSource,
) -> ExactRecord {
    if i == 0 {
        return all_off();
    }
    let board = counts_of(index, i).expect("index in range");
    let on_board: u32 = board.iter().map(|&c| u32::from(c)).sum();
    let want_gammon = gammon && on_board == 15;
    let mut acc = [0u32; SLOTS];
    let mut gacc = [0u32; SLOTS];
    if !want_gammon {
        gacc[0] = 0xFFFF * 36;
    }
    for &(d0, d1, w) in &ROLLS {
        let tabled = if d0 != d1 {
            non_double_with_tables(ranker, &board, i, d0, d1, src, want_gammon)
        } else {
            double_with_tables(ranker, &board, i, d0, src, want_gammon)
        };
        let choice = tabled.unwrap_or_else(|| {
            let mut c = Choice::new();
            for_each_sequence(ranker, &board, i, d0, d1, true, &mut |m, p, j| {
                let (a, g) = src.scored(j);
                c.offer(m, p, a, g, want_gammon);
            });
            c
        });
        let (best, gbest) = (choice.best, choice.gbest);
        let a = src.bearoff(best.1);
        for t in 0..SLOTS - 1 {
            acc[t + 1] += w * u32::from(a[t]);
        }
        if want_gammon {
            let g = src.gammon(gbest.1);
            for t in 0..SLOTS - 1 {
                gacc[t + 1] += w * u32::from(g[t]);
            }
        }
    }
    (round_distribution(&acc), round_distribution(&gacc))
}

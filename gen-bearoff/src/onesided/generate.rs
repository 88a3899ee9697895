//! One-sided generation, reproducing gnubg's `makebearoff -o` value for value.
//!
//! For every position (in increasing pip order, a level at a time, in parallel) and each
//! of the 21 rolls, the successor with the strictly smallest score
//! `sum(i * a[i])` of its bear-off array is chosen, the first one in gnubg's move order
//! winning ties; independently the same for the gammon ("first checker off") array.
//! The chosen arrays, shifted by one roll (slot 31 drops off), are summed with weight 1
//! (doubles) or 2 and rounded with gnubg's `(acc + 18) / 36` and first-mode correction.
//! Gammon arrays are computed only while all 15 checkers are on the board; otherwise they
//! are a delta at 0 rolls.

use rayon::prelude::*;

use crate::encoding::{rolls_score, round_distribution, ROLLS as SLOTS};
use crate::format::index::PositionIndex;
use crate::levels::PipLevels;
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
    fn best_single(&self, _x: u64, _die: u8) -> Option<(u64, u64)> {
        None
    }
}

/// First best single-checker successors of position `x` for each die (see
/// [`ExactSource::best_single`]): `(bear-off best, gammon best)` indices.
pub fn best_single_moves(
    ranker: &Ranker,
    index: &PositionIndex,
    x: u64,
    src: &impl ExactSource,
) -> [(u32, u32); 6] {
    let mut out = [(0u32, 0u32); 6];
    if x == 0 {
        return out;
    }
    let board = counts_of(index, x).expect("index in range");
    for (d, slot) in out.iter_mut().enumerate() {
        let mut best = (u32::MAX, 0u64);
        let mut gbest = (u32::MAX, 0u64);
        for_each_single_move(ranker, &board, x, d as u8 + 1, &mut |_, _, j, _| {
            let (r, rg) = src.scores(j);
            if r < best.0 {
                best = (r, j);
            }
            if rg < gbest.0 {
                gbest = (rg, j);
            }
        });
        *slot = (best.1 as u32, gbest.1 as u32);
    }
    out
}

/// The first-best choice for one roll, kept under gnubg's `SaveMoves` rule.
struct Choice {
    filter: SaveFilter,
    best: (u32, u64),
    gbest: (u32, u64),
}

impl Choice {
    fn new() -> Choice {
        Choice {
            filter: SaveFilter::default(),
            best: (u32::MAX, 0),
            gbest: (u32::MAX, 0),
        }
    }

    /// Offers the successors `j` (bear-off candidate) and `g` (gammon candidate) of a
    /// block of sequences that all have `moves` sub-moves and `pips` pips.
    #[inline]
    fn offer(&mut self, moves: u8, pips: u8, j: u64, g: u64, src: &impl ExactSource, want_gammon: bool) {
        match self.filter.offer(moves, pips) {
            Saved::Discard => return,
            Saved::Restart => {
                self.best = (u32::MAX, 0);
                self.gbest = (u32::MAX, 0);
            }
            Saved::Keep => {}
        }
        let r = src.scores(j).0;
        if r < self.best.0 {
            self.best = (r, j);
        }
        if want_gammon {
            let rg = src.scores(g).1;
            if rg < self.gbest.0 {
                self.gbest = (rg, g);
            }
        }
    }
}

/// The successor of the one legal bear-off with `die` from `board` (rank `index`), if
/// any: from the exact point, or from the highest point when the die is larger.
fn bear_off_successor(ranker: &Ranker, board: &Counts, index: u64, die: u8) -> Option<u64> {
    let top = board.iter().rposition(|&c| c > 0)?;
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
    for_each_single_move(ranker, board, i, d0, &mut |_, _, i1, _| {
        if i1 == 0 {
            choice.offer(1, d0, 0, 0, src, want_gammon);
        } else if let Some((j, g)) = src.best_single(i1, d1) {
            choice.offer(2, d0 + d1, j, g, src, want_gammon);
        } else {
            ok = false;
        }
    });
    for_each_single_move(ranker, board, i, d1, &mut |_, dest, i1, b1| {
        if i1 == 0 {
            choice.offer(1, d1, 0, 0, src, want_gammon);
        } else if dest < 0 {
            if let Some((j, g)) = src.best_single(i1, d0) {
                choice.offer(2, d0 + d1, j, g, src, want_gammon);
            } else {
                ok = false;
            }
        } else if let Some(j) = bear_off_successor(ranker, b1, i1, d0) {
            choice.offer(2, d0 + d1, j, j, src, want_gammon);
        }
    });
    ok.then_some(choice)
}

/// One position's two arrays.
pub type ExactRecord = ([u16; SLOTS], [u16; SLOTS]);

/// The all-off position: both arrays a delta at 0 rolls.
pub fn all_off() -> ExactRecord {
    let mut a = [0u16; SLOTS];
    a[0] = 0xFFFF;
    (a, a)
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
            None
        };
        let choice = tabled.unwrap_or_else(|| {
            let mut c = Choice::new();
            for_each_sequence(ranker, &board, i, d0, d1, true, &mut |m, p, j| {
                c.offer(m, p, j, j, src, want_gammon);
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

/// A complete exact one-sided table in memory, in index order.
#[derive(Clone, Debug)]
pub struct ExactTable {
    /// The ranking.
    pub index: PositionIndex,
    /// Whether gammon arrays were computed.
    pub gammon: bool,
    /// Bear-off arrays, 32 values per position.
    pub bearoff: Vec<[u16; SLOTS]>,
    /// Gammon arrays (empty when `gammon` is false).
    pub gammons: Vec<[u16; SLOTS]>,
}

struct TableSource<'a> {
    bearoff: &'a [[u16; SLOTS]],
    gammons: &'a [[u16; SLOTS]],
    scores: &'a [(u32, u32)],
    singles: &'a [[(u32, u32); 6]],
}

impl ExactSource for TableSource<'_> {
    #[inline]
    fn scores(&self, j: u64) -> (u32, u32) {
        self.scores[j as usize]
    }
    fn bearoff(&self, j: u64) -> [u16; SLOTS] {
        self.bearoff[j as usize]
    }
    fn gammon(&self, j: u64) -> [u16; SLOTS] {
        self.gammons[j as usize]
    }
    #[inline]
    fn best_single(&self, x: u64, die: u8) -> Option<(u64, u64)> {
        let (a, b) = self.singles[x as usize][usize::from(die - 1)];
        Some((u64::from(a), u64::from(b)))
    }
}

/// Bytes of memory per position used by [`generate_exact`] (arrays, scores, levels).
pub fn exact_bytes_per_position(gammon: bool) -> u64 {
    64 * (1 + u64::from(gammon)) + 8 + 48 + crate::levels::BYTES_PER_POSITION
}

/// Generates the exact one-sided table for `points` × `checkers`. `progress` is called
/// with the number of positions finished so far.
pub fn generate_exact(index: &PositionIndex, gammon: bool, progress: &(dyn Fn(u64) + Sync)) -> ExactTable {
    let n = index.count() as usize;
    let levels = PipLevels::new(index);
    let ranker = Ranker::new(index);
    let mut bearoff = vec![[0u16; SLOTS]; n];
    let mut gammons = vec![[0u16; SLOTS]; if gammon { n } else { 0 }];
    let mut scores = vec![(0u32, 0u32); n];
    let mut singles = vec![[(0u32, 0u32); 6]; n];
    let (a0, g0) = all_off();
    bearoff[0] = a0;
    if gammon {
        gammons[0] = g0;
    }
    let mut done = 1u64;
    progress(done);
    for p in 1..=levels.max_pip() {
        let level = levels.level(p);
        let results: Vec<ExactRecord> = {
            let src = TableSource {
                bearoff: &bearoff,
                gammons: &gammons,
                scores: &scores,
                singles: &singles,
            };
            level
                .par_iter()
                .with_min_len(16)
                .map(|&i| compute_exact(index, &ranker, u64::from(i), gammon, &src))
                .collect()
        };
        for (&i, (a, g)) in level.iter().zip(results) {
            let i = i as usize;
            scores[i] = (rolls_score(&a), if gammon { rolls_score(&g) } else { 0 });
            bearoff[i] = a;
            if gammon {
                gammons[i] = g;
            }
        }
        let level_singles: Vec<[(u32, u32); 6]> = {
            let src = TableSource {
                bearoff: &bearoff,
                gammons: &gammons,
                scores: &scores,
                singles: &singles,
            };
            level
                .par_iter()
                .with_min_len(64)
                .map(|&x| best_single_moves(&ranker, index, u64::from(x), &src))
                .collect()
        };
        for (&x, m) in level.iter().zip(level_singles) {
            singles[x as usize] = m;
        }
        done += level.len() as u64;
        progress(done);
    }
    ExactTable {
        index: *index,
        gammon,
        bearoff,
        gammons,
    }
}

/// The normal-distribution approximation: mean and standard deviation of the rolls to
/// bear off, then of the rolls to bear off the first checker, in `f32` (gnubg's
/// `NDBearoff`, same operations in the same order as Debian's gnubg 1.07 binary, which
/// multiplies by `1/36` where the source divides by 36).
pub type NormalRecord = [f32; 4];

/// Computes position `i` of the normal-distribution table from its successors.
pub fn compute_normal(
    index: &PositionIndex,
    ranker: &Ranker,
    i: u64,
    src: &(impl Fn(u64) -> NormalRecord + Sync),
) -> NormalRecord {
    if i == 0 {
        return [0.0; 4];
    }
    let board = counts_of(index, i).expect("index in range");
    let on_board: u32 = board.iter().map(|&c| u32::from(c)).sum();
    let mut ar = [0.0f32; 4];
    let mut var_sum = 0.0f32;
    let mut gvar_sum = 0.0f32;
    for &(d0, d1, _) in &ROLLS {
        let mut filter = SaveFilter::default();
        let mut best = (1e10f32, [0.0f32; 4]);
        let mut gbest = (1e10f32, [0.0f32; 4]);
        for_each_sequence(ranker, &board, i, d0, d1, true, &mut |m, p, j| {
            match filter.offer(m, p) {
                Saved::Discard => return,
                Saved::Restart => {
                    best = (1e10, [0.0; 4]);
                    gbest = (1e10, [0.0; 4]);
                }
                Saved::Keep => {}
            }
            let prj = src(j);
            if prj[0] < best.0 {
                best = (prj[0], prj);
            }
            if prj[2] < gbest.0 {
                gbest = (prj[2], prj);
            }
        });
        let double = d0 == d1;
        let weigh = |x: f32| if double { x } else { 2.0f32 * x };
        let mean = 1.0f32 + best.1[0];
        ar[0] += weigh(mean);
        let sq = best.1[1] * best.1[1] + mean * mean;
        var_sum += weigh(sq);
        if on_board == 15 {
            let mean = 1.0f32 + gbest.1[2];
            ar[2] += weigh(mean);
            let sq = gbest.1[3] * gbest.1[3] + mean * mean;
            gvar_sum += weigh(sq);
        }
    }
    // gnubg 1.07 is built with fast-math: its divisions by 36 are multiplications by the
    // f32 reciprocal, which rounds differently in the last bit.
    const RECIP_36: f32 = 1.0f32 / 36.0f32;
    ar[0] *= RECIP_36;
    ar[1] = (var_sum * RECIP_36 - ar[0] * ar[0]).sqrt();
    ar[2] *= RECIP_36;
    ar[3] = (gvar_sum * RECIP_36 - ar[2] * ar[2]).sqrt();
    ar
}

/// A complete normal-distribution table in index order.
#[derive(Clone, Debug)]
pub struct NormalTable {
    /// The ranking.
    pub index: PositionIndex,
    /// `[mean, sd, gammon mean, gammon sd]` per position.
    pub records: Vec<NormalRecord>,
}

/// Generates the normal-distribution table.
pub fn generate_normal(index: &PositionIndex, progress: &(dyn Fn(u64) + Sync)) -> NormalTable {
    let n = index.count() as usize;
    let levels = PipLevels::new(index);
    let ranker = Ranker::new(index);
    let mut records = vec![[0.0f32; 4]; n];
    let mut done = 1u64;
    progress(done);
    for p in 1..=levels.max_pip() {
        let level = levels.level(p);
        let results: Vec<NormalRecord> = {
            let table = &records;
            let src = |j: u64| table[j as usize];
            level
                .par_iter()
                .with_min_len(16)
                .map(|&i| compute_normal(index, &ranker, u64::from(i), &src))
                .collect()
        };
        for (&i, r) in level.iter().zip(results) {
            records[i as usize] = r;
        }
        done += level.len() as u64;
        progress(done);
    }
    NormalTable {
        index: *index,
        records,
    }
}

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
    counts_of, for_each_sequence, for_each_single_move, Counts, Ranker, SaveFilter, Saved, MAX_POINTS, ROLLS,
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

/// Per position and die: the first best single-checker successors and their scores,
/// `[bear-off best, its bear-off score, gammon best, its gammon score]`.
pub type SingleBests = [[u32; 4]; 6];

/// First best single-checker successors of position `x` for each die (see
/// [`ExactSource::best_single`]), with their scores.
pub fn best_single_moves(
    ranker: &Ranker,
    index: &PositionIndex,
    x: u64,
    src: &impl ExactSource,
) -> SingleBests {
    let mut out = [[0u32; 4]; 6];
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
        *slot = [best.1 as u32, best.0, gbest.1 as u32, gbest.0];
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

    /// Offers the successors `j` (bear-off candidate) and `g` (gammon candidate), with
    /// their scores, of a block of sequences that all have `moves` sub-moves and `pips`
    /// pips.
    #[inline]
    fn offer(&mut self, moves: u8, pips: u8, j: Scored, g: Scored, want_gammon: bool) {
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
fn bear_off_from(ranker: &Ranker, board: &Counts, top: usize, index: u64, die: u8) -> Option<u64> {
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
    stride: usize,
    slots: [Vec<u32>; WINDOW],
    /// Per position: its rank within its pip level, and its level modulo [`WINDOW`] in
    /// the top 3 bits (one load finds an entry).
    loc: Vec<u32>,
}

const WINDOW: usize = 7;

impl DoublesWindow {
    /// `u32` values per position: 6 dice × `points` bounds × 3 depths × 4 (bear-off
    /// best with the sequence length in its top bits, its score, gammon best, its
    /// score); the three depths of one die and bound share a cache line.
    pub fn stride(points: usize) -> usize {
        6 * 3 * points * 4
    }

    /// Bytes the window needs for `levels`.
    pub fn bytes(levels: &PipLevels, points: usize) -> u64 {
        let mut sizes: Vec<usize> = (0..=levels.max_pip()).map(|p| levels.len_of(p)).collect();
        sizes.sort_unstable();
        let largest: usize = sizes.iter().rev().take(WINDOW).sum();
        (largest * Self::stride(points) * 4) as u64
    }

    fn new(points: usize, levels: &PipLevels) -> DoublesWindow {
        let loc = levels
            .pip
            .iter()
            .zip(&levels.rank)
            .map(|(&p, &r)| r | ((usize::from(p) % WINDOW) as u32) << 29)
            .collect();
        DoublesWindow {
            points,
            stride: Self::stride(points),
            slots: Default::default(),
            loc,
        }
    }

    /// Where position `x`'s entries for die `d` and bound `bound` start.
    #[inline(always)]
    fn at(&self, x: u64, d: u8, bound: usize) -> (&[u32], usize) {
        let loc = self.loc[x as usize];
        let slot = &self.slots[(loc >> 29) as usize];
        let at = (loc & 0x1FFF_FFFF) as usize * self.stride
            + ((usize::from(d) - 1) * self.points + bound.min(self.points - 1)) * 12;
        (slot, at)
    }

    #[inline]
    fn entry(&self, x: u64, d: u8, k: usize, bound: usize) -> (u8, Scored, Scored) {
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
    fn compute(
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
        for d in 1..=6u8 {
            let m = &moves[usize::from(d) - 1];
            for k in 1..=3usize {
                let base = (usize::from(d) - 1) * p * 12 + (k - 1) * 4;
                let mut cur = (0u8, here.0, here.1);
                // Sources ascending, so that bound `s` puts the move from `s` in front.
                let mut next = m.len;
                for s in 0..p {
                    if next > 0 && usize::from(m.list[next - 1].0) == s {
                        next -= 1;
                        let x1 = m.list[next].2;
                        let c = if k == 1 {
                            let (a, g) = src.scored(x1);
                            (1, a, g)
                        } else {
                            let (n, b, g) = self.entry(x1, d, k - 1, s);
                            (1 + n, b, g)
                        };
                        cur = better(c, cur);
                    }
                    out[base + 12 * s..base + 12 * s + 4].copy_from_slice(&[
                        cur.1 .0 as u32 | u32::from(cur.0) << 30,
                        cur.1 .1,
                        cur.2 .0 as u32,
                        cur.2 .1,
                    ]);
                }
            }
        }
    }

    /// Fetches ahead the entries of `x` for die `d` and bound `bound` (all depths).
    #[inline]
    fn prefetch(&self, x: u64, d: u8, bound: usize) {
        let (slot, at) = self.at(x, d, bound);
        // The three depths span 48 bytes: at most two cache lines.
        if let Some(e) = slot.get(at) {
            crate::hyper::kernel::prefetch(e);
        }
        if let Some(e) = slot.get(at + 11) {
            crate::hyper::kernel::prefetch(e);
        }
    }
}

/// The single-checker moves of a position with one die: `(source, destination,
/// successor)`, sources descending (destination below 0: borne off).
#[derive(Clone, Copy, Debug)]
pub struct SingleMoves {
    list: [(u8, i8, u64); MAX_POINTS],
    len: usize,
}

impl SingleMoves {
    fn of(ranker: &Ranker, board: &Counts, x: u64, d: u8) -> SingleMoves {
        let mut m = SingleMoves {
            list: [(0, 0, 0); MAX_POINTS],
            len: 0,
        };
        for_each_single_move(ranker, board, x, d, &mut |s, dest, j, _| {
            m.list[m.len] = (s as u8, dest as i8, j);
            m.len += 1;
        });
        m
    }

    fn iter(&self) -> impl Iterator<Item = &(u8, i8, u64)> {
        self.list[..self.len].iter()
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

/// A position being computed: its board and single-checker moves (stage 1 of
/// [`compute_batch`]).
struct Prepared {
    i: u64,
    board: Counts,
    occupied: u32,
    want_gammon: bool,
    moves: [SingleMoves; 6],
}

/// Stage 1: the position's single-checker moves; fetches ahead what its rolls read.
fn prepare(index: &PositionIndex, ranker: &Ranker, i: u64, gammon: bool, src: &TableSource) -> Prepared {
    let board = counts_of(index, i).expect("index in range");
    let on_board: u32 = board.iter().map(|&c| u32::from(c)).sum();
    let moves: [SingleMoves; 6] = std::array::from_fn(|d| SingleMoves::of(ranker, &board, i, d as u8 + 1));
    for (d, m) in moves.iter().enumerate() {
        for &(s1, _, x1) in m.iter() {
            let row = &src.singles[x1 as usize];
            crate::hyper::kernel::prefetch(&row[0]);
            crate::hyper::kernel::prefetch(&row[5]);
            if let Some(w) = src.doubles {
                w.prefetch(x1, d as u8 + 1, usize::from(s1));
            }
        }
    }
    Prepared {
        i,
        board,
        occupied: board
            .iter()
            .enumerate()
            .fold(0u32, |m, (k, &c)| if c > 0 { m | 1 << k } else { m }),
        want_gammon: gammon && on_board == 15,
        moves,
    }
}

/// Stage 2: the chosen successors (bear-off, gammon) of every roll; fetches ahead their
/// arrays.
fn choose(ranker: &Ranker, p: &Prepared, src: &TableSource) -> [(u64, u64); 21] {
    let (board, moves, want_gammon) = (&p.board, &p.moves, p.want_gammon);
    let off = src.scored(0);
    let single = |x: u64, d: u8| {
        let e = src.singles[x as usize][usize::from(d) - 1];
        ((u64::from(e[0]), e[1]), (u64::from(e[2]), e[3]))
    };
    let mut chosen = [(0u64, 0u64); 21];
    for (r, &(d0, d1, _)) in ROLLS.iter().enumerate() {
        let mut choice = Choice::new();
        if d0 != d1 {
            for &(_, _, i1) in moves[usize::from(d0) - 1].iter() {
                if i1 == 0 {
                    choice.offer(1, d0, off.0, off.1, want_gammon);
                } else {
                    let (j, g) = single(i1, d1);
                    choice.offer(2, d0 + d1, j, g, want_gammon);
                }
            }
            for &(s1, dest, i1) in moves[usize::from(d1) - 1].iter() {
                if i1 == 0 {
                    choice.offer(1, d1, off.0, off.1, want_gammon);
                } else if dest < 0 {
                    let (j, g) = single(i1, d0);
                    choice.offer(2, d0 + d1, j, g, want_gammon);
                } else {
                    // The die d0 then bears off only if every checker is home.
                    let s1 = usize::from(s1);
                    let mut occ = p.occupied | 1 << dest;
                    if board[s1] == 1 {
                        occ &= !(1 << s1);
                    }
                    let top = 31 - occ.leading_zeros() as usize;
                    if top > 5 {
                        continue;
                    }
                    let mut b1 = *board;
                    b1[s1] -= 1;
                    b1[dest as usize] += 1;
                    if let Some(j) = bear_off_from(ranker, &b1, top, i1, d0) {
                        let (a, g) = src.scored(j);
                        choice.offer(2, d0 + d1, a, g, want_gammon);
                    }
                }
            }
        } else if let Some(win) = src.doubles {
            for &(s1, _, i1) in moves[usize::from(d0) - 1].iter() {
                let (m, j, g) = win.entry(i1, d0, 3, usize::from(s1));
                choice.offer(1 + m, (1 + m) * d0, j, g, want_gammon);
            }
        } else {
            for_each_sequence(ranker, board, p.i, d0, d1, true, &mut |m, pips, j| {
                let (a, g) = src.scored(j);
                choice.offer(m, pips, a, g, want_gammon);
            });
        }
        chosen[r] = (choice.best.1, choice.gbest.1);
        crate::hyper::kernel::prefetch(&src.bearoff[choice.best.1 as usize]);
        if want_gammon {
            crate::hyper::kernel::prefetch(&src.gammons[choice.gbest.1 as usize]);
        }
    }
    chosen
}

/// Stage 3: the arrays, the best single moves and (with a window) the window entries.
fn finish(
    p: &Prepared,
    chosen: &[(u64, u64); 21],
    gammon: bool,
    src: &TableSource,
    window_out: Option<&mut [u32]>,
) -> (ExactRecord, SingleBests) {
    let mut acc = [0u32; SLOTS];
    let mut gacc = [0u32; SLOTS];
    if !p.want_gammon {
        gacc[0] = 0xFFFF * 36;
    }
    for (&(best, gbest), &(_, _, w)) in chosen.iter().zip(&ROLLS) {
        let a = &src.bearoff[best as usize];
        for t in 0..SLOTS - 1 {
            acc[t + 1] += w * u32::from(a[t]);
        }
        if p.want_gammon {
            let g = &src.gammons[gbest as usize];
            for t in 0..SLOTS - 1 {
                gacc[t + 1] += w * u32::from(g[t]);
            }
        }
    }
    let record = (round_distribution(&acc), round_distribution(&gacc));
    // Best single moves, by bear-off and by gammon score, first best in move order.
    let mut singles = [[0u32; 4]; 6];
    for (slot, m) in singles.iter_mut().zip(&p.moves) {
        let mut best = (u32::MAX, 0u64);
        let mut gbest = (u32::MAX, 0u64);
        for &(_, _, j) in m.iter() {
            let (r, rg) = src.scores[j as usize];
            if r < best.0 {
                best = (r, j);
            }
            if rg < gbest.0 {
                gbest = (rg, j);
            }
        }
        *slot = [best.1 as u32, best.0, gbest.1 as u32, gbest.0];
    }
    if let (Some(out), Some(win)) = (window_out, src.doubles) {
        let here_a = rolls_score(&record.0);
        let here_g = if gammon { rolls_score(&record.1) } else { 0 };
        win.compute(((p.i, here_a), (p.i, here_g)), &p.moves, src, out);
    }
    (record, singles)
}

/// Positions computed together, stage by stage, so that what one stage fetches ahead has
/// arrived when the next needs it.
const BATCH: usize = 8;

/// What generation computes for a batch of positions: their arrays, best single moves
/// and (with a doubles window) window entries, each from one enumeration of the
/// position's single-checker moves. Same arrays as [`compute_exact`] (tested; the MD5
/// tests cover it too).
fn compute_batch(
    index: &PositionIndex,
    ranker: &Ranker,
    batch: &[u32],
    gammon: bool,
    src: &TableSource,
    window_out: Option<&mut [u32]>,
) -> Vec<(ExactRecord, SingleBests)> {
    let prepared: Vec<Prepared> = batch
        .iter()
        .map(|&i| prepare(index, ranker, u64::from(i), gammon, src))
        .collect();
    let chosen: Vec<[(u64, u64); 21]> = prepared.iter().map(|p| choose(ranker, p, src)).collect();
    match window_out {
        Some(out) => {
            let stride = out.len() / batch.len();
            prepared
                .iter()
                .zip(&chosen)
                .zip(out.chunks_mut(stride))
                .map(|((p, c), o)| finish(p, c, gammon, src, Some(o)))
                .collect()
        }
        None => prepared
            .iter()
            .zip(&chosen)
            .map(|(p, c)| finish(p, c, gammon, src, None))
            .collect(),
    }
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
    singles: &'a [SingleBests],
    doubles: Option<&'a DoublesWindow>,
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
    fn best_single(&self, x: u64, die: u8) -> Option<(Scored, Scored)> {
        let e = self.singles[x as usize][usize::from(die - 1)];
        Some(((u64::from(e[0]), e[1]), (u64::from(e[2]), e[3])))
    }
    #[inline]
    fn best_double(&self, x: u64, die: u8, bound: usize) -> Option<(u8, Scored, Scored)> {
        self.doubles.map(|w| w.entry(x, die, 3, bound))
    }
}

/// Bytes of memory per position used by [`generate_exact`] (arrays, scores, best single
/// moves, levels), without the doubles window ([`DoublesWindow::bytes`]).
pub fn exact_bytes_per_position(gammon: bool) -> u64 {
    64 * (1 + u64::from(gammon)) + 8 + 96 + crate::levels::BYTES_PER_POSITION
}

/// Generates the exact one-sided table for `points` × `checkers`. `progress` is called
/// with the number of positions finished so far. The doubles window (see
/// [`DoublesWindow`]) is used if it fits in `window_budget` bytes; without it doubles
/// are searched move by move (same result, slower).
pub fn generate_exact(
    index: &PositionIndex,
    gammon: bool,
    window_budget: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> ExactTable {
    let n = index.count() as usize;
    let levels = PipLevels::new(index);
    let ranker = Ranker::new(index);
    let mut bearoff = vec![[0u16; SLOTS]; n];
    let mut gammons = vec![[0u16; SLOTS]; if gammon { n } else { 0 }];
    let mut scores = vec![(0u32, 0u32); n];
    let mut singles: Vec<SingleBests> = vec![[[0u32; 4]; 6]; n];
    let points = index.points();
    let mut window = (n < 1 << 30 && DoublesWindow::bytes(&levels, points) <= window_budget)
        .then(|| DoublesWindow::new(points, &levels));
    let (a0, g0) = all_off();
    bearoff[0] = a0;
    if gammon {
        gammons[0] = g0;
    }
    if let Some(w) = window.as_mut() {
        w.slots[0] = vec![0; w.stride];
    }
    let mut done = 1u64;
    progress(done);
    for p in 1..=levels.max_pip() {
        let level = levels.level(p);
        let mut slot = window
            .as_mut()
            .map(|w| {
                let mut v = std::mem::take(&mut w.slots[p % WINDOW]);
                v.resize(level.len() * w.stride, 0);
                v
            })
            .unwrap_or_default();
        let stride = window.as_ref().map_or(1, |w| w.stride);
        let results: Vec<(ExactRecord, SingleBests)> = {
            let src = TableSource {
                bearoff: &bearoff,
                gammons: &gammons,
                scores: &scores,
                singles: &singles,
                doubles: window.as_ref(),
            };
            let compute = |batch: &[u32], out: Option<&mut [u32]>| {
                compute_batch(index, &ranker, batch, gammon, &src, out)
            };
            if slot.is_empty() {
                level
                    .par_chunks(BATCH)
                    .with_min_len(2)
                    .flat_map_iter(|b| compute(b, None))
                    .collect()
            } else {
                level
                    .par_chunks(BATCH)
                    .zip(slot.par_chunks_mut(BATCH * stride))
                    .with_min_len(2)
                    .flat_map_iter(|(b, out)| compute(b, Some(out)))
                    .collect()
            }
        };
        if let Some(w) = window.as_mut() {
            w.slots[p % WINDOW] = slot;
        }
        for (&i, ((a, g), m)) in level.iter().zip(results) {
            let i = i as usize;
            scores[i] = (rolls_score(&a), if gammon { rolls_score(&g) } else { 0 });
            bearoff[i] = a;
            if gammon {
                gammons[i] = g;
            }
            singles[i] = m;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass generator with the doubles window gives the same tables as without
    /// it (doubles searched move by move), and as the reference computation of each
    /// record from the finished table.
    #[test]
    fn doubles_window_changes_nothing() {
        for (points, checkers) in [(6, 15), (8, 6), (4, 15)] {
            let index = PositionIndex::new(points, checkers).unwrap();
            let fast = generate_exact(&index, true, u64::MAX, &|_| {});
            let plain = generate_exact(&index, true, 0, &|_| {});
            assert!(fast.bearoff == plain.bearoff, "{points}x{checkers}");
            assert!(fast.gammons == plain.gammons, "{points}x{checkers}");
            struct Finished<'a>(&'a ExactTable);
            impl ExactSource for Finished<'_> {
                fn scores(&self, j: u64) -> (u32, u32) {
                    (
                        rolls_score(&self.0.bearoff[j as usize]),
                        rolls_score(&self.0.gammons[j as usize]),
                    )
                }
                fn bearoff(&self, j: u64) -> [u16; SLOTS] {
                    self.0.bearoff[j as usize]
                }
                fn gammon(&self, j: u64) -> [u16; SLOTS] {
                    self.0.gammons[j as usize]
                }
            }
            let ranker = Ranker::new(&index);
            for i in (0..index.count()).step_by(7) {
                let (a, g) = compute_exact(&index, &ranker, i, true, &Finished(&fast));
                assert_eq!(a, fast.bearoff[i as usize], "{points}x{checkers} position {i}");
                assert_eq!(g, fast.gammons[i as usize], "{points}x{checkers} position {i}");
            }
        }
    }
}

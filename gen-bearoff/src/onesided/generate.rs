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

use crate::format::encoding::{rolls_score, round_distribution, ROLLS as SLOTS};
use crate::format::index::PositionIndex;
use crate::levels::PipLevels;
use crate::movegen::{
    counts_of, for_each_sequence, for_each_single_move, Counts, Ranker, SaveFilter, Saved, MAX_POINTS, ROLLS,
};
use crate::prefetch::prefetch;

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

/// [`SingleBests`] on a 32-byte boundary: one position's 96 bytes lie in two cache lines.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct AlignedBests(SingleBests);

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
    slots: [Option<Slot>; WINDOW],
    /// Per position: its rank within its pip level, and its level modulo [`WINDOW`] in
    /// the top 3 bits (one load finds an entry).
    loc: Vec<u32>,
}

const WINDOW: usize = 7;

/// One level's entries: zeroed anonymous memory sized for the largest level it will
/// hold, its pages mapped in one call (cheaper than a page fault per page). Level 0's
/// entries (the all-off position: no moves) are these zeros.
#[derive(Debug)]
struct Slot(memmap2::MmapMut);

impl Slot {
    fn new(values: usize) -> Option<Slot> {
        memmap2::MmapOptions::new()
            .len((values * 4).max(4))
            .populate()
            .map_anon()
            .ok()
            .map(Slot)
    }
    fn values(&self) -> &[u32] {
        bytemuck::cast_slice(&self.0)
    }
    fn values_mut(&mut self) -> &mut [u32] {
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
    fn new(points: usize, levels: &PipLevels) -> Option<DoublesWindow> {
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
    fn prefetch(&self, x: u64, d: u8, bound: usize) {
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

/// Most points a side can occupy: one checker each for at most 15 checkers.
const MAX_OCCUPIED: usize = 15;

/// The single-checker moves of a position with one die: `(source, destination,
/// successor)`, sources descending (destination below 0: borne off).
#[derive(Clone, Copy, Debug)]
pub struct SingleMoves {
    list: [(u8, i8, u32); MAX_OCCUPIED],
    len: usize,
}

impl SingleMoves {
    const EMPTY: SingleMoves = SingleMoves {
        list: [(0, 0, 0); MAX_OCCUPIED],
        len: 0,
    };

    /// The moves of all six dice from `board` (rank `x`, at most `u32::MAX`), each in
    /// the order of [`for_each_single_move`], from one pass over the board: a move from
    /// `src` to `dest` lowers the rank by the sum of the slot deltas from `dest + 1` to
    /// `src`, a difference of two prefix sums.
    fn all(ranker: &Ranker, board: &Counts, x: u64) -> [SingleMoves; 6] {
        let mut out = [SingleMoves::EMPTY; 6];
        let Some(top) = board.iter().rposition(|&c| c > 0) else {
            return out;
        };
        let mut prefix = [0u64; MAX_POINTS + 1];
        let mut above = 0u8;
        for k in (0..=top).rev() {
            above += board[k];
            prefix[k + 1] = ranker.delta_at(k, above);
        }
        for k in 0..=top {
            prefix[k + 1] += prefix[k];
        }
        for src in (0..=top).rev() {
            if board[src] == 0 {
                continue;
            }
            for (d, m) in out.iter_mut().enumerate() {
                let dest = src as isize - d as isize - 1;
                if !(dest >= 0 || (top <= 5 && (src == top || dest == -1))) {
                    continue;
                }
                let lo = (dest.max(-1) + 1) as usize;
                let j = x - (prefix[src + 1] - prefix[lo]);
                m.list[m.len] = (src as u8, dest as i8, j as u32);
                m.len += 1;
            }
        }
        out
    }

    fn iter(&self) -> impl Iterator<Item = (u8, i8, u64)> + '_ {
        self.list[..self.len]
            .iter()
            .map(|&(s, d, j)| (s, d, u64::from(j)))
    }
}

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
    let moves = SingleMoves::all(ranker, &board, i);
    for m in &moves {
        for (_, _, x1) in m.iter() {
            let row = &src.singles[x1 as usize].0;
            // 96 bytes at 32-byte alignment: two cache lines.
            prefetch(&row[0]);
            prefetch(&row[5]);
            prefetch(&src.scores[x1 as usize]);
            if let Some(w) = src.doubles {
                prefetch(&w.loc[x1 as usize]);
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

/// Stage 1b (with a doubles window): fetches ahead the window entries the position's
/// rolls read, once stage 1 has fetched where they are.
fn prefetch_window(p: &Prepared, w: &DoublesWindow) {
    for (d, m) in p.moves.iter().enumerate() {
        for (s1, _, x1) in m.iter() {
            w.prefetch(x1, d as u8 + 1, usize::from(s1));
        }
    }
}

/// Stage 2: the chosen successors (bear-off, gammon) of every roll; fetches ahead their
/// arrays.
fn choose(ranker: &Ranker, p: &Prepared, src: &TableSource) -> [(u64, u64); 21] {
    let (board, moves, want_gammon) = (&p.board, &p.moves, p.want_gammon);
    let off = src.scored(0);
    let single = |x: u64, d: u8| {
        let e = src.singles[x as usize].0[usize::from(d) - 1];
        ((u64::from(e[0]), e[1]), (u64::from(e[2]), e[3]))
    };
    let mut chosen = [(0u64, 0u64); 21];
    for (r, &(d0, d1, _)) in ROLLS.iter().enumerate() {
        let mut choice = Choice::new();
        if d0 != d1 {
            for (_, _, i1) in moves[usize::from(d0) - 1].iter() {
                if i1 == 0 {
                    choice.offer(1, d0, off.0, off.1, want_gammon);
                } else {
                    let (j, g) = single(i1, d1);
                    choice.offer(2, d0 + d1, j, g, want_gammon);
                }
            }
            for (s1, dest, i1) in moves[usize::from(d1) - 1].iter() {
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
            for (s1, _, i1) in moves[usize::from(d0) - 1].iter() {
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
        prefetch(&src.bearoff[choice.best.1 as usize]);
        if want_gammon {
            prefetch(&src.gammons[choice.gbest.1 as usize]);
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
    // Weight 2 or 1: a shift by 1 or 0 (one uniform vector shift, no multiplication).
    let add = |acc: &mut [u32; SLOTS], a: &Dist, shift: u32| {
        for t in 0..SLOTS - 1 {
            acc[t + 1] += u32::from(a[t]) << shift;
        }
    };
    for (&(best, gbest), &(_, _, w)) in chosen.iter().zip(&ROLLS) {
        let shift = w >> 1;
        add(&mut acc, &src.bearoff[best as usize], shift);
        if p.want_gammon {
            add(&mut gacc, &src.gammons[gbest as usize], shift);
        }
    }
    let record = (round_distribution(&acc), round_distribution(&gacc));
    // Best single moves, by bear-off and by gammon score, first best in move order.
    let mut singles = [[0u32; 4]; 6];
    for (slot, m) in singles.iter_mut().zip(&p.moves) {
        let mut best = (u32::MAX, 0u64);
        let mut gbest = (u32::MAX, 0u64);
        for (_, _, j) in m.iter() {
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
    out: &mut [(ExactRecord, SingleBests)],
    window_out: Option<&mut [u32]>,
) {
    let prepared: Vec<Prepared> = batch
        .iter()
        .map(|&i| prepare(index, ranker, u64::from(i), gammon, src))
        .collect();
    if let Some(w) = src.doubles {
        prepared.iter().for_each(|p| prefetch_window(p, w));
    }
    let chosen: Vec<[(u64, u64); 21]> = prepared.iter().map(|p| choose(ranker, p, src)).collect();
    match window_out {
        Some(win) => {
            let stride = win.len() / batch.len();
            for (((p, c), w), o) in prepared.iter().zip(&chosen).zip(win.chunks_mut(stride)).zip(out) {
                *o = finish(p, c, gammon, src, Some(w));
            }
        }
        None => {
            for ((p, c), o) in prepared.iter().zip(&chosen).zip(out) {
                *o = finish(p, c, gammon, src, None);
            }
        }
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
    pub bearoff: Vec<Dist>,
    /// Gammon arrays (empty when `gammon` is false).
    pub gammons: Vec<Dist>,
}

struct TableSource<'a> {
    bearoff: &'a [Dist],
    gammons: &'a [Dist],
    scores: &'a [(u32, u32)],
    singles: &'a [AlignedBests],
    doubles: Option<&'a DoublesWindow>,
}

impl ExactSource for TableSource<'_> {
    #[inline]
    fn scores(&self, j: u64) -> (u32, u32) {
        self.scores[j as usize]
    }
    fn bearoff(&self, j: u64) -> [u16; SLOTS] {
        self.bearoff[j as usize].0
    }
    fn gammon(&self, j: u64) -> [u16; SLOTS] {
        self.gammons[j as usize].0
    }
    #[inline]
    fn best_single(&self, x: u64, die: u8) -> Option<(Scored, Scored)> {
        let e = self.singles[x as usize].0[usize::from(die - 1)];
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
    let mut bearoff = vec![Dist([0u16; SLOTS]); n];
    let mut gammons = vec![Dist([0u16; SLOTS]); if gammon { n } else { 0 }];
    let mut scores = vec![(0u32, 0u32); n];
    let mut singles = vec![AlignedBests([[0u32; 4]; 6]); n];
    let points = index.points();
    let mut window = (n < 1 << 30 && DoublesWindow::bytes(&levels, points) <= window_budget)
        .then(|| DoublesWindow::new(points, &levels))
        .flatten();
    let (a0, g0) = all_off();
    bearoff[0] = Dist(a0);
    if gammon {
        gammons[0] = Dist(g0);
    }
    let mut done = 1u64;
    progress(done);
    for p in 1..=levels.max_pip() {
        let level = levels.level(p);
        let mut slot = window.as_mut().and_then(|w| w.slots[p % WINDOW].take());
        let stride = window.as_ref().map_or(1, |w| w.stride);
        let results: Vec<(ExactRecord, SingleBests)> = {
            let src = TableSource {
                bearoff: &bearoff,
                gammons: &gammons,
                scores: &scores,
                singles: &singles,
                doubles: window.as_ref(),
            };
            let mut results = vec![(all_off(), [[0u32; 4]; 6]); level.len()];
            let compute = |batch: &[u32], out: &mut [(ExactRecord, SingleBests)], win: Option<&mut [u32]>| {
                compute_batch(index, &ranker, batch, gammon, &src, out, win)
            };
            match slot.as_mut() {
                None => level
                    .par_chunks(BATCH)
                    .zip(results.par_chunks_mut(BATCH))
                    .with_min_len(2)
                    .for_each(|(b, out)| compute(b, out, None)),
                Some(slot) => level
                    .par_chunks(BATCH)
                    .zip(results.par_chunks_mut(BATCH))
                    .zip(slot.values_mut()[..level.len() * stride].par_chunks_mut(BATCH * stride))
                    .with_min_len(2)
                    .for_each(|((b, out), win)| compute(b, out, Some(win))),
            }
            results
        };
        if let Some(w) = window.as_mut() {
            w.slots[p % WINDOW] = slot;
        }
        for (&i, ((a, g), m)) in level.iter().zip(results) {
            let i = i as usize;
            scores[i] = (rolls_score(&a), if gammon { rolls_score(&g) } else { 0 });
            bearoff[i] = Dist(a);
            if gammon {
                gammons[i] = Dist(g);
            }
            singles[i] = AlignedBests(m);
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

    /// The one-pass single moves of all dice are [`for_each_single_move`]'s, in its
    /// order, for every position of several databases.
    #[test]
    fn single_moves_of_all_dice_match_the_move_generator() {
        for (points, checkers) in [(6, 15), (8, 8), (12, 4), (24, 2)] {
            let index = PositionIndex::new(points, checkers).unwrap();
            let ranker = Ranker::new(&index);
            for x in 0..index.count() {
                let board = counts_of(&index, x).unwrap();
                let all = SingleMoves::all(&ranker, &board, x);
                for d in 1..=6u8 {
                    let mut expected = Vec::new();
                    for_each_single_move(&ranker, &board, x, d, &mut |s, dest, j, _| {
                        expected.push((s as u8, dest as i8, j));
                    });
                    let got: Vec<_> = all[usize::from(d) - 1].iter().collect();
                    assert_eq!(got, expected, "{points}x{checkers} position {x} die {d}");
                }
            }
        }
    }

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
                    self.0.bearoff[j as usize].0
                }
                fn gammon(&self, j: u64) -> [u16; SLOTS] {
                    self.0.gammons[j as usize].0
                }
            }
            let ranker = Ranker::new(&index);
            for i in (0..index.count()).step_by(7) {
                let (a, g) = compute_exact(&index, &ranker, i, true, &Finished(&fast));
                assert_eq!(a, fast.bearoff[i as usize].0, "{points}x{checkers} position {i}");
                assert_eq!(g, fast.gammons[i as usize].0, "{points}x{checkers} position {i}");
            }
        }
    }
}

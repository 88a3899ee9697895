//! A level's positions computed in batches, stage by stage (moves, choices, arrays), each
//! stage fetching ahead what the next one reads: the fast path of [`super::generate`],
//! giving the same arrays as [`super::exact::compute_exact`] from tables of best single
//! moves and the doubles window instead of a search per roll.

use super::doubles::DoublesWindow;
use super::exact::{bear_off_from, Choice, Dist, ExactRecord, ExactSource, Scored};
use super::single_moves::SingleMoves;
use crate::format::encoding::{rolls_score, round_distribution, ROLLS as SLOTS};
use crate::format::index::PositionIndex;
use crate::movegen::{counts_of, for_each_sequence, Counts, Ranker, ROLLS};
use crate::prefetch::prefetch;

/// Per position and die: the first best single-checker successors and their scores,
/// `[bear-off best, its bear-off score, gammon best, its gammon score]`.
pub type SingleBests = [[u32; 4]; 6];

/// [`SingleBests`] on a 32-byte boundary: one position's 96 bytes lie in two cache lines.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(super) struct AlignedBests(pub(super) SingleBests);

/// The values a level reads: the finished part of the table, the best single moves and
/// (if it fits) the doubles window.
pub(super) struct TableSource<'a> {
    pub(super) bearoff: &'a [Dist],
    pub(super) gammons: &'a [Dist],
    pub(super) scores: &'a [(u32, u32)],
    pub(super) singles: &'a [AlignedBests],
    pub(super) doubles: Option<&'a DoublesWindow>,
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
pub(super) const BATCH: usize = 8;

/// What generation computes for a batch of positions: their arrays, best single moves
/// and (with a doubles window) window entries, each from one enumeration of the
/// position's single-checker moves. Same arrays as [`compute_exact`] (tested; the MD5
/// tests cover it too).
///
/// [`compute_exact`]: super::exact::compute_exact
pub(super) fn compute_batch(
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

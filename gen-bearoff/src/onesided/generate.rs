//! Exact one-sided generation (gnubg's `makebearoff -o`, value for value): the level loop.
//!
//! Positions are computed in increasing pip order, a pip level at a time, each level in
//! parallel from the finished lower ones, by the pipeline of `batch`; what it reads
//! besides the arrays (the best single moves of every position and, if it fits in
//! memory, the doubles window of `doubles`) is kept up to date here. The rule for one
//! position is [`super::exact`]'s.

use rayon::prelude::*;

use super::batch::{compute_batch, AlignedBests, TableSource, BATCH};
use super::doubles::WINDOW;
use crate::format::encoding::{rolls_score, ROLLS as SLOTS};
use crate::format::index::PositionIndex;
use crate::levels::PipLevels;
use crate::movegen::Ranker;

// What was defined here before generation was split by concept, at its old paths.
pub use super::batch::SingleBests;
pub use super::doubles::DoublesWindow;
pub use super::exact::{all_off, compute_exact, Dist, ExactRecord, ExactSource, Scored};
pub use super::normal::{compute_normal, generate_normal, NormalRecord, NormalTable};
pub use super::single_moves::SingleMoves;

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

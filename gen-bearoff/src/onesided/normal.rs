//! The normal-distribution approximation (gnubg's `makebearoff -o P -n`): per position the
//! mean and standard deviation of the rolls to bear off and to bear off the first checker,
//! computed from the successors a pip level at a time, in parallel.

use rayon::prelude::*;

use crate::format::index::PositionIndex;
use crate::levels::PipLevels;
use crate::movegen::{counts_of, for_each_sequence, Ranker, SaveFilter, Saved, ROLLS};

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

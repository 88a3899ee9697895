//! The successors of every one-sided position for every roll, listed once before the
//! level loop: each as its pip drop and its rank within its pip level, which is where the
//! level loop finds its records in the window.

use rayon::prelude::*;

use crate::error::BearoffError;
use crate::format::index::PositionIndex;
use crate::levels::PipLevels;
use crate::movegen::{counts_of, successors, Ranker, ROLLS};

/// Successor lists of every one-sided position, per roll: packed `(pip drop << 24) |
/// rank of the successor within its pip level`.
pub(super) struct Successors {
    /// `start[a * 21 + r] .. start[a * 21 + r + 1]` index `entries`.
    start: Vec<u32>,
    entries: Vec<u32>,
}

impl Successors {
    pub(super) fn build(index: &PositionIndex, levels: &PipLevels) -> Result<Successors, BearoffError> {
        let n = index.count() as usize;
        let ranker = Ranker::new(index);
        if (0..=levels.max_pip()).any(|p| levels.len_of(p) >= 1 << 24) {
            return Err(BearoffError::InvalidParameters(
                "a pip level has more than 2^24 positions".into(),
            ));
        }
        let per_pos: Vec<Vec<u32>> = (0..n)
            .into_par_iter()
            .with_min_len(64)
            .map(|a| {
                let mut lens = Vec::with_capacity(21 * 16 + 21);
                if a == 0 {
                    lens.extend([0u32; 21]);
                    return lens;
                }
                let board = counts_of(index, a as u64).expect("in range");
                let pa = u32::from(levels.pip[a]);
                let mut succ = Vec::new();
                let mut entries = Vec::new();
                for &(d0, d1, _) in &ROLLS {
                    successors(&ranker, &board, a as u64, d0, d1, &mut succ);
                    lens.push(succ.len() as u32);
                    for &j in &succ {
                        let dp = pa - u32::from(levels.pip[j as usize]);
                        entries.push(dp << 24 | levels.rank[j as usize]);
                    }
                }
                lens.extend(entries);
                lens
            })
            .collect();
        let total: usize = per_pos.iter().map(|v| v.len() - 21).sum();
        if total >= u32::MAX as usize {
            return Err(BearoffError::InvalidParameters("too many successors".into()));
        }
        let mut start = Vec::with_capacity(n * 21 + 1);
        let mut entries = Vec::with_capacity(total);
        let mut at = 0u32;
        for v in &per_pos {
            let (lens, ents) = v.split_at(21);
            for &l in lens {
                start.push(at);
                at += l;
            }
            entries.extend_from_slice(ents);
        }
        start.push(at);
        Ok(Successors { start, entries })
    }

    #[inline]
    pub(super) fn of(&self, a: usize, roll: usize) -> &[u32] {
        let k = a * 21 + roll;
        &self.entries[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

//! Positions grouped by pip count.
//!
//! Every move lowers the mover's pip count, so all successors of a position lie in lower
//! pip levels: a level can be computed in parallel once the levels below it are done, and
//! the result does not depend on the number of threads.

use rayon::prelude::*;

use crate::format::index::PositionIndex;
use crate::movegen::MAX_POINTS;

/// One-sided positions sorted by pip count (ties by index).
#[derive(Clone, Debug)]
pub struct PipLevels {
    /// Position indices, grouped by pip count, ascending index within a level.
    pub order: Vec<u32>,
    /// `order[starts[p]..starts[p + 1]]` are the positions with `p` pips.
    pub starts: Vec<usize>,
    /// Pip count of each position index.
    pub pip: Vec<u16>,
    /// Rank of each position within its level.
    pub rank: Vec<u32>,
}

impl PipLevels {
    /// Builds the levels for every position of `index`. Needs about 10 bytes per position.
    pub fn new(index: &PositionIndex) -> PipLevels {
        let n = index.count() as usize;
        let p = index.points();
        let max_pip = p * index.checkers();
        // Pip counts in index order: enumerate boards of each checker total in rank order
        // by walking the ranking recursively (first slot outermost).
        let mut pip = vec![0u16; n];
        pip.par_chunks_mut(1 << 16).enumerate().for_each(|(c, chunk)| {
            let start = (c << 16) as u64;
            let mut board = [0u8; MAX_POINTS];
            for (k, out) in chunk.iter_mut().enumerate() {
                index.unrank_into(start + k as u64, &mut board);
                *out = crate::format::index::pips(&board[..p]) as u16;
            }
        });
        let mut counts = vec![0usize; max_pip + 2];
        for &x in &pip {
            counts[usize::from(x) + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let starts = counts.clone();
        let mut fill = counts;
        let mut order = vec![0u32; n];
        let mut rank = vec![0u32; n];
        for (i, &x) in pip.iter().enumerate() {
            let slot = &mut fill[usize::from(x)];
            order[*slot] = i as u32;
            rank[i] = (*slot - starts[usize::from(x)]) as u32;
            *slot += 1;
        }
        PipLevels {
            order,
            starts,
            pip,
            rank,
        }
    }

    /// Highest pip count (points × checkers).
    pub fn max_pip(&self) -> usize {
        self.starts.len() - 2
    }

    /// Positions with `p` pips.
    pub fn level(&self, p: usize) -> &[u32] {
        &self.order[self.starts[p]..self.starts[p + 1]]
    }

    /// Number of positions with `p` pips (0 beyond the range).
    pub fn len_of(&self, p: usize) -> usize {
        if p > self.max_pip() {
            0
        } else {
            self.starts[p + 1] - self.starts[p]
        }
    }
}

/// Bytes per position that [`PipLevels::new`] needs.
pub const BYTES_PER_POSITION: u64 = 10;

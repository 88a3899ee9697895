//! The single-checker moves of a position for all six dice, from one pass over its board:
//! what the fast generator ([`super::generate`]) enumerates once per position and reads
//! for every roll.

use crate::movegen::{Counts, Ranker, MAX_POINTS};

/// Most points a side can occupy: one checker each for at most 15 checkers.
const MAX_OCCUPIED: usize = 15;

/// The single-checker moves of a position with one die: `(source, destination,
/// successor)`, sources descending (destination below 0: borne off).
#[derive(Clone, Copy, Debug)]
pub struct SingleMoves {
    pub(super) list: [(u8, i8, u32); MAX_OCCUPIED],
    pub(super) len: usize,
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
    ///
    /// [`for_each_single_move`]: crate::movegen::for_each_single_move
    pub(super) fn all(ranker: &Ranker, board: &Counts, x: u64) -> [SingleMoves; 6] {
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

    pub(super) fn iter(&self) -> impl Iterator<Item = (u8, i8, u64)> + '_ {
        self.list[..self.len]
            .iter()
            .map(|&(s, d, j)| (s, d, u64::from(j)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::index::PositionIndex;
    use crate::movegen::{counts_of, for_each_single_move};

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
}

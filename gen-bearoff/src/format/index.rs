//! Position indexing: gnubg's `PositionBearoff` / `PositionFromBearoff`.
//!
//! A side with up to `C` checkers on `P` slots (points counted from its own ace point) is
//! ranked in the combinatorial number system. With `m_k` the number of checkers on slots
//! `k..P` (so `m_0` is the total), the index is
//!
//! ```text
//! index = sum over k = 0..P-1 of binom(P - 1 - k + m_k, P - k)
//! ```
//!
//! which equals gnubg's bit-pattern definition. Positions are grouped by checker count
//! (fewer first), index 0 is "all off", and the index of a board does not depend on `C`.
//! Every legal move lowers the mover's index. The same ranking serves hypergammon with
//! `P = 25` (slot 24 = bar).

/// Binomial coefficients `binom(n, r)` for `n < 64`, `r <= 32`, as `u64`.
const fn binomials() -> [[u64; 33]; 64] {
    let mut t = [[0u64; 33]; 64];
    let mut n = 0;
    while n < 64 {
        t[n][0] = 1;
        let mut r = 1;
        while r <= 32 && r <= n {
            t[n][r] = t[n - 1][r - 1] + if r < n { t[n - 1][r] } else { 0 };
            r += 1;
        }
        n += 1;
    }
    t
}

static BINOM: [[u64; 33]; 64] = binomials();

/// `binom(n, r)`; 0 when `r > n`. Panics only on arguments outside the table
/// (`n >= 64` or `r > 32`), which [`PositionIndex::new`] rules out.
pub fn binom(n: usize, r: usize) -> u64 {
    if r > n {
        0
    } else {
        BINOM[n][r]
    }
}

/// Ranking of one side's checkers on `points` slots with at most `checkers` checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionIndex {
    points: usize,
    checkers: usize,
}

/// The largest number of slots supported (hypergammon's 24 points plus the bar).
pub const MAX_POINTS: usize = 25;
/// The most checkers a side can have.
pub const MAX_CHECKERS: usize = 15;

impl PositionIndex {
    /// Ranking for `points` slots (1..=25) and up to `checkers` checkers (1..=15).
    pub fn new(points: usize, checkers: usize) -> Option<PositionIndex> {
        if (1..=MAX_POINTS).contains(&points) && (1..=MAX_CHECKERS).contains(&checkers) {
            Some(PositionIndex { points, checkers })
        } else {
            None
        }
    }

    /// Slots per side.
    pub const fn points(&self) -> usize {
        self.points
    }

    /// Maximum checkers per side.
    pub const fn checkers(&self) -> usize {
        self.checkers
    }

    /// Number of distinct sides: `binom(points + checkers, points)`.
    pub fn count(&self) -> u64 {
        binom(self.points + self.checkers, self.points)
    }

    /// Rank of a side given as slot counts (`board[i]` checkers on slot `i`). Slots at
    /// `points` and beyond must be empty, and the total must not exceed `checkers`;
    /// otherwise `None`.
    pub fn rank(&self, board: &[u8]) -> Option<u64> {
        if board.iter().skip(self.points).any(|&c| c != 0) {
            return None;
        }
        let p = self.points;
        let mut suffix = [0usize; MAX_POINTS + 1];
        for k in (0..p).rev() {
            suffix[k] = suffix[k + 1] + usize::from(board.get(k).copied().unwrap_or(0));
        }
        if suffix[0] > self.checkers {
            return None;
        }
        Some(self.rank_suffix(&suffix))
    }

    /// Rank from suffix counts: `suffix[k]` = checkers on slots `k..points`.
    #[inline]
    pub fn rank_suffix(&self, suffix: &[usize]) -> u64 {
        let p = self.points;
        let mut index = 0;
        for (k, &m) in suffix.iter().enumerate().take(p) {
            index += BINOM[p - 1 - k + m][p - k];
        }
        index
    }

    /// The side with this rank, as `points` slot counts; `None` if `index >= count()`.
    pub fn unrank(&self, index: u64) -> Option<Vec<u8>> {
        let mut board = vec![0u8; self.points];
        self.unrank_into(index, &mut board).then_some(board)
    }

    /// Like [`PositionIndex::unrank`], writing into `board` (at least `points` long;
    /// slots beyond are left alone). Returns false for an index out of range.
    pub fn unrank_into(&self, index: u64, board: &mut [u8]) -> bool {
        if index >= self.count() || board.len() < self.points {
            return false;
        }
        let p = self.points;
        let mut rest = index;
        // m = checkers on slots k..p; start with the largest total whose first index fits.
        let mut m = self.checkers;
        while m > 0 && BINOM[p - 1 + m][p] > rest {
            m -= 1;
        }
        for k in 0..p {
            rest -= BINOM[p - 1 - k + m][p - k];
            if k + 1 == p {
                board[k] = m as u8;
                break;
            }
            // Checkers left for slots k+1..p: the largest m' <= m whose term fits.
            let r = p - k - 1;
            let mut m2 = m;
            while m2 > 0 && BINOM[r - 1 + m2][r] > rest {
                m2 -= 1;
            }
            board[k] = (m - m2) as u8;
            m = m2;
        }
        true
    }
}

/// Pip count of a side over its first `points` slots (slot `i` is worth `i + 1` pips).
pub fn pips(board: &[u8]) -> u32 {
    board
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 1) * u32::from(c))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gnubg's own definition: a bit pattern ranked in the combinatorial number system.
    fn gnubg_rank(board: &[u8], p: usize) -> u64 {
        let n: usize = board.iter().map(|&c| usize::from(c)).sum();
        let mut bits = 0u64;
        let mut j = p - 1 + n;
        bits |= 1 << j;
        for &c in &board[..p - 1] {
            j -= usize::from(c) + 1;
            bits |= 1 << j;
        }
        let mut index = 0;
        let mut r = 0;
        for bit in 0..64 {
            if bits & (1 << bit) != 0 {
                r += 1;
                index += binom(bit, r);
            }
        }
        index
    }

    #[test]
    fn reference_examples() {
        let ix = PositionIndex::new(6, 15).unwrap();
        let cases: [(u64, [u8; 6]); 10] = [
            (0, [0; 6]),
            (1, [1, 0, 0, 0, 0, 0]),
            (6, [0, 0, 0, 0, 0, 1]),
            (7, [2, 0, 0, 0, 0, 0]),
            (8, [1, 1, 0, 0, 0, 0]),
            (13, [0, 2, 0, 0, 0, 0]),
            (14, [0, 1, 1, 0, 0, 0]),
            (16, [0, 1, 0, 0, 1, 0]),
            (27, [0, 0, 0, 0, 0, 2]),
            (28, [3, 0, 0, 0, 0, 0]),
        ];
        for (index, board) in cases {
            assert_eq!(ix.rank(&board), Some(index), "{board:?}");
            assert_eq!(ix.unrank(index).unwrap(), board.to_vec());
        }
        assert_eq!(ix.rank(&[15, 0, 0, 0, 0, 0]), Some(38760));
        assert_eq!(ix.rank(&[0, 0, 0, 0, 0, 15]), Some(54263));
        assert_eq!(ix.count(), 54264);
    }

    #[test]
    fn counts_match_reference_table() {
        let expected = [
            16u64, 136, 816, 3876, 15504, 54264, 170544, 490314, 1307504, 3268760, 7726160, 17383860,
            37442160, 77558760, 155117520, 300540195, 565722720, 1037158320,
        ];
        for (p, &n) in (1..=18).zip(expected.iter()) {
            assert_eq!(PositionIndex::new(p, 15).unwrap().count(), n, "P = {p}");
        }
    }

    #[test]
    fn rank_agrees_with_bit_pattern_and_roundtrips() {
        for (p, c) in [(1, 15), (3, 15), (6, 6), (6, 15), (8, 4), (25, 3)] {
            let ix = PositionIndex::new(p, c).unwrap();
            let n = ix.count().min(200_000);
            let mut prev_total = 0;
            for i in 0..n {
                let b = ix.unrank(i).unwrap();
                let total: usize = b.iter().map(|&x| usize::from(x)).sum();
                assert!(total >= prev_total, "grouped by checker count");
                prev_total = total;
                assert_eq!(ix.rank(&b), Some(i));
                if p + total <= 33 {
                    assert_eq!(gnubg_rank(&b, p), i);
                }
            }
        }
    }

    #[test]
    fn index_does_not_depend_on_checker_limit() {
        let small = PositionIndex::new(6, 6).unwrap();
        let big = PositionIndex::new(6, 15).unwrap();
        for i in 0..small.count() {
            assert_eq!(small.unrank(i), big.unrank(i));
        }
    }

    #[test]
    fn rejects_out_of_range() {
        let ix = PositionIndex::new(6, 3).unwrap();
        assert_eq!(ix.rank(&[4, 0, 0, 0, 0, 0]), None);
        assert_eq!(ix.rank(&[0, 0, 0, 0, 0, 0, 1]), None);
        assert_eq!(ix.unrank(ix.count()), None);
        assert!(PositionIndex::new(0, 3).is_none());
        assert!(PositionIndex::new(6, 16).is_none());
    }
}

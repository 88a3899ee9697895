//! Escape counts: how many of the 36 rolls carry a checker past a stretch of points.
//!
//! A 12-bit mask describes the 12 points in front of a checker (bit i: the point i + 1
//! pips ahead is made, i.e. holds two or more opposing checkers). A roll d1 ≥ d2
//! escapes when the point d1 + d2 pips ahead is open and the two dice do not both land
//! on made points (doubles count the single point 2·d ahead). The second table counts
//! only rolls that travel past the first made point.

use std::sync::OnceLock;

use crate::simd::ESCAPE_TABLE_BYTES;

pub(crate) struct Tables {
    /// Padded with three zero bytes for the vector kernel's 4-byte gathers.
    escapes: [u8; ESCAPE_TABLE_BYTES],
    escapes_past_first: [u8; 4096],
}

pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            escapes: [0; ESCAPE_TABLE_BYTES],
            escapes_past_first: [0; 4096],
        };
        for mask in 0..4096usize {
            let low = if mask == 0 {
                usize::MAX
            } else {
                mask.trailing_zeros() as usize
            };
            let (mut all, mut past) = (0u8, 0u8);
            for big in 0..6usize {
                for small in 0..=big {
                    let total_open = mask & (1 << (big + small + 1)) == 0;
                    let both_blocked = mask & (1 << big) != 0 && mask & (1 << small) != 0;
                    if total_open && !both_blocked {
                        let w = if big == small { 1 } else { 2 };
                        all += w;
                        if mask != 0 && big + small + 1 > low {
                            past += w;
                        }
                    }
                }
            }
            t.escapes[mask] = all;
            t.escapes_past_first[mask] = past;
        }
        t
    })
}

/// The 12-bit table index for a checker `n` slots from the end: bit i is slot
/// `24 - n + i` of the board whose made points are `made` (at most `min(n, 12)` bits).
#[inline]
fn window(made: u32, n: i32) -> usize {
    if n <= 0 {
        return 0;
    }
    let m = n.min(12) as u32;
    ((made >> (24 - n) as u32) & ((1 << m) - 1)) as usize
}

impl Tables {
    /// Rolls (of 36) that escape a checker standing `n` slots from the end of a board
    /// whose made points are `made`.
    #[inline]
    pub(crate) fn escapes(&self, made: u32, n: i32) -> i32 {
        i32::from(self.escapes[window(made, n)])
    }

    /// The escape counts by table index, padded, for [`crate::simd::escape_sums`].
    pub(crate) fn escape_table(&self) -> &[u8; ESCAPE_TABLE_BYTES] {
        &self.escapes
    }

    /// As [`Tables::escapes`], counting only rolls that pass the nearest made point.
    #[inline]
    pub(crate) fn escapes_past_first(&self, made: u32, n: i32) -> i32 {
        i32::from(self.escapes_past_first[window(made, n)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_board_escapes_with_every_roll_and_a_prime_with_none() {
        assert_eq!(tables().escapes[0], 36);
        // Six made points in a row right in front: nothing gets past.
        assert_eq!(tables().escapes[0b11_1111], 0);
        // Only the point 1 pip ahead made: every roll escapes except 1-1 (lands on it).
        assert_eq!(tables().escapes[0b1], 35);
        assert_eq!(tables().escapes_past_first[0], 0);
    }
}

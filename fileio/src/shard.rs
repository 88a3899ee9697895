//! Shard `K/N` of a job split across processes or machines (the `--shard K/N` of every
//! bgkit tool): its syntax, and the two ways bgkit cuts a job into shards: round robin
//! over input rows ([`Shard::contains`], [`Shard::rows`]) and contiguous blocks
//! ([`Shard::block`]).

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Shard `k` of `n` (1-based `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// This shard, `1..=n`.
    pub k: u32,
    /// Number of shards.
    pub n: u32,
}

impl Shard {
    /// The whole job as one shard.
    pub const ALL: Shard = Shard { k: 1, n: 1 };

    /// Round robin: whether input row `index` (0-based) belongs to this shard
    /// (`index % n == k − 1`).
    pub fn contains(&self, index: usize) -> bool {
        index % self.n as usize == (self.k - 1) as usize
    }

    /// Round robin: the number of rows of this shard in an input of `total` rows.
    pub fn rows(&self, total: usize) -> usize {
        let (n, k) = (self.n as usize, (self.k - 1) as usize);
        total / n + usize::from(total % n > k)
    }

    /// This shard's contiguous block of `total` items: `[total·(k−1)/n, total·k/n)`.
    pub fn block(&self, total: u64) -> Range<u64> {
        let at = |k: u32| (u128::from(total) * u128::from(k) / u128::from(self.n)) as u64;
        at(self.k - 1)..at(self.k)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N` with `1 ≤ K ≤ N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{s}' must be K/N with 1 <= K <= N (e.g. 3/8)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax() {
        assert_eq!("3/8".parse::<Shard>().unwrap(), Shard { k: 3, n: 8 });
        assert_eq!(Shard { k: 3, n: 8 }.to_string(), "3/8");
        for bad in ["0/2", "3/2", "1", "a/b", "1/0", "0/0", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn round_robin_and_blocks_partition_the_job() {
        for total in [0usize, 1, 5, 17, 100] {
            for n in 1..=7u32 {
                let mut owners = vec![0; total];
                let mut at = 0;
                for k in 1..=n {
                    let s = Shard { k, n };
                    let mine = (0..total).filter(|&i| s.contains(i)).count();
                    assert_eq!(mine, s.rows(total), "{s} of {total}");
                    for (i, o) in owners.iter_mut().enumerate() {
                        *o += usize::from(s.contains(i));
                    }
                    let b = s.block(total as u64);
                    assert_eq!(b.start, at, "{s} of {total} starts where the last ended");
                    assert!(b.end - b.start <= (total as u64).div_ceil(u64::from(n)));
                    at = b.end;
                }
                assert!(owners.iter().all(|&o| o == 1), "every row in one shard");
                assert_eq!(at, total as u64);
            }
        }
        assert_eq!(Shard { k: 2, n: 3 }.block(10), 3..6);
    }
}

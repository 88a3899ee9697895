//! Splitting a job across machines: shard `K/N` takes the input rows whose 0-based
//! index `i` has `i % N == K − 1` (round robin, so every shard gets a similar mix).
//!
//! Rollout results depend only on the position and the settings (the dice of trial `t`
//! come from the seed and `t` alone), so the shards' results, put back in input order
//! by [`crate::merge`], are exactly what one machine would have produced.

use std::fmt;
use std::str::FromStr;

/// Shard `k` of `n` (1-based `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// This shard, 1..=n.
    pub k: u32,
    /// Number of shards.
    pub n: u32,
}

impl Shard {
    /// The whole job as one shard.
    pub const ALL: Shard = Shard { k: 1, n: 1 };

    /// Whether input row `index` (0-based) belongs to this shard.
    pub fn contains(&self, index: usize) -> bool {
        index % self.n as usize == (self.k - 1) as usize
    }

    /// The number of rows of this shard in an input of `total` rows.
    pub fn rows(&self, total: usize) -> usize {
        let (n, k) = (self.n as usize, (self.k - 1) as usize);
        total / n + usize::from(total % n > k)
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
    fn shards_partition_the_rows() {
        for total in [0usize, 1, 7, 10, 33] {
            for n in 1..=5u32 {
                let mut owners = vec![0u32; total];
                for k in 1..=n {
                    let s = Shard { k, n };
                    let mine: Vec<usize> = (0..total).filter(|&i| s.contains(i)).collect();
                    assert_eq!(mine.len(), s.rows(total));
                    for i in mine {
                        owners[i] += 1;
                    }
                }
                assert!(owners.iter().all(|&o| o == 1));
            }
        }
        assert_eq!("3/8".parse::<Shard>().unwrap(), Shard { k: 3, n: 8 });
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}

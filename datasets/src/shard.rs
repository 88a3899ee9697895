//! Splitting a job across machines: shard `K/N` takes the input rows whose 0-based
//! index `i` has `i % N == K − 1` (round robin, so every shard gets a similar mix).
//!
//! Rollout results depend only on the position and the settings (the dice of trial `t`
//! come from the seed and `t` alone), so the shards' results, put back in input order
//! by [`crate::merge`], are exactly what one machine would have produced. Sampling and
//! benchmark builds split their games or positions into contiguous blocks instead
//! ([`Shard::block`]): their parts, joined in shard order, are the whole.
//!
//! A sharded job also leaves a [`Manifest`] beside its output (`OUT.shard.json`:
//! which job, which shard, how many rows), so that a merge can refuse a missing or
//! duplicated shard, or a part of another job, with a message that says which.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::error::DatasetError;
use crate::rng::Fnv1a;

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

/// What a shard's output says about itself (the file `OUT.shard.json`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    /// The job: `rollout`, `sample` or `benchmark`.
    pub job: String,
    /// Which shard.
    pub shard: Shard,
    /// A digest of the job's description without the shard (settings, input, engine
    /// files): equal for every shard of one job.
    pub job_digest: String,
    /// Rows (positions, set entries) in the output.
    pub rows: usize,
}

impl Manifest {
    /// The manifest of shard `shard` of a job described by `description` (a JSON
    /// object; a `shard` field in it is left out of the digest).
    pub fn new(job: &str, shard: Shard, description: &serde_json::Value, rows: usize) -> Manifest {
        let mut d = description.clone();
        if let Some(o) = d.as_object_mut() {
            o.remove("shard");
        }
        let mut h = Fnv1a::default();
        h.update(d.to_string().as_bytes());
        Manifest {
            job: job.into(),
            shard,
            job_digest: format!("{:016x}", h.finish()),
            rows,
        }
    }

    /// Where the manifest of `output` is: `output` + `.shard.json`.
    pub fn path_for(output: &Path) -> PathBuf {
        let mut s = output.as_os_str().to_owned();
        s.push(".shard.json");
        PathBuf::from(s)
    }

    /// Writes the manifest of `output` (atomically).
    pub fn write(&self, output: &Path) -> Result<(), DatasetError> {
        let path = Manifest::path_for(output);
        let text = serde_json::to_string(self).expect("json") + "\n";
        fileio::write_atomic(&path, text.as_bytes()).map_err(|e| DatasetError::io(&path, e))
    }

    /// The manifest of `part`, or `None` when it has none.
    pub fn read(part: &Path) -> Result<Option<Manifest>, DatasetError> {
        let path = Manifest::path_for(part);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(DatasetError::io(&path, e)),
        };
        let m: Manifest = serde_json::from_str(&text)
            .map_err(|e| DatasetError::file(&path, format!("not a shard manifest: {e}")))?;
        if m.shard.k == 0 || m.shard.k > m.shard.n {
            return Err(DatasetError::file(&path, format!("bad shard {}", m.shard)));
        }
        Ok(Some(m))
    }
}

/// Checks that the parts of a merge are the shards of one job, each exactly once:
/// given each part's name and manifest (all present or all absent), returns the
/// parts' indices in shard order, or `None` when no part has a manifest (parts of
/// `rollout --shard` runs older than manifests: the caller's own checks apply).
pub fn check_parts(parts: &[(String, Option<Manifest>)]) -> Result<Option<Vec<usize>>, DatasetError> {
    let Some((first_name, Some(first))) = parts.iter().find(|(_, m)| m.is_some()) else {
        return Ok(None);
    };
    if let Some((name, _)) = parts.iter().find(|(_, m)| m.is_none()) {
        return Err(DatasetError::Invalid(format!(
            "{name} has no shard manifest ({}) but {first_name} has: every part must come from a --shard K/N run of the same job",
            Manifest::path_for(Path::new(name)).display()
        )));
    }
    let n = first.shard.n;
    let mut by_k: Vec<Option<usize>> = vec![None; n as usize];
    for (i, (name, m)) in parts.iter().enumerate() {
        let m = m.as_ref().expect("checked above");
        if m.job != first.job || m.job_digest != first.job_digest || m.shard.n != n {
            return Err(DatasetError::Invalid(format!(
                "{name} is shard {} of another job than {first_name} (shard {}): {}",
                m.shard,
                first.shard,
                if m.job != first.job {
                    format!("a {} part, not a {} part", m.job, first.job)
                } else if m.shard.n != n {
                    "another number of shards".to_string()
                } else {
                    "other settings, input or engine files".to_string()
                }
            )));
        }
        let slot = &mut by_k[(m.shard.k - 1) as usize];
        if let Some(j) = slot {
            return Err(DatasetError::Invalid(format!(
                "{} and {name} are both shard {}: give each shard once",
                parts[*j].0, m.shard
            )));
        }
        *slot = Some(i);
    }
    let missing: Vec<String> = by_k
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(k, _)| format!("{}/{n}", k + 1))
        .collect();
    if !missing.is_empty() {
        let (s, verb) = if missing.len() > 1 {
            ("s", "are")
        } else {
            ("", "is")
        };
        return Err(DatasetError::Invalid(format!(
            "shard{s} {} of the {} job {verb} missing: {} of {n} parts given",
            missing.join(", "),
            first.job,
            parts.len(),
        )));
    }
    Ok(Some(by_k.into_iter().map(|s| s.expect("none missing")).collect()))
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

    #[test]
    fn blocks_partition_the_items() {
        for total in [0u64, 1, 7, 10, 256, 1000] {
            for n in 1..=5u32 {
                let mut next = 0;
                for k in 1..=n {
                    let b = Shard { k, n }.block(total);
                    assert_eq!(b.start, next);
                    next = b.end;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(Shard { k: 2, n: 3 }.block(10), 3..6);
    }

    fn part(name: &str, k: u32, n: u32, digest: &str) -> (String, Option<Manifest>) {
        let m = Manifest {
            job: "rollout".into(),
            shard: Shard { k, n },
            job_digest: digest.into(),
            rows: 1,
        };
        (name.into(), Some(m))
    }

    #[test]
    fn merges_refuse_missing_duplicated_and_foreign_shards() {
        let ok = [part("c", 3, 3, "x"), part("a", 1, 3, "x"), part("b", 2, 3, "x")];
        assert_eq!(check_parts(&ok).unwrap(), Some(vec![1, 2, 0]));
        let missing = [part("a", 1, 3, "x"), part("c", 3, 3, "x")];
        let e = check_parts(&missing).unwrap_err().to_string();
        assert!(e.contains("shard 2/3 of the rollout job is missing"), "{e}");
        let twice = [part("a", 1, 2, "x"), part("a2", 1, 2, "x"), part("b", 2, 2, "x")];
        let e = check_parts(&twice).unwrap_err().to_string();
        assert!(e.contains("a and a2 are both shard 1/2"), "{e}");
        let foreign = [part("a", 1, 2, "x"), part("b", 2, 2, "y")];
        let e = check_parts(&foreign).unwrap_err().to_string();
        assert!(e.contains("b is shard 2/2 of another job"), "{e}");
        let mixed = [part("a", 1, 2, "x"), ("b".to_string(), None)];
        assert!(check_parts(&mixed)
            .unwrap_err()
            .to_string()
            .contains("b has no shard manifest"));
        assert_eq!(check_parts(&[("a".to_string(), None)]).unwrap(), None);
        let d = serde_json::json!({"settings": 1, "shard": "1/2"});
        let e = serde_json::json!({"settings": 1, "shard": "2/2"});
        assert_eq!(
            Manifest::new("rollout", Shard { k: 1, n: 2 }, &d, 3).job_digest,
            Manifest::new("rollout", Shard { k: 2, n: 2 }, &e, 4).job_digest
        );
    }
}

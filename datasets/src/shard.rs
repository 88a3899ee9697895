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

use std::path::{Path, PathBuf};

use crate::error::DatasetError;
use crate::rng::Fnv1a;

pub use fileio::shard::Shard;

/// What a shard's output says about itself (the file `OUT.shard.json`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    /// The job: `rollout`, `sample` or `benchmark`.
    pub job: String,
    /// Which shard.
    pub shard: Shard,
    /// A digest of the job's description without the shard (settings, input, engine
    /// files by their contents): equal for every shard of one job.
    pub job_digest: String,
    /// What `job_digest` covers: 1 (manifests without the field) the description
    /// with the engine files' paths, 2 ([`DIGEST_VERSION`]) without them
    /// ([`crate::job::identity`]). Digests of different versions cannot be compared.
    #[serde(default = "first_digest_version")]
    pub digest_version: u32,
    /// Rows (positions, set entries) in the output.
    pub rows: usize,
}

/// The [`Manifest::digest_version`] this code writes: the job's identity without the
/// paths of its files.
pub const DIGEST_VERSION: u32 = 2;

fn first_digest_version() -> u32 {
    1
}

impl Manifest {
    /// The manifest of shard `shard` of a job described by `description` (a JSON
    /// object; a `shard` field in it and the paths of its files are left out of the
    /// digest).
    pub fn new(job: &str, shard: Shard, description: &serde_json::Value, rows: usize) -> Manifest {
        let mut d = crate::job::identity(description);
        if let Some(o) = d.as_object_mut() {
            o.remove("shard");
        }
        let mut h = Fnv1a::default();
        h.update(d.to_string().as_bytes());
        Manifest {
            job: job.into(),
            shard,
            job_digest: format!("{:016x}", h.finish()),
            digest_version: DIGEST_VERSION,
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

    /// The manifest of `part`, or `None` when it has none; an error when `part` itself
    /// is not there.
    pub fn read(part: &Path) -> Result<Option<Manifest>, DatasetError> {
        // A part that is not there is named as such, not as a part without a manifest.
        std::fs::metadata(part).map_err(|e| DatasetError::io(part, e))?;
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
        if m.digest_version == 0 || m.digest_version > DIGEST_VERSION {
            return Err(DatasetError::file(
                &path,
                format!(
                    "job digest version {} is not one this datasets reads (1 to {DIGEST_VERSION}): written by a newer datasets",
                    m.digest_version
                ),
            ));
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
        if m.digest_version != first.digest_version {
            // Version 1 digests include the engine files' paths: they cannot be
            // compared with version 2's, and taking them for another job would mislead.
            let (old, new) = if m.digest_version < first.digest_version {
                (name, first_name)
            } else {
                (first_name, name)
            };
            return Err(DatasetError::Invalid(format!(
                "{old} was written by an older datasets than {new} (its shard manifest identifies the job by the engine files' paths, not only their contents): rerun that shard with this version, or merge parts of one version"
            )));
        }
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

    fn part(name: &str, k: u32, n: u32, digest: &str) -> (String, Option<Manifest>) {
        let m = Manifest {
            job: "rollout".into(),
            shard: Shard { k, n },
            job_digest: digest.into(),
            digest_version: DIGEST_VERSION,
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

    #[test]
    fn shards_of_one_job_are_the_same_job_whatever_the_paths_of_its_files() {
        let with = |path: &str, digest: &str| {
            serde_json::json!({
                "settings": {"trials": 36},
                "engine": {"weights": {"path": path, "digest": digest}},
            })
        };
        let one = Manifest::new(
            "rollout",
            Shard { k: 1, n: 2 },
            &with("/usr/lib/gnubg/gnubg.wd", "ab"),
            3,
        );
        let two = Manifest::new("rollout", Shard { k: 2, n: 2 }, &with("w.wd", "ab"), 3);
        let other = Manifest::new("rollout", Shard { k: 2, n: 2 }, &with("w.wd", "cd"), 3);
        assert_eq!(one.job_digest, two.job_digest);
        assert_ne!(one.job_digest, other.job_digest);
        assert_eq!(one.digest_version, DIGEST_VERSION);
        let parts = |b: &Manifest| {
            [
                ("a".to_string(), Some(one.clone())),
                ("b".to_string(), Some(b.clone())),
            ]
        };
        assert_eq!(check_parts(&parts(&two)).unwrap(), Some(vec![0, 1]));
        let e = check_parts(&parts(&other)).unwrap_err().to_string();
        assert!(e.contains("b is shard 2/2 of another job"), "{e}");
    }

    #[test]
    fn manifests_of_an_older_version_read_but_do_not_mix_with_newer_ones() {
        let dir = test_support::Scratch::new("datasets", "manifest-versions");
        let old_part = dir.join("q1.csv");
        std::fs::write(&old_part, "").unwrap();
        // What datasets wrote before digest versions (the digest included paths).
        std::fs::write(
            Manifest::path_for(&old_part),
            r#"{"job":"rollout","shard":{"k":1,"n":2},"job_digest":"0123456789abcdef","rows":30}"#,
        )
        .unwrap();
        let old = Manifest::read(&old_part).unwrap().unwrap();
        let newer = dir.join("q3.csv");
        std::fs::write(&newer, "").unwrap();
        std::fs::write(
            Manifest::path_for(&newer),
            r#"{"job":"rollout","shard":{"k":1,"n":2},"job_digest":"0123456789abcdef","digest_version":3,"rows":30}"#,
        )
        .unwrap();
        let unknown = Manifest::read(&newer).unwrap_err().to_string();
        assert_eq!(old.digest_version, 1);
        assert!(
            unknown.contains("job digest version 3 is not one this datasets reads"),
            "{unknown}"
        );
        let mut old2 = old.clone();
        old2.shard.k = 2;
        // Old parts still merge with each other.
        let olds = [
            ("q1".to_string(), Some(old.clone())),
            ("q2".to_string(), Some(old2)),
        ];
        assert_eq!(check_parts(&olds).unwrap(), Some(vec![0, 1]));
        let new2 = Manifest::new("rollout", Shard { k: 2, n: 2 }, &serde_json::json!({}), 30);
        for parts in [
            [
                ("q1".to_string(), Some(old.clone())),
                ("q2".to_string(), Some(new2.clone())),
            ],
            [
                ("q2".to_string(), Some(new2.clone())),
                ("q1".to_string(), Some(old.clone())),
            ],
        ] {
            let e = check_parts(&parts).unwrap_err().to_string();
            assert!(
                e.starts_with("q1 was written by an older datasets than q2")
                    && e.contains("rerun that shard"),
                "{e}"
            );
        }
    }
}

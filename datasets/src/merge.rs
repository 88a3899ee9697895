//! Joining the outputs of shards into what one machine would have produced.
//!
//! With the input file, each input row takes the result of its position from whichever
//! part holds it (every part must agree on a position that appears in several, and
//! every input position must be found). Without it, the parts must be given in shard
//! order 1..N and are interleaved round robin, the inverse of [`crate::shard`].
//!
//! Parts of a sharded sampling run ([`merge_positions`]) and of a sharded benchmark
//! build ([`merge_benchmark`]) hold contiguous blocks and are joined in shard order.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use board::Position;

use crate::error::DatasetError;
use crate::format::Sample;

/// Merges parts in input order.
pub fn merge_by_input(
    input: &[Position],
    parts: &[(String, Vec<Sample>)],
) -> Result<Vec<Sample>, DatasetError> {
    let mut by_key: HashMap<[u8; 10], (Sample, &str)> = HashMap::new();
    for (name, part) in parts {
        for s in part {
            let key = s.position.key();
            match by_key.get(&key) {
                Some((other, where_)) if other != s => {
                    return Err(DatasetError::Invalid(format!(
                        "{name} and {where_} disagree on position {}",
                        s.position.position_id()
                    )))
                }
                Some(_) => {}
                None => {
                    by_key.insert(key, (*s, name));
                }
            }
        }
    }
    input
        .iter()
        .enumerate()
        .map(|(i, p)| {
            by_key.get(&p.key()).map(|(s, _)| *s).ok_or_else(|| {
                DatasetError::Invalid(format!(
                    "input row {} (position {}) is in none of the parts",
                    i + 2,
                    p.position_id()
                ))
            })
        })
        .collect()
}

/// Interleaves parts given in shard order (part k holds rows k−1, k−1+N, …).
pub fn merge_round_robin(parts: &[(String, Vec<Sample>)]) -> Result<Vec<Sample>, DatasetError> {
    let n = parts.len();
    let total: usize = parts.iter().map(|(_, p)| p.len()).sum();
    for (k, (name, p)) in parts.iter().enumerate() {
        let want = crate::shard::Shard {
            k: k as u32 + 1,
            n: n as u32,
        }
        .rows(total);
        if p.len() != want {
            return Err(DatasetError::Invalid(format!(
                "{name} has {} rows but shard {}/{n} of {total} rows has {want}: give the parts in shard order, or give --input",
                p.len(),
                k + 1
            )));
        }
    }
    Ok((0..total).map(|i| parts[i % n].1[i / n]).collect())
}

/// Joins the parts of a sharded sampling run, given in shard order: every position's
/// first occurrence, in order (what one run over all the games keeps).
pub fn merge_positions(parts: &[(String, Vec<Position>)]) -> Vec<Position> {
    let mut seen = HashSet::new();
    parts
        .iter()
        .flat_map(|(_, p)| p.iter().copied())
        .filter(|p| seen.insert(p.key()))
        .collect()
}

/// A benchmark set's header and its entry lines, as text.
pub fn read_benchmark_lines(path: &Path) -> Result<(serde_json::Value, Vec<String>), DatasetError> {
    let text = std::fs::read_to_string(path).map_err(|e| DatasetError::io(path, e))?;
    let mut lines = text.lines();
    let header: serde_json::Value = lines
        .next()
        .and_then(|l| serde_json::from_str(l).ok())
        .filter(|h: &serde_json::Value| h["format"] == crate::benchmark::FORMAT)
        .ok_or_else(|| DatasetError::parse(path, 1, "not a bgkit benchmark set (no header line)"))?;
    Ok((
        header,
        lines
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect(),
    ))
}

/// Joins the parts of a sharded benchmark build, given in shard order: their entries
/// in order, under the first part's header with the count of the whole (the parts'
/// headers must agree on everything else but the paths of the engine files, which
/// may differ from machine to machine: their digests must agree).
pub fn merge_benchmark(
    parts: &[(String, serde_json::Value, Vec<String>)],
) -> Result<(serde_json::Value, Vec<String>), DatasetError> {
    let Some((first, header, _)) = parts.first() else {
        return Err(DatasetError::Invalid("no parts to merge".into()));
    };
    let strip = |h: &serde_json::Value| {
        let mut h = crate::job::identity(h);
        h.as_object_mut().map(|o| o.remove("positions"));
        h
    };
    let lines: Vec<String> = parts.iter().flat_map(|(_, _, l)| l.iter().cloned()).collect();
    for (name, h, _) in parts {
        if strip(h) != strip(header) {
            return Err(DatasetError::Invalid(format!(
                "{name} and {first} are parts of different benchmark builds (their headers differ)"
            )));
        }
    }
    let mut header = header.clone();
    header["positions"] = serde_json::json!(lines.len());
    Ok((header, lines))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn benchmark_parts_built_with_the_same_files_at_other_paths_merge() {
        let header = |path: &str, digest: &str, positions: usize| {
            json!({
                "format": "bgkit-benchmark", "version": 1, "candidates": 4,
                "engine": {"weights": {"path": path, "digest": digest}, "bearoff_os": null},
                "input_rows": 3, "positions": positions,
            })
        };
        let parts = [
            (
                "a".to_string(),
                header("/usr/lib/gnubg/gnubg.wd", "ab", 1),
                vec!["x".to_string()],
            ),
            (
                "b".to_string(),
                header("copy/gnubg.wd", "ab", 2),
                vec!["y".into(), "z".into()],
            ),
        ];
        let (h, lines) = merge_benchmark(&parts).unwrap();
        assert_eq!(h, header("/usr/lib/gnubg/gnubg.wd", "ab", 3));
        assert_eq!(lines, ["x", "y", "z"]);
        let other = [
            parts[0].clone(),
            ("c".to_string(), header("copy/gnubg.wd", "cd", 1), vec![]),
        ];
        let e = merge_benchmark(&other).unwrap_err().to_string();
        assert!(
            e.contains("c and a are parts of different benchmark builds"),
            "{e}"
        );
    }
}

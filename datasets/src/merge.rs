//! Joining the outputs of shards into what one machine would have produced.
//!
//! With the input file, each input row takes the result of its position from whichever
//! part holds it (every part must agree on a position that appears in several, and
//! every input position must be found). Without it, the parts must be given in shard
//! order 1..N and are interleaved round robin, the inverse of [`crate::shard`].

use std::collections::HashMap;

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

//! Part files: one shard's records of one level, as the generator lays them out in a
//! level, behind a 64-byte header; the level's parts mapped read-only and seen as one
//! level (`LevelParts`); and the check that a level's parts cover it exactly once.
//!
//! Name: `L<level>-<K>of<N>.part` (numbers zero-padded to three digits), written under
//! a unique temporary name beside it (`NAME.tmp<pid>-<n>`) and renamed when complete. Header (little endian): magic `bgkitTSP`,
//! u32 version (1), u32 header size (64), u8 points, u8 checkers, u8 cubeful, a zero byte,
//! u32 level, u32 K, u32 N, u64 first record (offset in the level), u64 record count,
//! u64 checksum of the data (FNV-1a over its 64-bit little-endian words, the last one
//! zero-padded), zeros to 64 bytes. Data: the records' values as i16 (the generator's
//! signed equities), `planes` per record in the level's row layout.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use fileio::mmap::{HeaderSpec, MappedFile};
use fileio::AtomicFile;

use super::super::level_loop::LevelData;
use super::super::plan::Layout;
use super::slice::{slice_of, Shard, Slice};
use super::work::WorkPlan;
use crate::error::BearoffError;

const MAGIC: &[u8] = b"bgkitTSP";
const VERSION: u32 = 1;
const HEADER: usize = 64;
const SPEC: HeaderSpec<'static> = HeaderSpec {
    what: "bgkit two-sided part",
    magic: MAGIC,
    size: HEADER,
    version_at: 8,
    version: VERSION,
    header_size_at: Some(12),
};

/// The file name of `shard`'s part of `level`.
pub fn part_name(level: usize, shard: Shard) -> String {
    format!("L{level:03}-{:03}of{:03}.part", shard.k, shard.n)
}

/// The level and shard of a part file's name, if it is one.
pub fn parse_part_name(name: &str) -> Option<(usize, Shard)> {
    let rest = name.strip_prefix('L')?.strip_suffix(".part")?;
    let (level, shard) = rest.split_once('-')?;
    let (k, n) = shard.split_once("of")?;
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !(all_digits(level) && all_digits(k) && all_digits(n)) {
        return None;
    }
    let shard: Shard = format!("{k}/{n}").parse().ok()?;
    Some((level.parse().ok()?, shard))
}

/// FNV-1a over 64-bit little-endian words (the last one zero-padded).
pub(super) fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let mut last = [0u8; 8];
        last[..tail.len()].copy_from_slice(tail);
        h ^= u64::from_le_bytes(last);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Writes `values` (the records of `slice`) as `shard`'s part of `level`, atomically.
pub(super) fn write_part(
    dir: &Path,
    plan: &WorkPlan,
    level: usize,
    shard: Shard,
    slice: &Slice,
    values: &[i16],
) -> Result<PathBuf, BearoffError> {
    let path = dir.join(part_name(level, shard));
    let mut data = Vec::with_capacity(values.len() * 2);
    for v in values {
        data.extend_from_slice(&v.to_le_bytes());
    }
    let mut head = [0u8; HEADER];
    head[..8].copy_from_slice(MAGIC);
    head[8..12].copy_from_slice(&VERSION.to_le_bytes());
    head[12..16].copy_from_slice(&(HEADER as u32).to_le_bytes());
    let p = plan.params;
    head[16] = p.points;
    head[17] = p.checkers;
    head[18] = u8::from(p.cubeful);
    head[20..24].copy_from_slice(&(level as u32).to_le_bytes());
    head[24..28].copy_from_slice(&shard.k.to_le_bytes());
    head[28..32].copy_from_slice(&shard.n.to_le_bytes());
    head[32..40].copy_from_slice(&slice.first.to_le_bytes());
    head[40..48].copy_from_slice(&(slice.end - slice.first).to_le_bytes());
    head[48..56].copy_from_slice(&checksum(&data).to_le_bytes());
    // A unique temporary name: two workers may compute the same part at once (one took
    // over a claim it judged abandoned); both write the same bytes and rename in turn.
    let mut out = AtomicFile::create(&path)
        .map_err(|e| BearoffError::io(&path, "cannot create a temporary file for", e))?;
    let temp = out.temp_path().to_path_buf();
    out.write_all(&head)
        .and_then(|()| out.write_all(&data))
        .and_then(|()| out.commit())
        .map_err(|e| BearoffError::io(&temp, "cannot write", e))?;
    Ok(path)
}

/// One part, mapped and checked against what its name promises.
#[derive(Debug)]
pub(super) struct Part {
    map: MappedFile,
    /// First record (offset in the level).
    first: u64,
    /// Values (records × planes).
    values: usize,
    stored_checksum: u64,
}

impl Part {
    /// Maps the part at `path` and checks it is `shard`'s part of `level` of `plan`'s
    /// database, with the records `slice` says.
    pub(super) fn open(
        path: &Path,
        plan: &WorkPlan,
        level: usize,
        shard: Shard,
        slice: &Slice,
    ) -> Result<Part, BearoffError> {
        let map = MappedFile::open_with_header(path, &SPEC)?;
        let h = map.header(&SPEC)?;
        let p = plan.params;
        let b = map.bytes();
        let count = slice.end - slice.first;
        let planes: u64 = if p.cubeful { 4 } else { 1 };
        let stored = [
            u64::from(b[16]),
            u64::from(b[17]),
            u64::from(b[18]),
            u64::from(h.u32_at(20)),
            u64::from(h.u32_at(24)),
            u64::from(h.u32_at(28)),
            h.u64_at(32),
            h.u64_at(40),
        ];
        let want = [
            u64::from(p.points),
            u64::from(p.checkers),
            u64::from(p.cubeful),
            level as u64,
            u64::from(shard.k),
            u64::from(shard.n),
            slice.first,
            count,
        ];
        if stored != want {
            return Err(BearoffError::corrupt(
                path,
                format!(
                    "not shard {shard}'s part of level {level} of {}: header says {}x{} cubeful {}, level {}, shard {}/{}, records {}+{}",
                    plan.describe(),
                    stored[0], stored[1], stored[2], stored[3], stored[4], stored[5], stored[6], stored[7]
                ),
            ));
        }
        map.expect_len(HEADER as u64, count, planes * 2, format!("{count} records"))?;
        if cfg!(target_endian = "big") {
            return Err(BearoffError::InvalidParameters(
                "sharded two-sided builds read their parts in place and need a little-endian machine".into(),
            ));
        }
        Ok(Part {
            first: slice.first,
            values: (count * planes) as usize,
            stored_checksum: h.u64_at(48),
            map,
        })
    }

    fn data(&self) -> &[i16] {
        // Little endian (checked at open); the map is page-aligned and the header 64
        // bytes, so the data is aligned for i16.
        bytemuck::cast_slice(&self.map.bytes()[HEADER..HEADER + 2 * self.values])
    }

    /// Checks the stored checksum against the data.
    pub(super) fn verify(&self) -> Result<(), BearoffError> {
        let computed = checksum(&self.map.bytes()[HEADER..]);
        if computed != self.stored_checksum {
            return Err(BearoffError::corrupt(
                self.map.path(),
                format!(
                    "part checksum mismatch (stored {:016x}, computed {computed:016x}): delete it and rerun its task",
                    self.stored_checksum
                ),
            ));
        }
        Ok(())
    }
}

/// A finished level read from its parts: together they hold the level's values.
#[derive(Debug)]
pub(super) struct LevelParts {
    /// Value offset of each part's first value.
    starts: Vec<usize>,
    parts: Vec<Part>,
}

impl LevelParts {
    /// The parts (for checksums).
    pub(super) fn parts(&self) -> &[Part] {
        &self.parts
    }
}

impl LevelData for LevelParts {
    #[inline]
    fn values(&self, at: usize, len: usize) -> &[i16] {
        let i = if self.parts.len() == 1 {
            0
        } else {
            self.starts.partition_point(|&s| s <= at) - 1
        };
        &self.parts[i].data()[at - self.starts[i]..][..len]
    }
}

/// The part files in `dir`, by level (parts of one level by shard).
pub(super) type Listing = BTreeMap<usize, BTreeMap<Shard, PathBuf>>;

/// Lists the part files in `dir` (temporary files and claims are not parts).
pub(super) fn list_parts(dir: &Path) -> Result<Listing, BearoffError> {
    let mut listing = Listing::new();
    let entries =
        fs::read_dir(dir).map_err(|e| BearoffError::io(dir, "cannot list the work directory", e))?;
    for entry in entries {
        let entry = entry.map_err(|e| BearoffError::io(dir, "cannot list the work directory", e))?;
        let name = entry.file_name();
        if let Some((level, shard)) = name.to_str().and_then(parse_part_name) {
            listing.entry(level).or_default().insert(shard, entry.path());
        }
    }
    Ok(listing)
}

/// Whether `name` is a leftover [`remove_leftovers`] removes: a temporary part file
/// (`L*.part.tmp*`) or a claim (`L*.claim`).
fn is_leftover(name: &str) -> bool {
    name.starts_with('L') && (name.contains(".part.tmp") || name.ends_with(".claim"))
}

/// Whether `name` is one of a work directory's own files: its `plan`, a part, or a
/// leftover (claim, temporary part). Nothing else may be written under such a name.
pub fn is_work_file(name: &str) -> bool {
    name == "plan" || parse_part_name(name).is_some() || is_leftover(name)
}

/// Removes what killed or overtaken tasks left in `dir`: temporary part files
/// (`*.part.tmp*`) and claims (`*.claim`). For after the assembly, when no task runs.
/// Returns how many files were removed.
pub fn remove_leftovers(dir: &Path) -> Result<usize, BearoffError> {
    let entries =
        fs::read_dir(dir).map_err(|e| BearoffError::io(dir, "cannot list the work directory", e))?;
    let mut removed = 0;
    for entry in entries {
        let entry = entry.map_err(|e| BearoffError::io(dir, "cannot list the work directory", e))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if is_leftover(name) {
            match fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(BearoffError::io(&entry.path(), "cannot remove", e)),
            }
        }
    }
    Ok(removed)
}

/// Refuses to add parts of a split into `n` shards to `level` when `listing` holds parts
/// of another split of it (they would duplicate records); `hint(other n)` says what to
/// do instead.
pub(super) fn refuse_other_split(
    dir: &Path,
    listing: &Listing,
    level: usize,
    n: u32,
    hint: impl Fn(u32) -> String,
) -> Result<(), BearoffError> {
    match listing.get(&level).and_then(|parts| parts.keys().find(|sh| sh.n != n)) {
        Some(other) => Err(BearoffError::InvalidParameters(format!(
            "{}: level {level} already has parts of a split into {} shards; a split into {n} would duplicate records ({})",
            dir.display(),
            other.n,
            hint(other.n)
        ))),
        None => Ok(()),
    }
}

/// Checks that level `s` has exactly one complete split in `listing`: all of `1/N ..
/// N/N` for one `N`, and no part of another split (which would duplicate records).
/// Returns the parts in order.
pub(super) fn level_split(
    dir: &Path,
    listing: &Listing,
    s: usize,
) -> Result<Vec<(Shard, PathBuf)>, BearoffError> {
    let missing =
        |why: String| BearoffError::InvalidParameters(format!("{}: level {s} {why}", dir.display()));
    let Some(parts) = listing.get(&s) else {
        return Err(missing(format!(
            "has no part: run its tasks (--level {s} --shard K/N) first"
        )));
    };
    let mut splits: Vec<u32> = parts.keys().map(|sh| sh.n).collect();
    splits.sort_unstable();
    splits.dedup();
    if splits.len() > 1 {
        let names: Vec<String> = splits.iter().map(|n| format!("{n} shards")).collect();
        return Err(missing(format!(
            "has parts of more than one split ({}), which duplicate records: keep one split and delete the other's parts",
            names.join(", ")
        )));
    }
    let n = splits[0];
    let absent: Vec<String> = (1..=n)
        .filter(|&k| !parts.contains_key(&Shard { k, n }))
        .map(|k| part_name(s, Shard { k, n }))
        .collect();
    if !absent.is_empty() {
        let shown = absent.iter().take(8).cloned().collect::<Vec<_>>().join(", ");
        let more = if absent.len() > 8 {
            format!(" and {} more", absent.len() - 8)
        } else {
            String::new()
        };
        return Err(missing(format!(
            "is incomplete: {} of {n} shards missing ({shown}{more}); run those tasks",
            absent.len()
        )));
    }
    Ok(parts.iter().map(|(sh, p)| (*sh, p.clone())).collect())
}

/// Opens level `s` from its parts (checked with [`level_split`] and [`Part::open`]).
pub(super) fn open_level(
    layout: &Layout,
    plan: &WorkPlan,
    dir: &Path,
    listing: &Listing,
    s: usize,
) -> Result<LevelParts, BearoffError> {
    let planes = layout.planes;
    let mut starts = Vec::new();
    let mut parts = Vec::new();
    for (shard, path) in level_split(dir, listing, s)? {
        let slice = slice_of(layout, s, shard);
        let part = Part::open(&path, plan, s, shard, &slice)?;
        if part.values == 0 {
            continue;
        }
        starts.push(part.first as usize * planes);
        parts.push(part);
    }
    Ok(LevelParts { starts, parts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_names_round_trip_and_others_are_not_parts() {
        let sh = Shard { k: 2, n: 3 };
        assert_eq!(part_name(7, sh), "L007-002of003.part");
        assert_eq!(parse_part_name("L007-002of003.part"), Some((7, sh)));
        assert_eq!(
            parse_part_name("L123-1000of1200.part"),
            Some((123, Shard { k: 1000, n: 1200 }))
        );
        for other in [
            "L007-002of003.part.partial",
            "plan",
            "L007-004of003.part",
            "L7-x.part",
            "L-1of1.part",
        ] {
            assert_eq!(parse_part_name(other), None, "{other}");
        }
    }

    #[test]
    fn checksum_is_fnv1a_over_words() {
        // FNV-1a 64 of one zero word: offset basis times the prime (independent value:
        // 0xcbf29ce484222325 * 0x100000001b3 mod 2^64).
        assert_eq!(checksum(&[0; 8]), 0xaf63_bd4c_8601_b7df);
        assert_eq!(checksum(&[]), 0xcbf2_9ce4_8422_2325);
        // A short tail is zero-padded.
        assert_eq!(checksum(&[0; 3]), checksum(&[0; 8]));
        assert_ne!(checksum(&[1, 0]), checksum(&[0, 1]));
    }
}

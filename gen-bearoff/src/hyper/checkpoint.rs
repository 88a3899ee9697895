//! Checkpoints of a hypergammon solve, written after every iteration so that an
//! interrupted run resumes where it stopped and finishes with the same file as an
//! uninterrupted one.
//!
//! Layout (little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 0–39 | `bgkit-hyper-checkpoint-v1`, `x` padding, `\n` |
//! | 40 | checkers |
//! | 41 | method: 0 exact, 1 gnubg-compatible |
//! | 42 | dance rule (exact method): 0 correct, 1 gnubg's |
//! | 43 | bytes per value: 8 (`f64`) or 4 (`f32`) |
//! | 44–47 | iterations done (`u32`) |
//! | 48–71 | residuals of the last three iterations, latest first (`f64`, NaN if none) |
//! | 72–75 | iterations since the last extrapolation (`u32`) |
//! | 76 | phase of the exact solver: 0 equities, 1 probabilities |
//! | 77–79 | 0 |
//! | 80–87 | number of values (`u64`) |
//! | 88–95 | FNV-1a checksum of the values' bit patterns (`u64`) |
//! | 96– | the values |
//!
//! Which values, in which order, is the solver's business (see `generate.rs`). The file
//! is written under a temporary name and renamed, so a checkpoint is either the previous
//! one or the new one, never a torn mix.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::Path;

use crate::error::BearoffError;
use crate::output::AtomicOutput;

const MAGIC: &[u8] = b"bgkit-hyper-checkpoint-v1";
const HEADER: usize = 96;

/// What a checkpoint says about itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckpointMeta {
    /// Checkers per side.
    pub checkers: u8,
    /// 0 exact solver, 1 gnubg-compatible.
    pub method: u8,
    /// Dance rule of the exact solver (0 correct, 1 gnubg's).
    pub dance: u8,
    /// 8 for `f64` values, 4 for `f32`.
    pub width: u8,
    /// Phase of the exact solver (0 equities, 1 probabilities).
    pub phase: u8,
    /// Iterations completed.
    pub iteration: u32,
    /// Residuals of the last three iterations, latest first (NaN where there was none).
    pub residuals: [f64; 3],
    /// Iterations since the last extrapolation.
    pub since: u32,
    /// Number of values stored.
    pub values: u64,
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(0x0100_0000_01b3);
    }
}

/// Writes a checkpoint with the values `values()` yields (exactly `meta.values` of
/// them, as `f64`; stored as `f32` when `meta.width` is 4). `values` is called twice:
/// once for the checksum, once to write.
pub fn save<I: Iterator<Item = f64>>(
    path: &Path,
    meta: &CheckpointMeta,
    values: impl Fn() -> I,
) -> Result<(), BearoffError> {
    let bits = |v: f64| {
        if meta.width == 4 {
            u64::from((v as f32).to_bits())
        } else {
            v.to_bits()
        }
    };
    let mut hash = Fnv::new();
    let mut count = 0u64;
    for v in values() {
        hash.add(bits(v));
        count += 1;
    }
    if count != meta.values {
        return Err(BearoffError::InvalidParameters(format!(
            "checkpoint: {count} values, {} announced",
            meta.values
        )));
    }
    let mut w = AtomicOutput::create_scratch(path)?;
    let partial = w.partial().to_path_buf();
    let io = |e| BearoffError::io(&partial, "cannot write checkpoint", e);
    w.write_all(&header_bytes(meta, hash.0)).map_err(io)?;
    for v in values() {
        let b = bits(v);
        if meta.width == 4 {
            w.write_all(&(b as u32).to_le_bytes()).map_err(io)?;
        } else {
            w.write_all(&b.to_le_bytes()).map_err(io)?;
        }
    }
    w.commit()
}

fn header_bytes(meta: &CheckpointMeta, checksum: u64) -> [u8; HEADER] {
    let mut h = [b'x'; HEADER];
    h[..MAGIC.len()].copy_from_slice(MAGIC);
    h[39] = b'\n';
    h[40] = meta.checkers;
    h[41] = meta.method;
    h[42] = meta.dance;
    h[43] = meta.width;
    h[44..48].copy_from_slice(&meta.iteration.to_le_bytes());
    for (k, r) in meta.residuals.iter().enumerate() {
        h[48 + 8 * k..56 + 8 * k].copy_from_slice(&r.to_bits().to_le_bytes());
    }
    h[72..76].copy_from_slice(&meta.since.to_le_bytes());
    h[76] = meta.phase;
    h[77..80].fill(0);
    h[80..88].copy_from_slice(&meta.values.to_le_bytes());
    h[88..96].copy_from_slice(&checksum.to_le_bytes());
    h
}

/// A checkpoint's header could not be read: too short (a damaged file), or not
/// readable at all (a directory at the checkpoint's name says "Is a directory").
fn header_error(path: &Path, e: std::io::Error) -> BearoffError {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        BearoffError::corrupt(path, "checkpoint shorter than its header")
    } else {
        BearoffError::io(path, "cannot read checkpoint", e)
    }
}

/// Reads a checkpoint's header (validated against the file size).
pub fn read_meta(path: &Path) -> Result<CheckpointMeta, BearoffError> {
    let mut f = File::open(path).map_err(|e| BearoffError::io(path, "cannot open checkpoint", e))?;
    let len = f
        .metadata()
        .map_err(|e| BearoffError::io(path, "cannot stat checkpoint", e))?
        .len();
    let mut h = [0u8; HEADER];
    f.read_exact(&mut h).map_err(|e| header_error(path, e))?;
    parse_header(path, &h, len).map(|(m, _)| m)
}

fn parse_header(path: &Path, h: &[u8; HEADER], len: u64) -> Result<(CheckpointMeta, u64), BearoffError> {
    if &h[..MAGIC.len()] != MAGIC || h[39] != b'\n' {
        return Err(BearoffError::corrupt(path, "not a bgkit hypergammon checkpoint"));
    }
    let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
    let meta = CheckpointMeta {
        checkers: h[40],
        method: h[41],
        dance: h[42],
        width: h[43],
        phase: h[76],
        iteration: u32_at(44),
        residuals: [0, 1, 2].map(|k| f64::from_bits(u64_at(48 + 8 * k))),
        since: u32_at(72),
        values: u64_at(80),
    };
    if !matches!(meta.width, 4 | 8) || meta.method > 1 || meta.dance > 1 || meta.phase > 1 {
        return Err(BearoffError::corrupt(
            path,
            "checkpoint header has invalid fields",
        ));
    }
    let expected = HEADER as u64 + meta.values * u64::from(meta.width);
    if len != expected {
        return Err(BearoffError::corrupt(
            path,
            format!("checkpoint should be {expected} bytes, is {len}"),
        ));
    }
    Ok((meta, u64_at(88)))
}

/// Reads a checkpoint, handing each value (as `f64`) to `sink` in order, then checks the
/// checksum.
pub fn load(path: &Path, mut sink: impl FnMut(u64, f64)) -> Result<CheckpointMeta, BearoffError> {
    let f = File::open(path).map_err(|e| BearoffError::io(path, "cannot open checkpoint", e))?;
    let len = f
        .metadata()
        .map_err(|e| BearoffError::io(path, "cannot stat checkpoint", e))?
        .len();
    let mut r = BufReader::with_capacity(1 << 20, f);
    let mut h = [0u8; HEADER];
    r.read_exact(&mut h).map_err(|e| header_error(path, e))?;
    let (meta, checksum) = parse_header(path, &h, len)?;
    let io = |e| BearoffError::io(path, "cannot read checkpoint", e);
    let mut hash = Fnv::new();
    let mut b8 = [0u8; 8];
    for i in 0..meta.values {
        let v = if meta.width == 4 {
            r.read_exact(&mut b8[..4]).map_err(io)?;
            let bits = u32::from_le_bytes([b8[0], b8[1], b8[2], b8[3]]);
            hash.add(u64::from(bits));
            f64::from(f32::from_bits(bits))
        } else {
            r.read_exact(&mut b8).map_err(io)?;
            let bits = u64::from_le_bytes(b8);
            hash.add(bits);
            f64::from_bits(bits)
        };
        sink(i, v);
    }
    if hash.0 != checksum {
        return Err(BearoffError::corrupt(path, "checkpoint checksum mismatch"));
    }
    Ok(meta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_damage_detection() {
        let dir = std::env::temp_dir().join(format!("bgkit-ckpt-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.ckpt");
        let meta = CheckpointMeta {
            checkers: 2,
            method: 0,
            dance: 0,
            width: 8,
            phase: 1,
            iteration: 7,
            residuals: [1.5e-6, 3e-6, f64::NAN],
            since: 2,
            values: 100,
        };
        save(&path, &meta, || (0..100).map(|i| f64::from(i) / 3.0)).unwrap();
        let mut got = Vec::new();
        let m = load(&path, |i, v| got.push((i, v))).unwrap();
        assert_eq!(m.residuals[..2], meta.residuals[..2]);
        assert!(m.residuals[2].is_nan());
        assert_eq!((m.iteration, m.since, m.values), (7, 2, 100));
        assert_eq!(got.len(), 100);
        assert_eq!(got[99], (99, 33.0));
        assert_eq!(read_meta(&path).unwrap().since, 2);
        // A flipped bit in the data is caught by the checksum, a short file by its size.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER + 17] ^= 4;
        std::fs::write(&path, &bytes).unwrap();
        assert!(load(&path, |_, _| {})
            .unwrap_err()
            .to_string()
            .contains("checksum"));
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(read_meta(&path).unwrap_err().to_string().contains("should be"));
        std::fs::write(&path, b"hello").unwrap();
        assert!(load(&path, |_, _| {}).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

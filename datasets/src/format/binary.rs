//! bgkit's binary dataset: a 64-byte header and fixed-size 56-byte records, little
//! endian, made to be memory-mapped by trainers.
//!
//! Header (offsets in bytes):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `BGKITDS` followed by a zero byte |
//! | 8 | 4 | format version (u32) = 1 |
//! | 12 | 4 | header size (u32) = 64 |
//! | 16 | 4 | record size (u32) = 56 |
//! | 20 | 4 | flags (u32): bit 0 set when every record has standard errors |
//! | 24 | 8 | record count (u64) |
//! | 32 | 8 | checksum (u64): FNV-1a 64 over all record bytes |
//! | 40 | 24 | reserved, zero |
//!
//! Record ([`Record`]):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 10 | gnubg position key (the 80-bit key of the Position ID) |
//! | 10 | 1 | class, gnubg's number under its default databases ([`crate::class`]) |
//! | 11 | 1 | flags: bit 0 set when `se` holds standard errors |
//! | 12 | 4 | rollout trials (u32; 0 unknown) |
//! | 16 | 20 | win, win gammon, win backgammon, lose gammon, lose backgammon (5 × f32) |
//! | 36 | 20 | their standard errors (5 × f32; zero when absent) |
//!
//! The file is `64 + 56 × count` bytes; readers reject any other length, an unknown
//! version, a record size they do not know, a checksum mismatch, and any record whose
//! values are out of range ([`Record::check`]: a class byte that is not a dataset
//! class, unknown flag bits, probabilities outside [0, 1], NaN, infinite or negative
//! standard errors), naming the file and the record; reading the samples also refuses
//! an invalid position key and a class byte that is not the position's class.

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use board::Position;
use bytemuck::{Pod, Zeroable};
use fileio::mmap::{HeaderSpec, MappedFile};
use fileio::Existing;

use super::Sample;
use crate::class::{dataset_class, DATASET_CLASSES};
use crate::error::DatasetError;
use crate::rng::Fnv1a;

/// The first 8 bytes of every binary dataset.
pub const MAGIC: [u8; 8] = *b"BGKITDS\0";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_SIZE: usize = 64;
/// Record size in bytes.
pub const RECORD_SIZE: usize = std::mem::size_of::<Record>();

const FLAG_SE: u32 = 1;

/// One record, exactly as stored (little endian).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Record {
    /// gnubg's 10-byte position key.
    pub key: [u8; 10],
    /// gnubg's class number.
    pub class: u8,
    /// Bit 0: `se` is present.
    pub flags: u8,
    /// Rollout trials (0 unknown).
    pub trials: u32,
    /// The five probabilities for the side on roll.
    pub probs: [f32; 5],
    /// Their standard errors.
    pub se: [f32; 5],
}

const _: () = assert!(RECORD_SIZE == 56);

impl Record {
    /// The record of a sample.
    pub fn of(s: &Sample) -> Record {
        Record {
            key: s.position.key(),
            class: dataset_class(&s.position) as u8,
            flags: u8::from(s.se.is_some()),
            trials: s.trials,
            probs: s.probs,
            se: s.se.unwrap_or([0.0; 5]),
        }
    }

    /// Checks the values a record can hold without decoding its position: a known class
    /// byte, known flag bits, probabilities in [0, 1] and standard errors that are
    /// finite and not negative (zero when absent). An error text says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if !DATASET_CLASSES.iter().any(|&c| c as u8 == self.class) {
            let known: Vec<String> = DATASET_CLASSES.iter().map(|&c| (c as u8).to_string()).collect();
            return Err(format!(
                "class byte {} is not a dataset class ({})",
                self.class,
                known.join(", ")
            ));
        }
        if self.flags > 1 {
            return Err(format!(
                "flags byte {:#04x} has unknown bits (only bit 0 is used)",
                self.flags
            ));
        }
        if self.probs.iter().any(|p| !(0.0..=1.0).contains(p)) {
            return Err(format!("probabilities {:?} outside [0, 1]", self.probs));
        }
        if self.se.iter().any(|e| !e.is_finite() || *e < 0.0) {
            return Err(format!(
                "standard errors {:?} are not finite numbers >= 0",
                self.se
            ));
        }
        if self.flags & 1 == 0 && self.se.iter().any(|&e| e != 0.0) {
            return Err(format!(
                "standard errors {:?} without the flag that says they are present",
                self.se
            ));
        }
        Ok(())
    }

    /// The position of this record (an error text if the key is invalid).
    pub fn position(&self) -> Result<Position, String> {
        Position::from_key(&self.key).map_err(|(reason, e)| match e {
            Some(e) => format!("the key decodes to an invalid position: {e}"),
            None => format!("invalid position key: {reason}"),
        })
    }

    /// The record's position, checked as every reader checks it: a valid key and a
    /// class byte that is the position's class. An error text says what is wrong.
    pub fn checked_position(&self) -> Result<Position, String> {
        let position = self.position()?;
        let class = dataset_class(&position) as u8;
        if self.class != class {
            return Err(format!(
                "class byte {} but the position is of class {class}",
                self.class
            ));
        }
        Ok(position)
    }
}

fn check_endian(path: &Path) -> Result<(), DatasetError> {
    if cfg!(target_endian = "big") {
        return Err(DatasetError::file(
            path,
            "binary datasets are little endian; this machine is big endian",
        ));
    }
    Ok(())
}

/// Writes a binary dataset (to a temporary name, put in place when complete as
/// `existing` says).
pub fn write(path: &Path, samples: &[Sample], existing: Existing) -> Result<(), DatasetError> {
    check_endian(path)?;
    let result = (|| -> std::io::Result<()> {
        let mut file = fileio::AtomicFile::create(path)?;
        file.write_all(&[0u8; HEADER_SIZE])?;
        let mut sum = Fnv1a::default();
        for s in samples {
            let r = Record::of(s);
            let bytes = bytemuck::bytes_of(&r);
            sum.update(bytes);
            file.write_all(bytes)?;
        }
        let all_se = !samples.is_empty() && samples.iter().all(|s| s.se.is_some());
        let header = header_bytes(
            samples.len() as u64,
            sum.finish(),
            if all_se { FLAG_SE } else { 0 },
        );
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&header)?;
        file.commit_with(existing)
    })();
    result.map_err(|e| DatasetError::io(path, e))
}

fn header_bytes(count: u64, checksum: u64, flags: u32) -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[0..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_SIZE as u32).to_le_bytes());
    h[16..20].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    h[20..24].copy_from_slice(&flags.to_le_bytes());
    h[24..32].copy_from_slice(&count.to_le_bytes());
    h[32..40].copy_from_slice(&checksum.to_le_bytes());
    h
}

/// A binary dataset opened by memory-mapping.
pub struct BinaryDataset {
    file: MappedFile,
    count: usize,
    flags: u32,
    path: String,
}

impl std::fmt::Debug for BinaryDataset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "BinaryDataset {{ path: {}, count: {} }}",
            self.path, self.count
        )
    }
}

impl BinaryDataset {
    /// Opens and checks a binary dataset (header, size, checksum).
    pub fn open(path: &Path) -> Result<BinaryDataset, DatasetError> {
        check_endian(path)?;
        let spec = HeaderSpec {
            what: "bgkit binary dataset",
            magic: &MAGIC,
            size: HEADER_SIZE,
            version_at: 8,
            version: VERSION,
            header_size_at: Some(12),
        };
        let file = MappedFile::open(path)?;
        let len = file.bytes().len();
        let magic = len.min(MAGIC.len());
        if len < HEADER_SIZE && magic > 0 && file.bytes()[..magic] == MAGIC[..magic] {
            // The magic is there (or its start): the file was cut, not of another kind.
            return Err(DatasetError::file(
                path,
                format!(
                    "truncated bgkit binary dataset: {len} bytes, shorter than its {HEADER_SIZE}-byte header"
                ),
            ));
        }
        let h = file.header(&spec)?;
        h.expect_u32(16, "record size", RECORD_SIZE as u32)?;
        let count = h.u64_at(24);
        file.expect_len(
            HEADER_SIZE as u64,
            count,
            RECORD_SIZE as u64,
            format!("{count} records"),
        )?;
        h.expect_checksum(32, Fnv1a::of(&file.bytes()[HEADER_SIZE..]))?;
        let flags = h.u32_at(20);
        let records: &[Record] = bytemuck::try_cast_slice(&file.bytes()[HEADER_SIZE..])
            .map_err(|e| DatasetError::file(path, format!("the records cannot be mapped: {e}")))?;
        // The checksum only says the bytes are the ones written; every value is checked
        // too, so a reader (a trainer mapping the records) never sees a NaN or an
        // unknown class.
        for (i, r) in records.iter().enumerate() {
            r.check()
                .map_err(|m| DatasetError::file(path, format!("record {} of {count}: {m}", i + 1)))?;
            if flags & FLAG_SE != 0 && r.flags & 1 == 0 {
                return Err(DatasetError::file(
                    path,
                    format!(
                        "record {} of {count} has no standard errors, the header says every record has them",
                        i + 1
                    ),
                ));
            }
        }
        Ok(BinaryDataset {
            count: count as usize,
            flags,
            file,
            path: path.display().to_string(),
        })
    }

    /// The records, straight from the mapped file.
    pub fn records(&self) -> &[Record] {
        bytemuck::try_cast_slice(&self.file.bytes()[HEADER_SIZE..])
            .expect("size and alignment checked on open")
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are no records.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether every record has standard errors.
    pub fn has_se(&self) -> bool {
        self.flags & FLAG_SE != 0
    }

    /// The records as samples (checking every key and value).
    pub fn samples(&self) -> Result<Vec<Sample>, DatasetError> {
        let path = Path::new(&self.path);
        self.records()
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let bad = |m: String| DatasetError::file(path, format!("record {}: {m}", i + 1));
                r.check().map_err(bad)?;
                let position = r.checked_position().map_err(bad)?;
                Ok(Sample {
                    position,
                    probs: r.probs,
                    se: (r.flags & 1 != 0).then_some(r.se),
                    trials: r.trials,
                })
            })
            .collect()
    }
}

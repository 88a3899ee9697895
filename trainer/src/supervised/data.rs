//! Training data for one net class: the positions of that class in one or more
//! dataset files, their targets, and the net inputs of a chunk of them.
//!
//! Binary datasets (`.bgds`) are memory-mapped and read in place; CSV and gnubg-nn
//! text files are read into memory as the same fixed-size records. Every record of the
//! class is checked when the files are opened (the key decodes to a legal position,
//! the five targets are numbers in [0, 1]), so training never meets a bad record. The
//! class of a position is recomputed from the position (gnubg's classes under its
//! default bearoff databases, as in the dataset files).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use board::Position;
use datasets::class::dataset_class;
use datasets::format::binary::{BinaryDataset, Record};
use datasets::format::{Format, Input};
use datasets::rng::Fnv1a;
use evaluator::PositionClass;
use serde::{Deserialize, Serialize};

use super::net::Chunk;
use crate::encoding::Encoding;
use crate::error::TrainerError;

/// The classes a net is trained for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NetClass {
    /// Contact positions (gnubg's contact net).
    Contact,
    /// Crashed positions.
    Crashed,
    /// Races.
    Race,
}

impl NetClass {
    /// The evaluator's class.
    pub fn position_class(self) -> PositionClass {
        match self {
            NetClass::Contact => PositionClass::Contact,
            NetClass::Crashed => PositionClass::Crashed,
            NetClass::Race => PositionClass::Race,
        }
    }

    /// All three, in gnubg's weights-file order.
    pub const ALL: [NetClass; 3] = [NetClass::Contact, NetClass::Race, NetClass::Crashed];
}

impl fmt::Display for NetClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.position_class().name())
    }
}

impl FromStr for NetClass {
    type Err = String;
    fn from_str(s: &str) -> Result<NetClass, String> {
        match s {
            "contact" => Ok(NetClass::Contact),
            "crashed" => Ok(NetClass::Crashed),
            "race" => Ok(NetClass::Race),
            _ => Err(format!("unknown class '{s}' (expected contact, crashed or race)")),
        }
    }
}

/// What is known of one input file, for checkpoints and reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileInfo {
    /// The path as given.
    pub path: String,
    /// Records in the file.
    pub records: u64,
    /// Records of the trained class.
    pub class_records: u64,
    /// FNV-1a 64 digest of the records (hex).
    pub digest: String,
}

enum Records {
    Mapped(BinaryDataset),
    Memory(Vec<Record>),
}

impl Records {
    fn get(&self) -> &[Record] {
        match self {
            Records::Mapped(d) => d.records(),
            Records::Memory(v) => v,
        }
    }
}

/// The positions of one class in a set of dataset files.
pub struct ClassData {
    class: NetClass,
    sources: Vec<Records>,
    /// (file, record) of every position of the class, in file order.
    items: Vec<(u32, u32)>,
    files: Vec<FileInfo>,
    /// The net inputs of every position, row after row, when they fit the memory
    /// allowance ([`ClassData::cache_inputs`]).
    cache: Option<(usize, Vec<f32>)>,
}

/// Decodes a position key that was checked when the files were opened (the checked
/// decoder's work without its checks): each slot is a run of 1-bits ended by a 0-bit.
fn decode_checked(key: &[u8; 10]) -> Position {
    let mut b = [0u8; 16];
    b[..10].copy_from_slice(key);
    let mut bits = u128::from_le_bytes(b);
    let mut sides = [[0u8; 25]; 2];
    for side in sides.iter_mut() {
        for slot in side.iter_mut() {
            let n = bits.trailing_ones();
            *slot = n as u8;
            // At most 30 ones and 50 zeros: never a shift by 128.
            bits >>= n + 1;
        }
    }
    Position::new_unchecked(sides[0], sides[1])
}

impl fmt::Debug for ClassData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ClassData {{ class: {}, positions: {}, files: {:?} }}",
            self.class,
            self.items.len(),
            self.files
        )
    }
}

fn dataset_error(e: datasets::DatasetError) -> TrainerError {
    TrainerError::Invalid(e.to_string())
}

impl ClassData {
    /// Opens the files and collects the positions of `class`. A file without any is an
    /// error naming the classes it does hold.
    pub fn open(paths: &[PathBuf], class: NetClass) -> Result<ClassData, TrainerError> {
        if paths.is_empty() {
            return Err(TrainerError::Invalid("no training data given".into()));
        }
        let mut sources = Vec::new();
        let mut items = Vec::new();
        let mut files: Vec<FileInfo> = Vec::new();
        for (f, path) in paths.iter().enumerate() {
            let input = Input::open(path).map_err(dataset_error)?;
            let records = match input.format().map_err(dataset_error)? {
                Format::Binary => Records::Mapped(input.binary().map_err(dataset_error)?),
                other => {
                    let samples = input.samples(other).map_err(dataset_error)?;
                    Records::Memory(samples.iter().map(Record::of).collect())
                }
            };
            let recs = records.get();
            if recs.len() > u32::MAX as usize {
                return Err(TrainerError::format(path, "more than 2^32 records"));
            }
            let mut counts = [0u64; 11];
            let before = items.len();
            for (i, r) in recs.iter().enumerate() {
                let bad = |m: String| TrainerError::format(path, format!("record {}: {m}", i + 1));
                if let Some(p) = r.probs.iter().find(|p| !(0.0..=1.0).contains(*p)) {
                    return Err(bad(format!("target {p} is not a probability in [0, 1]")));
                }
                // The checks the datasets readers make of every record: its values
                // (`Record::check`, made by `BinaryDataset::open` already), its key and
                // its class byte against the position's class.
                let pos = r.checked_position().map_err(bad)?;
                let c = dataset_class(&pos);
                counts[c as usize] += 1;
                if c != class.position_class() {
                    continue;
                }
                items.push((f as u32, i as u32));
            }
            let found = (items.len() - before) as u64;
            if found == 0 {
                let held: Vec<String> = counts
                    .iter()
                    .enumerate()
                    .filter(|(_, &n)| n > 0)
                    .map(|(c, n)| {
                        let name = PositionClass::from_number(c as u8).map_or("?", PositionClass::name);
                        format!("{n} {name}")
                    })
                    .collect();
                return Err(TrainerError::format(
                    path,
                    format!(
                        "holds no {class} positions to train the {class} net on (it has {})",
                        if held.is_empty() {
                            "no records".into()
                        } else {
                            held.join(", ")
                        }
                    ),
                ));
            }
            let info = FileInfo {
                path: path.display().to_string(),
                records: recs.len() as u64,
                class_records: found,
                digest: format!("{:016x}", Fnv1a::of(bytemuck::cast_slice(recs))),
            };
            // The same data twice would put copies of validation positions into
            // training: refused, whether it is the same file or the same records.
            let canonical = std::fs::canonicalize(path).ok();
            for (j, other) in files.iter().enumerate() {
                let same_file = canonical.is_some() && canonical == std::fs::canonicalize(&paths[j]).ok();
                if same_file || (other.digest == info.digest && other.records == info.records) {
                    return Err(TrainerError::Invalid(format!(
                        "--data {} and --data {} are the same data ({}); give each dataset once \
                         (a copy would put validation positions into training)",
                        other.path,
                        info.path,
                        if same_file {
                            "the same file".to_string()
                        } else {
                            format!("the same {} records, digest {}", info.records, info.digest)
                        }
                    )));
                }
            }
            files.push(info);
            sources.push(records);
        }
        Ok(ClassData {
            class,
            sources,
            items,
            files,
            cache: None,
        })
    }

    /// An in-memory set of records (synthetic data for benchmarks and tests).
    pub fn from_records(
        class: NetClass,
        name: &str,
        records: Vec<Record>,
    ) -> Result<ClassData, TrainerError> {
        let items = records
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.position()
                    .is_ok_and(|p| dataset_class(&p) == class.position_class())
            })
            .map(|(i, _)| (0u32, i as u32))
            .collect::<Vec<_>>();
        if items.is_empty() {
            return Err(TrainerError::Invalid(format!("{name}: no {class} positions")));
        }
        let files = vec![FileInfo {
            path: name.into(),
            records: records.len() as u64,
            class_records: items.len() as u64,
            digest: format!("{:016x}", Fnv1a::of(bytemuck::cast_slice(&records))),
        }];
        Ok(ClassData {
            class,
            sources: vec![Records::Memory(records)],
            items,
            files,
            cache: None,
        })
    }

    /// The class.
    pub fn class(&self) -> NetClass {
        self.class
    }

    /// Number of positions of the class.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there are none (never, once opened).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The files.
    pub fn files(&self) -> &[FileInfo] {
        &self.files
    }

    /// Position `i` of the class and its targets.
    pub fn get(&self, i: usize) -> (Position, [f32; 5]) {
        let (f, r) = self.items[i];
        let rec = &self.sources[f as usize].get()[r as usize];
        (decode_checked(&rec.key), rec.probs)
    }

    /// Computes the net inputs of every position once (in parallel), if they take at
    /// most `max_bytes`; [`ClassData::fill`] then copies them. Returns whether it did.
    pub fn cache_inputs(&mut self, encoding: Encoding, fixed_pip_loss: bool, max_bytes: u64) -> bool {
        use rayon::prelude::*;
        let class = self.class.position_class();
        let n = encoding.inputs(class);
        if (self.items.len() as u64).saturating_mul(n as u64 * 4) > max_bytes {
            self.cache = None;
            return false;
        }
        let mut values = vec![0f32; self.items.len() * n];
        values.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
            let (pos, _) = self.get(i);
            encoding.write(class, &pos, fixed_pip_loss, row);
        });
        self.cache = Some((n, values));
        true
    }

    /// Whether the inputs are cached.
    pub fn cached(&self) -> bool {
        self.cache.is_some()
    }

    /// Fills `chunk` with the inputs and targets of positions `indices` (at most
    /// [`super::net::CHUNK`]).
    pub fn fill(&self, indices: &[u32], encoding: Encoding, fixed_pip_loss: bool, chunk: &mut Chunk) {
        let class = self.class.position_class();
        chunk.rows = indices.len();
        for (r, &i) in indices.iter().enumerate() {
            let i = i as usize;
            let (f, rec) = self.items[i];
            let t = self.sources[f as usize].get()[rec as usize].probs;
            match &self.cache {
                Some((n, values)) => chunk.input_row(r).copy_from_slice(&values[i * n..(i + 1) * n]),
                None => {
                    let (pos, _) = self.get(i);
                    encoding.write(class, &pos, fixed_pip_loss, chunk.input_row(r));
                }
            }
            for (k, v) in t.iter().enumerate() {
                chunk.t[[r, k]] = *v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_key_decoder_agrees_with_the_checked_one() {
        let mut gen = board::MoveGen::new();
        let mut dice = board::DiceStream::new(11);
        let mut pos = board::Variant::Backgammon.start();
        for _ in 0..2000 {
            assert_eq!(decode_checked(&pos.key()), pos);
            let r = gen.positions(&pos, dice.roll());
            if !r.is_empty() {
                pos = r[dice.below(r.len() as u32) as usize];
            }
            pos = pos.swapped();
            if pos.sides().iter().any(|s| s.iter().all(|&n| n == 0)) {
                pos = board::Variant::Backgammon.start();
            }
        }
    }
}

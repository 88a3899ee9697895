//! Reading hypergammon databases through a memory map.
//!
//! Layout after the 40-byte `gnubg-H<C>` header: record `us * n + them` (side on roll
//! first, `n = binom(25 + C, C)`) at `record * 28`; see [`super::record`].

use std::path::Path;

use board::Position;

use super::record::{HyperRecord, RECORD_LEN};
use super::space::{classify, Class, MAX_HYPER_CHECKERS, SLOTS};
use crate::error::BearoffError;
use crate::format::header::{HeaderStyle, Kind};
use crate::format::index::PositionIndex;
use crate::format::mapped::MappedFile;
use crate::format::square::SquareFile;

/// A hypergammon database opened for reading.
#[derive(Debug)]
pub struct HyperDb {
    square: SquareFile,
    checkers: u8,
}

impl HyperDb {
    /// Opens a hypergammon database (gnubg's `gnubg-H<C>` header).
    pub fn open(path: impl AsRef<Path>) -> Result<HyperDb, BearoffError> {
        MappedFile::open_as(
            path.as_ref(),
            "a hypergammon database",
            |file, kind, style| match kind {
                Kind::Hypergammon { checkers } => Some(HyperDb::from_file(file, checkers, style)),
                _ => None,
            },
        )
    }

    /// Opens a headerless file of `checkers`-checker records (gnubg never writes one, but
    /// the layout is the same after the header).
    pub fn open_headerless(path: impl AsRef<Path>, checkers: u8) -> Result<HyperDb, BearoffError> {
        HyperDb::from_file(MappedFile::open(path.as_ref())?, checkers, HeaderStyle::None)
    }

    /// Validates the size and builds the reader.
    pub fn from_file(file: MappedFile, checkers: u8, style: HeaderStyle) -> Result<HyperDb, BearoffError> {
        if !(1..=MAX_HYPER_CHECKERS).contains(&usize::from(checkers)) {
            return Err(BearoffError::WrongKind {
                path: file.path().to_path_buf(),
                why: format!(
                    "hypergammon databases have 1 to {MAX_HYPER_CHECKERS} checkers, this one says {checkers}"
                ),
            });
        }
        if style == HeaderStyle::Wide {
            return Err(BearoffError::WrongKind {
                path: file.path().to_path_buf(),
                why: "hypergammon databases have no wide variant (they use gnubg's header)".into(),
            });
        }
        let index = PositionIndex::new(SLOTS, usize::from(checkers)).expect("1-3 checkers");
        let square = SquareFile::new(file, style, index, RECORD_LEN as u64, "hypergammon records")?;
        Ok(HyperDb { square, checkers })
    }

    /// Checkers per side.
    pub fn checkers(&self) -> u8 {
        self.checkers
    }

    /// The header style.
    pub fn style(&self) -> HeaderStyle {
        self.square.style()
    }

    /// One-sided positions per side.
    pub fn positions_per_side(&self) -> u64 {
        self.square.positions_per_side()
    }

    /// Number of records (`n²`).
    pub fn count(&self) -> u64 {
        self.square.count()
    }

    /// The one-sided ranking (25 slots).
    pub fn index(&self) -> &PositionIndex {
        self.square.index()
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.square.path()
    }

    /// Record index of a pair of one-sided indices (side on roll first).
    pub fn record_index(&self, us: u64, them: u64) -> Result<u64, BearoffError> {
        self.square.record_index(us, them)
    }

    /// Record `index` (`us * n + them`). A non-zero padding byte is reported as
    /// corruption.
    pub fn record(&self, index: u64) -> Result<HyperRecord, BearoffError> {
        let bytes = self.square.record_bytes(index)?;
        if !HyperRecord::padding_ok(bytes) {
            return Err(BearoffError::corrupt(
                self.path(),
                format!("record {index} has a non-zero padding byte"),
            ));
        }
        Ok(HyperRecord::from_bytes(bytes))
    }

    /// One-sided indices (on roll, opponent) of a position. Fails for a side with more
    /// than `C` checkers and for a board where both sides share a point.
    pub fn indices_of(&self, pos: &Position) -> Result<(u64, u64), BearoffError> {
        let rank = |side: &[u8]| {
            self.index().rank(side).ok_or_else(|| {
                BearoffError::NotCovered(format!(
                    "a {}-checker hypergammon database holds sides with at most {} checkers",
                    self.checkers, self.checkers
                ))
            })
        };
        if classify(pos.on_roll(), pos.opponent()) == Class::Illegal {
            return Err(BearoffError::NotCovered(
                "both sides have checkers on the same point".into(),
            ));
        }
        Ok((rank(pos.on_roll())?, rank(pos.opponent())?))
    }

    /// The record of a position (player on roll in `sides()[1]`, before rolling).
    pub fn record_of(&self, pos: &Position) -> Result<HyperRecord, BearoffError> {
        let (us, them) = self.indices_of(pos)?;
        self.record(self.record_index(us, them)?)
    }
}

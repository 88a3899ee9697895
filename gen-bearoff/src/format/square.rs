//! The layout two-sided and hypergammon databases share: after the header (if any),
//! `n × n` records of one length, record `us * n + them` for the one-sided ranks of the
//! side on roll (`us`) and its opponent, `n` one-sided positions per side.

use std::path::Path;

use crate::error::BearoffError;
use crate::format::header::HeaderStyle;
use crate::format::index::PositionIndex;
use crate::format::mapped::MappedFile;

/// A mapped file of `n × n` records of one length, checked to be exactly that long.
#[derive(Debug)]
pub struct SquareFile {
    file: MappedFile,
    style: HeaderStyle,
    index: PositionIndex,
    n: u64,
    base: u64,
    record_len: u64,
}

impl SquareFile {
    /// The records of `file`: its header by `style`, then `n²` records of `record_len`
    /// bytes (`n`: `index`'s count), or a corruption error if the length differs
    /// (`what` names the records in it).
    pub fn new(
        file: MappedFile,
        style: HeaderStyle,
        index: PositionIndex,
        record_len: u64,
        what: &str,
    ) -> Result<SquareFile, BearoffError> {
        let n = index.count();
        let base = style.data_offset();
        let expected = base + n * n * record_len;
        if file.len() != expected {
            return Err(BearoffError::corrupt(
                file.path(),
                format!(
                    "{n}x{n} {what} need {expected} bytes, the file has {}",
                    file.len()
                ),
            ));
        }
        Ok(SquareFile {
            file,
            style,
            index,
            n,
            base,
            record_len,
        })
    }

    /// The bytes of record `index` (`us * n + them`).
    pub fn record_bytes(&self, index: u64) -> Result<&[u8], BearoffError> {
        BearoffError::check_index(index, self.count())?;
        self.file
            .slice(self.base + index * self.record_len, self.record_len)
    }

    /// The header style.
    pub fn style(&self) -> HeaderStyle {
        self.style
    }

    /// One-sided positions per side.
    pub fn positions_per_side(&self) -> u64 {
        self.n
    }

    /// Number of records (`n²`).
    pub fn count(&self) -> u64 {
        self.n * self.n
    }

    /// The one-sided ranking.
    pub fn index(&self) -> &PositionIndex {
        &self.index
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// Record index of a pair of one-sided indices (side on roll first).
    pub fn record_index(&self, us: u64, them: u64) -> Result<u64, BearoffError> {
        BearoffError::pair_index(us, them, self.n)
    }
}

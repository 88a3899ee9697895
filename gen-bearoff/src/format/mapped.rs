//! A read-only memory-mapped database file ([`fileio::mmap::MappedFile`]) with
//! bounds-checked access and errors that name the file, as [`BearoffError`]s.

use std::path::Path;

use fileio::mmap::{MapError, MapErrorKind};

use crate::error::BearoffError;
use crate::format::header::{Header, HeaderStyle, Kind};
use crate::format::index::PositionIndex;

/// A whole file mapped read-only. Every access is bounds-checked: a truncated file gives
/// [`BearoffError::Corrupt`], never a panic.
#[derive(Debug)]
pub struct MappedFile(fileio::mmap::MappedFile);

impl From<MapError> for BearoffError {
    fn from(e: MapError) -> BearoffError {
        match e.kind {
            MapErrorKind::Io { action, error } => BearoffError::io(&e.path, action, error),
            kind => BearoffError::corrupt(&e.path, kind.to_string()),
        }
    }
}

impl MappedFile {
    /// Maps `path` read-only.
    pub fn open(path: &Path) -> Result<MappedFile, BearoffError> {
        Ok(MappedFile(fileio::mmap::MappedFile::open(path)?))
    }

    /// Maps `path` and parses its header (gnubg's 40-byte text header; an error names
    /// the file).
    pub fn open_with_header(path: &Path) -> Result<(MappedFile, Header), BearoffError> {
        let file = MappedFile::open(path)?;
        let header = Header::parse(file.bytes()).map_err(|source| BearoffError::Header {
            path: path.to_path_buf(),
            source,
        })?;
        Ok((file, header))
    }

    /// Maps `path`, parses its header and hands the file, the header's kind and style
    /// to `build`, which returns `None` for a kind it does not read: that is an error
    /// saying the file is not `expected` (e.g. "a one-sided database").
    pub fn open_as<T>(
        path: &Path,
        expected: &str,
        build: impl FnOnce(MappedFile, Kind, HeaderStyle) -> Option<Result<T, BearoffError>>,
    ) -> Result<T, BearoffError> {
        let (file, header) = MappedFile::open_with_header(path)?;
        build(file, header.kind, header.style).unwrap_or_else(|| {
            Err(BearoffError::WrongKind {
                path: path.to_path_buf(),
                why: format!("expected {expected}, found {}", header.kind),
            })
        })
    }

    /// The ranking of one side's positions of `points` points and `checkers` checkers
    /// (at most 24 points), or an error naming this file as of an unsupported size.
    pub fn position_index(&self, points: u8, checkers: u8) -> Result<PositionIndex, BearoffError> {
        PositionIndex::new(usize::from(points), usize::from(checkers))
            .filter(|_| points <= 24)
            .ok_or_else(|| BearoffError::WrongKind {
                path: self.path().to_path_buf(),
                why: format!("unsupported size {points}x{checkers}"),
            })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Length in bytes.
    pub fn len(&self) -> u64 {
        self.0.len()
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// All bytes.
    pub fn bytes(&self) -> &[u8] {
        self.0.bytes()
    }

    /// `len` bytes at `offset`, or a corruption error naming the file.
    pub fn slice(&self, offset: u64, len: u64) -> Result<&[u8], BearoffError> {
        Ok(self.0.slice(offset, len)?)
    }
}

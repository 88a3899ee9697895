//! The library's error types: [`BearoffError`], and [`HeaderError`] for a header that
//! cannot be read. A leaf module: it depends on no other part of the crate.

use std::path::{Path, PathBuf};

/// Everything that can go wrong generating or reading a database.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BearoffError {
    /// An operating-system error on a file.
    #[error("{}: {what}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        what: &'static str,
        /// The underlying error (in the message, not repeated as a source).
        error: std::io::Error,
    },
    /// The header is missing, foreign or damaged.
    #[error("{}: {source}", path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// What is wrong with the header.
        source: HeaderError,
    },
    /// The file's size or contents contradict its header.
    #[error("{}: corrupt or truncated database: {why}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is inconsistent.
        why: String,
    },
    /// The file holds a different kind of database than the operation needs.
    #[error("{}: {why}", path.display())]
    WrongKind {
        /// The file.
        path: PathBuf,
        /// Explanation.
        why: String,
    },
    /// An index beyond the database.
    #[error("index {index} is out of range (the database has {count} records)")]
    IndexOutOfRange {
        /// The index asked for.
        index: u64,
        /// Records in the database.
        count: u64,
    },
    /// A position that this database does not cover.
    #[error("position is not in this database: {0}")]
    NotCovered(String),
    /// Unsupported or inconsistent generation parameters.
    #[error("{0}")]
    InvalidParameters(String),
    /// Not enough memory allowed for the requested generation.
    #[error("{0}")]
    Memory(String),
    /// An iterative solve reached its iteration limit before converging.
    #[error("not converged after {iterations} iterations (residual {residual:.3e}, threshold {threshold:.1e}){hint}")]
    NotConverged {
        /// Iterations done.
        iterations: u32,
        /// Residual of the last one.
        residual: f64,
        /// The threshold asked for.
        threshold: f64,
        /// What the caller can do (e.g. where the checkpoint is).
        hint: String,
    },
}

impl BearoffError {
    /// `Ok` when `index < count`, else [`BearoffError::IndexOutOfRange`].
    pub fn check_index(index: u64, count: u64) -> Result<(), BearoffError> {
        if index < count {
            Ok(())
        } else {
            Err(BearoffError::IndexOutOfRange { index, count })
        }
    }

    /// The record index `us * n + them` of a pair of one-sided indices below `n` (side
    /// on roll first), as two-sided and hypergammon files number their records.
    pub fn pair_index(us: u64, them: u64, n: u64) -> Result<u64, BearoffError> {
        BearoffError::check_index(us, n)?;
        BearoffError::check_index(them, n)?;
        Ok(us * n + them)
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, what: &'static str, source: std::io::Error) -> BearoffError {
        BearoffError::Io {
            path: path.to_path_buf(),
            what,
            error: source,
        }
    }

    /// A corruption error on `path`.
    pub fn corrupt(path: &Path, why: impl Into<String>) -> BearoffError {
        BearoffError::Corrupt {
            path: path.to_path_buf(),
            why: why.into(),
        }
    }
}

/// Why 40 bytes are not a header this crate understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// Shorter than 40 bytes.
    #[error("file is {0} bytes, shorter than the 40-byte header")]
    TooShort(usize),
    /// Neither `gnubg` nor `bgkit` magic.
    #[error("not a bearoff database (header does not start with 'gnubg' or 'bgkit')")]
    UnknownMagic,
    /// Recognised magic but malformed fields.
    #[error("malformed header {text:?}: {why}")]
    Malformed {
        /// The header as text (lossy).
        text: String,
        /// What is wrong.
        why: String,
    },
}

//! The library's error type: every variant names the file or value at fault.

use evaluator::eval::EvalError;

/// Why a dataset operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DatasetError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A line or record of a file is malformed.
    #[error("{path}:{line}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// 1-based line number (record number for binary files).
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// A file as a whole is unusable (bad header, wrong size, checksum mismatch).
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A setting or argument is out of range.
    #[error("{0}")]
    Invalid(String),
    /// An evaluation failed (a bearoff database could not be read).
    #[error(transparent)]
    Eval(#[from] EvalError),
}

impl DatasetError {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> DatasetError {
        DatasetError::Io {
            path: path.display().to_string(),
            source,
        }
    }

    /// A malformed line of `path`.
    pub fn parse(path: &std::path::Path, line: u64, message: impl Into<String>) -> DatasetError {
        DatasetError::Parse {
            path: path.display().to_string(),
            line,
            message: message.into(),
        }
    }

    /// A problem with `path` as a whole.
    pub fn file(path: &std::path::Path, message: impl Into<String>) -> DatasetError {
        DatasetError::File {
            path: path.display().to_string(),
            message: message.into(),
        }
    }
}

impl From<fileio::mmap::MapError> for DatasetError {
    fn from(e: fileio::mmap::MapError) -> DatasetError {
        match e.kind {
            fileio::mmap::MapErrorKind::Io { error, .. } => DatasetError::io(&e.path, error),
            kind => DatasetError::file(&e.path, kind.to_string()),
        }
    }
}

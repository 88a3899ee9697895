//! An input read once: a dataset or positions file named by a path that may be a pipe
//! (`/dev/stdin`, a shell's `<(zcat data.csv.gz)`, a FIFO), which gives its bytes only
//! once. Recognising a file's format reads its start, and parsing reads it again from
//! the beginning; a stream is therefore read whole when it is opened, and both come from
//! those bytes. A regular file is read from disk each time, as before.

use std::io::Read;
use std::path::{Path, PathBuf};

use board::Position;

use super::binary::BinaryDataset;
use super::{csv, gnubg_nn, Format, Sample};
use crate::error::DatasetError;

/// An opened input: its path, and for a stream its whole contents.
#[derive(Debug)]
pub struct Input {
    path: PathBuf,
    /// The contents of anything that is neither a regular file nor a directory (a pipe,
    /// a socket, a character device), read when opened.
    stream: Option<Vec<u8>>,
}

impl Input {
    /// Opens `path`: a regular file is only checked to exist; anything else but a
    /// directory is read to its end now.
    pub fn open(path: &Path) -> Result<Input, DatasetError> {
        let meta = std::fs::metadata(path).map_err(|e| DatasetError::io(path, e))?;
        let stream = if meta.is_file() || meta.is_dir() {
            None
        } else {
            Some(std::fs::read(path).map_err(|e| DatasetError::io(path, e))?)
        };
        Ok(Input {
            path: path.to_path_buf(),
            stream,
        })
    }

    /// The path it was opened by.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether it is a stream, held in memory.
    pub fn is_stream(&self) -> bool {
        self.stream.is_some()
    }

    /// Its contents from the beginning.
    fn reader(&self) -> Result<Box<dyn Read + '_>, DatasetError> {
        Ok(match &self.stream {
            Some(bytes) => Box::new(bytes.as_slice()),
            None => Box::new(std::fs::File::open(&self.path).map_err(|e| DatasetError::io(&self.path, e))?),
        })
    }

    /// Its format, recognised as [`Format::detect`] does.
    pub fn format(&self) -> Result<Format, DatasetError> {
        // Up to 16 bytes, through short reads (a network or FUSE file), which must not
        // hide the magic or the header.
        let mut head = Vec::with_capacity(16);
        self.reader()?
            .take(16)
            .read_to_end(&mut head)
            .map_err(|e| DatasetError::io(&self.path, e))?;
        Ok(Format::of_start(&head, &self.path))
    }

    /// Its samples, read in `format`.
    pub fn samples(&self, format: Format) -> Result<Vec<Sample>, DatasetError> {
        match format {
            Format::Csv => csv::read_from(&self.path, self.reader()?),
            Format::GnubgNn => gnubg_nn::read_from(&self.path, self.reader()?),
            Format::Binary => self.binary()?.samples(),
        }
    }

    /// It as a binary dataset, memory-mapped: a stream is refused (it cannot be
    /// mapped).
    pub fn binary(&self) -> Result<BinaryDataset, DatasetError> {
        if self.is_stream() {
            return Err(DatasetError::file(
                &self.path,
                "a binary dataset is memory-mapped, so it must be a file, not a pipe or device: write it to a file first (or convert it to CSV)",
            ));
        }
        BinaryDataset::open(&self.path)
    }

    /// Whether it is a CSV file with the five target columns ([`csv::has_targets`]).
    pub fn has_targets(&self) -> Result<bool, DatasetError> {
        csv::has_targets_from(&self.path, self.reader()?)
    }

    /// Its `position_id` column, read as CSV ([`csv::read_position_ids`]).
    pub fn position_ids(&self) -> Result<Vec<Position>, DatasetError> {
        csv::read_position_ids_from(&self.path, self.reader()?)
    }

    /// Its positions: the `position_id` column of a CSV file, or the positions of any
    /// dataset file.
    pub fn positions(&self) -> Result<Vec<Position>, DatasetError> {
        Ok(match self.format()? {
            Format::Csv => self.position_ids()?,
            f => self.samples(f)?.into_iter().map(|s| s.position).collect(),
        })
    }
}

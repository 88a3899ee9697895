//! A read-only memory-mapped file with bounds-checked access and errors that name the
//! file.

use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::error::BearoffError;
use crate::format::header::Header;

/// A whole file mapped read-only. Every access is bounds-checked: a truncated file gives
/// [`BearoffError::Corrupt`], never a panic.
#[derive(Debug)]
pub struct MappedFile {
    path: PathBuf,
    map: Option<Mmap>,
}

impl MappedFile {
    /// Maps `path` read-only.
    pub fn open(path: &Path) -> Result<MappedFile, BearoffError> {
        let file = File::open(path).map_err(|e| BearoffError::io(path, "cannot open", e))?;
        let len = file
            .metadata()
            .map_err(|e| BearoffError::io(path, "cannot stat", e))?
            .len();
        // An empty file cannot be mapped on every platform; keep it unmapped.
        let map = if len == 0 {
            None
        } else {
            // SAFETY: the map is read-only. Another process truncating the file while it
            // is mapped could fault; that is inherent to memory-mapped databases (gnubg
            // maps them the same way) and documented in the README.
            Some(unsafe { Mmap::map(&file) }.map_err(|e| BearoffError::io(path, "cannot map", e))?)
        };
        Ok(MappedFile {
            path: path.to_path_buf(),
            map,
        })
    }

    /// Maps `path` and parses its header (an error names the file).
    pub fn open_with_header(path: &Path) -> Result<(MappedFile, Header), BearoffError> {
        let file = MappedFile::open(path)?;
        let header = Header::parse(file.bytes()).map_err(|source| BearoffError::Header {
            path: path.to_path_buf(),
            source,
        })?;
        Ok((file, header))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Length in bytes.
    pub fn len(&self) -> u64 {
        self.map.as_ref().map_or(0, |m| m.len() as u64)
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// All bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// `len` bytes at `offset`, or a corruption error naming the file.
    pub fn slice(&self, offset: u64, len: u64) -> Result<&[u8], BearoffError> {
        let bytes = self.bytes();
        let end = offset.checked_add(len);
        match end {
            Some(end) if end <= bytes.len() as u64 => Ok(&bytes[offset as usize..end as usize]),
            _ => Err(BearoffError::corrupt(
                &self.path,
                format!(
                    "record at byte {offset} (+{len}) lies beyond the end of the {}-byte file",
                    bytes.len()
                ),
            )),
        }
    }
}

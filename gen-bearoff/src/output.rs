//! Writing an output file safely: everything goes to `<file>.partial`, which is renamed
//! over `<file>` only once complete and flushed. On error (or drop before commit) the
//! partial file is removed, so `<file>` is never left half-written.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::BearoffError;

/// An output file being written under a temporary name.
#[derive(Debug)]
pub struct AtomicOutput {
    target: PathBuf,
    partial: PathBuf,
    writer: Option<BufWriter<File>>,
}

/// The temporary name used for `target`.
pub fn partial_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    target.with_file_name(name)
}

impl AtomicOutput {
    /// Creates `<target>.partial` (replacing a stale one).
    pub fn create(target: &Path) -> Result<AtomicOutput, BearoffError> {
        let partial = partial_path(target);
        let file = File::create(&partial).map_err(|e| BearoffError::io(&partial, "cannot create", e))?;
        Ok(AtomicOutput {
            target: target.to_path_buf(),
            partial,
            writer: Some(BufWriter::with_capacity(1 << 20, file)),
        })
    }

    /// The temporary path being written.
    pub fn partial(&self) -> &Path {
        &self.partial
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes, syncs and renames to the final name.
    pub fn commit(mut self) -> Result<(), BearoffError> {
        let writer = self.writer.take().expect("not yet committed");
        let file = writer
            .into_inner()
            .map_err(|e| BearoffError::io(&self.partial, "cannot write", e.into_error()))?;
        file.sync_all()
            .map_err(|e| BearoffError::io(&self.partial, "cannot sync", e))?;
        drop(file);
        fs::rename(&self.partial, &self.target)
            .map_err(|e| BearoffError::io(&self.target, "cannot rename the finished file to", e))
    }
}

impl Write for AtomicOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.as_mut().expect("not committed").write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer.as_mut().expect("not committed").write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicOutput {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = fs::remove_file(&self.partial);
        }
    }
}

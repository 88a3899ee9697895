//! Writing an output file safely: everything goes to `<file>.partial`, which is renamed
//! over `<file>` only once complete, flushed and synced (see [`fileio::AtomicFile`]; the
//! directory is synced too). On error (or drop before commit) the partial file is
//! removed, so `<file>` is never left half-written.
//!
//! A database committed this way gets a `<file>.sha256` sidecar (see
//! [`fileio::checksum`]), written atomically after the file is in place, since gnubg's
//! formats carry no checksum; `verify` checks it, and
//! [`crate::reader::BearoffDb::open_checked`] on request. Scratch files (checkpoints)
//! are created with [`AtomicOutput::create_scratch`] and get none.
//!
//! The name `<file>.partial` is kept (not a unique one) because it is documented in the
//! CLI and two-sided runs derive their resumable scratch files from it.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use fileio::AtomicFile;

use crate::error::BearoffError;

/// An output file being written under a temporary name.
#[derive(Debug)]
pub struct AtomicOutput {
    file: AtomicFile,
    sidecar: bool,
}

/// The temporary name used for `target`.
pub fn partial_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    target.with_file_name(name)
}

impl AtomicOutput {
    /// Creates `<target>.partial` (replacing a stale one), written through a 1 MiB
    /// buffer; on commit, `<target>.sha256` is written beside the target.
    pub fn create(target: &Path) -> Result<AtomicOutput, BearoffError> {
        AtomicOutput::open(target, true)
    }

    /// As [`AtomicOutput::create`], for a scratch file that gets no checksum sidecar.
    pub fn create_scratch(target: &Path) -> Result<AtomicOutput, BearoffError> {
        AtomicOutput::open(target, false)
    }

    fn open(target: &Path, sidecar: bool) -> Result<AtomicOutput, BearoffError> {
        let partial = partial_path(target);
        let file = AtomicFile::with_temp(target, partial.clone(), 1 << 20)
            .map_err(|e| BearoffError::io(&partial, "cannot create", e))?;
        Ok(AtomicOutput { file, sidecar })
    }

    /// The temporary path being written.
    pub fn partial(&self) -> &Path {
        self.file.temp_path()
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        self.file.target()
    }

    /// Flushes, syncs and renames to the final name.
    pub fn commit(mut self) -> Result<(), BearoffError> {
        let partial = self.partial().to_path_buf();
        let target = self.target().to_path_buf();
        self.file
            .flush()
            .map_err(|e| BearoffError::io(&partial, "cannot write", e))?;
        self.file
            .sync()
            .map_err(|e| BearoffError::io(&partial, "cannot sync", e))?;
        self.file
            .commit()
            .map_err(|e| BearoffError::io(&target, "cannot move the finished file into place", e))?;
        if self.sidecar {
            let side = fileio::checksum::sidecar_path(&target);
            fileio::checksum::write_sidecar(&target)
                .map_err(|e| BearoffError::io(&side, "cannot write the checksum", e))?;
        }
        Ok(())
    }
}

impl Write for AtomicOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

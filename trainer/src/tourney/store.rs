//! The tournament file on disk, shared by any number of processes: every change
//! happens under an exclusive lock on a sidecar lock file (`FILE.lock`), reading the
//! file afresh, and is written atomically ([`fileio::write_atomic`]: a temporary file,
//! fsynced and renamed over the file), so a reader never sees a partial file and a
//! crash never leaves one.
//!
//! The lock is `flock`-style advisory locking on the sidecar (the tournament file
//! itself is replaced by each rename, so it cannot carry the lock). It works between
//! processes on one machine and on network filesystems that support it (NFSv4 and
//! most cluster filesystems).

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::error::TrainerError;
use crate::tourney::file;
use crate::tourney::tournament::Tournament;

/// A tournament file and its lock file.
#[derive(Clone, Debug)]
pub struct Store {
    path: PathBuf,
    lock: PathBuf,
}

/// `path` with `suffix` appended to its file name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

impl Store {
    /// The tournament file at `path` (its lock file is `path` + `.lock`).
    pub fn new(path: &Path) -> Store {
        Store {
            path: path.to_path_buf(),
            lock: beside(path, ".lock"),
        }
    }

    /// The tournament file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file as it is now (no lock: writes are atomic renames).
    pub fn read(&self) -> Result<Tournament, TrainerError> {
        file::read(&self.path)
    }

    fn locked(&self) -> Result<File, TrainerError> {
        let f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&self.lock)
            .map_err(|e| file::io_error(&self.lock, e))?;
        f.lock().map_err(|e| file::io_error(&self.lock, e))?;
        Ok(f)
    }

    /// Replaces the file with `t`; called only under the lock, which keeps writers in
    /// turn (each write's temporary file has a name of its own).
    fn write(&self, t: &Tournament) -> Result<(), TrainerError> {
        let text = file::to_text(t);
        fileio::write_atomic(&self.path, text.as_bytes()).map_err(|e| file::io_error(&self.path, e))
    }

    /// Writes a new tournament; an existing file is an error unless `overwrite`.
    pub fn create(&self, t: &Tournament, overwrite: bool) -> Result<(), TrainerError> {
        let _lock = self.locked()?;
        if !overwrite && self.path.exists() {
            return Err(TrainerError::Invalid(format!(
                "{}: the file exists (--force replaces it)",
                self.path.display()
            )));
        }
        self.write(t)
    }

    /// Changes the tournament under the lock: reads it, lets `f` change it, and
    /// writes it back if `f` says it changed something (the `bool`).
    pub fn update<R>(
        &self,
        f: impl FnOnce(&mut Tournament) -> Result<(R, bool), TrainerError>,
    ) -> Result<R, TrainerError> {
        let _lock = self.locked()?;
        let mut t = self.read()?;
        let (r, changed) = f(&mut t)?;
        if changed {
            self.write(&t)?;
        }
        Ok(r)
    }
}

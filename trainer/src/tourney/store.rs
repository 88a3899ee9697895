//! The tournament file on disk, shared by any number of processes, on one machine or
//! on many sharing a filesystem: every change happens while holding the file's lock
//! (`FILE.lock`, see [`super::lockfile`]: a lock file made with an atomic
//! `link`, which works on NFS and cluster filesystems where `flock` is per machine),
//! reading the file afresh, and is written atomically ([`fileio::write_atomic`]: a
//! temporary file, fsynced and renamed over the file), so a reader never sees a
//! partial file and a crash never leaves one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::TrainerError;
use crate::tourney::file;
use crate::tourney::lockfile::{self, beside, Lock};
use crate::tourney::tournament::Tournament;

/// A tournament file and its lock file.
#[derive(Clone, Debug)]
pub struct Store {
    path: PathBuf,
    lock: PathBuf,
    patience: Duration,
}

impl Store {
    /// The tournament file at `path` (its lock file is `path` + `.lock`).
    pub fn new(path: &Path) -> Store {
        Store {
            path: path.to_path_buf(),
            lock: beside(path, ".lock"),
            patience: lockfile::PATIENCE,
        }
    }

    /// The same store, breaking a lock held by a process on another host after
    /// `patience` instead of [`lockfile::PATIENCE`].
    pub fn with_patience(mut self, patience: Duration) -> Store {
        self.patience = patience;
        self
    }

    /// The tournament file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file as it is now (no lock: writes are atomic renames).
    pub fn read(&self) -> Result<Tournament, TrainerError> {
        file::read(&self.path)
    }

    fn locked(&self) -> Result<Lock, TrainerError> {
        lockfile::acquire(&self.lock, self.patience)
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

//! Writing an output file safely: everything goes to `<file>.partial`, which is put in
//! place as `<file>` only once complete, flushed and synced (see [`fileio::AtomicFile`];
//! the directory is synced too). On error (or drop before commit) the partial file is
//! removed, so `<file>` is never left half-written.
//!
//! One run at a time: the partial file is locked (an exclusive advisory `flock`) from
//! its creation until the run ends, so a second run on the same output is refused
//! instead of truncating the first one's file and its scratch files (two-sided runs
//! derive their bucket and state files from the partial name). The operating system
//! drops the lock of a killed run, so a new run still takes over a killed run's
//! `<file>.partial`. Where the filesystem cannot lock (NFS without a lock daemon), runs
//! go on unlocked, as they did before locks were taken. Unless asked to replace, the finished file is put in place without
//! replacing anything (a hard link, then the partial name is removed): a file that
//! appeared at the target while the run was writing is left as it is, and the run fails.
//!
//! A database committed this way gets a `<file>.sha256` sidecar (see
//! [`fileio::checksum`]), written atomically after the file is in place, since gnubg's
//! formats carry no checksum; `verify` checks it, and
//! [`crate::reader::BearoffDb::open_checked`] on request. Scratch files (checkpoints)
//! are created with [`AtomicOutput::create_scratch`] and get none.
//!
//! The name `<file>.partial` is kept (not a unique one) because it is documented in the
//! CLI and two-sided runs derive their resumable scratch files from it.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use fileio::AtomicFile;

use crate::error::BearoffError;

/// An output file being written under a temporary name.
#[derive(Debug)]
pub struct AtomicOutput {
    file: AtomicFile,
    sidecar: bool,
    /// Whether commit may replace a file at the target.
    replace: bool,
    /// The open partial file that holds the lock (`None` where the filesystem has no
    /// locks); dropped after `file`, so the lock outlives the partial name.
    _lock: Option<File>,
}

/// The temporary name used for `target`.
pub fn partial_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    target.with_file_name(name)
}

impl AtomicOutput {
    /// Creates `<target>.partial` (replacing a stale one that no running process holds),
    /// locked for this run and written through a 1 MiB buffer; on commit, `<target>`
    /// is replaced only if `replace` (the CLI's `--force`), and `<target>.sha256` is
    /// written beside it. Another run holding the partial file is an error.
    pub fn create(target: &Path, replace: bool) -> Result<AtomicOutput, BearoffError> {
        AtomicOutput::open(target, true, replace)
    }

    /// As [`AtomicOutput::create`], for a scratch file that gets no checksum sidecar and
    /// replaces its previous version (a checkpoint).
    pub fn create_scratch(target: &Path) -> Result<AtomicOutput, BearoffError> {
        AtomicOutput::open(target, false, true)
    }

    fn open(target: &Path, sidecar: bool, replace: bool) -> Result<AtomicOutput, BearoffError> {
        let partial = partial_path(target);
        let lock = lock_partial(target, &partial)?;
        let file = AtomicFile::with_temp(target, partial.clone(), 1 << 20)
            .map_err(|e| BearoffError::io(&partial, "cannot create", e))?;
        Ok(AtomicOutput {
            file,
            sidecar,
            replace,
            _lock: lock,
        })
    }

    /// The temporary path being written.
    pub fn partial(&self) -> &Path {
        self.file.temp_path()
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        self.file.target()
    }

    /// Flushes, syncs and puts the file in place under its final name (replacing a file
    /// there only if created with `replace`).
    pub fn commit(self) -> Result<(), BearoffError> {
        // `_lock` bound first, so dropped last: the partial file is gone (renamed, or
        // removed on an error) before another run can take the lock.
        let AtomicOutput {
            _lock,
            mut file,
            sidecar,
            replace,
        } = self;
        let partial = file.temp_path().to_path_buf();
        let target = file.target().to_path_buf();
        file.flush()
            .map_err(|e| BearoffError::io(&partial, "cannot write", e))?;
        file.sync()
            .map_err(|e| BearoffError::io(&partial, "cannot sync", e))?;
        file.commit_with(fileio::Existing::replace_if(replace))
            .map_err(|e| match e.kind() {
                io::ErrorKind::AlreadyExists => appeared(&target),
                _ => BearoffError::io(&target, "cannot move the finished file into place", e),
            })?;
        if sidecar {
            let side = fileio::checksum::sidecar_path(&target);
            fileio::checksum::write_sidecar(&target)
                .map_err(|e| BearoffError::io(&side, "cannot write the checksum", e))?;
        }
        Ok(())
    }
}

/// The error for a target that appeared while the run was writing it.
fn appeared(target: &Path) -> BearoffError {
    BearoffError::InvalidParameters(format!(
        "{} appeared while this run was writing it; it was left as it is and this run's result was discarded (use --force to replace it)",
        target.display()
    ))
}

/// Takes `partial` for this run ([`fileio::lock::lock_partial`]), with gen-bearoff's
/// messages.
fn lock_partial(target: &Path, partial: &Path) -> Result<Option<File>, BearoffError> {
    use fileio::lock::{LockError, OtherNames};
    fileio::lock::lock_partial(partial, OtherNames::Finished).map_err(|e| match e {
        LockError::Refused(r) => {
            BearoffError::InvalidParameters(r.message(target, partial, "temporary file"))
        }
        LockError::Io(what, e) => BearoffError::io(partial, what, e),
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A scratch directory, removed when the test ends (also when it fails).
    fn scratch(name: &str) -> test_support::Scratch {
        test_support::Scratch::new("gen-bearoff-output", name)
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_second_writer_of_the_same_output_is_refused() {
        let d = scratch("lock");
        let t = d.join("db.bd");
        let mut a = AtomicOutput::create(&t, false).unwrap();
        a.write_all(b"first").unwrap();
        let e = AtomicOutput::create(&t, true).unwrap_err().to_string();
        assert!(e.contains("another run is writing this output"), "{e}");
        // The refused run neither truncated nor removed the first one's file.
        a.flush().unwrap();
        assert_eq!(fs::read(d.join("db.bd.partial")).unwrap(), b"first");
        a.commit().unwrap();
        assert_eq!(fs::read(&t).unwrap(), b"first");
        assert_eq!(names(&d), ["db.bd", "db.bd.sha256"]);
        // Once the first has ended, the name is free again (and a killed run's leftover
        // partial file, which nobody holds, is taken over).
        fs::write(d.join("db.bd.partial"), b"left by a killed run").unwrap();
        let mut b = AtomicOutput::create(&t, true).unwrap();
        b.write_all(b"second").unwrap();
        b.commit().unwrap();
        assert_eq!(fs::read(&t).unwrap(), b"second");
    }

    #[test]
    fn a_file_that_appears_meanwhile_is_replaced_only_when_asked() {
        let d = scratch("noreplace");
        let t = d.join("db.bd");
        let mut a = AtomicOutput::create(&t, false).unwrap();
        a.write_all(b"ours").unwrap();
        fs::write(&t, b"theirs").unwrap();
        let e = a.commit().unwrap_err().to_string();
        assert!(
            e.contains("appeared while this run was writing it") && e.contains("--force"),
            "{e}"
        );
        assert_eq!(fs::read(&t).unwrap(), b"theirs");
        assert_eq!(names(&d), ["db.bd"], "partial removed, no sidecar");
        let mut b = AtomicOutput::create(&t, true).unwrap();
        b.write_all(b"ours").unwrap();
        b.commit().unwrap();
        assert_eq!(fs::read(&t).unwrap(), b"ours");
    }

    #[test]
    fn a_partial_name_that_is_a_second_link_to_a_finished_file_is_not_truncated() {
        let d = scratch("link");
        let t = d.join("db.bd");
        fs::write(&t, b"finished").unwrap();
        fs::hard_link(&t, d.join("db.bd.partial")).unwrap();
        let mut a = AtomicOutput::create(&d.join("db.bd"), true).unwrap();
        assert_eq!(fs::read(&t).unwrap(), b"finished");
        a.write_all(b"new").unwrap();
        a.commit().unwrap();
        assert_eq!(fs::read(&t).unwrap(), b"new");
    }

    #[test]
    #[cfg(unix)]
    fn a_symbolic_link_at_the_partial_name_is_refused_before_it_is_followed() {
        let d = scratch("symlink");
        let t = d.join("db.bd");
        let elsewhere = d.join("elsewhere");
        std::os::unix::fs::symlink(&elsewhere, d.join("db.bd.partial")).unwrap();
        let e = AtomicOutput::create(&t, true).unwrap_err().to_string();
        assert!(e.contains("db.bd.partial is a symbolic link"), "{e}");
        assert!(!elsewhere.exists(), "nothing created where the link points");
    }
}

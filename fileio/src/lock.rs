//! One writer per output: a job holds an exclusive advisory `flock` on its partial file
//! (gen-bearoff's `FILE.partial`, a datasets job's journal `OUT.partial`) from before it
//! writes anything until it ends, so that a second run on the same output is refused
//! instead of truncating or interleaving with the first one's file. The operating
//! system drops the lock of a killed run, so a new run still takes over a killed run's
//! partial file. Where the filesystem cannot lock (NFS without a lock daemon answers
//! ENOLCK, some FUSE filesystems EOPNOTSUPP), runs go on unlocked.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::Path;

/// Why a partial file could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// The name is refused ([`Refusal::message`] says why).
    Refused(Refusal),
    /// The file could not be created (`"cannot create"`) or examined
    /// (`"cannot read the metadata of"`).
    Io(&'static str, io::Error),
}

/// A partial file's name that a run refuses to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Another process holds the lock: another run is writing this output.
    Busy,
    /// A symbolic link is at the name (refused before it is opened, so nothing is
    /// created where it points).
    Symlink,
    /// Something other than a regular file is at the name.
    NotRegular,
    /// The name kept changing to another file (runs starting or ending there).
    Changing,
}

impl Refusal {
    /// What to tell the user, one line naming the files: `partial` is the partial file
    /// of `output`, called `noun` in the tool's words ("temporary file", "journal").
    pub fn message(self, output: &Path, partial: &Path, noun: &str) -> String {
        let (output, partial) = (output.display(), partial.display());
        match self {
            Refusal::Busy => format!(
                "{output}: another run is writing this output (its {noun} {partial} is locked); wait for it to end, or write elsewhere"
            ),
            Refusal::Symlink => {
                format!("{partial} is a symbolic link (remove it: the {noun} is written there)")
            }
            Refusal::NotRegular => format!("{partial} is not a regular file (remove it)"),
            Refusal::Changing => format!(
                "{output}: its {noun} {partial} keeps changing (another run is starting or ending there); try again"
            ),
        }
    }
}

/// What a partial file with a second name (hard link) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherNames {
    /// A finished file: the partial file is linked into place when the output is
    /// committed (gen-bearoff), so a run killed while doing so leaves the partial name
    /// as a second link to the finished file, which must not be truncated: the name is
    /// removed and a fresh file made.
    Finished,
    /// A user's copy (`cp -al`, a snapshot): the partial file is never linked into place
    /// (a datasets journal), so it is the same partial results, taken as they are.
    Copy,
}

/// Opens `partial` (creating it, not truncating it) and takes an exclusive lock on it
/// without waiting. Returns the locked file (keep it open for as long as the run goes
/// on), or `None` where the filesystem cannot lock. The name must still be the opened
/// file afterwards (a run that ends removes or renames its partial file, perhaps between
/// our open and our lock: then try again); a file with another name is what `others`
/// says — checked with or without the lock.
pub fn lock_partial(partial: &Path, others: OtherNames) -> Result<Option<File>, LockError> {
    for _ in 0..16 {
        if fs::symlink_metadata(partial).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(LockError::Refused(Refusal::Symlink));
        }
        let f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(partial)
            .map_err(|e| LockError::Io("cannot create", e))?;
        let locked = match f.try_lock() {
            Ok(()) => true,
            Err(TryLockError::WouldBlock) => return Err(LockError::Refused(Refusal::Busy)),
            Err(TryLockError::Error(_)) => false,
        };
        match same_single_file(&f, partial)? {
            Some(single) if single || others == OtherNames::Copy => return Ok(locked.then_some(f)),
            Some(_) => {
                let _ = fs::remove_file(partial);
            }
            None => {}
        }
    }
    Err(LockError::Refused(Refusal::Changing))
}

/// Whether `name` is still the open file `f`: `Some(true)` when it is and has no other
/// name, `Some(false)` when it is but has another name too, `None` when the name is
/// gone or is now another file.
#[cfg(unix)]
fn same_single_file(f: &File, name: &Path) -> Result<Option<bool>, LockError> {
    use std::os::unix::fs::MetadataExt;
    let held = f
        .metadata()
        .map_err(|e| LockError::Io("cannot read the metadata of", e))?;
    let Ok(now) = fs::symlink_metadata(name) else {
        return Ok(None);
    };
    if now.file_type().is_symlink() {
        return Err(LockError::Refused(Refusal::Symlink));
    }
    if !now.file_type().is_file() {
        return Err(LockError::Refused(Refusal::NotRegular));
    }
    if (now.dev(), now.ino()) != (held.dev(), held.ino()) {
        return Ok(None);
    }
    Ok(Some(held.nlink() <= 1))
}

#[cfg(not(unix))]
fn same_single_file(_f: &File, _name: &Path) -> Result<Option<bool>, LockError> {
    Ok(Some(true))
}

/// Takes an exclusive lock on the directory `dir` itself (nothing is created in it)
/// without waiting, for a job that owns the whole directory (a training run). Returns
/// the open directory that holds the lock (keep it for as long as the job goes on), or
/// `None` where the filesystem cannot lock; another process holding it is an error of
/// kind [`io::ErrorKind::WouldBlock`].
pub fn lock_dir(dir: &Path) -> io::Result<Option<File>> {
    let d = File::open(dir)?;
    match d.try_lock() {
        Ok(()) => Ok(Some(d)),
        Err(TryLockError::WouldBlock) => Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            "another process holds its lock",
        )),
        Err(TryLockError::Error(_)) => Ok(None),
    }
}

//! fileio owns how bgkit writes output files and maps binary files: writes are atomic,
//! so that a reader (or a crash) never sees a half-written file, and every memory map
//! goes through [`mmap`] (read-only files with header checks, anonymous scratch memory).
//! Every crate writes and maps through it.
//!
//! A file is written to a temporary name beside its target, flushed and fsynced, renamed
//! over the target, and then the directory is fsynced so the rename itself is durable.
//! [`write_atomic`] does this for bytes already in memory; [`AtomicFile`] streams large
//! outputs through a buffer and puts them in place on [`AtomicFile::commit`];
//! [`Existing`] says whether a commit may replace a file at the target (a tool's
//! `--force`) or keeps a file that appeared there while the job ran;
//! [`persist`] finishes a file that another library wrote under a temporary name;
//! [`remove_stale_temps`] clears the temporary files of writers that were killed.
//!
//! [`checksum`] writes and checks `FILE.sha256` sidecars for formats without a checksum.
//! [`identity`] names a process in claim and lock files shared across machines.
//! [`lock`] keeps a second run off an output that a run is writing.
//! [`shard`] is the `K/N` of a job split across processes or machines.
//!
//! Write errors are plain [`std::io::Error`]s: callers add the path and their own
//! wording. Map errors are [`mmap::MapError`]s, which name the file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub mod checksum;
pub mod identity;
pub mod lock;
pub mod mmap;
pub mod shard;

/// Writes `bytes` to `path` atomically: `path` ends up with exactly `bytes` (replacing
/// any file there), or, on error, is left as it was.
pub fn write_atomic(path: impl AsRef<Path>, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, bytes, Existing::Replace)
}

/// As [`write_atomic`], doing with a file already at `path` what `existing` says.
pub fn write_atomic_with(path: impl AsRef<Path>, bytes: &[u8], existing: Existing) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)?;
    f.commit_with(existing)
}

/// What committing an output does with a file already at its name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Existing {
    /// Replace it: the user asked to (`--force`), or the file is the job's own. The
    /// default, as for [`write_atomic`] and [`AtomicFile::commit`].
    #[default]
    Replace,
    /// Keep it and fail: a tool checks its output before a long job, and a file that
    /// appears at that name while the job runs is the user's too. The error's kind is
    /// [`io::ErrorKind::AlreadyExists`]; its text says what happened.
    Keep,
}

impl Existing {
    /// `Replace` if `force` (the CLI's `--force`), else `Keep`.
    pub fn replace_if(force: bool) -> Existing {
        if force {
            Existing::Replace
        } else {
            Existing::Keep
        }
    }
}

/// The error of [`Existing::Keep`] for a target that is there at the commit.
fn appeared() -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        "appeared while this run was writing it; it was left as it is and this run's result was not put in its place (use --force to replace it)",
    )
}

/// Whether a failed `link` says the filesystem has no hard links (FAT answers "not
/// permitted", others "not supported"; a link across devices or past the link limit
/// cannot be made either), rather than a failure a rename would meet too.
fn no_hard_links(e: &io::Error) -> bool {
    use io::ErrorKind::*;
    /// Linux's EOPNOTSUPP, which the standard library does not name.
    const EOPNOTSUPP: i32 = 95;
    matches!(
        e.kind(),
        PermissionDenied | Unsupported | CrossesDevices | TooManyLinks
    ) || (cfg!(target_os = "linux") && e.raw_os_error() == Some(EOPNOTSUPP))
}

/// Whether `path` is a FIFO, a device or a socket (or a link to one): something no
/// writer here replaces with a file, since the rename would put a regular file in its
/// place (as root, `/dev/full` itself).
pub fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Refuses to replace a special file ([`is_special`]) with a file.
fn refuse_special(target: &Path) -> io::Result<()> {
    if is_special(target) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file (a FIFO, device or socket); nothing was written there",
                target.display()
            ),
        ));
    }
    Ok(())
}

/// Puts `temp`, a finished file that something else wrote, in place as `target`: fsyncs
/// it, renames it over `target` and fsyncs the directory. On error before the rename,
/// `temp` is removed.
pub fn persist(temp: impl AsRef<Path>, target: impl AsRef<Path>) -> io::Result<()> {
    let (temp, target) = (temp.as_ref(), target.as_ref());
    let result = File::open(temp)
        .and_then(|f| f.sync_all())
        .and_then(|()| refuse_special(target))
        .and_then(|()| fs::rename(temp, target));
    if result.is_err() {
        let _ = fs::remove_file(temp);
    }
    result?;
    sync_dir(target)
}

/// An output file being written under a temporary name beside its target, through a
/// buffer. [`commit`](AtomicFile::commit) puts it in place; dropping it uncommitted
/// removes the temporary file and leaves the target as it was.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
    /// Everything written so far is flushed and fsynced.
    synced: bool,
    committed: bool,
}

impl AtomicFile {
    /// Starts writing `target` through a new temporary file with a unique name beside
    /// it, buffered like [`BufWriter::new`].
    pub fn create(target: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let target = target.as_ref();
        let (temp, file) = create_unique(target)?;
        Ok(AtomicFile::new(target, temp, BufWriter::new(file)))
    }

    /// Starts writing `target` through the temporary file `temp` (created, or truncated
    /// if a stale one is there), with a `capacity`-byte buffer. For callers whose
    /// temporary name is documented or derived from (e.g. `FILE.partial`).
    pub fn with_temp(target: impl AsRef<Path>, temp: PathBuf, capacity: usize) -> io::Result<AtomicFile> {
        let file = File::create(&temp)?;
        Ok(AtomicFile::new(
            target.as_ref(),
            temp,
            BufWriter::with_capacity(capacity, file),
        ))
    }

    fn new(target: &Path, temp: PathBuf, writer: BufWriter<File>) -> AtomicFile {
        AtomicFile {
            target: target.to_path_buf(),
            temp,
            writer: Some(writer),
            synced: false,
            committed: false,
        }
    }

    /// The temporary file being written.
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        &self.target
    }

    fn writer(&mut self) -> &mut BufWriter<File> {
        self.writer
            .as_mut()
            .expect("an AtomicFile is written only before commit")
    }

    /// Flushes the buffer and fsyncs the temporary file (commit does it if not done;
    /// callers that report a failed sync differently from a failed rename call it first).
    pub fn sync(&mut self) -> io::Result<()> {
        if !self.synced {
            let w = self.writer();
            w.flush()?;
            w.get_ref().sync_all()?;
            self.synced = true;
        }
        Ok(())
    }

    /// Flushes, fsyncs, renames the temporary file over the target and fsyncs the
    /// directory. On an error before the rename the temporary file is removed and the
    /// target left as it was.
    pub fn commit(self) -> io::Result<()> {
        self.commit_with(Existing::Replace)
    }

    /// As [`commit`](AtomicFile::commit), doing with a file at the target what
    /// `existing` says. [`Existing::Keep`] puts the file in place without replacing
    /// anything: a hard link (which fails if the target exists), then the temporary
    /// name is removed. Where the filesystem has no hard links it checks, then renames
    /// (a file created between the two would still be replaced). On an error the
    /// temporary file is removed.
    pub fn commit_with(mut self, existing: Existing) -> io::Result<()> {
        self.sync()?;
        drop(self.writer.take()); // closed before the rename (required on some systems)
        if existing == Existing::Keep {
            match fs::hard_link(&self.temp, &self.target) {
                // The data stays under the target's name; the temporary name goes
                // before the directory is synced, so that both changes are durable.
                Ok(()) => {
                    self.committed = true;
                    fs::remove_file(&self.temp)?;
                    return sync_dir(&self.target);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(appeared()),
                Err(e) if no_hard_links(&e) => {
                    if fs::symlink_metadata(&self.target).is_ok() {
                        return Err(appeared());
                    }
                }
                Err(e) => return Err(e),
            }
        }
        refuse_special(&self.target)?;
        fs::rename(&self.temp, &self.target)?;
        self.committed = true;
        sync_dir(&self.target)
    }
}

impl Write for AtomicFile {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.synced = false;
        self.writer().write(buf)
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.synced = false;
        self.writer().write_all(buf)
    }

    #[inline]
    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

impl Seek for AtomicFile {
    /// Flushes the buffer, then seeks the temporary file (to patch a header, say).
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.writer().seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            drop(self.writer.take());
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Creates a new temporary file beside `target`: `NAME.tmpPID-N`, never an existing one.
fn create_unique(target: &Path) -> io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().unwrap_or_default();
    loop {
        let mut temp = name.to_os_string();
        temp.push(format!(
            ".tmp{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let temp = target.with_file_name(temp);
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(f) => return Ok((temp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// How long a leftover temporary file must have gone unwritten before
/// [`remove_stale_temps`] removes it (on top of its writer being gone).
pub const STALE_TEMP_SECONDS: u64 = 60;

/// The writer's PID of a temporary name made by [`AtomicFile::create`]
/// (`NAME.tmpPID-N`), or `None` for any other name.
fn temp_writer(name: &str) -> Option<u32> {
    let (_, tail) = name.rsplit_once(".tmp")?;
    let (pid, n) = tail.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok())?
}

/// Removes the temporary files that [`AtomicFile::create`] left in `dir` when a writer
/// was killed before it could commit or clean up (`kill -9`, a power cut): names
/// `NAME.tmpPID-N` whose process is not running on this machine and that nobody has
/// written for [`STALE_TEMP_SECONDS`]. For a job in a directory it owns (a training
/// run, which sweeps when it resumes and at every checkpoint). Without `/proc` (where a
/// process cannot be looked up) nothing is removed. Returns the files removed.
pub fn remove_stale_temps(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    if !Path::new("/proc/self").exists() {
        return Ok(removed);
    }
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let Some(pid) = entry.file_name().to_str().and_then(temp_writer) else {
            continue;
        };
        if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        // A file gone meanwhile (its writer, on another machine or out of sight of
        // /proc here, renamed it into place) is no longer a temporary file.
        let gone = |e: &io::Error| e.kind() == io::ErrorKind::NotFound;
        let meta = match entry.metadata() {
            Err(e) if gone(&e) => continue,
            m => m?,
        };
        let idle = meta
            .modified()?
            .elapsed()
            .is_ok_and(|d| d.as_secs() >= STALE_TEMP_SECONDS);
        if meta.is_file() && idle {
            match fs::remove_file(entry.path()) {
                Err(e) if gone(&e) => continue,
                r => r?,
            }
            removed.push(entry.path());
        }
    }
    removed.sort();
    Ok(removed)
}

/// Fsyncs the directory holding `path`, so that a rename into it survives a crash.
/// Filesystems that cannot sync a directory (they answer "invalid input" or
/// "unsupported") are accepted as they are; elsewhere than Unix this does nothing.
pub fn sync_dir(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        match File::open(dir).and_then(|d| d.sync_all()) {
            Err(e) if matches!(e.kind(), io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported) => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

#[cfg(test)]
mod tests;

//! The tournament file's lock: a lock file that exists while a process changes the
//! tournament, made so that it works on network and cluster filesystems, where
//! `flock` may be local to each machine (BeeGFS by default, Lustre with `localflock`,
//! NFS mounted with `local_lock`) or refused (Lustre with `noflock`).
//!
//! To take the lock, a process writes its identity (host, pid, process start time and
//! a number of its own) to a temporary file beside the lock and hard-links it to the
//! lock's name: `link` is atomic on every filesystem (NFS included, where an exclusive
//! create is not on old versions), fails when the name exists, and the lock is never
//! seen half-written. A lost reply of a `link` that succeeded is recognised by the
//! temporary file's link count. To release it, the holder removes the lock if it
//! still holds its identity.
//!
//! A lock left by a process that is gone is broken: at once when the holder ran on
//! this host and no longer exists (or the lock is not one this scheme writes, e.g. the
//! empty `flock` target of older versions); otherwise once the same holder has been
//! seen for `patience` (the lock is held for one read and one write of the file,
//! milliseconds to seconds, so the default minute means its holder died or hung).
//! Breaking renames the lock to a name of the breaker's own, so that of several
//! breakers one wins, and checks that what it took is the holder it judged.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::error::TrainerError;
use crate::tourney::file::io_error;
use crate::tourney::identity::WorkerId;

/// How long a holder on another host may be seen before its lock is broken.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A held lock; released when dropped.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    token: String,
}

/// `path` with `suffix` appended to its file name.
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// A number no other lock of this process uses.
fn nonce() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

#[cfg(unix)]
fn links(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).map_or(0, |m| m.nlink())
}

#[cfg(not(unix))]
fn links(_: &Path) -> u64 {
    0
}

/// Whether the holder written in a lock is gone, as far as `me` can tell at once.
fn holder_is_gone(me: &WorkerId, text: &str) -> bool {
    let f: Vec<&str> = text.split_whitespace().collect();
    let (Some(host), Some(Ok(pid)), Some(Ok(start)), Some(_)) = (
        f.first(),
        f.get(1).map(|s| s.parse::<u32>()),
        f.get(2).map(|s| s.parse::<u64>()),
        f.get(3),
    ) else {
        // Not a lock of this scheme (the empty file older versions flocked).
        return true;
    };
    me.is_gone(host, pid, start) == Some(true)
}

/// Takes the lock at `path`, waiting while another process holds it.
pub fn acquire(path: &Path, patience: Duration) -> Result<Lock, TrainerError> {
    let me = WorkerId::current();
    let n = nonce();
    let token = format!("{} {} {} {n}\n", me.host, me.pid, me.start);
    let tmp = beside(path, &format!(".{}.{}.{n}", me.host, me.pid));
    let write_tmp = || -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(token.as_bytes())?;
        f.sync_all()
    };
    write_tmp().map_err(|e| io_error(&tmp, e))?;
    let mut seen: Option<(String, Instant)> = None;
    let mut pause = Duration::from_millis(2);
    let result = loop {
        let linked = fs::hard_link(&tmp, path);
        if linked.is_ok() || links(&tmp) == 2 {
            break Ok(());
        }
        if let Err(e) = linked {
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                break Err(io_error(path, e));
            }
        }
        let Ok(text) = fs::read_to_string(path) else {
            continue; // released meanwhile
        };
        let since = match &seen {
            Some((t, since)) if *t == text => *since,
            _ => {
                seen = Some((text.clone(), Instant::now()));
                Instant::now()
            }
        };
        if holder_is_gone(&me, &text) || since.elapsed() > patience {
            break_lock(path, &text, n);
            seen = None;
            continue;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(100));
    };
    let _ = fs::remove_file(&tmp);
    result.map(|()| Lock {
        path: path.to_path_buf(),
        token,
    })
}

/// Removes the lock at `path` if it still holds `judged`.
fn break_lock(path: &Path, judged: &str, n: u64) {
    let taken = beside(path, &format!(".broken.{}.{n}", std::process::id()));
    if fs::rename(path, &taken).is_err() {
        return; // released, or another process broke it first
    }
    if fs::read_to_string(&taken).is_ok_and(|t| t != judged) {
        // A new holder took the lock between our look and the rename: give it back.
        let _ = fs::hard_link(&taken, path);
    }
    let _ = fs::remove_file(&taken);
}

impl Drop for Lock {
    fn drop(&mut self) {
        if fs::read_to_string(&self.path).is_ok_and(|t| t == self.token) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("bgkit-lockfile-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn threads_take_turns_and_leave_no_files() {
        let d = scratch("turns");
        let lock = d.join("t.json.lock");
        let counter = d.join("counter");
        fs::write(&counter, "0").unwrap();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..25 {
                        let _l = acquire(&lock, PATIENCE).unwrap();
                        // A read-modify-write that loses counts without the lock.
                        let v: u32 = fs::read_to_string(&counter).unwrap().parse().unwrap();
                        std::thread::yield_now();
                        fs::write(&counter, (v + 1).to_string()).unwrap();
                    }
                });
            }
        });
        assert_eq!(fs::read_to_string(&counter).unwrap(), "100");
        let mut left: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, vec![std::ffi::OsString::from("counter")]);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn locks_of_dead_processes_and_old_versions_are_broken_at_once() {
        let d = scratch("dead");
        let lock = d.join("t.json.lock");
        let me = WorkerId::current();
        // A process of this host that has exited (the child's pid, reaped).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        for stale in [format!("{} {pid} 12345 0\n", me.host), String::new()] {
            fs::write(&lock, &stale).unwrap();
            let t0 = Instant::now();
            let l = acquire(&lock, Duration::from_secs(3600)).unwrap();
            assert!(t0.elapsed() < Duration::from_secs(5));
            assert!(fs::read_to_string(&lock)
                .unwrap()
                .starts_with(&format!("{} {}", me.host, me.pid)));
            drop(l);
            assert!(!lock.exists());
        }
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_holder_on_another_host_is_waited_for_then_broken() {
        let d = scratch("other");
        let lock = d.join("t.json.lock");
        fs::write(&lock, "elsewhere 1 1 0\n").unwrap();
        let t0 = Instant::now();
        let l = acquire(&lock, Duration::from_millis(400)).unwrap();
        assert!(t0.elapsed() >= Duration::from_millis(400));
        drop(l);
        // A live holder of this host is never broken for being alive.
        let me = WorkerId::current();
        assert!(!holder_is_gone(
            &me,
            &format!("{} {} {} 7\n", me.host, me.pid, me.start)
        ));
        assert!(!holder_is_gone(&me, "elsewhere 1 1 0\n"));
        fs::remove_dir_all(&d).unwrap();
    }
}

//! Who a process is (host, pid, process start time), and whether a process named so
//! is gone: the identity written into claim and lock files shared by processes on
//! several machines (tourney workers, sharded database builds).

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Who a worker process is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerId {
    /// Host name.
    pub host: String,
    /// Process id.
    pub pid: u32,
    /// Process start time (clock ticks after boot, Linux), 0 when unknown.
    pub start: u64,
}

/// The machine's host name (Linux: the kernel's; else `$HOSTNAME`).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "localhost".into())
}

/// State and start time of process `pid` from `/proc/PID/stat` (Linux).
fn proc_stat(pid: &str) -> Option<(char, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold anything.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((state, start))
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl WorkerId {
    /// This process.
    pub fn current() -> WorkerId {
        WorkerId {
            host: hostname(),
            pid: std::process::id(),
            start: proc_stat("self").map_or(0, |(_, s)| s),
        }
    }

    /// Whether the process `pid` started at `start` on `host` is gone: `None` when
    /// this process cannot tell (another host, or no `/proc`).
    pub fn is_gone(&self, host: &str, pid: u32, start: u64) -> Option<bool> {
        if host != self.host || !Path::new("/proc/self/stat").exists() {
            return None;
        }
        if pid == self.pid && start == self.start {
            return Some(false);
        }
        Some(match proc_stat(&pid.to_string()) {
            None => true,
            Some((state, s)) => matches!(state, 'Z' | 'X' | 'x') || (start != 0 && s != start),
        })
    }
}

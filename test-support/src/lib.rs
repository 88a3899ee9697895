//! Helpers shared by the integration tests of every bgkit crate (a dev-dependency
//! only; it depends on no bgkit crate, so any of them can use it): where Debian's gnubg
//! keeps its programs and files, skipping or failing when they are missing, the
//! repository's oracle data, scratch directories, md5 sums, directory listings, the CPU
//! maker, gnubg run as a live oracle under a time limit ([`gnubg_output`],
//! [`gnubg_python`]), and the CLI table's cases ([`cli`]).

use std::path::{Path, PathBuf};

pub mod cli;
mod gnubg;

pub use gnubg::{gnubg_output, gnubg_python, GNUBG_LIMIT};

/// gnubg's weights (binary, 1.00).
pub const WD: &str = "/usr/lib/gnubg/gnubg.wd";
/// gnubg's one-sided bearoff database (6 points, 15 checkers).
pub const OS: &str = "/usr/share/gnubg/gnubg_os0.bd";
/// gnubg's two-sided bearoff database (6x6).
pub const TS: &str = "/var/lib/gnubg/gnubg_ts0.bd";
/// gnubg itself.
pub const GNUBG: &str = "/usr/games/gnubg";
/// gnubg's bearoff database builder.
pub const MAKEBEAROFF: &str = "/usr/games/makebearoff";
/// gnubg's bearoff database dumper.
pub const BEAROFFDUMP: &str = "/usr/games/bearoffdump";
/// gnubg's hypergammon database builder.
pub const MAKEHYPER: &str = "/usr/games/makehyper";

/// True when every path exists. Missing files fail the test under
/// `BGKIT_REQUIRE_GNUBG=1` (CI) and skip it otherwise, with a notice.
pub fn have(paths: &[&str]) -> bool {
    let missing: Vec<&&str> = paths.iter().filter(|p| !Path::new(p).exists()).collect();
    if missing.is_empty() {
        if paths.contains(&GNUBG) {
            gnubg_home();
        }
        return true;
    }
    if std::env::var("BGKIT_REQUIRE_GNUBG").as_deref() == Ok("1") {
        panic!("gnubg files missing: {missing:?} (BGKIT_REQUIRE_GNUBG=1)");
    }
    eprintln!("skipping: gnubg files missing: {missing:?} (set BGKIT_REQUIRE_GNUBG=1 to fail instead)");
    false
}

/// Creates gnubg's per-user directories (`$HOME/.gnubg` and its `backup`) if they are
/// missing. gnubg creates them at its first start and exits with "File exists" when
/// another gnubg started at the same moment made them first, so tests that start
/// several gnubg processes at once on a fresh machine make them beforehand
/// (a recursive create does not mind a concurrent creator).
pub fn gnubg_home() {
    use std::os::unix::fs::DirBuilderExt;
    if let Some(home) = std::env::var_os("HOME") {
        // Private, as gnubg makes them.
        let _ = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(Path::new(&home).join(".gnubg").join("backup"));
    }
}

/// A file or directory of the repository's `testdata/`.
pub fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(name)
}

/// A fresh, empty scratch directory under the system's temporary directory, unique to
/// this process, `tag` (the crate) and `name` (the test). Tests remove it when done.
pub fn scratch(tag: &str, name: &str) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("bgkit-{tag}-{name}-{}-{k}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch directory ([`scratch`]) removed with everything in it when dropped, so a
/// test cleans up even when it fails half-way. Derefs to its path.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty scratch directory (see [`scratch`]).
    pub fn new(tag: &str, name: &str) -> Scratch {
        Scratch(scratch(tag, name))
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The md5 sum of `bytes`, in lower-case hex.
pub fn md5_hex(bytes: &[u8]) -> String {
    use md5::{Digest, Md5};
    Md5::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The names of the entries of a directory, sorted.
pub fn dir_names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Special files made in `dir` for the tests of the "never replace one" rule: a link
/// `null.<ext>` to /dev/null (a character device on every Unix) and, where `mkfifo`
/// runs, a FIFO `fifo.<ext>` (else a line on stderr says it is skipped).
#[cfg(unix)]
pub fn special_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let link = dir.join(format!("null.{ext}"));
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let fifo = dir.join(format!("fifo.{ext}"));
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        vec![link, fifo]
    } else {
        eprintln!("the FIFO case is skipped: mkfifo is not available");
        vec![link]
    }
}

/// The CPU maker (x86-64), e.g. "GenuineIntel" or "AuthenticAMD"; empty if unknown.
pub fn cpu_vendor() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("vendor_id"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_default()
}

/// Cases per fuzz target: `BGKIT_FUZZ_CASES` when set (the long run of
/// `scripts/fuzz.sh`), else `default` (a few seconds per target in CI).
pub fn fuzz_cases(default: u32) -> u32 {
    std::env::var("BGKIT_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A mutated copy of `valid`: 1-8 random edits chosen by `seed` (bit flips, random or
/// boundary bytes, insertions, deletions, truncation, a duplicated or moved chunk, and
/// tokens from `dictionary` spliced in), the way a fuzzer derives inputs that get past
/// a parser's first checks.
pub fn mutate(seed: u64, valid: &[u8], dictionary: &[&str]) -> Vec<u8> {
    let mut s = seed ^ 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        // SplitMix64.
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut out = valid.to_vec();
    let edits = 1 + next() % 8;
    for _ in 0..edits {
        let len = out.len();
        let at = if len == 0 {
            0
        } else {
            (next() % len as u64) as usize
        };
        match next() % 10 {
            0 if len > 0 => out[at] ^= 1 << (next() % 8),
            1 if len > 0 => out[at] = next() as u8,
            2 if len > 0 => out[at] = [0u8, 0xff, 0x7f, 0x80, b'0', b'9', b'-', b'\n'][(next() % 8) as usize],
            3 => out.insert(at.min(len), next() as u8),
            4 if len > 0 => {
                out.remove(at);
            }
            5 => out.truncate(at),
            6 if len > 0 => {
                let n = ((next() % 16) as usize + 1).min(len - at);
                let chunk = out[at..at + n].to_vec();
                let to = (next() % (len as u64 + 1)) as usize;
                out.splice(to..to, chunk);
            }
            7 if len > 4 && at + 4 <= len => {
                // A 32-bit boundary value (little endian), for binary headers.
                let v = [0u32, 1, u32::MAX, 0x7fff_ffff, 0x8000_0000, 0xffff][(next() % 6) as usize];
                out[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            _ if !dictionary.is_empty() => {
                let tok = dictionary[(next() % dictionary.len() as u64) as usize].as_bytes();
                let at = at.min(out.len());
                if next() % 2 == 0 {
                    let end = (at + tok.len()).min(out.len());
                    out.splice(at..end, tok.iter().copied());
                } else {
                    out.splice(at..at, tok.iter().copied());
                }
            }
            _ => out.push(next() as u8),
        }
    }
    out
}

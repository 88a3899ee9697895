//! Helpers shared by the trainer's integration tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub const WD: &str = "/usr/lib/gnubg/gnubg.wd";
pub const OS: &str = "/usr/share/gnubg/gnubg_os0.bd";
pub const TS: &str = "/var/lib/gnubg/gnubg_ts0.bd";
pub const GNUBG: &str = "/usr/games/gnubg";

/// A file of the repository's testdata.
pub fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(name)
}

/// True when every path exists. Missing files fail the test under
/// `BGKIT_REQUIRE_GNUBG=1` (CI) and skip it otherwise.
pub fn have(paths: &[&str]) -> bool {
    let missing: Vec<&&str> = paths.iter().filter(|p| !Path::new(p).exists()).collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var("BGKIT_REQUIRE_GNUBG").as_deref() == Ok("1") {
        panic!("gnubg files missing: {missing:?} (BGKIT_REQUIRE_GNUBG=1)");
    }
    eprintln!("skipping: gnubg files missing: {missing:?}");
    false
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bgkit-trainer-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

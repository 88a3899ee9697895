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

/// Runs the `trainer` binary.
pub fn trainer(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(args)
        .output()
        .unwrap()
}

/// A command's standard error as text.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
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

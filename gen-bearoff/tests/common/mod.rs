//! Helpers shared by the integration tests.
#![allow(dead_code, unused_imports)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub use test_support::{dir_names as file_names, have, md5_hex, BEAROFFDUMP, GNUBG, MAKEBEAROFF, MAKEHYPER};

/// Whether gnubg's makebearoff and bearoffdump are installed (skip or fail as
/// `test_support::have` decides).
pub fn have_gnubg() -> bool {
    have(&[MAKEBEAROFF, BEAROFFDUMP])
}

/// A fresh scratch directory for one test, removed when the test ends (also when it
/// fails).
pub fn scratch(name: &str) -> test_support::Scratch {
    test_support::Scratch::new("gen-bearoff", name)
}

pub fn ours() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gen-bearoff"))
}

/// Runs our binary and asserts success.
pub fn run_ok(args: &[&str]) -> Output {
    let out = ours().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "gen-bearoff {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs gnubg's makebearoff (writing to `file`) and asserts success.
pub fn makebearoff(args: &[&str], file: &Path) {
    let out = Command::new(MAKEBEAROFF)
        .args(args)
        .arg("-f")
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "makebearoff {args:?} failed");
}

/// Runs our binary and asserts failure with exit code 2; returns stderr.
pub fn run_err(args: &[&str]) -> String {
    let out = ours().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "gen-bearoff {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

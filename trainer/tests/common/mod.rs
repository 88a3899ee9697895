//! Helpers shared by the trainer's integration tests.

#![allow(dead_code, unused_imports)]

use std::path::PathBuf;

pub use test_support::{dir_names, have, testdata, GNUBG, OS, TS, WD};

/// A fresh scratch directory for one test.
/// (removed when dropped, also when the test fails).
pub fn scratch(name: &str) -> test_support::Scratch {
    test_support::Scratch::new("trainer", name)
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

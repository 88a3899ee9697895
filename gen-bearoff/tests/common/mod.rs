//! Helpers shared by the integration tests.
#![allow(dead_code, unused_imports)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub use test_support::{dir_names as file_names, md5_hex, BEAROFFDUMP, GNUBG, MAKEBEAROFF, MAKEHYPER};

/// Whether gnubg's tools are installed. Without them a test prints a skip notice and
/// returns, unless BGKIT_REQUIRE_GNUBG=1 (CI), where the missing tools are a failure.
pub fn have_gnubg(test: &str) -> bool {
    if Path::new(MAKEBEAROFF).exists() && Path::new(BEAROFFDUMP).exists() {
        return true;
    }
    if std::env::var("BGKIT_REQUIRE_GNUBG").as_deref() == Ok("1") {
        panic!("{test}: gnubg's makebearoff/bearoffdump are required (BGKIT_REQUIRE_GNUBG=1) but {MAKEBEAROFF} is missing");
    }
    eprintln!("SKIPPED {test}: {MAKEBEAROFF} not installed (apt-get install gnubg)");
    false
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    test_support::scratch("gen-bearoff", name)
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

/// Whether a gnubg tool is installed; see [`have_gnubg`] for the policy.
pub fn have_tool(test: &str, tool: &str) -> bool {
    if Path::new(tool).exists() {
        return true;
    }
    if std::env::var("BGKIT_REQUIRE_GNUBG").as_deref() == Ok("1") {
        panic!("{test}: {tool} is required (BGKIT_REQUIRE_GNUBG=1) but missing");
    }
    eprintln!("SKIPPED {test}: {tool} not installed (apt-get install gnubg)");
    false
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

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

/// A JSON document flattened by Python's own parser (independent of the printer under
/// test): `path -> value as JSON text`, paths like `player.bearoff.3`; containers get
/// their length under their own path (`problems` -> "2").
pub fn parse_json(text: &str) -> std::collections::BTreeMap<String, String> {
    use std::io::Write;
    let script = r#"
import json, sys
def walk(p, v):
    if isinstance(v, dict):
        print(p + "\t" + str(len(v)))
        for k, x in v.items(): walk(p + "." + k if p else k, x)
    elif isinstance(v, list):
        print(p + "\t" + str(len(v)))
        for i, x in enumerate(v): walk(p + "." + str(i), x)
    else:
        print(p + "\t" + json.dumps(v))
walk("", json.loads(sys.stdin.read()))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "not JSON: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (k, v) = l.split_once('\t').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// Assembles the sharded two-sided build of `size` in work directory `work` into `out`.
pub fn assemble_sharded(size: &str, work: &Path, out: &Path) {
    run_ok(&[
        "two-sided",
        size,
        "--work",
        work.to_str().unwrap(),
        "--assemble",
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]);
}

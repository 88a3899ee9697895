//! The CLI table (issue 19): every `gen-bearoff` subcommand with stdout to /dev/full, a
//! closed stdout pipe, stderr to /dev/full, an existing output, and a missing input.
//! The generators read no input file, so "an output equal to an input" does not apply.

use std::path::Path;

use test_support::cli::*;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_gen-bearoff");
const TOOL: &str = "gen-bearoff";

/// Small databases to read: one-sided 2x15, two-sided 2x2, hypergammon 1.
fn databases(dir: &Path) -> [String; 3] {
    let os = dir.join("os.bd").display().to_string();
    let ts = dir.join("ts.bd").display().to_string();
    let hy = dir.join("hyper1.bd").display().to_string();
    for args in [
        vec!["one-sided", "-p", "2", "-q", "-o", &os],
        vec!["two-sided", "-p", "2", "-c", "2", "-q", "-o", &ts],
        vec!["hyper", "-c", "1", "-q", "--no-checkpoint", "-o", &hy],
    ] {
        let r = run(BIN, &args);
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
    }
    [os, ts, hy]
}

/// The subcommands that print on stdout.
fn printing(dbs: &[String; 3]) -> Vec<Vec<String>> {
    let [os, ts, hy] = dbs;
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["dump", os, "-n", "3"]),
        v(&["dump", ts, "-n", "3"]),
        v(&["dump", hy, "-n", "3"]),
        v(&["verify", os, "-q"]),
        v(&["verify", ts, "-q"]),
        v(&["verify", hy, "-q"]),
        v(&["compare", hy, hy]),
        v(&["dump", os, "-n", "3", "--json"]),
        v(&["dump", hy, "-n", "3", "--json"]),
        v(&["verify", ts, "-q", "--json"]),
        v(&["verify", hy, "-q", "--json"]),
        v(&["--help"]),
    ]
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn stdout_to_dev_full_is_one_error_not_a_panic() {
    let dir = Scratch::new("gen-bearoff", "table-full");
    let dbs = databases(&dir);
    for args in printing(&dbs) {
        if args[0] == "--help" {
            // clap prints help itself; it must not panic.
            stdout_full(BIN, &strs(&args));
            continue;
        }
        case_stdout_full(TOOL, BIN, &strs(&args));
    }
}

#[test]
fn a_closed_stdout_ends_quietly_with_status_0() {
    let dir = Scratch::new("gen-bearoff", "table-pipe");
    let dbs = databases(&dir);
    for args in printing(&dbs) {
        case_stdout_closed(BIN, &strs(&args), 0);
    }
}

#[test]
fn stderr_to_dev_full_does_not_stop_a_job() {
    let dir = Scratch::new("gen-bearoff", "table-stderr");
    // Progress and notes on a full stderr: the database is still written.
    let os = dir.join("os.bd");
    case_stderr_full(
        BIN,
        &["one-sided", "-p", "2", "-o", os.to_str().unwrap()],
        0,
        Some(&os),
    );
    let ts = dir.join("ts.bd");
    case_stderr_full(
        BIN,
        &["two-sided", "-p", "2", "-c", "2", "-o", ts.to_str().unwrap()],
        0,
        Some(&ts),
    );
    let hy = dir.join("hyper.bd");
    case_stderr_full(
        BIN,
        &["hyper", "-c", "1", "-o", hy.to_str().unwrap()],
        0,
        Some(&hy),
    );
    case_stderr_full(BIN, &["verify", os.to_str().unwrap()], 0, None);
}

#[test]
fn an_existing_output_is_refused_unless_forced() {
    let dir = Scratch::new("gen-bearoff", "table-exists");
    let out = dir.join("precious.bd");
    std::fs::write(&out, b"an older database").unwrap();
    let o = out.to_str().unwrap();
    for args in [
        vec!["one-sided", "-p", "2", "-q", "-o", o],
        vec!["two-sided", "-p", "2", "-c", "2", "-q", "-o", o],
        vec!["two-sided", "-p", "2", "-c", "2", "-q", "--resume", "-o", o],
        vec!["hyper", "-c", "1", "-q", "-o", o],
        vec!["hyper", "-c", "1", "-q", "--resume", "-o", o],
    ] {
        case_existing_output(TOOL, BIN, &args, &out, "exists (use --force to replace it)");
    }
    let r = run(BIN, &["one-sided", "-p", "2", "-q", "--force", "-o", o]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_ne!(std::fs::read(&out).unwrap(), b"an older database");
}

/// The checksum sidecar is an output too: a user's `FILE.sha256` is replaced only with
/// `--force`, and one that cannot be written (a directory) is refused before the build,
/// leaving no database behind (it used to be found after the database was in place).
#[test]
fn the_checksum_sidecar_follows_the_output_rule() {
    let dir = Scratch::new("gen-bearoff", "table-sidecar");
    let out = dir.join("m.bd");
    let side = dir.join("m.bd.sha256");
    std::fs::write(&side, b"mine").unwrap();
    let o = out.to_str().unwrap();
    for args in [
        vec!["one-sided", "-p", "2", "-q", "-o", o],
        vec!["two-sided", "-p", "2", "-c", "2", "-q", "-o", o],
        vec!["hyper", "-c", "1", "-q", "-o", o],
    ] {
        case_existing_output(
            TOOL,
            BIN,
            &args,
            &side,
            "m.bd.sha256 exists (use --force to replace it)",
        );
        assert!(!out.exists(), "{args:?}");
    }
    let r = run(BIN, &["one-sided", "-p", "2", "-q", "--force", "-o", o]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let verified = run(BIN, &["verify", o]);
    assert_eq!(verified.code, Some(0), "{}", verified.stderr);
    std::fs::remove_file(&out).unwrap();
    std::fs::remove_file(&side).unwrap();
    std::fs::create_dir(&side).unwrap();
    let r = run(BIN, &["one-sided", "-p", "2", "-q", "--force", "-o", o]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("m.bd.sha256 is a directory"), "{}", r.stderr);
    assert!(!out.exists());
}

#[test]
fn a_missing_input_is_one_error() {
    for args in [
        vec!["dump", "/no/such/db.bd", "-n", "0"],
        vec!["verify", "/no/such/db.bd"],
        vec!["verify", "/no/such/db.bd", "--json"],
        vec!["dump", "/no/such/db.bd", "-n", "0", "--json"],
        vec!["compare", "/no/such/db.bd", "/no/such/db.bd"],
    ] {
        case_missing_input(TOOL, BIN, &args, "/no/such/db.bd");
    }
}

#[test]
fn a_directory_or_a_missing_directory_as_output_is_refused_before_the_build() {
    let dir = Scratch::new("gen-bearoff", "table-place");
    let out = dir.join("db.bd");
    let missing = dir.join("no-such-dir");
    let (o, m) = (out.to_str().unwrap(), missing.join("db.bd"));
    let m = m.to_str().unwrap();
    for sub in [
        vec!["one-sided", "-p", "2", "-q", "--force", "-o"],
        vec!["two-sided", "-p", "2", "-c", "2", "-q", "--force", "-o"],
        vec!["hyper", "-c", "1", "-q", "--force", "-o"],
    ] {
        let args = [sub.as_slice(), &[o]].concat();
        let missing_args = [sub.as_slice(), &[m]].concat();
        case_output_place(TOOL, BIN, &args, &out, &missing_args, &missing);
    }
}

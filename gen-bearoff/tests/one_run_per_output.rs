//! One run per output (audit defect 1): a run locks its `FILE.partial` for its whole
//! length, so a second run on the same output is refused instead of truncating the
//! first one's file; the first run's database comes out whole.

mod common;

use std::fs::File;
use std::process::Stdio;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::{file_names, md5_hex, ours, run_err, run_ok, scratch};

/// The MD5s of gnubg's manual (as in `md5_tables.rs`): one-sided 3 and 6 points.
const MD5_OS3: &str = "346dae6139ccb4b227c534373e5c52e4";
const MD5_OS6: &str = "3dc7b833c4670849cee00479a9e21b49";

/// The tests of this file run one at a time. The first holds a lock in this process: a
/// child that another test thread forks copies the locked descriptor and keeps it until
/// its exec, so that the lock could outlive the `drop` that ends it (seen once on a
/// loaded 2-core machine: the run after the drop was refused).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn a_run_is_refused_while_another_holds_the_output() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("lock-held");
    let f = dir.join("os3.bd");
    let name = f.to_str().unwrap();
    // Another process's lock, as a running gen-bearoff holds it.
    let partial = dir.join("os3.bd.partial");
    std::fs::write(&partial, b"being written").unwrap();
    let held = File::options().write(true).open(&partial).unwrap();
    held.lock().unwrap();
    let err = run_err(&["one-sided", "-p", "3", "-q", "-o", name]);
    assert_eq!(
        err,
        format!(
            "gen-bearoff: {name}: another run is writing this output (its temporary file {} is locked); wait for it to end, or write elsewhere\n",
            partial.display()
        )
    );
    // Nothing of the running one was touched, and nothing was put in place.
    assert_eq!(std::fs::read(&partial).unwrap(), b"being written");
    assert_eq!(file_names(&dir), ["os3.bd.partial"]);
    // The same for the other generators (their scratch files hang on the same lock).
    for args in [
        vec!["two-sided", "6x2", "-q", "-o", name],
        vec!["hyper", "-c", "1", "-q", "-o", name],
    ] {
        let err = run_err(&args);
        assert!(
            err.contains("another run is writing this output"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(std::fs::read(&partial).unwrap(), b"being written");
    // Once it has ended (or was killed: the lock goes with the process), a run goes on
    // and takes over the partial file.
    drop(held);
    run_ok(&["one-sided", "-p", "3", "-q", "-o", name]);
    assert_eq!(md5_hex(&std::fs::read(&f).unwrap()), MD5_OS3);
    assert_eq!(file_names(&dir), ["os3.bd", "os3.bd.sha256"]);
}

#[test]
fn two_runs_started_together_leave_the_first_ones_database_whole() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("lock-race");
    let f = dir.join("os6.bd");
    let name = f.to_str().unwrap();
    let first = ours()
        .args(["one-sided", "-p", "6", "-j", "1", "-q", "-o", name])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Start the second once the first has begun writing (or has ended).
    let start = Instant::now();
    while !dir.join("os6.bd.partial").exists() && !f.exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let err = run_err(&["one-sided", "-p", "6", "-j", "1", "--no-gammon", "-q", "-o", name]);
    // Refused by the lock, or (had the first ended meanwhile) by the existing file, or
    // (ended between the check and the lock) when putting its file in place.
    assert!(
        err.contains("another run is writing this output")
            || err.contains("exists (use --force")
            || err.contains("appeared while this run was writing it"),
        "{err}"
    );
    let out = first.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The first run's file, byte for byte (the no-gammon run used to truncate it).
    assert_eq!(md5_hex(&std::fs::read(&f).unwrap()), MD5_OS6);
    let v = ours().args(["verify", name, "-q"]).output().unwrap();
    assert_eq!(v.status.code(), Some(0), "{}", String::from_utf8_lossy(&v.stdout));
    assert_eq!(file_names(&dir), ["os6.bd", "os6.bd.sha256"]);
}

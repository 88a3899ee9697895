//! Command-line behaviour: exit codes, error messages, temporary files, thread-count
//! independence, the wide header, headerless files, verify.

mod common;

use common::{ours, run_err, run_ok, scratch};
use gen_bearoff::{HeaderStyle, OneSidedDb, TwoSidedDb};

#[test]
fn bad_flags_and_files_exit_2_with_one_message() {
    let dir = scratch("cli-errors");
    let out = ours()
        .args(["one-sided", "--points", "0", "-o"])
        .arg(dir.join("x.bd"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("gen-bearoff: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // The ranges the flags take, also for values no byte holds.
    for (args, needle) in [
        (["one-sided", "-p", "-1"], "-1 is not in 1..=24"),
        (["one-sided", "-p", "25"], "25 is not in 1..=24"),
        (["two-sided", "-c", "16"], "16 is not in 1..=15"),
    ] {
        let out = ours()
            .args(args)
            .arg("-o")
            .arg(dir.join("x.bd"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("gen-bearoff: ") && err.contains(needle), "{err}");
    }
    let missing = dir.join("missing.bd");
    let out = ours()
        .args(["dump"])
        .arg(&missing)
        .args(["-n", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.bd"));
    // Truncated file.
    let f = dir.join("os3.bd");
    run_ok(&["one-sided", "-p", "3", "-o", f.to_str().unwrap(), "-q"]);
    let bytes = std::fs::read(&f).unwrap();
    std::fs::write(&f, &bytes[..bytes.len() - 3]).unwrap();
    let out = ours()
        .args(["dump", f.to_str().unwrap(), "-n", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("os3.bd") && err.contains("truncated"), "{err}");
    // verify reports a damaged file as a problem found (exit 1, issue 19): first by its
    // checksum sidecar, and without one by its size.
    for sidecar in [true, false] {
        if !sidecar {
            std::fs::remove_file(dir.join("os3.bd.sha256")).unwrap();
        }
        let out = ours().args(["verify", f.to_str().unwrap()]).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8_lossy(&out.stdout);
        let want = if sidecar { "its sidecar" } else { "truncated" };
        assert!(
            text.contains("os3.bd: 1 problem(s)") && text.contains(want),
            "{text}"
        );
    }
    // A position outside the database is an error, not garbage.
    let f = dir.join("ts.bd");
    run_ok(&["two-sided", "-p", "6", "-c", "2", "-o", f.to_str().unwrap(), "-q"]);
    let out = ours()
        .args(["dump", f.to_str().unwrap(), "-p", "4HPwATDgc/ABMA"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = ours()
        .args(["dump", f.to_str().unwrap(), "-n", "784"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A badly written position is the argument's error, said before any file is read.
    let err = run_err(&["dump", "/nonexistent/ts.bd", "-p", "CgAAEAEAAAAAA"]);
    assert_eq!(
        err,
        "gen-bearoff: bad --position-id: position ID 'CgAAEAEAAAAAA' has 13 characters (expected 14)\n"
    );
}

#[test]
fn output_is_written_atomically_and_quietly() {
    let dir = scratch("cli-atomic");
    let f = dir.join("os4.bd");
    let out = run_ok(&["one-sided", "-p", "4", "-o", f.to_str().unwrap(), "--quiet"]);
    assert!(out.stderr.is_empty() && out.stdout.is_empty());
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut names = names;
    names.sort();
    assert_eq!(names, vec!["os4.bd".to_string(), "os4.bd.sha256".to_string()]);
    // A failing run (memory limit too small) leaves no file behind.
    let g = dir.join("ts.bd");
    let out = ours()
        .args([
            "two-sided",
            "-p",
            "6",
            "-c",
            "6",
            "--memory-limit",
            "1M",
            "-q",
            "-o",
        ])
        .arg(&g)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("memory"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

#[test]
fn results_do_not_depend_on_threads_or_bands() {
    let dir = scratch("cli-threads");
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    run_ok(&["one-sided", "-p", "6", "-j", "1", "-o", &p("a1"), "-q"]);
    run_ok(&["one-sided", "-p", "6", "-j", "3", "-o", &p("a3"), "-q"]);
    assert!(std::fs::read(p("a1")).unwrap() == std::fs::read(p("a3")).unwrap());
    run_ok(&["two-sided", "-p", "6", "-c", "5", "-j", "1", "-o", &p("t1"), "-q"]);
    run_ok(&["two-sided", "-p", "6", "-c", "5", "-j", "3", "-o", &p("t3"), "-q"]);
    // A memory limit small enough to force several bands and bucket files.
    run_ok(&[
        "two-sided",
        "-p",
        "6",
        "-c",
        "5",
        "--memory-limit",
        "3M",
        "-o",
        &p("tb"),
        "-q",
    ]);
    let t1 = std::fs::read(p("t1")).unwrap();
    assert!(t1 == std::fs::read(p("t3")).unwrap());
    assert!(t1 == std::fs::read(p("tb")).unwrap());
}

#[test]
fn wide_and_headerless_files_read_the_same_values() {
    let dir = scratch("cli-wide");
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    run_ok(&["one-sided", "-p", "5", "-o", &p("g.bd"), "-q"]);
    run_ok(&["one-sided", "-p", "5", "--format", "wide", "-o", &p("w.bd"), "-q"]);
    run_ok(&["one-sided", "-p", "5", "--no-header", "-o", &p("h.bd"), "-q"]);
    let g = OneSidedDb::open(p("g.bd")).unwrap();
    let w = OneSidedDb::open(p("w.bd")).unwrap();
    assert_eq!(w.style(), HeaderStyle::Wide);
    assert!(std::fs::read(p("w.bd"))
        .unwrap()
        .starts_with(b"bgkit-OS-05-15-1-1-0-W1"));
    let h = OneSidedDb::open_headerless(p("h.bd"), g.params()).unwrap();
    assert!(std::fs::read(p("h.bd")).unwrap()[..] == std::fs::read(p("g.bd")).unwrap()[40..]);
    for i in (0..g.count()).step_by(97) {
        let d = g.distribution(i).unwrap();
        assert_eq!(d, w.distribution(i).unwrap());
        assert_eq!(d, h.distribution(i).unwrap());
    }
    run_ok(&["two-sided", "-p", "6", "-c", "3", "-o", &p("tg.bd"), "-q"]);
    run_ok(&[
        "two-sided",
        "-p",
        "6",
        "-c",
        "3",
        "--format",
        "wide",
        "-o",
        &p("tw.bd"),
        "-q",
    ]);
    let a = TwoSidedDb::open(p("tg.bd")).unwrap();
    let b = TwoSidedDb::open(p("tw.bd")).unwrap();
    for i in (0..a.count()).step_by(13) {
        assert_eq!(a.equities(i).unwrap(), b.equities(i).unwrap());
    }
    // Headerless files can be dumped and verified with an assumed header.
    let out = run_ok(&[
        "verify",
        &p("h.bd"),
        "--assume-header",
        "gnubg-OS-05-15-1-1-0",
        "-q",
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("OK"));
    // Checker counts below 15 give a prefix of the 15-checker database.
    run_ok(&[
        "one-sided",
        "-p",
        "5",
        "-c",
        "7",
        "--no-compress",
        "-o",
        &p("c7.bd"),
        "-q",
    ]);
    run_ok(&["one-sided", "-p", "5", "--no-compress", "-o", &p("c15.bd"), "-q"]);
    let (a, b) = (
        std::fs::read(p("c7.bd")).unwrap(),
        std::fs::read(p("c15.bd")).unwrap(),
    );
    assert_eq!(&a[..12], b"gnubg-OS-05-");
    assert_eq!(&a[12..14], b"07");
    assert!(a[40..] == b[40..a.len()]);
}

#[test]
fn verify_accepts_good_files_and_rejects_altered_ones() {
    let dir = scratch("cli-verify");
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    for (name, args) in [
        ("os.bd", vec!["one-sided", "-p", "5"]),
        ("osn.bd", vec!["one-sided", "-p", "4", "--normal-dist"]),
        (
            "osc.bd",
            vec!["one-sided", "-p", "4", "--no-compress", "--no-gammon"],
        ),
        ("ts.bd", vec!["two-sided", "-p", "6", "-c", "4"]),
        ("tsc.bd", vec!["two-sided", "-p", "5", "-c", "3", "--no-cubeful"]),
    ] {
        let mut a = args.clone();
        let target = p(name);
        a.extend(["-o", target.as_str(), "-q"]);
        run_ok(&a);
        let out = run_ok(&["verify", &p(name), "--samples", "3000", "-q"]);
        assert!(String::from_utf8_lossy(&out.stdout).contains(": OK"), "{name}");
    }
    // Swap two records in the two-sided file: same size, wrong values.
    let mut t = std::fs::read(p("ts.bd")).unwrap();
    let (a, b) = (40 + 8 * 5000, 40 + 8 * 20000);
    for k in 0..8 {
        t.swap(a + k, b + k);
    }
    std::fs::write(p("ts-bad.bd"), &t).unwrap();
    let out = ours()
        .args(["verify", &p("ts-bad.bd"), "--samples", "44100", "-q"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Change a one-sided distribution but keep its sum: moved mass between two rolls.
    let db = OneSidedDb::open(p("osc.bd")).unwrap();
    let i = 3000u64;
    let d = db.distribution(i).unwrap();
    let k = d.bearoff.iter().position(|&v| v > 100).unwrap();
    let mut bytes = std::fs::read(p("osc.bd")).unwrap();
    let at = 40 + 64 * i as usize + 2 * k;
    let v = u16::from_le_bytes([bytes[at], bytes[at + 1]]) - 1;
    bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
    let w = u16::from_le_bytes([bytes[at + 2], bytes[at + 3]]) + 1;
    bytes[at + 2..at + 4].copy_from_slice(&w.to_le_bytes());
    std::fs::write(p("osc-bad.bd"), &bytes).unwrap();
    let out = ours()
        .args(["verify", &p("osc-bad.bd"), "--samples", "4000", "-q"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

//! Which header `--format` writes for files gnubg cannot read (24 points), and the
//! wording of some errors (audit defects 5 and 6).

mod common;

use std::process::Command;

use common::{have, ours, run_err, run_ok, scratch, BEAROFFDUMP};
use gen_bearoff::{OneSidedDb, TwoSidedDb};

fn header(path: &std::path::Path) -> String {
    let b = std::fs::read(path).unwrap();
    String::from_utf8_lossy(&b[..40])
        .trim_end_matches(['\n', 'x'])
        .to_string()
}

#[test]
fn auto_writes_gnubgs_header_only_where_gnubg_reads_the_points() {
    let dir = scratch("header-points");
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    run_ok(&["one-sided", "-p", "24", "-c", "1", "-q", "-o", &p("o24.bd")]);
    run_ok(&["one-sided", "-p", "23", "-c", "1", "-q", "-o", &p("o23.bd")]);
    run_ok(&["two-sided", "24x1", "-q", "-o", &p("t24.bd")]);
    run_ok(&["two-sided", "23x1", "-q", "-o", &p("t23.bd")]);
    assert_eq!(header(&dir.join("o24.bd")), "bgkit-OS-24-01-1-1-0-W1");
    assert_eq!(header(&dir.join("o23.bd")), "gnubg-OS-23-01-1-1-0");
    assert_eq!(header(&dir.join("t24.bd")), "bgkit-TS-24-01-1-W1");
    assert_eq!(header(&dir.join("t23.bd")), "gnubg-TS-23-01-1");
    // Readable here, with the values of the headerless layout (one-sided: the data of
    // the wide file differs only in its 64-bit offsets).
    run_ok(&[
        "one-sided",
        "-p",
        "24",
        "-c",
        "1",
        "--no-header",
        "-q",
        "-o",
        &p("o24h.bd"),
    ]);
    let wide = OneSidedDb::open(p("o24.bd")).unwrap();
    let bare = OneSidedDb::open_headerless(p("o24h.bd"), wide.params()).unwrap();
    for i in 0..wide.count() {
        assert_eq!(wide.distribution(i).unwrap(), bare.distribution(i).unwrap());
    }
    let t = TwoSidedDb::open(p("t24.bd")).unwrap();
    assert_eq!(t.count(), 25 * 25);
    // An explicit gnubg header for 24 points is refused before any work.
    for args in [
        vec!["one-sided", "-p", "24", "-c", "1", "--format", "gnubg", "-o"],
        vec!["two-sided", "24x1", "--format", "gnubg", "-o"],
    ] {
        let mut a = args.clone();
        let out = p("g24.bd");
        a.push(&out);
        let err = run_err(&a);
        assert_eq!(
            err,
            "gen-bearoff: --format gnubg: gnubg reads bearoff files of at most 23 points, not 24; use --format auto or wide (bgkit's wide header)\n"
        );
        assert!(!dir.join("g24.bd").exists());
    }
    let err = run_err(&[
        "two-sided-plan",
        "24x1",
        "--format",
        "gnubg",
        "--work",
        &p("W"),
        "-q",
    ]);
    assert!(err.contains("at most 23 points"), "{err}");
    if !have(&[BEAROFFDUMP]) {
        return;
    }
    // gnubg itself: it reads the 23-point files, and refuses a 24-point file with gnubg's
    // header (made here from the headerless data), which is why auto does not write one.
    for (f, what) in [("o23.bd", "1-sided bearoff"), ("t23.bd", "2-sided bearoff")] {
        let out = Command::new(BEAROFFDUMP)
            .args([&p(f), "-n", "1"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains(what) && text.contains("on 23 points"),
            "{f}: {text}"
        );
    }
    let mut forged = b"gnubg-OS-24-01-1-1-0".to_vec();
    forged.resize(39, b'x');
    forged.push(b'\n');
    forged.extend(std::fs::read(p("o24h.bd")).unwrap());
    std::fs::write(p("forged.bd"), &forged).unwrap();
    let out = Command::new(BEAROFFDUMP)
        .args([&p("forged.bd"), "-n", "1"])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("illegal number of points: 24"), "{text}");
}

#[test]
fn memory_limits_are_said_in_a_unit_that_shows_them() {
    let dir = scratch("memory-units");
    let f = dir.join("x.bd");
    let name = f.to_str().unwrap();
    // 816 = binom(18, 3) positions of 242 bytes (README: "Memory bounds").
    let err = run_err(&["one-sided", "-p", "3", "--memory-limit", "5k", "-q", "-o", name]);
    assert_eq!(
        err,
        "gen-bearoff: one-sided 3x15 needs about 197.47 kB of memory (816 positions x 242 bytes); the limit is 5.00 kB (--memory-limit)\n"
    );
    let err = run_err(&["two-sided", "6x6", "--memory-limit", "3M", "-q", "-o", name]);
    assert!(
        err.starts_with("gen-bearoff: two-sided 6x6 needs at least ")
            && err.ends_with("; the limit is 3.00 MB (see --memory-limit)\n")
            && !err.contains("GB"),
        "{err}"
    );
    // The window of 6x6 (README's table: 5.7 MB) is said in MB.
    assert!(err.contains("(window 5.7"), "{err}");
}

#[test]
fn errors_name_what_the_user_gave() {
    let dir = scratch("messages");
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    run_ok(&["two-sided", "6x2", "-q", "-o", &p("ts.bd")]);
    // An XGID is not called a Position ID (3 checkers on the ace points: not in 6x2).
    let xgid = "XGID=-C----------------------c-:0:0:1:00:0:0:0:0:10";
    let err = run_err(&["dump", &p("ts.bd"), &format!("-p={xgid}")]);
    assert!(
        err.contains(&format!("position '{xgid}' (Position ID ")) && !err.contains("Position ID 'XGID"),
        "{err}"
    );
    assert!(
        err.contains("each side needs at most 2 checkers within its first 6 points"),
        "{err}"
    );
    let err = run_err(&["dump", &p("ts.bd"), "-p", "4HPwATDgc/ABMA"]);
    assert!(err.contains("Position ID '4HPwATDgc/ABMA': each side"), "{err}");
    // Only the flags given are named (two of them are hidden from --help).
    run_ok(&["two-sided-plan", "6x2", "--work", &p("W"), "-q"]);
    let w = p("W");
    let with = |flags: &[&str]| {
        let mut a = vec!["two-sided", "6x2", "--work", w.as_str(), "--shard", "1/2"];
        a.extend_from_slice(flags);
        run_err(&a)
    };
    assert_eq!(
        with(&["--resume"]),
        "gen-bearoff: --resume is for one-process builds, not with --work (a rerun task redoes its part)\n"
    );
    assert_eq!(
        with(&["--band-size", "1M", "--stop-after-level", "3"]),
        "gen-bearoff: --band-size and --stop-after-level are for one-process builds, not with --work (a rerun task redoes its part)\n"
    );
    // --assume-header on a file that has a header: said so, not a nonsense offset.
    run_ok(&["one-sided", "-p", "4", "-q", "-o", &p("os4.bd")]);
    for cmd in [vec!["verify"], vec!["dump"]] {
        let mut a = cmd.clone();
        let f = p("os4.bd");
        a.extend([f.as_str(), "--assume-header", "gnubg-OS-04-15-1-1-0"]);
        if cmd[0] == "dump" {
            a.extend(["-n", "3"]);
        }
        assert_eq!(
            run_err(&a),
            format!("gen-bearoff: {f}: the file has a header of its own (gnubg-OS-04-15-1-1-0); --assume-header is for headerless files: leave it out\n")
        );
    }
    // --format's help in two-sided says nothing of offsets two-sided files do not have.
    for sub in ["two-sided", "two-sided-plan"] {
        let out = ours().args([sub, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            !help.contains("fails if offsets do not fit") && !help.contains("wide header (64-bit offsets)"),
            "{help}"
        );
        assert!(help.contains("at most 23 points"), "{help}");
    }
}

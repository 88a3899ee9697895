//! `gen-bearoff dump` against gnubg's `bearoffdump` on the same files: same lines, same
//! numbers, apart from the documented differences (no board picture, the last
//! distribution row's gammon columns, the cubeless-only equity).

mod common;

use std::path::Path;
use std::process::Command;

use common::{have_gnubg, run_ok, scratch, BEAROFFDUMP};

fn bearoffdump(file: &Path, args: &[&str]) -> String {
    let out = Command::new(BEAROFFDUMP).arg(file).args(args).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn ours(file: &Path, args: &[&str]) -> String {
    let mut a = vec!["dump", file.to_str().unwrap()];
    a.extend_from_slice(args);
    String::from_utf8(run_ok(&a).stdout).unwrap()
}

/// gnubg's output without the 13 lines of the board picture.
fn without_board(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(" GNU Backgammon  Position ID:"))
        .expect("position id line");
    let mut v: Vec<String> = lines[..=at].iter().map(|s| s.to_string()).collect();
    v.extend(lines[at + 14..].iter().map(|s| s.to_string()));
    v
}

fn compare(file: &Path, args: &[&str], cubeless_only: bool) {
    let g = without_board(&bearoffdump(file, args));
    let o: Vec<String> = ours(file, args).split('\n').map(str::to_string).collect();
    assert_eq!(
        g.len(),
        o.len(),
        "line count for {args:?}:\n{}\n---\n{}",
        g.join("\n"),
        o.join("\n")
    );
    for (a, b) in g.iter().zip(&o) {
        if a == b {
            continue;
        }
        // gnubg loses the gammon columns of the last row.
        if a.ends_with("\t\t") && b.starts_with(a.as_str()) {
            continue;
        }
        // gnubg prints 2e - 1 for the equity of a cubeless-only file.
        if cubeless_only && a.starts_with("Cubeless equity") {
            let num = |s: &str| s.rsplit(' ').next().unwrap().parse::<f64>().unwrap();
            assert!(((num(a) + 1.0) / 2.0 - num(b)).abs() < 1e-4, "{a} / {b}");
            continue;
        }
        panic!("{args:?}: gnubg '{a}' vs ours '{b}'");
    }
}

#[test]
fn one_sided_dumps_match_bearoffdump() {
    if !have_gnubg() {
        return;
    }
    let dir = scratch("dump-os");
    let f = dir.join("os6.bd");
    run_ok(&["one-sided", "-p", "6", "-o", f.to_str().unwrap(), "-q"]);
    let g = dir.join("os5g.bd");
    // Compressed: for an uncompressed file without gammon arrays gnubg's reader fills the
    // gammon columns from uninitialised memory, so its output is not reproducible.
    run_ok(&[
        "one-sided",
        "-p",
        "5",
        "--no-gammon",
        "-o",
        g.to_str().unwrap(),
        "-q",
    ]);
    let n = dir.join("os4n.bd");
    run_ok(&[
        "one-sided",
        "-p",
        "4",
        "--normal-dist",
        "-o",
        n.to_str().unwrap(),
        "-q",
    ]);
    for args in [
        vec!["-n", "6441"],
        vec!["-n", "1"],
        vec!["-n", "54263"],
        vec!["-n", "38760"],
        vec!["-n", "1234567"],
        vec!["-p", "2x0AAOi2AQAAAA"],
        vec!["-p", "CgAAEAEAAAAAAA"],
    ] {
        compare(&f, &args, false);
    }
    for args in [
        vec!["-n", "15000"],
        vec!["-n", "777"],
        vec!["-p", "CgAAEAEAAAAAAA"],
    ] {
        compare(&g, &args, false);
    }
    for args in [vec!["-n", "3000"], vec!["-n", "3875"], vec!["-n", "10"]] {
        compare(&n, &args, false);
    }
}

#[test]
fn two_sided_dumps_match_bearoffdump() {
    if !have_gnubg() {
        return;
    }
    let dir = scratch("dump-ts");
    let f = dir.join("ts66.bd");
    run_ok(&["two-sided", "-p", "6", "-c", "6", "-o", f.to_str().unwrap(), "-q"]);
    let c = dir.join("ts63c.bd");
    run_ok(&[
        "two-sided",
        "-p",
        "6",
        "-c",
        "3",
        "--no-cubeful",
        "-o",
        c.to_str().unwrap(),
        "-q",
    ]);
    for args in [
        vec!["-n", "14788"],
        vec!["-n", "853775"],
        vec!["-n", "925"],
        vec!["-p", "CgAAEAEAAAAAAA"],
    ] {
        compare(&f, &args, false);
    }
    for args in [vec!["-n", "1358"], vec!["-n", "200"], vec!["-n", "7055"]] {
        compare(&c, &args, true);
    }
    // The same position as an XGID (gnubg 1.07's `set xgid` of it shows Position ID
    // CgAAEAEAAAAAAA) and with a Match ID: the same dump; with the other player to move
    // (turn -1), gnubg's IgAAUAAAAAAAAA.
    let by_id = ours(&f, &["-p", "CgAAEAEAAAAAAA"]);
    for other in [
        "XGID=--A--A----------------aa--:0:0:1:00:0:0:0:0:10",
        "CgAAEAEAAAAAAA:cAkAAAAAAAAA",
    ] {
        assert_eq!(ours(&f, &["-p", other]), by_id, "{other}");
    }
    assert_eq!(
        ours(&f, &["-p=--A--A----------------aa--:0:0:-1:00:0:0:0:0:10"]),
        ours(&f, &["-p", "IgAAUAAAAAAAAA"])
    );
}

/// gnubg's `%+7.4f` of an equity field read with a plain `f32` division, as gnubg's
/// source writes it (Debian's fast-math build multiplies by the reciprocal instead).
fn divided(u: u32) -> String {
    let v = (u as f32 / 16_777_215.0f32 - 0.5) * 6.0;
    format!("{:+7.4}", f64::from(v))
}

/// Every record of a 1-checker file, and the records of a 2-checker file whose printed
/// equities depend on how the division is done (plus a sample of the others), print
/// exactly bearoffdump's lines (board picture left out): four cubeful equities, nothing
/// more. Our side runs in process (the library's `dump`, which the CLI prints as is).
#[test]
fn hyper_dumps_match_bearoffdump() {
    use gen_bearoff::dump::{dump, DumpTarget};
    use gen_bearoff::{BearoffDb, HyperDb};
    if !have_gnubg() {
        return;
    }
    let dir = scratch("dump-hyper");
    let build = |c: &str, name: &str| {
        let f = dir.join(name);
        run_ok(&[
            "hyper",
            "-c",
            c,
            "--gnubg-compat",
            "-q",
            "--no-checkpoint",
            "-o",
            f.to_str().unwrap(),
        ]);
        f
    };
    let check = |f: &Path, records: &[u64]| -> usize {
        let name = f.to_str().unwrap();
        let db = BearoffDb::open(f).unwrap();
        for &i in records {
            let g = without_board(&bearoffdump(f, &["-n", &i.to_string()]));
            let o = dump(&db, &DumpTarget::Index(i), name).unwrap();
            let o: Vec<&str> = o.split('\n').collect();
            assert_eq!(g, o, "record {i} of {name}");
        }
        records.len()
    };
    // 1 checker: every record (index 0 is "no index" to gnubg).
    let f1 = build("1", "h1.bd");
    let all: Vec<u64> = (1..26 * 26).collect();
    check(&f1, &all);
    // Record 531: bearoffdump prints -0.0049 where the plain division gives -0.0050;
    // illegal records (both sides on one point) +0.0000 where it gives -0.0000.
    let text = String::from_utf8(run_ok(&["dump", f1.to_str().unwrap(), "-n", "531"]).stdout).unwrap();
    assert!(text.contains("Centered cube                 : -0.0049"), "{text}");
    let illegal = 26 * 3 + 22;
    let text = String::from_utf8(run_ok(&["dump", f1.to_str().unwrap(), "-n", &illegal.to_string()]).stdout)
        .unwrap();
    assert!(text.contains("Owned cube                    : +0.0000"), "{text}");

    // 2 checkers: every 40th of the records where the way of dividing shows (about 15,000
    // of 123,201), and every 2000th record.
    let f2 = build("2", "h2.bd");
    let h = HyperDb::open(&f2).unwrap();
    let n = 351u64 * 351;
    let mut picked = Vec::new();
    let mut sensitive = 0;
    for i in 1..n {
        let r = h.record(i).unwrap();
        let e = r.cubeful();
        let differs = (0..4).any(|k| divided(r.raw[5 + k]) != format!("{:+7.4}", f64::from(e[k])));
        if differs {
            sensitive += 1;
        }
        if (differs && sensitive % 40 == 1) || i % 2000 == 0 {
            picked.push(i);
        }
    }
    let start = board::Variant::Hypergammon2.start().position_id();
    eprintln!(
        "2 checkers: {sensitive} records print differently with a plain division; comparing {} records",
        picked.len()
    );
    assert!(sensitive > 1000, "{sensitive}");
    check(&f2, &picked);
    // And by Position ID.
    let g = without_board(&bearoffdump(&f2, &["-p", &start]));
    let o = ours(&f2, &["-p", &start]);
    assert_eq!(g, o.split('\n').collect::<Vec<_>>());
}

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

#[test]
fn hyper_dumps_match_bearoffdump() {
    if !have_gnubg() {
        return;
    }
    let dir = scratch("dump-hyper");
    let f = dir.join("hyper2.bd");
    run_ok(&[
        "hyper",
        "-c",
        "2",
        "-q",
        "--no-checkpoint",
        "-o",
        f.to_str().unwrap(),
    ]);
    let start = board::Variant::Hypergammon2.start().position_id();
    for args in [
        vec!["-n", "121792"],
        vec!["-n", "16695"],
        vec!["-n", "1"],
        vec!["-p", start.as_str()],
    ] {
        let g = without_board(&bearoffdump(&f, &args));
        let o: Vec<String> = ours(&f, &args).split('\n').map(str::to_string).collect();
        // Ours prints gnubg's lines, then the probabilities and cubeless equity gnubg
        // leaves out (before the final empty line).
        let common = g.len() - 1;
        assert!(
            o.len() > g.len(),
            "{args:?}\n{}\n---\n{}",
            g.join("\n"),
            o.join("\n")
        );
        assert_eq!(g[..common], o[..common], "{args:?}");
        assert!(
            o[common].starts_with("Cubeless equity"),
            "{args:?}: {}",
            o[common]
        );
    }
}

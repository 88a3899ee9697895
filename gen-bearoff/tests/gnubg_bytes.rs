//! Byte-for-byte comparison with gnubg 1.07's `makebearoff` over a spread of options
//! small enough for CI, and with the databases Debian ships.

mod common;

use std::path::Path;

use common::{have_gnubg, makebearoff, run_ok, scratch};

fn compare(name: &str, ours: &[&str], theirs: &[&str]) {
    let dir = scratch(name);
    let a = dir.join("ours.bd");
    let b = dir.join("gnubg.bd");
    let mut args = ours.to_vec();
    args.extend(["-o", a.to_str().unwrap(), "-q"]);
    run_ok(&args);
    makebearoff(theirs, &b);
    let (x, y) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(x.len(), y.len(), "{name}: sizes differ");
    if let Some(at) = x.iter().zip(&y).position(|(p, q)| p != q) {
        panic!("{name}: first difference at byte {at}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_sided_option_combinations_match_makebearoff() {
    if !have_gnubg() {
        return;
    }
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("os4", &["one-sided", "-p", "4"], &["-o", "4"]),
        (
            "os4-g",
            &["one-sided", "-p", "4", "--no-gammon"],
            &["-o", "4", "-g"],
        ),
        (
            "os4-c",
            &["one-sided", "-p", "4", "--no-compress"],
            &["-o", "4", "-c"],
        ),
        (
            "os4-cg",
            &["one-sided", "-p", "4", "--no-compress", "--no-gammon"],
            &["-o", "4", "-c", "-g"],
        ),
        (
            "os4-n",
            &["one-sided", "-p", "4", "--normal-dist"],
            &["-o", "4", "-n"],
        ),
        (
            "os4-H",
            &["one-sided", "-p", "4", "--no-header"],
            &["-o", "4", "-H"],
        ),
        (
            "os3-Hcg",
            &[
                "one-sided",
                "-p",
                "3",
                "--no-header",
                "--no-compress",
                "--no-gammon",
            ],
            &["-o", "3", "-H", "-c", "-g"],
        ),
        (
            "os5-n",
            &["one-sided", "-p", "5", "--normal-dist"],
            &["-o", "5", "-n"],
        ),
        (
            "os5-g",
            &["one-sided", "-p", "5", "--no-gammon"],
            &["-o", "5", "-g"],
        ),
        (
            "os2-c",
            &["one-sided", "-p", "2", "--no-compress"],
            &["-o", "2", "-c"],
        ),
        (
            "os1-n",
            &["one-sided", "-p", "1", "--normal-dist"],
            &["-o", "1", "-n"],
        ),
        // Seven points: the doubles window at a size beyond the manual's MD5 table here.
        ("os7", &["one-sided", "-p", "7"], &["-o", "7"]),
    ];
    for (name, ours, theirs) in cases {
        compare(name, ours, theirs);
    }
}

#[test]
fn one_sided_six_points_normal_distribution_matches_makebearoff() {
    if !have_gnubg() {
        return;
    }
    compare(
        "os6-n",
        &["one-sided", "-p", "6", "--normal-dist"],
        &["-o", "6", "-n"],
    );
}

#[test]
fn two_sided_option_combinations_match_makebearoff() {
    if !have_gnubg() {
        return;
    }
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("ts6x3", &["two-sided", "-p", "6", "-c", "3"], &["-t", "6x3"]),
        (
            "ts6x3-C",
            &["two-sided", "-p", "6", "-c", "3", "--no-cubeful"],
            &["-t", "6x3", "-C"],
        ),
        (
            "ts6x3-H",
            &["two-sided", "-p", "6", "-c", "3", "--no-header"],
            &["-t", "6x3", "-H"],
        ),
        (
            "ts6x4-CH",
            &["two-sided", "-p", "6", "-c", "4", "--no-cubeful", "--no-header"],
            &["-t", "6x4", "-C", "-H"],
        ),
        ("ts4x5", &["two-sided", "-p", "4", "-c", "5"], &["-t", "4x5"]),
        ("ts8x3", &["two-sided", "-p", "8", "-c", "3"], &["-t", "8x3"]),
        (
            "ts3x2-C",
            &["two-sided", "-p", "3", "-c", "2", "--no-cubeful"],
            &["-t", "3x2", "-C"],
        ),
    ];
    for (name, ours, theirs) in cases {
        compare(name, ours, theirs);
    }
}

#[test]
fn matches_the_databases_debian_ships() {
    let dir = scratch("shipped");
    for (shipped, args) in [
        ("/usr/share/gnubg/gnubg_os0.bd", vec!["one-sided", "-p", "6"]),
        (
            "/var/lib/gnubg/gnubg_ts0.bd",
            vec!["two-sided", "-p", "6", "-c", "6"],
        ),
    ] {
        if !Path::new(shipped).exists() {
            if !have_gnubg() {
                return;
            }
            eprintln!("SKIPPED comparison with {shipped}: not installed");
            continue;
        }
        let f = dir.join("x.bd");
        let mut a = args.clone();
        // --force: the second database replaces the first one's file.
        a.extend(["-o", f.to_str().unwrap(), "-q", "--force"]);
        run_ok(&a);
        assert!(
            std::fs::read(&f).unwrap() == std::fs::read(shipped).unwrap(),
            "differs from {shipped}"
        );
    }
}

/// The library in one call (`onesided::build_one_sided`, what the CLI runs), into
/// memory: gnubg's default spec gives the one-sided database Debian ships, byte for
/// byte, and gnubg's `-n` spec what `makebearoff -n` writes.
#[test]
fn the_library_builds_gnubgs_one_sided_database_in_memory() {
    use gen_bearoff::onesided::{build_one_sided, OneSidedSpec};
    use gen_bearoff::HeaderStyle;
    let shipped = Path::new("/usr/share/gnubg/gnubg_os0.bd");
    if !shipped.exists() {
        if have_gnubg() {
            eprintln!("SKIPPED: {} not installed", shipped.display());
        }
        return;
    }
    let mut bytes = Vec::new();
    let style = build_one_sided(&OneSidedSpec::new(6, 15), 1 << 30, &mut bytes, &|_| {}).unwrap();
    assert_eq!(style, HeaderStyle::Gnubg);
    assert!(
        bytes == std::fs::read(shipped).unwrap(),
        "differs from {}",
        shipped.display()
    );
    if !have_gnubg() {
        return;
    }
    let dir = scratch("library-normal");
    let theirs = dir.join("gnubg.bd");
    makebearoff(&["-o", "6", "-n"], &theirs);
    let mut normal = Vec::new();
    let spec = OneSidedSpec {
        normal: true,
        ..OneSidedSpec::new(6, 15)
    };
    build_one_sided(&spec, 0, &mut normal, &|_| {}).unwrap();
    assert!(
        normal == std::fs::read(&theirs).unwrap(),
        "differs from makebearoff -o 6 -n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

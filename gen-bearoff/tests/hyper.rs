//! Hypergammon databases against gnubg 1.07's `makehyper` (run here, at its default
//! threshold) and against published values.
//!
//! Measured differences (printed by the tests, documented in the README):
//! * `--gnubg-compat`: byte-identical files for 1 and 2 checkers;
//! * exact solver with gnubg's dance rule: every equity within 1.1e-6 of makehyper's,
//!   probabilities within 2.1e-5 (makehyper's choice between moves of nearly equal
//!   cubeless equity depends on its rounding);
//! * exact solver (default, correct dance rule): the same for the cubeless values; the
//!   cubeful ones differ by up to 2.2e-2 where rolls cannot be played.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{have, run_ok, MAKEHYPER};
use gen_bearoff::hyper::verify::{compare, Comparison};
use gen_bearoff::hyper::{opening, HyperDb};

fn diff(a: &Path, b: &Path) -> Comparison {
    compare(&HyperDb::open(a).unwrap(), &HyperDb::open(b).unwrap()).unwrap()
}

/// A directory for files every test of this binary shares (built once per run): under
/// cargo's per-target temporary directory, emptied at the start of each run, so nothing
/// accumulates outside `target/`.
fn shared_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hyper-tests-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// makehyper's files for 1 and 2 checkers, built once (2 checkers take about 45 s).
fn gnubg_files() -> Option<&'static [PathBuf; 2]> {
    static FILES: OnceLock<Option<[PathBuf; 2]>> = OnceLock::new();
    FILES
        .get_or_init(|| {
            if !have(&[MAKEHYPER]) {
                return None;
            }
            let dir = shared_dir("makehyper");
            let files = [1, 2].map(|c| dir.join(format!("hyper{c}.bd")));
            let children: Vec<_> = [1, 2]
                .iter()
                .zip(&files)
                .map(|(c, f)| {
                    Command::new(MAKEHYPER)
                        .args(["-c", &c.to_string(), "-n", "-f"])
                        .arg(f)
                        .current_dir(&dir)
                        .stdout(std::process::Stdio::null())
                        .spawn()
                        .unwrap()
                })
                .collect();
            for mut child in children {
                assert!(child.wait().unwrap().success(), "makehyper failed");
            }
            Some(files)
        })
        .as_ref()
}

/// Our files: [exact, exact with gnubg's dance rule, gnubg-compatible] × [1, 2] checkers.
fn our_files() -> &'static [[PathBuf; 2]; 3] {
    static FILES: OnceLock<[[PathBuf; 2]; 3]> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = shared_dir("ours");
        let flags: [&[&str]; 3] = [&[], &["--gnubg-dance"], &["--gnubg-compat"]];
        let names = ["exact", "dance", "compat"];
        [0, 1, 2].map(|k| {
            [1, 2].map(|c| {
                let f = dir.join(format!("{}{c}.bd", names[k]));
                let mut args = vec!["hyper", "-q", "--no-checkpoint", "-c"];
                let cs = c.to_string();
                args.push(&cs);
                args.extend_from_slice(flags[k]);
                args.extend(["-o", f.to_str().unwrap()]);
                run_ok(&args);
                f
            })
        })
    })
}

#[test]
fn gnubg_compatible_files_are_byte_identical_to_makehyper() {
    let Some(gnubg) = gnubg_files() else { return };
    for (c, (ours, theirs)) in our_files()[2].iter().zip(gnubg).enumerate() {
        let (a, b) = (std::fs::read(ours).unwrap(), std::fs::read(theirs).unwrap());
        assert_eq!(a.len(), b.len());
        let differing = a.iter().zip(&b).filter(|(x, y)| x != y).count();
        eprintln!(
            "{} checkers, --gnubg-compat vs makehyper: {differing} bytes differ",
            c + 1
        );
        assert!(a == b, "{} checkers: {differing} bytes differ", c + 1);
    }
}

#[test]
fn exact_solution_against_makehyper() {
    let Some(gnubg) = gnubg_files() else { return };
    let ours = our_files();
    for c in 0..2 {
        let exact = diff(&ours[0][c], &gnubg[c]);
        let dance = diff(&ours[1][c], &gnubg[c]);
        eprintln!("{} checkers, exact vs makehyper: {exact:?}", c + 1);
        eprintln!(
            "{} checkers, exact with gnubg's dance rule vs makehyper: {dance:?}",
            c + 1
        );
        // With gnubg's rule for dances every equity is within its convergence (1e-5
        // threshold) and our 24-bit rounding; the probabilities may follow the other of
        // two moves of (nearly) equal equity.
        assert!(dance.cubeless.0 < 1e-5 && dance.cubeful.0 < 1e-5, "{dance:?}");
        assert!(dance.probabilities.0 < 5e-5, "{dance:?}");
        // The correct rule changes only cubeful values, and only where dances occur (there
        // are none with one checker: a single checker cannot block).
        assert!(
            exact.cubeless.0 < 1e-5 && exact.probabilities.0 < 5e-5,
            "{exact:?}"
        );
        if c == 0 {
            assert!(exact.cubeful.0 < 1e-5, "{exact:?}");
        } else {
            assert!(exact.cubeful.0 > 1e-3 && exact.cubeful.0 < 0.1, "{exact:?}");
            // Records differing by more than 1e-3: all cubeful (see above).
            assert!(exact.beyond[4] > 100, "{exact:?}");
        }
    }
}

/// Start-position records of makehyper's files (format reference §6.4) and the
/// opening-roll winner's cubeless equity in them.
#[test]
fn start_of_game_values() {
    let start: [([f64; 5], f64, [f64; 4], f64); 2] = [
        (
            [0.601583, 0.601583, 0.079588, 0.398417, 0.033146],
            0.452774,
            [0.5883, 0.5393, 0.4557, 0.3864],
            0.3142568,
        ),
        (
            [0.535474, 0.418396, 0.041678, 0.349111, 0.029667],
            0.152244,
            [0.3278, 0.2092, 0.2046, 0.0109],
            0.1133301,
        ),
    ];
    let ours = our_files();
    for (c, (p, e, cubeful, winner)) in start.iter().enumerate() {
        for (k, name) in ["exact", "exact, gnubg's dance rule", "gnubg-compatible"]
            .iter()
            .enumerate()
        {
            let o = opening(&HyperDb::open(&ours[k][c]).unwrap()).unwrap();
            eprintln!("{} checkers, {name}: {o:?}", c + 1);
            // Probabilities: exact in gnubg's own file (6 decimals); ours may follow the
            // other of two equal moves in some successors (up to 2e-5).
            let tol_p = if k == 2 { 5e-7 } else { 3e-5 };
            for (q, (got, want)) in o.start.probabilities.iter().zip(p).enumerate() {
                assert!((got - want).abs() < tol_p, "{name} {q}");
            }
            assert!((o.start.equity - e).abs() < 2e-6, "{name}");
            assert!((o.opening_winner.equity - winner).abs() < 2e-6, "{name}");
            // Cubeful (4 decimals): the correct dance rule moves them by up to 2e-4.
            let tol_e = if k == 0 { 3e-4 } else { 5e-5 };
            for (q, (got, want)) in o.start_cubeful.iter().zip(cubeful).enumerate() {
                assert!((got - want).abs() < tol_e, "{name} {q}");
            }
        }
    }
}

/// Tom Keith's solution of 3-checker hypergammon
/// (bkgm.com/articles/Keith/Hyper06): the winner of the opening roll has cubeless
/// equity +0.0836795444708631; wins 0.52118, win gammons 0.31021, win backgammons
/// 0.02082, lose gammons 0.27245, lose backgammons 0.01726. The gammon rates depend on
/// which of two moves of equal cubeless equity a solver keeps: ours are within 2e-5.
///
/// Building the 3-checker database takes minutes, so this runs on request:
/// `cargo test -p gen-bearoff --release --test hyper -- --ignored`, or with an existing
/// file in `BGKIT_HYPER3`.
#[test]
#[ignore = "builds the 3-checker database (minutes); run with --ignored"]
fn three_checkers_match_tom_keith() {
    let file = match std::env::var_os("BGKIT_HYPER3") {
        Some(f) => PathBuf::from(f),
        None => {
            let f = shared_dir("hyper3").join("hyper3.bd");
            run_ok(&[
                "hyper",
                "-c",
                "3",
                "-q",
                "--no-checkpoint",
                "-o",
                f.to_str().unwrap(),
            ]);
            f
        }
    };
    let o = opening(&HyperDb::open(&file).unwrap()).unwrap();
    eprintln!("3 checkers: {o:?}");
    assert!(
        (o.opening_winner.equity - 0.083_679_544_470_863_1).abs() < 1e-6,
        "{o:?}"
    );
    let keith = [0.52118, 0.31021, 0.02082, 0.27245, 0.01726];
    assert!(
        (o.opening_winner.probabilities[0] - keith[0]).abs() < 1e-5,
        "{o:?}"
    );
    for (got, want) in o.opening_winner.probabilities.iter().zip(keith).skip(1) {
        assert!((got - want).abs() < 3e-5, "{o:?}");
    }
}

/// gnubg's manual example for 3 checkers (format reference §6.4): `ADAAAQAkIAAAAA`,
/// records 3018 / 2831, owned −0.0230, centred −0.2310, centred with Jacoby −0.2186,
/// opponent owns −0.3548, outputs 0.456 / 0.244 / 0.014 / 0.318 / 0.019. gnubg's values
/// use its rule for rolls that cannot be played, so the exact solver is run with
/// `--gnubg-dance` (the correct rule moves these cubeful values by about 1e-3).
///
/// Builds a 3-checker database (minutes): run with `--ignored`, or name an existing
/// `--gnubg-dance` file in `BGKIT_HYPER3_DANCE`.
#[test]
#[ignore = "builds the 3-checker database (minutes); run with --ignored"]
#[allow(clippy::approx_constant)] // 0.318 is gnubg's printed lose-gammon rate, not 1/π
fn three_checkers_match_the_gnubg_manual_example() {
    let file = match std::env::var_os("BGKIT_HYPER3_DANCE") {
        Some(f) => PathBuf::from(f),
        None => {
            let f = shared_dir("hyper3-dance").join("hyper3.bd");
            run_ok(&[
                "hyper",
                "-c",
                "3",
                "--gnubg-dance",
                "-q",
                "--no-checkpoint",
                "-o",
                f.to_str().unwrap(),
            ]);
            f
        }
    };
    let db = HyperDb::open(&file).unwrap();
    let r = db.record(db.record_index(3018, 2831).unwrap()).unwrap();
    eprintln!(
        "3 checkers, ADAAAQAkIAAAAA: {:?} {:?}",
        r.exact_probabilities(),
        r.exact_cubeful()
    );
    for (got, want) in r.exact_cubeful().iter().zip([-0.0230, -0.2310, -0.2186, -0.3548]) {
        assert!((got - want).abs() <= 5e-5, "{got} vs {want}");
    }
    for (got, want) in r
        .exact_probabilities()
        .iter()
        .zip([0.456, 0.244, 0.014, 0.318, 0.019])
    {
        assert!((got - want).abs() <= 5e-4, "{got} vs {want}");
    }
}

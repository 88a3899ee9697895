//! gnubg itself reads our hypergammon files: Debian's gnubg 1.07 loads
//! `/var/lib/gnubg/hyper<C>.bd` for the C-checker variants, and its `eval` prints the
//! record's cubeful equities and probabilities.
//!
//! The test installs our files there (moving any existing ones aside and putting them
//! back afterwards, also on failure) under a lock directory, so that no other test run
//! uses the files at the same time. It checks a record where our exact file and our
//! gnubg-compatible file differ in the second decimal: gnubg prints each file's own value,
//! so it really reads what we wrote.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use common::{have, run_ok, scratch, GNUBG};
use gen_bearoff::hyper::{Class, HyperDb, HyperSpace};
use test_support::gnubg_output;

const DIR: &str = "/var/lib/gnubg";

/// Holds `DIR/.bgkit-hyper-test.lock` and restores the original hyper files on drop.
struct Installed {
    lock: PathBuf,
    moved: Vec<(PathBuf, PathBuf)>,
    ours: Vec<PathBuf>,
}

impl Installed {
    fn lock() -> Option<Installed> {
        let lock = Path::new(DIR).join(".bgkit-hyper-test.lock");
        let start = Instant::now();
        loop {
            match std::fs::create_dir(&lock) {
                Ok(()) => break,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    // A lock left by a killed run is stale after half an hour.
                    let age = std::fs::metadata(&lock)
                        .and_then(|m| m.modified())
                        .ok()
                        .and_then(|t| SystemTime::now().duration_since(t).ok())
                        .unwrap_or_default();
                    if age > Duration::from_secs(1800) {
                        let _ = std::fs::remove_dir(&lock);
                    } else if start.elapsed() > Duration::from_secs(600) {
                        panic!("{} is held by another run", lock.display());
                    }
                    std::thread::sleep(Duration::from_millis(200));
                }
                Err(e) => {
                    if std::env::var("BGKIT_REQUIRE_GNUBG").as_deref() == Ok("1") {
                        panic!("cannot write to {DIR}: {e}");
                    }
                    eprintln!("SKIPPED gnubg_reads_our_hyper_files: cannot write to {DIR}: {e}");
                    return None;
                }
            }
        }
        Some(Installed {
            lock,
            moved: Vec::new(),
            ours: Vec::new(),
        })
    }

    /// Puts `file` in place as `hyper<c>.bd`.
    fn install(&mut self, c: usize, file: &Path) {
        let target = Path::new(DIR).join(format!("hyper{c}.bd"));
        if target.exists() && !self.ours.contains(&target) {
            let aside = Path::new(DIR).join(format!("hyper{c}.bd.bgkit-test-backup"));
            std::fs::rename(&target, &aside).unwrap();
            self.moved.push((aside, target.clone()));
        }
        std::fs::copy(file, &target).unwrap();
        if !self.ours.contains(&target) {
            self.ours.push(target);
        }
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        for f in &self.ours {
            let _ = std::fs::remove_file(f);
        }
        for (aside, target) in &self.moved {
            let _ = std::fs::rename(aside, target);
        }
        let _ = std::fs::remove_dir(&self.lock);
    }
}

/// gnubg's `eval` of a position in the `c`-checker variant: the four cubeful equities.
fn gnubg_eval(c: usize, position_id: &str) -> [f64; 4] {
    let script =
        format!("set variation {c}-chequer-hypergammon\nnew session\nset board {position_id}\neval\n");
    let out = gnubg_output(
        Command::new(GNUBG).args(["-t", "-q", "-r"]),
        Some(script.as_bytes()),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("Evaluator: \tHypergammon-{c}")),
        "gnubg did not use the hypergammon database:\n{text}"
    );
    let value = |label: &str| -> f64 {
        text.lines()
            .find(|l| l.starts_with(label) && l.contains(':'))
            .and_then(|l| l.rsplit(':').next())
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no '{label}' in gnubg's output:\n{text}"))
    };
    [
        value("Owned cube"),
        value("Centered cube  "),
        value("Centered cube (Jacoby rule)"),
        value("Opponent owns cube"),
    ]
}

#[test]
fn gnubg_reads_our_hyper_files() {
    if !have(&[GNUBG]) {
        return;
    }
    let dir = scratch("hyper-gnubg");
    let file = |name: &str, c: usize, flags: &[&str]| {
        let f = dir.join(format!("{name}{c}.bd"));
        let cs = c.to_string();
        let mut args = vec![
            "hyper",
            "-q",
            "--no-checkpoint",
            "-c",
            &cs,
            "-o",
            f.to_str().unwrap(),
        ];
        args.extend_from_slice(flags);
        run_ok(&args);
        f
    };
    let exact = [file("exact", 1, &[]), file("exact", 2, &[])];
    let compat = file("compat", 2, &["--gnubg-compat"]);
    // The contact record where the two 2-checker files differ most.
    let (a, b) = (HyperDb::open(&exact[1]).unwrap(), HyperDb::open(&compat).unwrap());
    let space = HyperSpace::new(2).unwrap();
    let mut pick = (0.0, 0usize);
    for r in 0..space.records() {
        if space.class(r) != Class::Contact {
            continue;
        }
        let (x, y) = (
            a.record(r as u64).unwrap().cubeful(),
            b.record(r as u64).unwrap().cubeful(),
        );
        let d = (0..4).map(|q| (x[q] - y[q]).abs()).fold(0.0, f32::max);
        if d > pick.0 {
            pick = (d, r);
        }
    }
    assert!(pick.0 > 5e-3, "{pick:?}");
    let pos2 = space.position(pick.1).position_id();
    let start1 = board::Variant::Hypergammon1.start();
    let Some(mut installed) = Installed::lock() else {
        return;
    };
    installed.install(1, &exact[0]);
    for (f, db) in [(&exact[1], &a), (&compat, &b)] {
        installed.install(2, f);
        let want = db.record(pick.1 as u64).unwrap().cubeful();
        let got = gnubg_eval(2, &pos2);
        eprintln!("gnubg on {}: {got:?}, ours {want:?}", f.display());
        for q in 0..4 {
            assert!(
                (got[q] - f64::from(want[q])).abs() < 1.5e-4,
                "{q}: {got:?} vs {want:?}"
            );
        }
    }
    let want = HyperDb::open(&exact[0])
        .unwrap()
        .record_of(&start1)
        .unwrap()
        .cubeful();
    let got = gnubg_eval(1, &start1.position_id());
    for q in 0..4 {
        assert!(
            (got[q] - f64::from(want[q])).abs() < 1.5e-4,
            "{q}: {got:?} vs {want:?}"
        );
    }
    drop(installed);
    assert!(!Path::new(DIR).join(".bgkit-hyper-test.lock").exists());
}

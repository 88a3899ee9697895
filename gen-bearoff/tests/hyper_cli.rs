//! `gen-bearoff hyper` on the command line: checkpoints and resume, thread-count
//! independence, errors; the reader's validation; `dump` and `verify` on hyper files.

mod common;

use std::path::Path;

use board::{Position, Variant};
use common::{file_names, ours, run_err, run_ok, scratch};
use gen_bearoff::hyper::{HyperDb, HyperRecord};
use gen_bearoff::{BearoffDb, BearoffError, Kind};

fn p(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// An interrupted run leaves its checkpoint; `--resume` finishes it with exactly the
/// file an uninterrupted run writes (both solvers, interrupted in each phase).
#[test]
fn interrupted_runs_resume_to_the_same_file() {
    let dir = scratch("hyper-resume");
    for (flags, stops) in [(vec![], vec!["12", "40"]), (vec!["--gnubg-compat"], vec!["9"])] {
        let full = p(&dir, "full.bd");
        let mut args = vec!["hyper", "-c", "2", "-q", "-o", &full];
        args.extend(&flags);
        run_ok(&args);
        assert_eq!(
            file_names(&dir),
            vec!["full.bd", "full.bd.sha256"],
            "the checkpoint is removed when done; the checksum sidecar is written"
        );
        for stop in &stops {
            let part = p(&dir, "part.bd");
            let mut args = vec!["hyper", "-c", "2", "-q", "-o", &part, "--max-iterations", stop];
            args.extend(&flags);
            let err = run_err(&args);
            assert!(err.contains("not converged") && err.contains("--resume"), "{err}");
            assert_eq!(
                file_names(&dir),
                vec!["full.bd", "full.bd.sha256", "part.bd.ckpt"]
            );
            // Without --resume the leftover checkpoint is not silently thrown away.
            let mut again = vec!["hyper", "-c", "2", "-q", "-o", &part];
            again.extend(&flags);
            assert!(run_err(&again).contains("--resume"));
            // A checkpoint of the other solver is refused.
            let mut other = vec!["hyper", "-c", "2", "-q", "--resume", "-o", &part];
            if flags.is_empty() {
                other.push("--gnubg-compat");
            }
            assert!(run_err(&other).contains("checkpoint is for"));
            let mut resume = vec!["hyper", "-c", "2", "-q", "--resume", "-o", &part];
            resume.extend(&flags);
            run_ok(&resume);
            assert!(
                std::fs::read(&part).unwrap() == std::fs::read(&full).unwrap(),
                "{flags:?} stopped after {stop}"
            );
            assert_eq!(
                file_names(&dir),
                vec!["full.bd", "full.bd.sha256", "part.bd", "part.bd.sha256"]
            );
            std::fs::remove_file(&part).unwrap();
            std::fs::remove_file(format!("{part}.sha256")).unwrap();
        }
        std::fs::remove_file(&full).unwrap();
        std::fs::remove_file(format!("{full}.sha256")).unwrap();
    }
    // A damaged checkpoint is an error naming it, not a wrong database.
    let part = p(&dir, "part.bd");
    run_err(&["hyper", "-c", "1", "-q", "-o", &part, "--max-iterations", "3"]);
    let ckpt = p(&dir, "part.bd.ckpt");
    let mut bytes = std::fs::read(&ckpt).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x10;
    std::fs::write(&ckpt, &bytes).unwrap();
    let err = run_err(&["hyper", "-c", "1", "-q", "--resume", "-o", &part]);
    assert!(err.contains("part.bd.ckpt") && err.contains("checksum"), "{err}");
    // A truncated one is damaged; a directory in its place is not a short file.
    std::fs::write(&ckpt, &bytes[..40]).unwrap();
    let err = run_err(&["hyper", "-c", "1", "-q", "--resume", "-o", &part]);
    assert!(
        err.contains("part.bd.ckpt") && err.contains("shorter than its header"),
        "{err}"
    );
    std::fs::remove_file(&ckpt).unwrap();
    std::fs::create_dir(&ckpt).unwrap();
    let err = run_err(&["hyper", "-c", "1", "-q", "--resume", "-o", &part]);
    assert!(
        err.contains("part.bd.ckpt: cannot") && err.contains("Is a directory"),
        "{err}"
    );
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let dir = scratch("hyper-threads");
    for flags in [vec![], vec!["--gnubg-compat"]] {
        let (a, b) = (p(&dir, "a.bd"), p(&dir, "b.bd"));
        // --force: the second pass of the loop replaces the first one's files.
        let mut one = vec![
            "hyper",
            "-c",
            "2",
            "-q",
            "--no-checkpoint",
            "--force",
            "-j",
            "1",
            "-o",
            &a,
        ];
        one.extend(&flags);
        let mut three = vec![
            "hyper",
            "-c",
            "2",
            "-q",
            "--no-checkpoint",
            "--force",
            "-j",
            "3",
            "-o",
            &b,
        ];
        three.extend(&flags);
        run_ok(&one);
        run_ok(&three);
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "{flags:?}"
        );
    }
}

#[test]
fn bad_options_are_clean_errors() {
    let dir = scratch("hyper-errors");
    let f = p(&dir, "x.bd");
    for (args, needle) in [
        (vec!["hyper", "-c", "4", "-o", &f], "4 is not in 1..=3"),
        (vec!["hyper", "-c", "0", "-o", &f], "0 is not in 1..=3"),
        // Not "0..=255" (a byte's range) for a value no byte holds.
        (vec!["hyper", "-c", "-1", "-o", &f], "-1 is not in 1..=3"),
        (vec!["hyper", "-c", "2", "-t", "2", "-o", &f], "threshold"),
        (vec!["hyper", "-c", "2", "--threshold=-1", "-o", &f], "threshold"),
        // The exact solver's f64 sweeps may never change every value by less than
        // 1e-16 (an ulp of 3 is 4.4e-16): refused instead of running forever.
        (
            vec!["hyper", "-c", "1", "-t", "0", "-o", &f],
            "between 1e-14 and 1",
        ),
        (vec!["hyper", "-c", "1", "-t", "1e-16", "-o", &f], "not 1e-16"),
        // No iteration would leave no checkpoint to resume from.
        (
            vec!["hyper", "-c", "1", "--max-iterations", "0", "-o", &f],
            "at least 1",
        ),
        (
            vec!["hyper", "-c", "1", "-j", "5000", "-o", &f],
            "--threads must be at most 1024",
        ),
        (
            vec!["hyper", "-c", "2", "--gnubg-compat", "--gnubg-dance", "-o", &f],
            "--gnubg-dance",
        ),
        (
            vec!["hyper", "-c", "2", "--resume", "--no-checkpoint", "-o", &f],
            "--no-checkpoint",
        ),
    ] {
        let err = run_err(&args);
        assert!(
            err.starts_with("gen-bearoff: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert!(file_names(&dir).is_empty(), "{:?}", file_names(&dir));
    // Output into a missing directory.
    let err = run_err(&["hyper", "-c", "1", "-o", &p(&dir, "no/such/dir.bd")]);
    assert!(err.contains("no/such"), "{err}");
}

#[test]
fn the_reader_validates_files() {
    let dir = scratch("hyper-reader");
    let f = p(&dir, "h1.bd");
    run_ok(&["hyper", "-c", "1", "-q", "--no-checkpoint", "-o", &f]);
    let db = HyperDb::open(&f).unwrap();
    assert_eq!((db.checkers(), db.positions_per_side(), db.count()), (1, 26, 676));
    match BearoffDb::open(&f).unwrap() {
        BearoffDb::Hypergammon(h) => assert_eq!(h.checkers(), 1),
        other => panic!("{:?}", other.kind()),
    }
    assert_eq!(
        BearoffDb::open(&f).unwrap().kind(),
        Kind::Hypergammon { checkers: 1 }
    );
    // Lookups by position and by index agree; the start position is record 24·26 + 24.
    let start = Variant::Hypergammon1.start();
    let r = db.record_of(&start).unwrap();
    assert_eq!(r, db.record(24 * 26 + 24).unwrap());
    assert_eq!(db.record_index(24, 24).unwrap(), 648);
    assert!(r.cubeless_equity() > 0.45 && r.cubeless_equity() < 0.46);
    // Out of range, too many checkers, both sides on one point.
    assert!(matches!(
        db.record(676),
        Err(BearoffError::IndexOutOfRange { .. })
    ));
    assert!(matches!(
        db.record_index(26, 0),
        Err(BearoffError::IndexOutOfRange { .. })
    ));
    let two = Variant::Hypergammon2.start();
    assert!(matches!(db.record_of(&two), Err(BearoffError::NotCovered(_))));
    let mut me = [0u8; 25];
    me[5] = 1;
    let mut them = [0u8; 25];
    them[18] = 1; // the same physical point
    let clash = Position::new_unchecked(them, me);
    assert!(matches!(db.record_of(&clash), Err(BearoffError::NotCovered(_))));
    // Damage: truncated, padding byte set, foreign kind.
    let bytes = std::fs::read(&f).unwrap();
    let bad = p(&dir, "short.bd");
    std::fs::write(&bad, &bytes[..bytes.len() - 1]).unwrap();
    let e = HyperDb::open(&bad).unwrap_err().to_string();
    assert!(e.contains("short.bd") && e.contains("truncated"), "{e}");
    let mut padded = bytes.clone();
    padded[40 + 28 * 100 + 27] = 1;
    let bad = p(&dir, "padding.bd");
    std::fs::write(&bad, &padded).unwrap();
    let db2 = HyperDb::open(&bad).unwrap();
    let e = db2.record(100).unwrap_err().to_string();
    assert!(e.contains("padding.bd") && e.contains("padding"), "{e}");
    assert!(db2.record(99).is_ok());
    let ts = p(&dir, "ts.bd");
    run_ok(&["two-sided", "-p", "6", "-c", "1", "-q", "-o", &ts]);
    let e = HyperDb::open(&ts).unwrap_err().to_string();
    assert!(e.contains("expected a hypergammon database"), "{e}");
    let mut four = bytes.clone();
    four[7] = b'4';
    let bad = p(&dir, "h4.bd");
    std::fs::write(&bad, &four).unwrap();
    assert!(HyperDb::open(&bad)
        .unwrap_err()
        .to_string()
        .contains("1 to 3 checkers"));
    // gnubg's placeholder for illegal positions.
    // Side on roll: one checker on its 3-point (index 3); opponent: one on its 22-point
    // (index 22), the same physical point.
    let illegal = 26 * 3 + 22;
    assert_eq!(db.record(illegal).unwrap(), HyperRecord::ILLEGAL);
}

#[test]
fn dump_and_verify_hyper_files() {
    let dir = scratch("hyper-dump");
    let f = p(&dir, "h2.bd");
    run_ok(&["hyper", "-c", "2", "-q", "--no-checkpoint", "-o", &f]);
    let out = run_ok(&["dump", &f, "-n", "121792"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "2-sided exact 2-chequer Hypergammon database",
        "up to 2 chequers on 25 points (351 positions) per player",
        "Position          346           346",
        "Owned cube                    : +0.32",
        "Centered cube (Jacoby rule)   : +0.204",
    ] {
        assert!(text.contains(needle), "{needle}\n{text}");
    }
    // The text is bearoffdump's lines only (the last is the opponent-owns equity); the
    // probabilities and the cubeless equity are in --json.
    let last = text.trim_end().lines().last().unwrap();
    assert!(last.starts_with("Opponent owns cube"), "{text}");
    let json = String::from_utf8(run_ok(&["dump", &f, "-n", "121792", "--json"]).stdout).unwrap();
    let j = common::parse_json(&json);
    assert!(j["cubeless"].starts_with("0.1522"), "{json}");
    assert!(j["probabilities.0"].starts_with("0.535474"), "{json}");
    // By Position ID: the 2-checker start position.
    let id = Variant::Hypergammon2.start().position_id();
    let by_id = String::from_utf8(run_ok(&["dump", &f, "-p", &id]).stdout).unwrap();
    assert!(by_id.contains("Owned cube                    : +0.32"), "{by_id}");
    let out = ours().args(["dump", &f, "-n", "123201"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // verify: sound file passes and reports the start-of-game values.
    let out = run_ok(&["verify", &f, "-q", "--samples", "3000"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(": OK") && text.contains("opening-roll winner: cubeless equity +0.11333"),
        "{text}"
    );
    // A changed equity byte of a contact record is caught by the equations.
    let db = HyperDb::open(&f).unwrap();
    let r = db.record_index(346, 346).unwrap() as usize;
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[40 + 28 * r + 17] ^= 0x40; // owned-cube equity, high byte
    let bad = p(&dir, "bad.bd");
    std::fs::write(&bad, &bytes).unwrap();
    let out = ours()
        .args(["verify", &bad, "-q", "--samples", "200000"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains(&format!("record {r}")), "{text}");
    // compare finds the changed record; --tolerance decides the status, and one that
    // cannot be compared with (NaN, negative) is refused rather than passing anything.
    let out = run_ok(&["compare", &f, &bad, "--tolerance", "10"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("max_cubeful_difference"), "{text}");
    assert!(text.contains(&format!("record {r}\n")), "{text}");
    let status = |t: &str| {
        let flag = format!("--tolerance={t}");
        let out = ours().args(["compare", &f, &bad, &flag]).output().unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    assert_eq!(status("1e-3").0, Some(1));
    for t in ["NaN", "-1", "inf"] {
        let (code, err) = status(t);
        assert_eq!(code, Some(2), "{t}");
        assert!(
            err.starts_with("gen-bearoff: --tolerance must be a number of at least 0"),
            "{err}"
        );
    }
}

/// A run killed while writing its checkpoint leaves `FILE.ckpt.partial`; after the
/// checkpoint itself is deleted (as the refusal above says), a run without checkpoints
/// removes the half-written one too instead of leaving it for good.
#[test]
fn a_run_without_checkpoints_removes_a_killed_runs_half_written_one() {
    let dir = scratch("hyper-ckpt-partial");
    let out = p(&dir, "h.bd");
    std::fs::write(dir.join("h.bd.ckpt.partial"), vec![7u8; 4096]).unwrap();
    run_ok(&["hyper", "-c", "1", "-q", "--no-checkpoint", "-o", &out]);
    assert_eq!(file_names(&dir), vec!["h.bd", "h.bd.sha256"]);
}

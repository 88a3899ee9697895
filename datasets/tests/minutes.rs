//! Issue 17: `sample` and `rollout` stop on time with `--minutes` (the budgeted
//! overnight pipeline gives each step its share of the time). What they write is what
//! was done: the first whole chunks of games (the same bytes as a smaller run), the
//! positions rolled out (each the same numbers as in the whole run).

mod common;

use common::{datasets, ok, s};

use std::collections::HashSet;

/// `positions.csv` in `dir`: the positions of `games` self-play games.
fn sampled(dir: &std::path::Path, games: u32, seed: u32) -> std::path::PathBuf {
    let positions = dir.join("positions.csv");
    let (games, seed) = (games.to_string(), seed.to_string());
    ok(&[
        "sample",
        "--games",
        &games,
        "--seed",
        &seed,
        "-o",
        s(&positions),
        "--quiet",
    ]);
    positions
}

fn rows(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn sampling_stops_after_the_chunk_in_progress() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("minutes-sample");
    let (cut, small) = (dir.join("cut.csv"), dir.join("small.csv"));
    // 0.0001 minutes = 6 ms: the first chunk of 256 games is played (always), no other.
    let out = ok(&[
        "sample",
        "--games",
        "2000",
        "--seed",
        "5",
        "-o",
        s(&cut),
        "--minutes",
        "0.0001",
        "--json",
    ]);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (summary["games"].as_u64(), summary["games_left"].as_u64()),
        (Some(256), Some(1744))
    );
    ok(&[
        "sample",
        "--games",
        "256",
        "--seed",
        "5",
        "-o",
        s(&small),
        "--quiet",
    ]);
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&small).unwrap());
    assert!(!dir.join("cut.csv.partial").exists(), "the journal is removed");
    for (extra, needle) in [
        (
            &["--minutes", "0"][..],
            "--minutes must be a positive number of minutes, got 0",
        ),
        (&["--minutes", "1", "--shard", "1/2"][..], "--shard"),
    ] {
        let x = dir.join("x.csv");
        let mut args = vec!["sample", "--games", "9", "-o", s(&x)];
        args.extend_from_slice(extra);
        let err = datasets(&args);
        assert_eq!(err.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&err.stderr).contains(needle), "{extra:?}");
    }
}

#[test]
fn rollouts_stop_starting_positions_on_time() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("minutes-rollout");
    let positions = sampled(&dir, 30, 3);
    let mut input = rows(&positions);
    input.truncate(41);
    std::fs::write(&positions, input.join("\n") + "\n").unwrap();
    let (full, cut) = (dir.join("full.csv"), dir.join("cut.csv"));
    let settings = ["--trials", "96", "--truncate", "6", "--seed", "8"];
    let run = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["rollout", "--input", s(&positions), "-o", s(out)];
        args.extend_from_slice(&settings);
        args.extend_from_slice(extra);
        ok(&args)
    };
    let t = std::time::Instant::now();
    run(&full, &["--quiet"]);
    let whole = t.elapsed().as_secs_f64();
    // A third of the time the whole run took.
    let minutes = format!("{:.5}", whole / 3.0 / 60.0);
    let out = run(&cut, &["--minutes", &minutes, "--json"]);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (written, left) = (
        summary["positions"].as_u64().unwrap(),
        summary["left"].as_u64().unwrap(),
    );
    assert_eq!(written + left, input.len() as u64 - 1);
    assert!(written >= 1 && left >= 1, "{summary}");
    // Each row written is the whole run's row for that position, in input order.
    let full_rows = rows(&full);
    let cut_rows = rows(&cut);
    assert_eq!(cut_rows[0], full_rows[0], "header");
    assert_eq!(cut_rows.len() as u64, written + 1);
    let all: HashSet<&String> = full_rows.iter().collect();
    assert!(cut_rows.iter().all(|r| all.contains(r)));
    let order: Vec<usize> = cut_rows[1..]
        .iter()
        .map(|r| full_rows.iter().position(|f| f == r).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "input order");
}

#[test]
fn benchmark_builds_stop_after_the_chunk_in_progress() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("minutes-benchmark");
    let positions = sampled(&dir, 10, 4);
    let build = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["benchmark", "build", "--input", s(&positions), "-o", s(out)];
        args.extend_from_slice(&[
            "--candidates",
            "2",
            "--trials",
            "6",
            "--truncate",
            "2",
            "--seed",
            "3",
        ]);
        args.extend_from_slice(extra);
        ok(&args)
    };
    let (cut, small) = (dir.join("cut.jsonl"), dir.join("small.jsonl"));
    // 6 ms: the first chunk of 16 positions is built (always), no other.
    let out = build(&cut, &["--max-positions", "40", "--minutes", "0.0001"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("benchmark of 16 positions")
            && err.contains("stopped by --minutes: 24 of 40 positions left out"),
        "{err}"
    );
    build(&small, &["--max-positions", "16", "--quiet"]);
    // The same entries as a build of those 16 positions (the headers differ in the
    // input rows used: 40 and 16).
    let (cut, small) = (rows(&cut), rows(&small));
    assert_eq!(cut.len(), small.len());
    assert_eq!(cut[1..], small[1..]);
}

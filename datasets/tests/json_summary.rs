//! Issue 19: `sample --json` and `rollout --json` print a summary object on stdout at
//! the end; its counts agree with the files written (counted here), the data files are
//! byte-identical with and without `--json`, and the fields are the documented ones.

mod common;

use common::{ok, s};
use serde_json::Value;
use test_support::{have, OS, TS, WD};

fn summary(out: &std::process::Output) -> serde_json::Map<String, Value> {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    match serde_json::from_str(&text) {
        Ok(Value::Object(m)) => m,
        _ => panic!("not a JSON object: {text}"),
    }
}

fn keys(m: &serde_json::Map<String, Value>) -> Vec<&str> {
    let mut k: Vec<&str> = m.keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

/// Data rows of a CSV file (lines after the header).
fn rows(path: &std::path::Path) -> u64 {
    std::fs::read_to_string(path).unwrap().lines().count() as u64 - 1
}

#[test]
fn sample_json_summary_counts_what_the_file_holds() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = common::scratch("json-sample");
    let (a, b) = (dir.join("a.csv"), dir.join("b.csv"));
    let out = ok(&[
        "sample",
        "--games",
        "7",
        "--seed",
        "3",
        "-j",
        "2",
        "--classes",
        "race,contact",
        "-o",
        s(&a),
        "-q",
        "--json",
    ]);
    ok(&[
        "sample",
        "--games",
        "7",
        "--seed",
        "3",
        "-j",
        "2",
        "--classes",
        "race,contact",
        "-o",
        s(&b),
        "-q",
    ]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let m = summary(&out);
    assert_eq!(
        keys(&m),
        [
            "alternatives",
            "classes",
            "disagree_plies",
            "disagree_weights",
            "epsilon",
            "games",
            "games_left",
            "noise",
            "output",
            "positions",
            "seconds",
            "seed",
            "shard",
            "threads",
            "threshold"
        ]
    );
    assert_eq!(m["output"], s(&a));
    assert_eq!(m["games"], 7);
    assert_eq!(m["games_left"], 0);
    assert_eq!(m["shard"], "1/1");
    assert_eq!(m["positions"], rows(&a));
    assert!(rows(&a) > 0);
    assert_eq!((m["seed"].as_u64(), m["threads"].as_u64()), (Some(3), Some(2)));
    assert_eq!(
        (m["noise"].as_f64(), m["epsilon"].as_f64()),
        (Some(0.0), Some(0.05))
    );
    assert_eq!(m["classes"], serde_json::json!(["race", "contact"]));
    assert_eq!(
        (&m["disagree_plies"], &m["threshold"]),
        (&Value::Null, &Value::Null)
    );
    assert!(m["seconds"].as_f64().unwrap() >= 0.0);

    // Disagreement mode: the threshold as given.
    let c = dir.join("c.csv");
    let out = ok(&[
        "sample",
        "--games",
        "2",
        "--disagree-plies",
        "1",
        "--threshold",
        "0.1",
        "-o",
        s(&c),
        "-q",
        "--json",
    ]);
    let m = summary(&out);
    assert_eq!(
        (m["disagree_plies"].as_u64(), m["threshold"].as_f64()),
        (Some(1), Some(0.1))
    );
    assert_eq!(m["positions"], rows(&c));
}

#[test]
fn rollout_json_summary_counts_positions_and_trials() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = common::scratch("json-rollout");
    let all = dir.join("all.csv");
    ok(&["sample", "--games", "1", "--seed", "5", "-o", s(&all), "-q"]);
    let text = std::fs::read_to_string(&all).unwrap();
    let pos = dir.join("pos.csv");
    std::fs::write(&pos, text.lines().take(8).collect::<Vec<_>>().join("\n") + "\n").unwrap();
    let (a, b) = (dir.join("a.csv"), dir.join("b.bgds"));
    let args = |o: &std::path::Path| {
        vec![
            "rollout",
            "--input",
            s(&pos),
            "-o",
            s(o),
            "--trials",
            "3",
            "--no-vr",
            "--seed",
            "9",
            "-j",
            "1",
            "-q",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>()
    };
    let mut with_json = args(&a);
    with_json.push("--json".into());
    let out = ok(&with_json.iter().map(String::as_str).collect::<Vec<_>>());
    let m = summary(&out);
    assert_eq!(
        keys(&m),
        [
            "bearoff_truncation",
            "format",
            "incremental",
            "input",
            "left",
            "new",
            "output",
            "plies",
            "position_seeds",
            "positions",
            "prune_moves",
            "resumed",
            "seconds",
            "seed",
            "shard",
            "threads",
            "trials",
            "trials_per_second",
            "trials_played",
            "truncate",
            "variance_reduction"
        ]
    );
    assert_eq!(m["positions"], 7);
    assert_eq!(m["positions"], rows(&a));
    assert_eq!((m["new"].as_u64(), m["resumed"].as_u64()), (Some(7), Some(0)));
    assert_eq!(
        (m["trials"].as_u64(), m["trials_played"].as_u64()),
        (Some(3), Some(21))
    );
    assert_eq!(
        (m["format"].as_str(), m["shard"].as_str()),
        (Some("csv"), Some("1/1"))
    );
    assert_eq!(
        (m["seed"].as_u64(), m["threads"].as_u64(), m["plies"].as_u64()),
        (Some(9), Some(1), Some(0))
    );
    assert_eq!(m["variance_reduction"], false);
    assert_eq!(m["prune_moves"], false);
    assert_eq!(m["truncate"], Value::Null);
    let rate = m["trials_per_second"].as_f64().unwrap();
    let secs = m["seconds"].as_f64().unwrap();
    assert!((rate * secs - 21.0).abs() < 1e-6 * 21.0, "{rate} x {secs}");

    // The data file is the same without --json; a shard counts its rows only.
    let c = dir.join("c.csv");
    ok(&args(&c).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap());
    let mut shard = args(&b);
    shard.extend(["--shard".into(), "2/3".into(), "--json".into()]);
    let m = summary(&ok(&shard.iter().map(String::as_str).collect::<Vec<_>>()));
    // Rows 1 and 4 of 0..7.
    assert_eq!(
        (m["positions"].as_u64(), m["shard"].as_str(), m["format"].as_str()),
        (Some(2), Some("2/3"), Some("binary"))
    );
}

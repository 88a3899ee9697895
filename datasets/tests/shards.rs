//! Issue 18: `sample` and `benchmark build` split with `--shard K/N` and joined by
//! `datasets merge` give the bytes of one run; the merge refuses a missing, duplicated
//! or foreign shard, naming it; a killed shard resumes from its journal.

mod common;

use common::{datasets, ok, s};

use std::path::{Path, PathBuf};
use std::time::Duration;

fn merge(out: &Path, parts: &[&PathBuf]) -> std::process::Output {
    let mut args = vec!["merge", "-o", s(out), "--quiet"];
    args.extend(parts.iter().map(|p| s(p)));
    datasets(&args)
}

fn refused(out: std::process::Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn sharded_sampling_merges_into_the_bytes_of_one_run() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("shards-sample");
    let one = dir.join("one.csv");
    let sample = |out: &Path, extra: &[&str]| {
        let mut args = vec!["sample", "--games", "9", "--seed", "11", "-o", s(out), "--quiet"];
        args.extend_from_slice(extra);
        ok(&args);
    };
    sample(&one, &[]);
    let parts: Vec<PathBuf> = (1..=4).map(|k| dir.join(format!("s{k}.csv"))).collect();
    for (k, p) in parts.iter().enumerate() {
        sample(p, &["--shard", &format!("{}/4", k + 1), "--threads", "1"]);
    }
    // The blocks overlap in positions (every game starts alike): the merge keeps
    // first occurrences, as one run does.
    let rows = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count() - 1;
    assert!(parts.iter().map(|p| rows(p)).sum::<usize>() > rows(&one));
    let merged = dir.join("merged.csv");
    ok(&{
        let mut a = vec!["merge", "-o", s(&merged), "--quiet"];
        a.extend([3, 1, 0, 2].iter().map(|&i| s(&parts[i])));
        a
    });
    assert_eq!(std::fs::read(&merged).unwrap(), std::fs::read(&one).unwrap());
    // A missing shard, a shard twice, a part of another run.
    let bad = dir.join("bad.csv");
    refused(
        merge(&bad, &[&parts[0], &parts[1], &parts[3]]),
        "shard 3/4 of the sample job is missing",
    );
    refused(
        merge(&bad, &[&parts[0], &parts[1], &parts[2], &parts[3], &parts[1]]),
        "are both shard 2/4",
    );
    let other = dir.join("other.csv");
    sample(&other, &["--shard", "3/4", "--epsilon", "0.1"]);
    refused(
        merge(&bad, &[&parts[0], &parts[1], &other, &parts[3]]),
        "of another job",
    );
    // A part changed after its shard finished.
    let text = std::fs::read_to_string(&parts[2]).unwrap();
    std::fs::write(
        &parts[2],
        text.lines().take(3).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    refused(
        merge(&bad, &[&parts[0], &parts[1], &parts[2], &parts[3]]),
        "its shard manifest says",
    );
    assert!(!bad.exists());
}

#[test]
fn sharded_benchmark_builds_merge_into_the_bytes_of_one_build() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("shards-bench");
    let positions = dir.join("positions.csv");
    ok(&[
        "sample",
        "--games",
        "2",
        "--seed",
        "3",
        "-o",
        s(&positions),
        "--quiet",
    ]);
    let build = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "benchmark",
            "build",
            "--input",
            s(&positions),
            "-o",
            s(out),
            "--candidates",
            "3",
            "--trials",
            "4",
            "--truncate",
            "1",
            "--no-vr",
            "--max-positions",
            "23",
            "--seed",
            "9",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        ok(&args);
    };
    let one = dir.join("one.jsonl");
    build(&one, &[]);
    let parts: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("b{k}.jsonl"))).collect();
    for (k, p) in parts.iter().enumerate() {
        build(p, &["--shard", &format!("{}/3", k + 1)]);
    }
    let merged = dir.join("merged.jsonl");
    ok(&[
        "merge",
        "-o",
        s(&merged),
        "--quiet",
        s(&parts[2]),
        s(&parts[0]),
        s(&parts[1]),
    ]);
    assert_eq!(std::fs::read(&merged).unwrap(), std::fs::read(&one).unwrap());
    // Parts of different kinds of jobs do not mix.
    let sample_part = dir.join("s.csv");
    ok(&[
        "sample",
        "--games",
        "2",
        "--seed",
        "3",
        "-o",
        s(&sample_part),
        "--shard",
        "2/3",
        "--quiet",
    ]);
    refused(
        merge(&dir.join("bad.jsonl"), &[&parts[0], &sample_part, &parts[2]]),
        "a sample part, not a benchmark part",
    );
}

#[test]
fn a_killed_sample_shard_resumes_to_the_same_part() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("shards-resume");
    let whole = dir.join("whole.csv");
    let killed = dir.join("killed.csv");
    let args = |out: &Path| -> Vec<String> {
        [
            "sample",
            "--games",
            "1200",
            "--seed",
            "2",
            "--shard",
            "2/2",
            "--threads",
            "1",
            "--quiet",
            "-o",
            s(out),
        ]
        .iter()
        .map(|a| a.to_string())
        .collect()
    };
    let a: Vec<String> = args(&whole);
    ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    // Killed once its first chunk of games is journalled, then rerun.
    let meta = dir.join("killed.csv.partial.json");
    common::kill_after_first_chunk(&args(&killed), &killed, &meta, Duration::from_secs(120));
    assert!(!killed.exists() && meta.exists(), "the run was interrupted");
    let b: Vec<String> = args(&killed);
    ok(&b.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(std::fs::read(&killed).unwrap(), std::fs::read(&whole).unwrap());
    let m = |p: &Path| std::fs::read_to_string(datasets::shard::Manifest::path_for(p)).unwrap();
    assert_eq!(m(&killed), m(&whole));
}

//! The weights and bearoff databases a run reads, found by default or named: an output
//! never replaces one (even with `--force`), and a job is the same job whatever path
//! the same bytes are read from (shards merge, a killed run resumes).

mod common;

use common::{ok, s};

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

/// Runs `datasets` with `$BGKIT_DATA` set to `data`.
fn with_data(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_datasets"))
        .args(args)
        .env("BGKIT_DATA", data)
        .output()
        .expect("run datasets")
}

/// A positions file of `n` positions of seeded random games.
fn positions(path: &Path, n: usize) {
    let mut text = String::from("position_id\n");
    for p in common::random_game_positions(5, 3, 4).iter().take(n) {
        text.push_str(&p.position_id());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn an_output_never_replaces_the_weights_or_databases_found_in_bgkit_data() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("engine-files-found");
    // Copies: the system's files are never named as an output, even to be refused.
    let data = dir.join("data");
    std::fs::create_dir(&data).unwrap();
    let originals = [
        (data.join("gnubg.wd"), common::WD),
        (data.join("gnubg_os0.bd"), common::OS),
        (data.join("gnubg_ts0.bd"), common::TS),
    ];
    for (copy, original) in &originals {
        std::fs::copy(original, copy).unwrap();
    }
    let p5 = dir.join("p5.csv");
    positions(&p5, 5);
    let (wd, os, ts) = (&originals[0].0, &originals[1].0, &originals[2].0);
    // The same file by another spelling of its path.
    let os_again = data.join("../data/gnubg_os0.bd");
    let runs: Vec<(Vec<&str>, &Path)> = vec![
        (
            vec![
                "rollout",
                "--input",
                s(&p5),
                "-o",
                s(ts),
                "--trials",
                "2",
                "--format",
                "csv",
            ],
            ts,
        ),
        (vec!["sample", "--games", "2", "-o", s(wd)], wd),
        (
            vec!["label", "--input", s(&p5), "-o", s(&os_again), "--format", "csv"],
            os,
        ),
        (
            vec![
                "benchmark",
                "build",
                "--input",
                s(&p5),
                "-o",
                s(os),
                "--trials",
                "2",
            ],
            os,
        ),
        (
            vec![
                "benchmark",
                "build",
                "--input",
                s(&p5),
                "-o",
                s(wd),
                "--trials",
                "2",
            ],
            wd,
        ),
    ];
    for (mut args, input) in runs {
        args.extend(["--force", "--quiet"]);
        let out = with_data(&data, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("datasets: the output ")
                && err.contains(&format!("is also an input ({})", input.display())),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    for (copy, original) in &originals {
        assert_eq!(
            std::fs::read(copy).unwrap(),
            std::fs::read(original).unwrap(),
            "{} was changed",
            copy.display()
        );
    }
    // Nothing else was written there (no journal, no manifest).
    assert_eq!(
        test_support::dir_names(&data),
        ["gnubg.wd", "gnubg_os0.bd", "gnubg_ts0.bd"]
    );
    // The same runs write elsewhere, reading those files.
    let elsewhere = dir.join("r.csv");
    let out = with_data(
        &data,
        &[
            "rollout",
            "--input",
            s(&p5),
            "-o",
            s(&elsewhere),
            "--trials",
            "2",
            "--quiet",
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap().lines().count(), 6);
}

#[test]
fn shards_rolled_out_with_the_same_weights_at_other_paths_merge() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("engine-files-shards");
    let input = dir.join("p.csv");
    positions(&input, 12);
    let copy = dir.join("w.wd");
    std::fs::copy(common::WD, &copy).unwrap();
    let roll = |out: &Path, weights: &str, shard: Option<&str>| {
        let mut args = vec![
            "rollout",
            "--input",
            s(&input),
            "-o",
            s(out),
            "--weights",
            weights,
            "--trials",
            "6",
            "--no-vr",
            "--quiet",
        ];
        if let Some(k) = shard {
            args.extend(["--shard", k]);
        }
        ok(&args);
    };
    let whole = dir.join("whole.csv");
    roll(&whole, common::WD, None);
    let (q1, q2) = (dir.join("q1.csv"), dir.join("q2.csv"));
    roll(&q1, common::WD, Some("1/2"));
    roll(&q2, s(&copy), Some("2/2"));
    let merged = dir.join("qm.csv");
    ok(&["merge", "-o", s(&merged), "--quiet", s(&q1), s(&q2)]);
    assert_eq!(std::fs::read(&merged).unwrap(), std::fs::read(&whole).unwrap());
    // The manifests record the weights' contents, not where they were read from.
    let manifest = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(datasets::shard::Manifest::path_for(p)).unwrap())
            .unwrap()
    };
    assert_eq!(manifest(&q1)["job_digest"], manifest(&q2)["job_digest"]);
    assert_eq!(manifest(&q1)["digest_version"], 2);
    // A part's manifest is an input of the merge too.
    let m1 = datasets::shard::Manifest::path_for(&q1);
    let before = std::fs::read(&m1).unwrap();
    let out = common::datasets(&["merge", "-o", s(&m1), "--force", "--quiet", s(&q1), s(&q2)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is also an input"), "{err}");
    assert_eq!(std::fs::read(&m1).unwrap(), before);
}

#[test]
fn a_killed_run_resumes_with_the_same_weights_by_another_path() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("engine-files-resume");
    let copy = dir.join("w.wd");
    std::fs::copy(common::WD, &copy).unwrap();
    let out = dir.join("big.csv");
    let meta = dir.join("big.csv.partial.json");
    let run = |weights: &str, extra: &[&str]| -> Vec<String> {
        let mut args = vec![
            "sample",
            "--games",
            "1200",
            "--seed",
            "4",
            "--threads",
            "1",
            "--quiet",
            "-o",
            s(&out),
            "--weights",
            weights,
        ];
        args.extend_from_slice(extra);
        args.iter().map(|a| a.to_string()).collect()
    };
    common::kill_after_first_chunk(&run(common::WD, &[]), &out, &meta, Duration::from_secs(120));
    assert!(!out.exists() && meta.exists(), "the run was interrupted");
    let stored: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&meta).unwrap()).unwrap();
    assert_eq!(stored["job"]["engine"]["weights"]["path"], common::WD);
    let chunks = stored["chunks"].as_u64().unwrap();
    // The same bytes by another path (`..` in it): resumed, not refused as another job.
    // --minutes stops it after one more chunk of 256 games.
    let again = "/usr/lib/gnubg/../gnubg/gnubg.wd";
    let args = run(again, &["--minutes", "0.0001", "--json"]);
    let done = ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let summary: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(summary["games"], (chunks + 1) * 256, "{summary}");
    assert_eq!(summary["games_left"], 1200 - (chunks + 1) * 256, "{summary}");
    // And by a byte-identical copy.
    let rest = dir.join("rest.csv");
    std::fs::rename(&out, &rest).unwrap();
    common::kill_after_first_chunk(&run(s(&copy), &[]), &out, &meta, Duration::from_secs(120));
    let args = run(common::WD, &["--minutes", "0.0001", "--json"]);
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
}

//! The `datasets` command line end to end: determinism across threads and shards,
//! resuming after kill -9, sampling filters, conversions, errors.

mod common;

use common::{datasets, ok, s};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use board::Position;
use evaluator::eval::money_equity;
use evaluator::search::Lookahead;

/// The first `n` positions of a seeded self-play sample.
fn positions_file(dir: &Path, n: usize) -> PathBuf {
    let all = dir.join("all.csv");
    ok(&["sample", "--games", "3", "--seed", "5", "-o", s(&all), "--quiet"]);
    let text = std::fs::read_to_string(&all).unwrap();
    let mut lines: Vec<&str> = text.lines().take(n + 1).collect();
    assert_eq!(lines.len(), n + 1);
    // A duplicate row: the output must repeat its result.
    lines.push(lines[2]);
    let path = dir.join("positions.csv");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn rollouts_are_identical_on_any_thread_count_and_when_sharded() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("cli-shards");
    let input = positions_file(&dir, 10);
    let roll = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "rollout",
            "--input",
            s(&input),
            "-o",
            s(out),
            "--trials",
            "24",
            "--no-vr",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        ok(&args);
        std::fs::read(out).unwrap()
    };
    let one = roll(&dir.join("t1.csv"), &["--threads", "1"]);
    let two = roll(&dir.join("t2.csv"), &["--threads", "2"]);
    assert_eq!(one, two);
    // Incremental evaluation: the same numbers on any thread count, close to the exact
    // rollout's (the same dice; a move choice may rarely differ).
    let inc1 = roll(&dir.join("i1.csv"), &["--threads", "1", "--incremental"]);
    let inc2 = roll(&dir.join("i2.csv"), &["--threads", "2", "--incremental"]);
    assert_eq!(inc1, inc2);
    let wins = |bytes: &[u8]| -> Vec<f64> {
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        text.lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
            .collect()
    };
    for (a, b) in wins(&inc1).iter().zip(wins(&one)) {
        assert!((a - b).abs() <= 0.1, "incremental {a} vs exact {b}");
    }
    let text = String::from_utf8(one.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "position_id,win,win_g,win_bg,lose_g,lose_bg,win_se,win_g_se,win_bg_se,lose_g_se,lose_bg_se"
    );
    assert_eq!(lines.len(), 12);
    assert_eq!(lines[11], lines[2]);
    let parts: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("part{k}.csv"))).collect();
    for (k, p) in parts.iter().enumerate() {
        roll(p, &["--threads", "1", "--shard", &format!("{}/3", k + 1)]);
    }
    let merged = dir.join("merged.csv");
    let mut args = vec!["merge", "-o", s(&merged), "--quiet", "--input", s(&input)];
    args.extend(parts.iter().map(|p| s(p)));
    ok(&args);
    assert_eq!(std::fs::read(&merged).unwrap(), one);
    // Without the input: round robin over the parts in shard order.
    let merged2 = dir.join("merged2.csv");
    let mut args = vec!["merge", "-o", s(&merged2), "--quiet"];
    args.extend(parts.iter().map(|p| s(p)));
    ok(&args);
    assert_eq!(std::fs::read(&merged2).unwrap(), one);
    // Parts in any order: their manifests say which shard each is (--force:
    // merged2.csv exists).
    let mut args = vec!["merge", "-o", s(&merged2), "--quiet", "--force"];
    args.extend(parts.iter().rev().map(|p| s(p)));
    ok(&args);
    assert_eq!(std::fs::read(&merged2).unwrap(), one);
    // Without manifests (parts of older versions), parts out of order are caught.
    for p in &parts {
        std::fs::remove_file(datasets::shard::Manifest::path_for(p)).unwrap();
    }
    let out = datasets(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard order"));
    std::fs::remove_dir_all(dir).unwrap();
}

fn data_lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.matches('\n').count().saturating_sub(1))
}

#[test]
fn rollout_resumes_after_kill_9_with_the_same_numbers() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("cli-resume");
    let input = positions_file(&dir, 16);
    let common_args = [
        "--input",
        s(&input),
        "--trials",
        "48",
        "--no-vr",
        "--threads",
        "1",
        "--quiet",
    ];
    let reference = dir.join("reference.csv");
    let mut args = vec!["rollout", "-o", s(&reference)];
    args.extend_from_slice(&common_args);
    ok(&args);

    let out = dir.join("data.csv");
    let partial = dir.join("data.csv.partial");
    let mut args = vec!["rollout", "-o", s(&out)];
    args.extend_from_slice(&common_args);
    let mut child = Command::new(env!("CARGO_BIN_EXE_datasets"))
        .args(&args)
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while data_lines(&partial) < 4 {
        assert!(t0.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let kept = data_lines(&partial);
    assert!((4..17).contains(&kept), "{kept}");
    assert!(!out.exists());
    // A torn line, as a kill in the middle of a write would leave.
    let mut text = std::fs::read_to_string(&partial).unwrap();
    text.push_str("15,xyz,0.4");
    std::fs::write(&partial, text).unwrap();

    // Other settings are refused, naming the difference.
    let mut other = vec!["rollout", "-o", s(&out), "--seed", "2"];
    other.extend_from_slice(&common_args);
    let refused = datasets(&other);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.starts_with("datasets: ") && err.contains("different job"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    let resumed = Command::new(env!("CARGO_BIN_EXE_datasets"))
        .args(&args[..args.len() - 1])
        .output()
        .unwrap();
    assert!(resumed.status.success());
    let note = String::from_utf8_lossy(&resumed.stderr);
    assert!(note.contains(&format!("resuming: {kept} of 17")), "{note}");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&reference).unwrap());
    assert!(!partial.exists() && !dir.join("data.csv.partial.json").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn sampling_is_deterministic_filtered_deduplicated_and_resumable() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let dir = common::scratch("cli-sample");
    let a = dir.join("a.csv");
    let b = dir.join("b.csv");
    let args = [
        "sample", "--games", "40", "--seed", "9", "--noise", "0.05", "--quiet",
    ];
    let mut x = args.to_vec();
    x.extend(["-o", s(&a), "--threads", "1"]);
    ok(&x);
    let mut y = args.to_vec();
    y.extend(["-o", s(&b), "--threads", "2"]);
    ok(&y);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let ids: Vec<String> = std::fs::read_to_string(&a)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(ids[0], "position_id");
    assert_eq!(ids[1], "4HPwATDgc/ABMA", "the starting position comes first");
    let unique: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len());
    assert!(ids.len() > 400, "{}", ids.len());

    let race = dir.join("race.csv");
    ok(&[
        "sample",
        "--games",
        "40",
        "--seed",
        "9",
        "--classes",
        "race",
        "-o",
        s(&race),
        "--quiet",
    ]);
    let race_ids: Vec<Position> = std::fs::read_to_string(&race)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| Position::from_id(l).unwrap())
        .collect();
    assert!(race_ids.len() > 20);
    assert!(race_ids
        .iter()
        .all(|p| ev.classify(p) == evaluator::PositionClass::Race));

    // Resume: kill after the first checkpoint, rerun, compare.
    let big = [
        "sample",
        "--games",
        "1200",
        "--seed",
        "4",
        "--threads",
        "1",
        "--quiet",
    ];
    let reference = dir.join("ref.csv");
    let mut r = big.to_vec();
    r.extend(["-o", s(&reference)]);
    ok(&r);
    let out = dir.join("big.csv");
    let meta = dir.join("big.csv.partial.json");
    let mut r = big.to_vec();
    r.extend(["-o", s(&out)]);
    common::kill_after_first_chunk(&r, &out, &meta, Duration::from_secs(60));
    assert!(!out.exists() && meta.exists(), "the run was interrupted");
    ok(&r);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&reference).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn disagreement_mode_keeps_only_positions_the_evaluators_disagree_on() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let dir = common::scratch("cli-disagree");
    let all = dir.join("all.csv");
    let kept = dir.join("kept.csv");
    let base = ["sample", "--games", "6", "--seed", "2", "--quiet"];
    let mut a = base.to_vec();
    a.extend(["-o", s(&all)]);
    ok(&a);
    let mut b = base.to_vec();
    b.extend(["-o", s(&kept), "--disagree-plies", "1", "--threshold", "0.03"]);
    ok(&b);
    let read = |p: &Path| -> Vec<Position> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| Position::from_id(l).unwrap())
            .collect()
    };
    let (all, kept) = (read(&all), read(&kept));
    let gap = |p: &Position| {
        let a = money_equity(&ev.evaluate(p).unwrap().0);
        let b = money_equity(&ev.evaluate_plied(p, 1, Lookahead::default()).unwrap());
        (a - b).abs()
    };
    let expected: Vec<Position> = all.iter().copied().filter(|p| gap(p) > 0.03).collect();
    assert!(!expected.is_empty() && expected.len() < all.len());
    assert_eq!(kept, expected);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn convert_and_stats_on_the_command_line() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("cli-convert");
    let input = positions_file(&dir, 6);
    let csv = dir.join("d.csv");
    ok(&[
        "rollout",
        "--input",
        s(&input),
        "-o",
        s(&csv),
        "--trials",
        "12",
        "--truncate",
        "4",
        "--quiet",
    ]);
    let bin = dir.join("d.bgds");
    let nn = dir.join("d.nn");
    let back = dir.join("back.csv");
    ok(&["convert", s(&csv), s(&bin), "--quiet"]);
    ok(&["convert", s(&bin), s(&back), "--quiet"]);
    assert_eq!(std::fs::read(&csv).unwrap(), std::fs::read(&back).unwrap());
    ok(&["convert", s(&bin), s(&nn), "--quiet"]);
    let nn_text = std::fs::read_to_string(&nn).unwrap();
    assert_eq!(nn_text.lines().count(), 7);
    assert!(nn_text.lines().all(|l| l.split(' ').count() == 6 && l.len() > 20));
    let out = ok(&["stats", s(&bin), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["all"]["count"], 7);
    assert_eq!(v["duplicates"], 1);
    let per_class: u64 = v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(per_class, 7);
    assert!(v["all"]["mean_se"].is_array());
    let table = String::from_utf8(ok(&["stats", s(&nn)]).stdout).unwrap();
    assert!(table.contains("7 positions (gnubg-nn)"), "{table}");
    let counts = String::from_utf8(ok(&["stats", s(&input)]).stdout).unwrap();
    assert!(
        counts.contains("7 positions (no targets)") && counts.contains("contact"),
        "{counts}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_arguments_and_files_exit_2_with_one_message() {
    let dir = common::scratch("cli-errors");
    let missing = dir.join("missing.csv");
    // `sample` of one game with `extra`.
    let sample1 = |extra: &[&str]| -> Vec<String> {
        let p = dir.join("p.csv");
        let head = ["sample", "--games", "1", "-o", s(&p)];
        head.iter().chain(extra).map(|a| a.to_string()).collect()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "rollout".into(),
                "--input".into(),
                s(&missing).into(),
                "-o".into(),
                s(&dir.join("o.csv")).into(),
            ],
            "missing.csv",
        ),
        (
            vec![
                "rollout".into(),
                "--input".into(),
                "x.csv".into(),
                "-o".into(),
                s(&dir.join("o.xyz")).into(),
            ],
            "; give --format",
        ),
        (
            vec!["convert".into(), s(&missing).into(), s(&dir.join("o.xyz")).into()],
            "; give --to",
        ),
        (
            sample1(&["--threshold", "0.1"]),
            "--threshold is for --disagree-plies or --disagree-weights",
        ),
        (
            vec![
                "benchmark".into(),
                "build".into(),
                "--input".into(),
                s(&missing).into(),
                "-o".into(),
                s(&dir.join("b.jsonl")).into(),
                "--max-positions".into(),
                "0".into(),
            ],
            "'0' for '--max-positions",
        ),
        (vec!["stats".into(), s(&missing).into()], "missing.csv"),
        (
            vec!["convert".into(), "-".into(), s(&dir.join("c.csv")).into()],
            "invalid value '-' for '<INPUT>': standard input ('-') is not read here; give a file",
        ),
        (sample1(&["--classes", "races"]), "races"),
        (sample1(&["--epsilon", "2"]), "--epsilon"),
        (
            vec![
                "merge".into(),
                "-o".into(),
                s(&dir.join("m.csv")).into(),
                s(&missing).into(),
            ],
            "missing.csv",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = datasets(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("datasets: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let out = datasets(&["rollout", "--input", "a.csv", "-o", "b.csv", "--shard", "3/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("K/N"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A positions file may name its positions by XGID or `PositionID:MatchID` as well as by
/// Position ID: the rollout is the same, and the output names them by Position ID.
#[test]
fn positions_given_by_xgid_or_match_id_roll_out_as_their_position_ids() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("cli-any-id");
    // Each XGID's Position ID as gnubg 1.07 shows it after `set xgid`.
    let ids = "position_id\nsGfwATDgc/ABMA\nCgAAEAEAAAAAAA\n4HPwATDgc/ABMA\n";
    let forms = "position_id\n\
                 XGID=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10\n\
                 --A--A----------------aa--:0:0:1:00:0:0:0:0:10\n\
                 4HPwATDgc/ABMA:cIkmAQAAAAAE\n";
    let roll = |name: &str, rows: &str| {
        let input = dir.join(format!("{name}.csv"));
        std::fs::write(&input, rows).unwrap();
        let out = dir.join(format!("{name}-out.csv"));
        ok(&[
            "rollout",
            "--input",
            s(&input),
            "-o",
            s(&out),
            "--trials",
            "12",
            "--no-vr",
            "--quiet",
        ]);
        std::fs::read_to_string(out).unwrap()
    };
    let by_id = roll("ids", ids);
    assert_eq!(by_id.lines().count(), 4, "{by_id}");
    assert_eq!(roll("forms", forms), by_id);
}

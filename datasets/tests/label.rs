//! Issue 17: `datasets label`, search-bootstrapped training targets. Each label is the
//! evaluator's own N-ply evaluation (which tests/gnubg_search.rs of the evaluator
//! checks against gnubg's lookahead) bit for bit, clamped into [0, 1], in input order,
//! without standard errors; an interrupted run resumes to the same bytes.

mod common;

use std::path::{Path, PathBuf};

use common::{datasets, ok, s};
use datasets::format::{self, Format};
use evaluator::search::Lookahead;

/// `positions.csv` in `dir`: every 3rd position of games of random legal moves, the
/// first `n`.
fn positions(dir: &Path, n: usize) -> (PathBuf, Vec<board::Position>) {
    let mut list = common::random_game_positions(17, 12, 3);
    list.truncate(n);
    let path = dir.join("positions.csv");
    let mut text = String::from("position_id\n");
    for p in &list {
        text.push_str(&p.position_id());
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    (path, list)
}

/// Runs `datasets ARGS` and kills it once its journal `journal` holds `lines` lines
/// (header included; or after 2 minutes).
fn kill_once_journalled<A: AsRef<std::ffi::OsStr>>(args: &[A], journal: &Path, lines: usize) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_datasets"))
        .args(args)
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    while std::fs::read_to_string(journal).map_or(0, |t| t.lines().count()) < lines
        && t.elapsed().as_secs() < 120
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn labels_are_the_evaluators_own_lookahead() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let dir = common::scratch("label-lookahead");
    let (input, list) = positions(&dir, 150);
    assert_eq!(list.len(), 150);
    for (extra, prune) in [(None, true), (Some("--no-prune"), false)] {
        let out = dir.join(format!("labels-{prune}.csv"));
        let mut args = vec!["label", "--input", s(&input), "-o", s(&out), "--quiet", "--json"];
        args.extend(extra);
        let summary: serde_json::Value = serde_json::from_slice(&ok(&args).stdout).unwrap();
        assert_eq!(
            (
                &summary["positions"],
                &summary["new"],
                &summary["left"],
                &summary["plies"],
                &summary["prune"]
            ),
            (&150.into(), &150.into(), &0.into(), &1.into(), &prune.into()),
            "{summary}"
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(
            text.lines().next().unwrap(),
            "position_id,win,win_g,win_bg,lose_g,lose_bg",
            "no standard-error columns"
        );
        let got = format::read(&out, Format::Csv).unwrap();
        assert_eq!(got.len(), list.len());
        for (sample, pos) in got.iter().zip(&list) {
            assert_eq!(&sample.position, pos, "input order");
            let want = ev
                .evaluate_plied(pos, 1, Lookahead { prune })
                .unwrap()
                .map(|p| p.clamp(0.0, 1.0));
            // The CSV holds each f32 in its shortest exact form.
            assert_eq!(
                sample.probs.map(f32::to_bits),
                want.map(f32::to_bits),
                "{}",
                pos.position_id()
            );
            assert_eq!(sample.se, None);
        }
    }
    // Pruning changes some lookahead choices, so the two label sets differ somewhere.
    assert_ne!(
        std::fs::read(dir.join("labels-true.csv")).unwrap(),
        std::fs::read(dir.join("labels-false.csv")).unwrap()
    );
}

#[test]
fn a_killed_labelling_resumes_to_the_same_bytes() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("label-resume");
    let (input, list) = positions(&dir, 40);
    let (whole, cut) = (dir.join("whole.bgds"), dir.join("cut.bgds"));
    let args = |out: &Path| -> Vec<String> {
        [
            "label",
            "--input",
            s(&input),
            "-o",
            s(out),
            "--plies",
            "2",
            "-j",
            "1",
            "--quiet",
        ]
        .map(String::from)
        .to_vec()
    };
    ok(&args(&whole).iter().map(String::as_str).collect::<Vec<_>>());
    // Started again, killed once a few labels are in the journal.
    let journal = dir.join("cut.bgds.partial");
    kill_once_journalled(&args(&cut), &journal, 6);
    assert!(!cut.exists(), "killed before the end");
    let out = ok(&args(&cut)
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "--quiet")
        .collect::<Vec<_>>());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("resuming:"), "{said}");
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&cut).unwrap());
    assert!(!journal.exists());
    assert_eq!(format::read(&cut, Format::Binary).unwrap().len(), list.len());
}

#[test]
fn zero_plies_and_a_rollout_journal_are_refused() {
    let dir = common::scratch("label-refusals");
    let (input, _) = positions(&dir, 40);
    let out = dir.join("l.csv");
    let r = datasets(&["label", "--input", s(&input), "-o", s(&out), "--plies", "0"]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("--plies") && err.contains('0'), "{err}");
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    // A rollout's partial results are not taken for labels (or the other way round).
    kill_once_journalled(
        &[
            "rollout",
            "--input",
            s(&input),
            "-o",
            s(&out),
            "--trials",
            "144",
            "--truncate",
            "4",
            "-j",
            "1",
            "--quiet",
        ],
        &dir.join("l.csv.partial"),
        2,
    );
    let r = datasets(&["label", "--input", s(&input), "-o", s(&out), "--quiet"]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.starts_with("datasets: ") && err.contains("l.csv.partial"),
        "{err}"
    );
}

#[test]
fn label_shards_merge_into_the_whole_file() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("label-shards");
    let (input, _) = positions(&dir, 30);
    let whole = dir.join("whole.csv");
    ok(&["label", "--input", s(&input), "-o", s(&whole), "--quiet"]);
    let parts: Vec<PathBuf> = (1..=2).map(|k| dir.join(format!("part-{k}.csv"))).collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        ok(&[
            "label",
            "--input",
            s(&input),
            "-o",
            s(part),
            "--shard",
            &shard,
            "--quiet",
        ]);
    }
    let merged = dir.join("merged.csv");
    ok(&[
        "merge",
        "--input",
        s(&input),
        "-o",
        s(&merged),
        s(&parts[0]),
        s(&parts[1]),
    ]);
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&merged).unwrap());
}

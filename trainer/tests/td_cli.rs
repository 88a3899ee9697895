//! `trainer td` on the command line: `--init FILE` continues from a weights file,
//! `--resume` keeps the run's thread count, the ordered scheme's settings.

mod common;

use std::path::Path;

use common::{have, json, s, scratch, stderr, trainer, WD};

/// A small, fast run ([`common::small_td`]) with Tesauro inputs and a 20-game benchmark
/// every 10 games.
fn small(out: &Path, games: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "--encoding",
        "tesauro",
        "--bench-every",
        "10",
        "--bench-games",
        "20",
    ];
    args.extend_from_slice(extra);
    common::small_td(out, games, &args)
}

fn curve_rows(dir: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("curve.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn td_init_file_continues_from_a_trained_net() {
    let dir = scratch("td-init-file");
    let first = dir.join("first");
    let o = small(&first, "20", &["--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let net = first.join("net.wd");
    let second = dir.join("second");
    // The configuration comes from the file's sidecar (no --encoding/--hidden given).
    let o = trainer(&[
        "td",
        "--out",
        s(&second),
        "--games",
        "10",
        "--init",
        s(&net),
        "--no-bearoff",
        "--batch",
        "10",
        "--checkpoint-every",
        "10",
        "--bench-every",
        "10",
        "--bench-games",
        "20",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Its first benchmark is the benchmark of the net it started from: the same
    // duel (same benchmark games) of the same nets.
    let a = curve_rows(&first);
    let b = curve_rows(&second);
    // Columns from bench_games on (not the games, timing and learning-rate columns).
    assert_eq!((a[2][0].as_str(), b[0][0].as_str()), ("20", "0"));
    assert_eq!(a[2][4..], b[0][4..], "{a:?} vs {b:?}");
    // Where it started is recorded in the checkpoint and in the sidecar.
    assert_eq!(json(&second.join("state.json"))["init_file"], s(&net));
    let side = json(&second.join("net.json"));
    assert_eq!(side["training"]["init_file"], s(&net));
    assert_eq!(side["config"]["hidden"], 8);
    assert_eq!(side["config"]["encoding"], "tesauro");
    // Flags that contradict the file are refused, naming both.
    let o = trainer(&[
        "td",
        "--out",
        s(&dir.join("bad")),
        "--games",
        "10",
        "--init",
        s(&net),
        "--hidden",
        "16",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.starts_with("trainer: --hidden 16 does not match --init") && e.contains("hidden 8"),
        "{e}"
    );
    // A file that is not weights.
    let o = trainer(&[
        "td",
        "--out",
        s(&dir.join("bad2")),
        "--games",
        "10",
        "--init",
        s(&first.join("curve.csv")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("curve.csv"), "{}", stderr(&o));
}

#[test]
fn td_init_gnubg_weights_starts_from_gnubgs_nets() {
    if !have(&[WD]) {
        return;
    }
    let dir = scratch("td-init-gnubg");
    let out = dir.join("run");
    let o = trainer(&[
        "td",
        "--out",
        s(&out),
        "--games",
        "0",
        "--init",
        WD,
        "--bench-every",
        "0",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ours = evaluator::weights::Weights::load_any(out.join("net.wd")).unwrap();
    let gnubg = evaluator::weights::Weights::load_any(WD).unwrap();
    assert_eq!(ours.nets.len(), gnubg.nets.len());
    for (a, b) in ours.nets.iter().zip(&gnubg.nets) {
        assert_eq!(
            (
                &a.hidden_weights,
                &a.output_weights,
                &a.hidden_thresholds,
                &a.output_thresholds
            ),
            (
                &b.hidden_weights,
                &b.output_weights,
                &b.hidden_thresholds,
                &b.output_thresholds
            )
        );
    }
    assert_eq!(json(&out.join("net.json"))["config"]["encoding"], "gnubg");
}

#[test]
fn td_resume_keeps_the_runs_thread_count() {
    let dir = scratch("td-resume-threads");
    let out = dir.join("run");
    let o = small(&out, "10", &["--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&out.join("state.json"))["threads"], 1);
    // No --threads: the run's own count (not all cores).
    let o = trainer(&["td", "--resume", s(&out), "--games", "20", "--quiet", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["threads"].as_u64(), v["previous_threads"].is_null()),
        (Some(1), true)
    );
    assert_eq!(json(&out.join("net.json"))["training"]["threads"], 1);
    // An explicit --threads is taken, and the change is reported.
    let o = trainer(&[
        "td",
        "--resume",
        s(&out),
        "--games",
        "30",
        "--threads",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["threads"].as_u64(), v["previous_threads"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(
        stderr(&o).contains("note: the run used 1 threads; this session uses 2"),
        "{}",
        stderr(&o)
    );
    assert_eq!(json(&out.join("state.json"))["threads"], 2);
}

#[test]
fn td_ordered_is_the_default_and_lag_belongs_to_it() {
    let dir = scratch("td-ordered-default");
    let out = dir.join("run");
    let o = small(&out, "10", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let set = &json(&out.join("state.json"))["settings"];
    assert_eq!(
        (set["parallel"].as_str(), set["lag"].as_u64()),
        (Some("ordered"), Some(1))
    );
    let o = small(&dir.join("b"), "10", &["--parallel", "async", "--lag", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--lag is a setting of --parallel ordered"),
        "{}",
        stderr(&o)
    );
    let o = trainer(&["td", "--resume", s(&out), "--games", "20", "--lag", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--lag cannot be given with --resume"),
        "{}",
        stderr(&o)
    );
}

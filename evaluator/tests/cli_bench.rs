//! `evaluator bench`'s report (issue 19): every figure says the threads it ran on,
//! `--repeat N` gives the median and range of N runs, and the build and machine are
//! named (version, commit, CPU, kernel, SIMD kernel) in JSON and text.

mod common;

use std::process::{Command, Output};

use common::*;
use evaluator::{bench, corpus};

/// `evaluator bench ARGS` with gnubg's files (`--movegen` uses no nets or databases and
/// refuses the engine's flags).
fn bench_run(args: &[&str]) -> Output {
    let engine = ["--weights", WD, "--bearoff-os", OS, "--bearoff-ts", TS];
    let movegen = args.contains(&"--movegen");
    Command::new(env!("CARGO_BIN_EXE_evaluator"))
        .arg("bench")
        .args(args)
        .args(if movegen { &[][..] } else { &engine[..] })
        .output()
        .expect("run evaluator")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = bench_run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The machine and build fields, from their own sources.
fn check_about(j: &serde_json::Value) {
    assert_eq!(j["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(j["git_commit"], cli_support::about::GIT_COMMIT);
    assert_ne!(j["git_commit"], "");
    let uname = Command::new("uname").arg("-r").output().unwrap();
    assert_eq!(j["kernel"], String::from_utf8_lossy(&uname.stdout).trim());
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .map_or("unknown".to_string(), |l| {
            l.split_once(':')
                .unwrap()
                .1
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        });
    assert_eq!(j["cpu"], model);
}

/// A measurement: `threads` threads, `repeat` runs, min ≤ median ≤ max.
fn check_rate(j: &serde_json::Value, name: &str, threads: u64, repeat: u64) {
    let r = &j[name];
    assert_eq!(r["threads"], threads, "{name}: {j}");
    assert_eq!(r["repeat"], repeat, "{name}: {j}");
    let (lo, mid, hi) = (
        r["per_sec_min"].as_f64().unwrap(),
        r["per_sec"].as_f64().unwrap(),
        r["per_sec_max"].as_f64().unwrap(),
    );
    assert!(0.0 < lo && lo <= mid && mid <= hi, "{name}: {r}");
    if repeat == 1 {
        assert!(lo == hi, "{name}: one run, one value: {r}");
    }
}

#[test]
fn every_figure_states_its_threads_and_the_range_of_its_runs() {
    let Some(ev) = gnubg_evaluator() else { return };
    let signature =
        bench::evaluation_signature(&ev, &corpus::contact_positions(), &corpus::best_move_pairs());
    for (threads, repeat) in [(1, 1), (2, 3)] {
        let (t, r) = (threads.to_string(), repeat.to_string());
        let j = json(&["--seconds", "0.02", "--json", "-j", &t, "--repeat", &r]);
        check_about(&j);
        assert_eq!(j["simd_kernel"], format!("{:?}", evaluator::simd::kernel()));
        for name in ["static_evals", "static_evals_batched", "best_moves"] {
            check_rate(&j, name, threads, repeat);
        }
        // The earlier flat fields are the medians.
        for (flat, name) in [
            ("static_evals_per_sec", "static_evals"),
            ("static_evals_per_sec_batched", "static_evals_batched"),
            ("best_moves_per_sec", "best_moves"),
        ] {
            assert_eq!(j[flat], j[name]["per_sec"], "{flat}");
        }
        assert_eq!(
            (j["static_positions"].as_u64(), j["best_move_positions"].as_u64()),
            (Some(4096), Some(1024))
        );
        // The signature does not depend on threads or repetitions.
        assert_eq!(j["signature"], signature);
        assert!(j.get("threads").is_none(), "no run-wide thread count: {j}");
    }
}

#[test]
fn the_default_is_one_thread_per_core() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let cores = std::thread::available_parallelism().unwrap().get() as u64;
    let j = json(&["--seconds", "0.01", "--json"]);
    // 64 parallel tasks per measurement: every core up to 64.
    for name in ["static_evals", "static_evals_batched", "best_moves"] {
        check_rate(&j, name, cores.min(64), 1);
    }
}

#[test]
fn movegen_is_single_threaded_and_says_so() {
    let j = json(&["--movegen", "--seconds", "0.01", "--json", "--repeat", "2"]);
    check_about(&j);
    check_rate(&j, "positions", 1, 2);
    check_rate(&j, "movegens", 1, 2);
    assert_eq!(j["positions_per_sec"], j["positions"]["per_sec"]);
    assert_eq!(j["calls_per_sec"], j["movegens"]["per_sec"]);
    let (count, hash) = bench::movegen_signature(&corpus::movegen_corpus());
    assert_eq!(
        (j["positions_per_pass"].as_u64(), j["signature"].as_str()),
        (Some(count), Some(format!("{hash:016x}").as_str()))
    );
    assert!(j["passes"].as_u64().unwrap() >= 2);
}

#[test]
fn the_text_names_the_machine_and_each_figures_threads() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let out = bench_run(&["--seconds", "0.01", "-j", "2", "--repeat", "2"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let head = format!(
        "version:              {} (commit {})",
        env!("CARGO_PKG_VERSION"),
        cli_support::about::GIT_COMMIT
    );
    assert_eq!(lines[0], head);
    assert!(
        lines[1].starts_with("cpu:") && lines[2].starts_with("kernel:"),
        "{text}"
    );
    assert_eq!(
        lines[3],
        format!("simd kernel:          {:?}", evaluator::simd::kernel())
    );
    for (line, what) in lines[4..7]
        .iter()
        .zip(["static evals/s:", "  batched (64/call):", "best moves/s:"])
    {
        assert!(
            line.starts_with(what) && line.contains(", 2 runs; 2 threads)"),
            "{text}"
        );
        // median (min … max)
        let nums: Vec<f64> = line[what.len()..]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .take(3)
            .map(|s| s.parse().unwrap())
            .collect();
        assert!(nums[1] <= nums[0] && nums[0] <= nums[2], "{line}");
    }
    assert!(lines[7].starts_with("signature:"), "{text}");
    let out = bench_run(&["--movegen", "--seconds", "0.01"]);
    let text = String::from_utf8(out.stdout).unwrap();
    // A flag --movegen does not use is refused, not silently ignored.
    let refused = bench_run(&["--movegen", "--seconds", "0.01", "--weights", WD]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("'--movegen' cannot be used with '--weights"));
    assert!(!text.contains("simd kernel"), "{text}");
    for what in ["positions/s:", "movegens/s:"] {
        let line = text.lines().find(|l| l.starts_with(what)).unwrap();
        assert!(line.ends_with("(1 thread)"), "{text}");
    }
}

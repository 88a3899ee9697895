//! `trainer td --eval fused` (the default) and `--eval incremental`: self-play scores
//! its move lists with the evaluator's fused or incremental mode. Their values against
//! the exact ones (the second computation) over self-play decisions, and the CLI:
//! reproducible across thread counts, recorded in `state.json`, kept by `--resume`;
//! checkpoints from before the setting resume exact, those from before the fused mode
//! (`fast`) incremental.

mod common;

use std::path::Path;
use std::sync::Arc;

use board::{DiceStream, MoveGen, Position, Variant};
use common::*;
use evaluator::bearoff::BearoffDbs;
use evaluator::eval::{invert, money_equity};
use evaluator::weights::Weights;
use trainer::model::{Model, ModelConfig};
use trainer::td::EvalMode;

/// `mode` against exact over the decisions of `games` exact self-play games: the
/// largest difference of a candidate's equity, and how many decisions (with at least
/// two candidates) chose the same move, of how many.
fn compare(model: &Model, dbs: &Arc<BearoffDbs>, games: u32, mode: EvalMode) -> (f32, usize, usize) {
    let exact = model.engine_for(dbs, EvalMode::Exact);
    let fast = model.engine_for(dbs, mode);
    let mut gen = MoveGen::new();
    let (mut worst, mut worst_p, mut same, mut decisions) = (0f32, 0f32, 0, 0);
    for g in 0..games {
        let mut dice = DiceStream::new(1000 + g);
        let mut pos: Position = Variant::Backgammon.start();
        let mut roll = dice.opening_roll();
        for _ in 0..400 {
            let cands = gen.positions(&pos, roll).to_vec();
            let values = |e: &evaluator::Evaluator<&Model>| {
                e.with_values_after(cands.iter().copied(), |v| {
                    v.iter().map(|(p, _)| invert(p)).collect::<Vec<_>>()
                })
                .unwrap()
            };
            let (a, b) = (values(&exact), values(&fast));
            for (x, y) in a.iter().zip(&b) {
                worst = worst.max((money_equity(x) - money_equity(y)).abs());
                for (p, q) in x.iter().zip(y) {
                    worst_p = worst_p.max((p - q).abs());
                }
            }
            let best = exact.best_of(&cands).unwrap();
            if cands.len() > 1 {
                decisions += 1;
                let k = best.unwrap().0;
                if fast.best_of(&cands).unwrap().unwrap().0 == k {
                    same += 1;
                }
            }
            let next = best.map_or(pos.swapped(), |(k, _)| cands[k].swapped());
            if next.swapped().finish(Variant::Backgammon).is_some() {
                break;
            }
            pos = next;
            roll = dice.roll();
        }
    }
    eprintln!("max probability difference {worst_p:.2e}");
    (worst, same, decisions)
}

/// Asserts the measured agreement: equities within `tolerance`, the same move in at
/// least 99.5 % of the decisions.
fn report(what: &str, (worst, same, decisions): (f32, usize, usize), tolerance: f32) {
    eprintln!(
        "{what}: max |equity fast - exact| {worst:.2e}; same move in {same}/{decisions} decisions ({:.2} %)",
        100.0 * same as f64 / decisions as f64
    );
    assert!(decisions > 1000, "{decisions} decisions");
    assert!(worst > 0.0, "{what} gave exact values: is it on?");
    assert!(worst < tolerance, "{what}: fast differs from exact by {worst}");
    assert!(
        same as f64 >= 0.995 * decisions as f64,
        "{what}: same move in only {same}/{decisions} decisions"
    );
}

/// gnubg's nets as a trainer model (realistic values and games), with the databases.
fn gnubg_model() -> Option<(Model, Arc<BearoffDbs>)> {
    if !have(&[WD, OS, TS]) {
        return None;
    }
    let config = ModelConfig::gnubg(128, true);
    let model = Model::from_weights(config, Weights::load(WD).unwrap(), Path::new(WD)).unwrap();
    let dbs = Arc::new(BearoffDbs::open(Some(Path::new(OS)), Some(Path::new(TS))).unwrap());
    Some((model, dbs))
}

/// Measured over 40 games (1,712 decisions): equities within 2.3e-3 (probabilities
/// 1.1e-3: a hidden unit's approximate reciprocal moved a step, times gnubg's large
/// output weights), the same move in every decision.
#[test]
fn incremental_mode_is_within_tolerance_of_exact_with_gnubg_nets() {
    let Some((model, dbs)) = gnubg_model() else { return };
    report(
        "incremental, gnubg nets",
        compare(&model, &dbs, 40, EvalMode::Incremental),
        GNUBG_TOLERANCE,
    );
}

/// Measured over 40 games (1,712 decisions): equities within 2.2e-3 (probabilities
/// 1.1e-3, at the same decision as the incremental mode: a hidden unit's approximate
/// reciprocal moved a step), the same move in every decision.
#[test]
fn fused_mode_is_within_tolerance_of_exact_with_gnubg_nets() {
    let Some((model, dbs)) = gnubg_model() else { return };
    report(
        "fused, gnubg nets",
        compare(&model, &dbs, 40, EvalMode::Fused),
        GNUBG_TOLERANCE,
    );
}

/// Both fast modes' bound on equity differences from exact with gnubg's nets.
const GNUBG_TOLERANCE: f32 = 5e-3;

/// A fresh net (no gnubg files needed): the race net plays bearoffs too. Measured:
/// equities within 1.6e-4 (incremental) and 2.4e-5 (fused), the same move in every
/// decision.
#[test]
fn fast_modes_are_within_tolerance_of_exact_with_a_fresh_net() {
    let config = ModelConfig::gnubg(128, false);
    let model = Model::new(config, 7).unwrap();
    let dbs = Arc::new(BearoffDbs::default());
    for mode in [EvalMode::Incremental, EvalMode::Fused] {
        report(
            &format!("{mode}, fresh net"),
            compare(&model, &dbs, 25, mode),
            5e-4,
        );
    }
}

/// A small run as [`common::small_td`] makes, but with 16 hidden units, so that the
/// fused mode runs its vector kernels (it takes multiples of 16; smaller nets get the
/// exact layers): gnubg inputs, no benchmarks.
fn small(out: &Path, games: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["--bench-every", "0"];
    args.extend_from_slice(extra);
    small_td_hidden(out, games, "16", &args)
}

#[test]
fn fast_runs_are_reproducible_across_threads_and_resume_in_their_mode() {
    let dir = scratch("td-fast");
    // The fused mode is the default.
    for (mode, flag) in [
        ("fused", &[][..]),
        ("incremental", &["--eval", "incremental"][..]),
    ] {
        let (one, two, parts) = (
            dir.join(format!("{mode}-one")),
            dir.join(format!("{mode}-two")),
            dir.join(format!("{mode}-parts")),
        );
        let with = |threads: &'static str| [&["--threads", threads][..], flag].concat();
        let o = small(&one, "30", &with("1"));
        assert!(o.status.success(), "{}", stderr(&o));
        let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(summary["eval"], mode);
        assert_eq!(json(&one.join("state.json"))["settings"]["td"]["eval"], mode);
        let o = small(&two, "30", &with("2"));
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(bytes(&one.join("net.wd")), bytes(&two.join("net.wd")), "{mode}");
        // In two sessions: the resumed one keeps the mode, and the same bits.
        let o = small(&parts, "10", &with("2"));
        assert!(o.status.success(), "{}", stderr(&o));
        let o = trainer(&["td", "--resume", s(&parts), "--games", "30", "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(json(&parts.join("state.json"))["settings"]["td"]["eval"], mode);
        assert_eq!(bytes(&one.join("net.wd")), bytes(&parts.join("net.wd")), "{mode}");
    }
    // --eval is a setting of the run.
    let parts = dir.join("fused-parts");
    let o = trainer(&["td", "--resume", s(&parts), "--games", "40", "--eval", "exact"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--eval cannot be given with --resume"),
        "{}",
        stderr(&o)
    );
    // Exact plays other games than fused here.
    let exact = dir.join("exact");
    let o = small(&exact, "30", &["--threads", "1", "--eval", "exact"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&exact.join("state.json"))["settings"]["td"]["eval"], "exact");
    assert_ne!(bytes(&dir.join("fused-one/net.wd")), bytes(&exact.join("net.wd")));
    for (bad, says) in [
        ("quick", "expected fused, incremental or exact"),
        ("fast", "'fast' is now called 'incremental'"),
    ] {
        let o = small(&dir.join("bad"), "10", &["--eval", bad]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
}

/// The fused mode's runs are the same bytes on every kernel (`BGKIT_SIMD`): the
/// AVX-512 and AVX2+FMA kernels against the portable twin, where the CPU has them.
#[test]
fn fused_runs_are_the_same_bits_on_every_kernel() {
    let dir = scratch("td-fused-kernels");
    let mut nets = Vec::new();
    for kernel in ["scalar", "avx2", "avx512"] {
        let out = dir.join(kernel);
        let mut args = vec![
            "td",
            "--out",
            s(&out),
            "--games",
            "20",
            "--hidden",
            "16",
            "--no-bearoff",
        ];
        args.extend([
            "--batch",
            "10",
            "--checkpoint-every",
            "10",
            "--bench-every",
            "0",
            "--quiet",
        ]);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_trainer"))
            .args(&args)
            .env("BGKIT_SIMD", kernel)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        nets.push((kernel, bytes(&out.join("net.wd"))));
    }
    for (kernel, net) in &nets[1..] {
        assert!(*net == nets[0].1, "{kernel} differs from scalar");
    }
}

/// An older checkpoint resumes in the mode it was written in: 10 games in `mode`, the
/// checkpoint's `eval` setting rewritten as an older version wrote it (`old`: a value,
/// or `None` for none at all), resumed to 30 games; the same bits as 30 games in one
/// run, and the setting written back as `mode`.
fn resumes_as(name: &str, mode: &str, old: Option<&str>) {
    let dir = scratch(name);
    let (whole, parts) = (dir.join("whole"), dir.join("parts"));
    for (out, games) in [(&whole, "30"), (&parts, "10")] {
        let o = small(out, games, &["--threads", "1", "--eval", mode]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let state = parts.join("state.json");
    let mut v = json(&state);
    let td = v["settings"]["td"].as_object_mut().unwrap();
    match old {
        Some(value) => td.insert("eval".into(), value.into()),
        None => td.remove("eval"),
    }
    .unwrap();
    std::fs::write(&state, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = trainer(&["td", "--resume", s(&parts), "--games", "30", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&state)["settings"]["td"]["eval"], mode);
    assert_eq!(bytes(&whole.join("net.wd")), bytes(&parts.join("net.wd")));
}

/// A checkpoint written before the fused mode with `--eval fast` (then the incremental
/// mode) resumes incremental.
#[test]
fn checkpoints_of_the_former_fast_mode_resume_incremental() {
    resumes_as("td-fast-former", "incremental", Some("fast"));
}

/// A checkpoint written before the setting (no `eval` in its TD parameters) was exact,
/// and resumes exact.
#[test]
fn checkpoints_without_the_setting_resume_exact() {
    resumes_as("td-fast-old", "exact", None);
}

//! `trainer td --eval fast`: self-play scores its move lists with the
//! evaluator's incremental mode. Its values against the exact ones (the second
//! computation) over self-play decisions, and the CLI: reproducible across thread
//! counts, recorded in `state.json`, kept by `--resume`; checkpoints from before the
//! setting resume exact.

mod common;

use std::path::Path;
use std::sync::Arc;

use board::{DiceStream, MoveGen, Position, Variant};
use common::*;
use evaluator::bearoff::BearoffDbs;
use evaluator::eval::{invert, money_equity};
use evaluator::weights::Weights;
use trainer::encoding::Encoding;
use trainer::model::{Init, Layout, Model, ModelConfig};
use trainer::td::EvalMode;

/// Fast against exact over the decisions of `games` exact self-play games: the largest
/// difference of a candidate's equity, and how many decisions (with at least two
/// candidates) chose the same move, of how many.
fn compare(model: &Model, dbs: &Arc<BearoffDbs>, games: u32) -> (f32, usize, usize) {
    let exact = model.engine_for(dbs, EvalMode::Exact);
    let fast = model.engine_for(dbs, EvalMode::Fast);
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
    assert!(worst > 0.0, "fast mode gave exact values: is it on?");
    assert!(worst < tolerance, "{what}: fast differs from exact by {worst}");
    assert!(
        same as f64 >= 0.995 * decisions as f64,
        "{what}: same move in only {same}/{decisions} decisions"
    );
}

/// gnubg's nets as a trainer model (realistic values and games), with the databases.
/// Measured over 40 games (1,712 decisions): equities within 2.3e-3 (probabilities
/// 1.1e-3: a hidden unit's approximate reciprocal moved a step, times gnubg's large
/// output weights), the same move in every decision.
#[test]
fn fast_mode_is_within_tolerance_of_exact_with_gnubg_nets() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let config = ModelConfig {
        encoding: Encoding::Gnubg,
        layout: Layout::Split,
        hidden: 128,
        init: Init::Xavier,
        weights_version: "1.00".into(),
        bearoff: true,
    };
    let model = Model::from_weights(config, Weights::load(WD).unwrap(), Path::new(WD)).unwrap();
    let dbs = Arc::new(BearoffDbs::open(Some(Path::new(OS)), Some(Path::new(TS))).unwrap());
    report("gnubg nets", compare(&model, &dbs, 40), 5e-3);
}

/// A fresh net (no gnubg files needed): the race net plays bearoffs too. Measured:
/// equities within 1.6e-4, the same move in every decision.
#[test]
fn fast_mode_is_within_tolerance_of_exact_with_a_fresh_net() {
    let config = ModelConfig {
        encoding: Encoding::Gnubg,
        layout: Layout::Split,
        hidden: 128,
        init: Init::Xavier,
        weights_version: "1.00".into(),
        bearoff: false,
    };
    let model = Model::new(config, 7).unwrap();
    report(
        "fresh net",
        compare(&model, &Arc::new(BearoffDbs::default()), 25),
        5e-4,
    );
}

/// A small run ([`common::small_td`]): gnubg inputs, no benchmarks.
fn small(out: &Path, games: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["--bench-every", "0"];
    args.extend_from_slice(extra);
    small_td(out, games, &args)
}

#[test]
fn fast_runs_are_reproducible_across_threads_and_resume_fast() {
    let dir = scratch("td-fast");
    let (one, two, parts, exact) = (
        dir.join("one"),
        dir.join("two"),
        dir.join("parts"),
        dir.join("exact"),
    );
    let o = small(&one, "30", &["--threads", "1", "--eval", "fast"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(summary["eval"], "fast");
    assert_eq!(json(&one.join("state.json"))["settings"]["td"]["eval"], "fast");
    let o = small(&two, "30", &["--threads", "2", "--eval", "fast"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(bytes(&one.join("net.wd")), bytes(&two.join("net.wd")));
    // In two sessions: the resumed one keeps the fast mode, and the same bits.
    let o = small(&parts, "10", &["--threads", "2", "--eval", "fast"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = trainer(&["td", "--resume", s(&parts), "--games", "30", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&parts.join("state.json"))["settings"]["td"]["eval"], "fast");
    assert_eq!(bytes(&one.join("net.wd")), bytes(&parts.join("net.wd")));
    // --eval is a setting of the run.
    let o = trainer(&["td", "--resume", s(&parts), "--games", "40", "--eval", "exact"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--eval cannot be given with --resume"),
        "{}",
        stderr(&o)
    );
    // The default is exact, and plays other games than fast here.
    let o = small(&exact, "30", &["--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&exact.join("state.json"))["settings"]["td"]["eval"], "exact");
    assert_ne!(bytes(&one.join("net.wd")), bytes(&exact.join("net.wd")));
    let o = small(&dir.join("bad"), "10", &["--eval", "quick"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("expected fast or exact"), "{}", stderr(&o));
}

/// A checkpoint written before the setting (no `eval` in its TD parameters) was exact,
/// and resumes exact: the same bits as an uninterrupted `--eval exact` run.
#[test]
fn checkpoints_without_the_setting_resume_exact() {
    let dir = scratch("td-fast-old");
    let (whole, parts) = (dir.join("whole"), dir.join("parts"));
    let o = small(&whole, "30", &["--threads", "1", "--eval", "exact"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = small(&parts, "10", &["--threads", "1", "--eval", "exact"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let state = parts.join("state.json");
    let mut v = json(&state);
    v["settings"]["td"]
        .as_object_mut()
        .unwrap()
        .remove("eval")
        .unwrap();
    std::fs::write(&state, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = trainer(&["td", "--resume", s(&parts), "--games", "30", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&state)["settings"]["td"]["eval"], "exact");
    assert_eq!(bytes(&whole.join("net.wd")), bytes(&parts.join("net.wd")));
}

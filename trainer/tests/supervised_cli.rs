//! `trainer supervised` and `trainer benchmark` on the command line: files, summaries,
//! resumption, errors, and an error rate checked against an independent computation.

mod common;

use std::path::Path;

use board::{Dice, MoveGen, Position};
use common::{dir_names, fails_with, killed_writers_temps, samples, scratch, stderr, trainer};
use datasets::benchmark::{self, Candidate, Entry};
use datasets::format::{self, Format, Sample};
use evaluator::weights::Weights;
use serde_json::Value;

fn ok_json(args: &[&str]) -> Value {
    let o = trainer(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

#[test]
fn supervised_trains_writes_its_files_and_resumes() {
    let dir = scratch("cli-sup");
    let data = dir.join("data.csv");
    format::write(&data, Format::Csv, &samples(3, 1500)).unwrap();
    let out = dir.join("run");
    let run = out.to_str().unwrap();
    let d = data.to_str().unwrap();
    let v = ok_json(&[
        "supervised",
        "--data",
        d,
        "--class",
        "contact",
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--batch",
        "64",
        "--lr",
        "0.01",
        "--out",
        run,
        "--threads",
        "2",
        "--quiet",
        "--json",
    ]);
    assert_eq!(v["class"], "contact");
    assert_eq!(v["epochs"], 2);
    assert!(v["best_val_mse"].as_f64().unwrap() < 0.05, "{v}");
    assert!(v["samples_per_s"].as_f64().unwrap() > 0.0);
    let files = dir_names(&out);
    let steps = load_steps(&out);
    for f in [
        "curve.csv".to_string(),
        "curve.png".into(),
        "net.json".into(),
        "net.wd".into(),
        "net.weights".into(),
        "supervised.json".into(),
        format!("checkpoint-{steps}.wd"),
        format!("optimizer-{steps}.bin"),
    ] {
        assert!(files.contains(&f), "{f} in {files:?}");
    }
    assert_eq!(files.len(), 8, "{files:?}");
    // Header, the starting net, two epochs.
    assert_eq!(
        std::fs::read_to_string(out.join("curve.csv"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    // gnubg's loader (and so `evaluator --weights`) takes the written nets.
    let w = Weights::load(out.join("net.wd")).unwrap();
    assert_eq!(w.nets[0].hidden, 8);
    // Resume to a new total (removing a killed writer's temporary file, not a live
    // one's); settings cannot change; the directory is not reused.
    let (gone, alive) = killed_writers_temps(&out);
    let v = ok_json(&[
        "supervised",
        "--resume",
        run,
        "--epochs",
        "3",
        "--quiet",
        "--json",
    ]);
    assert_eq!(v["epochs"], 3);
    assert!(!gone.exists() && alive.exists());
    std::fs::remove_file(&alive).unwrap();
    fails_with(
        &["supervised", "--resume", run, "--lr", "0.1"],
        "--lr cannot be given with --resume",
    );
    fails_with(
        &[
            "supervised",
            "--data",
            d,
            "--class",
            "contact",
            "--out",
            run,
            "--quiet",
        ],
        "holds another run's files",
    );
    // Text summary.
    let o = trainer(&["supervised", "--resume", run, "--epochs", "3", "--quiet"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("contact net:"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn load_steps(dir: &Path) -> u64 {
    let v: Value = serde_json::from_slice(&std::fs::read(dir.join("supervised.json")).unwrap()).unwrap();
    v["steps"].as_u64().unwrap()
}

#[test]
fn supervised_errors_name_the_file_and_the_problem() {
    let dir = scratch("cli-sup-bad");
    let race: Vec<Sample> = samples(4, 3000)
        .into_iter()
        .filter(|s| evaluator::class::classify_shape(&s.position) == evaluator::PositionClass::Race)
        .collect();
    assert!(!race.is_empty());
    let racefile = dir.join("race.bgds");
    format::write(&racefile, Format::Binary, &race).unwrap();
    let out = dir.join("x");
    let o = out.to_str().unwrap();
    let r = racefile.to_str().unwrap();
    fails_with(
        &[
            "supervised",
            "--data",
            r,
            "--class",
            "contact",
            "--out",
            o,
            "--quiet",
        ],
        "race.bgds",
    );
    fails_with(
        &[
            "supervised",
            "--data",
            r,
            "--class",
            "contact",
            "--out",
            o,
            "--quiet",
        ],
        "no contact positions",
    );
    fails_with(
        &[
            "supervised",
            "--data",
            "/no/such.bgds",
            "--class",
            "race",
            "--out",
            o,
        ],
        "/no/such.bgds",
    );
    fails_with(
        &[
            "supervised",
            "--data",
            r,
            "--class",
            "race",
            "--out",
            o,
            "--validation",
            "0.9",
        ],
        "--validation",
    );
    fails_with(
        &[
            "supervised",
            "--data",
            r,
            "--class",
            "race",
            "--out",
            o,
            "--init",
            "/no/w.wd",
        ],
        "/no/w.wd",
    );
    // Optimiser settings: the value out of range is named; momentum is SGD's.
    let opt = |extra: &[&'static str]| {
        let mut a = vec!["supervised", "--data", r, "--class", "race", "--out", o];
        a.extend_from_slice(extra);
        a
    };
    fails_with(
        &opt(&["--optimizer", "sgd", "--momentum", "2"]),
        "optimizer momentum must lie in [0, 1), not 2",
    );
    fails_with(&opt(&["--momentum", "0.5"]), "--momentum is for --optimizer sgd");
    // A learning rate that blows the weights up stops the run with one error; the
    // net it leaves is the last sound one (the starting net), never NaNs.
    let diverged = dir.join("diverged");
    let dv = diverged.to_str().unwrap();
    fails_with(
        &[
            "supervised",
            "--data",
            r,
            "--class",
            "race",
            "--hidden",
            "8",
            "--lr",
            "1e30",
            "--out",
            dv,
            "--quiet",
        ],
        "training diverged",
    );
    let w = Weights::load(diverged.join("net.wd")).unwrap();
    assert_eq!(w.nets[1].hidden, 8, "the starting net, written before any batch");
    let o2 = trainer(&["supervised", "--data", r, "--class", "hyper", "--out", o]);
    assert_eq!(o2.status.code(), Some(2));
    let bytes = std::fs::read(&racefile).unwrap();
    std::fs::write(&racefile, &bytes[..bytes.len() - 3]).unwrap();
    fails_with(
        &[
            "supervised",
            "--data",
            r,
            "--class",
            "race",
            "--out",
            o,
            "--quiet",
        ],
        "truncated",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn supervised_bench_reports_its_rates() {
    let v = ok_json(&[
        "supervised",
        "--bench",
        "3000",
        "--hidden",
        "16",
        "--threads",
        "1",
    ]);
    assert_eq!(v["positions"], 3000);
    assert_eq!(v["inputs"], 250);
    assert!(v["samples_per_s"].as_f64().unwrap() > 0.0);
    assert!(v["cached_samples_per_s"].as_f64().unwrap() > 0.0);
}

/// A set with made-up candidate equities; pubeval's choices computed here with the
/// library; the command's ER must be the hand-computed mean loss.
#[test]
fn benchmark_scores_players_as_computed_by_hand() {
    let dir = scratch("cli-bench");
    let mut gen = MoveGen::new();
    let mut dice = board::DiceStream::new(21);
    let positions: Vec<Position> = samples(5, 400)
        .into_iter()
        .map(|s| s.position)
        .step_by(7)
        .collect();
    let mut entries = Vec::new();
    let mut expected = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        let roll: Dice = dice.roll();
        let moves: Vec<Position> = gen.moves(p, roll).iter().map(|m| m.result).collect();
        if moves.len() < 3 {
            continue;
        }
        // Three candidates: every second move from the start of the list, equities
        // falling by 0.01·(i mod 5 + 1).
        let step = 0.01 * ((i % 5) as f64 + 1.0);
        let cands: Vec<Candidate> = moves
            .iter()
            .step_by(2)
            .take(3)
            .enumerate()
            .map(|(k, &after)| Candidate {
                after,
                notation: String::new(),
                equity: 0.3 - step * k as f64,
                se: None,
                probs: None,
            })
            .collect();
        let choice = trainer::pubeval::best_move(&mut gen, p, roll).unwrap().result;
        let best = cands[0].equity;
        let loss = match cands.iter().find(|c| c.after == choice) {
            Some(c) => best - c.equity,
            None => best - cands.last().unwrap().equity,
        };
        expected.push(loss);
        entries.push(Entry {
            position: *p,
            dice: roll,
            candidates: cands,
        });
    }
    assert!(entries.len() > 20);
    let set = dir.join("set.jsonl");
    let lines: Vec<String> = entries.iter().map(benchmark::entry_line).collect();
    benchmark::write(
        &set,
        &serde_json::json!({"format": "bgkit-benchmark", "version": 1}),
        &lines,
        fileio::Existing::Replace,
    )
    .unwrap();
    let o = trainer(&[
        "benchmark",
        "--weights",
        "pubeval",
        "--weights",
        "random",
        "--set",
        set.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let reports: Vec<Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0]["player"], "pubeval");
    let all = reports[0]["classes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["class"] == "all")
        .unwrap();
    let er = 1000.0 * expected.iter().sum::<f64>() / expected.len() as f64;
    assert_eq!(all["positions"], expected.len());
    assert!(
        (all["er"].as_f64().unwrap() - er).abs() < 1e-9,
        "{} vs {er}",
        all["er"]
    );
    // The table form names every class present.
    let o = trainer(&[
        "benchmark",
        "--weights",
        "pubeval",
        "--set",
        set.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("contact") && text.contains("all"), "{text}");
    // Errors.
    fails_with(
        &["benchmark", "--weights", "pubeval", "--set", "/no/set.jsonl"],
        "/no/set.jsonl",
    );
    fails_with(
        &[
            "benchmark",
            "--weights",
            "/no/net.wd",
            "--set",
            set.to_str().unwrap(),
        ],
        "no such file",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn supervised_class_all_trains_each_class_in_turn_and_resumes() {
    let dir = scratch("cli-sup-all");
    let data = dir.join("data.csv");
    format::write(&data, Format::Csv, &samples(5, 3000)).unwrap();
    let d = data.to_str().unwrap();
    let common = [
        "--hidden", "8", "--epochs", "2", "--batch", "64", "--lr", "0.01", "--quiet", "--json",
    ];
    // All three classes in one command.
    let all = dir.join("all");
    let mut args = vec![
        "supervised",
        "--data",
        d,
        "--class",
        "all",
        "--out",
        all.to_str().unwrap(),
    ];
    args.extend(common);
    let v = ok_json(&args);
    let rows = v["classes"].as_array().unwrap();
    let classes: Vec<&str> = rows.iter().map(|r| r["class"].as_str().unwrap()).collect();
    assert_eq!(classes, ["contact", "race", "crashed"], "{v}");
    assert_eq!(v["finished"], true);
    assert!(
        rows.iter().all(|r| r["epochs"] == 2 && r["finished"] == true),
        "{v}"
    );
    // The same as three single-class runs chained by hand, each from the last's nets.
    let mut init: Option<std::path::PathBuf> = None;
    for class in ["contact", "race", "crashed"] {
        let out = dir.join(format!("hand-{class}"));
        let mut args = vec![
            "supervised",
            "--data",
            d,
            "--class",
            class,
            "--out",
            out.to_str().unwrap(),
        ];
        let init_s = init.as_ref().map(|p| p.to_str().unwrap().to_string());
        if let Some(p) = &init_s {
            args.extend(["--init", p.as_str()]);
        }
        args.extend(common);
        ok_json(&args);
        assert_eq!(
            std::fs::read(all.join(class).join("net.wd")).unwrap(),
            std::fs::read(out.join("net.wd")).unwrap(),
            "{class}"
        );
        init = Some(out.join("net.wd"));
    }
    // The final nets are in the run directory: every class's net trained.
    let last = dir.join("hand-crashed");
    for f in ["net.wd", "net.weights", "net.json"] {
        assert_eq!(
            std::fs::read(all.join(f)).unwrap(),
            std::fs::read(last.join(f)).unwrap(),
            "{f}"
        );
    }
    // A list, interrupted before its second class (as if stopped there: the second
    // class's directory and the final nets are gone), then resumed: the second class
    // starts from the first's nets, and the result is the chain's.
    let parts = dir.join("parts");
    let mut args = vec![
        "supervised",
        "--data",
        d,
        "--class",
        "contact,race",
        "--out",
        parts.to_str().unwrap(),
    ];
    args.extend(common);
    let v = ok_json(&args);
    assert_eq!(v["classes"].as_array().unwrap().len(), 2);
    let race = std::fs::read(dir.join("hand-race").join("net.wd")).unwrap();
    assert_eq!(std::fs::read(parts.join("net.wd")).unwrap(), race);
    std::fs::remove_dir_all(parts.join("race")).unwrap();
    for f in ["net.wd", "net.weights", "net.json"] {
        std::fs::remove_file(parts.join(f)).unwrap();
    }
    let v = ok_json(&[
        "supervised",
        "--resume",
        parts.to_str().unwrap(),
        "--quiet",
        "--json",
    ]);
    assert_eq!(v["finished"], true, "{v}");
    assert_eq!(std::fs::read(parts.join("net.wd")).unwrap(), race);
    // The text summary has one row per class.
    let o = trainer(&["supervised", "--resume", parts.to_str().unwrap(), "--quiet"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("contact  2 epoch(s), best at epoch") && text.contains("race     2 epoch(s)"),
        "{text}"
    );
    assert!(text.contains("all classes trained"), "{text}");
    // Errors (clap's, exit 2): an unknown class in the list, a class twice.
    for (list, needle) in [
        ("contact,bogus", "unknown class 'bogus'"),
        ("race,race", "listed twice"),
    ] {
        let o = trainer(&["supervised", "--data", d, "--class", list, "--out", "x"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
    }
}

/// `--widen` on the command line: started from plain gnubg weights, the widened net's
/// first curve row (the starting net, before any step) is the unwidened start's, and
/// the written net has the new size; without --hidden the flag is refused.
#[test]
fn widen_starts_from_the_starting_nets_error() {
    let dir = scratch("cli-widen");
    let data = dir.join("data.csv");
    format::write(&data, Format::Csv, &samples(4, 600)).unwrap();
    let d = data.to_str().unwrap();
    let common = [
        "supervised",
        "--data",
        d,
        "--class",
        "contact",
        "--epochs",
        "1",
        "--lr",
        "0.01",
    ];
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = common.to_vec();
        args.extend(["--out", out.to_str().unwrap(), "--quiet", "--json"]);
        args.extend(extra);
        ok_json(&args);
        out
    };
    // A trained 8-unit net, as plain gnubg weights (no sidecar beside the copy).
    let first = run("first", &["--hidden", "8"]);
    let start = dir.join("start.wd");
    std::fs::copy(first.join("net.wd"), &start).unwrap();
    let s = start.to_str().unwrap();
    let first_row = |out: &Path| {
        let curve = std::fs::read_to_string(out.join("curve.csv")).unwrap();
        let header: Vec<String> = curve
            .lines()
            .next()
            .unwrap()
            .split(',')
            .map(String::from)
            .collect();
        let col = header.iter().position(|h| h == "val_mse").unwrap();
        curve
            .lines()
            .nth(1)
            .unwrap()
            .split(',')
            .nth(col)
            .unwrap()
            .to_string()
    };
    let plain = run("plain", &["--init", s]);
    let wide = run("wide", &["--init", s, "--hidden", "12", "--widen"]);
    assert_eq!(first_row(&plain), first_row(&wide));
    assert_eq!(Weights::load(wide.join("net.wd")).unwrap().nets[0].hidden, 12);
    fails_with(
        &["supervised", "--data", d, "--class", "contact", "--widen"],
        "not provided: --hidden",
    );
}

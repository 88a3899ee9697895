//! Files written before bgkit had one seed rule (they record no `seed_rule`, i.e. rule
//! 1): TD and supervised checkpoints are refused with one clear error (exit 2), their
//! nets still load; tournaments keep playing and replaying their games with rule 1.

mod common;

use std::path::Path;

use board::{MoveGen, Variant};
use common::{stderr, trainer};
use datasets::format::{self, Format, Sample};
use evaluator::weights::Weights;
use serde_json::Value;
use test_support::Scratch;
use trainer::error::TrainerError;

fn ok(args: &[&str]) -> String {
    let o = trainer(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// Rewrites the JSON file at `path` as an older build wrote it: without `seed_rule`
/// (or with `rule`, when given).
fn set_rule(path: &Path, rule: Option<u32>) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let o = v.as_object_mut().unwrap();
    assert_eq!(
        o.get("seed_rule"),
        Some(&Value::from(2)),
        "new files record rule 2"
    );
    match rule {
        Some(r) => o.insert("seed_rule".into(), Value::from(r)),
        None => o.remove("seed_rule"),
    };
    std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// The error for a checkpoint of rule 1, as the user reads it.
fn rule1_message(file: &Path) -> String {
    format!(
        "trainer: {} was written with seed rule 1 (bgkit before seed rule 2: main at a17f0e0 or older); it cannot \
         be resumed with this version — start a new run or finish it with the older build\n",
        file.display()
    )
}

fn assert_refused(args: &[&str], file: &Path) {
    let o = trainer(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert_eq!(stderr(&o), rule1_message(file));
}

#[test]
fn an_old_td_checkpoint_is_refused_and_its_nets_still_load() {
    let dir = Scratch::new("trainer", "seed-rule-td");
    let run = dir.join("run");
    let r = run.to_str().unwrap();
    ok(&[
        "td",
        "--games",
        "2",
        "--out",
        r,
        "--hidden",
        "4",
        "--no-bearoff",
        "--threads",
        "1",
        "--bench-every",
        "0",
        "--quiet",
    ]);
    let state = run.join("state.json");
    set_rule(&state, None);
    assert_refused(&["td", "--resume", r, "--games", "4", "--quiet"], &state);
    // The library says the same, with the rule it found.
    match trainer::train::load_state(&run) {
        Err(e @ TrainerError::SeedRule { rule: 1, .. }) => {
            assert_eq!(format!("trainer: {e}\n"), rule1_message(&state))
        }
        other => panic!(
            "expected a seed-rule error, got {:?}",
            other.map(|(s, _)| s.games)
        ),
    }
    // A rule this build does not know (a newer build's file) is refused too.
    set_rule_raw(&state, 3);
    let o = trainer(&["td", "--resume", r, "--games", "4", "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("seed rule 3, which this build does not know"),
        "{}",
        stderr(&o)
    );
    // Nets need no seeds: they load as before.
    let w = Weights::load(run.join("net.wd")).unwrap();
    assert_eq!(w.nets[0].hidden, 4);
}

/// Sets `seed_rule` in a file that has none or any.
fn set_rule_raw(path: &Path, rule: u32) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v.as_object_mut()
        .unwrap()
        .insert("seed_rule".into(), Value::from(rule));
    std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// Contact positions of seeded random games, with made-up targets.
fn samples(n: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut gen = MoveGen::new();
    let mut dice = board::DiceStream::new(11);
    while out.len() < n {
        let mut pos = Variant::Backgammon.start();
        for t in 0..40 {
            let w = 0.3 + 0.01 * t as f32;
            out.push(Sample {
                position: pos,
                probs: [w, 0.1, 0.0, 0.1, 0.0],
                se: None,
                trials: 0,
            });
            let r = gen.positions(&pos, dice.roll());
            if !r.is_empty() {
                pos = r[dice.below(r.len() as u32) as usize];
            }
            pos = pos.swapped();
        }
    }
    out.truncate(n);
    out
}

#[test]
fn an_old_supervised_checkpoint_is_refused() {
    let dir = Scratch::new("trainer", "seed-rule-sup");
    let data = dir.join("data.csv");
    format::write(&data, Format::Csv, &samples(400)).unwrap();
    let run = dir.join("run");
    let r = run.to_str().unwrap();
    ok(&[
        "supervised",
        "--data",
        data.to_str().unwrap(),
        "--class",
        "contact",
        "--hidden",
        "4",
        "--epochs",
        "1",
        "--batch",
        "64",
        "--out",
        r,
        "--threads",
        "1",
        "--quiet",
    ]);
    let state = run.join("supervised.json");
    set_rule(&state, None);
    assert_refused(&["supervised", "--resume", r, "--epochs", "2", "--quiet"], &state);
    let e = trainer::supervised::run::load_state(&run).unwrap_err();
    assert_eq!(format!("trainer: {e}\n"), rule1_message(&state));
    assert!(Weights::load(run.join("net.wd")).is_ok());
}

/// `(id, winner, points, turns)` of every finished game of the tournament file.
fn results(path: &Path) -> Vec<(u64, u8, u8, u32)> {
    let t = trainer::tourney::file::read(path).unwrap();
    t.games()
        .filter_map(|(_, _, g)| g.result.map(|r| (g.id, r.winner, r.points, r.turns)))
        .collect()
}

#[test]
fn an_old_tournament_keeps_its_seed_rule() {
    let dir = Scratch::new("trainer", "seed-rule-tourney");
    let [old, new] = ["old.json", "new.json"].map(|n| dir.join(n));
    for f in [&old, &new] {
        ok(&[
            "tourney",
            "new",
            f.to_str().unwrap(),
            "--participants",
            "random",
            "r2=random",
            "--games-per-pairing",
            "8",
            "--seed",
            "5",
        ]);
    }
    set_rule(&old, None);
    for f in [&old, &new] {
        ok(&["tourney", "run", f.to_str().unwrap(), "--quiet"]);
        // Export replays every game from its seeds and checks it against the file.
        let sgf = dir.join(format!("sgf-{}", f.file_stem().unwrap().to_str().unwrap()));
        ok(&[
            "tourney",
            "export",
            f.to_str().unwrap(),
            "--sgf",
            sgf.to_str().unwrap(),
        ]);
    }
    // The old file now says which rule it plays; the two rules dealt other dice.
    let t = trainer::tourney::file::read(&old).unwrap();
    assert_eq!((t.seed_rule, t.rule()), (1, trainer::seed::Rule::One));
    let (a, b) = (results(&old), results(&new));
    assert_eq!((a.len(), b.len()), (8, 8));
    assert_ne!(a, b);
    // A rule this build does not know is refused, naming the file.
    set_rule_raw(&new, 9);
    let o = trainer(&["tourney", "run", new.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(new.to_str().unwrap()) && e.contains("seed rule 9 is unknown"),
        "{e}"
    );
}

//! The trainer's engine and files against gnubg 1.07: its recorded 0-ply choices
//! (testdata/gnubg), gnubg itself loading trainer-written weights, and the published
//! strength of gnubg 0-ply against pubeval.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use board::{Dice, MoveGen, Position};
use common::*;
use evaluator::bearoff::BearoffDbs;
use evaluator::weights::Weights;
use evaluator::PositionClass;
use test_support::gnubg_output;
use trainer::duel::{duel, DuelOptions};
use trainer::model::{self, Model, ModelConfig};
use trainer::player::{GnubgPlayer, NetPlayer, PlayContext, Player, Pubeval};

fn gnubg_config(hidden: usize) -> ModelConfig {
    ModelConfig::gnubg(hidden, true)
}

fn dbs() -> BearoffDbs {
    BearoffDbs::open(Some(Path::new(OS)), Some(Path::new(TS))).unwrap()
}

/// gnubg's own nets loaded as a trainer model play gnubg's recorded 0-ply moves.
#[test]
fn gnubg_weights_in_the_trainer_engine_choose_gnubgs_moves() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let model = Model::from_weights(gnubg_config(128), Weights::load(WD).unwrap(), Path::new(WD)).unwrap();
    let player = NetPlayer::new("gnubg-weights", model, Arc::new(dbs()));
    let mut ctx = PlayContext::new(1);
    let mut rdr = csv::Reader::from_path(testdata("gnubg/moves.csv")).unwrap();
    let (mut n, mut same) = (0, 0);
    let mut differ = Vec::new();
    for row in rdr.records() {
        let row = row.unwrap();
        let pos = Position::from_id(&row[0]).unwrap();
        let dice = Dice::new(row[1].parse().unwrap(), row[2].parse().unwrap()).unwrap();
        let got = player.choose(&mut ctx, &pos, dice).unwrap();
        let got = got.map_or(String::new(), |m| m.result.position_id());
        n += 1;
        if got == row[5] {
            same += 1;
        } else {
            differ.push(format!("{} {dice}: ours {got}, gnubg {}", &row[0], &row[5]));
        }
    }
    eprintln!("{same}/{n} of gnubg's recorded 0-ply moves reproduced");
    // The fixture was recorded on an AMD CPU, where gnubg's bits are the evaluator's.
    assert!(n > 500);
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// Move preselection with gnubg's own pruning nets (gnubg's in-lookahead choice) keeps
/// the full 0-ply choice in most positions where it prunes, and picks a move of the
/// same equity when there are too few candidates to prune.
#[test]
fn pruned_move_choice_agrees_with_the_full_choice() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let model = Model::from_weights(gnubg_config(128), Weights::load(WD).unwrap(), Path::new(WD)).unwrap();
    let d = Arc::new(dbs());
    let engine = model.engine(&d);
    let mut gen = MoveGen::new();
    let mut rdr = csv::Reader::from_path(testdata("gnubg/moves.csv")).unwrap();
    let (mut pruned_rows, mut same) = (0, 0);
    for row in rdr.records() {
        let row = row.unwrap();
        let pos = Position::from_id(&row[0]).unwrap();
        let dice = Dice::new(row[1].parse().unwrap(), row[2].parse().unwrap()).unwrap();
        let cands = gen.positions(&pos, dice).to_vec();
        let full = engine.best_of(&cands).unwrap();
        let fast = engine.best_of_pruned(&cands).unwrap();
        let k = 5 + cands.len().max(1).ilog2() as usize;
        if cands.len() <= k {
            // Nothing pruned: both take a move of the highest equity (gnubg's two rules
            // break ties differently: the move list by shape, the lookahead by order).
            let eq = |c: Option<(usize, [f32; 5])>| c.map(|(_, p)| evaluator::eval::money_equity(&p));
            assert_eq!(eq(full), eq(fast), "{} {dice}", &row[0]);
            continue;
        }
        let (full, fast) = (full.map(|(k, _)| k), fast.map(|(k, _)| k));
        pruned_rows += 1;
        same += usize::from(full == fast);
    }
    eprintln!("pruned choice = full choice in {same}/{pruned_rows} rows with more than k candidates");
    assert!(pruned_rows > 200);
    assert!(same * 100 >= pruned_rows * 94, "{same}/{pruned_rows}");
}

/// gnubg's nets loaded as a trainer model, the evaluator on the same nets, and the
/// databases for the model's engine (`None` without gnubg's files).
fn gnubg_as_model() -> Option<(Model, evaluator::Evaluator, Arc<BearoffDbs>)> {
    if !have(&[WD, OS, TS]) {
        return None;
    }
    let weights = Weights::load(WD).unwrap();
    let model = Model::from_weights(gnubg_config(128), weights.clone(), Path::new(WD)).unwrap();
    Some((model, evaluator::Evaluator::new(weights, dbs()), Arc::new(dbs())))
}

/// gnubg's nets loaded as a trainer model evaluate, through the seam, bit for bit as
/// the evaluator's own gnubg nets, in every class (race backgammons included).
#[test]
fn trainer_engine_matches_the_evaluator_on_gnubg_weights() {
    let Some((model, ev, d)) = gnubg_as_model() else {
        return;
    };
    let engine = model.engine(&d);
    let mut rdr = csv::Reader::from_path(testdata("gnubg/positions.csv")).unwrap();
    let mut per_class = std::collections::BTreeMap::new();
    for row in rdr.records() {
        let pos = Position::from_id(&row.unwrap()[0]).unwrap();
        let (want, class) = ev.evaluate(&pos).unwrap();
        let (got, got_class) = engine.evaluate(&pos).unwrap();
        assert_eq!(got_class, class);
        *per_class.entry(class).or_insert(0) += 1;
        assert_eq!(
            got.map(f32::to_bits),
            want.map(f32::to_bits),
            "{} ({class})",
            pos.position_id()
        );
    }
    eprintln!("positions per class: {per_class:?}");
    for class in [
        PositionClass::Contact,
        PositionClass::Crashed,
        PositionClass::Race,
    ] {
        assert!(per_class.get(&class).copied().unwrap_or(0) >= 50, "{class}");
    }
}

/// gnubg 1.07 loads the weights the trainer writes (binary and text) and evaluates with
/// them as the trainer's engine does.
#[test]
fn gnubg_loads_trainer_weights() {
    if !have(&[GNUBG, OS, TS]) {
        return;
    }
    let dir = scratch("gnubg-loads");
    let model = Model::new(gnubg_config(16), 42).unwrap();
    model::save(&dir.join("gnubg"), &model, None).unwrap();
    for db in [OS, TS] {
        let name = Path::new(db).file_name().unwrap();
        std::os::unix::fs::symlink(db, dir.join(name)).unwrap();
    }
    // Random-weight nets give distinctive values: gnubg's own nets would not match.
    // Three positions of each net class (race, crashed, contact) from the fixture.
    let mut ids: Vec<String> = Vec::new();
    let mut rdr = csv::Reader::from_path(testdata("gnubg/positions.csv")).unwrap();
    let mut per_class = std::collections::BTreeMap::new();
    for row in rdr.records() {
        let row = row.unwrap();
        let n = per_class.entry(row[3].to_string()).or_insert(0);
        if ["8", "9", "10"].contains(&&row[3]) && *n < 3 {
            *n += 1;
            ids.push(row[0].to_string());
        }
    }
    assert_eq!(ids.len(), 9);
    let script = dir.join("eval.py");
    std::fs::write(
        &script,
        format!(
            "import gnubg\n\
             gnubg.command('set player 0 human')\n\
             gnubg.command('set player 1 human')\n\
             gnubg.command('new game')\n\
             ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)\n\
             ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)\n\
             out = open({:?}, 'w')\n\
             for pid in {:?}:\n    \
                 e = gnubg.evaluate(gnubg.positionfromid(pid), ci, ec)\n    \
                 out.write(' '.join(repr(x) for x in e[:5]) + '\\n')\n\
             out.close()\n",
            dir.join("out.txt").display().to_string(),
            ids
        ),
    )
    .unwrap();
    // The binary file is tried first; remove it to check the text file too.
    for remove_binary in [false, true] {
        if remove_binary {
            std::fs::remove_file(dir.join("gnubg.wd")).unwrap();
        }
        let _ = std::fs::remove_file(dir.join("out.txt"));
        let run = gnubg_output(
            Command::new(GNUBG)
                .args(["-t", "-q", "-r", "-P"])
                .arg(&*dir)
                .arg("-p")
                .arg(&script),
            None,
        );
        assert!(
            run.status.success(),
            "gnubg failed: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text = std::fs::read_to_string(dir.join("out.txt")).expect("gnubg wrote its evaluations");
        let d = Arc::new(dbs());
        let engine = model.engine(&d);
        assert_eq!(text.lines().count(), ids.len());
        for (id, line) in ids.iter().zip(text.lines()) {
            let want: Vec<f32> = line
                .split(' ')
                .map(|x| x.parse::<f64>().unwrap() as f32)
                .collect();
            let (got, class) = engine.evaluate(&Position::from_id(id).unwrap()).unwrap();
            assert!(class.uses_net(), "{id} should be a net position");
            for (g, w) in got.iter().zip(&want) {
                // gnubg evaluates the same nets with its own SIMD build.
                assert!(
                    (g - w).abs() < 1e-4,
                    "{id}: ours {got:?}, gnubg {want:?} (binary removed: {remove_binary})"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// gnubg 0-ply beats pubeval by about +0.63 ppg (compgammon, 40,000 games, SE 0.006).
#[test]
fn gnubg_zero_ply_against_pubeval_is_near_the_published_result() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let gnubg = GnubgPlayer::new(
        "gnubg",
        evaluator::Evaluator::new(Weights::load(WD).unwrap(), dbs()),
    );
    let opts = DuelOptions {
        games: 2000,
        seed: 7,
        record: false,
    };
    let (r, _) = duel(&gnubg, &Pubeval, &opts, &|_| {}).unwrap();
    eprintln!("gnubg vs pubeval: {:+.3} ± {:.3} ppg", r.ppg, r.se);
    assert!(r.se > 0.01 && r.se < 0.05, "se {}", r.se);
    assert!((r.ppg - 0.63).abs() < 5.0 * r.se, "{:+.3} ± {:.3}", r.ppg, r.se);
    assert!(r.win_rate > 0.6);
}

/// Identical players with duplicate dice tie exactly: every game is replayed with the
/// places exchanged.
#[test]
fn duplicate_dice_cancel_between_identical_players() {
    let opts = DuelOptions {
        games: 200,
        seed: 3,
        record: false,
    };
    let (r, _) = duel(&Pubeval, &Pubeval, &opts, &|_| {}).unwrap();
    assert_eq!((r.ppg, r.se, r.win_rate), (0.0, 0.0, 0.5));
    let mut gen = MoveGen::new();
    assert!(
        gen.moves(&board::Variant::Backgammon.start(), Dice::new(3, 1).unwrap())
            .len()
            == 16
    );
}

/// A trainer model rolls out through datasets' `Roller` directly (its engine is an
/// `Evaluator<&Model>`: no weights file in between), and gnubg's nets loaded as a model
/// roll out bit for bit as the evaluator's gnubg nets: with and without variance
/// reduction, pruned or not.
#[test]
fn a_trainer_model_rolls_out_as_the_evaluator() {
    use datasets::{Roller, RolloutSettings};
    let Some((model, ev, d)) = gnubg_as_model() else {
        return;
    };
    let engine = model.engine(&d);
    // The first contact (class 10) and race (8) positions gnubg recorded.
    let mut rdr = csv::Reader::from_path(testdata("gnubg/positions.csv")).unwrap();
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let positions: Vec<Position> = ["10", "10", "8"]
        .iter()
        .enumerate()
        .map(|(k, class)| {
            let row = rows.iter().filter(|r| &r[3] == *class).nth(k).unwrap();
            Position::from_id(&row[0]).unwrap()
        })
        .collect();
    for (variance_reduction, prune_moves) in [(true, false), (false, true)] {
        let settings = RolloutSettings {
            trials: 36,
            truncate: Some(6),
            variance_reduction,
            prune_moves,
            ..RolloutSettings::default()
        };
        let ours = Roller::new(&engine, settings.clone()).unwrap();
        let theirs = Roller::new(&ev, settings).unwrap();
        for p in &positions {
            assert_eq!(
                ours.rollout(p).unwrap(),
                theirs.rollout(p).unwrap(),
                "{}",
                p.position_id()
            );
        }
    }
}

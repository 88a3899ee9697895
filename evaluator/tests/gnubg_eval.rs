//! 0-ply evaluation and best moves against gnubg 1.07's own outputs (testdata/gnubg),
//! with Debian's gnubg.wd and bearoff databases.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use board::{Dice, MoveGen, Position};
use evaluator::bearoff::BearoffDbs;
use evaluator::weights::Weights;
use evaluator::Evaluator;

const WD: &str = "/usr/lib/gnubg/gnubg.wd";
const OS: &str = "/usr/share/gnubg/gnubg_os0.bd";
const TS: &str = "/var/lib/gnubg/gnubg_ts0.bd";

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/gnubg")
        .join(name)
}

fn gnubg_evaluator() -> Option<Evaluator> {
    let missing: Vec<&str> = [WD, OS, TS]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if !missing.is_empty() {
        if std::env::var("BGKIT_REQUIRE_GNUBG").as_deref() == Ok("1") {
            panic!("gnubg files missing: {missing:?}");
        }
        eprintln!("skipping: gnubg files missing: {missing:?}");
        return None;
    }
    let dbs = BearoffDbs::open(Some(Path::new(OS)), Some(Path::new(TS))).unwrap();
    Some(Evaluator::new(Weights::load(WD).unwrap(), dbs))
}

#[test]
fn every_fixture_position_matches_gnubg_within_1e5() {
    let Some(ev) = gnubg_evaluator() else { return };
    let mut rdr = csv::Reader::from_path(testdata("positions.csv")).unwrap();
    let mut worst: BTreeMap<u8, (f64, String)> = BTreeMap::new();
    let mut exact = 0;
    let mut rows = 0;
    let mut failures = Vec::new();
    for row in rdr.records() {
        let row = row.unwrap();
        let pos = Position::from_id(&row[0]).unwrap();
        let class: u8 = row[3].parse().unwrap();
        let want: Vec<f32> = (4..9).map(|k| row[k].parse::<f64>().unwrap() as f32).collect();
        let (got, got_class) = ev.evaluate(&pos).unwrap();
        assert_eq!(got_class as u8, class, "{}: class", &row[0]);
        let diff = got
            .iter()
            .zip(&want)
            .map(|(a, b)| (f64::from(*a) - f64::from(*b)).abs())
            .fold(0.0, f64::max);
        if got.iter().zip(&want).all(|(a, b)| a.to_bits() == b.to_bits()) {
            exact += 1;
        }
        let e = worst.entry(class).or_insert((0.0, String::new()));
        if diff > e.0 {
            *e = (diff, row[0].to_string());
        }
        if diff > 1e-5 {
            failures.push(format!("{} class {class}: got {got:?} want {want:?}", &row[0]));
        }
        rows += 1;
    }
    for (class, (d, id)) in &worst {
        eprintln!("class {class}: max |diff| {d:.3e} at {id}");
    }
    eprintln!("{exact}/{rows} positions bit-identical to gnubg");
    assert!(
        failures.is_empty(),
        "{} positions differ by more than 1e-5:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn every_fixture_best_move_matches_gnubg() {
    let Some(ev) = gnubg_evaluator() else { return };
    let mut rdr = csv::Reader::from_path(testdata("moves.csv")).unwrap();
    let mut gen = MoveGen::new();
    let (mut agree, mut total) = (0, 0);
    let mut failures = Vec::new();
    for row in rdr.records() {
        let row = row.unwrap();
        if row[3].parse::<usize>().unwrap() == 0 {
            continue;
        }
        let pos = Position::from_id(&row[0]).unwrap();
        let dice = Dice::new(row[1].parse().unwrap(), row[2].parse().unwrap()).unwrap();
        let (m, eq) = ev.best_move(&mut gen, &pos, dice).unwrap().unwrap();
        total += 1;
        if m.result.position_id() == row[5] {
            agree += 1;
        } else {
            failures.push(format!(
                "{} {dice}: ours {} ({eq}), gnubg {} ({})",
                &row[0],
                m.gnubg_notation(),
                &row[4],
                &row[7]
            ));
        }
    }
    eprintln!("best moves: {agree}/{total} agree with gnubg");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

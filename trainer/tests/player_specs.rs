//! Player descriptions (`NAME=`, `gnubg:PATH`, weights files, `@N` lookahead): the
//! names duels report and the plies a player looks ahead (issue 19: players named by
//! their description, gnubg and our own nets at N ply).

mod common;

use board::{Dice, MoveGen, Position};
use common::*;
use evaluator::search::{Lookahead, FILTERS_NORMAL};
use evaluator::weights::Weights;
use evaluator::Evaluator;
use trainer::player::{from_spec, DataPaths, PlayContext};
use trainer::tourney::default_name;

fn paths() -> DataPaths {
    DataPaths {
        bearoff_os: Some(OS.into()),
        bearoff_ts: Some(TS.into()),
    }
}

#[test]
fn players_are_named_by_their_description_or_name() {
    let mut dbs = None;
    let p = |s: &str, dbs: &mut _| from_spec(s, &paths(), dbs).map(|p| p.name());
    assert_eq!(p("pubeval", &mut dbs).unwrap(), "pubeval");
    assert_eq!(p("me=random", &mut dbs).unwrap(), "me");
    // Lookahead is for net players only, and bounded by gnubg's filter table.
    let err = |s: &str| from_spec(s, &paths(), &mut None).err().unwrap().to_string();
    assert!(
        err("pubeval@2").contains("has no lookahead"),
        "{}",
        err("pubeval@2")
    );
    assert!(err("gnubg:@5").contains("out of range"), "{}", err("gnubg:@5"));
    assert_eq!(default_name("gnubg:@2"), "gnubg@2");
    assert_eq!(default_name("runs/a/net.wd@1"), "net@1");
    assert_eq!(default_name("runs/a/net.wd"), "net");
    if !have(&[WD, OS, TS]) {
        return;
    }
    assert_eq!(p("gnubg:", &mut dbs).unwrap(), "gnubg");
    assert_eq!(p("gnubg:@2", &mut dbs).unwrap(), "gnubg@2");
    let spec = format!("gnubg:{WD}@1");
    assert_eq!(p(&spec, &mut dbs).unwrap(), spec);
    assert_eq!(p(WD, &mut dbs).unwrap(), WD);
}

/// `gnubg:PATH@1` plays the evaluator's 1-ply choice (gnubg's filters and pruning,
/// itself checked against live gnubg in the evaluator's tests), which differs from the
/// 0-ply choice in some of gnubg's recorded positions.
#[test]
fn a_gnubg_player_at_one_ply_plays_the_evaluators_one_ply_move() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let one = from_spec(&format!("gnubg:{WD}@1"), &paths(), &mut None).unwrap();
    let zero = from_spec(&format!("gnubg:{WD}"), &paths(), &mut None).unwrap();
    let ev = Evaluator::new(Weights::load(WD).unwrap(), paths().open().unwrap());
    let mut ctx = PlayContext::new(1);
    let mut gen = MoveGen::new();
    let mut rdr = csv::Reader::from_path(testdata("gnubg/moves.csv")).unwrap();
    let (mut n, mut differ) = (0, 0);
    for row in rdr.records().take(120) {
        let row = row.unwrap();
        let pos = Position::from_id(&row[0]).unwrap();
        let dice = Dice::new(row[1].parse().unwrap(), row[2].parse().unwrap()).unwrap();
        let want = ev
            .best_move_plied(&mut gen, &pos, dice, 1, &FILTERS_NORMAL, Lookahead::default())
            .unwrap()
            .map(|(m, _)| m.result);
        let got = one.choose(&mut ctx, &pos, dice).unwrap().map(|m| m.result);
        assert_eq!(got, want, "{} {dice}", &row[0]);
        let at_zero = zero.choose(&mut ctx, &pos, dice).unwrap().map(|m| m.result);
        n += 1;
        differ += usize::from(at_zero != got);
    }
    eprintln!("1-ply and 0-ply choices differ in {differ} of {n} positions");
    assert!(differ > 0 && differ < n / 2, "{differ}/{n}");
}

/// A weights file whose `NAME.json` is another tool's metadata (the nets shipped in
/// `nets/` carry ship-net.sh's) plays as gnubg's nets, move for move as the evaluator
/// with those weights; a `NAME.json` that names the trainer's format must be a valid
/// sidecar, and one that is not JSON is refused, each naming the file.
#[test]
fn weights_beside_other_metadata_play_as_gnubg_nets() {
    if !have(&[OS, TS]) {
        return;
    }
    let dir = scratch("metadata");
    let net = dir.join("net.wd");
    let shipped = testdata("../nets/zero-1h.wd");
    std::fs::copy(&shipped, &net).unwrap();
    std::fs::copy(shipped.with_extension("json"), dir.join("net.json")).unwrap();
    let player = from_spec(s(&net), &paths(), &mut None).unwrap();
    let ev = Evaluator::new(Weights::load(&net).unwrap(), paths().open().unwrap());
    let mut ctx = PlayContext::new(1);
    let mut gen = MoveGen::new();
    let mut rdr = csv::Reader::from_path(testdata("gnubg/moves.csv")).unwrap();
    for row in rdr.records().take(40) {
        let row = row.unwrap();
        let pos = Position::from_id(&row[0]).unwrap();
        let dice = Dice::new(row[1].parse().unwrap(), row[2].parse().unwrap()).unwrap();
        let want = ev.best_move(&mut gen, &pos, dice).unwrap().map(|(m, _)| m.result);
        let got = player.choose(&mut ctx, &pos, dice).unwrap().map(|m| m.result);
        assert_eq!(got, want, "{} {dice}", &row[0]);
    }
    // The command line the nets' README shows.
    let o = trainer(&["duel", "--a", s(&net), "--b", "random", "--games", "2", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The trainer's format tag with a config that does not parse.
    std::fs::write(
        dir.join("net.json"),
        br#"{"format": "bgkit-trainer-net", "format_version": 1}"#,
    )
    .unwrap();
    let err = from_spec(s(&net), &paths(), &mut None).err().unwrap().to_string();
    assert!(
        err.contains("net.json") && err.contains("not a valid trainer sidecar"),
        "{err}"
    );
    std::fs::write(dir.join("net.json"), b"{\"format\":").unwrap();
    let err = from_spec(s(&net), &paths(), &mut None).err().unwrap().to_string();
    assert!(err.contains("net.json") && err.contains("not JSON"), "{err}");
}

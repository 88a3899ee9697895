//! pubeval against the reference move choices of testdata/pubeval (computed in exact
//! rational arithmetic from Tesauro's published weights; see its README).

mod common;

use board::{Dice, MoveGen, Position};
use trainer::pubeval;

#[test]
fn every_reference_choice_and_score_is_reproduced() {
    let mut rdr = csv::Reader::from_path(common::testdata("pubeval/moves.csv")).unwrap();
    let mut gen = MoveGen::new();
    let (mut rows, mut race_rows, mut all_off) = (0, 0, 0);
    let mut failures = Vec::new();
    for row in rdr.records() {
        let row = row.unwrap();
        let pos = Position::from_id(&row[0]).unwrap();
        let dice = Dice::new(row[1].parse().unwrap(), row[2].parse().unwrap()).unwrap();
        let want_id = &row[3];
        let want_score: f64 = row[4].parse().unwrap();
        let want_race = &row[5] == "1";
        rows += 1;
        race_rows += usize::from(want_race);
        assert_eq!(pubeval::is_race(&pos), want_race, "{}: race flag", &row[0]);
        let candidates = gen.positions(&pos, dice).to_vec();
        let (k, score) = pubeval::choose(&pos, &candidates).expect("rows have a legal move");
        let got_id = candidates[k].position_id();
        if want_score == 99_999_999.0 {
            all_off += 1;
            assert_eq!(score, pubeval::ALL_OFF);
        } else if (f64::from(score) - want_score).abs() > 1e-4 {
            failures.push(format!(
                "{} {dice}: score {score}, reference {want_score}",
                &row[0]
            ));
        }
        if got_id != want_id {
            failures.push(format!("{} {dice}: chose {got_id}, reference {want_id}", &row[0]));
        }
        // The Move-returning path agrees with the index path.
        let mv = pubeval::best_move(&mut gen, &pos, dice).unwrap();
        assert_eq!(mv.result.position_id(), got_id);
    }
    assert_eq!(
        (rows, race_rows, all_off),
        (542, 223, 55),
        "fixture counts from its README"
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The README's worked examples, input by input.
#[test]
fn worked_examples_score_as_documented() {
    // (after ID, race, score)
    for (id, race, want) in [
        ("4HPwATCwZ/ABMA", false, 10.343115),
        ("AgAA+negADAAAA", false, -6.081050),
        ("324AAOC+GwAAAA", true, -24.388997),
        ("OM+pBgDmdgAgTQ", false, 7.815940),
        ("744AANB+KggGAA", false, -1.549705),
        ("744AALD9KAhCAA", false, -1.628165),
        ("744AANB+KggGAA", true, -7.819595),
    ] {
        let got = pubeval::score(&Position::from_id(id).unwrap(), race);
        assert!((f64::from(got) - want).abs() < 1e-4, "{id}: {got} vs {want}");
    }
    // Example 2's inputs: opponent on the bar and the 8 checkers on the ace point.
    let b = pubeval::board_of(&Position::from_id("AgAA+negADAAAA").unwrap());
    assert_eq!((b[0], b[1], b[27]), (-1, 8, -13));
    let x = pubeval::inputs_of(&b);
    assert_eq!((x[117], x[119], x[120]), (1.0, 2.5, 0.5));
}

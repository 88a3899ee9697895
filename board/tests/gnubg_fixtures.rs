//! The rules checked against GNU Backgammon 1.07's own outputs (testdata/gnubg).

use std::collections::BTreeSet;
use std::path::PathBuf;

use board::{perft, Dice, MoveGen, Position, Variant};

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/gnubg")
        .join(name)
}

fn side(text: &str) -> Vec<u8> {
    text.split(' ').map(|n| n.parse().unwrap()).collect()
}

#[test]
fn every_fixture_position_id_decodes_to_its_board_and_back() {
    let mut rdr = csv::Reader::from_path(testdata("positions.csv")).unwrap();
    let mut rows = 0;
    for row in rdr.records() {
        let row = row.unwrap();
        let id = &row[0];
        let pos = Position::from_id(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(pos.opponent()[..], side(&row[1])[..], "{id}: board_opp");
        assert_eq!(pos.on_roll()[..], side(&row[2])[..], "{id}: board_me");
        assert_eq!(pos.position_id(), id);
        let built = Position::from_slices(&side(&row[1]), &side(&row[2])).unwrap();
        assert_eq!(built, pos, "{id}");
        rows += 1;
    }
    assert_eq!(rows, 3000);
}

#[test]
fn every_fixture_roll_has_gnubgs_moves_and_best_move_notation() {
    let mut rdr = csv::Reader::from_path(testdata("moves.csv")).unwrap();
    let mut gen = MoveGen::new();
    let mut rows = 0;
    for row in rdr.records() {
        let row = row.unwrap();
        let pos = Position::from_id(&row[0]).unwrap();
        let dice = Dice::new(row[1].parse().unwrap(), row[2].parse().unwrap()).unwrap();
        let n: usize = row[3].parse().unwrap();
        let want: BTreeSet<&str> = row[6].split(' ').filter(|s| !s.is_empty()).collect();
        let key = format!("{} {}", &row[0], dice);

        let moves = gen.moves(&pos, dice).to_vec();
        assert_eq!(moves.len(), n, "{key}: number of moves");
        let got: BTreeSet<String> = moves.iter().map(|m| m.result.position_id()).collect();
        let got: BTreeSet<&str> = got.iter().map(String::as_str).collect();
        assert_eq!(got, want, "{key}: resulting positions");

        // The move gnubg chose, written as gnubg writes it: same steps, same text.
        if n > 0 {
            let best = moves.iter().find(|m| m.result.position_id() == row[5]).unwrap();
            assert_eq!(
                best.gnubg_notation(),
                &row[4],
                "{key}: gnubg notation of the best move"
            );
            // And gnubg's text parses back to that move.
            let parsed = pos
                .parse_move(dice, &row[4])
                .unwrap_or_else(|e| panic!("{key}: {e}"));
            assert_eq!(parsed.result, best.result, "{key}");
        }
        // The fast path gives the same positions in the same order.
        let results: Vec<Position> = moves.iter().map(|m| m.result).collect();
        assert_eq!(gen.positions(&pos, dice), &results[..], "{key}");
        rows += 1;
    }
    assert_eq!(rows, 600);
}

/// Published perft figures (reference ids-notation-records.md, "Move-generation
/// reference counts": gnubg, wildbg and bkgm agree).
#[test]
fn perft_from_the_start_matches_published_counts() {
    let start = Variant::Backgammon.start();
    assert_eq!(perft(&start, 1), 447);
    assert_eq!(perft(&start, 2), 202_782);
    let weighted: u32 = Dice::all()
        .map(|d| d.weight() * start.legal_moves(d).len() as u32)
        .sum();
    assert_eq!(weighted, 637);
}

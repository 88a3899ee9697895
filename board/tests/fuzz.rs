//! Fuzz suite (issue 19) for every text parser of the board crate: Position ID, Match
//! ID, XGID, any of the three (`parse_any_id`), move notation (without and with a
//! position), SGF and `.mat`. Each target takes random inputs and mutated valid ones
//! and must return `Ok` or `Err`, never panic; what is accepted must also be
//! consistent (IDs re-encode to what was read). `BGKIT_FUZZ_CASES` raises the case
//! count (`scripts/fuzz.sh`).

use board::records::{mat, sgf};
use board::{Dice, MatchState, Position, Variant, Xgid};
use proptest::prelude::*;
use test_support::{fuzz_cases, mutate};

fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: fuzz_cases(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Random bytes, or a mutation of one of `valid`.
fn input(
    valid: &'static [&'static str],
    dictionary: &'static [&'static str],
) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..64),
        (any::<u64>(), 0..valid.len()).prop_map(move |(seed, k)| mutate(
            seed,
            valid[k].as_bytes(),
            dictionary
        )),
    ]
}

const POSITION_IDS: &[&str] = &[
    "4HPwATDgc/ABMA",
    "sGfwATDgc/ABMA",
    "yOfgAyDgc/AAWA",
    "fN8HAACwAwAAAA",
    "AAAAAAAAAAAAAA",
];
const MATCH_IDS: &[&str] = &[
    "QYkqASAAIAAA",
    "MIEFAAAAAAAA",
    "cAkAAAAAAAAA",
    "cAkLAAAAAAAE",
    "cIkmAQAAAAAE",
];
const XGIDS: &[&str] = &[
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "XGID=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10",
    "-b----E-C---eE---c-e----B-:3:1:-1:D:2:4:0:9:8",
];
const XGID_WORDS: &[&str] = &[
    ":",
    "-1",
    "99999999999",
    "8589934592",
    "D",
    "00",
    "p",
    "P",
    "XGID=",
    "65",
    "4294967296",
];
/// Each form `parse_any_id` reads, as users paste them.
const ANY_IDS: &[&str] = &[
    "4HPwATDgc/ABMA",
    " sGfwATDgc/ABMA:cIkmAQAAAAAE\n",
    "4HPwATDgc/ABMA:MIEFAAAAAAAA",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "xgid=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10",
    "-b----E-C---eE---c-e----B-:3:1:-1:D:2:4:0:9:8",
];
const ANY_ID_WORDS: &[&str] = &[
    ":",
    "XGID=",
    "xGiD=",
    " ",
    "\n",
    "-",
    "A",
    "/",
    "=",
    "-1",
    "52",
    "\u{e9}",
    "sGfwATDgc/ABMA",
];
const MOVES: &[&str] = &[
    "8/5 6/5",
    "24/18(2) 13/7(2)",
    "bar/22* 13/11",
    "6/off 5/off",
    "13/7*/5",
    "8-5,6-5",
    "b-22,24-23",
    "11/5*(2)",
];
const MOVE_WORDS: &[&str] = &[
    "/", "*", "(", ")", "(4)", "(0)", "(255)", "bar", "off", "b", "h", "25", "0", "-", ",", " ", "24", "99",
    "/off*",
];
const TEXT_WORDS: &[&str] = &[
    "\n",
    "(",
    ")",
    "[",
    "]",
    ";",
    "\\",
    ":",
    "-1",
    "99999999999",
    "nan",
    "Game 1",
    " 1) ",
    "Doubles => ",
    "Takes",
    "Wins ",
    " point match",
];

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn fuzz_position_id(bytes in input(POSITION_IDS, &["A", "/", "+", "=", "\u{e9}"])) {
        if let Ok(p) = Position::from_id(&text(&bytes)) {
            prop_assert_eq!(Position::from_id(&p.position_id()).unwrap(), p);
        }
    }

    #[test]
    fn fuzz_match_id(bytes in input(MATCH_IDS, &["A", "/", "+", "\u{e9}"])) {
        if let Ok(m) = MatchState::from_id(&text(&bytes)) {
            prop_assert!(m.validate().is_ok());
            // Encoding writes the larger die first (as gnubg does); an ID with the
            // smaller first comes back with the same roll in that order.
            let sorted = MatchState { dice: m.dice.map(|(a, b)| (a.max(b), a.min(b))), ..m };
            prop_assert_eq!(MatchState::from_id(&m.match_id().unwrap()).unwrap(), sorted);
        }
    }

    #[test]
    fn fuzz_xgid(bytes in input(XGIDS, XGID_WORDS)) {
        if let Ok(x) = Xgid::parse(&text(&bytes)) {
            prop_assert!(x.state.validate().is_ok());
            prop_assert_eq!(Xgid::parse(&x.to_xgid()).unwrap(), x);
        }
    }

    #[test]
    fn fuzz_any_id(bytes in input(ANY_IDS, ANY_ID_WORDS)) {
        if let Ok(any) = board::parse_any_id(&text(&bytes)) {
            // The board re-encodes to a Position ID that reads back alone; the state
            // (a Match ID's or an XGID's) is a valid one.
            let bare = board::parse_any_id(&any.position.position_id()).unwrap();
            prop_assert_eq!(bare.position, any.position);
            prop_assert!(bare.state.is_none());
            if let Some(state) = any.state {
                prop_assert!(state.validate().is_ok());
            }
        }
    }

    #[test]
    fn fuzz_notation_without_a_position(bytes in input(MOVES, MOVE_WORDS)) {
        if let Ok(steps) = board::parse_move::parse_steps(&text(&bytes)) {
            prop_assert!(steps.len() <= 4);
            let _ = board::notation::format_standard(&steps);
            let _ = board::notation::format_gnubg(&steps);
        }
    }

    #[test]
    fn fuzz_notation_with_a_position(bytes in input(MOVES, MOVE_WORDS), d1 in 1u8..=6, d2 in 1u8..=6, k in 0usize..4) {
        let pos = [Variant::Backgammon.start(), Position::from_id("yOfgAyDgc/AAWA").unwrap(),
                   Position::from_id("fN8HAACwAwAAAA").unwrap(), Variant::Nackgammon.start()][k];
        let dice = Dice::new(d1, d2).unwrap();
        if let Ok(m) = pos.parse_move(dice, &text(&bytes)) {
            prop_assert!(pos.legal_moves(dice).iter().any(|l| l.result == m.result));
        }
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn fuzz_sgf(seed in any::<u64>(), random in proptest::collection::vec(any::<u8>(), 0..256), pick in 0u8..4) {
        let valid = include_str!("data/records/gnubg-3pt.sgf");
        let bytes = if pick == 0 { random } else { mutate(seed, valid.as_bytes(), TEXT_WORDS) };
        if let Ok(records) = sgf::read_sgf(&text(&bytes), "fuzz.sgf") {
            for r in &records {
                prop_assert!(r.validate().is_ok());
            }
        }
    }

    #[test]
    fn fuzz_mat(seed in any::<u64>(), random in proptest::collection::vec(any::<u8>(), 0..256), pick in 0u8..4) {
        let valid = include_str!("data/records/gnubg-3pt.mat");
        let bytes = if pick == 0 { random } else { mutate(seed, valid.as_bytes(), TEXT_WORDS) };
        if let Ok(r) = mat::read_mat(&text(&bytes), "fuzz.mat") {
            prop_assert!(r.validate().is_ok());
        }
    }
}

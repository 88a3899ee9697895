//! `.mat` writer and reader: round trips, gnubg's columns and files, XG's style,
//! errors.

use super::{read_mat, write_mat};
use crate::records::error::{RecordError, RecordErrorKind};
use crate::records::model::{Action, Date, MatchInfo, MatchRecord, Rules, Seat};
use crate::records::sgf::{read_sgf, write_sgf};
use crate::records::test_games::{crawford_match, money_session, planned_match, Plan};
use crate::variant::Variant;

/// A record as `.mat` keeps it: declined resignation offers are not written.
fn as_mat_keeps_it(m: &MatchRecord) -> MatchRecord {
    let mut m = m.clone();
    for g in &mut m.games {
        let actions = std::mem::take(&mut g.actions);
        for (k, a) in actions.iter().enumerate() {
            let declined = matches!(actions.get(k + 1), Some(Action::RejectResignation { .. }));
            if !(declined || matches!(a, Action::RejectResignation { .. })) {
                g.actions.push(a.clone());
            }
        }
    }
    m
}

fn round_trip(m: &MatchRecord) {
    let text = write_mat(m).unwrap();
    let back = read_mat(&text, "t.mat").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, as_mat_keeps_it(m), "{text}");
}

#[test]
fn money_play_round_trips_with_cube_actions_and_resignations() {
    round_trip(&money_session(5, false));
    let mut m = money_session(6, false);
    m.info = MatchInfo {
        event: Some("club night".into()),
        round: Some("1".into()),
        place: Some("back room".into()),
        date: Some(Date {
            year: 2025,
            month: 1,
            day: 31,
        }),
        annotator: Some("bgkit".into()),
        comment: Some("first line\nsecond line".into()),
        ratings: [None, None],
    };
    round_trip(&m);
}

#[test]
fn match_play_round_trips_in_every_variant() {
    round_trip(&crawford_match(3));
    for (seed, v) in [(4, Variant::Nackgammon), (5, Variant::Hypergammon2)] {
        round_trip(&planned_match(
            seed,
            3,
            v,
            Rules::default(),
            &[Plan::DoubleTaken, Plan::ResignDeclinedThenAccepted],
        ));
    }
    let rules = Rules {
        cube: false,
        crawford: false,
        ..Rules::default()
    };
    round_trip(&planned_match(7, 2, Variant::Backgammon, rules, &[]));
}

#[test]
fn the_writer_uses_gnubgs_columns() {
    let m = money_session(5, false);
    let text = write_mat(&m).unwrap();
    assert!(
        text.starts_with("; [Jacoby \"On\"]\n; [Beaver \"On\"]\n\n 0 point match\n\n Game 1\n"),
        "{text}"
    );
    let score = text.lines().nth(6).unwrap();
    assert_eq!(score, format!(" {:<31}black player : 0", "white player : 0"));
    for line in text.lines().filter(|l| l.len() > 5 && &l[3..5] == ") ") {
        // The right field starts at column 33 (cube actions with a space, as
        // gnubg writes them: ` Takes`).
        if line.len() > 34 {
            assert_eq!(&line[32..33], " ", "{line}");
            assert!(!line[33..].starts_with("  "), "{line}");
        }
    }
    assert!(text.contains(" Beavers => 4"), "{text}");
    // The dropped beaver is written as a double (see the module documentation).
    assert!(text.contains(" Doubles => 4"), "{text}");
    assert!(text.contains("Drops"), "{text}");
}

/// gnubg 1.07's own export of the match in tests/data/records reads to the same
/// record as its SGF save.
#[test]
fn gnubgs_own_export_is_read() {
    let mat = read_mat(
        include_str!("../../../tests/data/records/gnubg-3pt.mat"),
        "gnubg-3pt.mat",
    )
    .unwrap();
    let sgf = read_sgf(
        include_str!("../../../tests/data/records/gnubg-3pt.sgf"),
        "gnubg-3pt.sgf",
    )
    .unwrap();
    assert_eq!(vec![mat], sgf);
}

/// An XG-style file: byte-order mark, XG tags, GridGammon ratings, joined moves,
/// a beaver accepted by rolling, and `???` before a resignation. gnubg 1.07
/// imports it (`import mat`) with these boards before the moves, and ends with
/// Black winning 4 points by resignation and `0OeFADGwZ+RBIA` with White to roll.
#[test]
fn an_xg_style_file_is_read_as_gnubg_reads_it() {
    let text = "\u{feff}; [Site \"eXtreme Gammon\"]\n; [Player 1 \"Alice\"]\n; [EventDate \"2024.05.06\"]\n\
                ; [EventTime \"21.53\"]\n; [Variation \"Backgammon\"]\n; [Jacoby \"On\"]\n; [Beaver \"On\"]\n\
                ; [CubeLimit \"1024\"]\n\n0 point match\n\n Game 1\n\
                \x20Alice,1612.5 : 0                     Bob,1500 : 0\n\
                \x20 1) 31: 8/5 6/5                      65: 13/7 13/8\n\
                \x20 2)  Doubles => 2                     Beavers => 4\n\
                \x20 3) 62: 24/18* 13/11                 44: 25/21 13/5 13/9\n\
                \x20 4) 55: ???                          Wins 4 points\n";
    let m = read_mat(text, "xg.mat").unwrap();
    assert_eq!(m.players, ["Alice", "Bob"]);
    assert_eq!(m.info.ratings, [Some("1612.5".into()), Some("1500".into())]);
    assert_eq!(m.info.place.as_deref(), Some("eXtreme Gammon"));
    assert_eq!(m.info.date, Date::parse("2024-05-06"));
    assert!(m.rules.jacoby && m.rules.beavers && m.rules.cube);
    let replay = m.replay(0).unwrap();
    let boards: Vec<String> = replay
        .steps
        .iter()
        .filter(|s| matches!(s.action, Action::Move { .. }))
        .map(|s| s.before.position_id())
        .collect();
    assert_eq!(
        boards,
        [
            "4HPwATDgc/ABMA",
            "sGfwATDgc/ABMA",
            "4OvBATCwZ/ABMA",
            "sGfkQSDg8+AAWA"
        ]
    );
    assert_eq!(
        replay.final_position.seen_by(Seat::White).position_id(),
        "0OeFADGwZ+RBIA"
    );
    assert_eq!(
        m.games[0].result,
        Some(crate::records::model::GameResult {
            winner: Seat::Black,
            points: 4,
            resigned: true
        })
    );
    assert!(m.games[0].actions.contains(&Action::Take { seat: Seat::White }));
    // `(2)` repeats a movement, as XG writes doubles.
    let joined = text.replace("13/5 13/9", "13/9(2) 9/5");
    assert_eq!(
        read_mat(&joined, "xg.mat")
            .unwrap()
            .replay(0)
            .unwrap()
            .final_position,
        replay.final_position
    );
}

#[test]
fn dances_written_as_xg_does_are_read() {
    // Find a game with a dance, write it, and spell the dance "Cannot Move".
    let m = (0..)
        .map(|s| planned_match(s, 0, Variant::Backgammon, Rules::default(), &[Plan::Plain]))
        .find(|m| {
            m.games[0]
                .actions
                .iter()
                .any(|a| matches!(a, Action::Move { steps, .. } if steps.is_empty()))
        })
        .unwrap();
    let text = write_mat(&m).unwrap();
    let mut xg = String::new();
    for line in text.lines() {
        let mut l = line.to_string();
        for d in crate::Dice::all() {
            let bare = format!("{d}: ");
            if let Some(p) = l.find(&bare) {
                let rest = &l[p + bare.len()..];
                if rest.is_empty() || rest.starts_with("  ") {
                    l = format!("{}{d}: Cannot Move{}", &l[..p], &rest[rest.len().min(9)..]);
                }
            }
        }
        xg.push_str(&l);
        xg.push('\n');
    }
    assert!(xg.contains("Cannot Move"), "{xg}");
    assert_eq!(read_mat(&xg, "xg.mat").unwrap(), m);
}

fn error(text: &str) -> RecordError {
    let e = read_mat(text, "bad.mat").unwrap_err();
    assert!(e.to_string().starts_with("bad.mat: "), "{e}");
    e
}

const HEAD: &str = " 3 point match\n\n Game 1\n alice : 0                      bob : 0\n";

#[test]
fn malformed_files_give_clear_errors() {
    let e = error("; just a comment\nhello\n");
    assert!(e.to_string().contains("no ' N point match' line"), "{e}");
    let e = error(" 3 point match\n");
    assert!(e.to_string().contains("no games"), "{e}");
    let e = error(" 3 point match\n\n Game 1\n");
    assert!(
        e.to_string()
            .contains("Game 1 has no score line (file truncated?)"),
        "{e}"
    );
    let e = error(" 3 point match\n\n Game 1\n alice 0 bob 0\n");
    assert!(e.to_string().contains("is not a score line"), "{e}");
    let e = error(&format!("{HEAD}  1) 31: 8/4 6/5\n"));
    assert_eq!(e.kind, RecordErrorKind::Illegal);
    assert_eq!(
        e.to_string(),
        "bad.mat: game 1, action 1, line 5: 31: 8/4 6/5: White 31: 8/4 6/5 is not a legal move"
    );
    let e = error(&format!("{HEAD}  1) 31: 8/5 6/5                  Flies\n"));
    assert!(
        e.to_string().contains("line 5: unrecognised action 'Flies'"),
        "{e}"
    );
    let e = error(&format!("{HEAD}  1) 71: 8/1                      \n"));
    assert!(e.to_string().contains("unrecognised action '71: 8/1'"), "{e}");
    let e = error(&format!("{HEAD}  1) 31: 8/5 6/5 4/3 3/2 2/1\n"));
    assert!(e.to_string().contains("at most 4"), "{e}");
    let e = error(&format!(
        "{HEAD}  1) 31: 8/5 6/5                  Raccoons => 4\n"
    ));
    assert_eq!(e.kind, RecordErrorKind::Unsupported);
    let e = error(&format!(
        "{HEAD}  1) 31: 8/5 6/5                  64: \n  2) 21: 13/11 24/23\n"
    ));
    assert!(
        e.to_string().contains("Black rolled 64 but no move is given"),
        "{e}"
    );
    let e = error(&format!("{HEAD}  1) 31: 8/5 6/5                  Takes\n"));
    assert!(
        e.to_string().contains("no double by the opponent is pending"),
        "{e}"
    );
    // Truncated in the middle of a move line: the move is incomplete.
    let e = error(&format!("{HEAD}  1) 66: 24/18 24/18 13/7\n"));
    assert!(e.to_string().contains("is not a legal move"), "{e}");
}

#[test]
fn what_mat_cannot_hold_is_refused() {
    let mut m = money_session(5, false);
    m.players[0] = "a:b".into();
    assert!(write_mat(&m)
        .unwrap_err()
        .to_string()
        .contains("cannot be written to .mat"));
    let m = money_session(5, true);
    let e = write_mat(&m).unwrap_err();
    assert_eq!(e.kind, RecordErrorKind::Unsupported);
    assert!(e.to_string().contains("game 8, action"), "{e}");
    // SGF can.
    assert!(write_sgf(&m).is_ok());
}

/// A name the reader would take apart, and a header tag with a line break (whose
/// second line the reader would take for the match line), are refused: written, they
/// read back as another match.
#[test]
fn what_would_read_back_changed_is_refused() {
    for name in ["bob,1500", " bob", "bob\t"] {
        let mut m = crawford_match(3);
        m.players[0] = name.into();
        let e = write_mat(&m).unwrap_err();
        assert_eq!(e.kind, RecordErrorKind::Unsupported, "{name:?}");
        assert!(
            e.to_string()
                .contains(&format!("name '{name}' cannot be written")),
            "{e}"
        );
    }
    let mut m = crawford_match(3);
    m.players[0] = "Smith, J.".into();
    round_trip(&m);
    m.info.event = Some("night\n 5 point match".into());
    let e = write_mat(&m).unwrap_err();
    assert!(e.to_string().contains("the Event 'night"), "{e}");
    assert!(e.to_string().contains("holds no line break"), "{e}");
    assert!(write_sgf(&m).is_ok());
}

/// gnubg 1.07 `import mat` of a 65-point match: "Invalid match length 65 found in mat
/// file / Match length must be between 0 (unlimited session) and 64".
#[test]
fn match_lengths_above_64_are_refused_as_gnubg_does() {
    let e = error(" 65 point match\n\n Game 1\n a : 0  b : 0\n");
    assert_eq!(e.kind, RecordErrorKind::Unsupported);
    assert!(
        e.to_string().contains("line 1: match length 65 exceeds 64"),
        "{e}"
    );
    // 2^32 does not fit in a u32: named as written, not taken for a missing match line.
    let e = error("; c\n 4294967296 point match\n\n Game 1\n a : 0  b : 0\n");
    assert!(
        e.to_string()
            .contains("line 2: match length 4294967296 exceeds 64"),
        "{e}"
    );
    let mut m = crawford_match(3);
    m.match_length = 65;
    let e = write_mat(&m).unwrap_err();
    assert!(e.to_string().contains("match length 65 exceeds 64"), "{e}");
    let e = write_sgf(&m).unwrap_err();
    assert!(e.to_string().contains("match length 65 exceeds 64"), "{e}");
}

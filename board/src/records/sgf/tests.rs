//! SGF writer and reader: round trips, gnubg's layout and files, errors.

use super::{read_sgf, write_sgf, write_sgf_game};
use crate::records::error::{RecordError, RecordErrorKind};
use crate::records::model::{Action, Date, GameResult, MatchInfo, MatchRecord, Resignation, Rules, Seat};
use crate::records::test_games::{crawford_match, money_session, planned_match, Plan};
use crate::variant::Variant;

fn round_trip(m: &MatchRecord) {
    let text = write_sgf(m).unwrap();
    let back = read_sgf(&text, "t.sgf").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, vec![m.clone()], "{text}");
}

#[test]
fn money_play_round_trips_with_every_cube_and_resignation_action() {
    round_trip(&money_session(5, true));
    let mut m = money_session(6, false);
    m.info = MatchInfo {
        event: Some("club night [3]".into()),
        round: Some("1".into()),
        place: Some("back\\room".into()),
        date: Some(Date {
            year: 2025,
            month: 1,
            day: 31,
        }),
        annotator: Some("bgkit".into()),
        comment: Some("first line\nsecond: line".into()),
        ratings: [Some("1612".into()), None],
    };
    m.players = ["Anne-Marie]".into(), "Bob O'Neil".into()];
    round_trip(&m);
}

#[test]
fn match_play_round_trips_in_every_variant() {
    round_trip(&crawford_match(3));
    for (seed, v) in [
        (4, Variant::Nackgammon),
        (5, Variant::Hypergammon1),
        (6, Variant::Hypergammon3),
    ] {
        round_trip(&planned_match(
            seed,
            3,
            v,
            Rules::default(),
            &[Plan::DoubleTaken, Plan::DoubleDropped],
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
fn the_writer_uses_gnubgs_layout() {
    let m = crawford_match(3);
    let text = write_sgf(&m).unwrap();
    let first = text.lines().next().unwrap();
    let head = format!(
        "(;FF[4]GM[6]CA[UTF-8]AP[bgkit:{}]MI[length:3][game:0][ws:0][bs:0]PW[white player]PB[black player]RU[Crawford]RE[",
        env!("CARGO_PKG_VERSION")
    );
    assert!(first.starts_with(&head), "{first}");
    assert_eq!(text.matches("(;FF[4]GM[6]").count(), m.games.len());
    assert!(text.contains("RU[Crawford:CrawfordGame]"));
    let money = write_sgf(&money_session(5, true)).unwrap();
    for node in [
        "[double]\n",
        "[take]\n",
        "[drop])",
        "RU[Jacoby:Beavers]",
        "RE[W+",
        "RE[B+",
        "CV[4]CP[",
    ] {
        assert!(money.contains(node), "no {node} in\n{money}");
    }
    // Every move node: colour, two dice high first, pairs of letters.
    for line in text
        .lines()
        .filter(|l| l.starts_with(";W[") || l.starts_with(";B["))
    {
        let v = &line[3..line.len() - if line.ends_with(")") { 2 } else { 1 }];
        if ["double", "take", "drop"].contains(&v) {
            continue;
        }
        let b = v.as_bytes();
        assert!(b[0] >= b[1] && b.len() % 2 == 0, "{line}");
        assert!(b[2..].iter().all(u8::is_ascii_lowercase), "{line}");
    }
}

#[test]
fn an_appended_collection_reads_back_as_its_matches() {
    let a = crawford_match(3);
    let b = money_session(5, false);
    let mut text = String::new();
    for m in [&a, &b] {
        for i in 0..m.games.len() {
            text.push_str(&write_sgf_game(m, i).unwrap());
        }
    }
    // A second copy of `a` starts again at game 0: a new match.
    text.push_str(&write_sgf(&a).unwrap());
    assert_eq!(read_sgf(&text, "all.sgf").unwrap(), vec![a.clone(), b, a]);
}

/// gnubg 1.07's own save of a 3-point match it played (tests/data/records): its
/// analysis properties are skipped; gnubg's view of the file is in the README.
#[test]
fn gnubgs_own_save_is_read() {
    let text = include_str!("../../../tests/data/records/gnubg-3pt.sgf");
    let m = read_sgf(text, "gnubg-3pt.sgf").unwrap();
    assert_eq!(m.len(), 1);
    let m = &m[0];
    assert_eq!(m.players, ["gnubg", "root"]);
    assert_eq!((m.match_length, m.games.len()), (3, 1));
    assert_eq!(m.games[0].actions.len(), 48);
    assert_eq!(
        m.games[0].result,
        Some(GameResult {
            winner: Seat::Black,
            points: 4,
            resigned: false
        })
    );
    let replay = m.replay(0).unwrap();
    assert_eq!(
        replay.final_position.seen_by(Seat::White).position_id(),
        "AAAAbLcPAgAAAA"
    );
    assert_eq!(replay.cube, 2);
}

/// The specification's joined bar entry (`B[61yg]`), cube settings as `CO` (the
/// specification) and `CP` (gnubg), text before the collection, a variation (only
/// the main line counts), and a resignation kept only in `RE`, as gnubg keeps it.
#[test]
fn joined_pairs_cube_settings_variations_and_bare_resignations_are_read() {
    let text = "junk before (;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[w]PB[b]RE[W+2R]\n\
                ;W[31hefe];B[21abln];W[62hbmk];B[61yg]\n\
                ;CO[w]CV[2]\n\
                (;W[52mhmk])(;W[11hgfe]))\n";
    for text in [text.to_string(), text.replace("CO[w]", "CP[w]")] {
        let m = read_sgf(&text, "t.sgf").unwrap().remove(0);
        let a = &m.games[0].actions;
        let Action::Move { steps, .. } = &a[3] else {
            panic!("{a:?}")
        };
        let pairs: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
        assert_eq!(pairs, [(25, 24), (24, 18)]);
        assert_eq!(
            a[4],
            Action::SetCube {
                value: 2,
                owner: Some(Seat::White)
            }
        );
        let Action::Move { dice, .. } = &a[5] else {
            panic!("{a:?}")
        };
        assert_eq!(dice.to_string(), "52");
        // RE[W+2R] with a 2-cube: Black resigned a single game at the end.
        assert_eq!(
            a[6..],
            [
                Action::Resign {
                    seat: Seat::Black,
                    level: Resignation::Single
                },
                Action::AcceptResignation { seat: Seat::White }
            ]
        );
        assert_eq!(m.games[0].result.unwrap().points, 2);
    }
}

fn error(text: &str) -> RecordError {
    let e = read_sgf(text, "bad.sgf").unwrap_err();
    assert!(e.to_string().starts_with("bad.sgf: "), "{e}");
    e
}

const HEAD: &str = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[w]PB[b]RU[Crawford]\n";

#[test]
fn malformed_files_give_clear_errors() {
    let e = error(&format!("{HEAD};W[31hefe];B[21abln]"));
    assert_eq!(e.kind, RecordErrorKind::Syntax);
    assert!(
        e.to_string()
            .contains("game tree opened on line 1 is not closed (file truncated?)"),
        "{e}"
    );
    let e = error(&format!("{HEAD};W[31hefe];B[21abl"));
    assert!(
        e.to_string()
            .contains("property value opened on line 2 is not closed"),
        "{e}"
    );
    let e = error(&format!("{HEAD};W[31hQfe])"));
    assert_eq!(
        e.to_string(),
        "bad.sgf: game 1, action 1, line 2: W[31hQfe]: 'Q' is not a point letter (a-x, y bar, z off)"
    );
    let e = error(&format!("{HEAD};W[31hef])"));
    assert!(e.to_string().contains("odd number of point letters"), "{e}");
    let e = error(&format!("{HEAD};W[71hefe])"));
    assert!(e.to_string().contains("W[71hefe]: invalid dice '7 1'"), "{e}");
    let e = error(&format!("{HEAD};W[double])"));
    assert!(
        e.to_string().contains("no doubling before the opening roll"),
        "{e}"
    );
    // 8/3 is not a 3 or a 1.
    let e = error(&format!("{HEAD};W[31hcfe])"));
    assert_eq!(e.kind, RecordErrorKind::Illegal);
    assert_eq!(
        e.to_string(),
        "bad.sgf: game 1, action 1, line 2: W[31hcfe]: White 31: 8/3 6/5 is not a legal move"
    );
    // Wrong dice for the move (the 31 point with 42).
    let e = error(&format!("{HEAD};W[42hefe])"));
    assert!(
        e.to_string().contains("White 42: 8/5 6/5 is not a legal move"),
        "{e}"
    );
    // A move in the second game's fourth action, on its own line.
    let good =
        "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[w]PB[b]RE[B+1]\n;W[31hefe]\n;B[double]\n;W[drop])\n";
    let bad = "(;FF[4]GM[6]MI[length:0][game:1][ws:0][bs:1]PW[w]PB[b]\n;W[31hefe]\n;B[21abln]\n;W[62hbmk]\n;B[61yf])";
    let e = error(&format!("{good}{bad}"));
    assert_eq!(
        e.to_string(),
        "bad.sgf: game 2, action 4, line 9: B[61yf]: Black 61: bar/19 is not a legal move"
    );
    let e = error(&format!("{HEAD}RE[W+1];W[31hefe])"));
    assert_eq!(e.kind, RecordErrorKind::Inconsistent);
    assert!(
        e.to_string()
            .contains("RE[W+1] does not match the game: it is unfinished"),
        "{e}"
    );
    let e = error(&format!("{HEAD}RE[X+1];W[31hefe])"));
    assert!(e.to_string().contains("RE[X+1] is not a result"), "{e}");
    let e = error(&format!("{HEAD};AE[a:y]AW[a][a])"));
    assert_eq!(e.kind, RecordErrorKind::Unsupported);
    let e = error("(;FF[4]GM[1]SZ[19];B[pd])");
    assert!(e.to_string().contains("no backgammon game (GM[6])"), "{e}");
    let e = error("(;FF[4]GM[6]MI[length:x])");
    assert!(e.to_string().contains("MI length 'x' is not a number"), "{e}");
    let e = error(&format!("{HEAD};W[31hefe];B[21abln];W[62hbmk];B[61yg];B[43]"));
    assert!(
        e.to_string().contains("Black moves, but it is White's turn") || e.to_string().contains("not closed"),
        "{e}"
    );
    assert!(error("").to_string().contains("no backgammon game"));
    let e = error(&format!("{HEAD};W[31hefe]RS[W5])"));
    assert!(e.to_string().contains("level 1-3"), "{e}");
}

/// gnubg limits matches to 64 points (`MAXSCORE`); a longer one in MI is refused,
/// naming it, and a length that does not fit in 32 bits is "too large", not "not a
/// number".
#[test]
fn match_lengths_above_64_are_refused() {
    let e = error("(;FF[4]GM[6]MI[length:65][game:0][ws:0][bs:0];B[31hefe])");
    assert_eq!(e.kind, RecordErrorKind::Unsupported);
    assert!(e.to_string().contains("match length 65 exceeds 64"), "{e}");
    let e = error("(;FF[4]GM[6]MI[length:4294967296][game:0][ws:0][bs:0];B[31hefe])");
    assert!(
        e.to_string().contains("MI length '4294967296' is too large"),
        "{e}"
    );
    let e = error("(;FF[4]GM[6]MI[length:3x][game:0][ws:0][bs:0];B[31hefe])");
    assert!(e.to_string().contains("MI length '3x' is not a number"), "{e}");
}

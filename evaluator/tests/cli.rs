//! The `evaluator` command line, end to end: output formats, gnubg agreement, errors.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Output};

fn evaluator(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evaluator"))
        .args(args)
        .output()
        .expect("run evaluator")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(rel)
}

#[test]
fn moves_input_reproduces_every_gnubg_fixture_row() {
    let fixture = testdata("gnubg/moves.csv");
    let mut rdr = csv::Reader::from_path(&fixture).unwrap();
    let mut input = String::from("position_id,die1,die2\n");
    let mut want = HashMap::new();
    for row in rdr.records() {
        let row = row.unwrap();
        input += &format!("{},{},{}\n", &row[0], &row[1], &row[2]);
        want.insert(
            format!("{},{},{}", &row[0], &row[1], &row[2]),
            (row[3].to_string(), row[6].to_string()),
        );
    }
    let dir = std::env::temp_dir().join(format!("bgkit-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("in.csv");
    std::fs::write(&path, input).unwrap();
    let out = evaluator(&["moves", "--input", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("position_id,die1,die2,n_moves,after_ids"));
    let mut n = 0;
    for line in lines {
        let f: Vec<&str> = line.splitn(5, ',').collect();
        let (moves, ids) = &want[&format!("{},{},{}", f[0], f[1], f[2])];
        assert_eq!((f[3], f[4]), (moves.as_str(), ids.as_str()), "{line}");
        n += 1;
    }
    assert_eq!(n, 600);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn moves_lists_notation_and_ids_for_one_position() {
    let out = evaluator(&["moves", "--position-id", "4HPwATDgc/ABMA", "--dice", "3", "1"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 16);
    // 8/5 6/5 leaves the mover with 5:2 6:4 8:2 (gnubg's ID with the mover encoded second).
    assert!(text.lines().any(|l| l == "8/5, 6/5\t4HPwATCwZ/ABMA"), "{text}");
    let gnubg = stdout(&evaluator(&[
        "moves",
        "--position-id",
        "4HPwATDgc/ABMA",
        "--dice",
        "6",
        "6",
        "--style",
        "gnubg",
    ]));
    assert!(
        gnubg.lines().any(|l| l.starts_with("24/18(2) 13/7(2)\t")),
        "{gnubg}"
    );
}

#[test]
fn notation_rewrites_simple_moves_in_standard_form() {
    let out = evaluator(&["notation", "24/22, 22/20*, 20/18, 18/16"]);
    assert_eq!(stdout(&out), "24/20*/16\n");
    let out = evaluator(&[
        "notation",
        "8-5,6-5",
        "--position-id",
        "4HPwATDgc/ABMA",
        "--dice",
        "3",
        "1",
    ]);
    assert_eq!(stdout(&out), "8/5, 6/5\n");
}

#[test]
fn show_draws_positions_ids_and_xgids() {
    let text = stdout(&evaluator(&["show", "4HPwATDgc/ABMA:cIkmAQAAAAAE"]));
    assert!(text.contains("X: pips 167"), "{text}");
    assert!(text.contains("9-point match"), "{text}");
    let text = stdout(&evaluator(&[
        "show",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ]));
    assert!(text.contains("4HPwATDgc/ABMA"), "{text}");
    // A variant's borne-off counts need a position of that variant.
    // Each side's checker on its 24-point: hypergammon1's start.
    let text = stdout(&evaluator(&[
        "show",
        "AACAAAAAAgAAAA",
        "--variant",
        "hypergammon1",
    ]));
    assert!(text.contains("X: pips  24, on bar 0, borne off 0"), "{text}");
    let out = evaluator(&["show", "4HPwATDgc/ABMA", "--variant", "hypergammon1"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "evaluator: '4HPwATDgc/ABMA': X (on roll) has 15 checkers in play, more than hypergammon1 has (1 a side)"
    );
}

#[test]
fn a_data_directory_that_is_not_there_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_evaluator"))
        .args(["eval", "4HPwATDgc/ABMA"])
        .env("BGKIT_DATA", "/nonexistent/bgkit-data")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("evaluator: ")
            && err.contains("BGKIT_DATA is '/nonexistent/bgkit-data', which is not a directory"),
        "{err}"
    );
}

#[test]
fn bgkit_simd_takes_kernel_names_in_any_case_and_refuses_others() {
    let with_simd = |value: &str| {
        Command::new(env!("CARGO_BIN_EXE_evaluator"))
            .args(["moves", "4HPwATDgc/ABMA", "--dice", "3", "1"])
            .env("BGKIT_SIMD", value)
            .output()
            .unwrap()
    };
    // `bench` prints the names capitalised (`Scalar`): they are taken back as they are.
    for value in ["scalar", "Scalar", "AVX2", "Avx512", ""] {
        let out = with_simd(value);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{value}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A typo used to be ignored silently (the best kernel ran instead).
    let out = with_simd("avx-512");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "evaluator: BGKIT_SIMD is 'avx-512': give scalar, avx2 or avx512, or unset it"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_input_exits_2_with_a_message_naming_the_problem() {
    let out = evaluator(&["moves", "--position-id", "4HPwATDgc/ABM", "--dice", "3", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        "evaluator: bad --position-id: position ID '4HPwATDgc/ABM' has 13 characters (expected 14)"
    );
    // A die no byte holds is a bad die too (it used to be "-1 is not in 0..=255").
    for (d1, want) in [
        ("7", "invalid dice '7 1'"),
        ("-1", "invalid dice '-1 1'"),
        ("300", "invalid dice '300 1'"),
    ] {
        let out = evaluator(&["moves", "--position-id", "4HPwATDgc/ABMA", "--dice", d1, "1"]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(want) && err.contains("each die must be 1-6"),
            "{err}"
        );
    }
    let out = evaluator(&[
        "notation",
        "8/5",
        "--position-id",
        "4HPwATDgc/ABMA",
        "--dice",
        "3",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a legal move"));
    let out = evaluator(&["moves", "--input", "/nonexistent/file.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/file.csv"));
}

#[test]
fn a_bad_csv_row_is_reported_with_its_line_and_the_rest_still_processed() {
    let dir = std::env::temp_dir().join(format!("bgkit-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.csv");
    std::fs::write(
        &path,
        "position_id,die1,die2\n4HPwATDgc/ABMA,3,1\nnot-an-id,3,1\n4HPwATDgc/ABMA,6,6\n",
    )
    .unwrap();
    let out = evaluator(&["moves", "--input", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out).lines().count(), 3, "header and two good rows");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.csv:3"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// The one position of `eval`, `best-move`, `moves` and `notation` may be a Position
/// ID, `PositionID:MatchID` or an XGID, as the POSITION argument or by --position-id;
/// the roll defaults to the dice rolled in the Match ID or XGID.
#[test]
fn one_position_in_any_form() {
    // Lower case on roll with 52 after upper case's 31 (8/5 6/5), 7-point match at 1-6,
    // Crawford. gnubg 1.07, `set xgid` with it: Position ID sGfwATDgc/ABMA, Match ID
    // sIHqABAAMAAE (dice 52).
    let xgid = "XGID=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10";
    let pid = "sGfwATDgc/ABMA";
    let match_id = "sIHqABAAMAAE";
    let run = |args: &[&str]| {
        let out = evaluator(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout(&out)
    };
    // Moves need no weights: every form lists the same moves of the same roll.
    let moves = run(&["moves", "--position-id", pid, "--dice", "5", "2"]);
    assert!(moves.lines().count() > 5, "{moves}");
    assert_eq!(run(&["moves", pid, "--dice", "5", "2"]), moves);
    assert_eq!(run(&["moves", xgid]), moves, "the XGID's dice");
    // Without its prefix an XGID may begin with '-': after `--`, or as the flag's value.
    let bare = &xgid["XGID=".len()..];
    assert_eq!(run(&["moves", "--", bare]), moves, "no prefix");
    assert_eq!(run(&["moves", &format!("--position-id={bare}")]), moves);
    assert_eq!(run(&["moves", "--position-id", xgid]), moves);
    assert_eq!(
        run(&["moves", &format!("{pid}:{match_id}")]),
        moves,
        "the Match ID's dice"
    );
    // --dice overrides the dice in the text, and gives the roll to a position whose
    // player on roll has offered a double (the dice field "D").
    let other = run(&["moves", pid, "--dice", "3", "1"]);
    assert_eq!(run(&["moves", xgid, "--dice", "3", "1"]), other);
    // (After the Crawford game: rules 0; no one doubles in the Crawford game itself.)
    let offered = xgid.replace(":52:", ":D:").replace(":1:7:10", ":0:7:10");
    assert_eq!(run(&["moves", &offered, "--dice", "3", "1"]), other);
    let refused = evaluator(&["moves", &xgid.replace(":52:", ":D:"), "--dice", "3", "1"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("in the Crawford game"));
    assert_eq!(
        run(&["notation", "--position-id", xgid, "13-8,13-11"]),
        "13/11, 13/8\n"
    );

    let fail = |args: &[&str], want: &str| {
        let out = evaluator(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("evaluator: ") && err.contains(want),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    };
    fail(
        &["moves", pid],
        "give the roll: --dice D1 D2 (the Position ID 'sGfwATDgc/ABMA' carries no dice; PositionID:MatchID or an XGID may)",
    );
    fail(
        &["moves", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"],
        "give the roll: --dice D1 D2 ('XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10' has no dice rolled)",
    );
    fail(&["moves", &offered], "has a double offered, no dice rolled");
    fail(&["moves", "--", &xgid[5..xgid.len() - 3]], "bad POSITION: XGID");
    fail(
        &["moves", bare],
        &format!("'{bare}' looks like an XGID that begins with '-', which reads as an option: write it as 'XGID={bare}' (see 'evaluator moves --help')"),
    );
    fail(&["notation", "13/8", "--dice", "3", "1"], "--position-id");
    fail(
        &["moves", "--style", "gnubg", "--input", "in.csv"],
        "cannot be used with",
    );
    fail(
        &["moves", "sGfwATDgc/ABM"],
        "bad POSITION: position ID 'sGfwATDgc/ABM' has 13",
    );
    fail(
        &["moves", &format!("{pid}:AAAA")],
        "bad POSITION: match ID 'AAAA'",
    );
    fail(&["moves", &xgid[..xgid.len() - 3]], "bad POSITION: XGID");
    fail(
        &["moves", pid, "--position-id", pid, "--dice", "3", "1"],
        "cannot be used with",
    );
    fail(&["moves", pid, "--input", "in.csv"], "cannot be used with");
    fail(
        &["moves", "--input", "in.csv", "--dice", "3", "1"],
        "cannot be used with",
    );

    // With gnubg's weights: the evaluation and the move choice of every form agree.
    if !test_support::have(&[test_support::WD, test_support::OS, test_support::TS]) {
        return;
    }
    let eval = run(&["eval", "--position-id", pid, "--json"]);
    assert!(eval.contains(&format!("\"position_id\":\"{pid}\"")), "{eval}");
    assert_eq!(run(&["eval", xgid, "--json"]), eval);
    assert_eq!(run(&["eval", pid, "--json"]), eval);
    let best = run(&["best-move", "--position-id", pid, "--dice", "5", "2", "--json"]);
    assert!(best.contains("\"dice\":[5,2]"), "{best}");
    assert_eq!(run(&["best-move", xgid, "--json"]), best);
    fail(&["eval", pid, "-j", "2"], "cannot be used with");
    fail(&["best-move", pid, "-j", "2"], "cannot be used with");
    fail(&["best-move", pid, "--input", "in.csv"], "cannot be used with");
    fail(
        &["best-move", "--input", "in.csv", "--dice", "3", "1"],
        "cannot be used with",
    );
    // In an --input file too: each row's values, its first field echoed as written.
    let dir = test_support::Scratch::new("evaluator", "any-id");
    let input = dir.join("in.csv");
    std::fs::write(&input, format!("position_id\n{pid}\n{xgid}\n{pid}:{match_id}\n")).unwrap();
    let csv = run(&["eval", "--input", input.to_str().unwrap(), "-q"]);
    let rows: Vec<(&str, &str)> = csv.lines().skip(1).map(|l| l.split_once(',').unwrap()).collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert_eq!(rows[1].0, xgid);
    assert!(rows.iter().all(|r| r.1 == rows[0].1), "{csv}");
}

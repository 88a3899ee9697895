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
}

#[test]
fn bad_input_exits_2_with_a_message_naming_the_problem() {
    let out = evaluator(&["moves", "--position-id", "4HPwATDgc/ABM", "--dice", "3", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("evaluator: bad --position-id '4HPwATDgc/ABM'"),
        "{err}"
    );
    let out = evaluator(&["moves", "--position-id", "4HPwATDgc/ABMA", "--dice", "7", "1"]);
    assert_eq!(out.status.code(), Some(2));
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

//! The CLI table (issue 19): every `evaluator` subcommand with stdout to /dev/full, a
//! closed stdout pipe, stderr to /dev/full, and a missing input. `evaluator` writes no
//! files, so the output cases do not apply.

use test_support::cli::*;
use test_support::{have, Scratch, OS, TS, WD};

const BIN: &str = env!("CARGO_BIN_EXE_evaluator");
const ID: &str = "4HPwATDgc/ABMA";
const XGID: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10";

/// Every subcommand, with arguments that make it print.
fn table(input: &str, dice_input: &str) -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["show", ID]),
        v(&["show", XGID]),
        v(&["notation", "24/22, 22/20*"]),
        v(&["moves", "--position-id", ID, "--dice", "3", "1"]),
        v(&["moves", "--input", dice_input]),
        v(&["moves", XGID]),
        v(&["eval", "--position-id", ID]),
        v(&["eval", XGID, "--json"]),
        v(&["eval", "--position-id", ID, "--json"]),
        v(&["eval", "--input", input]),
        v(&["eval", "--input", input, "-j", "2", "-q"]),
        v(&["best-move", "--position-id", ID, "--dice", "3", "1"]),
        v(&["best-move", "--position-id", ID, "--dice", "3", "1", "--json"]),
        v(&["best-move", ID, "--dice", "3", "1", "--json"]),
        v(&["best-move", "--input", dice_input]),
        v(&["best-move", "--input", dice_input, "--threads", "2"]),
        v(&["bench", "--movegen", "--seconds", "0.01"]),
        v(&[
            "bench",
            "--movegen",
            "--seconds",
            "0.01",
            "--repeat",
            "2",
            "--json",
        ]),
        v(&["bench", "--seconds", "0.01"]),
        v(&["bench", "--seconds", "0.01", "--json"]),
        v(&["bench", "--seconds", "0.01", "-j", "2", "--repeat", "2"]),
    ]
}

fn inputs(dir: &Scratch) -> (String, String) {
    let input = dir.join("in.csv");
    let rows: String = (0..400).map(|_| format!("{ID}\n")).collect();
    std::fs::write(&input, format!("position_id\n{rows}")).unwrap();
    let dice = dir.join("dice.csv");
    let rows: String = (0..400).map(|_| format!("{ID},3,1\n")).collect();
    std::fs::write(&dice, format!("position_id,die1,die2\n{rows}")).unwrap();
    (input.display().to_string(), dice.display().to_string())
}

#[test]
fn stdout_to_dev_full_is_one_error_not_a_panic() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("evaluator", "table-full");
    let (input, dice) = inputs(&dir);
    for args in table(&input, &dice) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        case_stdout_full("evaluator", BIN, &args);
    }
}

#[test]
fn a_closed_stdout_ends_quietly_with_status_0() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("evaluator", "table-pipe");
    let (input, dice) = inputs(&dir);
    for args in table(&input, &dice) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        case_stdout_closed(BIN, &args, 0);
    }
}

#[test]
fn stderr_to_dev_full_does_not_stop_a_command() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("evaluator", "table-stderr");
    let (input, dice) = inputs(&dir);
    for args in table(&input, &dice) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        case_stderr_full(BIN, &args, 0, None);
    }
    // An error with stderr full: still status 2, no panic.
    let r = stderr_full(BIN, &["eval", "--input", "/no/such/in.csv"]);
    assert_eq!(r.code, Some(2));
}

#[test]
fn eval_input_into_a_closed_pipe_stops_at_the_first_failed_write() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("evaluator", "table-rows");
    let (input, _) = inputs(&dir);
    // 400 rows do not fit in what a closed pipe swallows only when written one by one:
    // no "Broken pipe" line per row.
    for threads in ["1", "2"] {
        let r = stdout_closed(BIN, &["eval", "--input", &input, "-j", threads]);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(r.stderr, "");
    }
}

#[test]
fn a_missing_input_is_one_error() {
    for args in [
        ["eval", "--input", "/no/such/in.csv"],
        ["moves", "--input", "/no/such/in.csv"],
        ["best-move", "--input", "/no/such/in.csv"],
        ["best-move", "-j2", "--input=/no/such/in.csv"],
        ["bench", "--movegen", "--positions=/no/such/in.csv"],
    ] {
        if args[0] != "moves" && args[0] != "bench" && !have(&[WD, OS, TS]) {
            continue;
        }
        case_missing_input("evaluator", BIN, &args, "/no/such/in.csv");
    }
}

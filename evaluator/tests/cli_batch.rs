//! `eval --input` and `best-move --input` on several threads (issue 19): the output is
//! byte-identical for 1, 2 and 3 threads, in the input's order, bad rows reported at
//! their place; the values are gnubg's recorded ones (testdata/gnubg) and the library's
//! own (a second computation). Also `--json` on the single-position commands.

mod common;

use std::process::{Command, Output};

use board::{Dice, MoveGen, Position};
use common::*;
use evaluator::eval::money_equity;
use evaluator::search::{Lookahead, FILTERS_NORMAL};
use evaluator::PositionClass;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_evaluator");

/// `evaluator ARGS` with gnubg's files named explicitly (the same the library tests
/// open), whatever `$BGKIT_DATA` says.
fn evaluator(args: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    if matches!(args.first(), Some(&"eval") | Some(&"best-move") | Some(&"bench")) {
        cmd.args(["--weights", WD, "--bearoff-os", OS, "--bearoff-ts", TS]);
    }
    cmd.output().expect("run evaluator")
}

fn text(o: &[u8]) -> String {
    String::from_utf8(o.to_vec()).unwrap()
}

/// Runs `args` with `-j 1`, `-j 2` and `-j 3` (quiet): the three outputs (stdout,
/// stderr, status) are identical; returns one.
fn same_on_1_2_3_threads(args: &[&str]) -> Output {
    let runs: Vec<Output> = ["1", "2", "3"]
        .iter()
        .map(|j| evaluator(&[args, &["-j", j, "-q"]].concat()))
        .collect();
    for (k, r) in runs.iter().enumerate().skip(1) {
        assert_eq!(
            runs[0].status.code(),
            r.status.code(),
            "{args:?}: status, 1 vs {} threads",
            k + 1
        );
        assert!(
            runs[0].stdout == r.stdout,
            "{args:?}: stdout, 1 vs {} threads",
            k + 1
        );
        assert_eq!(
            text(&runs[0].stderr),
            text(&r.stderr),
            "{args:?}: stderr, 1 vs {} threads",
            k + 1
        );
    }
    runs.into_iter().next().unwrap()
}

/// The net tolerance against the recorded fixture (see gnubg_eval.rs: made on AMD).
fn fixture_tolerance(class: u8) -> f32 {
    if !PositionClass::from_number(class).unwrap().uses_net() {
        0.0
    } else if cpu_vendor() == "AuthenticAMD" {
        1e-5
    } else {
        2e-3
    }
}

#[test]
fn eval_input_is_the_same_on_any_thread_count_and_is_gnubgs() {
    let Some(ev) = gnubg_evaluator() else { return };
    let dir = Scratch::new("evaluator", "batch-eval");
    let mut rdr = csv::Reader::from_path(testdata("positions.csv")).unwrap();
    let fixture: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let input = dir.join("in.csv");
    let ids: String = fixture.iter().map(|r| format!("{}\n", &r[0])).collect();
    std::fs::write(&input, format!("position_id\n{ids}")).unwrap();
    let out = same_on_1_2_3_threads(&["eval", "--input", input.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("position_id,class,p_win,p_wg,p_wbg,p_lg,p_lbg")
    );
    let lines: Vec<&str> = lines.collect();
    assert_eq!(lines.len(), fixture.len());
    for (line, row) in lines.iter().zip(&fixture) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(
            (f[0], f[1]),
            (&row[0], &row[3]),
            "{line}: id and class in the input's order"
        );
        // The library, one position at a time: the same bits, printed as the shortest
        // decimal that reads back to them.
        let (p, class) = ev.evaluate(&Position::from_id(&row[0]).unwrap()).unwrap();
        let want = format!(
            "{},{},{:?},{:?},{:?},{:?},{:?}",
            &row[0], class as u8, p[0], p[1], p[2], p[3], p[4]
        );
        assert_eq!(*line, want);
        // gnubg's recorded values.
        let tol = fixture_tolerance(class as u8);
        for k in 0..5 {
            let got: f32 = f[2 + k].parse().unwrap();
            let gnubg = row[4 + k].parse::<f64>().unwrap() as f32;
            assert!(
                (got - gnubg).abs() <= tol,
                "{line}: gnubg {gnubg} in column {}",
                k + 2
            );
        }
    }
    // Standard input gives the same bytes.
    let piped = Command::new(BIN)
        .args([
            "eval",
            "--input",
            "-",
            "-j",
            "2",
            "--weights",
            WD,
            "--bearoff-os",
            OS,
            "--bearoff-ts",
            TS,
        ])
        .stdin(std::fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert!(piped.stdout == out.stdout, "stdin vs file");
}

#[test]
fn eval_input_with_lookahead_is_the_same_on_any_thread_count() {
    let Some(ev) = gnubg_evaluator() else { return };
    let dir = Scratch::new("evaluator", "batch-eval-1ply");
    let mut rdr = csv::Reader::from_path(testdata("positions.csv")).unwrap();
    let ids: Vec<String> = rdr
        .records()
        .map(|r| r.unwrap()[0].to_string())
        .take(120)
        .collect();
    let input = dir.join("in.csv");
    std::fs::write(&input, format!("position_id\n{}\n", ids.join("\n"))).unwrap();
    let out = same_on_1_2_3_threads(&["eval", "--input", input.to_str().unwrap(), "--plies", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for (line, id) in stdout.lines().skip(1).zip(&ids) {
        let pos = Position::from_id(id).unwrap();
        let p = ev.evaluate_plied(&pos, 1, Lookahead::default()).unwrap();
        let want = format!(
            "{id},{},{:?},{:?},{:?},{:?},{:?}",
            ev.classify(&pos) as u8,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        );
        assert_eq!(line, want);
    }
    assert_eq!(stdout.lines().count(), ids.len() + 1);
}

#[test]
fn best_move_input_is_the_same_on_any_thread_count_and_is_gnubgs() {
    let Some(ev) = gnubg_evaluator() else { return };
    let dir = Scratch::new("evaluator", "batch-best");
    let mut rdr = csv::Reader::from_path(testdata("moves.csv")).unwrap();
    let fixture: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let input = dir.join("in.csv");
    let rows: String = fixture
        .iter()
        .map(|r| format!("{},{},{}\n", &r[0], &r[1], &r[2]))
        .collect();
    std::fs::write(&input, format!("position_id,die1,die2\n{rows}")).unwrap();
    let out = same_on_1_2_3_threads(&["best-move", "--input", input.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(lines.len(), fixture.len());
    let no_move = fixture.iter().filter(|r| &r[3] == "0").count();
    assert!(no_move > 0, "the fixture has rolls without a legal move");
    for (line, row) in lines.iter().zip(&fixture) {
        // gnubg's recorded choice (empty when no move is legal).
        assert_eq!(
            *line,
            format!("{},{},{},{},{}", &row[0], &row[1], &row[2], &row[4], &row[5])
        );
    }
    // 1-ply: the library's choice, the same on every thread count.
    let first: Vec<&csv::StringRecord> = fixture.iter().take(40).collect();
    let rows: String = first
        .iter()
        .map(|r| format!("{},{},{}\n", &r[0], &r[1], &r[2]))
        .collect();
    std::fs::write(&input, format!("position_id,die1,die2\n{rows}")).unwrap();
    let out = same_on_1_2_3_threads(&["best-move", "--input", input.to_str().unwrap(), "--plies", "1"]);
    let mut gen = MoveGen::new();
    for (line, row) in text(&out.stdout).lines().skip(1).zip(first) {
        let pos = Position::from_id(&row[0]).unwrap();
        let dice = Dice::new(row[1].parse().unwrap(), row[2].parse().unwrap()).unwrap();
        let best = ev
            .best_move_plied(&mut gen, &pos, dice, 1, &FILTERS_NORMAL, Lookahead::default())
            .unwrap();
        let (m, after) = best.map_or((String::new(), String::new()), |(m, _)| {
            (m.gnubg_notation(), m.result.position_id())
        });
        assert_eq!(line, format!("{},{},{},{m},{after}", &row[0], &row[1], &row[2]));
    }
}

#[test]
fn bad_rows_are_reported_in_order_on_any_thread_count() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("evaluator", "batch-bad");
    let input = dir.join("bad.csv");
    // 1,200 rows (more than one block of 512 on 2 threads), bad ones spread over them.
    let mut rows = String::from("position_id,die1,die2\n");
    let mut bad_lines = Vec::new();
    for k in 0..1200 {
        if k % 250 == 7 {
            rows += "not-an-id,3,1\n";
            bad_lines.push(k + 2);
        } else if k % 250 == 100 {
            rows += "4HPwATDgc/ABMA,7,1\n";
            bad_lines.push(k + 2);
        } else {
            rows += &format!("4HPwATDgc/ABMA,{},{}\n", 1 + k % 6, 1 + (k / 6) % 6);
        }
    }
    std::fs::write(&input, rows).unwrap();
    let out = same_on_1_2_3_threads(&["best-move", "--input", input.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout).lines().count(), 1 + 1200 - bad_lines.len());
    let stderr = text(&out.stderr);
    let reported: Vec<usize> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix(&format!("evaluator: {}:", input.display())))
        .filter_map(|rest| rest.split(':').next()?.parse().ok())
        .collect();
    assert_eq!(reported, bad_lines, "{stderr}");
    assert!(stderr.ends_with(&format!(
        "{}: {} bad row(s) skipped\n",
        input.display(),
        bad_lines.len()
    )));
}

#[test]
fn eval_json_is_one_object_with_the_reports_values() {
    let Some(ev) = gnubg_evaluator() else { return };
    let id = "4HPwATDgc/ABMA";
    let out = evaluator(&["eval", "--position-id", id, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 1);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pos = Position::from_id(id).unwrap();
    let (p, class) = ev.evaluate(&pos).unwrap();
    assert_eq!(j["position_id"], id);
    assert_eq!(j["class"], class as u8);
    assert_eq!(j["class_name"], "contact");
    assert_eq!(j["plies"], 0);
    assert_eq!(
        (j["pips_on_roll"].as_u64(), j["pips_opponent"].as_u64()),
        (Some(167), Some(167))
    );
    for (k, name) in ["p_win", "p_wg", "p_wbg", "p_lg", "p_lbg"].iter().enumerate() {
        // f32 printed as its shortest decimal: reads back to the same bits.
        assert_eq!(j[name].as_f64().unwrap() as f32, p[k], "{name}");
    }
    assert_eq!(j["equity"].as_f64().unwrap() as f32, money_equity(&p));
    assert_eq!(j.as_object().unwrap().len(), 12, "{j}");
    // The text report shows the same equity.
    let report = text(&evaluator(&["eval", "--position-id", id]).stdout);
    let shown = format!(
        "cubeless money equity for X: {:+.4}",
        j["equity"].as_f64().unwrap()
    );
    assert!(report.contains(&shown), "{report}");
    // 1 ply: the library's lookahead.
    let out = evaluator(&["eval", "--position-id", id, "--json", "--plies", "1"]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p1 = ev.evaluate_plied(&pos, 1, Lookahead::default()).unwrap();
    assert_eq!(j["plies"], 1);
    assert_eq!(j["p_win"].as_f64().unwrap() as f32, p1[0]);
}

#[test]
fn best_move_json_is_one_object_with_gnubgs_choice() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let mut rdr = csv::Reader::from_path(testdata("moves.csv")).unwrap();
    let fixture: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let opening = fixture
        .iter()
        .find(|r| (&r[0], &r[1], &r[2]) == ("4HPwATDgc/ABMA", "3", "1"))
        .unwrap();
    let out = evaluator(&[
        "best-move",
        "--position-id",
        "4HPwATDgc/ABMA",
        "--dice",
        "3",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["position_id"], "4HPwATDgc/ABMA");
    assert_eq!(j["dice"], serde_json::json!([3, 1]));
    assert_eq!(j["plies"], 0);
    assert_eq!(j["best_move"], "8/5, 6/5");
    assert_eq!(j["best_move_gnubg"], &opening[4]);
    assert_eq!(j["best_after_id"], &opening[5]);
    let gnubg: f64 = opening[7].parse().unwrap();
    let tol = if cpu_vendor() == "AuthenticAMD" {
        1e-5
    } else {
        2e-3
    };
    assert!(
        (j["equity"].as_f64().unwrap() - gnubg).abs() <= tol,
        "{j} vs gnubg {gnubg}"
    );
    // The text line shows the same move and equity.
    let line = text(&evaluator(&["best-move", "--position-id", "4HPwATDgc/ABMA", "--dice", "3", "1"]).stdout);
    assert_eq!(
        line,
        format!(
            "8/5, 6/5\t{:+.6}\t{}\n",
            j["equity"].as_f64().unwrap(),
            &opening[5]
        )
    );
    // No legal move: the move fields are null.
    let stuck = fixture.iter().find(|r| &r[3] == "0").unwrap();
    let out = evaluator(&[
        "best-move",
        "--position-id",
        &stuck[0],
        "--dice",
        &stuck[1],
        &stuck[2],
        "--json",
    ]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for name in ["best_move", "best_move_gnubg", "equity", "best_after_id"] {
        assert!(j[name].is_null(), "{name}: {j}");
    }
}

#[test]
fn flags_that_do_not_apply_are_refused() {
    let pos = ["--position-id", "4HPwATDgc/ABMA"];
    for args in [
        [&["eval"][..], &pos, &["-j", "2"]].concat(),
        [&["best-move"][..], &pos, &["--dice", "3", "1", "--threads", "2"]].concat(),
        vec!["eval", "--input", "in.csv", "--json"],
        vec!["best-move", "--input", "in.csv", "--json"],
        vec!["eval", "--input", "in.csv", "-j", "0"],
        vec!["bench", "--movegen", "-j", "2"],
        vec!["bench", "--repeat", "0"],
        vec!["bench", "--movegen", "--calibrate-boards"],
        vec!["bench", "--positions", "in.csv"],
        vec!["notation", "--dice", "3", "1", "8/5 6/5"],
    ] {
        let out = evaluator(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = evaluator(&["eval", "--input", "in.csv", "-j", "0"]);
    assert_eq!(text(&out.stderr), "evaluator: --threads must be at least 1\n");
}

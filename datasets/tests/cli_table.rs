//! The CLI table (issue 19): every `datasets` subcommand with stdout to /dev/full, a
//! closed stdout pipe, stderr to /dev/full, an output equal to an input, an existing
//! output, and a missing input.

use std::path::{Path, PathBuf};

use test_support::cli::*;
use test_support::{have, Scratch, OS, TS, WD};

const BIN: &str = env!("CARGO_BIN_EXE_datasets");
const TOOL: &str = "datasets";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A positions file (sample) and a small rolled-out dataset from it.
fn files(dir: &Path) -> (PathBuf, PathBuf) {
    let pos = dir.join("pos.csv");
    let r = run(BIN, &["sample", "--games", "2", "-o", s(&pos), "--quiet"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let text = std::fs::read_to_string(&pos).unwrap();
    let few: Vec<&str> = text.lines().take(6).collect();
    std::fs::write(&pos, few.join("\n") + "\n").unwrap();
    let data = dir.join("data.csv");
    let r = run(
        BIN,
        &[
            "rollout",
            "--input",
            s(&pos),
            "-o",
            s(&data),
            "--trials",
            "2",
            "--no-vr",
            "--quiet",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    (pos, data)
}

#[test]
fn stdout_to_dev_full_and_a_closed_pipe_do_not_panic() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("datasets", "table-stdout");
    let (pos, data) = files(&dir);
    for args in [
        vec!["stats", s(&data)],
        vec!["stats", s(&data), "--json"],
        vec!["stats", s(&pos)],
        vec!["stats", s(&pos), "--json"],
    ] {
        case_stdout_full(TOOL, BIN, &args);
        case_stdout_closed(BIN, &args, 0);
    }
}

#[test]
fn json_summaries_on_a_full_or_closed_stdout_do_not_panic() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("datasets", "table-json");
    let (pos, _) = files(&dir);
    for (k, closed) in [false, true].into_iter().enumerate() {
        let sample = dir.join(format!("s{k}.csv"));
        let rollout = dir.join(format!("r{k}.csv"));
        for args in [
            vec!["sample", "--games", "2", "-o", s(&sample), "--quiet", "--json"],
            vec![
                "rollout",
                "--input",
                s(&pos),
                "-o",
                s(&rollout),
                "--trials",
                "2",
                "--no-vr",
                "--quiet",
                "--json",
            ],
        ] {
            if closed {
                case_stdout_closed(BIN, &args, 0);
            } else {
                case_stdout_full(TOOL, BIN, &args);
            }
        }
        // The data files are written before the summary.
        assert!(sample.exists() && rollout.exists());
    }
}

#[test]
fn stderr_to_dev_full_does_not_stop_a_job() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("datasets", "table-stderr");
    let (pos, data) = files(&dir);
    let out = dir.join("s.csv");
    case_stderr_full(BIN, &["sample", "--games", "2", "-o", s(&out)], 0, Some(&out));
    let out = dir.join("r.csv");
    let args = [
        "rollout",
        "--input",
        s(&pos),
        "-o",
        s(&out),
        "--trials",
        "2",
        "--no-vr",
    ];
    case_stderr_full(BIN, &args, 0, Some(&out));
    let out = dir.join("c.bgds");
    case_stderr_full(BIN, &["convert", s(&data), s(&out)], 0, Some(&out));
    let out = dir.join("m.csv");
    case_stderr_full(BIN, &["merge", "-o", s(&out), s(&data)], 0, Some(&out));
    let out = dir.join("b.jsonl");
    let args = [
        "benchmark",
        "build",
        "--input",
        s(&pos),
        "-o",
        s(&out),
        "--trials",
        "2",
        "--no-vr",
    ];
    case_stderr_full(BIN, &args, 0, Some(&out));
}

#[test]
fn an_output_equal_to_an_input_is_refused_even_with_force() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("datasets", "table-same");
    let (pos, data) = files(&dir);
    let dotted = dir.join(".").join("data.csv");
    let cases: [(Vec<&str>, &Path); 7] = [
        (vec!["convert", s(&data), s(&data), "--force"], &data),
        (vec!["convert", s(&data), s(&dotted), "--force"], &data),
        (vec!["merge", "-o", s(&data), s(&data), "--force"], &data),
        (
            vec!["merge", "-o", s(&pos), "--input", s(&pos), s(&data), "--force"],
            &pos,
        ),
        (
            vec![
                "rollout",
                "--input",
                s(&pos),
                "-o",
                s(&pos),
                "--trials",
                "2",
                "--force",
            ],
            &pos,
        ),
        (
            vec!["benchmark", "build", "--input", s(&pos), "-o", s(&pos), "--force"],
            &pos,
        ),
        (
            vec!["sample", "--games", "2", "--weights", WD, "-o", WD, "--force"],
            Path::new(WD),
        ),
    ];
    for (args, input) in cases {
        case_output_is_input(TOOL, BIN, &args, input);
    }
}

#[test]
fn an_existing_output_is_refused_unless_forced() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("datasets", "table-exists");
    let (pos, data) = files(&dir);
    let out = dir.join("precious.csv");
    std::fs::write(&out, "position_id\n4HPwATDgc/ABMA\n").unwrap();
    let o = s(&out);
    for args in writers(o, s(&pos), s(&data)) {
        case_existing_output(TOOL, BIN, &args, &out, "exists (use --force to replace it)");
    }
    let r = run(BIN, &["convert", s(&data), o, "--quiet", "--force"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&data).unwrap());
}

#[test]
fn a_missing_input_is_one_error() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("datasets", "table-missing");
    let out = dir.join("out.csv");
    let m = "/no/such/in.csv";
    // A missing part after one that is there: named as missing (it used to be "has no
    // shard manifest").
    let part = dir.join("part.csv");
    std::fs::write(&part, "position_id\n").unwrap();
    for args in [
        vec!["stats", m],
        vec!["convert", m, s(&out)],
        vec!["merge", "-o", s(&out), m],
        vec!["merge", "-o", s(&out), s(&part), m],
        vec!["rollout", "--input", m, "-o", s(&out)],
        vec!["benchmark", "build", "--input", m, "-o", s(&out)],
        vec![
            "sample",
            "--games",
            "2",
            "--weights",
            "/no/such/in.csv",
            "-o",
            s(&out),
        ],
    ] {
        case_missing_input(TOOL, BIN, &args, m);
        assert!(!out.exists(), "{args:?}");
    }
    let r = run(BIN, &["merge", "-o", s(&out), s(&part), m]);
    assert_eq!(
        r.stderr.trim_end(),
        format!("datasets: {m}: No such file or directory (os error 2)")
    );
}

#[test]
fn a_directory_or_a_missing_directory_as_output_is_refused_before_the_work() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = Scratch::new("datasets", "table-place");
    let (pos, data) = files(&dir);
    let out = dir.join("out.csv");
    let missing = dir.join("no-such-dir");
    let m = missing.join("out.csv");
    let every = |o| {
        writers(o, s(&pos), s(&data)).map(|mut args| {
            args.push("--force");
            args
        })
    };
    for (args, missing_args) in every(s(&out)).iter().zip(every(s(&m)).iter()) {
        case_output_place(TOOL, BIN, args, &out, missing_args, &missing);
    }
}

/// Every command that writes a dataset file, onto `o`.
fn writers<'a>(o: &'a str, pos: &'a str, data: &'a str) -> [Vec<&'a str>; 5] {
    [
        vec!["sample", "--games", "2", "-o", o, "--quiet"],
        vec!["rollout", "--input", pos, "-o", o, "--trials", "2", "--quiet"],
        vec!["benchmark", "build", "--input", pos, "-o", o, "--quiet"],
        vec!["convert", data, o, "--quiet"],
        vec!["merge", "-o", o, data, "--quiet"],
    ]
}

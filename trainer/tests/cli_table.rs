//! The CLI table (issue 19): every `trainer` subcommand with stdout to /dev/full, a
//! closed stdout pipe, stderr to /dev/full, an output equal to an input, an existing
//! output, and a missing input.

use std::path::{Path, PathBuf};

use test_support::cli::*;
use test_support::{md5_hex, Scratch};

const BIN: &str = env!("CARGO_BIN_EXE_trainer");
const TOOL: &str = "trainer";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A tiny TD run's settings (tesauro encoding, no databases, seconds).
const TD: &[&str] = &[
    "--games",
    "4",
    "--encoding",
    "tesauro",
    "--hidden",
    "4",
    "--no-bearoff",
    "--threads",
    "1",
    "--checkpoint-every",
    "2",
    "--bench-every",
    "2",
    "--bench-games",
    "4",
];

fn td(out: &Path, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ["td", "--out", s(out)].iter().map(|x| x.to_string()).collect();
    v.extend(TD.iter().chain(extra).map(|x| x.to_string()));
    v
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// `tourney new FILE` of pubeval and `other`, two games per pairing.
fn new_tourney<'a>(file: &'a str, other: &'a str) -> [&'a str; 8] {
    [
        "tourney",
        "new",
        file,
        "--participants",
        "pubeval",
        other,
        "--games-per-pairing",
        "2",
    ]
}

/// A finished tournament of pubeval and random.
fn tourney(dir: &Path) -> PathBuf {
    let t = dir.join("t.json");
    assert_eq!(run(BIN, &new_tourney(s(&t), "random")).code, Some(0));
    let r = run(BIN, &["tourney", "run", s(&t), "--quiet", "--workers", "1"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    t
}

const DUEL: &[&str] = &[
    "duel",
    "--a",
    "pubeval",
    "--b",
    "random",
    "--games",
    "2",
    "--threads",
    "1",
    "--quiet",
];

#[test]
fn stdout_to_dev_full_and_a_closed_pipe_do_not_panic() {
    let dir = Scratch::new("trainer", "table-stdout");
    let t = tourney(&dir);
    let mut cases: Vec<Vec<String>> = vec![
        DUEL.iter().map(|x| x.to_string()).collect(),
        strs(
            &[
                DUEL.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
                vec!["--json".into()],
            ]
            .concat(),
        )
        .iter()
        .map(|x| x.to_string())
        .collect(),
        ["tourney", "standings", s(&t)]
            .iter()
            .map(|x| x.to_string())
            .collect(),
        ["tourney", "standings", s(&t), "--json"]
            .iter()
            .map(|x| x.to_string())
            .collect(),
        ["tourney", "run", s(&t), "--quiet"]
            .iter()
            .map(|x| x.to_string())
            .collect(),
        ["supervised", "--bench", "8", "--hidden", "4", "--threads", "1"]
            .iter()
            .map(|x| x.to_string())
            .collect(),
    ];
    for (k, case) in cases.drain(..).enumerate() {
        let args = strs(&case);
        case_stdout_full(TOOL, BIN, &args);
        case_stdout_closed(BIN, &args, 0);
        let _ = k;
    }
    // Commands that write a file and then print: the file is written either way.
    for (k, sink) in ["full", "closed"].iter().enumerate() {
        let t2 = dir.join(format!("new{k}.json"));
        let args = [
            "tourney",
            "new",
            s(&t2),
            "--participants",
            "pubeval",
            "random",
            "--games-per-pairing",
            "2",
        ];
        if *sink == "full" {
            case_stdout_full(TOOL, BIN, &args);
        } else {
            case_stdout_closed(BIN, &args, 0);
        }
        let run_dir = dir.join(format!("td{k}"));
        let args = td(&run_dir, &["--quiet"]);
        if *sink == "full" {
            case_stdout_full(TOOL, BIN, &strs(&args));
        } else {
            case_stdout_closed(BIN, &strs(&args), 0);
        }
        assert!(run_dir.join("net.wd").exists());
    }
}

#[test]
fn stderr_to_dev_full_does_not_stop_a_job() {
    let dir = Scratch::new("trainer", "table-stderr");
    let run_dir = dir.join("td");
    // Not quiet: benchmark lines and the bar go to the full stderr.
    case_stderr_full(BIN, &strs(&td(&run_dir, &[])), 0, Some(&run_dir.join("net.wd")));
    let rec = dir.join("games.sgf");
    let mut duel: Vec<&str> = DUEL[..DUEL.len() - 1].to_vec();
    duel.extend(["--record", s(&rec)]);
    case_stderr_full(BIN, &duel, 0, Some(&rec));
    let t = tourney(&dir);
    let c = dir.join("all.sgf");
    case_stderr_full(
        BIN,
        &["tourney", "export", s(&t), "--collection", s(&c)],
        0,
        Some(&c),
    );
}

#[test]
fn tourney_export_onto_the_tourney_file_is_refused_even_with_force() {
    let dir = Scratch::new("trainer", "table-same");
    let t = tourney(&dir);
    for args in [
        vec!["tourney", "export", s(&t), "--collection", s(&t)],
        vec!["tourney", "export", s(&t), "--collection", s(&t), "--force"],
    ] {
        case_output_is_input(TOOL, BIN, &args, &t);
    }
    // The tourney file as a record directory.
    let args = ["tourney", "export", s(&t), "--sgf", s(&t)];
    case_output_is_input(TOOL, BIN, &args, &t);
}

#[test]
fn td_and_supervised_refuse_a_directory_with_another_runs_files() {
    let dir = Scratch::new("trainer", "table-run-dir");
    let run_dir = dir.join("run");
    std::fs::create_dir(&run_dir).unwrap();
    for name in ["net.wd", "net.weights", "net.json", "curve.csv"] {
        let file = run_dir.join(name);
        std::fs::write(&file, format!("another run's {name}")).unwrap();
        let sums = || {
            test_support::dir_names(&run_dir)
                .iter()
                .map(|n| md5_hex(&std::fs::read(run_dir.join(n)).unwrap()))
                .collect::<Vec<_>>()
        };
        let before = sums();
        let r = run(BIN, &strs(&td(&run_dir, &["--quiet"])));
        assert_error(TOOL, &r, "another run's files", &[]);
        let data = dir.join("d.csv");
        std::fs::write(&data, "position_id\n").unwrap();
        let sup = [
            "supervised",
            "--data",
            s(&data),
            "--class",
            "race",
            "--out",
            s(&run_dir),
            "--quiet",
        ];
        let r = run(BIN, &sup);
        assert_error(TOOL, &r, "another run's files", &sup);
        assert_eq!(before, sums(), "{name}");
    }
    let r = run(BIN, &strs(&td(&run_dir, &["--quiet", "--force"])));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(std::fs::read(run_dir.join("net.wd")).unwrap() != b"another run's net.wd");
}

#[test]
fn an_existing_output_is_refused_unless_forced() {
    let dir = Scratch::new("trainer", "table-exists");
    let t = tourney(&dir);
    let out = dir.join("precious.sgf");
    std::fs::write(&out, "(;precious)").unwrap();
    let mut duel: Vec<&str> = DUEL.to_vec();
    duel.extend(["--record", s(&out)]);
    case_existing_output(TOOL, BIN, &duel, &out, "exists (use --force to replace it)");
    let args = ["tourney", "export", s(&t), "--collection", s(&out), "--quiet"];
    case_existing_output(TOOL, BIN, &args, &out, "exists (use --force to replace it)");
    let args = [
        "tourney",
        "new",
        s(&t),
        "--participants",
        "pubeval",
        "random",
        "--games-per-pairing",
        "2",
    ];
    case_existing_output(TOOL, BIN, &args, &t, "exists");
    // Record directories: a file already there is refused.
    let sgf = dir.join("sgf");
    let r = run(BIN, &["tourney", "export", s(&t), "--sgf", s(&sgf), "--quiet"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // A collection in a record directory the export creates.
    let recs = dir.join("recs");
    let all = recs.join("all.sgf");
    let args = [
        "tourney",
        "export",
        s(&t),
        "--sgf",
        s(&recs),
        "--collection",
        s(&all),
        "--quiet",
    ];
    let r = run(BIN, &args);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(all.exists() && test_support::dir_names(&recs).len() > 1);
    let first = dir.join("sgf").join(&test_support::dir_names(&sgf)[0]);
    let args = ["tourney", "export", s(&t), "--sgf", s(&sgf), "--quiet"];
    case_existing_output(TOOL, BIN, &args, &first, "exists (use --force to replace it)");
    duel.push("--force");
    assert_eq!(run(BIN, &duel).code, Some(0));
    assert_ne!(std::fs::read(&out).unwrap(), b"(;precious)");
}

#[test]
fn a_missing_input_is_one_error() {
    let dir = Scratch::new("trainer", "table-missing");
    let m = "/no/such/file.json";
    let out = dir.join("out.sgf");
    for args in [
        vec!["tourney", "standings", m],
        vec!["tourney", "run", m],
        vec!["tourney", "export", m, "--collection", s(&out)],
        vec!["tourney", "upgrade", m, "1", "pubeval"],
        vec!["benchmark", "--weights", "pubeval", "--set", m],
        vec![
            "supervised",
            "--data",
            m,
            "--class",
            "race",
            "--out",
            s(&dir.join("r")),
        ],
        vec![
            "supervised",
            "--data",
            m,
            "--class",
            "all",
            "--out",
            s(&dir.join("all")),
        ],
        vec!["duel", "--a", m, "--b", "random", "--games", "2"],
    ] {
        case_missing_input(TOOL, BIN, &args, m);
        assert!(!out.exists());
    }
    // Standard input is not a file these commands can read.
    let stdin = "standard input ('-') is not read here; give a file";
    for args in [
        vec!["benchmark", "--weights", "pubeval", "--set", "-"],
        vec![
            "supervised",
            "--data",
            "-",
            "--class",
            "race",
            "--out",
            s(&dir.join("r")),
        ],
        vec!["curve", "--input", "-", "-o", s(&dir.join("c.png"))],
    ] {
        assert_error(TOOL, &run(BIN, &args), stdin, &args);
    }
}

#[test]
fn td_init_lag_and_resume_threads_rows() {
    let dir = Scratch::new("trainer", "table-td-init");
    let first = dir.join("first");
    let r = run(BIN, &strs(&td(&first, &["--quiet"])));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let net = first.join("net.wd");
    // --init FILE: the run's own net as its start is an output equal to an input,
    // even with --force.
    let args = td(&first, &["--init", s(&net), "--force", "--quiet"]);
    case_output_is_input(TOOL, BIN, &strs(&args), &net);
    // A missing --init file.
    let m = "/no/such/net.wd";
    let args = td(&dir.join("second"), &["--init", m]);
    case_missing_input(TOOL, BIN, &strs(&args), m);
    // --init FILE with stdout to /dev/full and a closed pipe.
    for (k, out) in ["third", "fourth"].iter().enumerate() {
        let args = td(&dir.join(out), &["--init", s(&net), "--quiet"]);
        if k == 0 {
            case_stdout_full(TOOL, BIN, &strs(&args));
        } else {
            case_stdout_closed(BIN, &strs(&args), 0);
        }
    }
    // --lag belongs to the ordered scheme and to a new run.
    let args = td(&dir.join("fifth"), &["--parallel", "async", "--lag", "1"]);
    assert_error(
        TOOL,
        &run(BIN, &strs(&args)),
        "--lag is a setting of --parallel ordered",
        &[],
    );
    let args = ["td", "--resume", s(&first), "--games", "6", "--lag", "1"];
    assert_error(
        TOOL,
        &run(BIN, &args),
        "--lag cannot be given with --resume",
        &args,
    );
    // --eval takes fused, incremental or exact, and belongs to a new run.
    let args = td(&dir.join("sixth"), &["--eval", "quick"]);
    assert_error(
        TOOL,
        &run(BIN, &strs(&args)),
        "unknown evaluation mode 'quick' (expected fused, incremental or exact)",
        &[],
    );
    let args = [
        "td",
        "--resume",
        s(&first),
        "--games",
        "6",
        "--eval",
        "incremental",
    ];
    assert_error(
        TOOL,
        &run(BIN, &args),
        "--eval cannot be given with --resume",
        &args,
    );
    // --resume without --threads: the run's count, stdout to /dev/full.
    let args = ["td", "--resume", s(&first), "--games", "6", "--quiet"];
    case_stdout_full(TOOL, BIN, &args);
}

#[test]
fn a_directory_or_a_missing_directory_as_output_is_refused_before_the_work() {
    let dir = Scratch::new("trainer", "table-place");
    let t = tourney(&dir);
    let out = dir.join("out.sgf");
    let missing = dir.join("no-such-dir");
    let m = missing.join("out.sgf");
    let duel = |o| [DUEL, &["--record", o, "--force"]].concat();
    let export = |o| {
        vec![
            "tourney",
            "export",
            s(&t),
            "--collection",
            o,
            "--quiet",
            "--force",
        ]
    };
    for (args, missing_args) in [(duel(s(&out)), duel(s(&m))), (export(s(&out)), export(s(&m)))] {
        case_output_place(TOOL, BIN, &args, &out, &missing_args, &missing);
    }
}

#[test]
fn a_bad_player_or_worker_count_is_named_once() {
    let dir = Scratch::new("trainer", "table-named");
    let t = dir.join("t.json");
    let missing = "no-such-net.wd";
    let says =
        "player 'no-such-net.wd': no such file (a player is pubeval, random, gnubg:PATH or a weights file)";
    let new = new_tourney(s(&t), missing);
    let duel = ["duel", "--a", missing, "--b", "random", "--games", "2"];
    for (args, context) in [(&new[..], "participant no-such-net: "), (&duel[..], "player A: ")] {
        let r = run(BIN, args);
        assert_error(TOOL, &r, &format!("{context}{says}"), args);
        assert_eq!(r.stderr.matches("no-such-net.wd").count(), 1, "{}", r.stderr);
    }
    assert!(!t.exists());
    let t = tourney(&dir);
    let args = ["tourney", "run", s(&t), "--workers", "0"];
    assert_error(
        TOOL,
        &run(BIN, &args),
        "trainer: --workers must be at least 1",
        &args,
    );
}

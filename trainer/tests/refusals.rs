//! What the `trainer` CLI refuses, and how it says so: players' weights files and databases,
//! explicit or found where the evaluator looks, are inputs no output replaces; record
//! names say what they write; curves with infinite numbers are an error, not a hang;
//! benchmark sets without positions or with damaged candidates are errors; player and
//! `--minutes` messages are short and say what is valid.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use board::{MoveGen, Variant};
use common::{bytes, have, refused, s, scratch, stderr, trainer, OS, TS, WD};

/// Runs `trainer args` with `BGKIT_DATA` set to `data`.
fn trainer_with_data(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(args)
        .env("BGKIT_DATA", data)
        .output()
        .unwrap()
}

/// Runs `trainer args`, killed after `limit` (a hang fails the test instead of
/// stalling the suite).
fn trainer_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            let _ = child.wait();
            panic!("trainer {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn tourney_export_never_replaces_a_participants_weights() {
    if !have(&[WD, OS, TS]) {
        return;
    }
    let dir = scratch("audit-export");
    // gnubg's weights under a name a collection may have: only the input rule stops it.
    let weights = dir.join("w.sgf");
    std::fs::copy(WD, &weights).unwrap();
    let t = dir.join("g2.json");
    let db = ["--bearoff-os", OS, "--bearoff-ts", TS];
    let spec = format!("g=gnubg:{}", s(&weights));
    let mut new = vec!["tourney", "new", s(&t), "--participants", "pubeval", &spec];
    new.extend(["--games-per-pairing", "2"]);
    new.extend(db);
    let o = trainer(&new);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut run = vec!["tourney", "run", s(&t), "--quiet"];
    run.extend(db);
    let o = trainer(&run);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = trainer(&[
        "tourney",
        "export",
        s(&t),
        "--collection",
        s(&weights),
        "--force",
        "--quiet",
    ]);
    refused(&o, "is also an input");
    assert_eq!(bytes(&weights), bytes(Path::new(WD)), "the weights are untouched");
    // A collection is one SGF file: another name is refused before anything is written.
    let txt = dir.join("x.txt");
    let o = trainer(&["tourney", "export", s(&t), "--collection", s(&txt), "--quiet"]);
    refused(&o, "must end in .sgf");
    assert!(!txt.exists());
    // The database given on the command line is an input too.
    let os = dir.join("os.sgf");
    std::fs::copy(OS, &os).unwrap();
    let o = trainer(&[
        "tourney",
        "export",
        s(&t),
        "--collection",
        s(&os),
        "--force",
        "--quiet",
        "--bearoff-os",
        s(&os),
        "--bearoff-ts",
        TS,
    ]);
    refused(&o, "is also an input");
    assert_eq!(bytes(&os), bytes(Path::new(OS)));
    // And the export still works where it should.
    let all = dir.join("all.sgf");
    let o = trainer(&["tourney", "export", s(&t), "--collection", s(&all), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::str::from_utf8(&bytes(&all))
        .unwrap()
        .starts_with("(;FF[4]GM[6]"));
}

/// `gnubg:` finds gnubg.wd (and the databases) in `$BGKIT_DATA`: those files are
/// inputs, so a tournament file, a duel record or a run directory never replaces them.
#[test]
fn files_found_in_the_data_directory_are_inputs() {
    if !have(&[WD, OS]) {
        return;
    }
    let dir = scratch("audit-found");
    let data = dir.join("data");
    std::fs::create_dir(&data).unwrap();
    let wd = data.join("gnubg.wd");
    std::fs::copy(WD, &wd).unwrap();
    let os = data.join("gnubg_os0.bd");
    std::fs::copy(OS, &os).unwrap();
    for target in [&wd, &os] {
        let o = trainer_with_data(
            &data,
            &[
                "tourney",
                "new",
                s(target),
                "--participants",
                "gnubg:",
                "pubeval",
                "--games-per-pairing",
                "2",
                "--force",
            ],
        );
        refused(&o, "is also an input");
    }
    assert_eq!(bytes(&wd), bytes(Path::new(WD)));
    assert_eq!(bytes(&os), bytes(Path::new(OS)));
    // A duel's record: the found weights under a record's name.
    let sgf = data.join("gnubg.sgf");
    std::fs::copy(WD, &sgf).unwrap();
    let o = trainer_with_data(
        &data,
        &[
            "duel",
            "--a",
            &format!("gnubg:{}", s(&sgf)),
            "--b",
            "pubeval",
            "--games",
            "2",
            "--record",
            s(&sgf),
            "--force",
            "--quiet",
        ],
    );
    refused(&o, "is also an input");
    assert_eq!(bytes(&sgf), bytes(Path::new(WD)));
}

/// `duel --record` writes what its message promises: .sgf or .mat, nothing else.
#[test]
fn duel_records_are_sgf_or_mat_only() {
    let dir = scratch("audit-record");
    let record = |path: &Path| {
        let args = ["--a", "pubeval", "--b", "random", "--games", "2", "--quiet"];
        trainer(&[&["duel", "--record", s(path)], &args[..]].concat())
    };
    let txt = dir.join("r.txt");
    refused(&record(&txt), "the file name must end in .sgf or .mat");
    assert!(!txt.exists());
    let mat = dir.join("r.MAT");
    let o = record(&mat);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::str::from_utf8(&bytes(&mat)).unwrap().contains("point match"));
}

const CURVE_HEADER: &str =
    "games,elapsed_s,games_per_s,alpha,bench_games,ppg,se,win_rate,gammon_rate,gammon_loss_rate\n";

#[test]
fn curves_with_numbers_that_are_not_finite_are_an_error_not_a_hang() {
    let dir = scratch("audit-curve");
    let png = dir.join("v.png");
    for (row, x, says) in [
        (
            "1000,10,100,0.1,200,inf,0.1,0.4,0.1,0.1",
            "games",
            "ppg inf is not a finite number",
        ),
        (
            "1000,10,100,0.1,200,0.1,inf,0.4,0.1,0.1",
            "games",
            "se inf is not a finite number",
        ),
        (
            "1000,10,100,0.1,200,nan,0.1,0.4,0.1,0.1",
            "games",
            "ppg NaN is not a finite number",
        ),
        (
            "1000,inf,100,0.1,200,0.1,0.1,0.4,0.1,0.1",
            "minutes",
            "elapsed_s inf is not a finite number",
        ),
    ] {
        let csv = dir.join("v.csv");
        std::fs::write(
            &csv,
            format!("{CURVE_HEADER}0,0,0,0.2,200,-2,0.1,0.1,0,0.3\n{row}\n"),
        )
        .unwrap();
        let o = trainer_within(
            &["curve", "--input", s(&csv), "-o", s(&png), "--x", x],
            Duration::from_secs(60),
        );
        refused(&o, &format!("v.csv:3: {says}"));
        assert!(!png.exists());
    }
    // Degenerate but finite curves draw: one row; every row the same.
    for rows in [
        "5,0,0,0.2,200,0.3,0,0.1,0,0.3\n",
        "0,0,0,0.2,200,0,0,0.5,0,0\n0,0,0,0.2,200,0,0,0.5,0,0\n",
    ] {
        let csv = dir.join("d.csv");
        std::fs::write(&csv, format!("{CURVE_HEADER}{rows}")).unwrap();
        let o = trainer_within(
            &["curve", "--input", s(&csv), "-o", s(&png), "--force"],
            Duration::from_secs(60),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(&bytes(&png)[..8], b"\x89PNG\r\n\x1a\n");
    }
}

/// A bgkit benchmark set: the header, then one line per entry.
fn write_set(path: &Path, lines: &[String]) {
    let mut text = String::from("{\"format\":\"bgkit-benchmark\",\"version\":1}\n");
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn benchmark_sets_without_positions_or_with_damaged_candidates_are_errors() {
    let dir = scratch("audit-bench");
    let empty = dir.join("bh.jsonl");
    write_set(&empty, &[]);
    let o = trainer(&["benchmark", "--weights", "pubeval", "--set", s(&empty)]);
    refused(&o, &format!("{} holds no positions", s(&empty)));
    // The opening 3-1: the first two legal moves as candidates; then the same line with
    // a second candidate no 3-1 reaches (the position after a 6-5).
    let start = Variant::Backgammon.start();
    let mut gen = MoveGen::new();
    let d31 = board::Dice::new(3, 1).unwrap();
    let d65 = board::Dice::new(6, 5).unwrap();
    let m31: Vec<_> = gen.moves(&start, d31).iter().map(|m| m.result).collect();
    let m65 = gen.moves(&start, d65)[0].result;
    assert!(!m31.contains(&m65) && !m31.iter().any(|r| r.swapped() == m65));
    let line = |a: &board::Position, b: &board::Position| {
        format!(
            "{{\"position_id\":\"{}\",\"dice\":[3,1],\"class\":\"contact\",\"candidates\":[{{\"move\":\"\",\"after_id\":\"{}\",\"equity\":0.16}},{{\"move\":\"\",\"after_id\":\"{}\",\"equity\":0.05}}]}}",
            start.position_id(),
            a.position_id(),
            b.position_id()
        )
    };
    let set = dir.join("b.jsonl");
    write_set(
        &set,
        &[line(&m31[0], &m31[1]), String::new(), line(&m31[0], &m65)],
    );
    let o = trainer(&["benchmark", "--weights", "pubeval", "--set", s(&set)]);
    refused(
        &o,
        &format!(
            "{}:4: candidate 2 (after_id {}) is not reached by any legal move of 3-1",
            s(&set),
            m65.position_id()
        ),
    );
    // Without the damaged line the set scores, and players are named as duels name them.
    write_set(&set, &[line(&m31[0], &m31[1])]);
    // A set given twice, as itself or as a copy, would count its positions twice.
    let copy = dir.join("copy.jsonl");
    std::fs::copy(&set, &copy).unwrap();
    for (twice, what) in [(&set, "the same file"), (&copy, "the same contents")] {
        let o = trainer(&[
            "benchmark",
            "--weights",
            "pubeval",
            "--set",
            s(&set),
            "--set",
            s(twice),
        ]);
        refused(
            &o,
            &format!(
                "--set {} and --set {} are {what}; give each set once",
                s(&set),
                s(twice)
            ),
        );
    }
    if have(&[WD, OS, TS]) {
        let o = trainer(&[
            "benchmark",
            "--weights",
            "gnubg:",
            "--set",
            s(&set),
            "--json",
            "--bearoff-os",
            OS,
            "--bearoff-ts",
            TS,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["player"], "gnubg");
        assert_eq!(v["classes"][0]["positions"], 1);
    }
}

#[test]
fn lookahead_and_minutes_messages_say_what_is_valid() {
    for bad in ["gnubg:@-1", "gnubg:@x", "gnubg:@5"] {
        let o = trainer(&["duel", "--a", bad, "--b", "pubeval", "--games", "2", "--quiet"]);
        refused(&o, &format!("player A: player '{bad}': lookahead @"));
        refused(&o, "a lookahead is @0 to @4");
    }
    let dir = scratch("audit-minutes");
    for (sub, extra) in [
        ("td", vec!["--games", "10", "--no-bearoff"]),
        ("supervised", vec!["--data", "x.bgds", "--class", "contact"]),
    ] {
        let out = dir.join(sub);
        let mut args = vec![sub, "--minutes", "1e300", "--out", s(&out)];
        args.extend(extra);
        let o = trainer(&args);
        refused(
            &o,
            "--minutes 1e300 is longer than a thousand years (the most it accepts is 525960000 minutes)",
        );
        assert!(stderr(&o).len() < 200, "{}", stderr(&o));
        assert!(!out.exists());
    }
}

#[test]
fn tourney_stale_after_is_a_time_like_every_other() {
    let dir = scratch("audit-stale");
    let t = dir.join("t.json");
    let new = |extra: &[&str]| {
        let mut args = vec![
            "tourney",
            "new",
            s(&t),
            "--participants",
            "pubeval",
            "random",
            "--games-per-pairing",
            "2",
        ];
        args.extend(extra);
        trainer(&args)
    };
    // 0 would count every claim of another host as abandoned at once.
    for (bad, says) in [
        ("0", "--stale-after must be a positive number of seconds, got 0"),
        ("-5", "--stale-after must be a positive number of seconds, got -5"),
        ("1e300", "--stale-after 1e300 is longer than a thousand years"),
    ] {
        refused(&new(&["--stale-after", bad, "--force"]), says);
        assert!(!t.exists());
    }
    let o = new(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    refused(
        &trainer(&["tourney", "run", s(&t), "--stale-after", "0", "--quiet"]),
        "--stale-after must be a positive number of seconds, got 0",
    );
    // A fraction, as gen-bearoff's --stale-after takes: claims are stamped in whole
    // seconds, so 1.5 s is 2.
    assert!(new(&["--stale-after", "1.5", "--force"]).status.success());
    let file: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&t).unwrap()).unwrap();
    assert_eq!(file["settings"]["stale_after_s"], 2);
}

#[test]
fn init_values_of_other_flags_get_a_hint_not_a_missing_file() {
    let dir = scratch("audit-init");
    let out = dir.join("o");
    let supervised = |init: &'static str| {
        let out = s(&out);
        vec![
            "supervised",
            "--data",
            "x.bgds",
            "--class",
            "contact",
            "--out",
            out,
            "--init",
            init,
        ]
    };
    // `gnubg` is td's uniform initialisation (supervised used to look for a file `gnubg`);
    // `gnubg:` names gnubg's nets as a player, not a file, in both commands.
    for (args, needle) in [
        (
            supervised("gnubg"),
            "'gnubg' is an initialisation of `trainer td`",
        ),
        (supervised("gnubg:"), "'gnubg:' is a player"),
        (
            vec!["td", "--games", "10", "--out", s(&out), "--init", "gnubg:"],
            "'gnubg:' is a player",
        ),
        (
            vec![
                "td",
                "--games",
                "10",
                "--out",
                s(&out),
                "--init",
                "gnubg:/my/nets.wd",
            ],
            "--init takes the weights file itself: --init /my/nets.wd",
        ),
    ] {
        refused(&trainer(&args), needle);
    }
    assert!(!out.exists());
}

/// A child process killed when dropped, also when the test fails.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_run_directory_is_used_by_one_trainer_at_a_time() {
    let dir = scratch("audit-run-lock");
    let out = dir.join("run");
    // A long run (killed below), with a checkpoint soon after it starts.
    let run = [
        "td",
        "--games",
        "100000000",
        "--encoding",
        "tesauro",
        "--hidden",
        "8",
        "--no-bearoff",
        "--threads",
        "1",
        "--bench-every",
        "0",
        "--checkpoint-every",
        "100",
        "--quiet",
        "--out",
    ];
    let mut first = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_trainer"))
            .args(run)
            .arg(&out)
            .spawn()
            .unwrap(),
    );
    let state = out.join("state.json");
    let t0 = Instant::now();
    while !state.exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the first run wrote no checkpoint"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A second session of the same run, and a new run over it with --force (which would
    // remove the first one's files): both refused at once (unrefused, they would train
    // on: cut off, failing, after 30 s), the first run's files left alone.
    let busy = "another trainer run is using this directory (it is locked)";
    let limit = Duration::from_secs(30);
    let resume = ["td", "--resume", s(&out), "--games", "200000000", "--quiet"];
    refused(&trainer_within(&resume, limit), busy);
    let mut over = run.to_vec();
    over.extend([s(&out), "--force"]);
    refused(&trainer_within(&over, limit), busy);
    assert!(state.exists() && out.join("net.wd").exists());
    assert!(first.0.try_wait().unwrap().is_none(), "the first run goes on");
    drop(first);
    // Its lock went with it: the run resumes.
    let o = trainer(&[
        "td",
        "--resume",
        s(&out),
        "--games",
        "200000000",
        "--minutes",
        "0.002",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

//! The `trainer` command line: outputs, files, exit codes and error messages.

mod common;

use common::{dir_names, fails_with, killed_writers_temps, scratch, stderr, trainer};

#[test]
fn duel_prints_json_with_the_documented_fields() {
    let o = trainer(&[
        "duel", "--a", "pubeval", "--b", "random", "--games", "20", "--seed", "5", "--json", "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for field in ["games", "ppg", "se", "win_rate", "gammon_rate", "backgammon_rate"] {
        assert!(v.get(field).is_some(), "missing {field}: {v}");
    }
    assert_eq!(v["games"], 20);
    // pubeval crushes a random player.
    assert!(v["ppg"].as_f64().unwrap() > 1.0);
    // Same seed, same result; the thread count does not matter.
    let again = trainer(&[
        "duel",
        "--a",
        "pubeval",
        "--b",
        "random",
        "--games",
        "20",
        "--seed",
        "5",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(o.stdout, again.stdout);
}

#[test]
fn duel_records_every_game() {
    let dir = scratch("cli-record");
    let sgf = dir.join("duel.sgf");
    let o = trainer(&[
        "duel",
        "--a",
        "pubeval",
        "--b",
        "random",
        "--games",
        "6",
        "--quiet",
        "--sgf",
        sgf.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let matches = board::records::load(&sgf).unwrap();
    let games: usize = matches.iter().map(|m| m.games.len()).sum();
    assert_eq!(games, 6);
    assert_eq!(matches[0].players, ["pubeval".to_string(), "random".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_duel_arguments_are_errors() {
    fails_with(
        &["duel", "--a", "pubeval", "--b", "random", "--games", "3"],
        "even",
    );
    fails_with(
        &["duel", "--a", "/no/such/net.wd", "--b", "random", "--games", "2"],
        "no such file",
    );
    fails_with(
        &[
            "duel", "--a", "pubeval", "--b", "random", "--games", "2", "--record", "x.txt2",
        ],
        ".sgf or .mat",
    );
    let dir = scratch("cli-bad-weights");
    let junk = dir.join("junk.wd");
    let duel_junk = |needle: &str| {
        let args = [
            "duel",
            "--a",
            junk.to_str().unwrap(),
            "--b",
            "random",
            "--games",
            "2",
        ];
        fails_with(&args, needle);
    };
    std::fs::write(&junk, b"not weights").unwrap();
    duel_junk("not a gnubg weights file");
    // Another tool's metadata beside the weights leaves them gnubg's nets (the file is
    // still junk); a damaged trainer sidecar is reported by its name.
    std::fs::write(dir.join("junk.json"), b"{\"format\": 1}").unwrap();
    duel_junk("not a gnubg weights file");
    std::fs::write(dir.join("junk.json"), b"{\"format\": \"bgkit-trainer-net\"}").unwrap();
    duel_junk("junk.json");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn td_stops_at_its_time_limit_with_a_checkpoint() {
    let dir = scratch("cli-minutes");
    let out = dir.join("run");
    let o = trainer(&[
        "td",
        "--games",
        "100000000",
        "--minutes",
        "0.002",
        "--out",
        out.to_str().unwrap(),
        "--encoding",
        "tesauro",
        "--hidden",
        "8",
        "--no-bearoff",
        "--threads",
        "2",
        "--bench-every",
        "1000000",
        "--bench-games",
        "4",
        "--quiet",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let games = v["games"].as_u64().unwrap();
    assert!(games < 100_000_000);
    let state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["games"].as_u64(), Some(games));
    assert!(out.join(format!("state-{games}.wd")).exists());
    // The stop point is benchmarked too (rows at 0 and at the stop, if any games).
    let rows = std::fs::read_to_string(out.join("curve.csv"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(rows, if games > 0 { 3 } else { 2 });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn td_trains_checkpoints_and_resumes() {
    let dir = scratch("cli-td");
    let out = dir.join("run");
    let run = out.to_str().unwrap();
    let small = [
        "--encoding",
        "tesauro",
        "--hidden",
        "8",
        "--no-bearoff",
        "--threads",
        "1",
        "--checkpoint-every",
        "4",
        "--bench-every",
        "4",
        "--bench-games",
        "4",
        "--quiet",
    ];
    let mut args = vec!["td", "--games", "8", "--out", run];
    args.extend(small);
    let o = trainer(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("8 games"));
    assert_eq!(
        dir_names(&out),
        [
            "curve.csv",
            "curve.png",
            "net.json",
            "net.wd",
            "net.weights",
            "state-8.wd",
            "state.json"
        ]
    );
    let curve = std::fs::read_to_string(out.join("curve.csv")).unwrap();
    assert_eq!(
        curve.lines().count(),
        4,
        "header and rows at 0, 4, 8 games:\n{curve}"
    );
    // The trained net plays in duels through its sidecar.
    let net = out.join("net.wd");
    let o = trainer(&[
        "duel",
        "--a",
        net.to_str().unwrap(),
        "--b",
        "random",
        "--games",
        "2",
        "--json",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A writer killed mid-write (kill -9) left its temporary file: resuming removes
    // it, but not one whose writer is still alive.
    let (gone, alive) = killed_writers_temps(&out);
    // Resuming continues to the new total; settings cannot change.
    let o = trainer(&["td", "--resume", run, "--games", "12", "--quiet", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!gone.exists() && alive.exists());
    std::fs::remove_file(&alive).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 12);
    fails_with(
        &["td", "--resume", run, "--games", "16", "--alpha", "0.5"],
        "--alpha cannot be given with --resume",
    );
    fails_with(&["td", "--resume", run, "--games", "4"], "already has 12 games");
    let state = out.join("state.json");
    let s_state = state.to_str().unwrap();
    let mut again = vec!["td", "--games", "8", "--out", run];
    again.extend(small);
    // The output rule: another run's files are refused (without --force).
    fails_with(&again, "holds another run's files");
    // A file where the run's directory should be.
    let mut onto_file = vec!["td", "--games", "8", "--out", s_state];
    onto_file.extend(small);
    fails_with(&onto_file, "state.json is not a directory");
    // A damaged checkpoint is reported with its file name.
    std::fs::write(out.join("state.json"), b"{\"format\":").unwrap();
    fails_with(&["td", "--resume", run, "--games", "16"], "state.json");
    fails_with(
        &[
            "td",
            "--games",
            "8",
            "--out",
            dir.join("x").to_str().unwrap(),
            "--lambda",
            "2",
        ],
        "--lambda",
    );
    fails_with(
        &[
            "td",
            "--games",
            "8",
            "--out",
            dir.join("x").to_str().unwrap(),
            "--minutes",
            "0",
        ],
        "--minutes",
    );
    fails_with(
        &[
            "td",
            "--games",
            "8",
            "--out",
            dir.join("y").to_str().unwrap(),
            "--layout",
            "single",
        ],
        "split layout",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

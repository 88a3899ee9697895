//! A full disk (issue 19): a failed write ends the command with one error naming the
//! file, exit 2, and leaves no temporary file; a tournament file keeps its last
//! complete state. The disk is "full" through a file-size limit, which fails writes
//! as a full disk does.

use std::path::Path;

use test_support::cli::*;
use test_support::{md5_hex, Scratch};

const BIN: &str = env!("CARGO_BIN_EXE_trainer");
const TOOL: &str = "trainer";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_full_disk_leaves_no_temporary_file() {
    let dir = Scratch::new("trainer-disk-full", "out");
    // 100 recorded games of pubeval against itself are about 60 KB of SGF.
    let sgf = dir.join("games.sgf");
    let duel = [
        "duel",
        "--a",
        "pubeval",
        "--b",
        "pubeval",
        "--games",
        "100",
        "--seed",
        "1",
        "--quiet",
        "--record",
        s(&sgf),
    ];
    case_disk_full(TOOL, BIN, &duel, 16, "games.sgf", &dir, &[]);

    // A TD run's nets (gnubg encoding, 128 hidden) are over 100 KB each.
    let td_dir = dir.join("td");
    let td = [
        "td",
        "--games",
        "1",
        "--threads",
        "1",
        "--no-bearoff",
        "--bench-every",
        "0",
        "--quiet",
        "--out",
        s(&td_dir),
    ];
    // The run directory the run made is removed with what was in it: nothing is left.
    case_disk_full(TOOL, BIN, &td, 16, "td/", &dir, &[]);
    assert!(!td_dir.exists());
}

#[test]
fn a_full_disk_keeps_the_tournament_file() {
    let dir = Scratch::new("trainer-disk-full", "tourney");
    let t = dir.join("t.json");
    let new = [
        "tourney",
        "new",
        s(&t),
        "--participants",
        "pubeval",
        "random",
        "--games-per-pairing",
        "40",
    ];
    assert_eq!(run(BIN, &new).code, Some(0));
    let before = md5_hex(&std::fs::read(&t).unwrap());
    // The file (2 KB) grows with every recorded game: 1 KiB is reached at once.
    let args = ["tourney", "run", s(&t), "-j", "1", "--quiet"];
    case_disk_full(TOOL, BIN, &args, 1, "t.json", &dir, &["t.json"]);
    assert_eq!(
        md5_hex(&std::fs::read(&t).unwrap()),
        before,
        "t.json is unchanged"
    );
    // With space again, the tournament runs to its end from that state.
    let r = run(BIN, &args);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let sgf = dir.join("all.sgf");
    let export = ["tourney", "export", s(&t), "--collection", s(&sgf), "--quiet"];
    case_disk_full(TOOL, BIN, &export, 4, "all.sgf", &dir, &["t.json"]);
}

//! `trainer tourney` end to end: schedules, several worker processes on one file,
//! resumption after `kill -9`, sync, upgrades and replacements, malformed files.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{dir_names, fails_with_all, scratch, stderr, trainer};
use serde_json::Value;
use trainer::tourney::file::{self, Tournament};

fn ok(args: &[&str]) -> String {
    let o = trainer(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Creates a tournament file.
fn new(path: &Path, participants: &[&str], extra: &[&str]) {
    let mut args = vec!["tourney", "new", s(path), "--participants"];
    args.extend_from_slice(participants);
    args.extend_from_slice(extra);
    ok(&args);
}

fn load(path: &Path) -> Tournament {
    file::read(path).unwrap()
}

fn standings(path: &Path) -> Value {
    serde_json::from_str(&ok(&["tourney", "standings", s(path), "--json"])).unwrap()
}

/// `(id, winner, points, turns)` of every finished game.
fn results(t: &Tournament) -> Vec<(u64, usize, u8, u32)> {
    t.games()
        .filter_map(|(_, p, g)| {
            g.result
                .map(|r| (g.id, p.players[usize::from(r.winner)], r.points, r.turns))
        })
        .collect()
}

const THREE: [&str; 3] = ["pubeval", "random", "r2=random"];

#[test]
fn tourney_round_robin_runs_to_the_end_and_reports_standings() {
    let dir = scratch("tourney-rr");
    let f = dir.join("t.json");
    new(
        &f,
        &THREE,
        &["--games-per-pairing", "4", "--cycles", "2", "--seed", "3"],
    );
    let t = load(&f);
    // 3 participants: 3 rounds, one pairing each (and a bye), per cycle.
    assert_eq!(t.schedule.len(), 2);
    assert!(t
        .schedule
        .iter()
        .all(|c| c.rounds.len() == 3 && c.rounds.iter().all(|r| r.byes.len() == 1)));
    assert_eq!(t.games_total(), 24);
    let v = standings(&f);
    assert_eq!(
        (v["games_played"].as_u64(), v["games_total"].as_u64()),
        (Some(0), Some(24))
    );
    let out = ok(&["tourney", "run", s(&f), "--workers", "2", "--quiet", "--json"]);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["played"], 24);
    let v = standings(&f);
    assert_eq!(
        (v["games_played"].as_u64(), v["games_total"].as_u64()),
        (Some(24), Some(24))
    );
    let parts = v["participants"].as_array().unwrap();
    assert_eq!(parts.len(), 3);
    let sum = |k: &str| parts.iter().map(|p| p[k].as_i64().unwrap()).sum::<i64>();
    assert_eq!(sum("points"), 0, "points are zero-sum");
    assert_eq!(sum("wins"), 24, "one winner per game");
    assert_eq!(sum("games"), 48);
    // pubeval beats random players by far.
    assert!(
        parts[0]["ppg"].as_f64().unwrap() > 1.0 && parts[0]["elo"].as_f64().unwrap() > 100.0,
        "{v}"
    );
    let text = ok(&["tourney", "standings", s(&f)]);
    assert!(
        text.contains("24 of 24 games played") && text.contains("Cross table"),
        "{text}"
    );
    // A second run has nothing to do.
    let r: Value = serde_json::from_str(&ok(&["tourney", "run", s(&f), "--quiet", "--json"])).unwrap();
    assert_eq!(r["played"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tourney_gauntlet_and_swiss_schedules() {
    let dir = scratch("tourney-kinds");
    let g = dir.join("g.json");
    new(
        &g,
        &["pubeval", "random", "r2=random", "r3=random"],
        &["--type", "gauntlet", "--games-per-pairing", "2"],
    );
    let t = load(&g);
    let pairs: Vec<[usize; 2]> = t.schedule[0]
        .rounds
        .iter()
        .flat_map(|r| r.pairings.iter().map(|p| p.players))
        .collect();
    assert_eq!(pairs, vec![[0, 1], [0, 2], [0, 3]]);
    ok(&["tourney", "run", s(&g), "--quiet"]);
    assert_eq!(standings(&g)["games_played"], 6);

    // Swiss, 5 participants, 3 rounds: 2 pairings and a bye per round, rounds
    // generated as the previous one finishes, no pair meeting twice.
    let sw = dir.join("s.json");
    let five = ["pubeval", "random", "r2=random", "r3=random", "r4=random"];
    new(
        &sw,
        &five,
        &["--type", "swiss:3", "--games-per-pairing", "2", "--seed", "9"],
    );
    let t = load(&sw);
    assert_eq!(t.schedule[0].rounds.len(), 1, "only the first round exists");
    assert_eq!(t.games_total(), 12);
    ok(&["tourney", "run", s(&sw), "--workers", "2", "--quiet"]);
    let t = load(&sw);
    assert_eq!(t.schedule[0].rounds.len(), 3);
    assert_eq!(t.games_played(), 12);
    let mut met = std::collections::HashSet::new();
    let mut byes: Vec<usize> = Vec::new();
    for round in &t.schedule[0].rounds {
        assert_eq!((round.pairings.len(), round.byes.len()), (2, 1));
        byes.extend(&round.byes);
        for p in &round.pairings {
            let [a, b] = p.players;
            assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
        }
    }
    byes.sort_unstable();
    byes.dedup();
    assert_eq!(byes.len(), 3, "three different byes");
    // Same seed, same tournament.
    let sw2 = dir.join("s2.json");
    new(
        &sw2,
        &five,
        &["--type", "swiss:3", "--games-per-pairing", "2", "--seed", "9"],
    );
    ok(&["tourney", "run", s(&sw2), "--quiet"]);
    assert_eq!(std::fs::read(&sw).unwrap(), std::fs::read(&sw2).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Spawns `trainer tourney run` in the background.
fn spawn_run(f: &Path, extra: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(["tourney", "run", s(f), "--quiet", "--json"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn tourney_concurrent_workers_play_every_game_exactly_once() {
    let dir = scratch("tourney-concurrent");
    let shared = dir.join("shared.json");
    let alone = dir.join("alone.json");
    let args = ["--games-per-pairing", "40", "--seed", "11"];
    new(&shared, &THREE, &args);
    new(&alone, &THREE, &args);
    ok(&["tourney", "run", s(&alone), "--workers", "1", "--quiet"]);
    // Three processes of two threads each, claiming one game at a time so that they
    // contend for the lock all the time.
    let children: Vec<_> = (0..3)
        .map(|_| spawn_run(&shared, &["--workers", "2", "--batch", "1"]))
        .collect();
    let mut played = 0;
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let r: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(r["discarded"], 0);
        assert_eq!(r["reclaimed"], 0, "no worker died");
        played += r["played"].as_u64().unwrap();
    }
    // Each of the 120 games recorded by exactly one process, none lost.
    assert_eq!(played, 120);
    let t = load(&shared);
    assert_eq!(t.games_played(), 120);
    assert!(t.games().all(|(_, _, g)| g.running.is_none()));
    // The results do not depend on who played what: same file as a single worker's.
    assert_eq!(std::fs::read(&shared).unwrap(), std::fs::read(&alone).unwrap());
    // No temporary file of the tourney's writes is left, and no lock file.
    assert_eq!(dir_names(&dir), vec!["alone.json", "shared.json"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tourney_lock_files_of_dead_processes_and_older_versions_do_not_block() {
    let dir = scratch("tourney-stale-lock");
    let f = dir.join("t.json");
    new(&f, &THREE, &["--games-per-pairing", "4", "--seed", "2"]);
    let lock = dir.join("t.json.lock");
    // The empty file older versions flocked, then the lock of a process of this host
    // that has exited: both are broken at once (a live holder elsewhere would be
    // waited for, up to a minute).
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    let host = trainer::tourney::worker::hostname();
    for stale in [String::new(), format!("{host} {pid} 1 0\n")] {
        std::fs::write(&lock, stale).unwrap();
        // Two worker threads: together they claim exactly --max-games.
        ok(&[
            "tourney",
            "run",
            s(&f),
            "--quiet",
            "--max-games",
            "2",
            "--workers",
            "2",
        ]);
        assert!(!lock.exists());
    }
    assert_eq!(load(&f).games_played(), 4);
    // Four threads claiming one game at a time stop at exactly --max-games together.
    ok(&[
        "tourney",
        "run",
        s(&f),
        "-q",
        "--max-games",
        "3",
        "-j",
        "4",
        "--batch",
        "1",
    ]);
    assert_eq!(load(&f).games_played(), 7);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tourney_resumes_after_kill_9() {
    let dir = scratch("tourney-kill");
    let f = dir.join("t.json");
    let reference = dir.join("ref.json");
    let args = ["--games-per-pairing", "100", "--seed", "5"];
    new(&f, &THREE, &args);
    new(&reference, &THREE, &args);
    ok(&["tourney", "run", s(&reference), "--quiet"]);
    // One game at a time, so that it is always in the middle of one.
    let mut child = spawn_run(&f, &["--workers", "1", "--batch", "1"]);
    let pid = child.id();
    let signal = |sig: &str| {
        // The shell's built-in kill: no procps needed.
        let st = Command::new("sh")
            .args(["-c", &format!("kill {sig} {pid}")])
            .status()
            .unwrap();
        assert!(st.success(), "kill {sig}");
    };
    // Stop it (SIGSTOP) at a moment when the file shows a game in progress, then
    // SIGKILL it: no chance to clean up.
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "never caught the run in a game"
        );
        std::thread::sleep(Duration::from_millis(5));
        if file::read(&f).map_or(true, |t| t.games_played() < 5) {
            continue;
        }
        signal("-STOP");
        std::thread::sleep(Duration::from_millis(10));
        if load(&f).games().any(|(_, _, g)| g.running.is_some()) {
            break;
        }
        signal("-CONT");
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let t = load(&f);
    let done = t.games_played();
    assert!(
        done < 300,
        "killed too late to prove anything ({done} games done)"
    );
    let marked: Vec<_> = t.games().filter_map(|(_, _, g)| g.running.clone()).collect();
    assert_eq!(
        marked.len(),
        1,
        "the dead worker's game is still marked in progress"
    );
    assert_eq!(marked[0].pid, pid);
    // Standings show it as in progress.
    assert_eq!(standings(&f)["games_running"], 1);
    // A new run takes the dead worker's game over and finishes the tournament.
    let r: Value = serde_json::from_str(&ok(&["tourney", "run", s(&f), "--quiet", "--json"])).unwrap();
    assert_eq!(r["reclaimed"], 1);
    assert_eq!(r["played"].as_u64().unwrap(), 300 - done);
    let t = load(&f);
    assert_eq!(t.games_played(), 300);
    assert_eq!(results(&t), results(&load(&reference)));
    assert_eq!(std::fs::read(&f).unwrap(), std::fs::read(&reference).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Marks game `id` as claimed by the live process `pid` (this test), as a worker
/// still playing it would.
fn plant_claim(f: &Path, id: u64) {
    let mut t = load(f);
    let slot = t.games().find(|(_, _, g)| g.id == id).unwrap().0;
    t.game_mut(slot).running = Some(file::Claim {
        host: trainer::tourney::worker::hostname(),
        pid: std::process::id(),
        start: 0,
        thread: 0,
        since: trainer::tourney::worker::now(),
        versions: [0, 0],
    });
    std::fs::write(f, file::to_text(&t)).unwrap();
}

#[test]
fn tourney_sync_waits_for_the_round() {
    let dir = scratch("tourney-sync");
    let f = dir.join("t.json");
    new(&f, &THREE, &["--games-per-pairing", "4"]);
    // Game 1 of round 1 is being played by a live worker.
    plant_claim(&f, 1);
    // With --sync round, only the rest of round 1 can be played.
    let r: Value = serde_json::from_str(&ok(&[
        "tourney",
        "run",
        s(&f),
        "--sync",
        "round",
        "--no-wait",
        "--quiet",
        "--json",
    ]))
    .unwrap();
    assert_eq!(r["played"], 3);
    let t = load(&f);
    assert!(t.schedule[0].rounds[1..]
        .iter()
        .all(|r| r.pairings[0].games.iter().all(|g| g.result.is_none())));
    // Without it, everything but the claimed game.
    let r: Value =
        serde_json::from_str(&ok(&["tourney", "run", s(&f), "--no-wait", "--quiet", "--json"])).unwrap();
    assert_eq!(r["played"], 8);
    assert_eq!(load(&f).games_played(), 11);
    // The claim of a live process is respected; once it is gone, the game is played.
    let mut t = load(&f);
    let slot = t.games().find(|(_, _, g)| g.id == 1).unwrap().0;
    t.game_mut(slot).running.as_mut().unwrap().pid = u32::MAX - 7;
    std::fs::write(&f, file::to_text(&t)).unwrap();
    let r: Value = serde_json::from_str(&ok(&["tourney", "run", s(&f), "--quiet", "--json"])).unwrap();
    assert_eq!(
        (r["played"].as_u64(), r["reclaimed"].as_u64()),
        (Some(1), Some(1))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tourney_upgrade_and_replace_participants() {
    let dir = scratch("tourney-change");
    let f = dir.join("t.json");
    let args = ["--games-per-pairing", "6", "--seed", "2"];
    new(&f, &["pubeval", "opp=random"], &args);
    ok(&[
        "tourney",
        "run",
        s(&f),
        "--max-games",
        "2",
        "--batch",
        "1",
        "--workers",
        "1",
        "--quiet",
    ]);
    // Upgrade: the two games played stay, the rest are played by the new player.
    let out = ok(&["tourney", "upgrade", s(&f), "opp", "pubeval"]);
    assert!(out.contains("version 1"), "{out}");
    ok(&["tourney", "run", s(&f), "--quiet"]);
    let t = load(&f);
    let versions: Vec<[usize; 2]> = t.games().map(|(_, _, g)| g.result.unwrap().versions).collect();
    assert_eq!(versions, vec![[0, 0], [0, 0], [0, 1], [0, 1], [0, 1], [0, 1]]);
    // Pubeval against itself with duplicate dice: each stream gives one win each.
    let later = &results(&t)[2..];
    assert_eq!(later[0].1 + later[1].1, 1, "{later:?}");
    // Export replays each game with the version that played it: random for the first
    // two, pubeval after; the records end as the file says.
    let (sgf, mat, all) = (dir.join("sgf"), dir.join("mat"), dir.join("all.sgf"));
    ok(&[
        "tourney",
        "export",
        s(&f),
        "--sgf",
        s(&sgf),
        "--mat",
        s(&mat),
        "--collection",
        s(&all),
        "--quiet",
    ]);
    let name = "c01-r01-p01-pubeval-vs-opp";
    for path in [
        sgf.join(format!("{name}.sgf")),
        mat.join(format!("{name}.mat")),
        all.clone(),
    ] {
        let m = board::records::load(&path).unwrap();
        assert_eq!(m.len(), 1, "{}", path.display());
        let got: Vec<(usize, u32)> = m[0]
            .games
            .iter()
            .map(|g| g.result.map(|r| (r.winner.index(), r.points)).unwrap())
            .collect();
        let want: Vec<(usize, u32)> = t
            .games()
            .map(|(_, _, g)| {
                g.result
                    .map(|r| (usize::from(r.winner), u32::from(r.points)))
                    .unwrap()
            })
            .collect();
        assert_eq!(got, want, "{}", path.display());
    }
    // Replace (by number): every result erased and replayed by the new player,
    // giving what a fresh tournament of the same players gives.
    let out = ok(&["tourney", "replace", s(&f), "2", "random"]);
    assert!(out.contains("6 results erased"), "{out}");
    assert_eq!(standings(&f)["games_played"], 0);
    ok(&["tourney", "run", s(&f), "--quiet"]);
    let fresh = dir.join("fresh.json");
    new(&fresh, &["pubeval", "opp=random"], &args);
    ok(&["tourney", "run", s(&fresh), "--quiet"]);
    assert_eq!(results(&load(&f)), results(&load(&fresh)));
    let t = load(&f);
    assert_eq!(t.participants[1].specs, vec!["random", "pubeval", "random"]);
    assert_eq!(t.participants[1].results_from, 2);
    assert!(t.games().all(|(_, _, g)| g.result.unwrap().versions == [0, 2]));
    fails_with_all(
        &["tourney", "upgrade", s(&f), "7", "pubeval"],
        &["no participant '7'"],
    );
    fails_with_all(
        &["tourney", "replace", s(&f), "opp", "/no/such.wd"],
        &["no such file"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tourney_bad_arguments_are_errors() {
    let dir = scratch("tourney-args");
    let f = dir.join("t.json");
    let fs = s(&f);
    fails_with_all(
        &[
            "tourney",
            "new",
            fs,
            "--participants",
            "pubeval",
            "random",
            "--games-per-pairing",
            "3",
        ],
        &["even"],
    );
    // More games than a file can hold: refused before anything is built (it used to
    // abort on a 448 GB allocation), also when the cycles make the count.
    // A gauntlet's first N meet each other too: gauntlet:4 of 5 is 10 pairings a cycle.
    let five = ["pubeval", "random", "a=random", "b=random", "c=random"];
    for (kind, g, cycles, total) in [
        ("round-robin", "4000000000", "1", "4000000000 games (1 pairings"),
        ("round-robin", "4", "4000000000", "16000000000 games"),
        ("gauntlet:4", "1000002", "1", "10000020 games (10 pairings"),
    ] {
        let mut args = vec!["tourney", "new", fs, "--type", kind, "--participants"];
        args.extend(if kind == "round-robin" {
            &five[..2]
        } else {
            &five[..]
        });
        args.extend(["--games-per-pairing", g, "--cycles", cycles]);
        fails_with_all(&args, &[total, "at most 10000000"]);
    }
    fails_with_all(
        &[
            "tourney",
            "new",
            fs,
            "--participants",
            "pubeval",
            "random",
            "--games-per-pairing",
            "2",
            "--type",
            "gauntlet:2",
        ],
        &["gauntlet:2"],
    );
    fails_with_all(
        &[
            "tourney",
            "new",
            fs,
            "--participants",
            "pubeval",
            "random",
            "--games-per-pairing",
            "2",
            "--type",
            "knockout",
        ],
        &["knockout"],
    );
    fails_with_all(
        &[
            "tourney",
            "new",
            fs,
            "--participants",
            "pubeval",
            "/no/net.wd",
            "--games-per-pairing",
            "2",
        ],
        &["no such file"],
    );
    fails_with_all(
        &[
            "tourney",
            "new",
            fs,
            "--participants",
            "x=pubeval",
            "x=random",
            "--games-per-pairing",
            "2",
        ],
        &["named 'x'"],
    );
    new(&f, &["pubeval", "random"], &["--games-per-pairing", "2"]);
    fails_with_all(
        &[
            "tourney",
            "new",
            fs,
            "--participants",
            "pubeval",
            "random",
            "--games-per-pairing",
            "2",
        ],
        &["exists"],
    );
    ok(&[
        "tourney",
        "new",
        fs,
        "--participants",
        "pubeval",
        "random",
        "--games-per-pairing",
        "2",
        "--force",
    ]);
    fails_with_all(&["tourney", "run", fs, "--sync", "sometimes"], &["sometimes"]);
    fails_with_all(&["tourney", "export", fs], &["nothing to export"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `text` to a file in `dir` and checks that `run` and `standings` refuse it
/// with an error naming the file and containing `needle`.
fn refused(dir: &Path, name: &str, text: &str, needle: &str) {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).unwrap();
    for cmd in ["run", "standings"] {
        fails_with_all(
            &["tourney", cmd, s(&path), "--quiet"][..if cmd == "run" { 4 } else { 3 }],
            &[s(&path), needle],
        );
    }
}

#[test]
fn tourney_malformed_files_are_refused_with_the_reason() {
    let dir = scratch("tourney-malformed");
    let f = dir.join("good.json");
    new(&f, &THREE, &["--games-per-pairing", "2"]);
    let good = std::fs::read_to_string(&f).unwrap();
    refused(&dir, "truncated.json", &good[..good.len() / 2], "truncated");
    refused(
        &dir,
        "garbage.json",
        "{\"format\": \"bgkit-tourney\", \"version\": 1,,}",
        "invalid JSON",
    );
    refused(
        &dir,
        "other.json",
        "{\"format\": \"something\"}",
        "not a tournament file",
    );
    refused(
        &dir,
        "version.json",
        &good.replacen("\"version\": 1", "\"version\": 99", 1),
        "version 99",
    );
    refused(
        &dir,
        "field.json",
        &good.replacen("\"cycles\": 1", "\"cycles\": 1, \"colour\": 2", 1),
        "colour",
    );
    // Inconsistent schedules.
    refused(
        &dir,
        "id.json",
        &good.replacen("{\"id\":3,", "{\"id\":7,", 1),
        "id 7, expected 3",
    );
    let mut t = load(&f);
    t.schedule[0].rounds[0].pairings[0].players = [1, 9];
    refused(
        &dir,
        "pair.json",
        &file::to_text(&t),
        "not those of a round-robin of 3",
    );
    refused(
        &dir,
        "first.json",
        &good.replacen("{\"id\":1,\"first\":1}", "{\"id\":1,\"first\":0}", 1),
        "first mover",
    );
    refused(
        &dir,
        "count.json",
        &good.replacen(",{\"id\":1,\"first\":1}", "", 1),
        "has 1 games",
    );
    refused(
        &dir,
        "cycles.json",
        &good.replacen("\"cycles\": 1", "\"cycles\": 2", 1),
        "cycles",
    );
    let bad_result = good.replacen(
        "{\"id\":0,\"first\":0}",
        "{\"id\":0,\"first\":0,\"result\":{\"winner\":0,\"points\":5,\"turns\":40,\"versions\":[0,0]}}",
        1,
    );
    refused(&dir, "result.json", &bad_result, "impossible result");
    fails_with_all(
        &["tourney", "standings", s(&dir.join("missing.json"))],
        &["missing.json"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

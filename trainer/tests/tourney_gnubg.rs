//! Game records against GNU Backgammon 1.07. `trainer tourney export`
//! writes SGF and `.mat` files; gnubg (`gnubg -t`, Python mode) loads each with `load
//! match` / `import mat` and must see the same moves from the same boards, the same
//! winners and points, and the same final position as bgkit's replay of the records,
//! which must agree with the results in the tournament file. gnubg then saves what it
//! loaded (`save match`, `export match mat`), and bgkit's readers must read those
//! files back to the same games. In both `tourney export`'s and `trainer duel
//! --record`'s sessions, gnubg must find every game starting at the running score of
//! the games before it, and a duel's final score must be its result.
//!
//! Without gnubg the test prints a notice and passes, unless `BGKIT_REQUIRE_GNUBG=1`.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use board::records::{self, Action, MatchRecord, Seat};
use board::MatchState;
use common::{have, scratch, GNUBG};
use test_support::gnubg_output;
use trainer::tourney::file;

/// Runs `trainer` and returns its standard output; it must succeed.
fn trainer(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Loads each job's file into gnubg, prints what gnubg sees, then runs the job's
/// other commands. A job line: `sgf|mat`, path, commands…, separated by tabs.
const DUMP_PY: &str = r#"
import gnubg, os
out = open(os.environ['TOURNEY_OUT'], 'w')
# .mat files carry no rules gnubg reads: score money games without the Jacoby rule,
# as the tournament does.
gnubg.command('set jacoby off')
for line in open(os.environ['TOURNEY_JOBS']).read().splitlines():
    kind, path, *after = line.split('\t')
    gnubg.command(('load match ' if kind == 'sgf' else 'import mat ') + path)
    m = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    out.write('FILE\t%s\t%s\t%s\n' % (path, m['match-info']['X']['name'], m['match-info']['O']['name']))
    for g in m['games']:
        info = g['info']
        out.write('GAME\t%s\t%s\t%s\t%s\n' % (info.get('winner'), info.get('points-won'),
                                             info.get('score-X'), info.get('score-O')))
        for a in g['game']:
            if a['action'] == 'move':
                steps = ' '.join('%d/%d' % s for s in a.get('move', ()))
                dice = ''.join(str(d) for d in a['dice'])
                out.write('MOVE\t%s\t%s\t%s\t%s\n' % (a['player'], dice, a['board'], steps))
    out.write('FINAL\t%s\t%s\n' % (gnubg.positionid(gnubg.board()), gnubg.matchid()))
    for c in after:
        gnubg.command(c)
out.close()
"#;

/// gnubg's view of one file.
#[derive(Debug, Default)]
struct Seen {
    players: [String; 2],
    games: Vec<SeenGame>,
    final_ids: (String, String),
}

/// gnubg's view of one game: winner (`X` = White), points won, the score it started
/// at (X's first) and its moves.
#[derive(Debug)]
struct SeenGame {
    winner: String,
    points: String,
    score: [u32; 2],
    moves: Vec<String>,
}

impl Seen {
    /// Checks that every game starts at the running score of the games before it, as
    /// gnubg adds up their winners and points; returns the final score.
    fn running_score(&self, what: &str) -> [u32; 2] {
        let mut total = [0, 0];
        for (k, g) in self.games.iter().enumerate() {
            assert_eq!(g.score, total, "{what} game {}: the score it starts at", k + 1);
            total[usize::from(g.winner == "O")] += g.points.parse::<u32>().unwrap();
        }
        total
    }
}

fn run_gnubg(dir: &Path, jobs: &str) -> BTreeMap<String, Seen> {
    let script = dir.join("dump.py");
    let jobs_file = dir.join("jobs.txt");
    let out = dir.join("dump.out");
    fs::write(&script, DUMP_PY).unwrap();
    fs::write(&jobs_file, jobs).unwrap();
    let run = gnubg_output(
        Command::new(GNUBG)
            .args(["-t", "-q", "-r", "-p"])
            .arg(&script)
            .env("TOURNEY_JOBS", &jobs_file)
            .env("TOURNEY_OUT", &out)
            .current_dir(dir),
        None,
    );
    let log = String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "gnubg failed: {log}");
    for bad in ["Invalid", "Unrecognised", "rror", "Traceback", "not a valid"] {
        assert!(!log.contains(bad), "gnubg complained ({bad}): {log}");
    }
    let text = fs::read_to_string(&out).unwrap_or_else(|e| panic!("no dump ({e}): {log}"));
    let mut all = BTreeMap::new();
    let mut cur: Option<(String, Seen)> = None;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "FILE" => {
                all.extend(cur.take());
                cur = Some((
                    f[1].to_string(),
                    Seen {
                        players: [f[2].to_string(), f[3].to_string()],
                        ..Seen::default()
                    },
                ));
            }
            "GAME" => cur.as_mut().unwrap().1.games.push(SeenGame {
                winner: f[1].into(),
                points: f[2].into(),
                score: [f[3].parse().unwrap(), f[4].parse().unwrap()],
                moves: Vec::new(),
            }),
            "MOVE" => cur
                .as_mut()
                .unwrap()
                .1
                .games
                .last_mut()
                .unwrap()
                .moves
                .push(f[1..].join(" ")),
            "FINAL" => cur.as_mut().unwrap().1.final_ids = (f[1].into(), f[2].into()),
            other => panic!("unexpected dump line {other}"),
        }
    }
    all.extend(cur.take());
    all
}

/// What gnubg should report for each move of game `g`: player (`X` = White), dice,
/// board before the move, steps (sorted when `sorted`: gnubg's .mat import reorders
/// them).
fn expected_moves(m: &MatchRecord, g: usize, sorted: bool) -> Vec<String> {
    let replay = m.replay(g).unwrap();
    replay
        .steps
        .iter()
        .filter_map(|s| match &s.action {
            Action::Move { seat, dice, steps } => {
                let mut v: Vec<String> = steps.iter().map(|x| format!("{}/{}", x.from, x.to)).collect();
                if sorted {
                    v.sort();
                }
                let who = if *seat == Seat::White { "X" } else { "O" };
                Some(format!(
                    "{who} {}{} {} {}",
                    dice.high(),
                    dice.low(),
                    s.before.position_id(),
                    v.join(" ")
                ))
            }
            _ => None,
        })
        .map(|s| s.trim_end().to_string())
        .collect()
}

fn sorted_steps(line: &str) -> String {
    let mut parts = line.splitn(4, ' ');
    let head: Vec<&str> = parts.by_ref().take(3).collect();
    let mut steps: Vec<&str> = parts
        .next()
        .unwrap_or("")
        .split(' ')
        .filter(|s| !s.is_empty())
        .collect();
    steps.sort();
    format!("{} {}", head.join(" "), steps.join(" "))
        .trim_end()
        .to_string()
}

/// The games' actions and results, what gnubg's files must keep, one line per
/// action; with `sorted`, each move's steps in sorted order (gnubg's `.mat` import
/// puts them in its own order).
fn games_of(m: &MatchRecord, sorted: bool) -> Vec<Vec<String>> {
    m.games
        .iter()
        .map(|g| {
            let mut lines: Vec<String> = g
                .actions
                .iter()
                .map(|a| match a {
                    Action::Move { seat, dice, steps } => {
                        let mut v: Vec<String> = steps
                            .iter()
                            .map(|x| format!("{}/{}{}", x.from, x.to, if x.hit { "*" } else { "" }))
                            .collect();
                        if sorted {
                            v.sort();
                        }
                        format!("{seat} {dice} {}", v.join(" "))
                    }
                    other => format!("{other:?}"),
                })
                .collect();
            lines.push(format!("{:?}", g.result));
            lines
        })
        .collect()
}

/// Compares two records' games, reporting the first difference only.
fn same_games(got: &MatchRecord, want: &MatchRecord, sorted: bool, what: &str) {
    let (a, b) = (games_of(got, sorted), games_of(want, sorted));
    assert_eq!(a.len(), b.len(), "{what}: number of games");
    for (k, (x, y)) in a.iter().zip(&b).enumerate() {
        let at = x.iter().zip(y).position(|(p, q)| p != q);
        assert!(
            at.is_none() && x.len() == y.len(),
            "{what}: game {} differs at action {at:?}",
            k + 1
        );
    }
}

#[test]
fn tourney_records_replay_identically_in_gnubg() {
    if !have(&[GNUBG]) {
        return;
    }
    let dir = scratch("tourney-gnubg");
    let f = dir.join("t.json");
    let fs_ = f.to_str().unwrap();
    trainer(&[
        "tourney",
        "new",
        fs_,
        "--participants",
        "pubeval",
        "random",
        "other=random",
        "--games-per-pairing",
        "4",
        "--seed",
        "21",
    ]);
    trainer(&["tourney", "run", fs_, "--quiet"]);
    let sgf_dir = dir.join("sgf");
    let mat_dir = dir.join("mat");
    let all = dir.join("all.sgf");
    trainer(&[
        "tourney",
        "export",
        fs_,
        "--sgf",
        sgf_dir.to_str().unwrap(),
        "--mat",
        mat_dir.to_str().unwrap(),
        "--collection",
        all.to_str().unwrap(),
        "--quiet",
    ]);
    let t = file::read(&f).unwrap();

    // Our own readers: the collection holds every pairing; each file one pairing, whose
    // games end as the tournament file says.
    let collection = records::load(&all).unwrap();
    assert_eq!(collection.len(), 3);
    let mut files: Vec<(std::path::PathBuf, &str, MatchRecord)> = Vec::new();
    for (dir, kind) in [(&sgf_dir, "sgf"), (&mat_dir, "mat")] {
        let mut names: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        assert_eq!(names.len(), 3, "{kind}: one file per pairing");
        for (k, path) in names.into_iter().enumerate() {
            let mut m = records::load(&path).unwrap();
            assert_eq!(m.len(), 1);
            let m = m.remove(0);
            same_games(&m, &collection[k], false, &path.display().to_string());
            files.push((path, kind, m));
        }
    }
    let pairings: Vec<_> = t.schedule[0].rounds.iter().map(|r| &r.pairings[0]).collect();
    for (k, m) in collection.iter().enumerate() {
        let p = pairings[k];
        assert_eq!(m.players, p.players.map(|i| t.participants[i].name.clone()));
        assert_eq!(m.games.len(), 4);
        for (g, game) in m.games.iter().zip(&p.games) {
            let want = game.result.unwrap();
            let got = g.result.unwrap();
            assert_eq!(
                (got.winner.index(), got.points),
                (usize::from(want.winner), u32::from(want.points))
            );
            let turns = g
                .actions
                .iter()
                .filter(|a| matches!(a, Action::Move { .. }))
                .count();
            assert_eq!(turns as u32, want.turns);
        }
    }

    // gnubg loads every file, then saves what it loaded.
    let mut jobs = String::new();
    for (i, (path, kind, _)) in files.iter().enumerate() {
        let _ = writeln!(
            jobs,
            "{kind}\t{}\tsave match {}\texport match mat {}",
            path.display(),
            dir.join(format!("g{i}.sgf")).display(),
            dir.join(format!("g{i}.mat")).display()
        );
    }
    let seen = run_gnubg(&dir, &jobs);
    let mut moves = 0;
    for (i, (path, kind, m)) in files.iter().enumerate() {
        let key = path.display().to_string();
        let g = seen
            .get(&key)
            .unwrap_or_else(|| panic!("gnubg did not load {key}"));
        assert_eq!(g.players, m.players, "{key}: players");
        assert_eq!(g.games.len(), m.games.len(), "{key}: games");
        g.running_score(&key);
        for (k, (seen, ours)) in g.games.iter().zip(&m.games).enumerate() {
            let r = ours.result.unwrap();
            assert_eq!(
                seen.winner,
                if r.winner == Seat::White { "X" } else { "O" },
                "{key} game {}",
                k + 1
            );
            assert_eq!(seen.points, r.points.to_string(), "{key} game {}", k + 1);
            let sorted = *kind == "mat";
            let got: Vec<String> = seen
                .moves
                .iter()
                .map(|l| {
                    if sorted {
                        sorted_steps(l)
                    } else {
                        l.trim_end().to_string()
                    }
                })
                .collect();
            assert_eq!(got, expected_moves(m, k, sorted), "{key} game {}: moves", k + 1);
            moves += got.len();
        }
        // The final position of the last game, seen by the player gnubg has on roll.
        let last = m.replay(m.games.len() - 1).unwrap();
        let state = MatchState::from_id(&g.final_ids.1).unwrap();
        let seat = Seat::from_index(usize::from(state.on_roll)).unwrap();
        assert_eq!(
            last.final_position.seen_by(seat).position_id(),
            g.final_ids.0,
            "{key}: final position"
        );

        // gnubg's own files of the same games read back to the same moves and results.
        for ext in ["sgf", "mat"] {
            let back = dir.join(format!("g{i}.{ext}"));
            let got = records::load(&back).unwrap_or_else(|e| panic!("{}: {e}", back.display()));
            assert_eq!(got.len(), 1);
            let what = format!("{}: gnubg's save of {key}", back.display());
            same_games(&got[0], m, *kind == "mat" || ext == "mat", &what);
        }
    }
    assert!(moves > 300, "too little compared: {moves} moves");
    eprintln!("gnubg agreed on {moves} moves in {} files", files.len());
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn duel_records_carry_the_running_score_in_gnubg() {
    if !have(&[GNUBG]) {
        return;
    }
    let dir = scratch("duel-gnubg");
    let mut jobs = String::new();
    let mut ppg = Vec::new();
    for kind in ["sgf", "mat"] {
        let path = dir.join(format!("d.{kind}"));
        let mut args: Vec<&str> = "duel --a pubeval --b random --games 8 --seed 3 --json --quiet"
            .split(' ')
            .collect();
        args.extend(["--record", path.to_str().unwrap()]);
        let summary = trainer(&args);
        let v: serde_json::Value = serde_json::from_str(&summary).unwrap();
        ppg.push(v["ppg"].as_f64().unwrap());
        let _ = writeln!(jobs, "{kind}\t{}", path.display());
    }
    let seen = run_gnubg(&dir, &jobs);
    assert_eq!(seen.len(), 2);
    for ((key, g), ppg) in seen.iter().zip(ppg) {
        assert_eq!(g.games.len(), 8, "{key}");
        let total = g.running_score(key);
        // A (pubeval) is X in every game of the session.
        let net = f64::from(total[0]) - f64::from(total[1]);
        assert!(
            (net / 8.0 - ppg).abs() < 1e-9,
            "{key}: final score {total:?}, duel ppg {ppg}"
        );
        assert!(
            total.iter().sum::<u32>() > 8,
            "{key}: gammons expected in 8 games"
        );
    }
}

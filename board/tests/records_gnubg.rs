//! Game records checked against GNU Backgammon 1.07 as the oracle.
//!
//! Matches are played with random legal moves from seeded dice (plus random cube
//! actions and resignations), written as SGF and `.mat`, and gnubg loads them
//! (`load match`, `import mat`) in one run of its Python mode. gnubg's view of every
//! action (the board before it as a Position ID, the dice, the checker movements, the
//! cube action), every game's result and the final position and Match ID must equal
//! bgkit's replay. gnubg then exports what it loaded (`export match mat`,
//! `save match`) and plays a match of its own; bgkit's readers must read those files
//! back to the same games, and bgkit's `.mat` writer must match gnubg's export byte for
//! byte.
//!
//! Without `/usr/games/gnubg` the tests print a notice and pass, unless
//! `BGKIT_REQUIRE_GNUBG=1` (as in CI), when they fail.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use board::records::{
    read_mat, read_sgf, write_mat, write_sgf, Action, Date, GameRecord, MatchRecord, Replay, Resignation,
    Rules, Seat,
};
use board::{DiceStream, MatchState, Variant};

const GNUBG: &str = "/usr/games/gnubg";

/// Whether gnubg can be used; panics when it is required but missing.
fn gnubg_available(test: &str) -> bool {
    if Path::new(GNUBG).exists() {
        return true;
    }
    if std::env::var("BGKIT_REQUIRE_GNUBG").is_ok_and(|v| v == "1") {
        panic!("{test}: {GNUBG} is missing but BGKIT_REQUIRE_GNUBG=1");
    }
    eprintln!("{test}: skipped, {GNUBG} is not installed (set BGKIT_REQUIRE_GNUBG=1 to fail instead)");
    false
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bgkit-records-{test}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

// ------------------------------------------------------------------------------
// Random games

/// Plays one game of `record` with random legal moves; doubles, answers and
/// resignations are drawn from the same stream.
fn random_game(record: &MatchRecord, dice: &mut DiceStream) -> GameRecord {
    let mut g = record.next_game();
    let money = record.match_length == 0;
    let mut seat = if dice.below(2) == 0 {
        Seat::White
    } else {
        Seat::Black
    };
    let mut roll = dice.opening_roll();
    'game: loop {
        let moves = g.position().legal_moves(roll);
        if moves.is_empty() {
            g.dance(seat, roll).unwrap();
        } else {
            let k = dice.below(moves.len() as u32) as usize;
            g.play(seat, roll, &moves[k]).unwrap();
        }
        if g.is_over() {
            break;
        }
        seat = seat.other();
        let opp = seat.other();
        if dice.below(250) == 0 {
            let level = Resignation::from_multiplier(1 + dice.below(3));
            g.apply(Action::Resign { seat, level }).unwrap();
            if dice.below(3) > 0 {
                g.apply(Action::AcceptResignation { seat: opp }).unwrap();
                break;
            }
            g.apply(Action::RejectResignation { seat: opp }).unwrap();
        }
        if g.may_double(seat) && dice.below(40) == 0 {
            g.apply(Action::Double { seat }).unwrap();
            match dice.below(20) {
                0..=3 => {
                    g.apply(Action::Drop { seat: opp }).unwrap();
                    break 'game;
                }
                4..=7 if money && record.rules.beavers => {
                    g.apply(Action::Beaver { seat: opp }).unwrap();
                    if dice.below(4) == 0 {
                        g.apply(Action::Drop { seat }).unwrap();
                        break 'game;
                    }
                    g.apply(Action::Take { seat }).unwrap();
                }
                8 => {
                    g.apply(Action::Resign {
                        seat: opp,
                        level: Resignation::Single,
                    })
                    .unwrap();
                    g.apply(Action::AcceptResignation { seat }).unwrap();
                    break 'game;
                }
                _ => g.apply(Action::Take { seat: opp }).unwrap(),
            }
        }
        roll = dice.roll();
    }
    g.finish()
}

/// Cube and resignation sequences forced at a game's sixth turn, so that the rare
/// cases occur whatever the seeds.
#[derive(Clone, Copy, Debug)]
enum Plan {
    /// Double, beaver, the doubler drops.
    DroppedBeaver,
    /// Double, beaver, the doubler takes; play on.
    TakenBeaver,
    /// Double; the doubled player resigns a gammon instead of answering; accepted.
    ResignFacingDouble,
    /// A resignation declined, then a double taken; play on.
    DeclinedThenTaken,
}

/// Random moves, with `plan` carried out before the roll of the sixth turn.
fn planned_game(record: &MatchRecord, dice: &mut DiceStream, plan: Plan) -> GameRecord {
    let mut g = record.next_game();
    let mut seat = Seat::Black;
    let mut roll = dice.opening_roll();
    for turn in 0.. {
        if turn == 5 {
            let opp = seat.other();
            let mut act = |a: Action| g.apply(a).unwrap();
            match plan {
                Plan::DroppedBeaver => {
                    act(Action::Double { seat });
                    act(Action::Beaver { seat: opp });
                    act(Action::Drop { seat });
                }
                Plan::TakenBeaver => {
                    act(Action::Double { seat });
                    act(Action::Beaver { seat: opp });
                    act(Action::Take { seat });
                }
                Plan::ResignFacingDouble => {
                    act(Action::Double { seat });
                    act(Action::Resign {
                        seat: opp,
                        level: Resignation::Gammon,
                    });
                    act(Action::AcceptResignation { seat });
                }
                Plan::DeclinedThenTaken => {
                    act(Action::Resign {
                        seat,
                        level: Resignation::Single,
                    });
                    act(Action::RejectResignation { seat: opp });
                    act(Action::Double { seat });
                    act(Action::Take { seat: opp });
                }
            }
            if g.is_over() {
                break;
            }
        }
        let moves = g.position().legal_moves(roll);
        match moves.len() {
            0 => g.dance(seat, roll).unwrap(),
            n => g.play(seat, roll, &moves[dice.below(n as u32) as usize]).unwrap(),
        }
        if g.is_over() {
            break;
        }
        seat = seat.other();
        roll = dice.roll();
    }
    g.finish()
}

/// A money session of planned games, each plan in turn.
fn planned_session(seed: u32, rules: Rules) -> MatchRecord {
    let mut record = MatchRecord::new("uma", "walter", 0, Variant::Backgammon);
    record.rules = rules;
    let mut dice = DiceStream::new(seed);
    for plan in [
        Plan::DroppedBeaver,
        Plan::TakenBeaver,
        Plan::ResignFacingDouble,
        Plan::DeclinedThenTaken,
    ] {
        let game = planned_game(&record, &mut dice, plan);
        record.push_game(game);
    }
    record
}

/// A whole match (or `money_games` money games) of random play.
fn random_match(
    seed: u32,
    names: [&str; 2],
    length: u32,
    variant: Variant,
    rules: Rules,
    money_games: usize,
) -> MatchRecord {
    let mut record = MatchRecord::new(names[0], names[1], length, variant);
    record.rules = rules;
    let mut dice = DiceStream::new(seed);
    while if length == 0 {
        record.games.len() < money_games
    } else {
        !record.is_over()
    } {
        let game = random_game(&record, &mut dice);
        record.push_game(game);
    }
    record
}

/// The matches the oracle tests use: match and money play, Crawford games, beavers,
/// Jacoby, nackgammon, a cubeless match, descriptions in the header.
fn test_matches() -> Vec<MatchRecord> {
    let match_rules = Rules::default();
    let money_rules = Rules {
        jacoby: true,
        beavers: true,
        ..Rules::default()
    };
    let mut m = vec![
        random_match(11, ["alice", "bob"], 5, Variant::Backgammon, match_rules, 0),
        random_match(12, ["carol", "dave"], 3, Variant::Backgammon, match_rules, 0),
        random_match(13, ["erin", "frank"], 0, Variant::Backgammon, money_rules, 12),
        random_match(14, ["grace", "heidi"], 3, Variant::Nackgammon, match_rules, 0),
        random_match(
            15,
            ["ivan", "judy"],
            0,
            Variant::Backgammon,
            Rules {
                beavers: true,
                ..Rules::default()
            },
            8,
        ),
        random_match(16, ["mallory", "niaj"], 9, Variant::Backgammon, match_rules, 0),
        random_match(17, ["olivia", "peggy"], 2, Variant::Backgammon, match_rules, 0),
        random_match(18, ["rupert", "sybil"], 3, Variant::Hypergammon3, match_rules, 0),
        random_match(
            19,
            ["trent", "victor"],
            2,
            Variant::Backgammon,
            Rules {
                cube: false,
                ..Rules::default()
            },
            0,
        ),
        planned_session(
            20,
            Rules {
                beavers: true,
                ..Rules::default()
            },
        ),
    ];
    let info = &mut m[0].info;
    info.event = Some("bgkit oracle test".into());
    info.round = Some("final".into());
    info.place = Some("the lab".into());
    info.annotator = Some("records_gnubg.rs".into());
    info.date = Some(Date {
        year: 2025,
        month: 2,
        day: 3,
    });
    m
}

/// Counts what the test matches contain, so that a change of seeds cannot silently
/// drop a feature from the oracle comparison.
fn coverage(matches: &[MatchRecord]) -> BTreeMap<&'static str, usize> {
    let mut c = BTreeMap::new();
    let mut add = |k: &'static str| *c.entry(k).or_insert(0) += 1;
    for m in matches {
        for (game, replay) in m.games.iter().zip(m.validate().unwrap()) {
            if game.crawford {
                add("crawford game");
            }
            match game.result {
                Some(r) if r.resigned => add("resigned"),
                Some(r) if matches!(game.actions.last(), Some(Action::Drop { .. })) => {
                    let _ = r;
                    add("dropped")
                }
                Some(r) if r.points > replay.cube => add("gammon or backgammon"),
                Some(_) => add("single game"),
                None => add("unfinished"),
            }
            for w in game.actions.windows(2) {
                match w {
                    [Action::Beaver { .. }, Action::Drop { .. }] => add("dropped beaver"),
                    [Action::Double { .. }, Action::Resign { .. }] => add("resignation facing a double"),
                    _ => {}
                }
            }
            for a in &game.actions {
                match a {
                    Action::Move { steps, .. } if steps.is_empty() => add("dance"),
                    Action::Move { steps, .. } => {
                        if steps.iter().any(|s| s.from == 25) {
                            add("bar entry");
                        }
                        if steps.iter().any(|s| s.hit) {
                            add("hit");
                        }
                        if steps.iter().any(|s| s.to == 0) {
                            add("bear-off");
                        }
                    }
                    Action::Double { .. } => add("double"),
                    Action::Take { .. } => add("take"),
                    Action::Drop { .. } => add("drop"),
                    Action::Beaver { .. } => add("beaver"),
                    Action::Resign { .. } => add("resignation offer"),
                    Action::RejectResignation { .. } => add("resignation declined"),
                    Action::AcceptResignation { .. } => add("resignation accepted"),
                    Action::SetCube { .. } => add("cube set"),
                }
            }
        }
    }
    c
}

#[test]
fn records_test_matches_cover_every_kind_of_action() {
    let c = coverage(&test_matches());
    eprintln!("{c:?}");
    for k in [
        "crawford game",
        "resigned",
        "dropped",
        "gammon or backgammon",
        "single game",
        "dance",
        "bar entry",
        "hit",
        "bear-off",
        "double",
        "take",
        "drop",
        "beaver",
        "resignation declined",
        "resignation accepted",
        "dropped beaver",
        "resignation facing a double",
    ] {
        assert!(
            c.get(k).is_some_and(|&n| n > 0),
            "no '{k}' in the test matches: {c:?}"
        );
    }
}

// ------------------------------------------------------------------------------
// gnubg's Python side

/// Loads each file, dumps gnubg's view of the match, and runs the extra commands.
/// Jobs: one per line, tab-separated: `sgf|mat`, path, then commands to run after.
const ORACLE_PY: &str = r#"
import gnubg, os

out = open(os.environ['BGKIT_ORACLE_OUT'], 'w')

def w(*fields):
    out.write('\t'.join(str(f) for f in fields) + '\n')

def dump(path):
    m = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    mi = m['match-info']
    w('FILE', path)
    w('INFO', mi['match-length'], mi.get('variation', '-'), ','.join(mi.get('rules', ())),
      mi['X']['name'], mi['O']['name'])
    for g in m['games']:
        i = g['info']
        w('GAME', i.get('score-X'), i.get('score-O'), i.get('winner') or '-',
          i.get('points-won', '-'), int(bool(i.get('resigned', False))))
        for a in g['game']:
            dice = ''.join(str(d) for d in a['dice']) if 'dice' in a else '-'
            mv = ' '.join('%d/%d' % p for p in a['move']) if 'move' in a else '-'
            w('A', a['player'], a['action'], dice, a.get('board', '-'), mv, a.get('points', '-'))
    w('FINAL', gnubg.positionid(gnubg.board()), gnubg.matchid())

for line in open(os.environ['BGKIT_ORACLE_JOBS']).read().splitlines():
    if not line.strip():
        continue
    fields = line.split('\t')
    kind, path = fields[0], fields[1]
    if kind == 'play':
        for c in fields[2:]:
            gnubg.command(c)
        continue
    gnubg.command(('load match ' if kind == 'sgf' else 'import mat ') + path)
    dump(path)
    for c in fields[2:]:
        gnubg.command(c)
out.close()
"#;

/// gnubg's view of one action.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GnubgAction {
    /// 0 or 1 (gnubg's Python labels player 0 `X` and player 1 `O`).
    player: usize,
    action: String,
    dice: String,
    board: String,
    moves: String,
    points: String,
}

#[derive(Clone, Debug, Default)]
struct GnubgGame {
    score: [String; 2],
    winner: String,
    points: String,
    resigned: bool,
    actions: Vec<GnubgAction>,
}

#[derive(Clone, Debug, Default)]
struct GnubgMatch {
    info: Vec<String>,
    games: Vec<GnubgGame>,
    final_ids: (String, String),
}

/// Runs gnubg once over all jobs; returns its dumps by file path.
fn run_gnubg(dir: &Path, jobs: &str) -> BTreeMap<String, GnubgMatch> {
    let script = dir.join("oracle.py");
    let jobs_file = dir.join("jobs.txt");
    let out = dir.join("oracle.out");
    fs::write(&script, ORACLE_PY).unwrap();
    fs::write(&jobs_file, jobs).unwrap();
    let run = Command::new(GNUBG)
        .args(["-t", "-q", "-r", "-p"])
        .arg(&script)
        .env("BGKIT_ORACLE_JOBS", &jobs_file)
        .env("BGKIT_ORACLE_OUT", &out)
        .current_dir(dir)
        .output()
        .expect("gnubg runs");
    let log = String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "gnubg failed: {log}");
    for bad in [
        "Invalid",
        "Unrecognised",
        "rror",
        "Traceback",
        "WARNING",
        "doesn't follow",
        "not a valid",
    ] {
        assert!(!log.contains(bad), "gnubg complained ({bad}): {log}");
    }
    let text = fs::read_to_string(&out).unwrap_or_else(|e| panic!("no oracle output ({e}): {log}"));
    let mut all = BTreeMap::new();
    let mut current: Option<(String, GnubgMatch)> = None;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "FILE" => {
                if let Some((p, m)) = current.take() {
                    all.insert(p, m);
                }
                current = Some((f[1].to_string(), GnubgMatch::default()));
            }
            "INFO" => current.as_mut().unwrap().1.info = f[1..].iter().map(|s| s.to_string()).collect(),
            "GAME" => current.as_mut().unwrap().1.games.push(GnubgGame {
                score: [f[1].to_string(), f[2].to_string()],
                winner: f[3].to_string(),
                points: f[4].to_string(),
                resigned: f[5] == "1",
                actions: Vec::new(),
            }),
            "A" => {
                let m = &mut current.as_mut().unwrap().1;
                m.games.last_mut().unwrap().actions.push(GnubgAction {
                    player: if f[1] == "X" { 0 } else { 1 },
                    action: f[2].to_string(),
                    dice: f[3].to_string(),
                    board: f[4].to_string(),
                    moves: f[5].to_string(),
                    points: f[6].to_string(),
                });
            }
            "FINAL" => current.as_mut().unwrap().1.final_ids = (f[1].to_string(), f[2].to_string()),
            other => panic!("unexpected oracle line {other}"),
        }
    }
    if let Some((p, m)) = current.take() {
        all.insert(p, m);
    }
    all
}

/// What gnubg should report for each of our actions (`None`: gnubg keeps no record
/// of it: resignation offers and declines).
fn expected_action(step: &board::records::ReplayStep, next_is_accept: bool) -> Option<GnubgAction> {
    let mk = |seat: Seat, action: &str| GnubgAction {
        player: seat.index(),
        action: action.to_string(),
        dice: "-".into(),
        board: "-".into(),
        moves: "-".into(),
        points: "-".into(),
    };
    let board = step.before.position_id();
    Some(match &step.action {
        Action::Move { seat, dice, steps } => GnubgAction {
            dice: format!("{}{}", dice.high(), dice.low()),
            board,
            moves: steps
                .iter()
                .map(|s| format!("{}/{}", s.from, s.to))
                .collect::<Vec<_>>()
                .join(" "),
            ..mk(*seat, "move")
        },
        Action::Double { seat } => GnubgAction {
            board,
            ..mk(*seat, "double")
        },
        // gnubg shows a beaver with the board of the player whose turn it is (the
        // original doubler).
        Action::Beaver { seat } => GnubgAction {
            board: step.before.swapped().position_id(),
            ..mk(*seat, "double")
        },
        Action::Take { seat } => mk(*seat, "take"),
        Action::Drop { seat } => mk(*seat, "drop"),
        Action::Resign { seat, level } if next_is_accept => GnubgAction {
            points: level.multiplier().to_string(),
            ..mk(*seat, "resign")
        },
        _ => return None,
    })
}

/// Compares gnubg's dump of a file with bgkit's replays of `record`.
fn compare(label: &str, record: &MatchRecord, replays: &[Replay], g: &GnubgMatch) -> usize {
    assert_eq!(
        g.info[0],
        record.match_length.to_string(),
        "{label}: match length"
    );
    assert_eq!(g.info[3..5], record.players[..], "{label}: players");
    assert_eq!(g.games.len(), record.games.len(), "{label}: number of games");
    let mut compared = 0;
    for (i, ((game, replay), gg)) in record.games.iter().zip(replays).zip(&g.games).enumerate() {
        let label = format!("{label} game {}", i + 1);
        assert_eq!(gg.score, game.score.map(|s| s.to_string()), "{label}: score");
        let want: Vec<GnubgAction> = replay
            .steps
            .iter()
            .enumerate()
            .filter_map(|(k, s)| {
                let next_accept = matches!(
                    replay.steps.get(k + 1).map(|n| &n.action),
                    Some(Action::AcceptResignation { .. })
                );
                expected_action(s, next_accept)
            })
            .collect();
        assert_eq!(
            gg.actions.len(),
            want.len(),
            "{label}: number of actions\n{:?}\n{want:?}",
            gg.actions
        );
        for (k, (got, want)) in gg.actions.iter().zip(&want).enumerate() {
            // gnubg's .mat import puts a move's steps into its canonical order; its SGF
            // loader keeps them as written.
            let (mut got, mut want) = (got.clone(), want.clone());
            if label.contains("-xg.mat") {
                // Joined movements: gnubg splits them its own way; the boards before
                // each action (and the final one) carry the comparison.
                got.moves.clear();
                want.moves.clear();
            } else if label.contains(".mat") {
                for a in [&mut got, &mut want] {
                    let mut v: Vec<&str> = a.moves.split(' ').collect();
                    v.sort_unstable();
                    a.moves = v.join(" ");
                }
            }
            assert_eq!(got, want, "{label}, gnubg action {}", k + 1);
            compared += 1;
        }
        let r = game.result.unwrap();
        assert_eq!(
            gg.winner,
            if r.winner == Seat::White { "X" } else { "O" },
            "{label}: winner"
        );
        assert_eq!(gg.points, r.points.to_string(), "{label}: points");
        assert_eq!(gg.resigned, r.resigned, "{label}: resigned");
    }
    // The final position and Match ID of the last game.
    let last = replays.last().unwrap();
    let game = record.games.last().unwrap();
    let (pos_id, match_id) = &g.final_ids;
    let state = decode_match_id(match_id);
    let on_roll = Seat::from_index(state.on_roll).unwrap();
    assert_eq!(
        &last.final_position.seen_by(on_roll).position_id(),
        pos_id,
        "{label}: final position (gnubg's player on roll: {on_roll})"
    );
    assert_eq!(
        state.match_length, record.match_length,
        "{label}: Match ID length"
    );
    let mut score = game.score;
    let r = game.result.unwrap();
    score[r.winner.index()] += r.points;
    assert_eq!(state.score, score, "{label}: final score in the Match ID");
    assert_eq!(1 << state.log_cube, last.cube, "{label}: final cube");
    compared
}

/// The fields of a Match ID the tests compare. Decoded by hand: after a match is won
/// the score exceeds the length, which `MatchState::from_id` rightly rejects.
struct MatchIdFields {
    log_cube: u32,
    on_roll: usize,
    match_length: u32,
    score: [u32; 2],
}

fn decode_match_id(id: &str) -> MatchIdFields {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits: Vec<bool> = Vec::new();
    let mut bytes = Vec::new();
    for chunk in id.as_bytes().chunks(4) {
        let v = chunk.iter().fold(0u32, |acc, &c| {
            acc << 6 | ALPHABET.iter().position(|&a| a == c).unwrap() as u32
        });
        bytes.extend_from_slice(&v.to_be_bytes()[1..]);
    }
    for b in bytes {
        for i in 0..8 {
            bits.push(b >> i & 1 == 1);
        }
    }
    let field = |start: usize, len: usize| (0..len).fold(0u32, |acc, i| acc | (bits[start + i] as u32) << i);
    MatchIdFields {
        log_cube: field(0, 4),
        on_roll: field(6, 1) as usize,
        match_length: field(21, 15),
        score: [field(36, 15), field(51, 15)],
    }
}

#[test]
fn records_test_match_id_decoder_agrees_with_match_state() {
    for id in ["QYkqASAAIAAA", "cIkmAQAAAAAE", "MIEFAAAAAAAA", "cAkLAAAAAAAE"] {
        let want = MatchState::from_id(id).unwrap();
        let got = decode_match_id(id);
        assert_eq!(1 << got.log_cube, want.cube, "{id}");
        assert_eq!(got.on_roll, usize::from(want.on_roll), "{id}");
        assert_eq!(got.match_length, want.match_length, "{id}");
        assert_eq!(got.score, want.score, "{id}");
    }
}

/// Joins the movements of one checker the way Jellyfish and XG files may write them,
/// within what gnubg's import can split again: with doubles any run of movements by
/// one checker (`44: 24/16 13/5`); otherwise a checker that used both dice
/// (`65: 24/13`). Never across a hit.
fn join_movements(high: u8, low: u8, steps: &[(u8, u8, bool)]) -> String {
    let mut chains: Vec<(u8, u8, bool)> = Vec::new();
    for &(from, to, hit) in steps {
        let joinable = if high == low { true } else { steps.len() == 2 };
        if joinable {
            if let Some(c) = chains.iter_mut().find(|c| c.1 == from && !c.2 && c.1 != 0) {
                let d = c.0 - to;
                if (high == low && d % high == 0) || (high != low && d == high + low) {
                    c.1 = to;
                    c.2 = hit;
                    continue;
                }
            }
        }
        chains.push((from, to, hit));
    }
    chains
        .iter()
        .map(|&(a, b, h)| format!("{a}/{b}{}", if h { "*" } else { "" }))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rewrites bgkit's `.mat` text in the style of XG files: a byte-order mark, XG's
/// header tags, joined movements (columns kept), optionally GridGammon ratings.
fn xg_style(mat: &str, ratings: bool) -> String {
    let mut out = String::from("\u{feff}; [Site \"eXtreme Gammon\"]\n; [Match ID \"12345\"]\n");
    out.push_str(
        "; [Player 1 \"someone\"]\n; [EventTime \"21.53\"]\n; [Unrated \"Off\"]\n; [CubeLimit \"1024\"]\n",
    );
    let mut in_games = false;
    for line in mat.lines() {
        if line.starts_with(" Game ") {
            in_games = true;
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if ratings && in_games && line.contains(" : ") && !line.contains(')') {
            let (a, rest) = line.split_once(" : ").unwrap();
            let (score, rest) = rest.split_once(' ').unwrap_or((rest, ""));
            let rest = rest.trim_start();
            let (b, s1) = rest.split_once(" : ").unwrap();
            let _ = writeln!(out, "{a},1612.5 : {score}   {b},1500 : {s1}");
            continue;
        }
        let bytes = line.as_bytes();
        let mut new = String::new();
        let mut i = 0;
        while i < bytes.len() {
            let is_roll = i + 3 < bytes.len()
                && bytes[i].is_ascii_digit()
                && bytes[i + 1].is_ascii_digit()
                && bytes[i + 2] == b':'
                && bytes[i + 3] == b' ';
            if !is_roll {
                new.push(bytes[i] as char);
                i += 1;
                continue;
            }
            let (high, low) = (bytes[i] - b'0', bytes[i + 1] - b'0');
            let start = i + 4;
            let mut end = start;
            let mut steps = Vec::new();
            loop {
                let tok_end = line[end..].find(' ').map_or(line.len(), |p| end + p);
                let tok = &line[end..tok_end];
                let Some((a, b)) = tok.split_once('/') else { break };
                let hit = b.ends_with('*');
                steps.push((a.parse().unwrap(), b.trim_end_matches('*').parse().unwrap(), hit));
                end = (tok_end + 1).min(line.len());
                if tok_end >= line.len() {
                    break;
                }
            }
            let original = &line[i..end];
            let mut joined = format!("{high}{low}: {}", join_movements(high, low, &steps));
            while joined.len() < original.len() {
                joined.push(' ');
            }
            new.push_str(&joined);
            i = end;
        }
        out.push_str(&new);
        out.push('\n');
    }
    out
}

/// The boards before every action and at the end, and what each action was apart
/// from its exact steps: what a record read from joined movements must share with
/// the original.
fn play_outline(record: &MatchRecord) -> Vec<String> {
    let mut v = Vec::new();
    for replay in record.validate().unwrap() {
        for s in &replay.steps {
            let kind = match &s.action {
                Action::Move { seat, dice, .. } => format!("{seat} {dice}"),
                other => format!("{other:?}"),
            };
            v.push(format!("{} {kind}", s.before.position_id()));
        }
        v.push(format!("end {:?} {:?}", replay.final_position, replay.result));
    }
    v
}

#[test]
fn records_written_by_bgkit_replay_identically_in_gnubg() {
    if !gnubg_available("records_written_by_bgkit_replay_identically_in_gnubg") {
        return;
    }
    let dir = scratch("replay");
    let matches = test_matches();
    let mut jobs = String::new();
    let mut files = Vec::new();
    for (i, m) in matches.iter().enumerate() {
        let sgf = dir.join(format!("m{i}.sgf"));
        let mat = dir.join(format!("m{i}.mat"));
        fs::write(&sgf, write_sgf(m).unwrap()).unwrap();
        fs::write(&mat, write_mat(m).unwrap()).unwrap();
        let _ = writeln!(jobs, "sgf\t{}", sgf.display());
        files.push((sgf, m));
        let _ = writeln!(jobs, "mat\t{}", mat.display());
        files.push((mat, m));
        // The same match as XG might write it, read by gnubg's import and by ours.
        let xg = dir.join(format!("m{i}-xg.mat"));
        let xg_text = xg_style(&write_mat(m).unwrap(), i == 1);
        fs::write(&xg, &xg_text).unwrap();
        let ours = read_mat(&xg_text, "xg.mat").unwrap_or_else(|e| panic!("m{i}-xg.mat: {e}"));
        assert_eq!(
            play_outline(&ours),
            play_outline(&as_gnubg_keeps_it(m)),
            "m{i}-xg.mat: our reader plays it differently"
        );
        if i == 1 {
            assert_eq!(
                ours.info.ratings,
                [Some("1612.5".to_string()), Some("1500".to_string())]
            );
        }
        let _ = writeln!(jobs, "mat\t{}", xg.display());
        files.push((xg, m));
    }
    let dumps = run_gnubg(&dir, &jobs);
    let mut actions = 0;
    let mut games = 0;
    for (path, m) in &files {
        let replays = m.validate().unwrap();
        let key = path.display().to_string();
        let g = dumps
            .get(&key)
            .unwrap_or_else(|| panic!("no gnubg dump for {key}"));
        actions += compare(&key, m, &replays, g);
        games += m.games.len();
    }
    eprintln!(
        "gnubg agreed on {games} games, {actions} actions in {} files",
        files.len()
    );
    assert!(
        games >= 40 && actions > 5000,
        "too little compared: {games} games, {actions} actions"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// What survives a trip through gnubg: gnubg keeps no declined resignation offers,
/// and has no beaver flag in its files (only beavers actually played show).
fn as_gnubg_keeps_it(record: &MatchRecord) -> MatchRecord {
    let mut r = record.clone();
    for game in &mut r.games {
        let mut kept = Vec::new();
        for (k, a) in game.actions.iter().enumerate() {
            let declined_next = matches!(game.actions.get(k + 1), Some(Action::RejectResignation { .. }));
            match a {
                Action::RejectResignation { .. } => {}
                Action::Resign { .. } if declined_next => {}
                other => kept.push(other.clone()),
            }
        }
        game.actions = kept;
    }
    r.rules.beavers = r
        .games
        .iter()
        .any(|g| g.actions.iter().any(|a| matches!(a, Action::Beaver { .. })));
    r
}

/// The lines of a `.mat` text without bgkit's rule tags (which gnubg does not write).
fn without_rule_tags(text: &str) -> String {
    text.lines()
        .filter(|l| {
            !["; [Crawford ", "; [Jacoby ", "; [Beaver ", "; [CubeLimit "]
                .iter()
                .any(|t| l.starts_with(t))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// How many times a match holds one of the two cases where bgkit's `.mat`
/// deliberately differs from gnubg's export: a dropped beaver (bgkit writes
/// ` Doubles => n`, gnubg ` Beavers => n`), a resignation facing a double (gnubg
/// writes twice the points won).
fn mat_deviations(record: &MatchRecord) -> usize {
    record
        .games
        .iter()
        .map(|g| {
            g.actions
                .windows(2)
                .filter(|w| {
                    matches!(w, [Action::Beaver { .. }, Action::Drop { .. }])
                        || matches!(
                            w,
                            [
                                Action::Double { .. } | Action::Beaver { .. },
                                Action::Resign { .. }
                            ]
                        )
                })
                .count()
        })
        .sum()
}

/// Compares gnubg's `.mat` export with bgkit's line by line; returns the lines that
/// differ only in the documented ways (see [`mat_deviations`]).
fn mat_differences(label: &str, gnubg: &str, ours: &str) -> usize {
    let (g, o): (Vec<&str>, Vec<&str>) = (gnubg.lines().collect(), ours.lines().collect());
    assert_eq!(
        g.len(),
        o.len(),
        "{label}: line count differs from gnubg's export"
    );
    let mut explained = 0;
    for (k, (gl, ol)) in g.iter().zip(&o).enumerate() {
        if gl == ol {
            continue;
        }
        let beaver = ol
            .rsplit_once(" Doubles => ")
            .is_some_and(|(a, b)| format!("{a} Beavers => {b}") == *gl);
        let resign_points = match (gl.split_once("Wins "), ol.split_once("Wins ")) {
            (Some((gp, gr)), Some((op, or))) if gp == op => {
                let n = |r: &str| r.split(' ').next().unwrap().parse::<u32>().unwrap();
                n(gr) == 2 * n(or)
            }
            _ => false,
        };
        assert!(
            beaver || resign_points,
            "{label} line {}: gnubg {gl:?}, bgkit {ol:?}",
            k + 1
        );
        explained += 1;
    }
    explained
}

#[test]
fn records_exported_by_gnubg_read_back_identically() {
    if !gnubg_available("records_exported_by_gnubg_read_back_identically") {
        return;
    }
    let dir = scratch("export");
    let matches = test_matches();
    let mut jobs = String::new();
    for (i, m) in matches.iter().enumerate() {
        let sgf = dir.join(format!("m{i}.sgf"));
        fs::write(&sgf, write_sgf(m).unwrap()).unwrap();
        let _ = writeln!(
            jobs,
            "sgf\t{}\texport match mat {}\tsave match {}",
            sgf.display(),
            dir.join(format!("g{i}.mat")).display(),
            dir.join(format!("g{i}.sgf")).display()
        );
    }
    // A match gnubg plays itself (0-ply, so it is quick), saved with its analysis.
    let played: Vec<(u32, &str, String)> = vec![
        (5, "standard", "set variation standard".to_string()),
        (3, "nackgammon", "set variation nackgammon".to_string()),
    ];
    for (length, name, variation) in &played {
        let sgf = dir.join(format!("played-{name}.sgf"));
        let mat = dir.join(format!("played-{name}.mat"));
        let mut cmds = vec![
            variation.clone(),
            "set player 0 gnubg".into(),
            "set player 1 gnubg".into(),
            "set player 0 name gnubg-a".into(),
            "set player 1 name gnubg-b".into(),
        ];
        for p in 0..2 {
            cmds.push(format!("set player {p} chequerplay evaluation plies 0"));
            cmds.push(format!("set player {p} cubedecision evaluation plies 0"));
        }
        cmds.extend([
            format!("set seed {length}"),
            format!("set matchlength {length}"),
            "new match".into(),
            format!("save match {}", sgf.display()),
            format!("export match mat {}", mat.display()),
        ]);
        let _ = writeln!(jobs, "play\t-\t{}", cmds.join("\t"));
        let _ = writeln!(jobs, "sgf\t{}", sgf.display());
    }
    let dumps = run_gnubg(&dir, &jobs);

    // 1. gnubg's exports of our matches read back to the same matches, and its .mat
    //    export is byte for byte bgkit's.
    let mut same_bytes = 0;
    for (i, m) in matches.iter().enumerate() {
        let want = as_gnubg_keeps_it(m);
        let g_sgf = fs::read_to_string(dir.join(format!("g{i}.sgf"))).unwrap();
        let mut got = read_sgf(&g_sgf, &format!("g{i}.sgf")).unwrap();
        assert_eq!(got.len(), 1, "g{i}.sgf: one match");
        let mut got = got.remove(0);
        if want.info.date.is_none() {
            got.info.date = None;
        }
        assert_eq!(
            got, want,
            "g{i}.sgf (gnubg's save of m{i}.sgf) reads back differently"
        );

        let g_mat = fs::read_to_string(dir.join(format!("g{i}.mat"))).unwrap();
        let mut got = read_mat(&g_mat, &format!("g{i}.mat")).unwrap();
        let mut want_mat = want.clone();
        if want.match_length == 0 {
            // gnubg's .mat has no Jacoby or beaver tags.
            want_mat.rules.jacoby = false;
        }
        if want.info.date.is_none() {
            got.info.date = None;
        }
        want_mat.rules.cube = got.rules.cube;
        assert_eq!(
            got, want_mat,
            "g{i}.mat (gnubg's export of m{i}.sgf) reads back differently"
        );

        let ours = without_rule_tags(&write_mat(m).unwrap());
        let gnubg = without_rule_tags(&g_mat);
        let deviations = mat_differences(&format!("g{i}.mat"), &gnubg, &ours);
        assert_eq!(
            deviations,
            mat_deviations(m),
            "g{i}.mat: unexplained differences from gnubg's export"
        );
        if deviations == 0 {
            same_bytes += 1;
        }
    }
    assert!(
        same_bytes + 1 >= matches.len(),
        "only {same_bytes} of {} .mat files are byte for byte gnubg's",
        matches.len()
    );

    // 2. Matches gnubg played and saved (with its analysis properties) read back to the
    //    games gnubg itself loads from them, in both formats.
    let mut games = 0;
    for (_, name, _) in &played {
        let sgf_path = dir.join(format!("played-{name}.sgf"));
        let sgf = fs::read_to_string(&sgf_path).unwrap();
        assert!(
            sgf.contains("A["),
            "gnubg's save has no analysis properties to skip"
        );
        let from_sgf = read_sgf(&sgf, "played.sgf").unwrap();
        assert_eq!(from_sgf.len(), 1);
        let from_sgf = &from_sgf[0];
        let mat = fs::read_to_string(dir.join(format!("played-{name}.mat"))).unwrap();
        let mut from_mat = read_mat(&mat, "played.mat").unwrap();
        from_mat.info.date = from_sgf.info.date;
        assert_eq!(
            &from_mat, from_sgf,
            "played-{name}: the .mat and SGF read differently"
        );
        let key = sgf_path.display().to_string();
        compare(&key, from_sgf, &from_sgf.validate().unwrap(), &dumps[&key]);
        games += from_sgf.games.len();
    }
    eprintln!(
        "read back {} gnubg exports; {same_bytes} .mat byte-identical; {games} gnubg-played games",
        matches.len()
    );
    let _ = fs::remove_dir_all(&dir);
}

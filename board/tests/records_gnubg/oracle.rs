//! gnubg's side of the comparison: one run of gnubg's Python mode loads the files and
//! dumps its view of every action, game and final position, which is compared with
//! bgkit's replays.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use board::records::{Action, MatchRecord, Replay, Seat};
use test_support::{gnubg_output, GNUBG};

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
pub(crate) struct GnubgMatch {
    info: Vec<String>,
    games: Vec<GnubgGame>,
    final_ids: (String, String),
}

/// Runs gnubg once over all jobs; returns its dumps by file path.
pub(crate) fn run_gnubg(dir: &Path, jobs: &str) -> BTreeMap<String, GnubgMatch> {
    let script = dir.join("oracle.py");
    let jobs_file = dir.join("jobs.txt");
    let out = dir.join("oracle.out");
    fs::write(&script, ORACLE_PY).unwrap();
    fs::write(&jobs_file, jobs).unwrap();
    let run = gnubg_output(
        Command::new(GNUBG)
            .args(["-t", "-q", "-r", "-p"])
            .arg(&script)
            .env("BGKIT_ORACLE_JOBS", &jobs_file)
            .env("BGKIT_ORACLE_OUT", &out)
            .current_dir(dir),
        None,
    );
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
pub(crate) fn compare(label: &str, record: &MatchRecord, replays: &[Replay], g: &GnubgMatch) -> usize {
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
pub(crate) struct MatchIdFields {
    pub(crate) log_cube: u32,
    pub(crate) on_roll: usize,
    pub(crate) match_length: u32,
    pub(crate) score: [u32; 2],
}

pub(crate) fn decode_match_id(id: &str) -> MatchIdFields {
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

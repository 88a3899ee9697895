//! Jellyfish `.mat` match files: writer and reader.
//!
//! The format has no specification; gnubg's export and import define it in practice.
//!
//! # What is written
//!
//! The layout of gnubg 1.07's `export match mat`:
//!
//! ```text
//! ; [Event "Night 12"]
//! ; [EventDate "2025.01.31"]
//!
//!  3 point match
//!
//!  Game 1
//!  alice : 0                      bob : 0
//!   1)                             64: 24/18 18/14
//!   2) 62: 13/11* 24/18            51: 25/20 8/7*
//!  ...
//!  16)  Doubles => 2                Drops
//!       Wins 1 point
//! ```
//!
//! * Header tags `; [Site|Event|Round|EventDate|Variation|Transcriber "..."]`, then
//!   rule tags in XG's style where the rules differ from what gnubg assumes on import
//!   (`Crawford "Off"` in match play; `Jacoby "On"`, `Beaver "On"` in money play;
//!   `CubeLimit "1"` without a cube; gnubg skips all four), then the comment as `; `
//!   lines.
//! * ` N point match` (0 for money), then per game ` Game k` (from 1) and the score
//!   line: White's name and score padded to 31 columns, then Black's.
//! * Numbered lines: White's action in a 28-column left field, Black's on the right;
//!   when Black opens, the first left field is blank.
//! * A move is the dice, larger first, a colon and the checker movements one per die,
//!   unjoined, in the order played: `31: 8/5 6/5`, `62: 25/23 8/2*`, `62: 6/0 6/4`
//!   (bar 25, off 0, `*` on the first movement landing on a blot). A dance is the dice
//!   alone (`63: `).
//! * Cube: ` Doubles => 2`, ` Takes`, ` Drops` followed by `Wins n point(s)`;
//!   ` Beavers => 4`, whose acceptance by the doubler is not written. A beaver that the
//!   doubler drops is written ` Doubles => 4` instead (gnubg reads a double answering
//!   a double as a beaver): after ` Beavers` gnubg 1.07's import waits for the
//!   doubler's roll to accept it, and when the game ends first it rejects the next
//!   game's opening move.
//! * The end: `Wins n point(s)` in the winner's column (n = cube × 1, 2 or 3, the
//!   Jacoby rule not applied, as gnubg writes it; a dropped cube's value; a
//!   resignation's level × cube, where a player who resigns facing a double loses at
//!   the cube before the double, which gnubg's export gets wrong).
//!
//! The format has no place for resignation offers that were declined (not written)
//! or for cube values set by hand ([`Action::SetCube`]: an error).
//!
//! # What is read
//!
//! gnubg's own files and, like gnubg's import, more: a UTF-8 byte-order mark, `#`
//! comment lines, XG's header tags (`Crawford`, `Jacoby`, `Beaver`, `CubeLimit`,
//! `Variation` are used; `EventTime`, `Player 1`, ... skipped), GridGammon's
//! `name,rating` score lines, joined movements (`61: 11/4`, `65: 9/Off`,
//! `44: 24/16(2)`), `bar`/`off` as words, XG's `???` and `Cannot Move`, ` Beavers`
//! followed directly by the doubler's roll (the acceptance implied), a bare roll
//! with a forced move (played), and a bare roll before `Wins` (a resignation after
//! rolling: the roll is dropped). `Wins n points` while the game is still on means the
//! other player resigned: the points won are taken from the next game's score line
//! (gnubg's export overstates them when the doubled player resigns), else n, and the
//! level is 1, 2 or 3 by those points against the cube, as gnubg reads it.
//! The Crawford game is the first game with exactly one player at match point (rule on
//! unless a `Crawford "Off"` tag says otherwise). Games after the match is won are
//! skipped, as gnubg does. Raccoons and Snowie's `Illegal play` are rejected.
//!
//! Unlike gnubg's import, every move is checked against the rules: gnubg 1.07 accepts,
//! for instance, a move from a point while the mover has a checker on the bar.

use std::fmt::Write;

use crate::dice::Dice;
use crate::parse_move::parse_steps;
use crate::variant::Variant;

use super::error::RecordError;
use super::game::Builder;
use super::model::{Action, Date, GameRecord, MatchInfo, MatchRecord, Resignation, Rules, Seat};

/// Writes a match as a Jellyfish `.mat` file in gnubg's layout (see the module
/// documentation). The match is validated first.
pub fn write_mat(record: &MatchRecord) -> Result<String, RecordError> {
    let replays = record.validate()?;
    for (seat, name) in Seat::BOTH.iter().zip(&record.players) {
        if name.contains(':') || name.contains(['\n', '\r']) || name.trim().is_empty() {
            return Err(RecordError::unsupported(format!(
                "{seat}'s name '{name}' cannot be written to .mat (empty, or holds ':' or a line break)"
            )));
        }
    }
    let mut out = String::new();
    write_header(&mut out, record);
    let _ = write!(out, " {} point match\n\n", record.match_length);
    for (i, (game, replay)) in record.games.iter().zip(&replays).enumerate() {
        let actions: Vec<&Action> = replay.steps.iter().map(|s| &s.action).collect();
        write_game(&mut out, record, i, game, &actions).map_err(|e| e.at_game(i + 1))?;
    }
    Ok(out)
}

fn write_header(out: &mut String, m: &MatchRecord) {
    let info = &m.info;
    let mut tag = |name: &str, value: Option<&str>| {
        if let Some(v) = value {
            let _ = writeln!(out, "; [{name} \"{v}\"]");
        }
    };
    tag("Site", info.place.as_deref());
    tag("Event", info.event.as_deref());
    tag("Round", info.round.as_deref());
    let date = info
        .date
        .filter(|d| d.year > 1900)
        .map(|d| format!("{:04}.{:02}.{:02}", d.year, d.month, d.day));
    tag("EventDate", date.as_deref());
    tag(
        "Variation",
        match m.variant {
            Variant::Backgammon => None,
            Variant::Nackgammon => Some("NackGammon"),
            Variant::Hypergammon1 => Some("HyperGammon (1)"),
            Variant::Hypergammon2 => Some("HyperGammon (2)"),
            Variant::Hypergammon3 => Some("HyperGammon (3)"),
        },
    );
    tag("Transcriber", info.annotator.as_deref());
    let money = m.match_length == 0;
    tag("Crawford", (!money && !m.rules.crawford).then_some("Off"));
    tag("Jacoby", (money && m.rules.jacoby).then_some("On"));
    tag("Beaver", (money && m.rules.beavers).then_some("On"));
    tag("CubeLimit", (!m.rules.cube).then_some("1"));
    if let Some(comment) = info.comment.as_deref().filter(|c| !c.is_empty()) {
        out.push_str("\n; ");
        let body = comment.strip_suffix('\n').unwrap_or(comment);
        out.push_str(&body.replace('\n', "\n; "));
    }
    out.push('\n');
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// One game's lines. `slot` counts half-lines as gnubg's exporter does: even = White's
/// (left) field, odd = Black's (right).
fn write_game(
    out: &mut String,
    m: &MatchRecord,
    index: usize,
    game: &GameRecord,
    actions: &[&Action],
) -> Result<(), RecordError> {
    let _ = writeln!(out, " Game {}", index + 1);
    let left = format!("{} : {}", m.players[0], game.score[0]);
    let _ = writeln!(out, " {left:<31}{} : {}", m.players[1], game.score[1]);
    let mut slot = 0usize;
    let mut cube = 1u32;
    let mut beaver_pending = false;
    let mut resign_level = Resignation::Single;
    let mut board = super::game::GameState::new(m.variant, m.rules, m.match_length, game.crawford);
    for (k, action) in actions.iter().enumerate() {
        board
            .apply(action)
            .map_err(|e| RecordError::illegal(e).at_action(k + 1))?;
        let text = match action {
            Action::Move { dice, steps, .. } => {
                let mut t = format!("{}{}: ", dice.high(), dice.low());
                for (j, s) in steps.iter().enumerate() {
                    let _ = write!(t, "{}/{}{}", s.from, s.to, if s.hit { "*" } else { "" });
                    if j < 3 {
                        t.push(' ');
                    }
                }
                beaver_pending = false;
                t
            }
            Action::Double { .. } => {
                cube *= 2;
                format!(" Doubles => {cube}")
            }
            Action::Beaver { .. } => {
                cube *= 2;
                beaver_pending = true;
                // A beaver that is then dropped is written as a double answering a
                // double (gnubg reads both as a beaver): gnubg 1.07's import keeps a
                // "beaver pending" flag after ` Beavers` that only the doubler's next
                // roll clears, so after a dropped beaver it rejects the next game's
                // first roll.
                let dropped = matches!(actions.get(k + 1), Some(Action::Drop { .. }));
                format!(" {} => {cube}", if dropped { "Doubles" } else { "Beavers" })
            }
            Action::Take { .. } if beaver_pending => {
                // gnubg leaves the acceptance of a beaver implicit.
                beaver_pending = false;
                continue;
            }
            Action::Take { .. } => " Takes".to_string(),
            Action::Drop { .. } => {
                let n = cube / 2;
                let gap = if slot % 2 == 1 {
                    "\n      "
                } else {
                    "                       "
                };
                format!(" Drops{gap}Wins {n} point{}", plural(n))
            }
            Action::Resign { level, .. } => {
                resign_level = *level;
                continue;
            }
            Action::RejectResignation { .. } => continue,
            Action::AcceptResignation { seat } => {
                // The points actually won: level × the cube in play. (gnubg's export
                // multiplies by the cube it counts from ` Doubles` lines, which is one
                // doubling too high when the doubled player resigns instead of
                // answering, and its import then reads a higher level.)
                let n = board
                    .result()
                    .map_or(resign_level.multiplier() * cube, |r| r.points);
                let loser = seat.other();
                let t = match (loser, slot % 2 == 1) {
                    (Seat::Black, odd) => format!(
                        "{}      Wins {n} point{}\n",
                        if odd { "\n" } else { "" },
                        plural(n)
                    ),
                    (Seat::White, true) => format!(" Wins {n} point{}\n", plural(n)),
                    (Seat::White, false) => format!("{}Wins {n} point{}\n", " ".repeat(34), plural(n)),
                };
                out.push_str(&t);
                out.push('\n');
                slot += 1;
                continue;
            }
            Action::SetCube { .. } => {
                return Err(RecordError::unsupported(
                    "a cube set by hand cannot be written to .mat (use SGF)",
                )
                .at_action(k + 1))
            }
        };
        if slot == 0
            && matches!(
                action,
                Action::Move {
                    seat: Seat::Black,
                    ..
                }
            )
        {
            let _ = write!(out, "  1){}", " ".repeat(29));
            slot += 1;
        }
        if slot % 2 == 1 {
            out.push_str(&text);
            out.push('\n');
        } else {
            let _ = write!(out, "{:3}) {text:<27} ", slot / 2 + 1);
        }
        if matches!(action, Action::Drop { .. }) {
            out.push('\n');
            if slot.is_multiple_of(2) {
                out.push('\n');
            }
        }
        if let (Action::Move { .. }, Some(_)) = (action, board.result()) {
            // gnubg writes the bear-off win as cube × 1, 2 or 3, without Jacoby.
            let n = board.bear_off_level() * cube;
            let lead = if slot % 2 == 1 {
                " ".repeat(34)
            } else {
                "\n      ".to_string()
            };
            let _ = write!(out, "{lead}Wins {n} point{}\n\n", plural(n));
        }
        slot += 1;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// Reading

/// Header facts gathered before the ` N point match` line.
#[derive(Default)]
struct Header {
    info: MatchInfo,
    variant: Option<Variant>,
    crawford: Option<bool>,
    jacoby: Option<bool>,
    beavers: Option<bool>,
    cube: Option<bool>,
    comments: Vec<String>,
}

/// `[Name "value"]` → (name, value).
fn parse_tag(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix('[')?;
    let (name, rest) = inner.split_once('"')?;
    let value = rest.rsplit_once('"').map_or(rest, |(v, _)| v);
    Some((name.trim(), value))
}

fn on_off(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" | "1" => Some(true),
        "off" | "no" | "false" | "0" => Some(false),
        _ => None,
    }
}

impl Header {
    fn comment_line(&mut self, body: &str) {
        let body = body.trim();
        if body.is_empty() {
            return;
        }
        let Some((name, value)) = body.starts_with('[').then(|| parse_tag(body)).flatten() else {
            self.comments.push(body.to_string());
            return;
        };
        let text = || Some(value.to_string()).filter(|v| !v.trim().is_empty());
        match name {
            "Site" => self.info.place = text(),
            "Event" => self.info.event = text(),
            "Round" => self.info.round = text(),
            "Transcriber" => self.info.annotator = text(),
            "EventDate" => self.info.date = Date::parse(value),
            "Variation" => {
                let v = value.to_ascii_lowercase().replace(' ', "");
                self.variant = Some(match v.as_str() {
                    "nackgammon" => Variant::Nackgammon,
                    "hypergammon(1)" | "hypergammon1" => Variant::Hypergammon1,
                    "hypergammon(2)" | "hypergammon2" => Variant::Hypergammon2,
                    "hypergammon(3)" | "hypergammon3" | "hypergammon" => Variant::Hypergammon3,
                    _ => Variant::Backgammon,
                });
            }
            "Crawford" => self.crawford = on_off(value),
            "Jacoby" => self.jacoby = on_off(value),
            "Beaver" => self.beavers = on_off(value),
            "CubeLimit" => self.cube = value.trim().parse::<u32>().ok().map(|n| n > 1),
            // XG and BGNJ tags gnubg skips too.
            _ => {}
        }
    }
}

/// ` 7 point match` → 7.
fn parse_match_line(line: &str) -> Option<u32> {
    let t = line.trim_start();
    let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
    let n = digits.parse().ok()?;
    let rest = t[digits.len()..].trim_start().to_ascii_lowercase();
    rest.starts_with("point match").then_some(n)
}

/// ` Game 3` → 3.
fn parse_game_line(line: &str) -> Option<usize> {
    let rest = line.trim().strip_prefix("Game ")?;
    rest.trim().parse().ok()
}

/// `name : score` twice; GridGammon's `name,rating` split off. Returns
/// `(names, scores, ratings)`.
#[allow(clippy::type_complexity)]
fn parse_score_line(line: &str) -> Option<([String; 2], [u32; 2], [Option<String>; 2])> {
    let (name0, rest) = line.split_once(':')?;
    let rest = rest.trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let s0 = digits.parse().ok()?;
    let (name1, rest) = rest[digits.len()..].split_once(':')?;
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let s1 = digits.parse().ok()?;
    let split = |name: &str| -> (String, Option<String>) {
        let name = name.trim();
        match name.rsplit_once(',') {
            Some((n, r)) if r.trim().parse::<f64>().is_ok_and(|x| x > 0.0) => {
                (n.trim().to_string(), Some(r.trim().to_string()))
            }
            _ => (name.to_string(), None),
        }
    };
    let (n0, r0) = split(name0);
    let (n1, r1) = split(name1);
    Some(([n0, n1], [s0, s1], [r0, r1]))
}

/// Splits an action line into White's and Black's fields, the way gnubg's import
/// does: with two colons, Black's field starts two characters before the second;
/// otherwise at the first double space from column 15. The line number `N)` is
/// dropped from White's field.
fn split_columns(line: &str) -> (&str, Option<&str>) {
    let colons: Vec<usize> = line.match_indices(':').map(|(i, _)| i).take(2).collect();
    let (left, right) = if colons.len() == 2 && colons[1] > 3 && line.is_char_boundary(colons[1] - 2) {
        let r = colons[1] - 2;
        (
            line.get(..r.saturating_sub(1)).unwrap_or(&line[..r]),
            Some(&line[r..]),
        )
    } else if line.len() > 15 {
        match line.get(15..).and_then(|tail| tail.find("  ")) {
            Some(p) => (&line[..15 + p], Some(&line[15 + p + 1..])),
            None => (line, None),
        }
    } else {
        (line, None)
    };
    let left = match left.find(')') {
        Some(p) => &left[p + 1..],
        None => left,
    };
    (left, right)
}

/// A roll written without a move while legal moves exist: kept until we know whether
/// a resignation follows.
struct UnplayedRoll {
    seat: Seat,
    dice: Dice,
    line: usize,
}

struct GameReader {
    b: Builder,
    unplayed: Option<UnplayedRoll>,
    /// The score before this game and, if another game follows, before that one.
    score: [u32; 2],
    next_score: Option<[u32; 2]>,
}

impl GameReader {
    fn field(&mut self, seat: Seat, text: &str, line: usize) -> Result<(), RecordError> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(());
        }
        let n = self.b.next_number();
        let syntax = |msg: String| RecordError::syntax(msg).at_action(n).at_line(line);
        let lower = t.to_ascii_lowercase();
        let bytes = t.as_bytes();
        let is_roll = bytes.len() >= 3
            && (b'1'..=b'6').contains(&bytes[0])
            && (b'1'..=b'6').contains(&bytes[1])
            && bytes[2] == b':';
        if !lower.starts_with("win") {
            if let Some(u) = self.unplayed.take() {
                return Err(RecordError::illegal(format!(
                    "{} rolled {} but no move is given, although legal moves exist",
                    u.seat, u.dice
                ))
                .at_line(u.line));
            }
        }
        // A beaver's acceptance is implied when the doubler rolls.
        if is_roll {
            if let Some(by) = self.b.state.beaver_pending_by() {
                if by == seat.other() {
                    self.b.apply(Action::Take { seat }, line, "(beaver accepted)")?;
                }
            }
        }
        if is_roll {
            let dice = Dice::new(bytes[0] - b'0', bytes[1] - b'0').map_err(|e| syntax(e.to_string()))?;
            let mut rest = t[3..].trim();
            let rest_lower = rest.to_ascii_lowercase();
            if rest.starts_with("???") || rest_lower.starts_with("cannot move") {
                rest = "";
            }
            if rest_lower.starts_with("illegal play") {
                return Err(RecordError::unsupported(format!(
                    "'{t}': Snowie's illegal plays are not supported"
                ))
                .at_action(n)
                .at_line(line));
            }
            if rest.is_empty() {
                let pos = self.b.state.seated().seen_by(seat);
                let legal = pos.legal_moves(dice);
                if legal.len() > 1 {
                    self.unplayed = Some(UnplayedRoll { seat, dice, line });
                    return Ok(());
                }
                let pairs: Vec<(u8, u8)> = legal
                    .first()
                    .map(|m| m.steps().iter().map(|s| (s.from, s.to)).collect())
                    .unwrap_or_default();
                return self.b.play(seat, dice, &pairs, line, t);
            }
            let steps = parse_steps(rest).map_err(|e| syntax(format!("'{t}': {e}")))?;
            let pairs: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
            return self.b.play(seat, dice, &pairs, line, t);
        }
        if lower.starts_with("double") {
            let action = match self.b.state.double_pending_by() {
                Some(by) if by == seat.other() => Action::Beaver { seat },
                _ => Action::Double { seat },
            };
            return self.b.apply(action, line, t);
        }
        if lower.starts_with("beaver") {
            return self.b.apply(Action::Beaver { seat }, line, t);
        }
        if lower.starts_with("raccoon") {
            return Err(
                RecordError::unsupported(format!("'{t}': raccoons are not supported"))
                    .at_action(n)
                    .at_line(line),
            );
        }
        if lower.starts_with("take") {
            return self.b.apply(Action::Take { seat }, line, t);
        }
        if lower.starts_with("drop") {
            return self.b.apply(Action::Drop { seat }, line, t);
        }
        if lower.starts_with("win") {
            self.unplayed = None;
            if self.b.state.result().is_some() {
                return Ok(());
            }
            // Neither a bear-off nor a drop ended the game: the other player resigned.
            let points: u32 = lower
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .split_whitespace()
                .next()
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| syntax(format!("'{t}': no number of points")))?;
            let cube = self.b.state.cube().0;
            // The next game's score says what was won; gnubg's export overstates it
            // when the doubled player resigned instead of answering.
            let won = self.next_score.and_then(|next| {
                let (w, l) = (seat.index(), seat.other().index());
                let gain = next[w].checked_sub(self.score[w])?;
                (next[l] == self.score[l] && gain > 0 && gain % cube == 0 && gain / cube <= 3).then_some(gain)
            });
            let points = won.unwrap_or(points);
            let level = if points <= cube {
                Resignation::Single
            } else if points <= 2 * cube {
                Resignation::Gammon
            } else {
                Resignation::Backgammon
            };
            let loser = seat.other();
            if self.b.state.resign_pending().is_none_or(|(by, _)| by != loser) {
                self.b.apply(Action::Resign { seat: loser, level }, line, t)?;
            }
            return self.b.apply(Action::AcceptResignation { seat }, line, t);
        }
        if lower.starts_with("resign") {
            return Ok(());
        }
        Err(syntax(format!("unrecognised action '{t}'")))
    }
}

/// Reads a `.mat` file (see the module documentation for what is accepted). `source`
/// names the file in error messages. Every game is replayed and the match validated.
pub fn read_mat(text: &str, source: &str) -> Result<MatchRecord, RecordError> {
    read_mat_inner(text).map_err(|e| e.in_source(source))
}

fn read_mat_inner(text: &str) -> Result<MatchRecord, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let mut header = Header::default();
    let mut length = None;
    for (_, line) in lines.by_ref() {
        let t = line.trim_start();
        if let Some(body) = t.strip_prefix(';').or_else(|| t.strip_prefix('#')) {
            header.comment_line(body);
        } else if let Some(n) = parse_match_line(line) {
            length = Some(n);
            break;
        }
    }
    let Some(length) = length else {
        return Err(RecordError::syntax("not a .mat file: no ' N point match' line"));
    };
    let mut rules = Rules::default();
    if length > 0 {
        rules.crawford = header.crawford.unwrap_or(true);
        rules.jacoby = false;
        rules.beavers = false;
    } else {
        rules.jacoby = header.jacoby.unwrap_or(false);
        rules.beavers = header.beavers.unwrap_or(false);
    }
    rules.cube = header.cube.unwrap_or(true);
    if !header.comments.is_empty() {
        header.info.comment = Some(header.comments.join("\n"));
    }
    let mut record = MatchRecord {
        players: [String::new(), String::new()],
        match_length: length,
        variant: header.variant.unwrap_or_default(),
        rules,
        info: header.info,
        games: Vec::new(),
    };
    let lines: Vec<(usize, &str)> = lines.filter(|(_, l)| !l.trim().is_empty()).collect();
    let mut k = 0;
    while k < lines.len() {
        let (line_no, line) = lines[k];
        k += 1;
        let Some(number) = parse_game_line(line) else {
            continue;
        };
        let game_no = record.games.len() + 1;
        let wrap = |e: RecordError| e.at_game(game_no);
        let Some(&(score_line_no, score_line)) = lines.get(k) else {
            return Err(wrap(
                RecordError::syntax(format!("Game {number} has no score line (file truncated?)"))
                    .at_line(line_no),
            ));
        };
        k += 1;
        let Some((names, score, ratings)) = parse_score_line(score_line) else {
            return Err(wrap(
                RecordError::syntax(format!(
                    "'{}' is not a score line like ' alice : 0   bob : 0'",
                    score_line.trim()
                ))
                .at_line(score_line_no),
            ));
        };
        let end = lines[k..]
            .iter()
            .position(|(_, l)| parse_game_line(l).is_some())
            .map_or(lines.len(), |p| k + p);
        if length > 0 && score.iter().any(|&s| s >= length) {
            // The match is already won: gnubg skips such games too.
            k = end;
            continue;
        }
        if record.games.is_empty() {
            record.players = names;
            record.info.ratings = ratings;
        } else if record.players != names {
            return Err(wrap(
                RecordError::inconsistent(format!(
                    "the players '{}' and '{}' differ from the first game's '{}' and '{}'",
                    names[0], names[1], record.players[0], record.players[1]
                ))
                .at_line(score_line_no),
            ));
        }
        let crawford = record.crawford_due(record.games.len(), score);
        // A beaver in money play is accepted whatever the tags say (gnubg writes no
        // beaver tag); the rule is set from it afterwards.
        let mut rules = record.rules;
        rules.beavers |= length == 0;
        let next_score = lines
            .get(end + 1)
            .filter(|_| end < lines.len())
            .and_then(|&(_, l)| parse_score_line(l))
            .map(|(_, s, _)| s);
        let mut reader = GameReader {
            b: Builder::new(record.variant, rules, length, crawford),
            unplayed: None,
            score,
            next_score,
        };
        for &(n, l) in &lines[k..end] {
            let (left, right) = split_columns(l);
            reader.field(Seat::White, left, n).map_err(wrap)?;
            if let Some(r) = right {
                reader.field(Seat::Black, r, n).map_err(wrap)?;
            }
        }
        k = end;
        record.rules.beavers |= reader
            .b
            .actions
            .iter()
            .any(|a| matches!(a, Action::Beaver { .. }));
        record.games.push(GameRecord {
            score,
            crawford,
            result: reader.b.state.result(),
            actions: reader.b.actions,
        });
    }
    if record.games.is_empty() {
        return Err(RecordError::syntax("no games (' Game 1' lines) in the .mat file"));
    }
    record.validate()?;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::test_games::{crawford_match, money_session, planned_match, Plan};
    use crate::records::{write_sgf, RecordErrorKind};

    /// A record as `.mat` keeps it: declined resignation offers are not written.
    fn as_mat_keeps_it(m: &MatchRecord) -> MatchRecord {
        let mut m = m.clone();
        for g in &mut m.games {
            let actions = std::mem::take(&mut g.actions);
            for (k, a) in actions.iter().enumerate() {
                let declined = matches!(actions.get(k + 1), Some(Action::RejectResignation { .. }));
                if !(declined || matches!(a, Action::RejectResignation { .. })) {
                    g.actions.push(a.clone());
                }
            }
        }
        m
    }

    fn round_trip(m: &MatchRecord) {
        let text = write_mat(m).unwrap();
        let back = read_mat(&text, "t.mat").unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, as_mat_keeps_it(m), "{text}");
    }

    #[test]
    fn money_play_round_trips_with_cube_actions_and_resignations() {
        round_trip(&money_session(5, false));
        let mut m = money_session(6, false);
        m.info = MatchInfo {
            event: Some("club night".into()),
            round: Some("1".into()),
            place: Some("back room".into()),
            date: Some(Date {
                year: 2025,
                month: 1,
                day: 31,
            }),
            annotator: Some("bgkit".into()),
            comment: Some("first line\nsecond line".into()),
            ratings: [None, None],
        };
        round_trip(&m);
    }

    #[test]
    fn match_play_round_trips_in_every_variant() {
        round_trip(&crawford_match(3));
        for (seed, v) in [(4, Variant::Nackgammon), (5, Variant::Hypergammon2)] {
            round_trip(&planned_match(
                seed,
                3,
                v,
                Rules::default(),
                &[Plan::DoubleTaken, Plan::ResignDeclinedThenAccepted],
            ));
        }
        let rules = Rules {
            cube: false,
            crawford: false,
            ..Rules::default()
        };
        round_trip(&planned_match(7, 2, Variant::Backgammon, rules, &[]));
    }

    #[test]
    fn the_writer_uses_gnubgs_columns() {
        let m = money_session(5, false);
        let text = write_mat(&m).unwrap();
        assert!(
            text.starts_with("; [Jacoby \"On\"]\n; [Beaver \"On\"]\n\n 0 point match\n\n Game 1\n"),
            "{text}"
        );
        let score = text.lines().nth(6).unwrap();
        assert_eq!(score, format!(" {:<31}black player : 0", "white player : 0"));
        for line in text.lines().filter(|l| l.len() > 5 && &l[3..5] == ") ") {
            // The right field starts at column 33 (cube actions with a space, as
            // gnubg writes them: ` Takes`).
            if line.len() > 34 {
                assert_eq!(&line[32..33], " ", "{line}");
                assert!(!line[33..].starts_with("  "), "{line}");
            }
        }
        assert!(text.contains(" Beavers => 4"), "{text}");
        // The dropped beaver is written as a double (see the module documentation).
        assert!(text.contains(" Doubles => 4"), "{text}");
        assert!(text.contains("Drops"), "{text}");
    }

    /// gnubg 1.07's own export of the match in tests/data/records reads to the same
    /// record as its SGF save.
    #[test]
    fn gnubgs_own_export_is_read() {
        let mat = read_mat(
            include_str!("../../tests/data/records/gnubg-3pt.mat"),
            "gnubg-3pt.mat",
        )
        .unwrap();
        let sgf = crate::records::read_sgf(
            include_str!("../../tests/data/records/gnubg-3pt.sgf"),
            "gnubg-3pt.sgf",
        )
        .unwrap();
        assert_eq!(vec![mat], sgf);
    }

    /// An XG-style file: byte-order mark, XG tags, GridGammon ratings, joined moves,
    /// a beaver accepted by rolling, and `???` before a resignation. gnubg 1.07
    /// imports it (`import mat`) with these boards before the moves, and ends with
    /// Black winning 4 points by resignation and `0OeFADGwZ+RBIA` with White to roll.
    #[test]
    fn an_xg_style_file_is_read_as_gnubg_reads_it() {
        let text = "\u{feff}; [Site \"eXtreme Gammon\"]\n; [Player 1 \"Alice\"]\n; [EventDate \"2024.05.06\"]\n\
                    ; [EventTime \"21.53\"]\n; [Variation \"Backgammon\"]\n; [Jacoby \"On\"]\n; [Beaver \"On\"]\n\
                    ; [CubeLimit \"1024\"]\n\n0 point match\n\n Game 1\n\
                    \x20Alice,1612.5 : 0                     Bob,1500 : 0\n\
                    \x20 1) 31: 8/5 6/5                      65: 13/7 13/8\n\
                    \x20 2)  Doubles => 2                     Beavers => 4\n\
                    \x20 3) 62: 24/18* 13/11                 44: 25/21 13/5 13/9\n\
                    \x20 4) 55: ???                          Wins 4 points\n";
        let m = read_mat(text, "xg.mat").unwrap();
        assert_eq!(m.players, ["Alice", "Bob"]);
        assert_eq!(m.info.ratings, [Some("1612.5".into()), Some("1500".into())]);
        assert_eq!(m.info.place.as_deref(), Some("eXtreme Gammon"));
        assert_eq!(m.info.date, Date::parse("2024-05-06"));
        assert!(m.rules.jacoby && m.rules.beavers && m.rules.cube);
        let replay = m.replay(0).unwrap();
        let boards: Vec<String> = replay
            .steps
            .iter()
            .filter(|s| matches!(s.action, Action::Move { .. }))
            .map(|s| s.before.position_id())
            .collect();
        assert_eq!(
            boards,
            [
                "4HPwATDgc/ABMA",
                "sGfwATDgc/ABMA",
                "4OvBATCwZ/ABMA",
                "sGfkQSDg8+AAWA"
            ]
        );
        assert_eq!(
            replay.final_position.seen_by(Seat::White).position_id(),
            "0OeFADGwZ+RBIA"
        );
        assert_eq!(
            m.games[0].result,
            Some(crate::records::GameResult {
                winner: Seat::Black,
                points: 4,
                resigned: true
            })
        );
        assert!(m.games[0].actions.contains(&Action::Take { seat: Seat::White }));
        // `(2)` repeats a movement, as XG writes doubles.
        let joined = text.replace("13/5 13/9", "13/9(2) 9/5");
        assert_eq!(
            read_mat(&joined, "xg.mat")
                .unwrap()
                .replay(0)
                .unwrap()
                .final_position,
            replay.final_position
        );
    }

    #[test]
    fn dances_written_as_xg_does_are_read() {
        // Find a game with a dance, write it, and spell the dance "Cannot Move".
        let m = (0..)
            .map(|s| planned_match(s, 0, Variant::Backgammon, Rules::default(), &[Plan::Plain]))
            .find(|m| {
                m.games[0]
                    .actions
                    .iter()
                    .any(|a| matches!(a, Action::Move { steps, .. } if steps.is_empty()))
            })
            .unwrap();
        let text = write_mat(&m).unwrap();
        let mut xg = String::new();
        for line in text.lines() {
            let mut l = line.to_string();
            for d in crate::Dice::all() {
                let bare = format!("{d}: ");
                if let Some(p) = l.find(&bare) {
                    let rest = &l[p + bare.len()..];
                    if rest.is_empty() || rest.starts_with("  ") {
                        l = format!("{}{d}: Cannot Move{}", &l[..p], &rest[rest.len().min(9)..]);
                    }
                }
            }
            xg.push_str(&l);
            xg.push('\n');
        }
        assert!(xg.contains("Cannot Move"), "{xg}");
        assert_eq!(read_mat(&xg, "xg.mat").unwrap(), m);
    }

    fn error(text: &str) -> RecordError {
        let e = read_mat(text, "bad.mat").unwrap_err();
        assert!(e.to_string().starts_with("bad.mat: "), "{e}");
        e
    }

    const HEAD: &str = " 3 point match\n\n Game 1\n alice : 0                      bob : 0\n";

    #[test]
    fn malformed_files_give_clear_errors() {
        let e = error("; just a comment\nhello\n");
        assert!(e.to_string().contains("no ' N point match' line"), "{e}");
        let e = error(" 3 point match\n");
        assert!(e.to_string().contains("no games"), "{e}");
        let e = error(" 3 point match\n\n Game 1\n");
        assert!(
            e.to_string()
                .contains("Game 1 has no score line (file truncated?)"),
            "{e}"
        );
        let e = error(" 3 point match\n\n Game 1\n alice 0 bob 0\n");
        assert!(e.to_string().contains("is not a score line"), "{e}");
        let e = error(&format!("{HEAD}  1) 31: 8/4 6/5\n"));
        assert_eq!(e.kind, RecordErrorKind::Illegal);
        assert_eq!(
            e.to_string(),
            "bad.mat: game 1, action 1, line 5: 31: 8/4 6/5: White 31: 8/4 6/5 is not a legal move"
        );
        let e = error(&format!("{HEAD}  1) 31: 8/5 6/5                  Flies\n"));
        assert!(
            e.to_string().contains("line 5: unrecognised action 'Flies'"),
            "{e}"
        );
        let e = error(&format!("{HEAD}  1) 71: 8/1                      \n"));
        assert!(e.to_string().contains("unrecognised action '71: 8/1'"), "{e}");
        let e = error(&format!("{HEAD}  1) 31: 8/5 6/5 4/3 3/2 2/1\n"));
        assert!(e.to_string().contains("at most 4"), "{e}");
        let e = error(&format!(
            "{HEAD}  1) 31: 8/5 6/5                  Raccoons => 4\n"
        ));
        assert_eq!(e.kind, RecordErrorKind::Unsupported);
        let e = error(&format!(
            "{HEAD}  1) 31: 8/5 6/5                  64: \n  2) 21: 13/11 24/23\n"
        ));
        assert!(
            e.to_string().contains("Black rolled 64 but no move is given"),
            "{e}"
        );
        let e = error(&format!("{HEAD}  1) 31: 8/5 6/5                  Takes\n"));
        assert!(
            e.to_string().contains("no double by the opponent is pending"),
            "{e}"
        );
        // Truncated in the middle of a move line: the move is incomplete.
        let e = error(&format!("{HEAD}  1) 66: 24/18 24/18 13/7\n"));
        assert!(e.to_string().contains("is not a legal move"), "{e}");
    }

    #[test]
    fn what_mat_cannot_hold_is_refused() {
        let mut m = money_session(5, false);
        m.players[0] = "a:b".into();
        assert!(write_mat(&m)
            .unwrap_err()
            .to_string()
            .contains("cannot be written to .mat"));
        let m = money_session(5, true);
        let e = write_mat(&m).unwrap_err();
        assert_eq!(e.kind, RecordErrorKind::Unsupported);
        assert!(e.to_string().contains("game 8, action"), "{e}");
        // SGF can.
        assert!(write_sgf(&m).is_ok());
    }
}

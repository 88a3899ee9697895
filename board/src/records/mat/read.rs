//! Reading `.mat`: games built action by action from the two columns, every action
//! checked against the rules as it is read (see [`super`]).

use crate::dice::Dice;
use crate::parse_move::parse_steps;
use crate::records::error::RecordError;
use crate::records::game::Builder;
use crate::records::model::{Action, GameRecord, MatchRecord, Resignation, Rules, Seat};

use super::lines::{parse_game_line, parse_match_line, parse_score_line, split_columns, Header};

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
    for (line_no, line) in lines.by_ref() {
        let t = line.trim_start();
        if let Some(body) = t.strip_prefix(';').or_else(|| t.strip_prefix('#')) {
            header.comment_line(body);
        } else if let Some(n) = parse_match_line(line) {
            let n = n.map_err(|digits| MatchRecord::length_too_long(digits).at_line(line_no))?;
            MatchRecord::check_length(n).map_err(|e| e.at_line(line_no))?;
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

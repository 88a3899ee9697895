//! Writing `.mat`: gnubg's layout of header tags, score lines and two columns of
//! actions (see [`super`]).

use std::fmt::Write;

use crate::records::error::RecordError;
use crate::records::game::GameState;
use crate::records::model::{Action, GameRecord, MatchRecord, Resignation, Seat};
use crate::variant::Variant;

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
        // The reader trims names and takes `name,1500` as GridGammon's name and rating.
        if name.trim() != name || super::lines::split_rating(name).1.is_some() {
            return Err(RecordError::unsupported(format!(
                "{seat}'s name '{name}' cannot be written to .mat (it would read back as \
                 another name: white space at an end, or ',' and a rating at the end)"
            )));
        }
    }
    let tags = [
        ("Site", &record.info.place),
        ("Event", &record.info.event),
        ("Round", &record.info.round),
        ("Transcriber", &record.info.annotator),
    ];
    for (tag, value) in tags {
        if let Some(v) = value.as_deref().filter(|v| v.contains(['\n', '\r'])) {
            return Err(RecordError::unsupported(format!(
                "the {tag} '{v}' cannot be written to .mat (a header tag holds no line break)"
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
    let mut board = GameState::new(m.variant, m.rules, m.match_length, game.crawford);
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

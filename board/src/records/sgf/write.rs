//! Writing SGF: one game tree per game, in gnubg's layout (see [`super`]).

use std::fmt::Write;

use crate::records::error::RecordError;
use crate::records::model::{Action, MatchRecord, Seat};
use crate::variant::Variant;

/// The `AP` (application) property bgkit writes.
const APPLICATION: &str = concat!("bgkit:", env!("CARGO_PKG_VERSION"));

/// Writes a whole match as SGF, one game tree per game, as gnubg's `save match` does.
/// The match is validated first (see [`MatchRecord::validate`]).
pub fn write_sgf(record: &MatchRecord) -> Result<String, RecordError> {
    let replays = record.validate()?;
    let mut out = String::new();
    for (i, replay) in replays.iter().enumerate() {
        write_tree(&mut out, record, i, replay.steps.iter().map(|s| &s.action));
    }
    Ok(out)
}

/// Writes one game of a match as a single SGF game tree, for appending to a
/// collection file. The game is replayed (checked) first.
pub fn write_sgf_game(record: &MatchRecord, index: usize) -> Result<String, RecordError> {
    let replay = record.replay(index)?;
    let mut out = String::new();
    write_tree(&mut out, record, index, replay.steps.iter().map(|s| &s.action));
    Ok(out)
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn point_letter(seat: Seat, p: u8) -> char {
    match p {
        25 => 'y',
        0 => 'z',
        p => match seat {
            Seat::White => (b'a' + p - 1) as char,
            Seat::Black => (b'x' - (p - 1)) as char,
        },
    }
}

fn variant_token(v: Variant) -> Option<&'static str> {
    match v {
        Variant::Backgammon => None,
        Variant::Nackgammon => Some("Nackgammon"),
        Variant::Hypergammon1 => Some("Hypergammon1"),
        Variant::Hypergammon2 => Some("Hypergammon2"),
        Variant::Hypergammon3 => Some("Hypergammon3"),
    }
}

fn write_tree<'a>(
    out: &mut String,
    m: &MatchRecord,
    index: usize,
    actions: impl Iterator<Item = &'a Action>,
) {
    let game = &m.games[index];
    let _ = write!(
        out,
        "(;FF[4]GM[6]CA[UTF-8]AP[{APPLICATION}]MI[length:{}][game:{index}][ws:{}][bs:{}]PW[{}]PB[{}]",
        m.match_length,
        game.score[0],
        game.score[1],
        escape(&m.players[0]),
        escape(&m.players[1])
    );
    if index == 0 {
        let info = &m.info;
        let mut prop = |name: &str, value: &Option<String>| {
            if let Some(v) = value.as_deref().filter(|v| !v.is_empty()) {
                let _ = write!(out, "{name}[{}]", escape(v));
            }
        };
        prop("WR", &info.ratings[0]);
        prop("BR", &info.ratings[1]);
        prop(
            "DT",
            &info
                .date
                .map(|d| format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)),
        );
        prop("EV", &info.event);
        prop("RO", &info.round);
        prop("PC", &info.place);
        prop("AN", &info.annotator);
        prop("GC", &info.comment);
    }
    let mut rules = Vec::new();
    if !m.rules.cube {
        rules.push("NoCube");
    }
    if m.match_length > 0 && m.rules.crawford {
        rules.push("Crawford");
        if game.crawford {
            rules.push("CrawfordGame");
        }
    }
    if m.match_length == 0 && m.rules.jacoby {
        rules.push("Jacoby");
    }
    rules.extend(variant_token(m.variant));
    if m.match_length == 0 && m.rules.beavers {
        rules.push("Beavers");
    }
    if !rules.is_empty() {
        let _ = write!(out, "RU[{}]", rules.join(":"));
    }
    if let Some(r) = game.result {
        let _ = write!(
            out,
            "RE[{}+{}{}]",
            r.winner.sgf_letter(),
            r.points,
            if r.resigned { "R" } else { "" }
        );
    }
    for action in actions {
        out.push_str("\n;");
        match action {
            Action::Move { seat, dice, steps } => {
                let _ = write!(out, "{}[{}{}", seat.sgf_letter(), dice.high(), dice.low());
                for s in steps {
                    out.push(point_letter(*seat, s.from));
                    out.push(point_letter(*seat, s.to));
                }
                out.push(']');
            }
            Action::Double { seat } | Action::Beaver { seat } => {
                let _ = write!(out, "{}[double]", seat.sgf_letter());
            }
            Action::Take { seat } => {
                let _ = write!(out, "{}[take]", seat.sgf_letter());
            }
            Action::Drop { seat } => {
                let _ = write!(out, "{}[drop]", seat.sgf_letter());
            }
            Action::Resign { seat, level } => {
                let _ = write!(out, "RS[{}{}]", seat.sgf_letter(), level.multiplier());
            }
            Action::AcceptResignation { seat } => {
                let _ = write!(out, "RA[{}]", seat.sgf_letter());
            }
            Action::RejectResignation { seat } => {
                let _ = write!(out, "RJ[{}]", seat.sgf_letter());
            }
            Action::SetCube { value, owner } => {
                let owner = match owner {
                    None => 'c',
                    Some(Seat::White) => 'w',
                    Some(Seat::Black) => 'b',
                };
                let _ = write!(out, "CV[{value}]CP[{owner}]");
            }
        }
    }
    out.push_str(")\n");
}

//! bgkit's `.mat` rewritten as XG writes its files (byte-order mark, XG's tags, joined
//! movements, GridGammon ratings), and the outline of play that reading such a file
//! must give back.

use std::fmt::Write as _;

use board::records::{Action, MatchRecord};

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
pub(crate) fn xg_style(mat: &str, ratings: bool) -> String {
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
pub(crate) fn play_outline(record: &MatchRecord) -> Vec<String> {
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

//! The lines of a `.mat` text, one by one: header tags and comments, the match line,
//! game and score lines, and the split of an action line into its two columns.

use crate::records::model::{Date, MatchInfo};
use crate::variant::Variant;

/// Header facts gathered before the ` N point match` line.
#[derive(Default)]
pub(super) struct Header {
    pub(super) info: MatchInfo,
    pub(super) variant: Option<Variant>,
    pub(super) crawford: Option<bool>,
    pub(super) jacoby: Option<bool>,
    pub(super) beavers: Option<bool>,
    pub(super) cube: Option<bool>,
    pub(super) comments: Vec<String>,
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
    pub(super) fn comment_line(&mut self, body: &str) {
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

/// ` 7 point match` → `Some(Ok(7))`; `None` when the line is not a match line, and
/// `Some(Err(digits))` when its number does not fit in 32 bits.
pub(super) fn parse_match_line(line: &str) -> Option<Result<u32, &str>> {
    let t = line.trim_start();
    let digits = &t[..t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len()];
    if digits.is_empty() {
        return None;
    }
    let rest = t[digits.len()..].trim_start().to_ascii_lowercase();
    rest.starts_with("point match")
        .then(|| digits.parse().map_err(|_| digits))
}

/// ` Game 3` → 3.
pub(super) fn parse_game_line(line: &str) -> Option<usize> {
    let rest = line.trim().strip_prefix("Game ")?;
    rest.trim().parse().ok()
}

/// `name : score` twice; GridGammon's `name,rating` split off. Returns
/// `(names, scores, ratings)`.
#[allow(clippy::type_complexity)]
pub(super) fn parse_score_line(line: &str) -> Option<([String; 2], [u32; 2], [Option<String>; 2])> {
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
    let (n0, r0) = split_rating(name0);
    let (n1, r1) = split_rating(name1);
    Some(([n0, n1], [s0, s1], [r0, r1]))
}

/// A score line's name field as (name, GridGammon rating): `bob,1500` → `("bob",
/// Some("1500"))`; a name without a positive number after its last comma is kept whole.
pub(super) fn split_rating(name: &str) -> (String, Option<String>) {
    let name = name.trim();
    match name.rsplit_once(',') {
        Some((n, r)) if r.trim().parse::<f64>().is_ok_and(|x| x > 0.0) => {
            (n.trim().to_string(), Some(r.trim().to_string()))
        }
        _ => (name.to_string(), None),
    }
}

/// Splits an action line into White's and Black's fields, the way gnubg's import
/// does: with two colons, Black's field starts two characters before the second;
/// otherwise at the first double space from column 15. The line number `N)` is
/// dropped from White's field.
pub(super) fn split_columns(line: &str) -> (&str, Option<&str>) {
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

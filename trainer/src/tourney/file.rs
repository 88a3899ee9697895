//! The tournament file: versioned JSON of a [`Tournament`]. Reading checks everything a
//! worker relies on; writing lays the text out one game per line.

use std::path::Path;

use serde_json::Value;

use crate::error::TrainerError;
use crate::tourney::check;
// The tournament's types, at the paths they have always had here.
pub use crate::tourney::tournament::{
    Claim, Cycle, Game, Kind, Outcome, Pairing, Participant, Round, Settings, Slot, Sync, Tournament, FORMAT,
    VERSION,
};

/// Reads a tournament from its text; `path` names it in errors.
pub fn parse(text: &str, path: &Path) -> Result<Tournament, TrainerError> {
    let bad = |reason: String| TrainerError::format(path, reason);
    let value: Value = serde_json::from_str(text).map_err(|e| {
        if e.is_eof() {
            bad(format!("the tournament file is truncated ({e})"))
        } else {
            bad(format!("not a tournament file: invalid JSON ({e})"))
        }
    })?;
    let format = value.get("format").and_then(Value::as_str);
    if format != Some(FORMAT) {
        return Err(bad(format!(
            "not a tournament file (its \"format\" is {}, expected \"{FORMAT}\")",
            value
                .get("format")
                .map_or("missing".to_string(), |v| v.to_string())
        )));
    }
    match value.get("version").and_then(Value::as_u64) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => {
            return Err(bad(format!(
                "tournament file format version {v}; this trainer reads version {VERSION}"
            )))
        }
        None => return Err(bad("the tournament file has no format version".into())),
    }
    let t: Tournament =
        serde_json::from_value(value).map_err(|e| bad(format!("invalid tournament file: {e}")))?;
    check::check(&t).map_err(|reason| bad(format!("inconsistent tournament file: {reason}")))?;
    Ok(t)
}

/// An I/O error on `path` as one message (the trainer's `Io` variant prints the system
/// error and also gives it as its source, so a printer of error chains would show it
/// twice).
pub fn io_error(path: &Path, e: std::io::Error) -> TrainerError {
    TrainerError::Invalid(format!("{}: {e}", path.display()))
}

/// Reads and checks the tournament file at `path`.
pub fn read(path: &Path) -> Result<Tournament, TrainerError> {
    let text = std::fs::read_to_string(path).map_err(|e| io_error(path, e))?;
    parse(&text, path)
}

/// The file's text: JSON laid out over lines (each game on one line), fields in the
/// order of the structures above.
pub fn to_text(t: &Tournament) -> String {
    let compact = serde_json::to_string(t).expect("a tournament serialises");
    let mut out = String::with_capacity(compact.len() + compact.len() / 8);
    Layout::new(&compact).emit(0, 0, &mut out);
    out.push('\n');
    out
}

/// Values up to this many characters (after their indentation) stay on one line.
const LINE: usize = 100;

/// Re-indents compact JSON text: a container that does not fit on its line is opened
/// over several lines, one element per line.
struct Layout<'a> {
    text: &'a str,
    /// For each byte that opens a container, the index of the byte that closes it.
    close: Vec<usize>,
}

impl<'a> Layout<'a> {
    fn new(text: &'a str) -> Layout<'a> {
        let b = text.as_bytes();
        let mut close = vec![0; b.len()];
        let mut stack = Vec::new();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'"' => i = Self::string_end(b, i),
                b'{' | b'[' => stack.push(i),
                b'}' | b']' => {
                    if let Some(open) = stack.pop() {
                        close[open] = i;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Layout { text, close }
    }

    /// The index of the quote that closes the string opened at `i`.
    fn string_end(b: &[u8], mut i: usize) -> usize {
        i += 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        i.min(b.len() - 1)
    }

    /// The index of the last byte of the value starting at `i`.
    fn value_end(&self, i: usize) -> usize {
        let b = self.text.as_bytes();
        match b[i] {
            b'{' | b'[' => self.close[i],
            b'"' => Self::string_end(b, i),
            _ => {
                let mut j = i;
                while j + 1 < b.len() && !matches!(b[j + 1], b',' | b'}' | b']') {
                    j += 1;
                }
                j
            }
        }
    }

    fn emit(&self, i: usize, indent: usize, out: &mut String) {
        let b = self.text.as_bytes();
        let end = self.value_end(i);
        if !matches!(b[i], b'{' | b'[') || end - i < LINE.saturating_sub(indent) {
            out.push_str(&self.text[i..=end]);
            return;
        }
        let pad = |n: usize, out: &mut String| out.extend(std::iter::repeat_n(' ', n));
        out.push(b[i] as char);
        out.push('\n');
        let mut k = i + 1;
        while k < end {
            pad(indent + 2, out);
            if b[i] == b'{' {
                let key_end = Self::string_end(b, k);
                out.push_str(&self.text[k..=key_end]);
                out.push_str(": ");
                k = key_end + 2;
            }
            self.emit(k, indent + 2, out);
            k = self.value_end(k) + 1;
            if b[k] == b',' {
                out.push(',');
                k += 1;
            }
            out.push('\n');
        }
        pad(indent, out);
        out.push(b[end] as char);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tourney::schedule::new_tournament;

    #[test]
    fn the_text_reads_back_to_the_same_tournament() {
        let settings = Settings {
            kind: Kind::RoundRobin,
            games_per_pairing: 60,
            cycles: 2,
            seed: 7,
            sync: Sync::Round,
            stale_after_s: 10,
        };
        // Names with JSON's special characters, which the layout must step over.
        let names = ["a \"q\" [x] {y}, z", "b\\", "c:]}"];
        let parts = names
            .iter()
            .map(|n| Participant {
                name: n.to_string(),
                specs: vec!["random".into()],
                results_from: 0,
            })
            .collect();
        let mut t = new_tournament(settings, parts).unwrap();
        let slot = t.games().nth(5).unwrap().0;
        t.game_mut(slot).result = Some(Outcome {
            winner: 1,
            points: 3,
            turns: 77,
            versions: [0, 0],
        });
        let text = to_text(&t);
        assert_eq!(parse(&text, Path::new("t.json")).unwrap(), t);
        assert_eq!(serde_json::from_str::<Tournament>(&text).unwrap(), t);
        // Short values stay on one line; each game has a line of its own.
        assert!(text.contains("\n    \"type\": \"round-robin\",\n"), "{text}");
        assert!(
            text.lines().any(|l| l.trim() == "{\"id\":0,\"first\":0},"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= 130), "{text}");
    }
}

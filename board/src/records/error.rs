//! The error type of game records: what went wrong, and where.

use std::fmt;

/// What kind of problem a [`RecordError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// The file could not be read or written.
    Io,
    /// The text is not well-formed SGF or `.mat` (truncated, bad letters, unknown tokens).
    Syntax,
    /// A move or cube action breaks the rules at that point of the game.
    Illegal,
    /// Parts of the record disagree (a stated result, score or flag that the moves
    /// contradict).
    Inconsistent,
    /// Well-formed, but something bgkit does not model (board edits, raccoons, ...).
    Unsupported,
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RecordErrorKind::Io => "i/o error",
            RecordErrorKind::Syntax => "syntax error",
            RecordErrorKind::Illegal => "illegal action",
            RecordErrorKind::Inconsistent => "inconsistent record",
            RecordErrorKind::Unsupported => "unsupported",
        })
    }
}

/// An error reading, writing or replaying a game record. Its message names the file
/// (when known), the game and action (1-based) and the line, then the problem, e.g.
/// `m.sgf: game 2, action 17, line 20: B[61yg]: no checker on the bar`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct RecordError {
    /// The kind of problem.
    pub kind: RecordErrorKind,
    /// The file or other source the record came from, if known.
    pub source_name: Option<String>,
    /// The game, counted from 1, if the problem is inside a game.
    pub game: Option<usize>,
    /// The action within that game, counted from 1, if the problem is one action.
    pub action: Option<usize>,
    /// The line of the file, counted from 1, if known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl RecordError {
    /// An error with only a kind and a message; add the location with the `at_*`
    /// methods.
    pub fn new(kind: RecordErrorKind, message: impl Into<String>) -> RecordError {
        RecordError {
            kind,
            source_name: None,
            game: None,
            action: None,
            line: None,
            message: message.into(),
        }
    }

    /// Names the source (file) unless one is already named.
    #[must_use]
    pub fn in_source(mut self, name: &str) -> RecordError {
        if self.source_name.is_none() {
            self.source_name = Some(name.to_string());
        }
        self
    }

    /// Sets the game number (1-based) unless one is already set.
    #[must_use]
    pub fn at_game(mut self, game: usize) -> RecordError {
        self.game.get_or_insert(game);
        self
    }

    /// Sets the action number (1-based) unless one is already set.
    #[must_use]
    pub fn at_action(mut self, action: usize) -> RecordError {
        self.action.get_or_insert(action);
        self
    }

    /// Sets the line number (1-based) unless one is already set.
    #[must_use]
    pub fn at_line(mut self, line: usize) -> RecordError {
        self.line.get_or_insert(line);
        self
    }

    pub(crate) fn syntax(message: impl Into<String>) -> RecordError {
        RecordError::new(RecordErrorKind::Syntax, message)
    }

    pub(crate) fn illegal(message: impl Into<String>) -> RecordError {
        RecordError::new(RecordErrorKind::Illegal, message)
    }

    pub(crate) fn inconsistent(message: impl Into<String>) -> RecordError {
        RecordError::new(RecordErrorKind::Inconsistent, message)
    }

    pub(crate) fn unsupported(message: impl Into<String>) -> RecordError {
        RecordError::new(RecordErrorKind::Unsupported, message)
    }
}

impl RecordError {
    fn describe(&self) -> String {
        let mut place = Vec::new();
        if let Some(g) = self.game {
            place.push(format!("game {g}"));
        }
        if let Some(a) = self.action {
            place.push(format!("action {a}"));
        }
        if let Some(l) = self.line {
            place.push(format!("line {l}"));
        }
        let mut out = String::new();
        if let Some(name) = &self.source_name {
            out.push_str(name);
            out.push_str(": ");
        }
        if !place.is_empty() {
            out.push_str(&place.join(", "));
            out.push_str(": ");
        }
        out.push_str(&self.message);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_every_known_place() {
        let e = RecordError::illegal("B[61yg]: no checker on the bar")
            .at_action(17)
            .at_line(20)
            .at_game(2)
            .in_source("m.sgf");
        assert_eq!(
            e.to_string(),
            "m.sgf: game 2, action 17, line 20: B[61yg]: no checker on the bar"
        );
        // The innermost location wins.
        let e = RecordError::syntax("x").at_game(1).at_game(3);
        assert_eq!(e.to_string(), "game 1: x");
    }
}

//! Dataset files: one labelled position per record, in three formats.
//!
//! * [`Format::Csv`]: `position_id,win,win_g,win_bg,lose_g,lose_bg` (wildbg's training
//!   data layout), optionally followed by `win_se,win_g_se,win_bg_se,lose_g_se,lose_bg_se`.
//! * [`Format::GnubgNn`]: gnubg-nn's training text, one line per position: the 20-letter
//!   position key and the five probabilities, separated by spaces.
//! * [`Format::Binary`]: a memory-mapped file of fixed-size records with a versioned
//!   header and a checksum (see [`binary`]).
//!
//! Probabilities are for the side on roll, cumulative as in gnubg (gammons include
//! backgammons). Numbers are written as the shortest decimal that reads back to the
//! same `f32`, so text files round-trip exactly through every format.

pub mod binary;
pub mod csv;
pub mod gnubg_nn;
mod input;

pub use input::Input;

use std::io::Write;
use std::path::Path;

use board::Position;
use fileio::Existing;

use crate::error::DatasetError;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position, side on roll in `sides()[1]`.
    pub position: Position,
    /// Win, win gammon, win backgammon, lose gammon, lose backgammon (cumulative), for
    /// the side on roll.
    pub probs: [f32; 5],
    /// Standard errors of `probs`, when known.
    pub se: Option<[f32; 5]>,
    /// Rollout trials behind the values (0 when unknown).
    pub trials: u32,
}

/// The file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// CSV with a header (`.csv`).
    Csv,
    /// gnubg-nn training text (`.nn`, `.dat`, `.txt`).
    GnubgNn,
    /// bgkit's binary dataset (`.bgds`, `.bin`).
    Binary,
}

impl Format {
    /// The format named by a file's extension.
    pub fn from_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "csv" => Some(Format::Csv),
            "nn" | "dat" | "txt" => Some(Format::GnubgNn),
            "bgds" | "bin" => Some(Format::Binary),
            _ => None,
        }
    }

    /// The format of an existing file: the binary magic, else a CSV header
    /// (`position_id` first, which no gnubg-nn line starts with: a CSV named `.txt` is
    /// read as CSV), else the extension, else gnubg-nn text. A pipe is read whole to
    /// tell, which leaves nothing to parse: open an input that may be one with
    /// [`Input::open`] and ask it ([`Input::format`]).
    pub fn detect(path: &Path) -> Result<Format, DatasetError> {
        Input::open(path)?.format()
    }

    /// The format of a file that starts with `head` (its first 16 bytes, fewer when it
    /// is shorter) and is named `path`.
    fn of_start(head: &[u8], path: &Path) -> Format {
        if head.starts_with(&binary::MAGIC) {
            Format::Binary
        } else if head.starts_with(b"position_id") {
            Format::Csv
        } else {
            Format::from_extension(path).unwrap_or(Format::GnubgNn)
        }
    }

    /// The format to write `path` in: `explicit`, else the extension. `option` is how
    /// the caller lets a user name the format (`--to`), for the message when neither
    /// tells.
    pub fn for_output(path: &Path, explicit: Option<Format>, option: &str) -> Result<Format, DatasetError> {
        explicit.or_else(|| Format::from_extension(path)).ok_or_else(|| {
            DatasetError::Invalid(format!(
                "cannot tell the format of {} from its extension (.csv, .nn/.dat/.txt, .bgds/.bin); give {option}",
                path.display()
            ))
        })
    }

    /// The name used in messages and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::GnubgNn => "gnubg-nn",
            Format::Binary => "binary",
        }
    }
}

/// Reads a whole dataset (a file, or a pipe: see [`Input`]).
pub fn read(path: &Path, format: Format) -> Result<Vec<Sample>, DatasetError> {
    Input::open(path)?.samples(format)
}

/// Writes a whole dataset (to a temporary name, renamed when complete), replacing a
/// file at `path`.
pub fn write(path: &Path, format: Format, samples: &[Sample]) -> Result<(), DatasetError> {
    write_with(path, format, samples, Existing::Replace)
}

/// As [`write()`], doing with a file at `path` what `existing` says (a command's
/// `--force`).
pub fn write_with(
    path: &Path,
    format: Format,
    samples: &[Sample],
    existing: Existing,
) -> Result<(), DatasetError> {
    match format {
        Format::Csv => write_text(path, existing, |w| csv::write_to(w, samples)),
        Format::GnubgNn => write_text(path, existing, |w| gnubg_nn::write_to(w, samples)),
        Format::Binary => binary::write(path, samples, existing),
    }
}

/// Writes a text file atomically: a temporary file beside `path`, synced, renamed (or
/// linked, keeping a file there, as `existing` says).
pub fn write_text(
    path: &Path,
    existing: Existing,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), DatasetError> {
    let result = (|| {
        let mut w = fileio::AtomicFile::create(path)?;
        body(&mut w)?;
        w.commit_with(existing)
    })();
    result.map_err(|e| DatasetError::io(path, e))
}

/// Writes a probability or standard error: the shortest text that reads back to the
/// same `f32` (no negative zero).
pub fn fmt_f32(v: f32) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    format!("{v}")
}

/// Parses one value, checking it is a finite number in `range`.
pub fn parse_value(text: &str, what: &str, lo: f32, hi: f32) -> Result<f32, String> {
    let v: f32 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what} '{}' is not a number", text.trim()))?;
    if !v.is_finite() || v < lo || v > hi {
        return Err(format!("{what} {v} is outside [{lo}, {hi}]"));
    }
    Ok(v)
}

/// The names of the five outputs, as CSV columns.
pub const OUTPUT_NAMES: [&str; 5] = ["win", "win_g", "win_bg", "lose_g", "lose_bg"];
/// The names of their standard-error columns.
pub const SE_NAMES: [&str; 5] = ["win_se", "win_g_se", "win_bg_se", "lose_g_se", "lose_bg_se"];

//! gnubg-nn's training text: one position per line, `KEY p0 p1 p2 p3 p4`.
//!
//! `KEY` is 20 letters `A`–`P`: the 10 bytes of gnubg's position key (the same 80-bit
//! key the Position ID encodes in Base64: for the side not on roll and then the side on
//! roll, each of its 25 slots as one 1-bit per checker and a 0-bit, bits filling each
//! byte from the least significant end), each byte written as two letters, high nibble
//! first, `A` standing for 0 and `P` for 15. The five numbers are win, win gammon, win
//! backgammon, lose gammon, lose backgammon for the side on roll. Blank lines and lines
//! starting with `#` are skipped when reading.

use std::io::{Read, Write};
use std::path::Path;

use board::Position;

use super::{fmt_f32, parse_value, Sample, OUTPUT_NAMES};
use crate::error::DatasetError;

/// The 20-letter key of a position.
pub fn key_text(pos: &Position) -> String {
    let mut s = String::with_capacity(20);
    for b in pos.key() {
        s.push(char::from(b'A' + (b >> 4)));
        s.push(char::from(b'A' + (b & 15)));
    }
    s
}

/// The position of a 20-letter key.
pub fn parse_key(text: &str) -> Result<Position, String> {
    let bytes = text.as_bytes();
    if bytes.len() != 20 {
        return Err(format!(
            "position key '{text}' has {} characters (expected 20)",
            text.chars().count()
        ));
    }
    let mut key = [0u8; 10];
    for (i, k) in key.iter_mut().enumerate() {
        let nib = |c: u8| {
            if (b'A'..=b'P').contains(&c) {
                Ok(c - b'A')
            } else {
                Err(format!(
                    "position key '{text}' has '{}' (only A-P are allowed)",
                    char::from(c)
                ))
            }
        };
        *k = (nib(bytes[2 * i])? << 4) | nib(bytes[2 * i + 1])?;
    }
    Position::from_key(&key).map_err(|(reason, err)| match err {
        Some(e) => format!("position key '{text}' decodes to an invalid position: {e}"),
        None => format!("position key '{text}' is not a valid key: {reason}"),
    })
}

/// Writes samples as gnubg-nn text.
pub fn write_to(w: &mut dyn Write, samples: &[Sample]) -> std::io::Result<()> {
    for s in samples {
        write!(w, "{}", key_text(&s.position))?;
        for p in s.probs {
            write!(w, " {}", fmt_f32(p))?;
        }
        writeln!(w)?;
    }
    Ok(())
}

/// Reads a gnubg-nn training file.
pub fn read(path: &Path) -> Result<Vec<Sample>, DatasetError> {
    let file = std::fs::File::open(path).map_err(|e| DatasetError::io(path, e))?;
    read_from(path, file)
}

/// Reads a gnubg-nn training file from `reader`, the contents of `path` (named in
/// messages).
pub fn read_from(path: &Path, mut reader: impl Read) -> Result<Vec<Sample>, DatasetError> {
    let mut text = Vec::new();
    reader
        .read_to_end(&mut text)
        .map_err(|e| DatasetError::io(path, e))?;
    let text =
        String::from_utf8(text).map_err(|_| DatasetError::file(path, "not a text file (invalid UTF-8)"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i as u64 + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(DatasetError::parse(
                path,
                n,
                format!(
                    "expected a key and 5 probabilities, found {} fields",
                    fields.len()
                ),
            ));
        }
        let position = parse_key(fields[0]).map_err(|m| DatasetError::parse(path, n, m))?;
        let mut probs = [0f32; 5];
        for k in 0..5 {
            probs[k] = parse_value(fields[k + 1], OUTPUT_NAMES[k], 0.0, 1.0)
                .map_err(|m| DatasetError::parse(path, n, m))?;
        }
        out.push(Sample {
            position,
            probs,
            se: None,
            trials: 0,
        });
    }
    Ok(out)
}

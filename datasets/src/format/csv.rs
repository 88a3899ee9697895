//! The CSV layout: `position_id,win,win_g,win_bg,lose_g,lose_bg` (wildbg's training
//! data), optionally followed by the five standard-error columns
//! `win_se,win_g_se,win_bg_se,lose_g_se,lose_bg_se`.
//!
//! Reading finds the columns by name (in any order; other columns are ignored). The
//! standard-error columns are all present or all absent. Writing puts the
//! standard-error columns in only when every sample has them.

use std::io::{Read, Write};
use std::path::Path;

use board::Position;

use super::{fmt_f32, parse_value, Sample, OUTPUT_NAMES, SE_NAMES};
use crate::error::DatasetError;

/// The header line (without standard errors).
pub fn header(with_se: bool) -> String {
    let mut h = String::from("position_id");
    for n in OUTPUT_NAMES {
        h.push(',');
        h.push_str(n);
    }
    if with_se {
        for n in SE_NAMES {
            h.push(',');
            h.push_str(n);
        }
    }
    h
}

/// One data line (without a newline).
pub fn line(s: &Sample, with_se: bool) -> String {
    let mut l = s.position.position_id();
    for p in s.probs {
        l.push(',');
        l.push_str(&fmt_f32(p));
    }
    if with_se {
        for e in s.se.unwrap_or([0.0; 5]) {
            l.push(',');
            l.push_str(&fmt_f32(e));
        }
    }
    l
}

/// Writes samples as CSV.
pub fn write_to(w: &mut dyn Write, samples: &[Sample]) -> std::io::Result<()> {
    let with_se = !samples.is_empty() && samples.iter().all(|s| s.se.is_some());
    writeln!(w, "{}", header(with_se))?;
    for s in samples {
        writeln!(w, "{}", line(s, with_se))?;
    }
    Ok(())
}

/// Reads a CSV dataset.
pub fn read(path: &Path) -> Result<Vec<Sample>, DatasetError> {
    read_from(path, open(path)?)
}

/// Reads a CSV dataset from `reader`, the contents of `path` (named in messages).
pub fn read_from(path: &Path, reader: impl Read) -> Result<Vec<Sample>, DatasetError> {
    let mut rdr = ::csv::ReaderBuilder::new().flexible(false).from_reader(reader);
    let headers = rdr
        .headers()
        .map_err(|e| DatasetError::parse(path, 1, format!("cannot read the header: {e}")))?
        .clone();
    let find = |name: &str| headers.iter().position(|h| h.trim() == name);
    let id_col = find("position_id")
        .ok_or_else(|| DatasetError::parse(path, 1, "the header has no 'position_id' column"))?;
    if !target_columns(path, &headers)? {
        return Err(DatasetError::parse(
            path,
            1,
            format!(
                "the header has none of the 5 target columns ({}): a positions file, not a dataset",
                OUTPUT_NAMES.join(", ")
            ),
        ));
    }
    let cols: Vec<usize> = OUTPUT_NAMES
        .iter()
        .map(|n| find(n).expect("all five present"))
        .collect();
    let se_cols: Vec<Option<usize>> = SE_NAMES.iter().map(|n| find(n)).collect();
    let with_se = match se_cols.iter().filter(|c| c.is_some()).count() {
        0 => false,
        5 => true,
        _ => {
            return Err(DatasetError::parse(
                path,
                1,
                "the header has some standard-error columns but not all five",
            ))
        }
    };
    let mut out = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i as u64 + 2;
        let rec = rec.map_err(|e| DatasetError::parse(path, line, e.to_string()))?;
        let bad = |m: String| DatasetError::parse(path, line, m);
        let id = rec.get(id_col).unwrap_or("").trim();
        let position = Position::from_id(id).map_err(|e| bad(e.to_string()))?;
        let mut probs = [0f32; 5];
        for (k, &c) in cols.iter().enumerate() {
            probs[k] = parse_value(rec.get(c).unwrap_or(""), OUTPUT_NAMES[k], 0.0, 1.0).map_err(&bad)?;
        }
        let se = if with_se {
            let mut se = [0f32; 5];
            for (k, c) in se_cols.iter().enumerate() {
                let c = c.expect("all five present");
                se[k] = parse_value(rec.get(c).unwrap_or(""), SE_NAMES[k], 0.0, f32::MAX).map_err(&bad)?;
            }
            Some(se)
        } else {
            None
        };
        out.push(Sample {
            position,
            probs,
            se,
            trials: 0,
        });
    }
    Ok(out)
}

/// Whether a CSV file's header has the five probability columns (false when it has
/// none: a positions-only file). Some but not all five is an error naming the missing
/// ones, never taken as positions-only.
pub fn has_targets(path: &Path) -> Result<bool, DatasetError> {
    has_targets_from(path, open(path)?)
}

/// As [`has_targets`], reading `reader`, the contents of `path`.
pub fn has_targets_from(path: &Path, reader: impl Read) -> Result<bool, DatasetError> {
    let mut rdr = ::csv::ReaderBuilder::new().flexible(true).from_reader(reader);
    let headers = rdr
        .headers()
        .map_err(|e| DatasetError::parse(path, 1, format!("cannot read the header: {e}")))?;
    target_columns(path, headers)
}

/// Whether `headers` (of `path`) has the five probability columns: true, false when it
/// has none of them, an error naming the missing ones when it has some.
fn target_columns(path: &Path, headers: &::csv::StringRecord) -> Result<bool, DatasetError> {
    let missing: Vec<&str> = OUTPUT_NAMES
        .iter()
        .copied()
        .filter(|n| !headers.iter().any(|h| h.trim() == *n))
        .collect();
    match missing.len() {
        0 => Ok(true),
        n if n == OUTPUT_NAMES.len() => Ok(false),
        _ => Err(DatasetError::parse(
            path,
            1,
            format!(
                "the header has {} of the 5 target columns; missing: {}",
                OUTPUT_NAMES.len() - missing.len(),
                missing.join(", ")
            ),
        )),
    }
}

/// Reads the `position_id` column of a CSV file (the input of rollouts and labels):
/// Position IDs, or `PositionID:MatchID` or XGIDs ([`board::parse_any_id`]; the
/// position only). Target columns are ignored, but a header with some and not all
/// five of them is an error naming the missing ones (a damaged dataset, not a
/// positions file).
pub fn read_position_ids(path: &Path) -> Result<Vec<Position>, DatasetError> {
    read_position_ids_from(path, open(path)?)
}

/// As [`read_position_ids`], reading `reader`, the contents of `path`.
pub fn read_position_ids_from(path: &Path, reader: impl Read) -> Result<Vec<Position>, DatasetError> {
    let mut rdr = ::csv::ReaderBuilder::new().flexible(true).from_reader(reader);
    let headers = rdr
        .headers()
        .map_err(|e| DatasetError::parse(path, 1, format!("cannot read the header: {e}")))?
        .clone();
    target_columns(path, &headers)?;
    let col = headers
        .iter()
        .position(|h| h.trim() == "position_id")
        .ok_or_else(|| DatasetError::parse(path, 1, "the header has no 'position_id' column"))?;
    let mut out = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i as u64 + 2;
        let rec = rec.map_err(|e| DatasetError::parse(path, line, e.to_string()))?;
        let id = rec.get(col).unwrap_or("").trim();
        let any = board::parse_any_id(id).map_err(|e| DatasetError::parse(path, line, e.to_string()))?;
        out.push(any.position);
    }
    Ok(out)
}

fn open(path: &Path) -> Result<std::fs::File, DatasetError> {
    std::fs::File::open(path).map_err(|e| DatasetError::io(path, e))
}

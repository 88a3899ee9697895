//! A one-sided database in one call: the table (exact, or gnubg's normal-distribution
//! approximation), the header the file gets ([`crate::format::style`]) and its bytes,
//! written to any writer. `gen-bearoff one-sided` is this plus its output file (a
//! temporary name, renamed), its memory check and its progress bar.

use std::io::{self, Write};

use crate::format::style::{self, StyleChoice, StyleError};
use crate::format::{Header, HeaderStyle, Kind, OneSidedParams, PositionIndex};
use crate::onesided::generate::{exact_bytes_per_position, generate_exact};
use crate::onesided::layout::{
    exact_file_size, write_exact, write_normal, OneSidedWriteOptions, NORMAL_RECORD_LEN,
};
use crate::onesided::normal::generate_normal;

/// Bytes of a normal-approximation position while it is built (its record and its
/// pip-level bookkeeping).
const NORMAL_BYTES_PER_POSITION: u64 = 16 + 10;

/// What to build: the size, the content and the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneSidedSpec {
    /// Points per side, 1 to 24 (gnubg builds 1 to 13).
    pub points: u8,
    /// Checkers per side, 1 to 15.
    pub checkers: u8,
    /// The gammon (first checker off) distributions too (gnubg's default; without: `-g`).
    pub gammon: bool,
    /// The compressed layout (gnubg's default; without: `-c`, fixed 32-value arrays).
    pub compressed: bool,
    /// gnubg's normal-distribution approximation (`-n`; always with gammons, in its own
    /// fixed layout: `gammon` and `compressed` do not apply).
    pub normal: bool,
    /// The header asked for.
    pub style: StyleChoice,
    /// No header at all (gnubg's `-H`).
    pub no_header: bool,
}

/// Why a database cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The size is outside what this generator builds (the message says what).
    #[error("{0}")]
    Size(String),
    /// The header asked for does not fit the database.
    #[error(transparent)]
    Style(#[from] StyleError),
    /// The writer failed.
    #[error(transparent)]
    Write(#[from] io::Error),
}

impl OneSidedSpec {
    /// gnubg's database of `points` × `checkers`: exact, with gammons, compressed, the
    /// header chosen automatically (gnubg's while gnubg can read the file).
    pub fn new(points: u8, checkers: u8) -> OneSidedSpec {
        OneSidedSpec {
            points,
            checkers,
            gammon: true,
            compressed: true,
            normal: false,
            style: StyleChoice::Auto,
            no_header: false,
        }
    }

    /// The positions of one side (the database's records), or why the size is out of
    /// range (1 to 24 points, 1 to 15 checkers, at most 2^32 positions) or the header
    /// asked for does not fit it.
    pub fn index(&self) -> Result<PositionIndex, BuildError> {
        let (p, c) = (self.points, self.checkers);
        if !(1..=24).contains(&p) || !(1..=15).contains(&c) {
            return Err(BuildError::Size(format!(
                "one-sided databases have 1-24 points and 1-15 checkers, not {p}x{c}"
            )));
        }
        style::check_points(self.style, self.no_header, p)?;
        let index = PositionIndex::new(usize::from(p), usize::from(c)).expect("sizes checked");
        let count = index.count();
        if count > u64::from(u32::MAX) {
            return Err(BuildError::Size(format!(
                "{p}x{c} has {count} positions, more than this generator supports (2^32)"
            )));
        }
        Ok(index)
    }

    /// The parameters its header records.
    pub fn params(&self) -> OneSidedParams {
        OneSidedParams {
            points: self.points,
            checkers: self.checkers,
            gammon: self.gammon || self.normal,
            compressed: self.compressed && !self.normal,
            normal: self.normal,
        }
    }

    /// The memory the build's tables take per position.
    pub fn bytes_per_position(&self) -> u64 {
        if self.normal {
            NORMAL_BYTES_PER_POSITION
        } else {
            exact_bytes_per_position(self.gammon)
        }
    }
}

/// Builds the database of `spec` and writes it to `out` (buffer it: the layouts write
/// in pieces). `window_budget`: the memory the exact generator may take beyond its
/// tables for its doubles window (it goes without where that does not fit; the same
/// bytes either way). `progress` gets the count of positions done. Returns the header
/// written.
pub fn build_one_sided(
    spec: &OneSidedSpec,
    window_budget: u64,
    out: &mut impl Write,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<HeaderStyle, BuildError> {
    let index = spec.index()?;
    let params = spec.params();
    let header = |style| {
        Header {
            kind: Kind::OneSided(params),
            style,
        }
        .to_bytes()
    };
    if spec.normal {
        let table = generate_normal(&index, progress);
        let size = 40 + index.count() * NORMAL_RECORD_LEN;
        let style = style::choose(spec.style, spec.no_header, spec.points, size)?;
        write_normal(&table, header(style), out)?;
        Ok(style)
    } else {
        let table = generate_exact(&index, spec.gammon, window_budget, progress);
        let mut opts = OneSidedWriteOptions {
            params,
            style: HeaderStyle::Gnubg,
        };
        opts.style = style::choose(
            spec.style,
            spec.no_header,
            spec.points,
            exact_file_size(&table, &opts),
        )?;
        write_exact(&table, &opts, header(opts.style), out)?;
        Ok(opts.style)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_headers_out_of_range_are_refused_before_any_work() {
        let never = |_: u64| panic!("no work for a refused spec");
        let mut sink = Vec::new();
        for (spec, want) in [
            (OneSidedSpec::new(0, 15), "not 0x15"),
            (OneSidedSpec::new(25, 15), "not 25x15"),
            (OneSidedSpec::new(6, 16), "not 6x16"),
            (OneSidedSpec::new(24, 15), "more than this generator supports"),
            (
                OneSidedSpec {
                    style: StyleChoice::Gnubg,
                    ..OneSidedSpec::new(24, 1)
                },
                "at most 23 points",
            ),
            (
                OneSidedSpec {
                    style: StyleChoice::Wide,
                    no_header: true,
                    ..OneSidedSpec::new(6, 15)
                },
                "cannot be combined with the wide header",
            ),
        ] {
            let e = build_one_sided(&spec, 0, &mut sink, &never)
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{spec:?}: {e}");
        }
        assert!(sink.is_empty());
    }
}

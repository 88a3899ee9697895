//! Reading two-sided databases through a memory map.
//!
//! Layout after the optional 40-byte header: record `us * n + them` (the side on roll
//! first, `n` one-sided positions per side) at `record * 8` (cubeful: cubeless, owned,
//! centred, opponent owns) or `record * 2` (cubeless only), `u16` little-endian each.

use std::path::Path;

use crate::error::BearoffError;
use crate::format::encoding::{equity_f32, equity_f64, equity_from_u16};
use crate::format::header::{HeaderStyle, Kind, TwoSidedParams};
use crate::format::index::PositionIndex;
use crate::format::mapped::MappedFile;
use crate::format::square::SquareFile;

/// A two-sided database opened for reading.
#[derive(Debug)]
pub struct TwoSidedDb {
    square: SquareFile,
    params: TwoSidedParams,
}

/// One record's stored equities, from the side on roll's point of view, per unit cube,
/// assuming no double this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Equities {
    /// Stored `u16` values: cubeless, owned, centred, opponent owns (only the first is
    /// meaningful without cubeful values).
    pub raw: [u16; 4],
    /// Whether the cubeful values are present.
    pub cubeful: bool,
}

impl Equities {
    /// Cubeless equity, `2p - 1` (gnubg's `f32` reading).
    pub fn cubeless(&self) -> f32 {
        equity_f32(self.raw[0])
    }

    /// Cubeless probability of winning for the side on roll (gnubg: `e / 2 + 0.5`).
    pub fn win_probability(&self) -> f32 {
        self.cubeless() / 2.0f32 + 0.5f32
    }

    /// Equity with the cube owned by the side on roll.
    pub fn owned(&self) -> Option<f32> {
        self.cubeful.then(|| equity_f32(self.raw[1]))
    }

    /// Equity with the cube centred.
    pub fn centred(&self) -> Option<f32> {
        self.cubeful.then(|| equity_f32(self.raw[2]))
    }

    /// Equity with the cube owned by the opponent.
    pub fn opponent_owns(&self) -> Option<f32> {
        self.cubeful.then(|| equity_f32(self.raw[3]))
    }

    /// All present values as exact `f64` (`(s + 0.5) / 32767.5`).
    pub fn exact(&self) -> Vec<f64> {
        let k = if self.cubeful { 4 } else { 1 };
        self.raw[..k].iter().map(|&u| equity_f64(u)).collect()
    }

    /// The stored signed 16-bit values.
    pub fn signed(&self) -> [i16; 4] {
        self.raw.map(equity_from_u16)
    }
}

impl TwoSidedDb {
    /// Opens a two-sided database with a header.
    pub fn open(path: impl AsRef<Path>) -> Result<TwoSidedDb, BearoffError> {
        MappedFile::open_as(
            path.as_ref(),
            "a two-sided database",
            |file, kind, style| match kind {
                Kind::TwoSided(params) => Some(TwoSidedDb::from_file(file, params, style)),
                _ => None,
            },
        )
    }

    /// Opens a headerless file whose parameters the caller knows.
    pub fn open_headerless(
        path: impl AsRef<Path>,
        params: TwoSidedParams,
    ) -> Result<TwoSidedDb, BearoffError> {
        TwoSidedDb::from_file(MappedFile::open(path.as_ref())?, params, HeaderStyle::None)
    }

    /// Validates the size and builds the reader.
    pub fn from_file(
        file: MappedFile,
        params: TwoSidedParams,
        style: HeaderStyle,
    ) -> Result<TwoSidedDb, BearoffError> {
        let index = file.position_index(params.points, params.checkers)?;
        let values = if params.cubeful { 4 } else { 1 };
        let square = SquareFile::new(file, style, index, 2 * values, "records")?;
        Ok(TwoSidedDb { square, params })
    }

    /// The file's parameters.
    pub fn params(&self) -> TwoSidedParams {
        self.params
    }

    /// The header style.
    pub fn style(&self) -> HeaderStyle {
        self.square.style()
    }

    /// One-sided positions per side.
    pub fn positions_per_side(&self) -> u64 {
        self.square.positions_per_side()
    }

    /// Number of records (`n²`).
    pub fn count(&self) -> u64 {
        self.square.count()
    }

    /// The one-sided ranking.
    pub fn index(&self) -> &PositionIndex {
        self.square.index()
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.square.path()
    }

    /// Record index of a pair of one-sided indices.
    pub fn record_index(&self, us: u64, them: u64) -> Result<u64, BearoffError> {
        self.square.record_index(us, them)
    }

    /// The equities of record `index` (`us * n + them`).
    pub fn equities(&self, index: u64) -> Result<Equities, BearoffError> {
        let raw = self.square.record_bytes(index)?;
        let mut out = [0u16; 4];
        for (k, c) in raw.chunks_exact(2).enumerate() {
            out[k] = u16::from_le_bytes([c[0], c[1]]);
        }
        Ok(Equities {
            raw: out,
            cubeful: self.params.cubeful,
        })
    }

    /// The equities of a position (player on roll in `sides()[1]`); both sides must lie
    /// within this database.
    pub fn equities_of(&self, pos: &board::Position) -> Result<Equities, BearoffError> {
        let (us, them) = self.indices_of(pos)?;
        self.equities(self.record_index(us, them)?)
    }

    /// One-sided indices (on roll, opponent) of a position.
    pub fn indices_of(&self, pos: &board::Position) -> Result<(u64, u64), BearoffError> {
        let rank = |side: &[u8]| {
            self.index().rank(side).ok_or_else(|| {
                BearoffError::NotCovered(format!(
                    "each side needs at most {} checkers, all within its first {} points",
                    self.params.checkers, self.params.points
                ))
            })
        };
        Ok((rank(pos.on_roll())?, rank(pos.opponent())?))
    }
}

//! Reading one-sided databases through a memory map.

use std::path::Path;

use crate::error::BearoffError;
use crate::format::encoding::{read_u16s, DIST_TOTAL, ROLLS};
use crate::format::header::{HeaderStyle, Kind, OneSidedParams};
use crate::format::index::PositionIndex;
use crate::format::mapped::MappedFile;
use crate::onesided::layout::{index_entry_len, record_len, NORMAL_RECORD_LEN};

/// A one-sided database opened for reading.
#[derive(Debug)]
pub struct OneSidedDb {
    file: MappedFile,
    params: OneSidedParams,
    style: HeaderStyle,
    index: PositionIndex,
    count: u64,
    base: u64,
    entry_len: u64,
    data_start: u64,
}

/// One position's stored distributions (exact databases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distribution {
    /// `bearoff[n]`: probability × 65535 of bearing off all checkers in exactly `n` rolls.
    pub bearoff: [u16; ROLLS],
    /// `gammon[n]`: probability × 65535 of bearing off the first checker in exactly `n`
    /// rolls (a delta at 0 once a checker is off); `None` if the file has none.
    pub gammon: Option<[u16; ROLLS]>,
}

/// Expected number of rolls of a distribution (from the stored, rounded values).
fn mean(a: &[u16; ROLLS]) -> f64 {
    let mut s1 = 0.0;
    for (i, &v) in a.iter().enumerate() {
        let p = f64::from(v) / 65535.0;
        s1 += i as f64 * p;
    }
    s1
}

impl Distribution {
    /// Probability of bearing off in exactly `n` rolls (0 beyond 31).
    pub fn probability(&self, n: usize) -> f64 {
        self.bearoff.get(n).map_or(0.0, |&v| f64::from(v) / 65535.0)
    }

    /// Expected number of rolls to bear off (from the stored, rounded values).
    pub fn mean_rolls(&self) -> f64 {
        mean(&self.bearoff)
    }
}

/// One index entry of the compressed layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompressedEntry {
    /// Offset of the position's data, in 16-bit words from the start of the data area.
    pub offset: u64,
    /// Stored bear-off values.
    pub nz: u8,
    /// First stored bear-off roll.
    pub ioff: u8,
    /// Stored gammon values.
    pub nzg: u8,
    /// First stored gammon roll.
    pub ioffg: u8,
}

/// gnubg's `f32` view of a position (its `BearoffDist`): per-roll probabilities and
/// `[mean, sd, gammon mean, gammon sd]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OneSidedProbabilities {
    /// Bear-off probabilities per roll.
    pub bearoff: [f32; ROLLS],
    /// First-checker-off probabilities per roll (all 0 if the file has none).
    pub gammon: [f32; ROLLS],
    /// Mean and standard deviation of both, as gnubg computes them.
    pub moments: [f32; 4],
}

/// gnubg's `AverageRolls`, in `f32`.
fn average_rolls(p: &[f32; ROLLS]) -> [f32; 2] {
    let mut sx = 0.0f32;
    let mut sx2 = 0.0f32;
    for (i, &x) in p.iter().enumerate().skip(1) {
        let v = i as f32 * x;
        sx += v;
        sx2 += i as f32 * v;
    }
    [sx, (sx2 - sx * sx).sqrt()]
}

/// Flushes subnormal values to zero, as gnubg's fast-math binary does (FTZ/DAZ).
fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0
    } else {
        x
    }
}

/// gnubg's `fnd`: a normal density at `x`, in `f32`, with subnormal results flushed to
/// zero like Debian's gnubg 1.07 binary.
fn normal_density(x: f32, mu: f32, sigma: f32) -> f32 {
    const EPSILON: f32 = 1.0e-7;
    if sigma <= EPSILON {
        if (mu - x).abs() < EPSILON {
            1.0
        } else {
            0.0
        }
    } else {
        let xm = (x - mu) / sigma;
        let e = ftz((-xm * xm / 2.0f32).exp());
        ftz(1.0f32 / (sigma * (2.0f32 * std::f32::consts::PI).sqrt()) * e)
    }
}

impl OneSidedDb {
    /// Opens a one-sided database with a header (gnubg's or bgkit's wide one).
    pub fn open(path: impl AsRef<Path>) -> Result<OneSidedDb, BearoffError> {
        MappedFile::open_as(
            path.as_ref(),
            "a one-sided database",
            |file, kind, style| match kind {
                Kind::OneSided(params) => Some(OneSidedDb::from_file(file, params, style)),
                _ => None,
            },
        )
    }

    /// Opens a headerless file (gnubg's `-H`) whose parameters the caller knows.
    pub fn open_headerless(
        path: impl AsRef<Path>,
        params: OneSidedParams,
    ) -> Result<OneSidedDb, BearoffError> {
        OneSidedDb::from_file(MappedFile::open(path.as_ref())?, params, HeaderStyle::None)
    }

    /// Validates sizes and builds the reader.
    pub fn from_file(
        file: MappedFile,
        params: OneSidedParams,
        style: HeaderStyle,
    ) -> Result<OneSidedDb, BearoffError> {
        let index = file.position_index(params.points, params.checkers)?;
        let count = index.count();
        let base = style.data_offset();
        let wide = style == HeaderStyle::Wide;
        let entry_len = index_entry_len(params.gammon, wide);
        let mut db = OneSidedDb {
            params,
            style,
            index,
            count,
            base,
            entry_len,
            data_start: base + count * entry_len,
            file,
        };
        let len = db.file.len();
        let expected = if params.normal {
            Some(base + count * NORMAL_RECORD_LEN)
        } else if !params.compressed {
            Some(base + count * record_len(params.gammon))
        } else {
            None
        };
        let path = db.file.path().to_path_buf();
        match expected {
            Some(e) if e != len => {
                return Err(BearoffError::corrupt(
                    &path,
                    format!("{} positions need {e} bytes, the file has {len}", count),
                ))
            }
            Some(_) => {}
            None => {
                if len < db.data_start {
                    return Err(BearoffError::corrupt(
                        &path,
                        format!(
                            "the index of {count} positions needs {} bytes, the file has {len}",
                            db.data_start
                        ),
                    ));
                }
                let first = db.entry(0)?;
                let last = db.entry(count - 1)?;
                let end = db.data_start + 2 * (last.0 + u64::from(last.1) + u64::from(last.3));
                if first.0 != 0 {
                    return Err(BearoffError::corrupt(
                        &path,
                        format!(
                            "the index says the first position's data starts at offset {} \
                             (expected 0)",
                            first.0
                        ),
                    ));
                }
                if end != len {
                    return Err(BearoffError::corrupt(
                        &path,
                        format!("the index says the data ends at byte {end}, the file has {len} bytes"),
                    ));
                }
                db.data_start = db.data_start.min(len);
            }
        }
        Ok(db)
    }

    /// The file's parameters.
    pub fn params(&self) -> OneSidedParams {
        self.params
    }

    /// The header style.
    pub fn style(&self) -> HeaderStyle {
        self.style
    }

    /// The ranking used by this file.
    pub fn index(&self) -> &PositionIndex {
        &self.index
    }

    /// Number of positions.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The mapped file.
    pub fn file(&self) -> &MappedFile {
        &self.file
    }

    fn check_index(&self, i: u64) -> Result<(), BearoffError> {
        BearoffError::check_index(i, self.count)
    }

    /// Index entry `i` of a compressed file.
    pub fn compressed_entry(&self, i: u64) -> Result<CompressedEntry, BearoffError> {
        self.check_index(i)?;
        if !self.params.compressed || self.params.normal {
            return Err(BearoffError::WrongKind {
                path: self.file.path().to_path_buf(),
                why: "not a compressed database".into(),
            });
        }
        let (offset, nz, ioff, nzg, ioffg) = self.entry(i)?;
        Ok(CompressedEntry {
            offset,
            nz,
            ioff,
            nzg,
            ioffg,
        })
    }

    /// Compressed index entry: (offset in words, nz, ioff, nzg, ioffg).
    fn entry(&self, i: u64) -> Result<(u64, u8, u8, u8, u8), BearoffError> {
        let raw = self.file.slice(self.base + i * self.entry_len, self.entry_len)?;
        let (off, rest) = if self.style == HeaderStyle::Wide {
            (
                u64::from_le_bytes(raw[..8].try_into().expect("8 bytes")),
                &raw[8..],
            )
        } else {
            (
                u64::from(u32::from_le_bytes(raw[..4].try_into().expect("4 bytes"))),
                &raw[4..],
            )
        };
        let (nzg, ioffg) = if self.params.gammon {
            (rest[2], rest[3])
        } else {
            (0, 0)
        };
        Ok((off, rest[0], rest[1], nzg, ioffg))
    }

    /// The rank of a side (`side[i]` checkers on point `i + 1`; slots beyond the
    /// database's points, the bar included, must be empty).
    pub fn index_of(&self, side: &[u8]) -> Result<u64, BearoffError> {
        self.index.rank(side).ok_or_else(|| {
            BearoffError::NotCovered(format!(
                "a side needs at most {} checkers, all within the first {} points",
                self.params.checkers, self.params.points
            ))
        })
    }

    /// The stored distributions of position `i` (exact databases only).
    pub fn distribution(&self, i: u64) -> Result<Distribution, BearoffError> {
        self.check_index(i)?;
        let path = self.file.path();
        if self.params.normal {
            return Err(BearoffError::WrongKind {
                path: path.to_path_buf(),
                why: "normal-distribution database: use probabilities()".into(),
            });
        }
        let mut bearoff = [0u16; ROLLS];
        let mut gammon = [0u16; ROLLS];
        if self.params.compressed {
            let (off, nz, ioff, nzg, ioffg) = self.entry(i)?;
            let bad = |what: &str, n: u8, o: u8| {
                BearoffError::corrupt(
                    path,
                    format!("position {i}: {what} span {o}+{n} exceeds 32 rolls"),
                )
            };
            if usize::from(ioff) + usize::from(nz) > ROLLS {
                return Err(bad("bear-off", nz, ioff));
            }
            if usize::from(ioffg) + usize::from(nzg) > ROLLS {
                return Err(bad("gammon", nzg, ioffg));
            }
            let at = off
                .checked_mul(2)
                .and_then(|o| o.checked_add(self.data_start))
                .ok_or_else(|| BearoffError::corrupt(path, format!("position {i}: offset overflow")))?;
            let raw = self.file.slice(at, 2 * (u64::from(nz) + u64::from(nzg)))?;
            let (a, b) = raw.split_at(2 * usize::from(nz));
            read_u16s(a, &mut bearoff[usize::from(ioff)..usize::from(ioff + nz)]);
            read_u16s(b, &mut gammon[usize::from(ioffg)..usize::from(ioffg + nzg)]);
        } else {
            let len = record_len(self.params.gammon);
            let raw = self.file.slice(self.base + i * len, len)?;
            read_u16s(&raw[..64], &mut bearoff);
            if self.params.gammon {
                read_u16s(&raw[64..], &mut gammon);
            }
        }
        let sum = |a: &[u16; ROLLS]| a.iter().map(|&v| u32::from(v)).sum::<u32>();
        if sum(&bearoff) != DIST_TOTAL || (self.params.gammon && sum(&gammon) != DIST_TOTAL) {
            return Err(BearoffError::corrupt(
                path,
                format!("position {i}: a distribution does not sum to 65535"),
            ));
        }
        Ok(Distribution {
            bearoff,
            gammon: self.params.gammon.then_some(gammon),
        })
    }

    /// The four stored `f32` of a normal-distribution database:
    /// `[mean, sd, gammon mean, gammon sd]`.
    pub fn normal_record(&self, i: u64) -> Result<[f32; 4], BearoffError> {
        self.check_index(i)?;
        if !self.params.normal {
            return Err(BearoffError::WrongKind {
                path: self.file.path().to_path_buf(),
                why: "not a normal-distribution database".into(),
            });
        }
        let raw = self
            .file
            .slice(self.base + i * NORMAL_RECORD_LEN, NORMAL_RECORD_LEN)?;
        let mut r = [0.0f32; 4];
        for (k, c) in raw.chunks_exact(4).enumerate() {
            r[k] = f32::from_le_bytes(c.try_into().expect("4 bytes"));
        }
        Ok(r)
    }

    /// gnubg's `f32` view of position `i` (`BearoffDist`): for exact files the stored
    /// values / 65535; for normal-distribution files the Gaussian density at each roll.
    pub fn probabilities(&self, i: u64) -> Result<OneSidedProbabilities, BearoffError> {
        let mut out = self.turn_probabilities(i)?;
        if !self.params.normal {
            let [m, s] = average_rolls(&out.bearoff);
            let [gm, gs] = average_rolls(&out.gammon);
            out.moments = [m, s, gm, gs];
        }
        Ok(out)
    }

    /// [`OneSidedDb::probabilities`] without the moments of exact distributions (left
    /// zero), for evaluations that do not need them.
    fn turn_probabilities(&self, i: u64) -> Result<OneSidedProbabilities, BearoffError> {
        let mut out = OneSidedProbabilities {
            bearoff: [0.0; ROLLS],
            gammon: [0.0; ROLLS],
            moments: [0.0; 4],
        };
        if self.params.normal {
            let r = self.normal_record(i)?;
            for n in 0..ROLLS {
                out.bearoff[n] = normal_density(n as f32, r[0], r[1]);
                out.gammon[n] = normal_density(n as f32, r[2], r[3]);
            }
            out.moments = r;
        } else {
            let d = self.distribution(i)?;
            // As gnubg's binary computes it: times the f32 reciprocal of 65535.
            const RECIP: f32 = 1.0f32 / 65535.0f32;
            for n in 0..ROLLS {
                out.bearoff[n] = f32::from(d.bearoff[n]) * RECIP;
                out.gammon[n] = d.gammon.map_or(0.0, |g| f32::from(g[n]) * RECIP);
            }
        }
        Ok(out)
    }

    /// Cubeless outputs for a position where both sides are in this database, as gnubg's
    /// one-sided evaluation: `[win, win gammon, win backgammon, lose gammon,
    /// lose backgammon]` for the player on roll. Gammon chances need the gammon arrays
    /// when either side still has all 15 checkers on the board.
    pub fn evaluate(&self, pos: &board::Position) -> Result<[f32; 5], BearoffError> {
        let us = self.index_of(pos.on_roll())?;
        let them = self.index_of(pos.opponent())?;
        let p_us = self.turn_probabilities(us)?;
        let p_them = self.turn_probabilities(them)?;
        let mut out = [0.0f32; 5];
        out[0] = ordered_sum(&p_us.bearoff, &p_them.bearoff, 0);
        let on = |s: &[u8; 25]| s.iter().map(|&c| u32::from(c)).sum::<u32>();
        if on(pos.on_roll()) == 15 || on(pos.opponent()) == 15 {
            if !self.params.gammon {
                return Err(BearoffError::WrongKind {
                    path: self.file.path().to_path_buf(),
                    why: "gammon chances need a database with gammon distributions".into(),
                });
            }
            out[1] = ordered_sum(&p_us.bearoff, &p_them.gammon, 0);
            out[3] = ordered_sum(&p_them.bearoff, &p_us.gammon, 1);
        }
        Ok(out)
    }
}

/// Σ a[i]·b[j] over i < ROLLS, j ≥ i + shift, added one by one in gnubg's order (i
/// outer, j inner) in `f32`. Terms outside both distributions' non-zero ranges are
/// skipped: they are +0, and adding +0 to a non-negative sum leaves its bits unchanged,
/// so the result is that of the full double loop (a few dozen terms instead of ~500).
fn ordered_sum(a: &[f32; ROLLS], b: &[f32; ROLLS], shift: usize) -> f32 {
    let range = |d: &[f32; ROLLS]| {
        let lo = d.iter().position(|&x| x != 0.0)?;
        let hi = d.iter().rposition(|&x| x != 0.0)?;
        Some((lo, hi))
    };
    let (Some((a_lo, a_hi)), Some((b_lo, b_hi))) = (range(a), range(b)) else {
        return 0.0;
    };
    let mut r = 0.0f32;
    for (i, &x) in a.iter().enumerate().take(a_hi + 1).skip(a_lo) {
        for &y in b.iter().take(b_hi + 1).skip((i + shift).max(b_lo)) {
            r += x * y;
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The skipping sum equals gnubg's full double loop bit for bit.
    #[test]
    fn ordered_sum_equals_the_full_double_loop() {
        let full = |a: &[f32; ROLLS], b: &[f32; ROLLS], shift: usize| {
            let mut r = 0.0f32;
            for (i, &x) in a.iter().enumerate() {
                for &y in &b[(i + shift).min(ROLLS)..] {
                    r += x * y;
                }
            }
            r
        };
        let mut x = 99u32;
        let mut next = || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            x >> 16
        };
        let mut nonzero = 0;
        for _ in 0..5000 {
            let mut d = [[0f32; ROLLS]; 2];
            for dist in &mut d {
                let (lo, len) = (next() as usize % ROLLS, 1 + next() as usize % 8);
                for v in dist.iter_mut().skip(lo).take(len) {
                    *v = (next() % 65536) as f32 * (1.0 / 65535.0);
                }
            }
            for shift in [0, 1] {
                let (want, got) = (full(&d[0], &d[1], shift), ordered_sum(&d[0], &d[1], shift));
                assert_eq!(want.to_bits(), got.to_bits(), "{d:?} {shift}");
                nonzero += usize::from(want > 0.0);
            }
        }
        assert!(nonzero > 1000);
    }
}

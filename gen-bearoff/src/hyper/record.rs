//! One 28-byte hypergammon record.
//!
//! | bytes | content |
//! |---|---|
//! | 0–14 | five probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon; gammons include backgammons), 24-bit little-endian, value `u / 16777215` |
//! | 15–26 | four money equities per unit cube, "no double this turn": owned, centred, centred with the Jacoby rule, opponent owns; 24-bit, value `(u / 16777215 − 0.5) · 6` (range ±3) |
//! | 27 | padding, 0 |
//!
//! gnubg's `makehyper` writes `(unsigned) (p · 16777215)` and
//! `(unsigned) ((e / 6 + 0.5) · 16777215)` in `f32`, truncating; bgkit's exact solver
//! rounds to nearest. Illegal records hold zero probabilities and `0x7FFFFF` equities in
//! both.

use crate::format::encoding::{read_u24, write_u24};

/// Bytes per record.
pub const RECORD_LEN: usize = 28;
/// The largest 24-bit value, the scale of every field.
pub const U24_MAX: u32 = 0xFF_FFFF;
/// The equity fields of an illegal (placeholder) record: 0 as gnubg writes it.
pub const ZERO_EQUITY: u32 = 0x7F_FFFF;
/// `1 / 16777215` in `f32`, the factor gnubg's fast-math build reads fields with.
const U24_RECIPROCAL: f32 = 1.0 / U24_MAX as f32;

/// Which cube position an equity is for (gnubg's `CFHYPER` choice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeState {
    /// Centred cube.
    Centred,
    /// Owned by the side on roll.
    Owned,
    /// Owned by the opponent.
    OpponentOwns,
}

/// The nine stored 24-bit values of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HyperRecord {
    /// Probabilities (5), then equities: owned, centred, centred Jacoby, opponent owns.
    pub raw: [u32; 9],
}

impl HyperRecord {
    /// The placeholder record gnubg writes for illegal positions.
    pub const ILLEGAL: HyperRecord = HyperRecord {
        raw: [0, 0, 0, 0, 0, ZERO_EQUITY, ZERO_EQUITY, ZERO_EQUITY, ZERO_EQUITY],
    };

    /// Decodes 28 bytes (the padding byte is not looked at; see [`HyperRecord::padding_ok`]).
    pub fn from_bytes(b: &[u8]) -> HyperRecord {
        let mut raw = [0u32; 9];
        for (k, v) in raw.iter_mut().enumerate() {
            *v = read_u24(&b[3 * k..3 * k + 3]);
        }
        HyperRecord { raw }
    }

    /// Whether the padding byte of `b` is zero, as every writer leaves it.
    pub fn padding_ok(b: &[u8]) -> bool {
        b.get(RECORD_LEN - 1) == Some(&0)
    }

    /// The 28 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_LEN] {
        let mut out = [0u8; RECORD_LEN];
        for (k, &v) in self.raw.iter().enumerate() {
            write_u24(v, &mut out[3 * k..3 * k + 3]);
        }
        out
    }

    /// Encodes exact values, rounding to the nearest 24-bit step (clamped to the range).
    pub fn encode_nearest(outputs: &[f64; 5], equities: &[f64; 4]) -> HyperRecord {
        let scale = f64::from(U24_MAX);
        let q = |x: f64| (x * scale).round().clamp(0.0, scale) as u32;
        let mut raw = [0u32; 9];
        for k in 0..5 {
            raw[k] = q(outputs[k]);
        }
        for k in 0..4 {
            raw[5 + k] = q(equities[k] / 6.0 + 0.5);
        }
        HyperRecord { raw }
    }

    /// Encodes as gnubg 1.07's `makehyper` does: `f32`, the division by 6 executed as a
    /// multiplication by `1/6` (its build uses fast-math), truncation toward zero.
    pub fn encode_gnubg(outputs: &[f32; 5], equities: &[f32; 4]) -> HyperRecord {
        let scale = U24_MAX as f32;
        let mut raw = [0u32; 9];
        for k in 0..5 {
            raw[k] = ((outputs[k] * scale) as u32).min(U24_MAX);
        }
        for k in 0..4 {
            raw[5 + k] = (((equities[k] * (1.0f32 / 6.0f32) + 0.5f32) * scale) as u32).min(U24_MAX);
        }
        HyperRecord { raw }
    }

    /// The five probabilities as gnubg 1.07 reads them: its source says
    /// `u / 16777215.0f`, which Debian's fast-math build executes as `u · (1 / 16777215.0f)`
    /// (as for the one-sided files; the plain division differs in the last bit now and
    /// then, and so in the last digit `bearoffdump` prints).
    pub fn probabilities(&self) -> [f32; 5] {
        let mut p = [0f32; 5];
        for (o, &u) in p.iter_mut().zip(&self.raw[..5]) {
            *o = u as f32 * U24_RECIPROCAL;
        }
        p
    }

    /// The four cubeful equities (owned, centred, centred Jacoby, opponent owns) as gnubg
    /// 1.07 reads them: `(u / 16777215.0f − 0.5f) · 6.0f`, the division executed as a
    /// multiplication by the reciprocal (see [`HyperRecord::probabilities`]); so an
    /// illegal record's `0x7FFFFF` reads as +0, as gnubg prints it.
    pub fn cubeful(&self) -> [f32; 4] {
        let mut e = [0f32; 4];
        for (o, &u) in e.iter_mut().zip(&self.raw[5..]) {
            *o = (u as f32 * U24_RECIPROCAL - 0.5f32) * 6.0f32;
        }
        e
    }

    /// The probabilities exactly as stored, in `f64`.
    pub fn exact_probabilities(&self) -> [f64; 5] {
        let mut p = [0f64; 5];
        for (o, &u) in p.iter_mut().zip(&self.raw[..5]) {
            *o = f64::from(u) / f64::from(U24_MAX);
        }
        p
    }

    /// The cubeful equities exactly as stored, in `f64`.
    pub fn exact_cubeful(&self) -> [f64; 4] {
        let mut e = [0f64; 4];
        for (o, &u) in e.iter_mut().zip(&self.raw[5..]) {
            *o = (f64::from(u) / f64::from(U24_MAX) - 0.5) * 6.0;
        }
        e
    }

    /// Cubeless money equity from the probabilities (gnubg stores none; it recomputes
    /// `2p − 1 + (wg − lg) + (wbg − lbg)`).
    pub fn cubeless_equity(&self) -> f32 {
        let p = self.probabilities();
        p[0] * 2.0 - 1.0 + (p[1] - p[3]) + (p[2] - p[4])
    }

    /// The cubeful equity gnubg uses for a cube position (its `CFHYPER`): centred →
    /// the Jacoby value if the Jacoby rule is in force, else the centred value; owned by
    /// the side on roll → owned; otherwise opponent owns.
    pub fn equity_for(&self, cube: CubeState, jacoby: bool) -> f32 {
        let e = self.cubeful();
        match cube {
            CubeState::Centred if jacoby => e[2],
            CubeState::Centred => e[1],
            CubeState::Owned => e[0],
            CubeState::OpponentOwns => e[3],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnubg_placeholder_and_roundtrip() {
        // gnubg writes an all-zero record as zero probabilities and 0x7FFFFF equities.
        assert_eq!(
            HyperRecord::encode_gnubg(&[0.0; 5], &[0.0; 4]),
            HyperRecord::ILLEGAL
        );
        let r = HyperRecord::encode_nearest(&[0.25, 0.1, 0.0, 0.5, 1.0], &[1.0, -3.0, 3.0, 0.0]);
        assert_eq!(HyperRecord::from_bytes(&r.to_bytes()), r);
        assert_eq!(r.raw[4], U24_MAX);
        assert_eq!(r.raw[6], 0);
        assert_eq!(r.raw[7], U24_MAX);
        // 1.0 is exactly 2/3 of the range.
        assert_eq!(r.raw[5], 11_184_810);
        assert!((r.exact_cubeful()[0] - 1.0).abs() < 1e-12);
        assert!((f64::from(r.probabilities()[0]) - 0.25).abs() < 1e-7);
        assert_eq!(r.to_bytes()[27], 0);
    }

    #[test]
    fn fields_are_read_with_the_reciprocal_as_debians_gnubg_does() {
        // The reciprocal is 2^-24 (1 + 2^-23) in f32, not 2^-24: 1/(2^24 - 1) lies just
        // above the midpoint between the two.
        assert_eq!(U24_RECIPROCAL.to_bits(), 0x3380_0001);
        // The placeholder equity reads as +0 (the division gives -1.8e-7, printed
        // -0.0000 where bearoffdump prints +0.0000).
        let e = HyperRecord::ILLEGAL.cubeful();
        assert!(e.iter().all(|v| v.to_bits() == 0), "{e:?}");
        assert!((ZERO_EQUITY as f32 / U24_MAX as f32 - 0.5) * 6.0 < 0.0);
        // Record 531 of makehyper -c 1's file: centred 8374766, printed -0.0049 by
        // bearoffdump (the division gives -0.00500..., printed -0.0050).
        let mut r = HyperRecord::ILLEGAL;
        r.raw[6] = 8_374_766;
        let c = r.cubeful()[1];
        assert_eq!(format!("{:+7.4}", f64::from(c)), "-0.0049", "{c}");
        let divided = (8_374_766f32 / U24_MAX as f32 - 0.5) * 6.0;
        assert_eq!(format!("{:+7.4}", f64::from(divided)), "-0.0050");
    }

    #[test]
    fn gnubg_reading_of_the_reference_start_record() {
        // 1-checker start record of gnubg's file: owned +0.5883, centred +0.5393,
        // Jacoby +0.4557, opponent owns +0.3864 (format reference §6.4).
        let e = [0.5883f32, 0.5393, 0.4557, 0.3864];
        let r = HyperRecord::encode_gnubg(&[0.601583, 0.601583, 0.079588, 0.398417, 0.033146], &e);
        let back = r.cubeful();
        for k in 0..4 {
            assert!((back[k] - e[k]).abs() < 1e-6);
        }
        assert!((r.cubeless_equity() - 0.452774).abs() < 1e-5);
        assert_eq!(r.equity_for(CubeState::Centred, true), back[2]);
        assert_eq!(r.equity_for(CubeState::OpponentOwns, false), back[3]);
    }
}

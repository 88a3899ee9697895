//! Value encodings used in the files.
//!
//! * One-sided distributions: 32 little-endian `u16` per array, each array summing to
//!   65535 (probability = value / 65535).
//! * Two-sided equities: a signed 16-bit `s` (+1 = 0x7FFF, -1 = -0x8000, so bitwise NOT
//!   negates exactly) stored as `u16 = s + 0x8000`; gnubg reads it as `u / 32767.5 - 1`.
//! * Hypergammon: 24-bit little-endian unsigned values (helpers for the hypergammon
//!   module).

/// Number of roll slots in a one-sided distribution.
pub const ROLLS: usize = 32;

/// One-sided array sum: every stored distribution sums to exactly this.
pub const DIST_TOTAL: u32 = 0xFFFF;

/// gnubg's `RollsOS`: the score `sum(i * a[i], i = 1..31)` that picks the best move.
#[inline]
pub fn rolls_score(a: &[u16; ROLLS]) -> u32 {
    let mut s = 0u32;
    for (i, &v) in a.iter().enumerate().skip(1) {
        s += i as u32 * u32::from(v);
    }
    s
}

/// gnubg's rounding of 36-weighted sums into a stored distribution: `(acc + 18) / 36`
/// per slot, then the deficit or excess against 65535 is added to the first slot holding
/// the maximum (16-bit wrap-around, as gnubg does).
pub fn round_distribution(acc: &[u32; ROLLS]) -> [u16; ROLLS] {
    let mut out = [0u16; ROLLS];
    let mut sum = 0u32;
    let mut mode = 0;
    for i in 0..ROLLS {
        out[i] = ((acc[i] + 18) / 36) as u16;
        sum += u32::from(out[i]);
        if out[i] > out[mode] {
            mode = i;
        }
    }
    out[mode] = out[mode].wrapping_sub(sum.wrapping_sub(DIST_TOTAL) as u16);
    out
}

/// Stored `u16` of a two-sided equity.
#[inline]
pub const fn equity_to_u16(s: i16) -> u16 {
    (s as u16) ^ 0x8000
}

/// Signed equity from its stored `u16`.
#[inline]
pub const fn equity_from_u16(u: u16) -> i16 {
    (u ^ 0x8000) as i16
}

/// gnubg's reading of a stored two-sided value: its source says `u / 32767.5f - 1.0f`;
/// its reciprocal-math build multiplies by the `f32` reciprocal (read off its compiled
/// code), which differs from a true division in the last bit for some values.
#[inline]
pub fn equity_f32(u: u16) -> f32 {
    f32::from(u) * (1.0f32 / 32767.5f32) - 1.0f32
}

/// Exact value of a stored two-sided value: `(s + 0.5) / 32767.5`.
#[inline]
pub fn equity_f64(u: u16) -> f64 {
    (f64::from(equity_from_u16(u)) + 0.5) / 32767.5
}

/// Reads a 24-bit little-endian value.
#[inline]
pub fn read_u24(b: &[u8]) -> u32 {
    u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16
}

/// Writes a 24-bit little-endian value (the top byte of `v` is dropped).
#[inline]
pub fn write_u24(v: u32, out: &mut [u8]) {
    out[..3].copy_from_slice(&v.to_le_bytes()[..3]);
}

/// Decodes `n` little-endian `u16` values.
pub fn read_u16s(bytes: &[u8], out: &mut [u16]) {
    for (o, c) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        *o = u16::from_le_bytes([c[0], c[1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equity_encoding_matches_gnubg_convention() {
        assert_eq!(equity_to_u16(0x7FFF), 0xFFFF);
        assert_eq!(equity_to_u16(!0x7FFF), 0);
        assert_eq!(equity_from_u16(0x8000), 0);
        assert_eq!(equity_f32(0xFFFF), 1.0);
        assert_eq!(equity_f32(0), -1.0);
        // Reference 6.1: stored 43982 is +0.3422.
        assert!((equity_f64(43982) - 0.3422).abs() < 5e-5);
        for s in [i16::MIN, -1, 0, 1, 1234, i16::MAX] {
            assert_eq!(equity_from_u16(equity_to_u16(s)), s);
            // NOT is exact negation of the represented value.
            assert_eq!(equity_f64(equity_to_u16(!s)), -equity_f64(equity_to_u16(s)));
        }
    }

    #[test]
    fn rounding_sums_to_65535() {
        // A position that bears off in one roll with 27/36 and two rolls with 9/36.
        let mut acc = [0u32; ROLLS];
        acc[1] = 27 * 65535;
        acc[2] = 9 * 65535;
        let d = round_distribution(&acc);
        assert_eq!(d.iter().map(|&v| u32::from(v)).sum::<u32>(), 65535);
        // 27/36 of 65535 is 49151.25: nearest is 49151, and the leftover lands in the mode.
        assert_eq!(d[2], 16384);
        assert_eq!(d[1], 49151);
    }

    #[test]
    fn u24_roundtrip() {
        let mut b = [0u8; 3];
        write_u24(0xABCDEF, &mut b);
        assert_eq!(b, [0xEF, 0xCD, 0xAB]);
        assert_eq!(read_u24(&b), 0xABCDEF);
    }
}

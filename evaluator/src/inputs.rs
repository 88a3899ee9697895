//! gnubg's net inputs, computed from a position.
//!
//! * [`base_inputs`]: 200 inputs, 4 per slot, for the side not on roll then the side on
//!   roll (also the pruning nets' inputs).
//! * [`race_inputs`]: 214 inputs of the race net.
//! * [`contact_inputs`] / [`crashed_inputs`]: 250 inputs: the 200 base inputs and 25
//!   hand-crafted features per side ([`contact_features`]).
//!
//! Every value is computed with the same `f32` operations as gnubg, so that the nets
//! see bit-identical inputs.

mod escapes;
mod features;
mod hits;

pub use features::{contact_feature_pair, contact_features};

use board::Position;

/// Inputs of the pruning nets and the base part of the contact and crashed nets.
pub const BASE_INPUTS: usize = 200;
/// Inputs of the race net.
pub const RACE_INPUTS: usize = 214;
/// Inputs of the contact and crashed nets.
pub const CONTACT_INPUTS: usize = 250;
/// Features per side in the contact and crashed nets.
pub const FEATURES: usize = 25;

/// Writes the 200 base inputs: for `sides[0]` (not on roll) then `sides[1]`, for each
/// point 1..=24 the code of its checker count n (1 → 1,0,0,0; 2 → 0,1,0,0;
/// 3 → 0,0,1,0; n ≥ 4 → 0,0,1,(n−3)/2), then for the bar the cumulative code
/// (1 → 1,0,0,0; 2 → 1,1,0,0; 3 → 1,1,1,0; n ≥ 4 → 1,1,1,(n−3)/2).
pub fn base_inputs(pos: &Position, out: &mut [f32]) {
    for (s, side) in pos.sides().iter().enumerate() {
        let block = &mut out[s * 100..s * 100 + 100];
        for (v, &n) in block.chunks_exact_mut(4).zip(&side[..24]) {
            v.copy_from_slice(&POINT_CODES[usize::from(n.min(15))]);
        }
        block[96..].copy_from_slice(&BAR_CODES[usize::from(side[24].min(15))]);
    }
}

/// The four base inputs of a point holding n checkers (index n ≤ 15).
const POINT_CODES: [[f32; 4]; 16] = codes(false);
/// The four base inputs of the bar holding n checkers (cumulative).
const BAR_CODES: [[f32; 4]; 16] = codes(true);

const fn codes(bar: bool) -> [[f32; 4]; 16] {
    let mut t = [[0f32; 4]; 16];
    let mut n = 1;
    while n < 16 {
        t[n] = if bar {
            [1.0, (n >= 2) as u8 as f32, (n >= 3) as u8 as f32, 0.0]
        } else {
            [
                (n == 1) as u8 as f32,
                (n == 2) as u8 as f32,
                (n >= 3) as u8 as f32,
                0.0,
            ]
        };
        if n > 3 {
            t[n][3] = (n - 3) as f32 / 2.0;
        }
        n += 1;
    }
    t
}

/// Writes the 214 race inputs: per side (`sides[0]` first), for points 1..=23 the codes
/// (n = 1), (n = 2), (n ≥ 3), (n − 3)/2; then 14 one-hot inputs for 1..=14 checkers
/// borne off; then the crossovers of checkers outside home (1, 2, 3 per checker in the
/// second, third, fourth quarter) over 10.
pub fn race_inputs(pos: &Position, out: &mut [f32]) {
    for (s, side) in pos.sides().iter().enumerate() {
        let block = &mut out[s * 107..s * 107 + 107];
        let mut off = 15i32;
        for i in 0..23 {
            let n = side[i];
            off -= i32::from(n);
            let v = &mut block[i * 4..i * 4 + 4];
            v[0] = f32::from(u8::from(n == 1));
            v[1] = f32::from(u8::from(n == 2));
            v[2] = f32::from(u8::from(n >= 3));
            v[3] = if n > 3 { f32::from(n - 3) / 2.0 } else { 0.0 };
        }
        for k in 0..14 {
            block[92 + k] = f32::from(u8::from(off == k as i32 + 1));
        }
        let cross: u32 = (6..24).map(|i| u32::from(side[i]) * (i as u32 / 6)).sum();
        // gnubg's reciprocal-math build multiplies by f32(1/10) (read off its compiled
        // code); a true division differs in the last bit for some counts (18: 1.8).
        block[106] = cross as f32 * (1.0 / 10.0);
    }
}

/// Writes the 250 contact-net inputs. `fixed_pip_loss` selects the PIPLOSS rule of
/// weights 1.01 (see [`contact_features`]).
///
/// gnubg's contact net was trained with the borne-off inputs of the two sides
/// exchanged: block 200..225 (features of the side on roll) carries the borne-off
/// inputs of the side *not* on roll, and block 225..250 those of the side on roll.
/// That quirk is reproduced.
pub fn contact_inputs(pos: &Position, fixed_pip_loss: bool, out: &mut [f32]) {
    let [opp, me] = pos.sides();
    base_inputs(pos, out);
    contact_feature_pair(me, opp, fixed_pip_loss, &mut out[200..250]);
    borne_off_contact(opp, &mut out[200..203]);
    borne_off_contact(me, &mut out[225..228]);
}

/// Writes the 250 crashed-net inputs (as contact, with the crashed net's borne-off
/// scale and no side exchange).
pub fn crashed_inputs(pos: &Position, fixed_pip_loss: bool, out: &mut [f32]) {
    let [opp, me] = pos.sides();
    base_inputs(pos, out);
    contact_feature_pair(me, opp, fixed_pip_loss, &mut out[200..250]);
    borne_off_crashed(me, &mut out[200..203]);
    borne_off_crashed(opp, &mut out[225..228]);
}

fn borne_off(side: &[u8; 25]) -> i32 {
    15 - crate::simd::checker_total(side)
}

/// Contact net: n off as min(n,3)/3, then (n−3)/3 up to 1, then (n−6)/3 (unclamped).
fn borne_off_contact(side: &[u8; 25], out: &mut [f32]) {
    let n = borne_off(side);
    let v = if n <= 2 {
        [if n != 0 { n as f32 / 3.0 } else { 0.0 }, 0.0, 0.0]
    } else if n <= 5 {
        [1.0, (n - 3) as f32 / 3.0, 0.0]
    } else {
        [1.0, 1.0, (n - 6) as f32 / 3.0]
    };
    out.copy_from_slice(&v);
}

/// Crashed net: n off as n/5 up to 1, then (n−5)/5 up to 1, then (n−10)/5.
fn borne_off_crashed(side: &[u8; 25], out: &mut [f32]) {
    let n = borne_off(side);
    let v = if n <= 5 {
        [if n != 0 { n as f32 / 5.0 } else { 0.0 }, 0.0, 0.0]
    } else if n <= 10 {
        [1.0, (n - 5) as f32 / 5.0, 0.0]
    } else {
        [1.0, 1.0, (n - 10) as f32 / 5.0]
    };
    out.copy_from_slice(&v);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(id: &str) -> Position {
        Position::from_id(id).unwrap()
    }

    /// Inputs whose division gnubg's `-ffast-math` build computes otherwise than its
    /// source writes it, against the values gnubg 1.07 itself passed to its nets for
    /// these positions (read from its input vector under a debugger on 2026-12-01; the
    /// inputs involve no approximate reciprocal, so they are the same on every CPU).
    #[test]
    fn inputs_round_as_gnubgs_build_does() {
        // Backbone of the side on roll, 1 − 9/22: gnubg 0x3f1745d1, a true division
        // 0x3f1745d2.
        let mut v = [0f32; 250];
        contact_inputs(&position("sdsBEyDcDiDATQ"), false, &mut v);
        assert_eq!(v[245].to_bits(), 0x3f1745d1);
        // Race crossovers 18/10 for both sides: gnubg 0x3fe66667, a true division
        // 0x3fe66666.
        let mut v = [0f32; RACE_INPUTS];
        race_inputs(&position("4NvgkAQfAAAAAA"), &mut v);
        assert_eq!(v[106].to_bits(), 0x3fe66667);
        race_inputs(&position("BwAAAL4NDkkAAA"), &mut v);
        assert_eq!(v[213].to_bits(), 0x3fe66667);
    }
}

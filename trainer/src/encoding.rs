//! Input encodings of the trainer's nets.
//!
//! * [`Encoding::Gnubg`]: gnubg's own inputs per class (contact and crashed: 250 = 200
//!   base inputs + 2 × 25 hand-crafted features; race: 214), computed by the evaluator
//!   crate, so that trained nets run unchanged in gnubg and in our evaluator.
//! * [`Encoding::Tesauro`]: the 198 raw inputs of TD-Gammon (Tesauro 1992; Sutton and
//!   Barto's description): per side and point a thermometer code of 4 units (one or
//!   more checkers, two or more, three or more, (n − 3)/2 beyond three), then that
//!   side's bar checkers / 2 and borne-off checkers / 15; two units for the side to
//!   move. bgkit's nets always see the position from the side on roll, so the last two
//!   units are constant (0, 1); they are kept for the customary count of 198.

use std::fmt;
use std::str::FromStr;

use board::Position;
use evaluator::inputs;
use evaluator::PositionClass;
use serde::{Deserialize, Serialize};

/// Inputs of the Tesauro encoding.
pub const TESAURO_INPUTS: usize = 198;

/// The most inputs any encoding uses (size of input buffers).
pub const MAX_INPUTS: usize = 250;

/// How a position is turned into net inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// gnubg's contact, crashed and race inputs.
    Gnubg,
    /// Tesauro's 198 raw inputs.
    Tesauro,
}

impl Encoding {
    /// Number of inputs of the net used for `class` (race, crashed or contact).
    pub fn inputs(self, class: PositionClass) -> usize {
        match (self, class) {
            (Encoding::Tesauro, _) => TESAURO_INPUTS,
            (Encoding::Gnubg, PositionClass::Race) => inputs::RACE_INPUTS,
            (Encoding::Gnubg, _) => inputs::CONTACT_INPUTS,
        }
    }

    /// Writes the inputs of `pos` (side on roll's view) for a net of `class` into the
    /// front of `out` and returns how many were written. `fixed_pip_loss` selects
    /// gnubg's PIPLOSS rule of weights 1.01 (gnubg encoding only).
    pub fn write(self, class: PositionClass, pos: &Position, fixed_pip_loss: bool, out: &mut [f32]) -> usize {
        match (self, class) {
            (Encoding::Tesauro, _) => {
                tesauro_inputs(pos, &mut out[..TESAURO_INPUTS]);
                TESAURO_INPUTS
            }
            (Encoding::Gnubg, PositionClass::Race) => {
                inputs::race_inputs(pos, &mut out[..inputs::RACE_INPUTS]);
                inputs::RACE_INPUTS
            }
            (Encoding::Gnubg, PositionClass::Crashed) => {
                inputs::crashed_inputs(pos, fixed_pip_loss, &mut out[..inputs::CONTACT_INPUTS]);
                inputs::CONTACT_INPUTS
            }
            (Encoding::Gnubg, _) => {
                inputs::contact_inputs(pos, fixed_pip_loss, &mut out[..inputs::CONTACT_INPUTS]);
                inputs::CONTACT_INPUTS
            }
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::Gnubg => "gnubg",
            Encoding::Tesauro => "tesauro",
        })
    }
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Encoding, String> {
        match s {
            "gnubg" => Ok(Encoding::Gnubg),
            "tesauro" => Ok(Encoding::Tesauro),
            _ => Err(format!("unknown encoding '{s}' (expected gnubg or tesauro)")),
        }
    }
}

/// Writes Tesauro's 198 inputs of `pos`: for the side not on roll (`sides()[0]`) and
/// then the side on roll, 4 thermometer units for each of its points 1..=24, its bar
/// checkers / 2 and its borne-off checkers / 15 (98 per side); then 0 and 1 (side to
/// move: always the side on roll).
pub fn tesauro_inputs(pos: &Position, out: &mut [f32]) {
    for (s, side) in pos.sides().iter().enumerate() {
        let block = &mut out[s * 98..s * 98 + 98];
        for i in 0..24 {
            let n = side[i];
            let v = &mut block[i * 4..i * 4 + 4];
            v[0] = f32::from(u8::from(n >= 1));
            v[1] = f32::from(u8::from(n >= 2));
            v[2] = f32::from(u8::from(n >= 3));
            v[3] = if n > 3 { f32::from(n - 3) / 2.0 } else { 0.0 };
        }
        let on_board: u32 = side.iter().map(|&n| u32::from(n)).sum();
        block[96] = f32::from(side[24]) / 2.0;
        block[97] = (15 - on_board.min(15)) as f32 / 15.0;
    }
    out[196] = 0.0;
    out[197] = 1.0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Variant;

    #[test]
    fn tesauro_inputs_of_the_start_position() {
        let mut x = [0f32; TESAURO_INPUTS];
        tesauro_inputs(&Variant::Backgammon.start(), &mut x);
        // Each side: 2 on its 24-point, 5 on 13, 3 on 8, 5 on 6.
        for base in [0, 98] {
            assert_eq!(&x[base + 23 * 4..base + 24 * 4], &[1.0, 1.0, 0.0, 0.0]);
            assert_eq!(&x[base + 12 * 4..base + 13 * 4], &[1.0, 1.0, 1.0, 1.0]);
            assert_eq!(&x[base + 7 * 4..base + 8 * 4], &[1.0, 1.0, 1.0, 0.0]);
            assert_eq!(&x[base + 5 * 4..base + 6 * 4], &[1.0, 1.0, 1.0, 1.0]);
            assert_eq!(x[base + 96], 0.0);
            assert_eq!(x[base + 97], 0.0);
        }
        // Sum of one side's units: 24-point 2, 13-point 3 + (5-3)/2, 8-point 3, 6-point 4.
        let side_sum: f32 = x[..98].iter().sum();
        assert_eq!(side_sum, 13.0);
        assert_eq!(&x[196..], &[0.0, 1.0]);
    }

    #[test]
    fn tesauro_counts_bar_and_borne_off_checkers() {
        // Side on roll: 1 on the bar, 2 on its 6-point (12 off); opponent: 3 on its 1-point.
        let mut me = [0u8; 25];
        me[24] = 1;
        me[5] = 2;
        let mut opp = [0u8; 25];
        opp[0] = 3;
        let pos = Position::new(opp, me).unwrap();
        let mut x = [0f32; TESAURO_INPUTS];
        tesauro_inputs(&pos, &mut x);
        assert_eq!(x[96], 0.0);
        assert_eq!(x[97], 12.0 / 15.0);
        assert_eq!(&x[0..4], &[1.0, 1.0, 1.0, 0.0]);
        assert_eq!(x[98 + 96], 0.5);
        assert_eq!(x[98 + 97], 12.0 / 15.0);
        assert_eq!(&x[98 + 20..98 + 24], &[1.0, 1.0, 0.0, 0.0]);
    }
}

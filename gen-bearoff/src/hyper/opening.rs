//! Values at the start of a hypergammon game, read from a database: the start position
//! itself (the side on roll before rolling) and the player who won the opening roll
//! (who plays one of the 15 non-double rolls, each equally likely, with the best
//! cubeless move). Tom Keith published the latter for 3 checkers (cubeless equity
//! +0.0836795), which makes it an independent check of a whole database.

use board::{Dice, MoveGen, Variant};

use super::reader::HyperDb;
use super::space::{invert, utility};
use crate::error::BearoffError;

/// Cubeless probabilities and equity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cubeless {
    /// Win, win gammon, win backgammon, lose gammon, lose backgammon.
    pub probabilities: [f64; 5],
    /// Money equity `2p − 1 + (wg − lg) + (wbg − lbg)`.
    pub equity: f64,
}

/// The start-of-game values of a database.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opening {
    /// The start position, side on roll before rolling.
    pub start: Cubeless,
    /// The start position's cubeful equities (owned, centred, centred Jacoby, opponent
    /// owns).
    pub start_cubeful: [f64; 4],
    /// The winner of the opening roll, averaged over the 15 non-double rolls.
    pub opening_winner: Cubeless,
}

/// Computes the start-of-game values from `db`.
pub fn opening(db: &HyperDb) -> Result<Opening, BearoffError> {
    let variant = Variant::hypergammon(u32::from(db.checkers())).ok_or_else(|| {
        BearoffError::InvalidParameters(format!("no hypergammon variant with {} checkers", db.checkers()))
    })?;
    let start = variant.start();
    let rec = db.record_of(&start)?;
    let p = rec.exact_probabilities();
    let mut gen = MoveGen::new();
    let mut sum = [0.0; 5];
    let mut rolls = 0;
    for dice in Dice::all().filter(|d| !d.is_double()) {
        let mut best: Option<(f64, [f64; 5])> = None;
        for after in gen.positions(&start, dice) {
            let o = invert(&db.record_of(&after.swapped())?.exact_probabilities());
            let e = utility(&o);
            // Ties go to the later move, as in gnubg.
            if best.is_none_or(|(b, _)| e >= b) {
                best = Some((e, o));
            }
        }
        let (_, o) = best.ok_or_else(|| BearoffError::NotCovered("no legal opening move".into()))?;
        for q in 0..5 {
            sum[q] += o[q];
        }
        rolls += 1;
    }
    let winner = sum.map(|x| x / f64::from(rolls));
    Ok(Opening {
        start: Cubeless {
            probabilities: p,
            equity: utility(&p),
        },
        start_cubeful: rec.exact_cubeful(),
        opening_winner: Cubeless {
            probabilities: winner,
            equity: utility(&winner),
        },
    })
}

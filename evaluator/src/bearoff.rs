//! Bearoff database lookups for the evaluator, through gen-bearoff's readers.
//!
//! gnubg's default pair: a one-sided database of 6 points × 15 checkers
//! (`gnubg_os0.bd`, class bearoff1) and a two-sided one of 6 points × 6 checkers
//! (`gnubg_ts0.bd`, class bearoff2).

use std::path::Path;

use board::{Position, Side};
use gen_bearoff::{BearoffError, OneSidedDb, TwoSidedDb};

/// The two databases gnubg's 0-ply evaluation consults.
#[derive(Debug, Default)]
pub struct BearoffDbs {
    /// One-sided database (bearoff1 class; also gives the distributions used by the
    /// sanity checks and race backgammons).
    pub one_sided: Option<OneSidedDb>,
    /// Two-sided database (bearoff2 class).
    pub two_sided: Option<TwoSidedDb>,
}

/// Highest occupied slot and checker count of a side.
fn extent(side: &Side) -> (usize, u32) {
    let back = side.iter().rposition(|&n| n > 0).unwrap_or(0);
    (back, side.iter().map(|&n| u32::from(n)).sum())
}

/// Both sides of `pos` lie within the first `points` points with at most `checkers`
/// checkers each: a database of that size covers it.
pub(crate) fn fits(pos: &Position, points: usize, checkers: u32) -> bool {
    pos.sides().iter().all(|s| {
        let (back, n) = extent(s);
        back < points && n <= checkers
    })
}

impl BearoffDbs {
    /// Opens the databases at the given paths (either may be absent).
    pub fn open(one_sided: Option<&Path>, two_sided: Option<&Path>) -> Result<BearoffDbs, BearoffError> {
        Ok(BearoffDbs {
            one_sided: one_sided.map(OneSidedDb::open).transpose()?,
            two_sided: two_sided.map(TwoSidedDb::open).transpose()?,
        })
    }

    /// Both sides fit the two-sided database.
    pub fn two_sided_covers(&self, pos: &Position) -> bool {
        self.two_sided.as_ref().is_some_and(|db| {
            let p = db.params();
            fits(pos, p.points as usize, p.checkers as u32)
        })
    }

    /// Both sides fit the one-sided database.
    pub fn one_sided_covers(&self, pos: &Position) -> bool {
        self.one_sided.as_ref().is_some_and(|db| {
            let p = db.params();
            fits(pos, p.points as usize, p.checkers as u32)
        })
    }

    /// Two-sided evaluation: only the win probability (gammons impossible).
    pub fn eval_two_sided(&self, pos: &Position) -> Result<[f32; 5], BearoffError> {
        let db = self.two_sided.as_ref().expect("checked by two_sided_covers");
        let e = db.equities_of(pos)?;
        Ok([e.win_probability(), 0.0, 0.0, 0.0, 0.0])
    }

    /// One-sided evaluation: win and gammon probabilities from the distributions.
    pub fn eval_one_sided(&self, pos: &Position) -> Result<[f32; 5], BearoffError> {
        self.one_sided
            .as_ref()
            .expect("checked by one_sided_covers")
            .evaluate(pos)
    }

    /// The stored bear-off distribution (× 65535) of one side, if the one-sided
    /// database covers it.
    pub fn distribution(&self, side: &[u8]) -> Result<Option<[u16; 32]>, BearoffError> {
        let Some(db) = self.one_sided.as_ref() else {
            return Ok(None);
        };
        let p = db.params();
        let back = side.iter().rposition(|&n| n > 0).unwrap_or(0);
        let n: u32 = side.iter().map(|&c| u32::from(c)).sum();
        if back >= p.points as usize || n > p.checkers as u32 {
            return Ok(None);
        }
        let i = db.index_of(&side[..p.points as usize])?;
        Ok(Some(db.distribution(i)?.bearoff))
    }
}

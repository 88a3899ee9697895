//! The hypergammon position space: every pair of sides with at most `C` checkers on 25
//! slots (24 points and the bar), its classes, the exact values of finished games, and
//! what a mover's landing does to the opponent (which points it blocks, which blots it
//! loses to the bar).
//!
//! A record is `us * n + them`: `us` is the one-sided index of the side on roll, `them`
//! the opponent's, both ranked with gnubg's `PositionBearoff` over 25 slots
//! ([`PositionIndex`] with `P = 25`), `n = binom(25 + C, C)`.

use board::{Position, Side};
use rayon::prelude::*;

use crate::error::BearoffError;
use crate::format::index::PositionIndex;

/// Slots per side: points 1..=24 (indices 0..=23) and the bar (index 24).
pub const SLOTS: usize = 25;
/// The bar's slot.
pub const BAR: usize = 24;
/// "No blocked point" in a move-table key.
pub const NO_BLOCK: usize = 24;

/// What kind of record a pair of sides is (gnubg's `ClassifyHyper`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Class {
    /// Both sides have checkers on one point (the bar excepted): a placeholder record.
    Illegal = 0,
    /// A side has borne off every checker: the value is known.
    Over = 1,
    /// The armies have passed each other (rearmost indices sum to at most 22): no hit is
    /// possible any more, every move lowers the pip total.
    NoContact = 2,
    /// Everything else: hits can send checkers back, so values depend on each other in
    /// cycles.
    Contact = 3,
}

/// Cubeless outcome probabilities from the side on roll's view: win, win gammon, win
/// backgammon, lose gammon, lose backgammon (gammons include backgammons).
pub type Outputs = [f64; 5];

/// The opponent as the mover sees it, for a fixed opponent side.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpponentView {
    /// The mover's point index (0..=23) the opponent holds with two or more checkers, or
    /// [`NO_BLOCK`]. With at most three checkers there is at most one such point.
    pub block: u8,
    /// Mover's point indices holding a single opposing checker, as a bit mask.
    pub blots: u32,
    /// The blot points in ascending order (31 for an unused entry: never landed on).
    pub blot_bits: [u8; 3],
    /// The opponent's index after the blots of each subset (bit `t` = `blot_bits[t]`)
    /// have been hit and moved to the bar.
    pub hit: [u32; 8],
}

impl OpponentView {
    /// The opponent's index after a move that landed on the points in `lands` (bits
    /// above 23 are ignored). Branch-free: `hit[0]` is the opponent itself.
    #[inline(always)]
    pub fn after(&self, lands: u32) -> u32 {
        let h = lands & self.blots;
        let s = ((h >> self.blot_bits[0]) & 1)
            | ((h >> self.blot_bits[1]) & 1) << 1
            | ((h >> self.blot_bits[2]) & 1) << 2;
        self.hit[s as usize]
    }
}

/// The position space of `C`-checker hypergammon.
#[derive(Clone, Debug)]
pub struct HyperSpace {
    checkers: usize,
    n: usize,
    index: PositionIndex,
    sides: Vec<Side>,
    pips: Vec<u16>,
    class: Vec<Class>,
    views: Vec<OpponentView>,
}

/// The largest supported checker count (gnubg's `makehyper` builds 1 to 3).
pub const MAX_HYPER_CHECKERS: usize = 3;

impl HyperSpace {
    /// Builds the space for `checkers` (1..=3) checkers per side.
    pub fn new(checkers: usize) -> Result<HyperSpace, BearoffError> {
        if !(1..=MAX_HYPER_CHECKERS).contains(&checkers) {
            return Err(BearoffError::InvalidParameters(format!(
                "hypergammon databases have 1 to {MAX_HYPER_CHECKERS} checkers per side, not {checkers}"
            )));
        }
        let index = PositionIndex::new(SLOTS, checkers).expect("25 slots, 1-3 checkers");
        let n = index.count() as usize;
        let sides: Vec<Side> = (0..n as u64)
            .map(|i| {
                let mut s = [0u8; SLOTS];
                index.unrank_into(i, &mut s);
                s
            })
            .collect();
        let pips = sides.iter().map(|s| board::pip_count(s) as u16).collect();
        let views = (0..n).map(|b| opponent_view(&index, &sides[b])).collect();
        let mut class = vec![Class::Illegal; n * n];
        class.par_chunks_mut(n).enumerate().for_each(|(a, row)| {
            for (b, c) in row.iter_mut().enumerate() {
                *c = classify(&sides[a], &sides[b]);
            }
        });
        Ok(HyperSpace {
            checkers,
            n,
            index,
            sides,
            pips,
            class,
            views,
        })
    }

    /// Checkers per side.
    pub fn checkers(&self) -> usize {
        self.checkers
    }

    /// One-sided positions per side, `binom(25 + C, C)`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Records, `n²`.
    pub fn records(&self) -> usize {
        self.n * self.n
    }

    /// The one-sided ranking (25 slots).
    pub fn index(&self) -> &PositionIndex {
        &self.index
    }

    /// The side with one-sided index `i`.
    pub fn side(&self, i: usize) -> &Side {
        &self.sides[i]
    }

    /// Pip count of side `i` (the bar counts 25).
    pub fn pips(&self, i: usize) -> u32 {
        u32::from(self.pips[i])
    }

    /// The class of record `r`.
    pub fn class(&self, r: usize) -> Class {
        self.class[r]
    }

    /// How side `b` looks to a mover facing it.
    pub fn view(&self, b: usize) -> &OpponentView {
        &self.views[b]
    }

    /// The position of record `r` (side on roll in `sides()[1]`).
    pub fn position(&self, r: usize) -> Position {
        let (a, b) = (r / self.n, r % self.n);
        Position::new_unchecked(self.sides[b], self.sides[a])
    }

    /// Number of records of each class: illegal, over, no contact, contact.
    pub fn class_counts(&self) -> [usize; 4] {
        let mut c = [0usize; 4];
        for &k in &self.class {
            c[k as usize] += 1;
        }
        c
    }

    /// The sides in order of pip count (ties by index): `order[k]` is the `k`-th side.
    pub fn pip_order(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.n as u32).collect();
        order.sort_by_key(|&i| (self.pips[i as usize], i));
        order
    }

    /// Records of `class`, grouped by the two sides' total pip count (ascending). A move
    /// that hits nothing lowers the total, so without contact every successor lies in an
    /// earlier group. Returns the records and the group boundaries
    /// (`records[starts[k]..starts[k + 1]]`; empty groups left out).
    pub fn levels(&self, class: Class) -> (Vec<u32>, Vec<usize>) {
        let key = |r: usize| (self.pips[r / self.n] + self.pips[r % self.n]) as usize;
        self.grouped(class, 2 * 25 * self.checkers + 1, &self.pip_order(), key)
    }

    /// Records of `class`, grouped by opponent; opponents ordered by the point they block
    /// (then by pip count), sides on roll by index within a group. The successors of a
    /// group's records that hit nothing are the records with the group's opponent on
    /// roll, one row of the table; those that hit lie in the few rows of that opponent
    /// with blots on the bar: a group reads at most eight rows. Its moves come from the
    /// part of the move table for its blocked point, read front to back.
    pub fn columns(&self, class: Class) -> (Vec<u32>, Vec<usize>) {
        let mut order: Vec<u32> = (0..self.n as u32).collect();
        order.sort_by_key(|&i| (self.views[i as usize].block, self.pips[i as usize], i));
        let mut slot = vec![0usize; self.n];
        for (k, &i) in order.iter().enumerate() {
            slot[i as usize] = k;
        }
        let natural: Vec<u32> = (0..self.n as u32).collect();
        self.grouped(class, self.n, &natural, |r| slot[r % self.n])
    }

    /// Records of `class` grouped by `key` (< `keys`), sides on roll in `order` within a
    /// group.
    fn grouped(
        &self,
        class: Class,
        keys: usize,
        order: &[u32],
        key: impl Fn(usize) -> usize,
    ) -> (Vec<u32>, Vec<usize>) {
        let mut counts = vec![0usize; keys + 1];
        for &a in order {
            for b in 0..self.n {
                let r = a as usize * self.n + b;
                if self.class[r] == class {
                    counts[key(r) + 1] += 1;
                }
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut fill = counts.clone();
        let mut records = vec![0u32; counts[keys]];
        for &a in order {
            for b in 0..self.n {
                let r = a as usize * self.n + b;
                if self.class[r] == class {
                    let slot = &mut fill[key(r)];
                    records[*slot] = r as u32;
                    *slot += 1;
                }
            }
        }
        let mut starts = vec![0usize];
        for w in counts.windows(2) {
            if w[1] > w[0] {
                starts.push(w[1]);
            }
        }
        (records, starts)
    }

    /// Outputs of a finished game (gnubg's `EvalOver` for hypergammon): if the opponent
    /// has no checkers left the side on roll has lost (a gammon if it still has all `C`
    /// checkers, a backgammon if one of them is also in the winner's home board or on the
    /// bar); otherwise, if the side on roll has none left, it has won likewise.
    pub fn over_outputs(&self, r: usize) -> Outputs {
        let (a, b) = (&self.sides[r / self.n], &self.sides[r % self.n]);
        let count = |s: &Side| s.iter().map(|&c| usize::from(c)).sum::<usize>();
        let back = |s: &Side| s[18..].iter().any(|&c| c > 0);
        let mut o = [0.0; 5];
        if count(b) == 0 {
            if count(a) == self.checkers {
                o[3] = 1.0;
                if back(a) {
                    o[4] = 1.0;
                }
            }
        } else if count(a) == 0 {
            o[0] = 1.0;
            if count(b) == self.checkers {
                o[1] = 1.0;
                if back(b) {
                    o[2] = 1.0;
                }
            }
        }
        o
    }
}

/// Money utility of outputs (gammons and backgammons count double and triple).
#[inline]
pub fn utility(o: &Outputs) -> f64 {
    2.0 * o[0] - 1.0 + (o[1] - o[3]) + (o[2] - o[4])
}

/// Outputs seen from the other side: win ↔ lose, gammons and backgammons swapped.
#[inline]
pub fn invert(o: &Outputs) -> Outputs {
    [1.0 - o[0], o[3], o[4], o[1], o[2]]
}

/// gnubg's `ClassifyHyper` for the side on roll `a` and the opponent `b`.
pub fn classify(a: &Side, b: &Side) -> Class {
    if (0..24).any(|i| b[i] > 0 && a[23 - i] > 0) {
        return Class::Illegal;
    }
    match (a.iter().rposition(|&c| c > 0), b.iter().rposition(|&c| c > 0)) {
        (Some(x), Some(y)) if x + y > 22 => Class::Contact,
        (Some(_), Some(_)) => Class::NoContact,
        _ => Class::Over,
    }
}

fn opponent_view(index: &PositionIndex, b: &Side) -> OpponentView {
    let mut v = OpponentView {
        block: NO_BLOCK as u8,
        blots: 0,
        blot_bits: [31; 3],
        hit: [0; 8],
    };
    let mut points = [0usize; 3];
    let mut nb = 0;
    for (p, &c) in b[..24].iter().enumerate().rev() {
        // Opponent's index p is the mover's point 23 - p; walking p down lists the mover's
        // points in ascending order.
        let mover = 23 - p;
        if c >= 2 {
            v.block = mover as u8;
        } else if c == 1 {
            v.blots |= 1 << mover;
            v.blot_bits[nb] = mover as u8;
            points[nb] = p;
            nb += 1;
        }
    }
    for s in 0..8usize {
        let mut side = *b;
        for (t, &p) in points.iter().enumerate().take(nb) {
            if s >> t & 1 == 1 {
                side[p] -= 1;
                side[BAR] += 1;
            }
        }
        v.hit[s] = index.rank(&side).map_or(u32::MAX, |i| i as u32);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_counts_match_reference_table() {
        // Format reference §5.1 (gnubg's makehyper prints the same counts); the
        // 3-checker legal total, 7,959,904, is Tom Keith's count.
        let expected = [
            (1, [24, 51, 276, 325]),
            (2, [15_948, 701, 19_826, 86_726]),
            (3, [2_772_272, 6_551, 587_926, 7_365_427]),
        ];
        for (c, counts) in expected {
            let space = HyperSpace::new(c).unwrap();
            assert_eq!(space.class_counts(), counts, "C = {c}");
        }
        assert_eq!(6_551 + 587_926 + 7_365_427, 7_959_904);
    }

    #[test]
    fn start_positions_have_the_reference_indices() {
        for (c, variant, index) in [
            (1, board::Variant::Hypergammon1, 24),
            (2, board::Variant::Hypergammon2, 346),
            (3, board::Variant::Hypergammon3, 3261),
        ] {
            let space = HyperSpace::new(c).unwrap();
            let start = variant.start();
            assert_eq!(space.index().rank(start.on_roll()), Some(index));
            let r = index as usize * space.n() + index as usize;
            assert_eq!(space.position(r), start);
            assert_eq!(space.class(r), Class::Contact);
        }
    }

    #[test]
    fn hits_move_blots_to_the_bar() {
        let space = HyperSpace::new(3).unwrap();
        let mut b = [0u8; SLOTS];
        b[5] = 1; // opponent's 6-point = mover's 19-point (index 18)
        b[10] = 2; // mover's index 13 is blocked
        let bi = space.index().rank(&b).unwrap();
        let v = space.view(bi as usize);
        assert_eq!(v.block, 13);
        assert_eq!(v.blots, 1 << 18);
        assert_eq!(v.after(1 << 17), bi as u32);
        assert_eq!(v.after(0), bi as u32);
        let mut hit = b;
        hit[5] = 0;
        hit[BAR] = 1;
        assert_eq!(
            v.after(1 << 18 | 1 << 3),
            space.index().rank(&hit).unwrap() as u32
        );
    }

    #[test]
    fn finished_games() {
        let space = HyperSpace::new(2).unwrap();
        let n = space.n();
        let rank = |s: &Side| space.index().rank(s).unwrap() as usize;
        let mut a = [0u8; SLOTS];
        a[20] = 2; // both checkers in the winner's home board: backgammon
        assert_eq!(space.over_outputs(rank(&a) * n), [0.0, 0.0, 0.0, 1.0, 1.0]);
        let mut a1 = [0u8; SLOTS];
        a1[3] = 1; // one checker off: single game
        assert_eq!(space.over_outputs(rank(&a1) * n), [0.0; 5]);
        let mut b = [0u8; SLOTS];
        b[2] = 2;
        assert_eq!(space.over_outputs(rank(&b)), [1.0, 1.0, 0.0, 0.0, 0.0]);
        // Neither side has checkers: gnubg scores it as a single loss.
        assert_eq!(space.over_outputs(0), [0.0; 5]);
        assert_eq!(utility(&[0.0, 0.0, 0.0, 1.0, 1.0]), -3.0);
    }
}

//! The board: gnubg's two arrays of 25 slots, with validation.

use std::fmt;

/// Slots per side: points 1..=24 (indices 0..=23) and the bar (index 24).
pub const SLOTS: usize = 25;
/// Index of the bar in a side's array.
pub const BAR: usize = 24;
/// The most checkers one side may have.
pub const MAX_CHECKERS: u32 = 15;

/// One side's 25 slots: index `i` (0..=23) is that side's own point `i + 1`, counted from
/// its ace point; index 24 is its bar. Borne-off checkers are not stored.
pub type Side = [u8; SLOTS];

/// Which of the two arrays of a [`Position`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// `sides[0]`: the player who is **not** on roll (encoded first in a Position ID).
    Opponent = 0,
    /// `sides[1]`: the player on roll, who moves next.
    OnRoll = 1,
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Opponent => "player not on roll",
            Player::OnRoll => "player on roll",
        })
    }
}

/// A backgammon position in gnubg's layout (`TanBoard`).
///
/// * `sides[1]` belongs to the player **on roll**, `sides[0]` to the opponent.
/// * Each side counts points from its own ace point: index 0..=23 = points 1..=24, index
///   24 = bar. Point `p` of one side is point `25 - p` of the other, so
///   `sides[1][i]` and `sides[0][23 - i]` are the same physical point.
/// * The player on roll moves from high indices to low and bears off below index 0;
///   it enters from the bar onto index `24 - d`.
///
/// A `Position` built through [`Position::new`] or decoded from an ID is always valid:
/// at most 15 checkers a side, never both sides on one point, and not both sides on
/// the bar against each other's closed boards (gnubg's `CheckPosition`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    sides: [Side; 2],
}

/// Why a board is not a legal backgammon position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has more than 15 checkers on the board.
    #[error("{player} has {count} checkers on the board (at most 15 allowed)")]
    TooManyCheckers {
        /// Which side.
        player: Player,
        /// How many it has.
        count: u32,
    },
    /// Both players have checkers on the same physical point.
    #[error("both players have checkers on the same point (point {point} of the player on roll)")]
    SharedPoint {
        /// The point, numbered 1..=24 from the side on roll.
        point: usize,
    },
    /// Both sides are on the bar and both home boards are closed: nobody could ever move.
    #[error("both players are on the bar against each other's closed board")]
    BothClosedOut,
    /// A board array did not have 25 slots.
    #[error("a side needs 25 slots (points 1-24 and the bar), got {0}")]
    WrongLength(usize),
}

impl Position {
    /// Builds a position from the opponent's and the player-on-roll's arrays, validated.
    pub fn new(opponent: Side, on_roll: Side) -> Result<Position, PositionError> {
        let pos = Position {
            sides: [opponent, on_roll],
        };
        pos.validate()?;
        Ok(pos)
    }

    /// Builds a position without validation. Use only for boards known to be valid
    /// (for example produced by this crate's move generator); everything in this
    /// crate assumes the invariants documented on [`Position`].
    pub const fn new_unchecked(opponent: Side, on_roll: Side) -> Position {
        Position {
            sides: [opponent, on_roll],
        }
    }

    /// Builds a position from slices, as read from text or CSV: each exactly
    /// [`SLOTS`] (25) counts long (a shorter one is [`PositionError::WrongLength`]).
    pub fn from_slices(opponent: &[u8], on_roll: &[u8]) -> Result<Position, PositionError> {
        let side = |s: &[u8]| -> Result<Side, PositionError> {
            s.try_into().map_err(|_| PositionError::WrongLength(s.len()))
        };
        Position::new(side(opponent)?, side(on_roll)?)
    }

    /// A board with no checkers at all.
    pub const EMPTY: Position = Position {
        sides: [[0; SLOTS]; 2],
    };

    /// Checks gnubg's validity rules (see [`Position`]).
    pub fn validate(&self) -> Result<(), PositionError> {
        // The common case without branches, which the compiler vectorises (batches of
        // boards from Python and files are checked one by one): both counts, no point
        // held by both sides, not both sides on the bar. Otherwise the rules in order,
        // for the error.
        let [opp, me] = &self.sides;
        let count = |s: &Side| s.iter().map(|&n| u32::from(n)).sum::<u32>();
        let shared = me[..24]
            .iter()
            .zip(opp[..24].iter().rev())
            .fold(0u8, |acc, (&a, &b)| acc | a.min(b));
        if (count(opp) <= MAX_CHECKERS)
            & (count(me) <= MAX_CHECKERS)
            & (shared == 0)
            & ((me[BAR] == 0) | (opp[BAR] == 0))
        {
            return Ok(());
        }
        self.validate_in_order()
    }

    /// The rules one by one: the first broken one is the error.
    fn validate_in_order(&self) -> Result<(), PositionError> {
        for player in [Player::Opponent, Player::OnRoll] {
            let count = self.checkers(player);
            if count > MAX_CHECKERS {
                return Err(PositionError::TooManyCheckers { player, count });
            }
        }
        let [opp, me] = &self.sides;
        if let Some(i) = (0..24).find(|&i| me[i] > 0 && opp[23 - i] > 0) {
            return Err(PositionError::SharedPoint { point: i + 1 });
        }
        let closed = |s: &Side| s[..6].iter().all(|&n| n >= 2);
        if me[BAR] > 0 && opp[BAR] > 0 && closed(me) && closed(opp) {
            return Err(PositionError::BothClosedOut);
        }
        Ok(())
    }

    /// Both arrays, `[opponent, on_roll]`, exactly as gnubg's `TanBoard`.
    pub const fn sides(&self) -> &[Side; 2] {
        &self.sides
    }

    /// One side's array.
    pub const fn side(&self, player: Player) -> &Side {
        &self.sides[player as usize]
    }

    /// The array of the player on roll (`sides[1]`).
    pub const fn on_roll(&self) -> &Side {
        &self.sides[1]
    }

    /// The array of the player not on roll (`sides[0]`).
    pub const fn opponent(&self) -> &Side {
        &self.sides[0]
    }

    /// Mutable access for code in this crate that keeps the invariants.
    pub(crate) fn sides_mut(&mut self) -> &mut [Side; 2] {
        &mut self.sides
    }

    /// The same board with the other player on roll (the two arrays exchanged).
    #[must_use]
    pub const fn swapped(&self) -> Position {
        Position {
            sides: [self.sides[1], self.sides[0]],
        }
    }

    /// Exchanges the two arrays in place ([`Position::swapped`] without a copy).
    pub fn swap_sides(&mut self) {
        let [a, b] = &mut self.sides;
        a.swap_with_slice(b);
    }

    /// Appends `positions` to `out`, each with the other player on roll. The same as
    /// extending by [`Position::swapped`], but copied first and swapped in place: built
    /// one by one, each swapped copy went through a stack temporary whose reloads
    /// overlapped the stores just made (a store-forwarding stall per position, seen in
    /// the profiles of move lists).
    pub fn extend_swapped(out: &mut Vec<Position>, positions: impl IntoIterator<Item = Position>) {
        let start = out.len();
        out.extend(positions);
        out[start..].iter_mut().for_each(Position::swap_sides);
    }

    /// Checkers a side has on the board (bar included).
    pub fn checkers(&self, player: Player) -> u32 {
        self.side(player).iter().map(|&n| u32::from(n)).sum()
    }

    /// Pip count of a side: the sum over its checkers of (slot index + 1); the bar counts 25.
    pub fn pips(&self, player: Player) -> u32 {
        pip_count(self.side(player))
    }

    /// The highest occupied slot index of a side (24 = bar), or `None` with no checkers.
    pub fn back_checker(&self, player: Player) -> Option<usize> {
        self.side(player).iter().rposition(|&n| n > 0)
    }

    /// Whether the two armies can still meet: some checker of one side is behind a
    /// checker of the other (gnubg: rearmost indices sum to more than 22).
    pub fn has_contact(&self) -> bool {
        match (
            self.back_checker(Player::OnRoll),
            self.back_checker(Player::Opponent),
        ) {
            (Some(a), Some(b)) => a + b > 22,
            _ => false,
        }
    }
}

/// Pip count of one side's array.
pub fn pip_count(side: &Side) -> u32 {
    side.iter()
        .enumerate()
        .map(|(i, &n)| (i as u32 + 1) * u32::from(n))
        .sum()
}

/// Builds a side from (point, checkers) pairs; point 25 is the bar (tests only).
#[cfg(test)]
pub(crate) fn side_of(points: &[(usize, u8)]) -> Side {
    let mut s = [0; SLOTS];
    for &(p, n) in points {
        s[p - 1] = n;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(points: &[(usize, u8)]) -> Side {
        side_of(points)
    }

    #[test]
    fn sixteen_checkers_are_rejected() {
        let err = Position::new(side(&[(6, 16)]), side(&[(6, 1)])).unwrap_err();
        assert_eq!(
            err,
            PositionError::TooManyCheckers {
                player: Player::Opponent,
                count: 16
            }
        );
        assert!(err.to_string().contains("16 checkers"));
    }

    #[test]
    fn both_sides_on_one_point_is_rejected() {
        // My 6-point is the opponent's 19-point.
        let err = Position::new(side(&[(19, 1)]), side(&[(6, 2)])).unwrap_err();
        assert_eq!(err, PositionError::SharedPoint { point: 6 });
    }

    #[test]
    fn both_closed_out_on_the_bar_is_rejected() {
        let closed = side(&[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (25, 1)]);
        assert_eq!(
            Position::new(closed, closed).unwrap_err(),
            PositionError::BothClosedOut
        );
        let mut one_open = closed;
        one_open[5] = 1;
        one_open[6] = 1;
        assert!(Position::new(closed, one_open).is_ok());
    }

    #[test]
    fn wrong_slot_count_is_rejected() {
        assert_eq!(
            Position::from_slices(&[0; 24], &[0; 25]),
            Err(PositionError::WrongLength(24))
        );
    }

    #[test]
    fn contact_follows_the_rearmost_checkers() {
        let me = side(&[(13, 1)]);
        // My 13-point is the opponent's 12-point.
        assert!(Position::new(side(&[(14, 1)]), me).unwrap().has_contact());
        assert!(!Position::new(side(&[(11, 1)]), me).unwrap().has_contact());
    }

    #[test]
    fn lists_swap_in_place_as_one_by_one() {
        // Every position two plies from the start, and each list appended after others.
        let mut gen = crate::MoveGen::new();
        let start = crate::Variant::Backgammon.start();
        let mut out = vec![start];
        let mut want = vec![start];
        for d in crate::Dice::all() {
            let results = gen.positions(&start, d).to_vec();
            Position::extend_swapped(&mut out, results.iter().copied());
            want.extend(results.iter().map(Position::swapped));
        }
        assert!(out.len() > 100);
        assert_eq!(out, want);
        for p in &mut out {
            let before = *p;
            p.swap_sides();
            assert_eq!(p.sides(), &[before.sides()[1], before.sides()[0]]);
        }
    }

    proptest::proptest! {
        /// The branch-free check agrees with the rules checked one by one, on boards
        /// that break each rule now and then (counts near 15, shared points, both bars).
        #[test]
        fn the_fast_check_is_the_rules(
            a in proptest::collection::vec((0usize..25, 0u8..4), 0..10),
            b in proptest::collection::vec((0usize..25, 0u8..4), 0..10),
        ) {
            let fill = |v: &[(usize, u8)]| {
                let mut s = [0u8; SLOTS];
                for &(i, n) in v {
                    s[i] = s[i].saturating_add(n);
                }
                s
            };
            let p = Position::new_unchecked(fill(&a), fill(&b));
            proptest::prop_assert_eq!(p.validate(), p.validate_in_order());
        }
    }
}

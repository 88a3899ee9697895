//! The end of a game: who has won, and how much (gnubg's `EvalOver` rule).

use crate::position::{Player, Position};
use crate::variant::Variant;

/// How a finished game ended, seen from the side on roll in the final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Finish {
    /// Whether the side on roll (`sides()[1]`) has won.
    pub on_roll_won: bool,
    /// 1 (single game), 2 (gammon) or 3 (backgammon), before any cube.
    pub points: u32,
}

impl Position {
    /// The end of the game, if a side has borne off all its checkers: the winner, and
    /// a gammon if the loser has borne off none of the `variant`'s checkers, a
    /// backgammon if it also still has a checker in the winner's home board or on the
    /// bar. `None` while both sides have checkers.
    pub fn finish(&self, variant: Variant) -> Option<Finish> {
        // The opponent's side first, as gnubg's `EvalOver` looks: it decides the one
        // board where neither side has a checker (a loss for the side on roll).
        let loser = if self.checkers(Player::Opponent) == 0 {
            Player::OnRoll
        } else if self.checkers(Player::OnRoll) == 0 {
            Player::Opponent
        } else {
            return None;
        };
        let gammon = self.checkers(loser) == variant.checkers();
        // The loser's slots 18..=23 are the winner's home board; 24 is the bar.
        let deep = self.side(loser)[18..].iter().any(|&n| n > 0);
        Some(Finish {
            on_roll_won: loser == Player::Opponent,
            points: 1 + u32::from(gammon) + u32::from(gammon && deep),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::side_of;

    fn finish(opp: &[(usize, u8)], me: &[(usize, u8)]) -> Option<Finish> {
        Position::new(side_of(opp), side_of(me))
            .unwrap()
            .finish(Variant::Backgammon)
    }

    #[test]
    fn single_gammon_and_backgammon_follow_the_rules() {
        let won = |points| {
            Some(Finish {
                on_roll_won: true,
                points,
            })
        };
        // The side on roll has borne off everything; the loser has borne off some.
        assert_eq!(finish(&[(1, 3)], &[]), won(1));
        // The loser has borne off none: gammon.
        assert_eq!(finish(&[(7, 15)], &[]), won(2));
        // ... with a checker on its 19-point (the winner's 6-point): backgammon.
        assert_eq!(finish(&[(7, 14), (19, 1)], &[]), won(3));
        // ... or on the bar: backgammon.
        assert_eq!(finish(&[(7, 14), (25, 1)], &[]), won(3));
        // The loser has borne off one but has a checker in the winner's home: single.
        assert_eq!(finish(&[(7, 13), (19, 1)], &[]), won(1));
        // Seen from the loser's side.
        let lost = finish(&[], &[(7, 14), (19, 1)]);
        assert_eq!(
            lost,
            Some(Finish {
                on_roll_won: false,
                points: 3
            })
        );
        assert_eq!(Variant::Backgammon.start().finish(Variant::Backgammon), None);
        // The empty board (Position ID AAAAAAAAAAAAAA): gnubg 1.07 evaluates it as a
        // loss for the side on roll (probabilities 0 0 0 0 0), looking at the
        // opponent's side first.
        assert_eq!(
            finish(&[], &[]),
            Some(Finish {
                on_roll_won: false,
                points: 1
            })
        );
    }

    #[test]
    fn a_gammon_counts_the_variants_checkers() {
        // Hypergammon 3: the loser still has all three checkers.
        let pos = Position::new(side_of(&[(10, 3)]), side_of(&[])).unwrap();
        assert_eq!(pos.finish(Variant::Hypergammon3).unwrap().points, 2);
        assert_eq!(pos.finish(Variant::Backgammon).unwrap().points, 1);
    }
}

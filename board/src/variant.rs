//! Game variants and their starting positions.

use std::fmt;
use std::str::FromStr;

use crate::position::{Position, Side, SLOTS};

/// The rule variants gnubg plays. They differ only in the starting position and the
/// number of checkers per side; the movement rules are the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard backgammon: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6.
    #[default]
    Backgammon,
    /// Nackgammon: 2 on the 24, 2 on the 23, 4 on the 13, 3 on the 8, 4 on the 6.
    Nackgammon,
    /// Hypergammon with one checker per side, on the 24-point.
    Hypergammon1,
    /// Hypergammon with two checkers per side, on the 24 and 23 points.
    Hypergammon2,
    /// Hypergammon with three checkers per side, on the 24, 23 and 22 points.
    Hypergammon3,
}

impl Variant {
    /// Every variant, in a fixed order.
    pub const ALL: [Variant; 5] = [
        Variant::Backgammon,
        Variant::Nackgammon,
        Variant::Hypergammon1,
        Variant::Hypergammon2,
        Variant::Hypergammon3,
    ];

    /// Checkers each side starts with (and must bear off to win).
    pub const fn checkers(self) -> u32 {
        match self {
            Variant::Backgammon | Variant::Nackgammon => 15,
            Variant::Hypergammon1 => 1,
            Variant::Hypergammon2 => 2,
            Variant::Hypergammon3 => 3,
        }
    }

    /// The hypergammon variant with `n` checkers (1..=3).
    pub const fn hypergammon(n: u32) -> Option<Variant> {
        match n {
            1 => Some(Variant::Hypergammon1),
            2 => Some(Variant::Hypergammon2),
            3 => Some(Variant::Hypergammon3),
            _ => None,
        }
    }

    /// The starting position (both sides alike; either may be on roll).
    pub const fn start(self) -> Position {
        let side = self.start_side();
        Position::new_unchecked(side, side)
    }

    /// One side's starting array, as (point, checkers) placed on its own numbering.
    const fn start_side(self) -> Side {
        let layout: &[(usize, u8)] = match self {
            Variant::Backgammon => &[(24, 2), (13, 5), (8, 3), (6, 5)],
            Variant::Nackgammon => &[(24, 2), (23, 2), (13, 4), (8, 3), (6, 4)],
            Variant::Hypergammon1 => &[(24, 1)],
            Variant::Hypergammon2 => &[(24, 1), (23, 1)],
            Variant::Hypergammon3 => &[(24, 1), (23, 1), (22, 1)],
        };
        let mut side = [0u8; SLOTS];
        let mut i = 0;
        while i < layout.len() {
            side[layout[i].0 - 1] = layout[i].1;
            i += 1;
        }
        side
    }

    /// The name used on the command line and in files.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Backgammon => "backgammon",
            Variant::Nackgammon => "nackgammon",
            Variant::Hypergammon1 => "hypergammon1",
            Variant::Hypergammon2 => "hypergammon2",
            Variant::Hypergammon3 => "hypergammon3",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;

    fn from_str(s: &str) -> Result<Variant, String> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
                format!("unknown variant '{s}' (expected one of: {})", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Player;

    #[test]
    fn start_positions_have_the_right_checkers_and_ids() {
        for v in Variant::ALL {
            let p = v.start();
            p.validate().unwrap();
            assert_eq!(p.checkers(Player::OnRoll), v.checkers(), "{v}");
            assert_eq!(p.checkers(Player::Opponent), v.checkers(), "{v}");
        }
        // The IDs gnubg 1.07 shows after `set variation ...` and `new session`.
        let gnubg = [
            (Variant::Backgammon, "4HPwATDgc/ABMA"),
            (Variant::Nackgammon, "4Dl4ADbgOXgANg"),
            (Variant::Hypergammon1, "AACAAAAAAgAAAA"),
            (Variant::Hypergammon2, "AABAAQAACgAAAA"),
            (Variant::Hypergammon3, "AACgAgAAKgAAAA"),
        ];
        for (v, id) in gnubg {
            assert_eq!(v.start().position_id(), id, "{v}");
        }
        assert_eq!(Variant::Backgammon.start().pips(Player::OnRoll), 167);
        assert_eq!(Variant::Nackgammon.start().pips(Player::OnRoll), 194);
    }

    #[test]
    fn variant_names_parse_back() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        }
        assert!("chouette".parse::<Variant>().unwrap_err().contains("chouette"));
    }
}

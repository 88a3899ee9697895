//! Position classes, as gnubg's `ClassifyPosition` assigns them.

use std::fmt;

use board::Position;

use crate::bearoff::fits;

/// gnubg's position classes, numbered as its `positionclass` enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PositionClass {
    /// A side has no checkers left: the game is over.
    Over = 0,
    /// Hypergammon with 1, 2, 3 checkers (exact databases).
    Hypergammon1 = 1,
    /// Hypergammon, 2 checkers.
    Hypergammon2 = 2,
    /// Hypergammon, 3 checkers.
    Hypergammon3 = 3,
    /// No contact, both sides in the small two-sided database (gnubg_ts0.bd).
    Bearoff2 = 4,
    /// No contact, both sides in a large two-sided database (gnubg_ts.bd).
    BearoffTs = 5,
    /// No contact, both sides in the one-sided database (gnubg_os0.bd).
    Bearoff1 = 6,
    /// No contact, both sides in a large one-sided database (gnubg_os.bd).
    BearoffOs = 7,
    /// No contact otherwise: the race net.
    Race = 8,
    /// Contact, and a side has fewer than 7 checkers in play: the crashed net.
    Crashed = 9,
    /// Contact: the contact net.
    Contact = 10,
}

impl PositionClass {
    /// The class with gnubg's number.
    pub fn from_number(n: u8) -> Option<PositionClass> {
        use PositionClass::*;
        [
            Over,
            Hypergammon1,
            Hypergammon2,
            Hypergammon3,
            Bearoff2,
            BearoffTs,
            Bearoff1,
            BearoffOs,
            Race,
            Crashed,
            Contact,
        ]
        .get(usize::from(n))
        .copied()
    }

    /// The class's lower-case name.
    pub fn name(self) -> &'static str {
        use PositionClass::*;
        match self {
            Over => "over",
            Hypergammon1 => "hypergammon1",
            Hypergammon2 => "hypergammon2",
            Hypergammon3 => "hypergammon3",
            Bearoff2 => "bearoff2",
            BearoffTs => "bearoff_ts",
            Bearoff1 => "bearoff1",
            BearoffOs => "bearoff_os",
            Race => "race",
            Crashed => "crashed",
            Contact => "contact",
        }
    }

    /// Whether a neural net evaluates this class (race, crashed, contact).
    pub fn uses_net(self) -> bool {
        self >= PositionClass::Race
    }
}

impl fmt::Display for PositionClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The contact classes and the race, before bearoff databases are consulted.
pub fn classify_shape(pos: &Position) -> PositionClass {
    let [opp, me] = pos.sides();
    // Each side's rearmost occupied slot (−1: none left).
    let (back, opp_back) = (
        crate::simd::slot_masks(me).rearmost(),
        crate::simd::slot_masks(opp).rearmost(),
    );
    if back < 0 || opp_back < 0 {
        return PositionClass::Over;
    }
    if back + opp_back <= 22 {
        return PositionClass::Race;
    }
    for side in [opp, me] {
        if is_crashed(side) {
            return PositionClass::Crashed;
        }
    }
    PositionClass::Contact
}

/// The class of `pos` under gnubg's default databases (a one-sided one of 6 points ×
/// 15 checkers, a two-sided one of 6 points × 6 checkers), without opening them: the
/// class an [`crate::Evaluator`] with those databases gives, as dataset files record
/// it.
pub fn classify_default_databases(pos: &Position) -> PositionClass {
    match classify_shape(pos) {
        // The coverage test the evaluator applies to its databases' sizes.
        PositionClass::Race if fits(pos, 6, 6) => PositionClass::Bearoff2,
        PositionClass::Race if fits(pos, 6, 15) => PositionClass::Bearoff1,
        c => c,
    }
}

/// gnubg's "crashed" test for one side: fewer than 7 checkers still in play, where
/// checkers piled deep on the ace point (and the deuce point) count as out of play.
fn is_crashed(side: &[u8; 25]) -> bool {
    const N: i32 = 6;
    let tot = crate::simd::checker_total(side);
    let (b0, b1) = (i32::from(side[0]), i32::from(side[1]));
    if tot <= N {
        return true;
    }
    if b0 > 1 {
        tot <= N + b0 || (1 + tot - (b0 + b1) <= N && b1 > 1)
    } else {
        tot <= N + (b1 - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_classes_are_reproduced() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/gnubg/positions.csv");
        let mut rdr = csv::Reader::from_path(path).unwrap();
        for row in rdr.records() {
            let row = row.unwrap();
            let pos = Position::from_id(&row[0]).unwrap();
            let want = PositionClass::from_number(row[3].parse().unwrap()).unwrap();
            // gnubg's class, with its default databases.
            assert_eq!(classify_default_databases(&pos), want, "{}", &row[0]);
            let got = classify_shape(&pos);
            match want {
                PositionClass::Bearoff1 | PositionClass::Bearoff2 => {
                    assert_eq!(got, PositionClass::Race, "{}", &row[0])
                }
                _ => assert_eq!(got, want, "{}", &row[0]),
            }
        }
    }
}

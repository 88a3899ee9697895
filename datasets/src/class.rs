//! Position classes for dataset files, without opening any database.
//!
//! gnubg's class of a position depends on the bearoff databases in use; dataset files
//! record the class under gnubg's default pair (a one-sided database of 6 points ×
//! 15 checkers and a two-sided one of 6 points × 6 checkers): contact, crashed and race
//! as gnubg's `ClassifyPosition` decides, a race with both sides home and at most 6
//! checkers each is "bearoff2", a race with both sides home otherwise "bearoff1".

use board::Position;
use evaluator::class::{classify_default_databases, PositionClass};

/// The classes a dataset can hold, in gnubg's numbering order.
pub const DATASET_CLASSES: [PositionClass; 6] = [
    PositionClass::Over,
    PositionClass::Bearoff2,
    PositionClass::Bearoff1,
    PositionClass::Race,
    PositionClass::Crashed,
    PositionClass::Contact,
];

/// The class of `pos` under gnubg's default bearoff databases (the evaluator's
/// [`classify_default_databases`]).
pub fn dataset_class(pos: &Position) -> PositionClass {
    classify_default_databases(pos)
}

/// Parses a class name as the CLI takes it: contact, crashed, race, bearoff1,
/// bearoff2 (or "bearoff" for both).
pub fn parse_classes(text: &str) -> Result<Vec<PositionClass>, String> {
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match name {
            "contact" => out.push(PositionClass::Contact),
            "crashed" => out.push(PositionClass::Crashed),
            "race" => out.push(PositionClass::Race),
            "bearoff1" => out.push(PositionClass::Bearoff1),
            "bearoff2" => out.push(PositionClass::Bearoff2),
            "bearoff" => out.extend([PositionClass::Bearoff1, PositionClass::Bearoff2]),
            _ => {
                return Err(format!(
                    "unknown class '{name}' (use contact, crashed, race, bearoff1, bearoff2, bearoff)"
                ))
            }
        }
    }
    if out.is_empty() {
        return Err("no class given".into());
    }
    out.sort();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_gnubg_default_databases() {
        let start = board::Variant::Backgammon.start();
        assert_eq!(dataset_class(&start), PositionClass::Contact);
        let mut a = [0u8; 25];
        a[0] = 3;
        a[5] = 3;
        let small = Position::new(a, a).unwrap();
        assert_eq!(dataset_class(&small), PositionClass::Bearoff2);
        let mut b = a;
        b[2] = 9;
        assert_eq!(
            dataset_class(&Position::new(a, b).unwrap()),
            PositionClass::Bearoff1
        );
        let mut c = a;
        c[7] = 1;
        assert_eq!(dataset_class(&Position::new(a, c).unwrap()), PositionClass::Race);
        assert_eq!(
            parse_classes("race,bearoff").unwrap(),
            vec![
                PositionClass::Bearoff2,
                PositionClass::Bearoff1,
                PositionClass::Race
            ]
        );
        assert!(parse_classes("racing").unwrap_err().contains("racing"));
    }
}

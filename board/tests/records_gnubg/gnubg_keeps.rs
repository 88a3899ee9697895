//! What a match keeps after a trip through gnubg, and the documented places where
//! bgkit's `.mat` differs from gnubg's export.

use board::records::{Action, MatchRecord};

/// What survives a trip through gnubg: gnubg keeps no declined resignation offers,
/// and has no beaver flag in its files (only beavers actually played show).
pub(crate) fn as_gnubg_keeps_it(record: &MatchRecord) -> MatchRecord {
    let mut r = record.clone();
    for game in &mut r.games {
        let mut kept = Vec::new();
        for (k, a) in game.actions.iter().enumerate() {
            let declined_next = matches!(game.actions.get(k + 1), Some(Action::RejectResignation { .. }));
            match a {
                Action::RejectResignation { .. } => {}
                Action::Resign { .. } if declined_next => {}
                other => kept.push(other.clone()),
            }
        }
        game.actions = kept;
    }
    r.rules.beavers = r
        .games
        .iter()
        .any(|g| g.actions.iter().any(|a| matches!(a, Action::Beaver { .. })));
    r
}

/// The lines of a `.mat` text without bgkit's rule tags (which gnubg does not write).
pub(crate) fn without_rule_tags(text: &str) -> String {
    text.lines()
        .filter(|l| {
            !["; [Crawford ", "; [Jacoby ", "; [Beaver ", "; [CubeLimit "]
                .iter()
                .any(|t| l.starts_with(t))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// How many times a match holds one of the two cases where bgkit's `.mat`
/// deliberately differs from gnubg's export: a dropped beaver (bgkit writes
/// ` Doubles => n`, gnubg ` Beavers => n`), a resignation facing a double (gnubg
/// writes twice the points won).
pub(crate) fn mat_deviations(record: &MatchRecord) -> usize {
    record
        .games
        .iter()
        .map(|g| {
            g.actions
                .windows(2)
                .filter(|w| {
                    matches!(w, [Action::Beaver { .. }, Action::Drop { .. }])
                        || matches!(
                            w,
                            [
                                Action::Double { .. } | Action::Beaver { .. },
                                Action::Resign { .. }
                            ]
                        )
                })
                .count()
        })
        .sum()
}

/// Compares gnubg's `.mat` export with bgkit's line by line; returns the lines that
/// differ only in the documented ways (see [`mat_deviations`]).
pub(crate) fn mat_differences(label: &str, gnubg: &str, ours: &str) -> usize {
    let (g, o): (Vec<&str>, Vec<&str>) = (gnubg.lines().collect(), ours.lines().collect());
    assert_eq!(
        g.len(),
        o.len(),
        "{label}: line count differs from gnubg's export"
    );
    let mut explained = 0;
    for (k, (gl, ol)) in g.iter().zip(&o).enumerate() {
        if gl == ol {
            continue;
        }
        let beaver = ol
            .rsplit_once(" Doubles => ")
            .is_some_and(|(a, b)| format!("{a} Beavers => {b}") == *gl);
        let resign_points = match (gl.split_once("Wins "), ol.split_once("Wins ")) {
            (Some((gp, gr)), Some((op, or))) if gp == op => {
                let n = |r: &str| r.split(' ').next().unwrap().parse::<u32>().unwrap();
                n(gr) == 2 * n(or)
            }
            _ => false,
        };
        assert!(
            beaver || resign_points,
            "{label} line {}: gnubg {gl:?}, bgkit {ol:?}",
            k + 1
        );
        explained += 1;
    }
    explained
}

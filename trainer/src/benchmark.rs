//! The move-error benchmark: a player's average equity loss on a benchmark set, per
//! position class, in millipoints (gnubg-nn's "ER").
//!
//! For every position of the set the player chooses its move among all legal moves
//! (a net player: its 0-ply choice). The move's loss is the best candidate's rolled-out
//! equity minus the chosen candidate's; a move that is not among the set's candidates
//! is scored with the loss of the worst listed candidate, as gnubg-nn does (so the
//! figure is a lower bound when players often leave the list; the report counts
//! those choices). ER = 1000 × the mean loss, with its standard error (the losses'
//! sample standard deviation / √n, × 1000). Classes are gnubg's classes of the
//! starting position. The set's format is described in [`datasets::benchmark`].

use std::path::{Path, PathBuf};

use board::{Dice, MoveGen, Position};
use datasets::benchmark::Entry;
use datasets::class::dataset_class;
use rayon::prelude::*;
use serde::Serialize;

use crate::error::TrainerError;
use crate::player::{PlayContext, Player};

/// The error rate over one class (or over all positions).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClassError {
    /// The class name, or `all`.
    pub class: String,
    /// Positions scored.
    pub positions: u64,
    /// Mean equity loss × 1000.
    pub er: f64,
    /// Standard error of `er`.
    pub se: f64,
    /// Fraction of positions where the best candidate was chosen.
    pub best_rate: f64,
    /// Positions whose chosen move was not a listed candidate.
    pub unlisted: u64,
}

/// One player's result on a set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The player.
    pub player: String,
    /// Per class (contact, crashed, race, then any other), then `all`.
    pub classes: Vec<ClassError>,
    /// The difference to another player on the same positions, if compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub versus: Option<Versus>,
}

/// ER differences to another player, position by position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Versus {
    /// The other player.
    pub player: String,
    /// Per class, as in [`Report::classes`].
    pub classes: Vec<Delta>,
}

/// The difference of two players' ER over one class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Delta {
    /// The class name, or `all`.
    pub class: String,
    /// ER of this player minus ER of the other (negative: this one errs less).
    pub delta: f64,
    /// Standard error of `delta` over the positions (paired: both players are scored
    /// on the same positions, so the set's own noise largely cancels).
    pub se: f64,
}

/// Adds to `report` its paired difference to `other` (scored on the same entries).
pub fn compare(
    report: &mut Report,
    other: &str,
    entries: &[Entry],
    mine: &[Option<Scored>],
    theirs: &[Option<Scored>],
) {
    let class_of: Vec<&'static str> = entries
        .iter()
        .map(|e| dataset_class(&e.position).name())
        .collect();
    let classes = report
        .classes
        .iter()
        .map(|c| {
            let d: Vec<f64> = mine
                .iter()
                .zip(theirs)
                .enumerate()
                .filter(|(i, _)| c.class == "all" || class_of[*i] == c.class)
                .filter_map(|(_, (a, b))| Some(a.as_ref()?.loss - b.as_ref()?.loss))
                .collect();
            let (mean, se) = mean_se(&d);
            Delta {
                class: c.class.clone(),
                delta: 1000.0 * mean,
                se: 1000.0 * se,
            }
        })
        .collect();
    report.versus = Some(Versus {
        player: other.into(),
        classes,
    });
}

/// Mean and standard error of the mean.
fn mean_se(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n.max(1.0);
    let se = if v.len() > 1 {
        (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt()
    } else {
        0.0
    };
    (mean, se)
}

impl Report {
    /// The row of a class (`all` for every position).
    pub fn class(&self, name: &str) -> Option<&ClassError> {
        self.classes.iter().find(|c| c.class == name)
    }
}

/// The loss of one position and whether the choice was listed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    /// Equity given up.
    pub loss: f64,
    /// The chosen move was a listed candidate.
    pub listed: bool,
}

/// Scores each entry with `choose` (the position after the chosen move, mover's view;
/// `None` when no move is legal, which scores nothing).
pub fn score_entries<C>(entries: &[Entry], choose: C) -> Result<Vec<Option<Scored>>, TrainerError>
where
    C: Fn(&Position, Dice) -> Result<Option<Position>, TrainerError> + Sync,
{
    entries
        .par_iter()
        .map(|e| {
            Ok(choose(&e.position, e.dice)?.map(|after| {
                let (loss, listed) = e.loss_of(&after);
                Scored { loss, listed }
            }))
        })
        .collect()
}

/// Scores a player (each rayon thread with its own play context).
pub fn score_player(entries: &[Entry], player: &dyn Player) -> Result<Vec<Option<Scored>>, TrainerError> {
    let scored: Vec<Result<Option<Scored>, TrainerError>> = entries
        .par_iter()
        .map_init(
            || PlayContext::new(1),
            |ctx, e| {
                Ok(player.choose(ctx, &e.position, e.dice)?.map(|m| {
                    let (loss, listed) = e.loss_of(&m.result);
                    Scored { loss, listed }
                }))
            },
        )
        .collect();
    scored.into_iter().collect()
}

/// The first candidate of `entry` (0-based) that no legal move of its roll reaches
/// from its position, in the mover's view or the swapped one (as [`Entry::loss_of`]
/// matches moves): a damaged line, whose candidate no player could ever choose, so
/// that choices would be counted as unlisted in its place.
pub fn unreachable_candidate(gen: &mut MoveGen, entry: &Entry) -> Option<usize> {
    let results: Vec<Position> = gen
        .moves(&entry.position, entry.dice)
        .iter()
        .map(|m| m.result)
        .collect();
    if results.is_empty() {
        // No legal move: the player plays none and the entry scores nothing.
        return None;
    }
    entry
        .candidates
        .iter()
        .position(|c| !results.iter().any(|r| *r == c.after || r.swapped() == c.after))
}

/// Summarises scores per class of the entries' positions.
pub fn summarise(player: &str, entries: &[Entry], scores: &[Option<Scored>]) -> Report {
    let mut names: Vec<&'static str> = vec!["contact", "crashed", "race"];
    let class_of: Vec<&'static str> = entries
        .iter()
        .map(|e| dataset_class(&e.position).name())
        .collect();
    for c in &class_of {
        if !names.contains(c) {
            names.push(c);
        }
    }
    let row = |name: &str, keep: &dyn Fn(usize) -> bool| {
        let losses: Vec<(f64, bool)> = scores
            .iter()
            .enumerate()
            .filter(|(i, _)| keep(*i))
            .filter_map(|(_, s)| s.map(|s| (s.loss, s.listed)))
            .collect();
        let n = losses.len() as f64;
        let (mean, se) = mean_se(&losses.iter().map(|l| l.0).collect::<Vec<_>>());
        ClassError {
            class: name.into(),
            positions: losses.len() as u64,
            er: 1000.0 * mean,
            se: 1000.0 * se,
            best_rate: losses.iter().filter(|l| l.0 == 0.0).count() as f64 / n.max(1.0),
            unlisted: losses.iter().filter(|l| !l.1).count() as u64,
        }
    };
    let mut classes: Vec<ClassError> = names
        .iter()
        .map(|name| row(name, &|i| class_of[i] == *name))
        .filter(|r| r.positions > 0)
        .collect();
    classes.push(row("all", &|_| true));
    Report {
        player: player.into(),
        classes,
        versus: None,
    }
}

/// Refuses a benchmark set given twice, as the same file (after links and `..`) or as a
/// copy (the same size and SHA-256): counted twice, its positions would understate the
/// standard error. A set that cannot be read is left to the reader's error.
pub fn distinct_sets(paths: &[PathBuf]) -> Result<(), TrainerError> {
    /// A set's canonical path, and its size and SHA-256 (`None` where unreadable).
    type Identity = (Option<PathBuf>, Option<(u64, String)>);
    let identity = |p: &Path| -> Identity {
        let canonical = std::fs::canonicalize(p).ok();
        let size = std::fs::metadata(p).map(|m| m.len()).ok();
        let digest = fileio::checksum::sha256_file(p).ok();
        (canonical, size.zip(digest))
    };
    let mut seen: Vec<(&PathBuf, Identity)> = Vec::new();
    for path in paths {
        let (canonical, content) = identity(path);
        for (other, (other_canonical, other_content)) in &seen {
            let same_file = canonical.is_some() && &canonical == other_canonical;
            if same_file || (content.is_some() && &content == other_content) {
                return Err(TrainerError::Invalid(format!(
                    "--set {} and --set {} are {}; give each set once (a set counted twice understates the standard error)",
                    other.display(),
                    path.display(),
                    if same_file { "the same file" } else { "the same contents" }
                )));
            }
        }
        seen.push((path, (canonical, content)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Variant;
    use datasets::benchmark::Candidate;

    fn cand(after: Position, equity: f64) -> Candidate {
        Candidate {
            after,
            notation: String::new(),
            equity,
            se: None,
            probs: None,
        }
    }

    /// Two opening positions with hand-set candidate equities; a chooser that plays a
    /// chosen move index; the error rate worked out by hand.
    #[test]
    fn error_rate_of_a_hand_built_set() {
        let start = Variant::Backgammon.start();
        let mut gen = MoveGen::new();
        let d31 = Dice::new(3, 1).unwrap();
        let d65 = Dice::new(6, 5).unwrap();
        let m31: Vec<Position> = gen.moves(&start, d31).iter().map(|m| m.result).collect();
        let m65: Vec<Position> = gen.moves(&start, d65).iter().map(|m| m.result).collect();
        assert!(m31.len() >= 4 && m65.len() >= 3);
        // 3-1: candidates m31[0] (+0.16), m31[1] (+0.05), m31[2] (−0.02).
        // 6-5: candidates m65[0] (+0.23), m65[1] (+0.10).
        let entries = vec![
            Entry {
                position: start,
                dice: d31,
                candidates: vec![cand(m31[0], 0.16), cand(m31[1], 0.05), cand(m31[2], -0.02)],
            },
            Entry {
                position: start,
                dice: d65,
                candidates: vec![cand(m65[0], 0.23), cand(m65[1], 0.10)],
            },
        ];
        // The chooser plays m31[1] (loss 0.11) and, with 6-5, an unlisted move m65[2]
        // (scored as the worst listed: loss 0.13).
        let pick = |_: &Position, d: Dice| -> Result<Option<Position>, TrainerError> {
            Ok(Some(if d == d31 { m31[1] } else { m65[2] }))
        };
        let scores = score_entries(&entries, pick).unwrap();
        assert_eq!(
            scores[0],
            Some(Scored {
                loss: 0.16 - 0.05,
                listed: true
            })
        );
        assert_eq!(
            scores[1],
            Some(Scored {
                loss: 0.23 - 0.10,
                listed: false
            })
        );
        let r = summarise("hand", &entries, &scores);
        let all = r.class("all").unwrap();
        // ER = 1000 × (0.11 + 0.13) / 2 = 120; the losses' sample standard deviation is
        // 0.01·√2, so SE = 1000 × 0.01·√2 / √2 = 10.
        assert_eq!(all.positions, 2);
        assert!((all.er - 120.0).abs() < 1e-9, "{}", all.er);
        assert!((all.se - 10.0).abs() < 1e-9, "{}", all.se);
        assert_eq!(all.unlisted, 1);
        assert_eq!(all.best_rate, 0.0);
        // Both are contact positions.
        assert_eq!(r.class("contact").unwrap().positions, 2);
        assert!(r.class("race").is_none());
        // The best choice loses nothing; the swapped view of a result is accepted too.
        let best = |_: &Position, d: Dice| -> Result<Option<Position>, TrainerError> {
            Ok(Some(if d == d31 { m31[0].swapped() } else { m65[0] }))
        };
        let best_scores = score_entries(&entries, best).unwrap();
        let mut r = summarise("best", &entries, &best_scores);
        assert_eq!(r.class("all").unwrap().er, 0.0);
        assert_eq!(r.class("all").unwrap().best_rate, 1.0);
        // Paired difference to the hand chooser: −(0.11, 0.13) per position, mean −120,
        // SE 10 (as above).
        compare(&mut r, "hand", &entries, &best_scores, &scores);
        let v = r.versus.as_ref().unwrap();
        assert_eq!(v.player, "hand");
        let all = v.classes.iter().find(|c| c.class == "all").unwrap();
        assert!(
            (all.delta + 120.0).abs() < 1e-9 && (all.se - 10.0).abs() < 1e-9,
            "{all:?}"
        );
    }
}

//! A dataset's summary: counts per class and mean targets.

use crate::class::{dataset_class, DATASET_CLASSES};
use crate::format::Sample;

/// Totals for one class (or for the whole file).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ClassSummary {
    /// The class name ("all" for the whole file).
    pub class: String,
    /// Number of positions.
    pub count: usize,
    /// Mean of each of the five probabilities.
    pub mean: [f64; 5],
    /// Mean standard error of each, over positions that have them.
    pub mean_se: Option<[f64; 5]>,
    /// Mean cubeless money equity `2·win − 1 + wg − lg + wbg − lbg`.
    pub mean_equity: f64,
}

/// The summary of a dataset.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    /// The whole file.
    pub all: ClassSummary,
    /// Per class present, in gnubg's class order.
    pub classes: Vec<ClassSummary>,
    /// Rows that repeat a position of an earlier row (rows − distinct positions: a
    /// position found three times counts 2).
    pub duplicates: usize,
}

fn summarize_class(name: &str, samples: &[&Sample]) -> ClassSummary {
    let n = samples.len().max(1) as f64;
    let mut mean = [0f64; 5];
    let mut se = [0f64; 5];
    let mut with_se = 0usize;
    let mut eq = 0f64;
    for s in samples {
        let p = s.probs.map(f64::from);
        for k in 0..5 {
            mean[k] += p[k];
        }
        eq += 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4];
        if let Some(e) = s.se {
            with_se += 1;
            for k in 0..5 {
                se[k] += f64::from(e[k]);
            }
        }
    }
    ClassSummary {
        class: name.to_string(),
        count: samples.len(),
        mean: mean.map(|m| m / n),
        mean_se: (with_se > 0).then(|| se.map(|s| s / with_se as f64)),
        mean_equity: eq / n,
    }
}

/// Summarises samples.
pub fn summarize(samples: &[Sample]) -> Summary {
    let all: Vec<&Sample> = samples.iter().collect();
    let mut classes = Vec::new();
    for c in DATASET_CLASSES {
        let of: Vec<&Sample> = samples
            .iter()
            .filter(|s| dataset_class(&s.position) == c)
            .collect();
        if !of.is_empty() {
            classes.push(summarize_class(c.name(), &of));
        }
    }
    let mut keys: Vec<[u8; 10]> = samples.iter().map(|s| s.position.key()).collect();
    keys.sort_unstable();
    let distinct = keys.windows(2).filter(|w| w[0] != w[1]).count() + usize::from(!keys.is_empty());
    Summary {
        all: summarize_class("all", &all),
        classes,
        duplicates: samples.len() - distinct,
    }
}

/// Positions per class (for files of positions without targets), in gnubg's class
/// order, classes present only.
pub fn count_classes(positions: &[board::Position]) -> Vec<(&'static str, usize)> {
    DATASET_CLASSES
        .iter()
        .map(|&c| {
            (
                c.name(),
                positions.iter().filter(|p| dataset_class(p) == c).count(),
            )
        })
        .filter(|(_, n)| *n > 0)
        .collect()
}

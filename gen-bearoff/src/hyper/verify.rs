//! `verify` for hypergammon files: structure of every record, and the equations
//! recomputed for a sample of records from their successors as stored in the same file.
//!
//! Hypergammon values come from an iteration, so a recomputed record matches only
//! approximately: within the file's convergence and its 24-bit resolution. The largest
//! deviation of the cubeless equity and the four cubeful equities is reported for both
//! rules for rolls that cannot be played (gnubg's and the correct one); the file passes
//! if the better-fitting rule stays within [`HYPER_TOLERANCE`]. Individual probabilities
//! are checked for consistency only: between moves of (nearly) equal cubeless equity the
//! choice of whose probabilities are kept is the generator's.

use super::equations::{bellman, DanceRule, Equities};
use super::moves::MoveTable;
use super::reader::HyperDb;
use super::record::HyperRecord;
use super::space::{utility, Class, HyperSpace, Outputs};
use crate::error::BearoffError;
use crate::verify_report::{recompute_chunks, sample, VerifyPass, VerifyReport};

/// Largest deviation accepted between a stored record and its recomputation. gnubg's own
/// files (threshold 1e-5, in-place iteration, truncated to 24 bits) stay below 2·10⁻⁵,
/// bgkit's exact ones below 10⁻⁶; damaged bytes give far larger deviations.
pub const HYPER_TOLERANCE: f64 = 5e-5;

/// Values of a record as the equations see them.
fn decoded(r: &HyperRecord) -> (Equities, Outputs) {
    let p = r.exact_probabilities();
    let e = r.exact_cubeful();
    ([utility(&p), e[0], e[1], e[2], e[3]], p)
}

/// Verifies a hypergammon database (see the module notes).
pub fn verify_hyper(
    db: &HyperDb,
    samples: u64,
    seed: u64,
    progress: &dyn Fn(VerifyPass, u64, u64),
) -> Result<VerifyReport, BearoffError> {
    let mut report = VerifyReport::default();
    let space = HyperSpace::new(usize::from(db.checkers()))?;
    let count = db.count();
    let eps = 2e-6;
    let step = 6.0 / f64::from(super::record::U24_MAX);
    for r in 0..count {
        let ru = r as usize;
        let rec = match db.record(r) {
            Ok(rec) => rec,
            Err(e) => {
                report.problem(format!("record {r}: {e}"));
                continue;
            }
        };
        match space.class(ru) {
            Class::Illegal => {
                if rec != HyperRecord::ILLEGAL {
                    report.problem(format!(
                        "record {r} (illegal position) is not gnubg's placeholder: {:?}",
                        rec.raw
                    ));
                }
            }
            Class::Over => {
                let o = space.over_outputs(ru);
                let (e, p) = decoded(&rec);
                let u = utility(&o);
                let want = [u, u, 2.0 * o[0] - 1.0, u];
                let bad_p = p.iter().zip(&o).any(|(a, b)| (a - b).abs() > 1e-7);
                let bad_e = e[1..].iter().zip(&want).any(|(a, b)| (a - b).abs() > step);
                if bad_p || bad_e {
                    report.problem(format!(
                        "record {r} (game over): stored {p:?} {:?}, expected {o:?} {want:?}",
                        &e[1..]
                    ));
                }
            }
            Class::NoContact | Class::Contact => {
                let p = rec.exact_probabilities();
                if p[1] > p[0] + eps || p[2] > p[1] + eps || p[4] > p[3] + eps || p[3] > 1.0 - p[0] + eps {
                    report.problem(format!(
                        "record {r}: inconsistent probabilities {p:?} (gammons must not exceed wins, backgammons not gammons)"
                    ));
                }
            }
        }
        report.structural += 1;
        if r % (1 << 16) == 0 {
            progress(VerifyPass::Structure, r, count);
        }
    }
    progress(VerifyPass::Structure, count, count);
    let table = MoveTable::new(&space);
    let get = |s: usize| {
        db.record(s as u64)
            .map(|x| decoded(&x))
            .unwrap_or(([0.0; 5], [0.0; 5]))
    };
    let chosen = sample(count, samples, seed);
    // Per chunk: the largest deviation under each dance rule (first record of the
    // largest), and the records recomputed.
    let chunks = recompute_chunks(&chosen, progress, |records| {
        let mut worst = [(0.0f64, 0u64); 2];
        let mut recomputed = 0u64;
        for &r in records {
            let ru = r as usize;
            if !matches!(space.class(ru), Class::NoContact | Class::Contact) {
                continue;
            }
            let (stored, _) = get(ru);
            for (k, rule) in [DanceRule::Correct, DanceRule::Gnubg].into_iter().enumerate() {
                let (e, _) = bellman(&space, &table, rule, ru, |s| get(s).0, |s| get(s).1);
                let d = e
                    .iter()
                    .zip(&stored)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                if d > worst[k].0 {
                    worst[k] = (d, r);
                }
            }
            recomputed += 1;
        }
        (worst, recomputed)
    });
    let mut worst = [(0.0f64, 0u64); 2];
    for (chunk_worst, recomputed) in chunks {
        for k in 0..2 {
            if chunk_worst[k].0 > worst[k].0 {
                worst[k] = chunk_worst[k];
            }
        }
        report.recomputed += recomputed;
    }
    let best = if worst[0].0 <= worst[1].0 { 0 } else { 1 };
    let names = ["the correct dance rule", "gnubg's dance rule"];
    for k in 0..2 {
        report.notes.push(format!(
            "largest deviation from the equations with {}: {:.2e} (record {})",
            names[k], worst[k].0, worst[k].1
        ));
    }
    let o = super::opening::opening(db)?;
    let fmt = |p: &[f64; 5]| {
        format!(
            "win {:.6}, win gammon {:.6}, win backgammon {:.6}, lose gammon {:.6}, lose backgammon {:.6}",
            p[0], p[1], p[2], p[3], p[4]
        )
    };
    report.notes.push(format!(
        "start position: cubeless equity {:+.7} ({}); cubeful owned {:+.4}, centred {:+.4}, Jacoby {:+.4}, opponent owns {:+.4}",
        o.start.equity,
        fmt(&o.start.probabilities),
        o.start_cubeful[0],
        o.start_cubeful[1],
        o.start_cubeful[2],
        o.start_cubeful[3]
    ));
    report.notes.push(format!(
        "opening-roll winner: cubeless equity {:+.7} ({})",
        o.opening_winner.equity,
        fmt(&o.opening_winner.probabilities)
    ));
    if worst[best].0 > HYPER_TOLERANCE {
        report.problem(format!(
            "record {} deviates from its recomputation by {:.2e} (tolerance {HYPER_TOLERANCE:.0e})",
            worst[best].1, worst[best].0
        ));
    }
    Ok(report)
}

/// How two hypergammon files of the same size differ.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Records compared.
    pub records: u64,
    /// Largest difference of any of the five probabilities, and where.
    pub probabilities: (f64, u64),
    /// Largest difference of the cubeless equity (from the probabilities), and where.
    pub cubeless: (f64, u64),
    /// Largest difference of any of the four cubeful equities, and where.
    pub cubeful: (f64, u64),
    /// Records whose probabilities, cubeless or cubeful equities differ by more than
    /// 1e-7, 1e-6, 1e-5, 1e-4, 1e-3 (any of the three).
    pub beyond: [u64; 5],
}

/// Compares every record of two hypergammon files with the same number of checkers.
pub fn compare(a: &HyperDb, b: &HyperDb) -> Result<Comparison, BearoffError> {
    if a.checkers() != b.checkers() {
        return Err(BearoffError::WrongKind {
            path: b.path().to_path_buf(),
            why: format!(
                "has {} checkers, {} has {}",
                b.checkers(),
                a.path().display(),
                a.checkers()
            ),
        });
    }
    let mut c = Comparison {
        records: a.count(),
        ..Comparison::default()
    };
    for r in 0..a.count() {
        let (x, y) = (a.record(r)?, b.record(r)?);
        let (px, py) = (x.exact_probabilities(), y.exact_probabilities());
        let (ex, ey) = (x.exact_cubeful(), y.exact_cubeful());
        let dp = (0..5).map(|q| (px[q] - py[q]).abs()).fold(0.0, f64::max);
        let dc = (utility(&px) - utility(&py)).abs();
        let de = (0..4).map(|q| (ex[q] - ey[q]).abs()).fold(0.0, f64::max);
        for (best, d) in [
            (&mut c.probabilities, dp),
            (&mut c.cubeless, dc),
            (&mut c.cubeful, de),
        ] {
            if d > best.0 {
                *best = (d, r);
            }
        }
        let worst = dp.max(dc).max(de);
        for (k, t) in [1e-7, 1e-6, 1e-5, 1e-4, 1e-3].iter().enumerate() {
            if worst > *t {
                c.beyond[k] += 1;
            }
        }
    }
    Ok(c)
}

//! `verify`: structural checks of a whole file and recomputation of a random sample of
//! records from their successors, read from the same file.
//!
//! A record recomputed with gnubg's rules from the file's own successor records must
//! equal the stored one exactly; with the structure checks this catches truncation,
//! corruption, wrong parameters and files built with different rules.

use crate::error::BearoffError;
use crate::format::encoding::rolls_score;
use crate::onesided::exact::{compute_exact, ExactSource};
use crate::onesided::normal::compute_normal;
use crate::onesided::OneSidedDb;
use crate::reader::BearoffDb;
use crate::twosided::record::compute_record;
use crate::twosided::TwoSidedDb;
use crate::verify_report::{recompute_chunks, sample, ChunkFindings};
/// Paths from before the report and the sampling became a module of their own.
pub use crate::verify_report::{SplitMix64, VerifyPass, VerifyReport};

struct FileSource<'a>(&'a OneSidedDb);

impl ExactSource for FileSource<'_> {
    fn scores(&self, j: u64) -> (u32, u32) {
        match self.0.distribution(j) {
            Ok(d) => (rolls_score(&d.bearoff), d.gammon.map_or(0, |g| rolls_score(&g))),
            Err(_) => (u32::MAX, u32::MAX),
        }
    }
    fn bearoff(&self, j: u64) -> [u16; 32] {
        self.0.distribution(j).map(|d| d.bearoff).unwrap_or([0; 32])
    }
    fn gammon(&self, j: u64) -> [u16; 32] {
        self.0
            .distribution(j)
            .ok()
            .and_then(|d| d.gammon)
            .unwrap_or([0; 32])
    }
}

/// Verifies a database. `samples` records are recomputed (plus the first and last
/// eight; `u64::MAX` recomputes every record); `progress(pass, done, total)` reports
/// both passes, the structural one over every record and the recomputation over the
/// records chosen, each from 0 to its total. A record that cannot be read is a problem in the report, not an
/// error: the error return is kept for failures outside the file's contents.
pub fn verify(
    db: &BearoffDb,
    samples: u64,
    seed: u64,
    progress: &dyn Fn(VerifyPass, u64, u64),
) -> Result<VerifyReport, BearoffError> {
    match db {
        BearoffDb::OneSided(d) => verify_one_sided(d, samples, seed, progress),
        BearoffDb::TwoSided(d) => verify_two_sided(d, samples, seed, progress),
        BearoffDb::Hypergammon(d) => crate::hyper::verify::verify_hyper(d, samples, seed, progress),
    }
}

fn verify_one_sided(
    db: &OneSidedDb,
    samples: u64,
    seed: u64,
    progress: &dyn Fn(VerifyPass, u64, u64),
) -> Result<VerifyReport, BearoffError> {
    let mut report = VerifyReport::default();
    let n = db.count();
    let params = db.params();
    // Structure: every record decodes; compressed spans are contiguous.
    let mut expected_offset = 0u64;
    for i in 0..n {
        if params.normal {
            match db.normal_record(i) {
                Ok(r) if r.iter().any(|v| !v.is_finite()) => {
                    report.problem(format!("position {i}: non-finite value {r:?}"));
                }
                Ok(_) => {}
                Err(e) => report.problem(format!("position {i}: {e}")),
            }
        } else {
            if let Err(e) = db.distribution(i) {
                report.problem(format!("position {i}: {e}"));
            }
            if params.compressed {
                let e = match db.compressed_entry(i) {
                    Ok(e) => e,
                    Err(e) => {
                        report.problem(format!("position {i}: {e}"));
                        continue;
                    }
                };
                if e.offset != expected_offset {
                    report.problem(format!(
                        "position {i}: data offset {} where {expected_offset} was expected",
                        e.offset
                    ));
                }
                expected_offset = e.offset + u64::from(e.nz) + u64::from(e.nzg);
            }
        }
        report.structural += 1;
        if i % 65536 == 0 {
            progress(VerifyPass::Structure, i, n);
        }
    }
    progress(VerifyPass::Structure, n, n);
    let index = *db.index();
    let ranker = crate::movegen::Ranker::new(&index);
    let chosen = sample(n, samples, seed);
    let chunks = recompute_chunks(&chosen, progress, |records| {
        let mut found = ChunkFindings::default();
        for &i in records {
            if params.normal {
                let src = |j: u64| db.normal_record(j).unwrap_or([f32::NAN; 4]);
                let want = compute_normal(&index, &ranker, i, &src);
                let Ok(got) = db.normal_record(i) else {
                    continue; // reported by the structural pass
                };
                if want.map(f32::to_bits) != got.map(f32::to_bits) {
                    found.problem(format!("position {i}: stored {got:?}, recomputed {want:?}"));
                }
            } else {
                let (a, g) = compute_exact(&index, &ranker, i, params.gammon, &FileSource(db));
                let Ok(d) = db.distribution(i) else {
                    continue; // reported by the structural pass
                };
                if d.bearoff != a || (params.gammon && d.gammon != Some(g)) {
                    found.problem(format!(
                        "position {i}: stored distribution differs from the recomputed one"
                    ));
                }
            }
            found.recomputed += 1;
        }
        found
    });
    for found in chunks {
        report.add(found);
    }
    Ok(report)
}

fn verify_two_sided(
    db: &TwoSidedDb,
    samples: u64,
    seed: u64,
    progress: &dyn Fn(VerifyPass, u64, u64),
) -> Result<VerifyReport, BearoffError> {
    let mut report = VerifyReport::default();
    let n = db.positions_per_side();
    let cubeful = db.params().cubeful;
    let k = if cubeful { 4 } else { 1 };
    // Structure: the file size was checked when opening; the terminal rows and columns
    // must hold +1 (side on roll already off) and -1 (opponent off).
    for i in 0..n {
        match db.equities(i) {
            Ok(e) if e.signed()[..k].iter().any(|&v| v != 0x7FFF) => {
                report.problem(format!("record (0, {i}) should be +1, is {:?}", e.signed()));
            }
            Ok(_) => {}
            Err(e) => report.problem(format!("record (0, {i}): {e}")),
        }
        if i > 0 {
            match db.equities(i * n) {
                Ok(e) if e.signed()[..k].iter().any(|&v| v != !0x7FFF) => {
                    report.problem(format!("record ({i}, 0) should be -1, is {:?}", e.signed()));
                }
                Ok(_) => {}
                Err(e) => report.problem(format!("record ({i}, 0): {e}")),
            }
        }
        report.structural += 2;
        if i % 4096 == 0 {
            progress(VerifyPass::Structure, i, n);
        }
    }
    progress(VerifyPass::Structure, n, n);
    let index = *db.index();
    let get = |a: u64, b: u64| db.equities(a * n + b).map(|e| e.signed()).unwrap_or([0; 4]);
    let chosen = sample(n * n, samples, seed);
    let chunks = recompute_chunks(&chosen, progress, |records| {
        let mut found = ChunkFindings::default();
        for &r in records {
            let (us, them) = (r / n, r % n);
            let want = compute_record(&index, us, them, cubeful, &get);
            let got = match db.equities(r) {
                Ok(e) => e.signed(),
                Err(e) => {
                    found.problem(format!("record {r} ({us}, {them}): {e}"));
                    continue;
                }
            };
            if want[..k] != got[..k] {
                found.problem(format!(
                    "record {r} ({us}, {them}): stored {:?}, recomputed {:?}",
                    &got[..k],
                    &want[..k]
                ));
            }
            found.recomputed += 1;
        }
        found
    });
    for found in chunks {
        report.add(found);
    }
    Ok(report)
}

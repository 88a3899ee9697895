//! The evaluator's test helpers: the workspace's shared ones (`test-support`) and an
//! evaluator with gnubg's files.

#![allow(dead_code, unused_imports)]

use std::path::{Path, PathBuf};

use evaluator::bearoff::BearoffDbs;
use evaluator::weights::Weights;
use evaluator::Evaluator;
pub use test_support::{cpu_vendor, gnubg_python, have, GNUBG, OS, TS, WD};

/// A file of the recorded gnubg outputs (`testdata/gnubg`).
pub fn testdata(name: &str) -> PathBuf {
    test_support::testdata("gnubg").join(name)
}

/// An evaluator with Debian's gnubg weights and bearoff databases.
pub fn gnubg_evaluator() -> Option<Evaluator> {
    if !have(&[WD, OS, TS]) {
        return None;
    }
    let dbs = BearoffDbs::open(Some(Path::new(OS)), Some(Path::new(TS))).unwrap();
    Some(Evaluator::new(Weights::load(WD).unwrap(), dbs))
}

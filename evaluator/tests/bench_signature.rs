//! `evaluator bench`'s signature (a checksum of every evaluation and chosen move of
//! its built-in sets) against the value recorded in `evaluator/bench-signatures.json`
//! for this CPU's maker. CI runs this under every kernel (`BGKIT_SIMD`): each must give
//! the recorded bits, and a change of evaluation bits must update the file in the same
//! commit.

mod common;

use common::*;
use evaluator::{bench, corpus};

#[test]
fn bench_signatures_are_the_recorded_ones() {
    let Some(ev) = gnubg_evaluator() else { return };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench-signatures.json");
    let recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let pairs = corpus::best_move_pairs();
    let got = [
        (
            "default",
            bench::evaluation_signature(&ev, &corpus::contact_positions(), &pairs),
        ),
        (
            "calibrate_boards",
            bench::evaluation_signature(&ev, &corpus::calibrate_boards(), &pairs),
        ),
    ];
    let vendor = cpu_vendor();
    eprintln!("kernel {:?}, {vendor}: {got:?}", evaluator::simd::kernel());
    let Some(want) = recorded.get(&vendor) else {
        eprintln!(
            "no signatures recorded for {vendor:?} in {}: record {got:?}",
            path.display()
        );
        return;
    };
    for (set, sig) in &got {
        assert_eq!(
            want[*set].as_str(),
            Some(sig.as_str()),
            "bench signature of the {set} set on {vendor} (kernel {:?}); if the change of bits is intended, record it in {}",
            evaluator::simd::kernel(),
            path.display()
        );
    }
}

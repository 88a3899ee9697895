//! Fuzz suite (issue 19) for the weights reader, text (`.weights`) and binary (`.wd`):
//! random and mutated valid files must load or be refused, never panic, and a file
//! that loads holds only finite values and saves back to what it loaded.
//! `BGKIT_FUZZ_CASES` raises the case count (`scripts/fuzz.sh`).

use evaluator::weights::{Net, Shapes, Weights};
use proptest::prelude::*;
use test_support::{fuzz_cases, mutate};

fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: fuzz_cases(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Two small nets with varied values.
fn small() -> Weights {
    let mut nets = Vec::new();
    for (inputs, hidden) in [(3, 2), (4, 3)] {
        let mut net = Net::zeros(inputs, hidden, 5);
        for (k, w) in net.hidden_weights.iter_mut().enumerate() {
            *w = k as f32 * 0.37 - 1.1;
        }
        net.output_thresholds[1] = 0.25;
        nets.push(net);
    }
    Weights {
        version: "1.00".into(),
        nets,
    }
}

const WORDS: &[&str] = &[
    "nan",
    "inf",
    "-inf",
    "1e999",
    "-1e39",
    "NaN",
    "\n",
    " ",
    "99999999999",
    "-1",
    "0",
    "GNU Backgammon ",
    "4294967296",
];

fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    for shapes in [Shapes::Any, Shapes::Gnubg] {
        if let Ok(w) = Weights::parse(bytes, "fuzz", shapes) {
            for net in &w.nets {
                for v in net
                    .hidden_weights
                    .iter()
                    .chain(&net.output_weights)
                    .chain(&net.hidden_thresholds)
                    .chain(&net.output_thresholds)
                {
                    prop_assert!(v.is_finite(), "{v} loaded");
                }
            }
            // The binary format keeps the version as a float, written back with two
            // decimals.
            let back = Weights::parse(&w.to_binary(), "again", shapes).unwrap();
            prop_assert_eq!(&back.nets, &w.nets);
            prop_assert_eq!(back.version, format!("{:.2}", w.version_number().unwrap()));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn fuzz_weights_text(seed in any::<u64>(), random in proptest::collection::vec(any::<u8>(), 0..128), pick in 0u8..4) {
        let bytes = match pick {
            0 => [b"GNU Backgammon 1.00\n".as_slice(), &random].concat(),
            _ => mutate(seed, small().to_text().as_bytes(), WORDS),
        };
        check(&bytes)?;
    }

    #[test]
    fn fuzz_weights_binary(seed in any::<u64>(), random in proptest::collection::vec(any::<u8>(), 0..128), pick in 0u8..4) {
        let bytes = match pick {
            0 => [evaluator::weights::BINARY_MAGIC.to_le_bytes().as_slice(), &random].concat(),
            _ => mutate(seed, &small().to_binary(), &[]),
        };
        check(&bytes)?;
    }
}

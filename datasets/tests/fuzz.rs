//! Fuzz suite (issue 19) for the dataset readers: CSV rows, binary `.bgds` (header and
//! records), gnubg-nn text and gnubg benchmark files, random and mutated from valid
//! ones. Reading must succeed or fail with an error, never panic, and what is read is
//! checked (probabilities in [0, 1], finite standard errors).
//! `BGKIT_FUZZ_CASES` raises the case count (`scripts/fuzz.sh`).

use std::sync::OnceLock;

use board::{Dice, MoveGen, Position};
use datasets::benchmark;
use datasets::format::gnubg_nn::key_text;
use datasets::format::{self, Format, Sample};
use proptest::prelude::*;
use test_support::{fuzz_cases, mutate, Scratch};

fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: fuzz_cases(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn positions() -> Vec<Position> {
    let start = board::Variant::Backgammon.start();
    let mut gen = MoveGen::new();
    let mut out = vec![start];
    out.extend(
        gen.moves(&start, Dice::new(3, 1).unwrap())
            .iter()
            .map(|m| m.result.swapped()),
    );
    out.push(Position::from_id("fN8HAACwAwAAAA").unwrap());
    out
}

/// Valid files of every format (the bytes), written once.
fn valid() -> &'static [(Format, &'static str, Vec<u8>)] {
    static FILES: OnceLock<Vec<(Format, &'static str, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = Scratch::new("datasets", "fuzz-valid");
        let samples: Vec<Sample> = positions()
            .into_iter()
            .take(6)
            .enumerate()
            .map(|(k, position)| Sample {
                position,
                probs: [0.5, 0.1 * k as f32 / 6.0, 0.0, 0.125, 0.0],
                se: (k % 2 == 0).then_some([0.01, 0.002, 0.0, 0.001, 0.0]),
                trials: k as u32 * 36,
            })
            .collect();
        let with_se: Vec<Sample> = samples
            .iter()
            .map(|s| Sample {
                se: Some(s.se.unwrap_or([0.003; 5])),
                ..*s
            })
            .collect();
        let mut out = Vec::new();
        for (fmt, name, s) in [
            (Format::Csv, "a.csv", &samples),
            (Format::Csv, "b.csv", &with_se),
            (Format::Binary, "a.bgds", &samples),
            (Format::Binary, "b.bgds", &with_se),
            (Format::GnubgNn, "a.nn", &samples),
        ] {
            let f = dir.join(name);
            format::write(&f, fmt, s).unwrap();
            out.push((fmt, name, std::fs::read(&f).unwrap()));
        }
        out
    })
}

fn benchmark_text() -> String {
    let p = positions();
    format!(
        "# a comment\ns version 1\nr 17\nm {} 3 1 {} 0.162 {} 0.103 {} -0.121\no {} 0.5 0.1 0.0 0.1 0.0\n",
        key_text(&p[0]),
        key_text(&p[1].swapped()),
        key_text(&p[2].swapped()),
        key_text(&p[3].swapped()),
        key_text(&p[0])
    )
}

const WORDS: &[&str] = &[
    ",",
    "\n",
    "\"",
    "nan",
    "NaN",
    "inf",
    "-1",
    "1e999",
    "0.5",
    "position_id",
    "win_se",
    "4HPwATDgc/ABMA",
    "99999999999",
];

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn fuzz_dataset_files(seed in any::<u64>(), k in 0usize..5, random in proptest::collection::vec(any::<u8>(), 0..128), pick in 0u8..5) {
        let (fmt, name, good) = &valid()[k];
        let dir = Scratch::new("datasets", "fuzz-files");
        let f = dir.join(name);
        let bytes = if pick == 0 { random } else { mutate(seed, good, WORDS) };
        std::fs::write(&f, &bytes).unwrap();
        if let Ok(samples) = format::read(&f, *fmt) {
            for s in &samples {
                prop_assert!(s.probs.iter().all(|p| (0.0..=1.0).contains(p)), "{:?}", s.probs);
                if let Some(se) = s.se {
                    prop_assert!(se.iter().all(|e| e.is_finite() && *e >= 0.0), "{:?}", se);
                }
            }
        }
        let _ = format::csv::has_targets(&f);
        let _ = format::csv::read_position_ids(&f);
        let _ = Format::detect(&f);
    }

    #[test]
    fn fuzz_benchmark_files(seed in any::<u64>(), random in proptest::collection::vec(any::<u8>(), 0..128), pick in 0u8..4) {
        let dir = Scratch::new("datasets", "fuzz-bench");
        let f = dir.join("x.bm");
        let bytes = if pick == 0 { random } else { mutate(seed, benchmark_text().as_bytes(), &["m ", "o ", "r ", "s ", " 7 7 ", "\n", "-1", "nan"]) };
        std::fs::write(&f, &bytes).unwrap();
        let _ = benchmark::read(&f);
    }
}

//! Fuzz suite (issue 19) for the trainer's readers: the tournament JSON and the
//! optimizer state (binary header and arrays). Random and mutated valid inputs must be
//! read or refused, never panic. `BGKIT_FUZZ_CASES` raises the case count
//! (`scripts/fuzz.sh`).

use std::path::Path;

use evaluator::weights::Net;
use proptest::prelude::*;
use test_support::{fuzz_cases, mutate, Scratch};
use trainer::supervised::optim::{OptState, OptimizerKind, OptimizerSettings};
use trainer::tourney::file::{self, Kind, Settings, Sync};
use trainer::tourney::participants;
use trainer::tourney::schedule::new_tournament;

fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: fuzz_cases(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn tourney_text(swiss: bool) -> String {
    let settings = Settings {
        kind: if swiss {
            Kind::parse("swiss:3", 4).unwrap()
        } else {
            Kind::RoundRobin
        },
        games_per_pairing: 2,
        cycles: 1,
        seed: 7,
        sync: Sync::None,
        stale_after_s: 60,
    };
    let names: Vec<String> = ["a=pubeval", "b=random", "c=random", "d=pubeval"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let t = new_tournament(settings, participants(&names).unwrap()).unwrap();
    file::to_text(&t)
}

const JSON_WORDS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "-1",
    "1e999",
    "99999999999999999999",
    "true",
    "\"version\"",
    "\"games\"",
    "NaN",
];

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn fuzz_tourney_json(seed in any::<u64>(), swiss in any::<bool>(), random in proptest::collection::vec(any::<u8>(), 0..128), pick in 0u8..4) {
        let bytes = if pick == 0 { random } else { mutate(seed, tourney_text(swiss).as_bytes(), JSON_WORDS) };
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(t) = file::parse(&text, Path::new("fuzz.json")) {
            prop_assert!(file::parse(&file::to_text(&t), Path::new("again.json")).is_ok());
        }
    }
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn fuzz_optimizer_state(seed in any::<u64>(), adam in any::<bool>()) {
        let dir = Scratch::new("trainer", "fuzz-optim");
        let f = dir.join("state.bin");
        let net = Net::zeros(4, 3, 5);
        let settings = OptimizerSettings::new(if adam { OptimizerKind::Adam } else { OptimizerKind::Sgd });
        OptState::new(&net, &settings).save(&f, &settings).unwrap();
        let valid = std::fs::read(&f).unwrap();
        std::fs::write(&f, mutate(seed, &valid, &[])).unwrap();
        let _ = OptState::load(&f, &net, &settings);
    }
}

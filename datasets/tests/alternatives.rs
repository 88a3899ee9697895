//! `datasets sample --alternatives K`: the games are those of the plain run, and after
//! each position come the positions after the K next-best moves of the roll played,
//! ranked here by gnubg's 0-ply equities computed one position at a time.

mod common;

use board::{DiceStream, MoveGen, Position};
use common::{ok, s};
use datasets::class::parse_classes;
use datasets::play::equity_after;
use datasets::rng::{derive32, STREAM_GAME_DICE};
use datasets::sample::{SampleSettings, Sampler};
use evaluator::PositionClass;

/// Settings that keep every class but finished games, so that no position of a game is
/// filtered out.
fn settings(seed: u64, noise: f32, epsilon: f64, alternatives: usize) -> SampleSettings {
    SampleSettings {
        seed,
        noise,
        epsilon,
        classes: parse_classes("contact,crashed,race,bearoff").unwrap(),
        alternatives,
    }
}

#[test]
fn alternatives_follow_the_position_they_branch_from() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let plain = Sampler::new(&ev, settings(7, 0.0, 0.0, 0), None);
    let with = Sampler::new(&ev, settings(7, 0.0, 0.0, 3), None);
    let mut gen = MoveGen::new();
    let mut decisions = 0;
    for game in 0..4 {
        let line = plain.play_game(&mut gen, game).unwrap();
        // The game replayed with its documented dice (seed, game).
        let mut dice = DiceStream::new(derive32(7, STREAM_GAME_DICE, game));
        let mut expected: Vec<Position> = Vec::new();
        for (t, pos) in line.iter().enumerate() {
            expected.push(*pos);
            let roll = if t == 0 { dice.opening_roll() } else { dice.roll() };
            let results = gen.positions(pos, roll).to_vec();
            if results.len() < 2 {
                continue;
            }
            // The move played: the one to the line's next position, or the one that
            // ends the game.
            let played = results
                .iter()
                .position(|r| match line.get(t + 1) {
                    Some(next) => r.swapped() == *next,
                    None => ev.classify(&r.swapped()) == PositionClass::Over,
                })
                .expect("the line's next position is a legal move's result");
            let equity = |r: &Position| equity_after(&ev, r).unwrap();
            let eq: Vec<f32> = results.iter().map(equity).collect();
            let mut others: Vec<usize> = (0..results.len()).filter(|&i| i != played).collect();
            others.sort_by(|&a, &b| eq[b].total_cmp(&eq[a]));
            expected.extend(others.iter().take(3).map(|&i| results[i].swapped()));
            decisions += 1;
        }
        assert_eq!(with.play_game(&mut gen, game).unwrap(), expected, "game {game}");
    }
    assert!(decisions > 100, "{decisions} decisions");
}

#[test]
fn with_noise_the_games_are_the_same() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let (plain, with) = (
        Sampler::new(&ev, settings(5, 0.05, 0.05, 0), None),
        Sampler::new(&ev, settings(5, 0.05, 0.05, 2), None),
    );
    let mut gen = MoveGen::new();
    for game in 0..6 {
        let line = plain.play_game(&mut gen, game).unwrap();
        let all = with.play_game(&mut gen, game).unwrap();
        // The game's positions in order, at most two others after each.
        let mut at = 0;
        for (t, p) in line.iter().enumerate() {
            let skipped = all[at..]
                .iter()
                .position(|q| q == p)
                .unwrap_or_else(|| panic!("game {game}, turn {t}"));
            assert!(
                skipped <= if t == 0 { 0 } else { 2 },
                "game {game}, turn {t}: {skipped} between"
            );
            at += skipped + 1;
        }
        assert!(all.len() - at <= 2 && all.len() > line.len(), "game {game}");
    }
}

#[test]
fn the_command_adds_positions_to_the_plain_run() {
    if common::gnubg_evaluator().is_none() {
        return;
    }
    let dir = common::scratch("alternatives");
    let read = |p: &std::path::Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .skip(1)
            .map(String::from)
            .collect()
    };
    for noise in ["0", "0.05"] {
        let base = [
            "sample", "--games", "12", "--seed", "3", "--noise", noise, "--quiet",
        ];
        let plain = dir.join("plain.csv");
        let mut a = base.to_vec();
        a.extend(["-o", s(&plain), "--force"]);
        ok(&a);
        let mut outputs = Vec::new();
        for threads in ["1", "2"] {
            let out = dir.join(format!("alt-{threads}.csv"));
            let mut b = base.to_vec();
            b.extend([
                "--alternatives",
                "2",
                "--threads",
                threads,
                "--json",
                "--force",
                "-o",
                s(&out),
            ]);
            let json: serde_json::Value = serde_json::from_slice(&ok(&b).stdout).unwrap();
            assert_eq!(json["alternatives"], 2);
            outputs.push(read(&out));
        }
        assert_eq!(outputs[0], outputs[1], "the same file on 1 and 2 threads");
        let (plain, alt) = (read(&plain), &outputs[0]);
        let set: std::collections::HashSet<&String> = alt.iter().collect();
        assert_eq!(set.len(), alt.len(), "first occurrences only");
        assert!(
            plain.iter().all(|p| set.contains(p)),
            "every position of the plain run (noise {noise})"
        );
        assert!(
            alt.len() > plain.len() * 2,
            "{} against {}",
            alt.len(),
            plain.len()
        );
        assert_eq!(alt[0], plain[0], "the starting position first");
    }
    let refused = common::datasets(&[
        "sample",
        "--games",
        "1",
        "--alternatives",
        "33",
        "-o",
        s(&dir.join("x.csv")),
    ]);
    assert_eq!(refused.status.code(), Some(2));
}

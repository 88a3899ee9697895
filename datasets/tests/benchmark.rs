//! `datasets benchmark build` and the benchmark file formats: candidates are the
//! evaluator's best moves, their equities are the rollouts' (checked against
//! `datasets rollout` of the same positions), the job resumes after kill -9, and both
//! bgkit's and gnubg-nn's files read back.

mod common;

use common::{ok, s};

use std::path::{Path, PathBuf};
use std::time::Duration;

use board::{MoveGen, Position};
use datasets::benchmark::{self, SetFormat};
use datasets::format::gnubg_nn::key_text;
use evaluator::eval::{invert, money_equity};

/// Positions of a seeded self-play sample.
fn positions_file(dir: &Path, games: &str) -> PathBuf {
    let path = dir.join("positions.csv");
    ok(&[
        "sample",
        "--games",
        games,
        "--seed",
        "8",
        "-o",
        s(&path),
        "--quiet",
    ]);
    path
}

#[test]
fn built_sets_hold_the_best_moves_with_their_rollouts() {
    let Some(ev) = common::gnubg_evaluator() else {
        return;
    };
    let dir = common::scratch("bench-build");
    let input = positions_file(&dir, "1");
    let out = dir.join("bench.jsonl");
    ok(&[
        "benchmark",
        "build",
        "--input",
        s(&input),
        "-o",
        s(&out),
        "--candidates",
        "3",
        "--trials",
        "36",
        "--no-variance-reduction",
        "--max-positions",
        "6",
        "--seed",
        "3",
        "--quiet",
    ]);
    let set = benchmark::read(&out).unwrap();
    assert_eq!(set.format, SetFormat::Bgkit);
    let header = set.header.as_ref().unwrap();
    assert_eq!(header["format"], "bgkit-benchmark");
    assert_eq!(header["version"], 1);
    assert_eq!(header["candidates"], 3);
    assert!(!set.entries.is_empty() && set.entries.len() <= 6);
    let mut gen = MoveGen::new();
    let mut afters = Vec::new();
    for (i, e) in set.entries.iter().enumerate() {
        // The roll is the seeded one of its input row (rows with a choice only).
        let moves = gen.moves(&e.position, e.dice).to_vec();
        assert!(moves.len() >= 2);
        assert_eq!(e.candidates.len(), moves.len().min(3), "entry {i}");
        // Candidates are legal results, best first, and the evaluator's 0-ply choice
        // is among them.
        for c in &e.candidates {
            assert!(
                moves.iter().any(|m| m.result == c.after),
                "entry {i}: illegal candidate"
            );
            let p = c.probs.unwrap();
            let eq = f64::from(p[0]) * 2.0 - 1.0 + f64::from(p[1] - p[3]) + f64::from(p[2] - p[4]);
            // (Probabilities are clamped to [0, 1]; the equity is the unclamped mean.)
            assert!(
                (eq - c.equity).abs() < 2e-3,
                "equity and probabilities agree: {eq} {}",
                c.equity
            );
            assert!(c.se.unwrap() > 0.0);
            afters.push(c.after.swapped());
        }
        assert!(e.candidates.windows(2).all(|w| w[0].equity >= w[1].equity));
        let best0 = ev
            .best_move(&mut gen, &e.position, e.dice)
            .unwrap()
            .unwrap()
            .0
            .result;
        assert!(
            e.candidates.iter().any(|c| c.after == best0),
            "entry {i}: 0-ply choice listed"
        );
        assert_eq!(benchmark::read(&out).unwrap().entries[i], *e);
    }
    // The same rollouts through `datasets rollout` (same seed and trials: the same dice).
    let ids = dir.join("afters.csv");
    let mut text = String::from("position_id\n");
    for p in &afters {
        text.push_str(&p.position_id());
        text.push('\n');
    }
    std::fs::write(&ids, text).unwrap();
    let rolled = dir.join("afters-rolled.csv");
    ok(&[
        "rollout",
        "--input",
        s(&ids),
        "-o",
        s(&rolled),
        "--trials",
        "36",
        "--seed",
        "3",
        "--no-variance-reduction",
        "--quiet",
    ]);
    let samples = datasets::format::read(&rolled, datasets::Format::Csv).unwrap();
    let mut k = 0;
    for e in &set.entries {
        for c in &e.candidates {
            let mover = invert(&samples[k].probs);
            let mine = c.probs.unwrap();
            for j in 0..5 {
                assert!((mover[j] - mine[j]).abs() < 1e-6, "{mover:?} vs {mine:?}");
            }
            assert!((f64::from(money_equity(&mover)) - c.equity).abs() < 2e-3);
            k += 1;
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn building_resumes_after_kill_9() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("bench-resume");
    let input = positions_file(&dir, "2");
    let args = |out: &Path| -> Vec<String> {
        [
            "benchmark",
            "build",
            "--input",
            s(&input),
            "-o",
            s(out),
            "--candidates",
            "2",
            "--trials",
            "24",
            "--no-variance-reduction",
            "--max-positions",
            "48",
            "--threads",
            "1",
            "--quiet",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect()
    };
    let reference = dir.join("ref.jsonl");
    let r = args(&reference);
    ok(&r.iter().map(String::as_str).collect::<Vec<_>>());
    let out = dir.join("b.jsonl");
    let meta = dir.join("b.jsonl.partial.json");
    let r = args(&out);
    common::kill_after_first_chunk(&r, &out, &meta, Duration::from_secs(120));
    assert!(!out.exists() && meta.exists(), "the run was interrupted");
    ok(&r.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&reference).unwrap());
    assert!(!meta.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn gnubg_nn_benchmark_lines_are_read() {
    let dir = common::scratch("bench-gnubg-nn");
    let start = board::Variant::Backgammon.start();
    let mut gen = MoveGen::new();
    let d = board::Dice::new(3, 1).unwrap();
    let r: Vec<Position> = gen.moves(&start, d).iter().map(|m| m.result).collect();
    let path = dir.join("contact.bm");
    std::fs::write(
        &path,
        format!(
            "# a comment\ns version 1\nr 17\nm {} 3 1 {} 0.162 {} 0.103 {} -0.121\no {} 0.5 0.1 0.0 0.1 0.0\n",
            key_text(&start),
            key_text(&r[0]),
            key_text(&r[1]),
            key_text(&r[2]),
            key_text(&start)
        ),
    )
    .unwrap();
    let set = benchmark::read(&path).unwrap();
    assert_eq!(set.format, SetFormat::GnubgNn);
    assert_eq!(set.entries.len(), 1);
    assert_eq!(set.lines, [4], "the m line, after a comment, s and r");
    let e = &set.entries[0];
    assert_eq!((e.position, e.dice), (start, d));
    let eqs: Vec<f64> = e.candidates.iter().map(|c| c.equity).collect();
    assert_eq!(eqs, [0.162, 0.162 - 0.103, 0.162 - 0.121]);
    // Losses: listed moves by their difference (either key view), unlisted as the worst.
    assert_eq!(e.loss_of(&r[0]), (0.0, true));
    assert!((e.loss_of(&r[1].swapped()).0 - 0.103).abs() < 1e-12);
    assert_eq!(e.loss_of(&r[3]), (0.162 - (0.162 - 0.121), false));
    // Damaged lines are reported with the file and line.
    std::fs::write(&path, "m NOTAKEY 3 1\n").unwrap();
    let e = benchmark::read(&path).unwrap_err().to_string();
    assert!(e.contains("contact.bm:1"), "{e}");
    std::fs::write(
        &path,
        format!("m {} 3 7 {} 0.1\n", key_text(&start), key_text(&r[0])),
    )
    .unwrap();
    assert!(benchmark::read(&path)
        .unwrap_err()
        .to_string()
        .contains("contact.bm:1"));
    std::fs::write(&path, "{\"format\":\"bgkit-benchmark\",\"version\":2}\n").unwrap();
    // Issue 19: no "version Some(2)".
    let e = benchmark::read(&path).unwrap_err().to_string();
    assert!(e.contains("benchmark format version 2 is not supported"), "{e}");
    assert!(!e.contains("Some("), "{e}");
    std::fs::write(&path, "hello\n").unwrap();
    assert!(benchmark::read(&path)
        .unwrap_err()
        .to_string()
        .contains("neither"));
    std::fs::remove_dir_all(dir).unwrap();
}

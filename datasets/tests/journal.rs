//! Partial results: what survives an interruption, and what a resumed job refuses.

mod common;

use board::Position;
use datasets::format::Sample;
use datasets::journal::{partial_paths, ChunkJournal, RolloutJournal};
use serde_json::json;

fn sample(p: Position, x: f32) -> Sample {
    Sample {
        position: p,
        probs: [x, x / 2.0, 0.0, 0.1, 0.0],
        se: Some([0.01, 0.002, 0.0, 0.003, 0.0]),
        trials: 1296,
    }
}

#[test]
fn rollout_journal_keeps_complete_lines_and_drops_a_torn_one() {
    let dir = common::scratch("journal");
    let out = dir.join("data.csv");
    let input = common::random_game_positions(4, 2, 5);
    assert!(input.len() >= 6);
    let job = json!({"trials": 1296});
    let (mut j, done) = RolloutJournal::open(&out, &job, &input, false).unwrap();
    assert!(done.iter().all(Option::is_none));
    j.append(4, &sample(input[4], 0.25)).unwrap();
    j.append(1, &sample(input[1], 0.5)).unwrap();
    drop(j);
    // A write cut short by kill -9.
    let (partial, meta) = partial_paths(&out);
    assert!(meta.exists());
    let mut text = std::fs::read_to_string(&partial).unwrap();
    text.push_str("3,");
    text.push_str(&input[3].position_id());
    text.push_str(",0.12");
    std::fs::write(&partial, text).unwrap();

    let (mut j, done) = RolloutJournal::open(&out, &job, &input, false).unwrap();
    assert_eq!(done[4], Some(sample(input[4], 0.25)));
    assert_eq!(done[1], Some(sample(input[1], 0.5)));
    assert_eq!(done.iter().filter(|d| d.is_some()).count(), 2);
    j.append(3, &sample(input[3], 0.75)).unwrap();
    drop(j);
    let (_, done) = RolloutJournal::open(&out, &job, &input, false).unwrap();
    assert_eq!(done[3], Some(sample(input[3], 0.75)));

    // Another job, or another input, is refused; --fresh starts over.
    let e = RolloutJournal::open(&out, &json!({"trials": 36}), &input, false)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("different job") && e.contains("'trials' was 1296 and is now 36"),
        "{e}"
    );
    let mut other = input.clone();
    other.swap(3, 4);
    let e = RolloutJournal::open(&out, &job, &other, false)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("does not match the input"), "{e}");
    let (j, done) = RolloutJournal::open(&out, &job, &input, true).unwrap();
    assert!(done.iter().all(Option::is_none));
    j.remove().unwrap();
    assert!(!partial.exists() && !meta.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn chunk_journal_resumes_at_the_last_checkpoint() {
    let dir = common::scratch("chunks");
    let out = dir.join("positions.csv");
    let job = json!({"games": 1000});
    let (mut j, lines, chunks) = ChunkJournal::open(&out, &job, false).unwrap();
    assert!(lines.is_empty() && chunks == 0);
    j.append_chunk(&["a".into(), "b".into()]).unwrap();
    j.append_chunk(&["c".into()]).unwrap();
    drop(j);
    // Lines written after the last checkpoint (a chunk in flight) are dropped.
    let (partial, _) = partial_paths(&out);
    let mut text = std::fs::read_to_string(&partial).unwrap();
    text.push_str("d\ne");
    std::fs::write(&partial, text).unwrap();
    let (mut j, lines, chunks) = ChunkJournal::open(&out, &job, false).unwrap();
    assert_eq!(
        (lines, chunks),
        (vec!["a".to_string(), "b".into(), "c".into()], 2)
    );
    j.append_chunk(&["f".into()]).unwrap();
    drop(j);
    assert_eq!(std::fs::read_to_string(&partial).unwrap(), "a\nb\nc\nf\n");
    let e = ChunkJournal::open(&out, &json!({"games": 10}), false)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("different job"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

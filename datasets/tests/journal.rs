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
    // Every difference is named, not just the first.
    let e = RolloutJournal::open(&out, &json!({"trials": 36, "zz_new": 1}), &input, false)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("'trials' was 1296 and is now 36; ") && e.contains("'zz_new' is new"),
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

/// A rollout's job description as `datasets::job::rollout` writes it, with the weights
/// read from `path` (digest `digest`).
fn rollout_job(path: &str, digest: &str) -> serde_json::Value {
    json!({
        "settings": {"trials": 36, "plies": 0},
        "input_rows": 8,
        "input_digest": "0011223344556677",
        "engine": {
            "weights": {"path": path, "digest": digest},
            "bearoff_os": null,
            "bearoff_ts": {"path": "/var/lib/gnubg/gnubg_ts0.bd", "digest": "89ab"},
        },
    })
}

#[test]
fn a_journal_resumes_with_the_same_files_at_other_paths_but_not_other_files() {
    let dir = common::scratch("journal-paths");
    let out = dir.join("data.csv");
    let input = common::random_game_positions(4, 2, 5);
    let (mut j, _) = RolloutJournal::open(
        &out,
        &rollout_job("/usr/lib/gnubg/gnubg.wd", "1234"),
        &input,
        false,
    )
    .unwrap();
    j.append(2, &sample(input[2], 0.5)).unwrap();
    drop(j);
    // Written by this version or an older one alike: paths recorded, digests compared.
    let (_, done) =
        RolloutJournal::open(&out, &rollout_job("elsewhere/w.wd", "1234"), &input, false).unwrap();
    assert_eq!(done[2], Some(sample(input[2], 0.5)));
    let e = RolloutJournal::open(&out, &rollout_job("elsewhere/w.wd", "4321"), &input, false)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("different job") && e.contains("'engine' was"), "{e}");
    assert!(e.contains("\"1234\"") && !e.contains("elsewhere"), "{e}");
    // The chunk journal of sampling too.
    let sample_job = |path: &str| json!({"settings": {"seed": 1}, "games": 10, "engine": {"weights": {"path": path, "digest": "1234"}}});
    let positions = dir.join("positions.csv");
    let (mut j, _, _) =
        ChunkJournal::open(&positions, &sample_job("/usr/lib/gnubg/gnubg.wd"), false).unwrap();
    j.append_chunk(&["a".into()]).unwrap();
    drop(j);
    let (_, lines, chunks) =
        ChunkJournal::open(&positions, &sample_job("/usr/lib/gnubg/../gnubg/gnubg.wd"), false).unwrap();
    assert_eq!((lines, chunks), (vec!["a".to_string()], 1));
}

#[test]
fn partial_results_of_another_kind_of_job_are_named_by_their_kind() {
    let dir = common::scratch("journal-kinds");
    let out = dir.join("data.csv");
    let input = common::random_game_positions(4, 2, 5);
    let rollout = rollout_job("w.wd", "1234");
    let mut label = rollout.clone();
    label.as_object_mut().unwrap().remove("settings");
    label["search"] = json!({"plies": 1, "prune": true});
    let (j, _) = RolloutJournal::open(&out, &rollout, &input, false).unwrap();
    drop(j);
    let (partial, meta) = partial_paths(&out);
    let e = RolloutJournal::open(&out, &label, &input, false)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        format!(
            "{} holds a rollout's results, not a label job's; delete it and {}, pass --fresh to start over, or write the output elsewhere",
            partial.display(),
            meta.display()
        )
    );
    RolloutJournal::open(&out, &label, &input, true).unwrap();
    let e = RolloutJournal::open(&out, &rollout, &input, false)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains(" holds a label job's results, not a rollout's; "),
        "{e}"
    );
    // A sample over a benchmark build's partial results.
    let bench = json!({"build": {"candidates": 4}, "rollout": {"trials": 36}, "input_digest": "00"});
    let sets = dir.join("set.jsonl");
    drop(ChunkJournal::open(&sets, &bench, false).unwrap());
    let e = ChunkJournal::open(&sets, &json!({"settings": {"seed": 1}, "games": 10}), false)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("set.jsonl.partial holds a benchmark build's results, not a sample's; "),
        "{e}"
    );
}

#[test]
fn a_second_run_on_the_same_output_is_refused_while_the_first_holds_its_journal() {
    let dir = common::scratch("journal-lock");
    let out = dir.join("data.csv");
    let input = common::random_game_positions(4, 2, 5);
    let job = json!({"trials": 1296});
    let (mut first, _) = RolloutJournal::open(&out, &job, &input, false).unwrap();
    first.append(2, &sample(input[2], 0.25)).unwrap();
    let (partial, _) = partial_paths(&out);
    let before = std::fs::read(&partial).unwrap();
    // The same job, a fresh start of it, and another kind of job on the same output:
    // each refused, naming the output and its journal, and the first's file untouched.
    let busy = |e: datasets::DatasetError| {
        let e = e.to_string();
        assert!(
            e.starts_with(&format!("{}: another run is writing this output", out.display()))
                && e.contains("data.csv.partial is locked"),
            "{e}"
        );
    };
    busy(RolloutJournal::open(&out, &job, &input, false).err().unwrap());
    busy(RolloutJournal::open(&out, &job, &input, true).err().unwrap());
    busy(
        ChunkJournal::open(&out, &json!({"games": 5}), true)
            .err()
            .unwrap(),
    );
    assert_eq!(std::fs::read(&partial).unwrap(), before);
    // Once the first run has ended (or was killed: the lock goes with the process), the
    // journal is taken over and resumed.
    drop(first);
    // A second name of the journal (a user's `cp -al` snapshot) changes nothing: it is
    // the same partial results.
    std::fs::hard_link(&partial, dir.join("snapshot")).unwrap();
    let (_, done) = RolloutJournal::open(&out, &job, &input, false).unwrap();
    assert_eq!(done.iter().flatten().count(), 1);
}

#[test]
fn two_commands_on_one_output_one_refused_before_it_touches_anything() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("journal-lock-cli");
    let out = dir.join("s.csv");
    let (partial, meta) = partial_paths(&out);
    // A long sampling run (killed below), then another seed with --fresh --force on the
    // same output while it runs: before the lock, the second truncated the first's
    // journal and the first put the second's positions in place under its own summary.
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_datasets"))
        .args([
            "sample", "--games", "1000000", "--seed", "5", "-j", "1", "--quiet", "-o",
        ])
        .arg(&out)
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while !meta.exists() {
        assert!(
            t0.elapsed().as_secs() < 60,
            "the first run never started its journal"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let second = [
        "sample",
        "--games",
        "20",
        "--seed",
        "6",
        "--fresh",
        "--force",
        "--quiet",
        "-o",
        common::s(&out),
    ];
    let o = common::datasets(&second);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.starts_with("datasets: ")
            && e.contains("another run is writing this output")
            && e.lines().count() == 1,
        "{e}"
    );
    assert!(first.try_wait().unwrap().is_none(), "the first run goes on");
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(partial.exists() && meta.exists() && !out.exists());
    // The killed run's lock is gone with it: the second command now runs.
    common::ok(&second);
    assert!(!partial.exists() && !meta.exists());
    let clean = dir.join("clean.csv");
    common::ok(&[
        "sample",
        "--games",
        "20",
        "--seed",
        "6",
        "--quiet",
        "-o",
        common::s(&clean),
    ]);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&clean).unwrap());
}

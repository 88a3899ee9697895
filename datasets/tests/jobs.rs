//! The library's long jobs (`datasets::job`) called directly, as a program embedding
//! the library would: results equal to the rollout engine's own, progress reported in
//! order, resumption from the journal, and errors naming the input.

mod common;

use std::path::Path;

use datasets::format::{self, Format};
use datasets::job::rollout::{self, Labels, RolloutJob};
use datasets::job::{JobError, Progress};
use datasets::shard::Shard;
use datasets::{Roller, RolloutSettings};
use evaluator::engine::EngineFiles;
use fileio::Existing;
use test_support::Scratch;

use common::{gnubg_evaluator, random_game_positions, OS, TS, WD};

/// Every call a job makes, in order.
#[derive(Default)]
struct Record(Vec<String>);

impl Progress for Record {
    fn start(&mut self, total: u64, done: u64) {
        self.0.push(format!("start {total} {done}"));
    }
    fn update(&mut self, done: u64, _: Option<String>) {
        self.0.push(format!("update {done}"));
    }
    fn note(&mut self, text: &str) {
        self.0.push(format!("note {text}"));
    }
    fn finish(&mut self) {
        self.0.push("finish".into());
    }
}

fn job(dir: &Path, input: &Path, settings: &RolloutSettings) -> RolloutJob {
    RolloutJob {
        engine: EngineFiles {
            weights: WD.into(),
            one_sided: Some(OS.into()),
            two_sided: Some(TS.into()),
        },
        input: input.to_path_buf(),
        output: dir.join("out.csv"),
        format: None,
        labels: Labels::Rollout(settings.clone()),
        incremental: false,
        shard: Shard::ALL,
        threads: 2,
        fresh: false,
        existing: Existing::Replace,
        deadline: None,
    }
}

fn write_ids(path: &Path, positions: &[board::Position]) {
    let mut text = String::from("position_id\n");
    for p in positions {
        text += &format!("{}\n", p.position_id());
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn the_rollout_job_writes_the_engines_serial_results_in_input_order() {
    let Some(ev) = gnubg_evaluator() else { return };
    let dir = Scratch::new("datasets", "job-rollout");
    let positions: Vec<_> = random_game_positions(5, 1, 7).into_iter().take(5).collect();
    let input = dir.join("in.csv");
    write_ids(&input, &positions);
    let settings = RolloutSettings {
        trials: 36,
        // Without luck adjustment: about 20 times faster, the same code path otherwise.
        variance_reduction: false,
        ..RolloutSettings::default()
    };
    let mut progress = Record::default();
    let summary = rollout::run(&job(&dir, &input, &settings), &mut progress).unwrap();
    assert_eq!((summary.positions, summary.new, summary.trials), (5, 5, 5 * 36));
    assert_eq!(progress.0.first().map(String::as_str), Some("start 5 0"));
    assert_eq!(progress.0.last().map(String::as_str), Some("finish"));
    assert_eq!(progress.0[progress.0.len() - 2], "update 5");

    // The single-threaded engine, position by position, is the reference.
    let roller = Roller::new(&ev, settings.clone()).unwrap();
    let written = format::read(&dir.join("out.csv"), Format::Csv).unwrap();
    assert_eq!(written.len(), positions.len());
    for (s, p) in written.iter().zip(&positions) {
        assert_eq!(s.position, *p);
        let (probs, se) = roller.rollout_serial(p).unwrap().probabilities();
        assert_eq!((s.probs, s.se), (probs, Some(se)), "{}", p.position_id());
    }
    assert!(!dir.join("out.csv.partial").exists(), "the journal is removed");
}

#[test]
fn an_interrupted_job_resumes_from_its_journal_with_the_same_result() {
    if gnubg_evaluator().is_none() {
        return;
    }
    let dir = Scratch::new("datasets", "job-resume");
    let positions: Vec<_> = random_game_positions(6, 1, 9).into_iter().take(3).collect();
    let input = dir.join("in.csv");
    write_ids(&input, &positions);
    let settings = RolloutSettings {
        trials: 18,
        variance_reduction: false,
        ..RolloutSettings::default()
    };
    let whole = job(&dir, &input, &settings);
    rollout::run(&whole, &mut ()).unwrap();
    let reference = std::fs::read(&whole.output).unwrap();

    // Interrupted after the first result was journalled.
    struct StopAfterOne;
    impl Progress for StopAfterOne {
        fn update(&mut self, _: u64, _: Option<String>) {
            panic!("interrupted");
        }
    }
    let mut part = job(&dir, &input, &settings);
    part.output = dir.join("part.csv");
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rollout::run(&part, &mut StopAfterOne)
    }));
    assert!(run.is_err(), "the run was interrupted");
    assert!(!part.output.exists());
    assert!(datasets::journal::partial_paths(&part.output).0.exists());

    let mut again = Record::default();
    let summary = rollout::run(&part, &mut again).unwrap();
    assert_eq!((summary.positions, summary.new), (3, 2));
    assert_eq!(again.0[0], "note resuming: 1 of 3 positions already rolled out");
    assert_eq!(again.0[1], "start 3 1");
    assert_eq!(
        std::fs::read(&part.output).unwrap(),
        reference,
        "same seed, same file"
    );
}

#[test]
fn a_missing_input_is_an_error_naming_it() {
    let dir = Scratch::new("datasets", "job-missing");
    let job = job(&dir, &dir.join("nowhere.csv"), &RolloutSettings::default());
    let err = rollout::run(&job, &mut ()).unwrap_err();
    assert!(matches!(err, JobError::Dataset(_)), "{err:?}");
    assert!(err.to_string().contains("nowhere.csv"), "{err}");
    assert!(!job.output.exists());
}

#[test]
fn an_output_that_appears_during_the_job_is_kept_and_a_forced_rerun_uses_the_journal() {
    if gnubg_evaluator().is_none() {
        return;
    }
    let dir = Scratch::new("datasets", "job-appeared");
    let positions: Vec<_> = random_game_positions(6, 1, 9).into_iter().take(2).collect();
    let input = dir.join("in.csv");
    write_ids(&input, &positions);
    let settings = RolloutSettings {
        trials: 18,
        ..RolloutSettings::default()
    };
    let mut reference = job(&dir, &input, &settings);
    reference.output = dir.join("reference.csv");
    rollout::run(&reference, &mut ()).unwrap();

    // The user saves a file of their own at the output's name while the job runs.
    struct UserWrites<'a>(&'a Path);
    impl Progress for UserWrites<'_> {
        fn finish(&mut self) {
            std::fs::write(self.0, "mine\n").unwrap();
        }
    }
    let mut kept = job(&dir, &input, &settings);
    kept.existing = Existing::Keep;
    let err = rollout::run(&kept, &mut UserWrites(&kept.output))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("out.csv: appeared while this job was writing it")
            && err.contains("out.csv.partial")
            && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&kept.output).unwrap(), "mine\n");

    // The rerun the message asks for rolls out nothing again.
    kept.existing = Existing::Replace;
    let summary = rollout::run(&kept, &mut ()).unwrap();
    assert_eq!((summary.positions, summary.new), (2, 0));
    assert_eq!(
        std::fs::read(&kept.output).unwrap(),
        std::fs::read(&reference.output).unwrap()
    );
    assert!(!datasets::journal::partial_paths(&kept.output).0.exists());
}

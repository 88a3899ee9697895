//! What `trainer supervised` refuses: records the datasets readers refuse
//! are refused here too; `--resume --epochs` below the run's count, and the same data
//! twice, are errors; a diverged run's advice works as given.

mod common;

use std::path::Path;

use common::{fails_with_all, s, samples, scratch, stderr, trainer};
use datasets::format::{self, Format};

/// A small single-class run's arguments, then `extra`.
fn small<'a>(data: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "supervised",
        "--data",
        data,
        "--class",
        "contact",
        "--hidden",
        "8",
        "--batch",
        "64",
        "--out",
        out,
        "--threads",
        "1",
        "--quiet",
        "--json",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_class_byte_that_is_not_the_positions_class_is_refused_as_datasets_refuses_it() {
    let dir = scratch("audit-classbyte");
    let bin = dir.join("c2.bgds");
    format::write(&bin, Format::Binary, &samples(5, 300)).unwrap();
    let mut b = std::fs::read(&bin).unwrap();
    const HEADER: usize = datasets::format::binary::HEADER_SIZE;
    let own = b[HEADER + 10];
    let other = datasets::class::DATASET_CLASSES
        .iter()
        .map(|&c| c as u8)
        .find(|&c| c != own)
        .unwrap();
    b[HEADER + 10] = other;
    let sum = datasets::rng::Fnv1a::of(&b[HEADER..]);
    b[32..40].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&bin, &b).unwrap();
    // The datasets library's own reader is the reference for the message.
    let theirs = format::read(&bin, Format::Binary).unwrap_err().to_string();
    let want = format!("record 1: class byte {other} but the position is of class {own}");
    assert!(theirs.contains(&want), "{theirs}");
    let out = dir.join("run");
    fails_with_all(&small(s(&bin), s(&out), &["--epochs", "1"]), &[s(&bin), &want]);
    assert!(!out.join("net.wd").exists());
}

#[test]
fn resume_epochs_below_the_count_and_repeated_data_are_refused() {
    let dir = scratch("audit-epochs");
    let data = dir.join("d.csv");
    format::write(&data, Format::Csv, &samples(3, 600)).unwrap();
    let out = dir.join("run");
    let o = trainer(&small(s(&data), s(&out), &["--epochs", "2", "--patience", "0"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let sup = out.join("supervised.json");
    let before = std::fs::read(&sup).unwrap();
    fails_with_all(
        &["supervised", "--resume", s(&out), "--epochs", "1", "--quiet"],
        &["already trained 2 epochs", "not 1"],
    );
    assert_eq!(
        std::fs::read(&sup).unwrap(),
        before,
        "the checkpoint is untouched"
    );
    // The same total is no error (nothing left to do), as with td's --games.
    let o = trainer(&[
        "supervised",
        "--resume",
        s(&out),
        "--epochs",
        "2",
        "--quiet",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The same file twice, by its name or another path to it; a copy of its content.
    let copy = dir.join("copy.csv");
    std::fs::copy(&data, &copy).unwrap();
    let other_path = dir.join(".").join("d.csv");
    for second in [&data, &other_path, &copy] {
        let out2 = dir.join("run2");
        let mut args = small(s(&data), s(&out2), &["--epochs", "1"]);
        args.extend(["--data", s(second)]);
        fails_with_all(&args, &["are the same data", "give each dataset once"]);
        assert!(!out2.join("net.wd").exists());
    }
}

#[test]
fn a_diverged_runs_advice_starts_it_again() {
    let dir = scratch("audit-diverge");
    let data = dir.join("d.csv");
    format::write(&data, Format::Csv, &samples(3, 600)).unwrap();
    let out = dir.join("run");
    let args = small(
        s(&data),
        s(&out),
        &["--epochs", "1", "--optimizer", "sgd", "--lr", "1e30"],
    );
    let o = trainer(&args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    let advice = format!("--out {} --force", s(&out));
    assert!(e.contains("training diverged") && e.contains(&advice), "{e}");
    // As advised: the same --out with --force and a smaller rate.
    let o = trainer(&small(
        s(&data),
        s(&out),
        &["--epochs", "1", "--optimizer", "sgd", "--lr", "0.01", "--force"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["epochs"], 1);
    assert!(Path::new(&out.join("net.wd")).exists());
}

/// `--resume --epochs` on a run of several classes raises the count of the classes not
/// yet finished only: a finished class is not trained again, one not started takes it.
#[test]
fn resume_epochs_leave_finished_classes_alone() {
    let dir = scratch("resume-classes");
    let data = dir.join("d.csv");
    format::write(&data, Format::Csv, &samples(3, 1500)).unwrap();
    let out = dir.join("run");
    let mut args = small(s(&data), s(&out), &["--epochs", "1", "--patience", "0"]);
    let at = args.iter().position(|a| *a == "contact").unwrap();
    args[at] = "contact,race";
    let o = trainer(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let epoch = |class: &str| common::json(&out.join(class).join("supervised.json"))["epoch"].as_u64();
    assert_eq!((epoch("contact"), epoch("race")), (Some(1), Some(1)));
    let net = std::fs::read(out.join("net.wd")).unwrap();
    let resume = |extra: &[&str]| {
        let o = trainer(&[&["supervised", "--resume", s(&out), "--quiet"], extra].concat());
        assert!(o.status.success(), "{}", stderr(&o));
    };
    resume(&["--epochs", "3"]);
    assert_eq!((epoch("contact"), epoch("race")), (Some(1), Some(1)));
    assert_eq!(std::fs::read(out.join("net.wd")).unwrap(), net);
    // A run stopped before its race class started: that class takes --epochs, the
    // finished contact class keeps its one.
    std::fs::remove_dir_all(out.join("race")).unwrap();
    resume(&["--epochs", "3"]);
    assert_eq!((epoch("contact"), epoch("race")), (Some(1), Some(3)));
    // The plan records the raised count for a later --resume without --epochs.
    let plan = common::json(&out.join("classes.json"));
    assert_eq!(plan["classes"][1]["epochs"], 3, "{plan}");
    std::fs::remove_dir_all(out.join("race")).unwrap();
    resume(&[]);
    assert_eq!((epoch("contact"), epoch("race")), (Some(1), Some(3)));
}

#[test]
fn temporary_files_of_a_killed_session_go_with_the_runs_next_checkpoint() {
    let dir = scratch("audit-temps");
    let data = dir.join("d.csv");
    format::write(&data, Format::Csv, &samples(3, 600)).unwrap();
    let out = dir.join("run");
    let o = trainer(&small(s(&data), s(&out), &["--epochs", "1"]));
    assert!(o.status.success(), "{}", stderr(&o));
    // What a session killed while saving net.wd leaves (`AtomicFile`'s name, a writer
    // that no longer runs), idle for five minutes; and one written just now, which a
    // writer on another machine sharing the directory could still own.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(300);
    let (stale, recent) = (
        out.join(format!("net.wd.tmp{dead}-7")),
        out.join(format!("net.wd.tmp{dead}-8")),
    );
    std::fs::File::create(&stale).unwrap().set_modified(old).unwrap();
    std::fs::File::create(&recent).unwrap();
    // A new run over it (--force) sweeps the old one at its first checkpoint; before,
    // only a --resume did, and only files idle for a minute by then.
    let o = trainer(&small(s(&data), s(&out), &["--epochs", "1", "--force"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stale.exists() && recent.exists());
}

#[test]
fn a_refused_run_leaves_no_directory_and_several_classes_want_a_file() {
    let dir = scratch("audit-refused-dir");
    // Positions without targets: refused after the run directory was made for its lock;
    // the empty directory goes too.
    let positions = dir.join("p.csv");
    std::fs::write(&positions, "position_id\n4HPwATDgc/ABMA\n").unwrap();
    let out = dir.join("new");
    fails_with_all(
        &small(s(&positions), s(&out), &["--epochs", "1"]),
        &["positions file"],
    );
    assert!(!out.exists());
    // Several classes read the data once each: a stream (here /dev/stdin, which the test
    // harness leaves at /dev/null) is refused by name before anything is made.
    let mut args = small("/dev/stdin", s(&out), &["--epochs", "1"]);
    let at = args.iter().position(|a| *a == "contact").unwrap();
    args[at] = "contact,race";
    fails_with_all(
        &args,
        &[
            "--data /dev/stdin is not a regular file",
            "write it to a file first",
        ],
    );
    assert!(!out.exists());
}

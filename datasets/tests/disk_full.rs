//! A full disk (issue 19). `sample` and `rollout` journal their progress next to the
//! output (`OUT.partial`, `OUT.partial.json`) so that an interrupted job resumes: a
//! failed write ends the job with one error naming the file, exit 2, keeps exactly
//! that journal and nothing else, and the same command run again (space freed)
//! finishes with the bytes of an uninterrupted run. Converting writes no journal and
//! leaves nothing behind.

use std::path::Path;

use test_support::cli::*;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_datasets");
const TOOL: &str = "datasets";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `args` (with output `name` in `dir`) on a disk of `kib` KiB, then again without
/// a limit, and compares with an uninterrupted run in `clean`.
fn resumes_after_a_full_disk(dir: &Path, clean: &Path, args: &[&str], name: &str, kib: u64, inputs: &[&str]) {
    let out = dir.join(name);
    let with = |o: &Path| {
        let mut v: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        v.extend(["-o".to_string(), s(o).to_string(), "--quiet".to_string()]);
        v
    };
    let a = with(&out);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let partial = format!("{name}.partial");
    let journal = format!("{name}.partial.json");
    let mut keep = inputs.to_vec();
    keep.extend([partial.as_str(), journal.as_str()]);
    case_disk_full(TOOL, BIN, &a, kib, &partial, dir, &keep);

    let r = run(BIN, &a);
    assert_eq!(r.code, Some(0), "{a:?} resumed: {}", r.stderr);
    let b = with(&clean.join(name));
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    let r = run(BIN, &b);
    assert_eq!(r.code, Some(0), "{b:?}: {}", r.stderr);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(clean.join(name)).unwrap(),
        "{name}: the resumed output is the uninterrupted one"
    );
}

#[test]
fn a_full_disk_keeps_a_resumable_journal_and_nothing_else() {
    let dir = Scratch::new("datasets-disk-full", "out");
    let clean = Scratch::new("datasets-disk-full", "clean");
    // 60 games give about 50 KB of positions.
    resumes_after_a_full_disk(
        &dir,
        &clean,
        &["sample", "--games", "60", "--seed", "7"],
        "pos.csv",
        8,
        &[],
    );
    // 80 of those positions rolled out give about 9 KB of CSV.
    let text = std::fs::read_to_string(dir.join("pos.csv")).unwrap();
    let head: Vec<&str> = text.lines().take(81).collect();
    std::fs::write(dir.join("p80.csv"), head.join("\n") + "\n").unwrap();
    let input = dir.join("p80.csv");
    resumes_after_a_full_disk(
        &dir,
        &clean,
        &[
            "rollout",
            "--input",
            s(&input),
            "--trials",
            "2",
            "--seed",
            "3",
            "-j",
            "1",
        ],
        "r.csv",
        4,
        &["pos.csv", "p80.csv"],
    );
}

#[test]
fn a_full_disk_leaves_no_partial_conversion() {
    let dir = Scratch::new("datasets-disk-full", "convert");
    let pos = dir.join("pos.csv");
    let r = run(
        BIN,
        &["sample", "--games", "60", "--seed", "7", "-o", s(&pos), "--quiet"],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let text = std::fs::read_to_string(&pos).unwrap();
    let head: Vec<&str> = text.lines().take(81).collect();
    let small = dir.join("p80.csv");
    std::fs::write(&small, head.join("\n") + "\n").unwrap();
    let rolled = dir.join("r.csv");
    let r = run(
        BIN,
        &[
            "rollout",
            "--input",
            s(&small),
            "--trials",
            "2",
            "-o",
            s(&rolled),
            "--quiet",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let out = dir.join("r.bgds");
    case_disk_full(
        TOOL,
        BIN,
        &["convert", s(&rolled), s(&out)],
        1,
        "r.bgds",
        &dir,
        &["pos.csv", "p80.csv", "r.csv"],
    );
}

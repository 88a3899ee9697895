//! A full disk (issue 19): every generator fails with one error naming the file it
//! was writing, exit 2, and leaves no temporary or partial file behind. The disk is
//! "full" through a file-size limit, which fails writes as a full disk does.

use test_support::cli::*;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_gen-bearoff");
const TOOL: &str = "gen-bearoff";

#[test]
fn a_full_disk_leaves_no_partial_database() {
    let dir = Scratch::new("gen-bearoff-disk-full", "out");
    let path = |name: &str| dir.join(name).display().to_string();
    let (os, ts, hy) = (path("os6.bd"), path("ts6.bd"), path("hyper2.bd"));
    // One-sided 6x15 is 1.4 MB, two-sided 6x6 about 0.7 MB, hypergammon 2 about
    // 0.5 MB (and its checkpoint): all well past 16 KiB.
    case_disk_full(
        TOOL,
        BIN,
        &["one-sided", "-p", "6", "-q", "-o", &os],
        16,
        "os6.bd",
        &dir,
        &[],
    );
    case_disk_full(
        TOOL,
        BIN,
        &["two-sided", "-p", "6", "-c", "6", "-q", "-o", &ts],
        16,
        "ts6.bd",
        &dir,
        &[],
    );
    case_disk_full(
        TOOL,
        BIN,
        &["hyper", "-c", "2", "-q", "-o", &hy],
        16,
        "hyper2.bd",
        &dir,
        &[],
    );
    case_disk_full(
        TOOL,
        BIN,
        &["hyper", "-c", "2", "-q", "--no-checkpoint", "-o", &hy],
        16,
        "hyper2.bd",
        &dir,
        &[],
    );
}

#[test]
fn a_full_disk_at_assembly_names_the_database_not_the_work_directory() {
    let work = Scratch::new("gen-bearoff-disk-full", "work");
    let dir = Scratch::new("gen-bearoff-disk-full", "assembled");
    let w = work.join("w").display().to_string();
    for args in [
        vec!["two-sided-plan", "6x6", "--work", &w, "-q"],
        vec![
            "two-sided",
            "6x6",
            "--work",
            &w,
            "--shard",
            "1/1",
            "-j",
            "1",
            "-q",
        ],
    ] {
        let r = run(BIN, &args);
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
    }
    let out = dir.join("ts6.bd").display().to_string();
    let args = ["two-sided", "6x6", "--work", &w, "--assemble", "-q", "-o", &out];
    case_disk_full(TOOL, BIN, &args, 16, "ts6.bd.partial: cannot write", &dir, &[]);
    let r = disk_full(BIN, &args, 16);
    assert!(!r.stderr.contains(&format!("{w}:")), "{}", r.stderr);
}

//! Sharded two-sided builds (issue 18): a database built level by level by separate
//! processes, each computing one shard of a level from the parts of the levels below,
//! then assembled, is byte for byte gnubg's `makebearoff -t` file and the one-process
//! build (the cubeless 6x8 is built by workers, tests/sharded_workers.rs); missing or duplicated parts are refused; a killed task's rerun gives the same
//! bytes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{have_gnubg, makebearoff, md5_hex, ours, run_err, run_ok, scratch};

/// MD5 of gnubg 1.07's `makebearoff -t 6x8` (Debian's binary; about 6 CPU minutes, too
/// slow to rerun in every test run).
const MAKEBEAROFF_6X8: &str = "fcdbbc80b7ef84ddc81b839d0f26bed1";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A small deterministic generator for the task order.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }

    fn shuffled(&mut self, n: u32) -> Vec<u32> {
        let mut v: Vec<u32> = (1..=n).collect();
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
        v
    }
}

/// Plans `size` in `work` (with `plan_flags`) and returns the level count it prints.
fn plan(size: &str, work: &Path, plan_flags: &[&str]) -> usize {
    let mut args = vec!["two-sided-plan", size, "--work", s(work), "-q"];
    args.extend(plan_flags);
    let out = run_ok(&args);
    String::from_utf8(out.stdout).unwrap().trim().parse().unwrap()
}

/// Runs the `n` tasks of `level` as concurrent processes, started in a random order.
fn run_level(size: &str, work: &Path, level: usize, n: u32, rng: &mut Lcg) {
    let children: Vec<_> = rng
        .shuffled(n)
        .into_iter()
        .map(|k| {
            let child = ours()
                .args(["two-sided", size, "--work", s(work), "-q", "-j", "1"])
                .args(["--level", &level.to_string(), "--shard", &format!("{k}/{n}")])
                .spawn()
                .unwrap();
            (k, child)
        })
        .collect();
    for (k, mut child) in children {
        assert!(child.wait().unwrap().success(), "level {level} shard {k}/{n}");
    }
}

fn assemble(size: &str, work: &Path, out: &Path) {
    common::assemble_sharded(size, work, out);
}

/// The whole sharded build of `size` with `n` tasks per level; returns the file's MD5.
fn sharded_md5(dir: &Path, size: &str, plan_flags: &[&str], n: u32, seed: u64) -> String {
    let work = dir.join("work");
    let levels = plan(size, &work, plan_flags);
    let mut rng = Lcg(seed);
    for level in 0..levels {
        run_level(size, &work, level, n, &mut rng);
    }
    let out = dir.join("sharded.bd");
    assemble(size, &work, &out);
    md5_hex(&std::fs::read(&out).unwrap())
}

fn one_process_md5(dir: &Path, size: &str, flags: &[&str]) -> String {
    let out = dir.join("one.bd");
    let mut args = vec!["two-sided", size, "-o", s(&out), "-q"];
    args.extend(flags);
    run_ok(&args);
    md5_hex(&std::fs::read(&out).unwrap())
}

#[test]
fn sharded_6x8_is_makebearoffs_file() {
    let dir = scratch("sharded-6x8");
    // 97 levels, 3 tasks each.
    let sharded = sharded_md5(&dir, "6x8", &[], 3, 18);
    assert_eq!(sharded, MAKEBEAROFF_6X8);
    assert_eq!(one_process_md5(&dir, "6x8", &[]), sharded);
}

#[test]
fn sharded_6x4_equals_makebearoff_run_now() {
    if !have_gnubg() {
        return;
    }
    let dir = scratch("sharded-6x4-live");
    for (flags, theirs) in [
        (&[][..], &["-t", "6x4"][..]),
        (&["--no-header"][..], &["-t", "6x4", "-H"][..]),
    ] {
        let sharded = sharded_md5(&dir, "6x4", flags, 3, 4);
        let file = dir.join("gnubg.bd");
        makebearoff(theirs, &file);
        assert_eq!(sharded, md5_hex(&std::fs::read(&file).unwrap()), "{theirs:?}");
        std::fs::remove_dir_all(dir.join("work")).unwrap();
        std::fs::remove_file(dir.join("sharded.bd")).unwrap();
        std::fs::remove_file(dir.join("sharded.bd.sha256")).unwrap();
    }
}

/// 6x5, built in 61 levels of 2 tasks: the manual's MD5 (as in tests/md5_tables.rs).
const MD5_6X5: &str = "0db19ab08feae1feb33ddbd709479f62";

fn part(work: &Path, level: usize, k: u32, n: u32) -> PathBuf {
    work.join(format!("L{level:03}-{k:03}of{n:03}.part"))
}

#[test]
fn missing_and_duplicated_parts_are_refused() {
    let dir = scratch("sharded-refused");
    let work = dir.join("work");
    let levels = plan("6x5", &work, &[]);
    assert_eq!(levels, 61);
    let mut rng = Lcg(5);
    for level in 0..levels {
        // A level cannot start before the levels below it are complete.
        if level == 30 {
            std::fs::rename(part(&work, 29, 2, 2), dir.join("aside")).unwrap();
            let err = run_err(&[
                "two-sided",
                "6x5",
                "--work",
                s(&work),
                "--level",
                "30",
                "--shard",
                "1/2",
            ]);
            assert!(
                err.contains("level 29 is incomplete") && err.contains("L029-002of002.part"),
                "{err}"
            );
            std::fs::rename(dir.join("aside"), part(&work, 29, 2, 2)).unwrap();
        }
        run_level("6x5", &work, level, 2, &mut rng);
    }
    let out = dir.join("x.bd");
    let assemble_err = |needle: &str| {
        let err = run_err(&[
            "two-sided",
            "6x5",
            "--work",
            s(&work),
            "--assemble",
            "-o",
            s(&out),
        ]);
        assert!(err.contains(needle), "{needle}: {err}");
        assert!(!out.exists());
    };
    // Missing: named by level and file.
    std::fs::rename(part(&work, 40, 1, 2), dir.join("aside")).unwrap();
    assemble_err("level 40 is incomplete: 1 of 2 shards missing (L040-001of002.part)");
    std::fs::rename(dir.join("aside"), part(&work, 40, 1, 2)).unwrap();
    // Duplicated: a task of another split of a finished level is refused...
    let err = run_err(&[
        "two-sided",
        "6x5",
        "--work",
        s(&work),
        "--level",
        "12",
        "--shard",
        "1/3",
    ]);
    assert!(
        err.contains("already has parts of a split into 2 shards"),
        "{err}"
    );
    // ... and parts of two splits (here copied in) are refused by the assembly.
    std::fs::copy(part(&work, 12, 1, 2), part(&work, 12, 1, 3)).unwrap();
    assemble_err("level 12 has parts of more than one split (2 shards, 3 shards)");
    std::fs::remove_file(part(&work, 12, 1, 3)).unwrap();
    // A damaged part: its checksum names it.
    let p = part(&work, 50, 2, 2);
    let good = std::fs::read(&p).unwrap();
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    std::fs::write(&p, &bad).unwrap();
    assemble_err("L050-002of002.part: corrupt or truncated database: part checksum mismatch");
    // A part renamed to another shard's name: its header says otherwise.
    std::fs::write(&p, &good).unwrap();
    std::fs::rename(part(&work, 50, 1, 2), dir.join("aside")).unwrap();
    std::fs::copy(&p, part(&work, 50, 1, 2)).unwrap();
    assemble_err("not shard 1/2's part of level 50");
    std::fs::rename(dir.join("aside"), part(&work, 50, 1, 2)).unwrap();
    // Another database cannot reuse the directory.
    let err = run_err(&["two-sided-plan", "6x5", "--no-cubeful", "--work", s(&work)]);
    assert!(err.contains("planned for 6x5 cubeful"), "{err}");
    let err = run_err(&[
        "two-sided",
        "6x6",
        "--work",
        s(&work),
        "--level",
        "3",
        "--shard",
        "1/2",
    ]);
    assert!(err.contains("planned for 6x5 cubeful"), "{err}");
    // All in place again: the manual's file.
    assemble("6x5", &work, &out);
    assert_eq!(md5_hex(&std::fs::read(&out).unwrap()), MD5_6X5);
}

#[test]
fn a_killed_task_reruns_to_the_same_bytes() {
    let dir = scratch("sharded-killed");
    let work = dir.join("work");
    let levels = plan("6x6", &work, &[]);
    let mut rng = Lcg(9);
    let big = levels / 2;
    for level in 0..levels {
        if level == big {
            // Killed at some point of its work (whenever the signal lands)...
            let mut child = ours()
                .args(["two-sided", "6x6", "--work", s(&work), "-q", "-j", "1"])
                .args(["--level", &level.to_string(), "--shard", "2/3"])
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(30));
            child.kill().unwrap();
            child.wait().unwrap();
            // ... or while writing its part: what a kill then leaves (a temporary file,
            // never taken for a part, swept by the assembly).
            let stale = work.join(format!("L{level:03}-001of003.part.tmp4000000000-0"));
            std::fs::write(&stale, b"bgkitTSP truncated").unwrap();
        }
        run_level("6x6", &work, level, 3, &mut rng);
    }
    // A finished part is not recomputed.
    let p = part(&work, big, 2, 3);
    let before = std::fs::metadata(&p).unwrap().modified().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gen-bearoff"))
        .args([
            "two-sided",
            "6x6",
            "--work",
            s(&work),
            "--level",
            &big.to_string(),
            "--shard",
            "2/3",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already done"));
    assert_eq!(std::fs::metadata(&p).unwrap().modified().unwrap(), before);
    let file = dir.join("ts6x6.bd");
    assemble("6x6", &work, &file);
    assert!(!work
        .join(format!("L{big:03}-001of003.part.tmp4000000000-0"))
        .exists());
    // The manual's MD5 of 6x6 (tests/md5_tables.rs).
    assert_eq!(
        md5_hex(&std::fs::read(&file).unwrap()),
        "44b6040b49b46cb9dd2ce8caa947044d"
    );
}

#[test]
fn the_assembly_never_writes_over_the_work_directory_or_its_files() {
    // Audit defect 3: `--assemble -o W/plan --force` replaced the plan with the
    // database, `-o W/L010-001of002.part --force` a part.
    let dir = scratch("sharded-own-files");
    let work = dir.join("W");
    plan("6x2", &work, &[]);
    run_ok(&[
        "two-sided",
        "6x2",
        "--work",
        s(&work),
        "--shard",
        "1/2",
        "-q",
        "-j",
        "1",
    ]);
    let snapshot = || -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&work)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = snapshot();
    assert!(
        before.iter().any(|(n, _)| n == "L010-001of002.part"),
        "{:?}",
        before.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    std::fs::create_dir(dir.join("sub")).unwrap();
    let plan_via_dots = format!("{}/../W/plan", s(&dir.join("sub")));
    for (output, why) in [
        (s(&work).to_string(), "is the work directory"),
        (s(&work.join("plan")).to_string(), "own files"),
        (plan_via_dots, "own files"),
        (s(&work.join("L010-001of002.part")).to_string(), "own files"),
        // Not there (yet), but the names of the work directory's own files: a claim or
        // temporary part would be swept away by the assembly itself.
        (s(&work.join("L030-002of002.claim")).to_string(), "own files"),
        (
            s(&work.join("L030-002of002.part.tmp1-0")).to_string(),
            "own files",
        ),
        (s(&work.join("L099-001of002.part")).to_string(), "own files"),
    ] {
        for force in [false, true] {
            let mut args = vec![
                "two-sided",
                "6x2",
                "--work",
                s(&work),
                "--assemble",
                "-q",
                "-o",
                &output,
            ];
            if force {
                args.push("--force");
            }
            let err = run_err(&args);
            assert!(
                err.starts_with(&format!("gen-bearoff: the output {output} ")) && err.contains(why),
                "{output}: {err}"
            );
        }
    }
    assert_eq!(snapshot(), before, "the work directory is unchanged");
    // Elsewhere (also a new name inside the work directory) it is written: the manual's
    // MD5 of 6x2 (tests/md5_tables.rs).
    for out in [dir.join("ts.bd"), work.join("ts6x2.bd")] {
        assemble("6x2", &work, &out);
        assert_eq!(
            md5_hex(&std::fs::read(&out).unwrap()),
            "e9d760bf213841c285245ed757a52f4d"
        );
    }
}

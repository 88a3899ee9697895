//! Sharded two-sided builds by workers (issue 18): `two-sided --work DIR --shard K/N`
//! without `--level` walks every level, claiming shards with claim files; N workers
//! started together, or fewer, or one killed and rerun, build byte for byte gnubg's
//! `makebearoff -t` file. Abandoned claims (a dead process of this host, this task's
//! own run before a requeue, a claim unchanged for --stale-after) are taken over.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{md5_hex, ours, run_err, run_ok, scratch};

/// MD5 of gnubg 1.07's `makebearoff -t 6x8` (as in tests/sharded.rs).
const MAKEBEAROFF_6X8: &str = "fcdbbc80b7ef84ddc81b839d0f26bed1";
/// MD5 of gnubg 1.07's `makebearoff -t 6x8 -C` (cubeless; Debian's binary, about 7 CPU
/// minutes, so recorded rather than rerun).
const MAKEBEAROFF_6X8_CUBELESS: &str = "416076cec613c28da137c2e54d04aa35";
/// The manual's MD5 of 6x6 (tests/md5_tables.rs).
const MD5_6X6: &str = "44b6040b49b46cb9dd2ce8caa947044d";
/// The manual's MD5 of 6x5.
const MD5_6X5: &str = "0db19ab08feae1feb33ddbd709479f62";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Plans `size` in `work`; returns its number of levels.
fn plan(size: &str, work: &Path) -> usize {
    let out = run_ok(&["two-sided-plan", size, "--work", s(work), "-q"]);
    String::from_utf8(out.stdout).unwrap().trim().parse().unwrap()
}

fn worker(size: &str, work: &Path, shard: &str, extra: &[&str]) -> Command {
    let mut c = ours();
    c.args(["two-sided", size, "--work", s(work), "--shard", shard, "-j", "1"])
        .args(extra);
    c
}

fn spawn_quiet(mut c: Command) -> Child {
    c.arg("-q").stdout(Stdio::null()).spawn().unwrap()
}

fn assembled_md5(size: &str, work: &Path, out: &Path) -> String {
    common::assemble_sharded(size, work, out);
    let md5 = md5_hex(&std::fs::read(out).unwrap());
    // The assembly leaves no claim or temporary file behind.
    let left: Vec<String> = std::fs::read_dir(work)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "plan" && !n.ends_with(".part"))
        .collect();
    assert!(left.is_empty(), "left in the work directory: {left:?}");
    md5
}

#[test]
fn three_workers_together_build_makebearoffs_6x8_cubeful_and_cubeless() {
    for (flags, want) in [
        (&[][..], MAKEBEAROFF_6X8),
        (&["--no-cubeful"][..], MAKEBEAROFF_6X8_CUBELESS),
    ] {
        let dir = scratch("workers-6x8");
        let work = dir.join("work");
        let mut args = vec!["two-sided-plan", "6x8", "--work", s(&work), "-q"];
        args.extend_from_slice(flags);
        run_ok(&args);
        let children: Vec<Child> = ["2/3", "3/3", "1/3"]
            .iter()
            .map(|sh| spawn_quiet(worker("6x8", &work, sh, flags)))
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success());
        }
        assert_eq!(assembled_md5("6x8", &work, &dir.join("ts.bd")), want, "{flags:?}");
    }
}

#[test]
fn one_worker_of_three_alone_builds_every_shard() {
    let dir = scratch("workers-alone");
    let work = dir.join("work");
    plan("6x5", &work);
    let out = worker("6x5", &work, "2/3", &[]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    // 61 levels of 3 shards, all its own.
    assert!(err.contains("computed 183 parts"), "{err}");
    assert_eq!(assembled_md5("6x5", &work, &dir.join("ts.bd")), MD5_6X5);
    // Run again: everything is there, nothing is computed.
    let again = worker("6x5", &work, "1/3", &[]).output().unwrap();
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("computed 0 parts"));
}

#[test]
fn abandoned_claims_are_taken_over() {
    let dir = scratch("workers-claims");
    let work = dir.join("work");
    plan("6x5", &work);
    let host = fileio::identity::hostname();
    // A process of this host that has exited.
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let claims = [
        // Another host's live-looking worker: taken over after --stale-after.
        ("L003-001of002.claim", "far-away-node 12345 678 -\n".to_string()),
        // A dead process of this host: at once.
        ("L005-002of002.claim", format!("{host} {dead} 0 -\n")),
        // This task's own claim from before a requeue (same Slurm job id): at once.
        ("L007-001of002.claim", format!("{host} 1 1 slurm-4242\n")),
    ];
    for (name, text) in &claims {
        std::fs::write(work.join(name), text).unwrap();
    }
    let t = Instant::now();
    let out = worker("6x5", &work, "1/2", &["--stale-after", "1"])
        .env("SLURM_JOB_ID", "4242")
        .output()
        .unwrap();
    let took = t.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("took over 3 claims"), "{err}");
    assert!(
        err.contains("took over level 3 shard 1/2: 'far-away-node 12345 678 -' unchanged for 1 s"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "took over level 5 shard 2/2: process {dead} of this host"
        )),
        "{err}"
    );
    assert!(
        err.contains("took over level 7 shard 1/2: this worker's own claim (slurm-4242)"),
        "{err}"
    );
    // Only the foreign claim was waited for.
    assert!(took >= Duration::from_secs(1), "{took:?}");
    assert_eq!(assembled_md5("6x5", &work, &dir.join("ts.bd")), MD5_6X5);
}

#[test]
fn a_killed_worker_reruns_to_the_same_bytes() {
    let dir = scratch("workers-killed");
    let work = dir.join("work");
    let all = 2 * plan("6x6", &work);
    // Killed part of the way, with its claim (and perhaps a temporary part) left.
    let mut child = spawn_quiet(worker("6x6", &work, "1/2", &[]));
    let parts = |w: &Path| {
        std::fs::read_dir(w)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".part")
            })
            .count()
    };
    let t = Instant::now();
    while parts(&work) < 40 && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done = parts(&work);
    assert!((40..all).contains(&done), "killed after {done} of {all} parts");
    // What a kill while writing a part leaves.
    std::fs::write(
        work.join("L040-002of002.part.tmp4000000000-0"),
        b"bgkitTSP truncated",
    )
    .unwrap();
    // Two workers finish it; the dead one's claim is taken over at once.
    let a = spawn_quiet(worker("6x6", &work, "2/2", &[]));
    let b = spawn_quiet(worker("6x6", &work, "1/2", &[]));
    for mut c in [a, b] {
        assert!(c.wait().unwrap().success());
    }
    assert_eq!(assembled_md5("6x6", &work, &dir.join("ts.bd")), MD5_6X6);
}

#[test]
fn workers_refuse_another_split_and_bad_settings() {
    let dir = scratch("workers-refuse");
    let work = dir.join("work");
    plan("6x4", &work);
    run_ok(&[
        "two-sided",
        "6x4",
        "--work",
        s(&work),
        "--level",
        "0",
        "--shard",
        "1/2",
        "-q",
    ]);
    let err = run_err(&["two-sided", "6x4", "--work", s(&work), "--shard", "1/3", "-q"]);
    assert!(
        err.contains("level 0 already has parts of a split into 2 shards") && err.contains("--shard K/2"),
        "{err}"
    );
    let err = run_err(&[
        "two-sided",
        "6x4",
        "--work",
        s(&work),
        "--shard",
        "1/2",
        "--stale-after",
        "0",
    ]);
    assert!(
        err.contains("--stale-after must be a positive number of seconds"),
        "{err}"
    );
    let err = run_err(&["two-sided", "6x4", "--shard", "1/2", "-o", s(&dir.join("x.bd"))]);
    assert!(err.contains("--work"), "{err}");
}

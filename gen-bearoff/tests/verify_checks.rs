//! Issue 19: `verify` on a corrupt one-sided file lists the problems and exits 1;
//! `--full` recomputes every record; a `FILE.sha256` sidecar is written with each
//! database and checked; `dump --index` reports the index the user gave.

mod common;

use common::{file_names, ours, run_ok, scratch};

fn verify(args: &[&str]) -> (Option<i32>, String, String) {
    let out = ours().arg("verify").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn gen_bearoff_verify_on_a_corrupt_one_sided_file_exits_1_with_a_list() {
    let dir = scratch("verify-corrupt");
    let f = dir.join("os4.bd");
    let name = f.to_str().unwrap();
    run_ok(&["one-sided", "-p", "4", "-o", name, "--quiet"]);
    let good = std::fs::read(&f).unwrap();
    let (code, out, _) = verify(&[name, "-q"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(&format!("SHA-256 matches {name}.sha256")), "{out}");

    // Truncated: the size contradicts the index (caught when opening).
    std::fs::remove_file(dir.join("os4.bd.sha256")).unwrap();
    std::fs::write(&f, &good[..good.len() - 10]).unwrap();
    let (code, out, err) = verify(&[name, "-q"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.starts_with(&format!("{name}: 1 problem(s)\n  {name}: corrupt or truncated")),
        "{out}"
    );
    assert!(err.is_empty(), "{err}");

    // One record's bytes changed, sidecar gone: the full recomputation finds it.
    let mut bad = good.clone();
    let at = good.len() - 7;
    bad[at] ^= 0x40;
    std::fs::write(&f, &bad).unwrap();
    let (code, out, _) = verify(&[name, "-q", "--full"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("problem(s)"), "{out}");

    // Missing file: not checkable, exit 2.
    let (code, _, err) = verify(&[dir.join("none.bd").to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn gen_bearoff_verify_full_checks_every_record() {
    let dir = scratch("verify-full");
    let f = dir.join("os3.bd");
    let name = f.to_str().unwrap();
    run_ok(&["one-sided", "-p", "3", "-o", name, "--quiet"]);
    // 3 points, 15 checkers: C(18, 3) = 816 positions.
    let (code, out, _) = verify(&[name, "-q", "--full"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("816 records checked, 816 recomputed"), "{out}");
    let (_, out, _) = verify(&[name, "-q", "--samples", "5"]);
    assert!(!out.contains("816 recomputed"), "{out}");
}

#[test]
fn every_database_gets_a_sha256_sidecar_that_verify_checks() {
    let dir = scratch("verify-sidecar");
    let f = dir.join("ts.bd");
    let name = f.to_str().unwrap();
    run_ok(&["two-sided", "-p", "3", "-c", "3", "-o", name, "--quiet"]);
    assert_eq!(file_names(&dir), ["ts.bd", "ts.bd.sha256"]);
    let side = std::fs::read_to_string(dir.join("ts.bd.sha256")).unwrap();
    // The sha256sum format, with the hash of the file (checked by sha256sum if present).
    assert!(
        side.ends_with("  ts.bd\n") && side.len() == 64 + 2 + 5 + 1,
        "{side}"
    );
    let sum = std::process::Command::new("sha256sum").arg(&f).output();
    if let Ok(sum) = sum {
        let sum = String::from_utf8_lossy(&sum.stdout);
        assert_eq!(sum.split_whitespace().next(), side.split_whitespace().next());
    }
    assert!(gen_bearoff::reader::BearoffDb::open_checked(&f).is_ok());
    // A changed byte the structure checks cannot see is caught by the sidecar.
    let mut bytes = std::fs::read(&f).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&f, &bytes).unwrap();
    let (code, out, _) = verify(&[name, "-q"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("SHA-256") && out.contains("its sidecar"), "{out}");
    let e = gen_bearoff::reader::BearoffDb::open_checked(&f)
        .unwrap_err()
        .to_string();
    assert!(e.contains("its sidecar"), "{e}");
    assert!(
        gen_bearoff::reader::BearoffDb::open(&f).is_ok(),
        "open() does not hash"
    );
}

#[test]
fn dump_index_99999999999_reports_the_index_given() {
    let dir = scratch("dump-index");
    let f = dir.join("ts.bd");
    let name = f.to_str().unwrap();
    run_ok(&["two-sided", "-p", "3", "-c", "3", "-o", name, "--quiet"]);
    let out = ours()
        .args(["dump", name, "--index", "99999999999"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    // 3 points, 3 checkers: C(6, 3) = 20 positions per side, indices 0-399.
    assert!(
        err.contains("index 99999999999 is outside this database: indices are 0-399"),
        "{err}"
    );
    let out = ours().args(["dump", name, "--index", "399"]).output().unwrap();
    assert!(out.status.success());
}

/// The recomputation runs on `--threads` workers: a file with many corrupt records gives
/// the same report (problems, their order, counts) on 1, 2 and 3 threads.
#[test]
fn verify_reports_the_same_problems_on_any_number_of_threads() {
    let dir = scratch("verify-threads");
    for (name, args) in [
        ("os6.bd", vec!["one-sided", "-p", "6"]),
        ("ts4.bd", vec!["two-sided", "-p", "4", "-c", "4"]),
    ] {
        let f = dir.join(name);
        let path = f.to_str().unwrap();
        let mut gen = args.clone();
        gen.extend(["-o", path, "--quiet"]);
        run_ok(&gen);
        std::fs::remove_file(dir.join(format!("{name}.sha256"))).unwrap();
        // 40 bytes flipped, spread over the data (the header's 40 bytes kept).
        let mut bytes = std::fs::read(&f).unwrap();
        let len = bytes.len();
        for k in 0..40 {
            bytes[64 + (len - 64) * k / 40] ^= 0x21;
        }
        std::fs::write(&f, &bytes).unwrap();
        let outs: Vec<(Option<i32>, String)> = ["1", "2", "3"]
            .iter()
            .map(|j| {
                let (code, out, _) = verify(&[path, "-q", "--full", "--json", "-j", j]);
                (code, out)
            })
            .collect();
        assert_eq!(outs[0].0, Some(1), "{name}: {}", outs[0].1);
        assert!(
            outs[0].1.contains("\"problem_count\":") && !outs[0].1.contains("\"problem_count\": 0,"),
            "{name}: {}",
            outs[0].1
        );
        assert_eq!(outs[0], outs[1], "{name}: 1 and 2 threads");
        assert_eq!(outs[0], outs[2], "{name}: 1 and 3 threads");
    }
}

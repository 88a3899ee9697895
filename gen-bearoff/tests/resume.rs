//! Interrupted bearoff generation: two-sided runs with bucket files resume from their
//! state file to the same file an uninterrupted run writes; one-sided runs (short, all in
//! memory) simply start again, replacing what an interrupted run left.

mod common;

use common::{file_names, md5_hex, ours, run_err, run_ok, scratch};

#[test]
fn two_sided_runs_resume_from_their_last_level() {
    let dir = scratch("ts-resume");
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    // 6x5 in six bands (bucket files); the manual's MD5 for 6x5.
    let want = "0db19ab08feae1feb33ddbd709479f62";
    let base = ["two-sided", "-p", "6", "-c", "5", "-q", "--band-size", "300K"];
    // Interrupted early (window partly filled), late (full 24-level window), and at the
    // last level but one; resumed with a different band size, which the state overrides.
    for stop in ["3", "40", "59"] {
        let f = p("part.bd");
        let mut args = base.to_vec();
        args.extend(["-o", f.as_str(), "--stop-after-level", stop]);
        let err = run_err(&args);
        assert!(err.contains("--resume"), "{err}");
        let left = file_names(&dir);
        assert!(left.contains(&"part.bd.state".to_string()), "{left:?}");
        assert!(!left.contains(&"part.bd".to_string()), "{left:?}");
        // Not without --resume: the interrupted run is not thrown away silently.
        let mut again = base.to_vec();
        again.extend(["-o", f.as_str()]);
        assert!(run_err(&again).contains("part.bd.state"));
        // A different database cannot pick it up.
        let other = [
            "two-sided",
            "-p",
            "6",
            "-c",
            "4",
            "-q",
            "--band-size",
            "300K",
            "--resume",
            "-o",
            &f,
        ];
        assert!(run_err(&other).contains("interrupted run built 6x5"));
        // Issue 19: nor can a size small enough to be built in memory, which used to
        // ignore the stale state of another size.
        let small = ["two-sided", "-p", "3", "-c", "3", "-q", "--resume", "-o", &f];
        let err = run_err(&small);
        assert!(
            err.contains("interrupted run built 6x5") && err.contains("asks for 3x3"),
            "{err}"
        );
        let resume = [
            "two-sided",
            "-p",
            "6",
            "-c",
            "5",
            "-q",
            "--band-size",
            "200K",
            "--resume",
            "-o",
            &f,
        ];
        run_ok(&resume);
        assert_eq!(
            md5_hex(&std::fs::read(&f).unwrap()),
            want,
            "stopped after level {stop}"
        );
        assert_eq!(
            file_names(&dir),
            vec!["part.bd".to_string(), "part.bd.sha256".to_string()],
            "temporary files removed"
        );
        std::fs::remove_file(&f).unwrap();
        std::fs::remove_file(format!("{f}.sha256")).unwrap();
    }
    // A damaged state file is reported, naming it.
    let f = p("part.bd");
    let mut args = base.to_vec();
    args.extend(["-o", f.as_str(), "--stop-after-level", "10"]);
    run_err(&args);
    std::fs::write(p("part.bd.state"), "bgkit-two-sided-state 1\npoints x\n").unwrap();
    let mut resume = base.to_vec();
    resume.extend(["-o", f.as_str(), "--resume"]);
    let err = run_err(&resume);
    assert!(
        err.contains("part.bd.state") && err.contains("state file"),
        "{err}"
    );
    // A bucket shorter than the state says (lost data) cannot be resumed.
    std::fs::remove_file(p("part.bd.state")).unwrap();
    run_err(&args);
    let bucket = p("part.bd.bucket0");
    let len = std::fs::metadata(&bucket).unwrap().len();
    let cut = std::fs::OpenOptions::new().write(true).open(&bucket).unwrap();
    cut.set_len(len / 2).unwrap();
    let err = run_err(&resume);
    assert!(
        err.contains("part.bd.bucket0") && err.contains("cannot resume"),
        "{err}"
    );
}

#[test]
fn a_leftover_state_counts_also_when_the_rerun_fits_in_memory() {
    // Audit defect 2: an interrupted bucket run (8 MB is too little for 6x6 in memory),
    // then a rerun with the default limit, small enough to keep everything in memory,
    // used to ignore the state and strand the bucket files.
    let dir = scratch("ts-resume-in-memory");
    let f = dir.join("m8.bd");
    let name = f.to_str().unwrap();
    let err = run_err(&[
        "two-sided",
        "6x6",
        "--memory-limit",
        "8M",
        "--stop-after-level",
        "40",
        "-j1",
        "-q",
        "-o",
        name,
    ]);
    assert!(err.contains("--resume"), "{err}");
    let left = vec!["m8.bd.bucket0".to_string(), "m8.bd.state".to_string()];
    assert_eq!(file_names(&dir), left);
    // Without --resume: the same error as in bucket mode, nothing touched.
    let err = run_err(&["two-sided", "6x6", "-j1", "-q", "-o", name]);
    assert_eq!(
        err,
        format!(
            "gen-bearoff: {} is left from an interrupted run: pass --resume to continue it, or delete it and the bucket files next to it\n",
            dir.join("m8.bd.state").display()
        )
    );
    assert_eq!(file_names(&dir), left);
    // With --resume: continued in bucket mode to the manual's 6x6 file, no scratch left.
    run_ok(&["two-sided", "6x6", "-j1", "-q", "--resume", "-o", name]);
    assert_eq!(
        md5_hex(&std::fs::read(&f).unwrap()),
        "44b6040b49b46cb9dd2ce8caa947044d"
    );
    assert_eq!(
        file_names(&dir),
        vec!["m8.bd".to_string(), "m8.bd.sha256".to_string()]
    );
}

#[test]
fn one_sided_reruns_replace_leftovers() {
    let dir = scratch("os-rerun");
    let f = dir.join("os5.bd");
    // What a killed run leaves: a half-written temporary file.
    std::fs::write(dir.join("os5.bd.partial"), b"garbage from a killed run").unwrap();
    let out = ours()
        .args(["one-sided", "-p", "5", "-q", "-o"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        md5_hex(&std::fs::read(&f).unwrap()),
        "2064f9a56b23117d053a573c96a92fa2"
    );
    assert_eq!(
        file_names(&dir),
        vec!["os5.bd".to_string(), "os5.bd.sha256".to_string()]
    );
}

//! What the command says about bad flags and damaged inputs: one line `datasets: …`,
//! exit status 2, naming the flag and the value as the user typed it.

mod common;

use common::{datasets, s};

/// Requires `args` to fail with status 2 and one line of stderr containing every
/// `needle`; returns the line.
fn refused(args: &[&str], needles: &[&str]) -> String {
    let out = datasets(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("datasets: "), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for needle in needles {
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    err
}

#[test]
fn flags_out_of_range_are_named_with_the_value_as_typed() {
    let dir = common::scratch("messages-flags");
    let input = dir.join("p.csv");
    std::fs::write(&input, "position_id\n4HPwATDgc/ABMA\n").unwrap();
    let out = dir.join("o.csv");
    let bench = |extra: &[&str]| -> Vec<String> {
        let mut a = vec!["benchmark", "build", "--input", s(&input), "-o", s(&out)];
        a.extend_from_slice(extra);
        a.iter().map(|x| x.to_string()).collect()
    };
    let run = |a: Vec<String>, needles: &[&str]| {
        refused(&a.iter().map(String::as_str).collect::<Vec<_>>(), needles)
    };
    run(
        bench(&["--max-positions", "0"]),
        &["invalid value '0' for '--max-positions <N>': must be at least 1"],
    );
    run(
        bench(&["--trials", "0"]),
        &["'--trials <TRIALS>': 0 is not in 1..=4294967295"],
    );
    // Checked before anything is read, with the flag's name.
    let e = run(bench(&["--classes", "foo"]), &[]);
    assert!(
        e.starts_with("datasets: --classes: unknown class 'foo' (use contact, crashed, race"),
        "{e}"
    );
    for trials in ["-1", "0"] {
        refused(
            &["rollout", "--input", s(&input), "-o", s(&out), "--trials", trials],
            &[&format!("'--trials <TRIALS>': {trials} is not in 1..=4294967295")],
        );
    }
    let sample = |flag: &str, value: &str, says: &str| {
        let e = refused(&["sample", "--games", "1", "-o", s(&out), flag, value], &[says]);
        assert!(!e.contains("inf") && e.len() < 200, "{e}");
    };
    sample(
        "--noise",
        "1e300",
        "invalid value '1e300' for '--noise <NOISE>': must be a non-negative number no larger than 3.4028235e38",
    );
    sample(
        "--noise",
        "-0.5",
        "invalid value '-0.5' for '--noise <NOISE>': must be a non-negative number",
    );
    sample(
        "--threshold",
        "1e39",
        "invalid value '1e39' for '--threshold <THRESHOLD>': must be a non-negative number",
    );
    sample(
        "--epsilon",
        "1e300",
        "invalid value '1e300' for '--epsilon <EPSILON>': must be a number between 0 and 1",
    );
    assert!(!out.exists());
}

#[test]
fn minutes_too_long_are_shown_short() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("messages-minutes");
    let out = dir.join("o.csv");
    refused(
        &["sample", "--games", "1", "-o", s(&out), "--minutes", "1e300"],
        &["--minutes 1e300 is longer than a thousand years (the most it accepts is 525960000 minutes)"],
    );
}

#[test]
fn a_csv_with_some_target_columns_is_refused_by_every_command_naming_the_missing_ones() {
    let dir = common::scratch("messages-targets");
    let input = dir.join("pw.csv");
    std::fs::write(&input, "position_id,win\n4HPwATDgc/ABMA,0.5\n").unwrap();
    let says = format!(
        "datasets: {}:1: the header has 1 of the 5 target columns; missing: win_g, win_bg, lose_g, lose_bg\n",
        input.display()
    );
    let out = dir.join("o.csv");
    let bgds = dir.join("o.bgds");
    let mut runs = vec![vec!["stats", s(&input)], vec!["convert", s(&input), s(&bgds)]];
    if common::have(&[common::WD, common::OS, common::TS]) {
        runs.push(vec![
            "rollout",
            "--input",
            s(&input),
            "-o",
            s(&out),
            "--trials",
            "2",
            "--quiet",
        ]);
        runs.push(vec!["label", "--input", s(&input), "-o", s(&out), "--quiet"]);
    }
    for args in runs {
        assert_eq!(refused(&args, &[]), says, "{args:?}");
    }
    assert!(!out.exists() && !bgds.exists());
    assert_eq!(test_support::dir_names(&dir), ["pw.csv"]);
}

#[test]
fn a_binary_dataset_cut_inside_its_header_is_called_truncated() {
    let dir = common::scratch("messages-bgds");
    let csv = dir.join("d.csv");
    std::fs::write(
        &csv,
        "position_id,win,win_g,win_bg,lose_g,lose_bg\n4HPwATDgc/ABMA,0.5,0.1,0,0.1,0\n",
    )
    .unwrap();
    let bgds = dir.join("d.bgds");
    common::ok(&["convert", s(&csv), s(&bgds), "--quiet"]);
    let bytes = std::fs::read(&bgds).unwrap();
    let cut = dir.join("cut.bgds");
    std::fs::write(&cut, &bytes[..30]).unwrap();
    for args in [
        vec!["stats", s(&cut)],
        vec!["convert", s(&cut), s(&csv), "--force"],
    ] {
        assert_eq!(
            refused(&args, &[]),
            format!(
                "datasets: {}: truncated bgkit binary dataset: 30 bytes, shorter than its 64-byte header\n",
                cut.display()
            )
        );
    }
}

#[test]
fn label_over_a_rollouts_partial_results_names_both_kinds_of_job() {
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let dir = common::scratch("messages-kinds");
    let input = dir.join("p.csv");
    std::fs::write(&input, "position_id\n4HPwATDgc/ABMA\n4HPwATDgc/ABMA\n").unwrap();
    let out = dir.join("o.csv");
    // A rollout's partial results, as an interrupted `datasets rollout` leaves them.
    let positions = datasets::job::read_positions(&input).unwrap();
    let rollout = serde_json::json!({
        "settings": {"trials": 36},
        "input_rows": 2,
        "input_digest": datasets::job::positions_digest(&positions),
    });
    drop(datasets::journal::RolloutJournal::open(&out, &rollout, &positions, false).unwrap());
    let (partial, meta) = datasets::journal::partial_paths(&out);
    refused(
        &["label", "--input", s(&input), "-o", s(&out), "--quiet"],
        &[&format!(
            "datasets: {} holds a rollout's results, not a label job's; delete it and {}, pass --fresh",
            partial.display(),
            meta.display()
        )],
    );
}

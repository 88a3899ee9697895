//! Issue 19: `verify --json` and `dump --json`: the output parses (with Python's json
//! module, not our printer), has the documented fields, and its values agree with an
//! independent computation (binomial counts, sums and means of the distributions) and
//! with the text output; exit codes are those of the text mode.

mod common;

use std::collections::BTreeMap;

use common::{ours, parse_json, run_ok, scratch};

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = ours().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn num(j: &BTreeMap<String, String>, key: &str) -> f64 {
    j.get(key)
        .unwrap_or_else(|| panic!("no {key} in {j:?}"))
        .parse()
        .unwrap_or_else(|_| panic!("{key} is not a number: {j:?}"))
}

fn binomial(n: u64, k: u64) -> u64 {
    (1..=k).fold(1, |acc, i| acc * (n + 1 - i) / i)
}

const VERIFY_FIELDS: [&str; 13] = [
    "file",
    "kind",
    "records",
    "checked",
    "recomputed",
    "mode",
    "samples",
    "seed",
    "sidecar",
    "problem_count",
    "problems",
    "notes",
    "ok",
];

#[test]
fn verify_json_reports_counts_sidecar_and_problems_with_the_text_modes_exit_codes() {
    let dir = scratch("json-verify");
    let f = dir.join("os3.bd");
    let name = f.to_str().unwrap();
    run_ok(&["one-sided", "-p", "3", "-o", name, "-q"]);
    // 15 checkers on 3 points: C(18, 3) positions.
    let positions = binomial(18, 3);
    let (code, out, _) = run(&["verify", name, "-q", "--full", "--json"]);
    assert_eq!(code, Some(0), "{out}");
    let j = parse_json(&out);
    for f in VERIFY_FIELDS {
        assert!(j.contains_key(f), "{f} missing: {out}");
    }
    assert_eq!(j[""], VERIFY_FIELDS.len().to_string(), "{out}");
    assert_eq!(j["file"], format!("\"{name}\""));
    assert_eq!(num(&j, "records"), positions as f64);
    assert_eq!(num(&j, "checked"), positions as f64);
    assert_eq!(num(&j, "recomputed"), positions as f64);
    assert_eq!(j["mode"], "\"full\"");
    assert_eq!(j["samples"], "null");
    assert_eq!(j["sidecar"], "\"matches\"");
    assert_eq!(
        (
            j["ok"].as_str(),
            j["problem_count"].as_str(),
            j["problems"].as_str()
        ),
        ("true", "0", "0")
    );

    // A sample: at most the sample plus the first and last eight.
    let (code, out, _) = run(&["verify", name, "-q", "--samples", "5", "--seed", "3", "--json"]);
    assert_eq!(code, Some(0));
    let j = parse_json(&out);
    assert_eq!(
        (j["mode"].as_str(), j["samples"].as_str(), j["seed"].as_str()),
        ("\"sampled\"", "5", "3")
    );
    assert!(
        num(&j, "recomputed") <= 21.0 && num(&j, "recomputed") >= 16.0,
        "{out}"
    );

    // A changed byte: the sidecar mismatch is the one problem, exit 1.
    let good = std::fs::read(&f).unwrap();
    let mut bad = good.clone();
    let at = good.len() - 7;
    bad[at] ^= 0x40;
    std::fs::write(&f, &bad).unwrap();
    let (code, out, _) = run(&["verify", name, "-q", "--json"]);
    assert_eq!(code, Some(1), "{out}");
    let j = parse_json(&out);
    assert_eq!(
        (j["sidecar"].as_str(), j["ok"].as_str()),
        ("\"mismatch\"", "false")
    );
    assert_eq!(
        (
            j["problem_count"].as_str(),
            j["problems"].as_str(),
            j["kind"].as_str()
        ),
        ("1", "1", "null")
    );
    assert!(j["problems.0"].contains("SHA-256"), "{out}");

    // Without the sidecar the full recomputation finds the changed record.
    std::fs::remove_file(dir.join("os3.bd.sha256")).unwrap();
    let (code, out, _) = run(&["verify", name, "-q", "--full", "--json"]);
    assert_eq!(code, Some(1), "{out}");
    let j = parse_json(&out);
    assert_eq!((j["sidecar"].as_str(), j["ok"].as_str()), ("\"absent\"", "false"));
    assert!(
        num(&j, "problem_count") >= 1.0 && num(&j, "problems") >= 1.0,
        "{out}"
    );
    assert_eq!(num(&j, "checked"), positions as f64);

    // Not checkable at all: exit 2, one error on stderr, nothing on stdout.
    let (code, out, err) = run(&["verify", "/no/such/db.bd", "--json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty() && err.starts_with("gen-bearoff: "), "{out}{err}");
}

#[test]
fn verify_json_of_a_hypergammon_file_carries_its_notes() {
    let dir = scratch("json-verify-hyper");
    let f = dir.join("h1.bd");
    let name = f.to_str().unwrap();
    run_ok(&["hyper", "-c", "1", "--no-checkpoint", "-q", "-o", name]);
    let (code, out, _) = run(&["verify", name, "-q", "--json"]);
    assert_eq!(code, Some(0), "{out}");
    let j = parse_json(&out);
    assert_eq!(j["kind"], "\"hypergammon, 1 checkers\"");
    // One checker each on 25 points (or off): 26 x 26 records, as the text says.
    assert_eq!(num(&j, "records"), 26.0 * 26.0);
    let (_, text, _) = run(&["verify", name, "-q"]);
    let notes: Vec<&str> = text.lines().skip(2).map(str::trim).collect();
    assert_eq!(num(&j, "notes"), notes.len() as f64, "{text}");
    for (k, n) in notes.iter().enumerate() {
        assert_eq!(j[&format!("notes.{k}")], format!("\"{n}\""));
    }
}

/// The numbers of a text dump line after its label, e.g. "Mean\t  1.892\t..." -> [1.892].
fn numbers_after(text: &str, label: &str) -> Vec<f64> {
    let line = text
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label} in {text}"));
    line[label.len()..]
        .split(['\t', ' ', ':'])
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn dump_json_holds_the_values_the_text_dump_prints() {
    let dir = scratch("json-dump");
    let os = dir.join("os4.bd");
    let ts = dir.join("ts3.bd");
    let (os, ts) = (os.to_str().unwrap(), ts.to_str().unwrap());
    run_ok(&["one-sided", "-p", "4", "-o", os, "-q"]);
    run_ok(&["two-sided", "-p", "3", "-c", "3", "-o", ts, "-q"]);

    // One-sided: 3876 positions per side; index 40 + 3876 * 57.
    let index = (57 * 3876 + 40).to_string();
    let text = String::from_utf8(run_ok(&["dump", os, "-n", &index]).stdout).unwrap();
    let j = parse_json(&String::from_utf8(run_ok(&["dump", os, "-n", &index, "--json"]).stdout).unwrap());
    assert_eq!(j["index"], index);
    assert_eq!(
        (j["player.index"].as_str(), j["opponent.index"].as_str()),
        ("57", "40")
    );
    let id = text
        .lines()
        .find_map(|l| l.split("Position ID: ").nth(1))
        .unwrap();
    assert_eq!(j["position_id"], format!("\"{}\"", id.trim()));
    for side in ["player", "opponent"] {
        let p: Vec<f64> = (0..32).map(|k| num(&j, &format!("{side}.bearoff.{k}"))).collect();
        // A distribution: sums to 1; its mean is the stored mean (gnubg's f32 sums).
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-5, "{p:?}");
        let mean: f64 = p.iter().enumerate().map(|(k, x)| k as f64 * x).sum();
        assert!((mean - num(&j, &format!("{side}.mean"))).abs() < 1e-4);
        assert_eq!(j[&format!("{side}.gammon")], "32");
        // EPC = mean x 294/36; wastage = EPC - pips.
        let epc = num(&j, &format!("{side}.epc"));
        assert!((epc - mean * 294.0 / 36.0).abs() < 1e-3);
        let pips = num(&j, &format!("{side}.pips"));
        assert!((num(&j, &format!("{side}.wastage")) - (epc - pips)).abs() < 1e-3);
    }
    // The text's rounded figures.
    let means = numbers_after(&text, "Mean");
    let sds = numbers_after(&text, "Std dev");
    let epcs = numbers_after(&text, "EPC\t");
    for (k, side) in ["player", "opponent"].iter().enumerate() {
        for (figures, key) in [(&means, "mean"), (&sds, "std_dev"), (&epcs, "epc")] {
            assert!(
                (figures[k] - num(&j, &format!("{side}.{key}"))).abs() <= 5e-4,
                "{side}.{key}"
            );
        }
        assert!((means[2 + k] - num(&j, &format!("{side}.gammon_mean"))).abs() <= 5e-4);
    }

    // Two-sided: the four equities as the text prints them, by index and by Position ID.
    let text = String::from_utf8(run_ok(&["dump", ts, "-n", "130"]).stdout).unwrap();
    let out = String::from_utf8(run_ok(&["dump", ts, "-n", "130", "--json"]).stdout).unwrap();
    let j = parse_json(&out);
    for (label, key) in [
        ("Cubeless equity", "cubeless"),
        ("Owned cube", "owned"),
        ("Centered cube", "centred"),
        ("Opponent owns cube", "opponent_owns"),
    ] {
        let shown = numbers_after(&text, label)[0];
        assert!((shown - num(&j, key)).abs() <= 5e-5, "{key}: {shown} vs {out}");
    }
    let id = j["position_id"].trim_matches('"').to_string();
    let by_id = parse_json(&String::from_utf8(run_ok(&["dump", ts, "-p", &id, "--json"]).stdout).unwrap());
    assert_eq!(by_id, j);

    // An index outside the database: exit 2, nothing on stdout.
    let (code, out, err) = run(&["dump", ts, "-n", "99999999999", "--json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty() && err.contains("index 99999999999"), "{out}{err}");
}

#[test]
fn dump_json_of_a_hypergammon_record_agrees_with_its_probabilities_and_the_text() {
    let dir = scratch("json-dump-hyper");
    let f = dir.join("h1.bd");
    let name = f.to_str().unwrap();
    run_ok(&["hyper", "-c", "1", "--no-checkpoint", "-q", "-o", name]);
    // 26 positions per side: index 290 = player 11, opponent 4.
    let text = String::from_utf8(run_ok(&["dump", name, "-n", "290"]).stdout).unwrap();
    let out = String::from_utf8(run_ok(&["dump", name, "-n", "290", "--json"]).stdout).unwrap();
    let j = parse_json(&out);
    assert_eq!(j[""], "12", "{out}");
    assert_eq!(
        (j["index"].as_str(), j["player"].as_str(), j["opponent"].as_str()),
        ("290", "11", "4")
    );
    assert_eq!(j["probabilities"], "5");
    let p: Vec<f64> = (0..5).map(|k| num(&j, &format!("probabilities.{k}"))).collect();
    // The stored 24-bit values, read from the file's bytes here (record 290 after the
    // 40-byte header, 28 bytes each), are the probabilities.
    let bytes = std::fs::read(&f).unwrap();
    let rec = &bytes[40 + 28 * 290..40 + 28 * 291];
    for (k, got) in p.iter().enumerate() {
        let u = u32::from(rec[3 * k]) | (u32::from(rec[3 * k + 1]) << 8) | (u32::from(rec[3 * k + 2]) << 16);
        assert!((got - f64::from(u) / 16_777_215.0).abs() <= 1e-12, "{k}: {p:?}");
    }
    // Cubeless money equity from the probabilities (a second computation, in f64).
    let e = 2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4];
    assert!((num(&j, "cubeless") - e).abs() < 1e-6, "{e} vs {out}");
    assert!(p[0] > 0.0 && p[3] > 0.0, "{out}");
    for (label, key) in [
        ("Owned cube", "owned"),
        ("Centered cube (Jacoby rule)", "centred_jacoby"),
        ("Centered cube  ", "centred"),
        ("Opponent owns cube", "opponent_owns"),
    ] {
        let shown = numbers_after(&text, label)[0];
        assert!((shown - num(&j, key)).abs() <= 5e-5, "{key}: {shown} vs {out}");
    }
}

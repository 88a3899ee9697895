//! `trainer curve` (issue 17): a curve CSV drawn as a PNG over games or minutes; an
//! existing output, a missing input and an empty curve are one clear error each.

use std::path::Path;

use test_support::cli::*;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_trainer");

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The 50-minute TD run's curve, committed with the README.
fn td_curve() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results/td-50min-curve.csv")
}

#[test]
fn a_curve_is_drawn_over_games_and_over_minutes() {
    let dir = Scratch::new("trainer", "curve-draw");
    let input = td_curve();
    for x in ["games", "minutes"] {
        let png = dir.join(format!("{x}.png"));
        let r = run(BIN, &["curve", "--input", s(&input), "-o", s(&png), "--x", x]);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
    // The two axes place the points differently: different pictures.
    assert_ne!(
        std::fs::read(dir.join("games.png")).unwrap(),
        std::fs::read(dir.join("minutes.png")).unwrap()
    );
    assert_eq!(test_support::dir_names(&dir).len(), 2, "no temporary file left");
}

#[test]
fn bad_curve_inputs_and_outputs_are_one_error() {
    let dir = Scratch::new("trainer", "curve-errors");
    let png = dir.join("precious.png");
    std::fs::write(&png, "precious").unwrap();
    let input = td_curve();
    let args = ["curve", "--input", s(&input), "-o", s(&png)];
    case_existing_output("trainer", BIN, &args, &png, "exists");
    let out = dir.join("out.png");
    case_missing_input(
        "trainer",
        BIN,
        &["curve", "--input", "/no/curve.csv", "-o", s(&out)],
        "/no/curve.csv",
    );
    let empty = dir.join("empty.csv");
    std::fs::write(
        &empty,
        "games,elapsed_s,games_per_s,alpha,bench_games,ppg,se,win_rate,gammon_rate,gammon_loss_rate\n",
    )
    .unwrap();
    let r = run(BIN, &["curve", "--input", s(&empty), "-o", s(&out)]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.starts_with("trainer: ") && r.stderr.contains("no rows"),
        "{}",
        r.stderr
    );
    assert!(!out.exists());
    // A folder that does not exist: named before anything is drawn.
    let nowhere = dir.join("no-such-dir/out.png");
    let r = run(BIN, &["curve", "--input", s(&input), "-o", s(&nowhere)]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.starts_with("trainer: ")
            && r.stderr.contains("no-such-dir does not exist")
            && !r.stderr.contains("backend"),
        "{}",
        r.stderr
    );
}

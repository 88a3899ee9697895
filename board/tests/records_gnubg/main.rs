//! Game records checked against GNU Backgammon 1.07 as the oracle.
//!
//! Matches are played with random legal moves from seeded dice (plus random cube
//! actions and resignations), written as SGF and `.mat`, and gnubg loads them
//! (`load match`, `import mat`) in one run of its Python mode. gnubg's view of every
//! action (the board before it as a Position ID, the dice, the checker movements, the
//! cube action), every game's result and the final position and Match ID must equal
//! bgkit's replay. gnubg then exports what it loaded (`export match mat`,
//! `save match`) and plays a match of its own; bgkit's readers must read those files
//! back to the same games, and bgkit's `.mat` writer must match gnubg's export byte for
//! byte.
//!
//! Without `/usr/games/gnubg` the tests print a notice and pass, unless
//! `BGKIT_REQUIRE_GNUBG=1` (as in CI), when they fail.

mod games;
mod gnubg_keeps;
mod oracle;
mod xg_style;

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use board::records::{read_mat, read_sgf, write_mat, write_sgf};
use board::MatchState;

use games::{coverage, test_matches};
use gnubg_keeps::{as_gnubg_keeps_it, mat_deviations, mat_differences, without_rule_tags};
use oracle::{compare, decode_match_id, run_gnubg};
use test_support::{have, GNUBG};
use xg_style::{play_outline, xg_style};

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bgkit-records-{test}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn records_test_matches_cover_every_kind_of_action() {
    let c = coverage(&test_matches());
    eprintln!("{c:?}");
    for k in [
        "crawford game",
        "resigned",
        "dropped",
        "gammon or backgammon",
        "single game",
        "dance",
        "bar entry",
        "hit",
        "bear-off",
        "double",
        "take",
        "drop",
        "beaver",
        "resignation declined",
        "resignation accepted",
        "dropped beaver",
        "resignation facing a double",
    ] {
        assert!(
            c.get(k).is_some_and(|&n| n > 0),
            "no '{k}' in the test matches: {c:?}"
        );
    }
}

#[test]
fn records_test_match_id_decoder_agrees_with_match_state() {
    for id in ["QYkqASAAIAAA", "cIkmAQAAAAAE", "MIEFAAAAAAAA", "cAkLAAAAAAAE"] {
        let want = MatchState::from_id(id).unwrap();
        let got = decode_match_id(id);
        assert_eq!(1 << got.log_cube, want.cube, "{id}");
        assert_eq!(got.on_roll, usize::from(want.on_roll), "{id}");
        assert_eq!(got.match_length, want.match_length, "{id}");
        assert_eq!(got.score, want.score, "{id}");
    }
}

#[test]
fn records_written_by_bgkit_replay_identically_in_gnubg() {
    if !have(&[GNUBG]) {
        return;
    }
    let dir = scratch("replay");
    let matches = test_matches();
    let mut jobs = String::new();
    let mut files = Vec::new();
    for (i, m) in matches.iter().enumerate() {
        let sgf = dir.join(format!("m{i}.sgf"));
        let mat = dir.join(format!("m{i}.mat"));
        fs::write(&sgf, write_sgf(m).unwrap()).unwrap();
        fs::write(&mat, write_mat(m).unwrap()).unwrap();
        let _ = writeln!(jobs, "sgf\t{}", sgf.display());
        files.push((sgf, m));
        let _ = writeln!(jobs, "mat\t{}", mat.display());
        files.push((mat, m));
        // The same match as XG might write it, read by gnubg's import and by ours.
        let xg = dir.join(format!("m{i}-xg.mat"));
        let xg_text = xg_style(&write_mat(m).unwrap(), i == 1);
        fs::write(&xg, &xg_text).unwrap();
        let ours = read_mat(&xg_text, "xg.mat").unwrap_or_else(|e| panic!("m{i}-xg.mat: {e}"));
        assert_eq!(
            play_outline(&ours),
            play_outline(&as_gnubg_keeps_it(m)),
            "m{i}-xg.mat: our reader plays it differently"
        );
        if i == 1 {
            assert_eq!(
                ours.info.ratings,
                [Some("1612.5".to_string()), Some("1500".to_string())]
            );
        }
        let _ = writeln!(jobs, "mat\t{}", xg.display());
        files.push((xg, m));
    }
    let dumps = run_gnubg(&dir, &jobs);
    let mut actions = 0;
    let mut games = 0;
    for (path, m) in &files {
        let replays = m.validate().unwrap();
        let key = path.display().to_string();
        let g = dumps
            .get(&key)
            .unwrap_or_else(|| panic!("no gnubg dump for {key}"));
        actions += compare(&key, m, &replays, g);
        games += m.games.len();
    }
    eprintln!(
        "gnubg agreed on {games} games, {actions} actions in {} files",
        files.len()
    );
    assert!(
        games >= 40 && actions > 5000,
        "too little compared: {games} games, {actions} actions"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn records_exported_by_gnubg_read_back_identically() {
    if !have(&[GNUBG]) {
        return;
    }
    let dir = scratch("export");
    let matches = test_matches();
    let mut jobs = String::new();
    for (i, m) in matches.iter().enumerate() {
        let sgf = dir.join(format!("m{i}.sgf"));
        fs::write(&sgf, write_sgf(m).unwrap()).unwrap();
        let _ = writeln!(
            jobs,
            "sgf\t{}\texport match mat {}\tsave match {}",
            sgf.display(),
            dir.join(format!("g{i}.mat")).display(),
            dir.join(format!("g{i}.sgf")).display()
        );
    }
    // A match gnubg plays itself (0-ply, so it is quick), saved with its analysis.
    let played: Vec<(u32, &str, String)> = vec![
        (5, "standard", "set variation standard".to_string()),
        (3, "nackgammon", "set variation nackgammon".to_string()),
    ];
    for (length, name, variation) in &played {
        let sgf = dir.join(format!("played-{name}.sgf"));
        let mat = dir.join(format!("played-{name}.mat"));
        let mut cmds = vec![
            variation.clone(),
            "set player 0 gnubg".into(),
            "set player 1 gnubg".into(),
            "set player 0 name gnubg-a".into(),
            "set player 1 name gnubg-b".into(),
        ];
        for p in 0..2 {
            cmds.push(format!("set player {p} chequerplay evaluation plies 0"));
            cmds.push(format!("set player {p} cubedecision evaluation plies 0"));
        }
        cmds.extend([
            format!("set seed {length}"),
            format!("set matchlength {length}"),
            "new match".into(),
            format!("save match {}", sgf.display()),
            format!("export match mat {}", mat.display()),
        ]);
        let _ = writeln!(jobs, "play\t-\t{}", cmds.join("\t"));
        let _ = writeln!(jobs, "sgf\t{}", sgf.display());
    }
    let dumps = run_gnubg(&dir, &jobs);

    // 1. gnubg's exports of our matches read back to the same matches, and its .mat
    //    export is byte for byte bgkit's.
    let mut same_bytes = 0;
    for (i, m) in matches.iter().enumerate() {
        let want = as_gnubg_keeps_it(m);
        let g_sgf = fs::read_to_string(dir.join(format!("g{i}.sgf"))).unwrap();
        let mut got = read_sgf(&g_sgf, &format!("g{i}.sgf")).unwrap();
        assert_eq!(got.len(), 1, "g{i}.sgf: one match");
        let mut got = got.remove(0);
        if want.info.date.is_none() {
            got.info.date = None;
        }
        assert_eq!(
            got, want,
            "g{i}.sgf (gnubg's save of m{i}.sgf) reads back differently"
        );

        let g_mat = fs::read_to_string(dir.join(format!("g{i}.mat"))).unwrap();
        let mut got = read_mat(&g_mat, &format!("g{i}.mat")).unwrap();
        let mut want_mat = want.clone();
        if want.match_length == 0 {
            // gnubg's .mat has no Jacoby or beaver tags.
            want_mat.rules.jacoby = false;
        }
        if want.info.date.is_none() {
            got.info.date = None;
        }
        want_mat.rules.cube = got.rules.cube;
        assert_eq!(
            got, want_mat,
            "g{i}.mat (gnubg's export of m{i}.sgf) reads back differently"
        );

        let ours = without_rule_tags(&write_mat(m).unwrap());
        let gnubg = without_rule_tags(&g_mat);
        let deviations = mat_differences(&format!("g{i}.mat"), &gnubg, &ours);
        assert_eq!(
            deviations,
            mat_deviations(m),
            "g{i}.mat: unexplained differences from gnubg's export"
        );
        if deviations == 0 {
            same_bytes += 1;
        }
    }
    assert!(
        same_bytes + 1 >= matches.len(),
        "only {same_bytes} of {} .mat files are byte for byte gnubg's",
        matches.len()
    );

    // 2. Matches gnubg played and saved (with its analysis properties) read back to the
    //    games gnubg itself loads from them, in both formats.
    let mut games = 0;
    for (_, name, _) in &played {
        let sgf_path = dir.join(format!("played-{name}.sgf"));
        let sgf = fs::read_to_string(&sgf_path).unwrap();
        assert!(
            sgf.contains("A["),
            "gnubg's save has no analysis properties to skip"
        );
        let from_sgf = read_sgf(&sgf, "played.sgf").unwrap();
        assert_eq!(from_sgf.len(), 1);
        let from_sgf = &from_sgf[0];
        let mat = fs::read_to_string(dir.join(format!("played-{name}.mat"))).unwrap();
        let mut from_mat = read_mat(&mat, "played.mat").unwrap();
        from_mat.info.date = from_sgf.info.date;
        assert_eq!(
            &from_mat, from_sgf,
            "played-{name}: the .mat and SGF read differently"
        );
        let key = sgf_path.display().to_string();
        compare(&key, from_sgf, &from_sgf.validate().unwrap(), &dumps[&key]);
        games += from_sgf.games.len();
    }
    eprintln!(
        "read back {} gnubg exports; {same_bytes} .mat byte-identical; {games} gnubg-played games",
        matches.len()
    );
    let _ = fs::remove_dir_all(&dir);
}

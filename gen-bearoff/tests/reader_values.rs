//! Reader values against independent, hand-computable facts and the published examples.

mod common;

use board::Position;
use common::{run_ok, scratch};
use gen_bearoff::{BearoffDb, OneSidedDb, TwoSidedDb};

/// Exact expected number of rolls to bear off `n` checkers from the ace point: each roll
/// removes two checkers, four with a double (probability 1/6). As a fraction p/q.
fn ace_point_expectation(n: usize) -> (u128, u128) {
    // E(n) = 1 + 1/6 E(n-4) + 5/6 E(n-2), E(k <= 0) = 0; denominators are powers of 6.
    let mut e: Vec<(u128, u128)> = vec![(0, 1); n + 1];
    let get = |e: &Vec<(u128, u128)>, k: isize| if k <= 0 { (0, 1) } else { e[k as usize] };
    for k in 1..=n {
        let (a, b) = get(&e, k as isize - 4);
        let (c, d) = get(&e, k as isize - 2);
        // 1 + a/(6b) + 5c/(6d)
        let den = 6 * b * d;
        let num = den + a * d + 5 * c * b;
        let g = gcd(num, den);
        e[k] = (num / g, den / g);
    }
    e[n]
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn one_sided_6x15() -> (test_support::Scratch, OneSidedDb) {
    let dir = scratch("reader-os");
    let f = dir.join("os6.bd");
    run_ok(&["one-sided", "-p", "6", "-o", f.to_str().unwrap(), "-q"]);
    let db = OneSidedDb::open(&f).unwrap();
    (dir, db)
}

#[test]
fn one_checker_on_the_six_point_bears_off_in_one_roll_27_times_in_36() {
    let (_dir, db) = one_sided_6x15();
    let i = db.index_of(&[0, 0, 0, 0, 0, 1]).unwrap();
    assert_eq!(i, 6);
    let d = db.distribution(i).unwrap();
    assert!(
        (d.probability(1) - 27.0 / 36.0).abs() <= 1.0 / 65535.0,
        "{}",
        d.probability(1)
    );
    assert!((d.probability(2) - 9.0 / 36.0).abs() <= 1.0 / 65535.0);
    assert_eq!(d.probability(3), 0.0);
    // One checker on the ace point: always one roll.
    assert_eq!(db.distribution(1).unwrap().bearoff[1], 65535);
    // Nothing left: zero rolls.
    assert_eq!(db.distribution(0).unwrap().bearoff[0], 65535);
}

#[test]
fn fifteen_checkers_on_the_ace_point_need_1953839_over_279936_rolls() {
    assert_eq!(ace_point_expectation(15), (1_953_839, 279_936));
    let (_dir, db) = one_sided_6x15();
    let i = db.index_of(&[15, 0, 0, 0, 0, 0]).unwrap();
    assert_eq!(i, 38760);
    let d = db.distribution(i).unwrap();
    let exact = 1_953_839.0 / 279_936.0;
    // 32 stored values, each rounded to 1/65535, moved at most a few units by gnubg's
    // mode correction: the mean can be off by well under 1e-3.
    assert!(
        (d.mean_rolls() - exact).abs() < 2e-4,
        "{} vs {exact}",
        d.mean_rolls()
    );
    // Exact per-roll probabilities: 4 rolls need four doubles (1/6^4), and so on.
    let p4 = 1.0 / 1296.0;
    assert!((d.probability(4) - p4).abs() <= 1.0 / 65535.0);
    // Reference §6.3 (gnubg): 4-8 rolls = 0.078 / 3.474 / 22.774 / 45.766 / 27.907 %.
    for (n, pct) in [(4, 0.078), (5, 3.474), (6, 22.774), (7, 45.766), (8, 27.907)] {
        assert!((d.probability(n) * 100.0 - pct).abs() < 6e-4, "roll {n}");
    }
}

#[test]
fn reference_examples_one_sided() {
    let (_dir, db) = one_sided_6x15();
    // Reference §6.2: X (index 6441) and O (index 5933) of 2x0AAOi2AQAAAA.
    let pos = Position::from_id("2x0AAOi2AQAAAA").unwrap();
    assert_eq!(db.index_of(pos.on_roll()).unwrap(), 6441);
    assert_eq!(db.index_of(pos.opponent()).unwrap(), 5933);
    let x = db.distribution(6441).unwrap();
    for (n, pct) in [
        (3, 1.917),
        (4, 18.749),
        (5, 44.271),
        (6, 32.998),
        (7, 2.029),
        (8, 0.037),
    ] {
        assert!((x.probability(n) * 100.0 - pct).abs() < 6e-4, "roll {n}");
    }
    assert!((x.mean_rolls() - 5.146).abs() < 6e-4);
    // X on roll wins 56.7 %.
    let out = db.evaluate(&pos).unwrap();
    assert!((out[0] - 0.567).abs() < 6e-4, "{}", out[0]);
    // 15 on the 6-point: gammon array 1-6 rolls = 47.222 / 44.985 / 6.865 / 0.822 / 0.098 /
    // 0.008 %, the first exactly 17/36 (any roll with a 6, or 5-5, 4-4, 3-3).
    let d = db.distribution(54263).unwrap();
    let g = d.gammon.unwrap();
    assert!((f64::from(g[1]) / 65535.0 - 17.0 / 36.0).abs() <= 1.0 / 65535.0);
    assert!((d.mean_rolls() - 12.266).abs() < 6e-4);
}

#[test]
fn two_sided_values() {
    let dir = scratch("reader-ts");
    let f = dir.join("ts66.bd");
    run_ok(&["two-sided", "-p", "6", "-c", "6", "-o", f.to_str().unwrap(), "-q"]);
    let db = TwoSidedDb::open(&f).unwrap();
    // Reference §6.3: one checker on the 6-point on roll against one on the ace point wins
    // 27/36 (it must bear off at once): +0.5 in all four slots.
    let e = db.equities(db.record_index(6, 1).unwrap()).unwrap();
    for v in e.exact() {
        assert!((v - 0.5).abs() < 1e-4, "{v}");
    }
    // Reference §6.1: CgAAEAEAAAAAAA stored (43982, 44044, 38027, 38027).
    let pos = Position::from_id("CgAAEAEAAAAAAA").unwrap();
    assert_eq!(db.indices_of(&pos).unwrap(), (16, 14));
    let e = db.equities_of(&pos).unwrap();
    assert_eq!(e.raw, [43982, 44044, 38027, 38027]);
    assert!((e.cubeless() - 0.3422).abs() < 5e-5);
    assert!((e.owned().unwrap() - 0.3441).abs() < 5e-5);
    // Already off: +1; opponent off: -1.
    assert_eq!(db.equities(5).unwrap().exact(), vec![1.0; 4]);
    assert_eq!(db.equities(5 * 924).unwrap().exact(), vec![-1.0; 4]);
    // Any database opens through the common entry point.
    assert!(matches!(BearoffDb::open(&f).unwrap(), BearoffDb::TwoSided(_)));
}

/// Cubeless win probability of the side on roll, by an independent floating-point
/// recursion over board's legal moves (both sides playing to win).
fn exact_win(
    us: u64,
    them: u64,
    ix: &gen_bearoff::PositionIndex,
    memo: &mut std::collections::HashMap<(u64, u64), f64>,
) -> f64 {
    if us == 0 {
        return 1.0;
    }
    if them == 0 {
        return 0.0;
    }
    if let Some(&v) = memo.get(&(us, them)) {
        return v;
    }
    let mut side = [0u8; 25];
    ix.unrank_into(us, &mut side);
    let pos = Position::new([0; 25], side).unwrap();
    let mut total = 0.0;
    for dice in board::Dice::all() {
        let mut best = f64::MIN;
        for m in pos.legal_moves(dice) {
            let j = ix.rank(m.result.on_roll()).unwrap();
            best = best.max(1.0 - exact_win(them, j, ix, memo));
        }
        total += f64::from(dice.weight()) * best;
    }
    let v = total / 36.0;
    memo.insert((us, them), v);
    v
}

#[test]
fn two_sided_cubeless_matches_an_independent_recursion() {
    let dir = scratch("reader-cross");
    let ts = dir.join("ts.bd");
    run_ok(&[
        "two-sided",
        "-p",
        "6",
        "-c",
        "3",
        "-o",
        ts.to_str().unwrap(),
        "-q",
    ]);
    let ts = TwoSidedDb::open(&ts).unwrap();
    let ix = *ts.index();
    let n = ts.positions_per_side();
    let mut memo = std::collections::HashMap::new();
    let mut worst = 0.0f64;
    for us in 0..n {
        for them in 0..n {
            let p = exact_win(us, them, &ix, &mut memo);
            let e = ts.equities(us * n + them).unwrap().exact()[0];
            worst = worst.max(((e + 1.0) / 2.0 - p).abs());
        }
    }
    // 16-bit values truncated toward zero at every step of the recursion.
    assert!(worst < 2e-4, "largest difference {worst}");
}

#[test]
fn truncated_and_foreign_files_are_clean_errors() {
    let dir = scratch("reader-bad");
    let f = dir.join("os4.bd");
    run_ok(&["one-sided", "-p", "4", "-o", f.to_str().unwrap(), "-q"]);
    let bytes = std::fs::read(&f).unwrap();
    for cut in [0, 10, 39, 40, 100, bytes.len() - 1] {
        let g = dir.join(format!("cut{cut}.bd"));
        std::fs::write(&g, &bytes[..cut]).unwrap();
        let err = BearoffDb::open(&g).unwrap_err().to_string();
        assert!(err.contains(&g.display().to_string()), "{err}");
    }
    let g = dir.join("foreign.bd");
    std::fs::write(&g, b"this is not a bearoff database at all, no sir\n").unwrap();
    assert!(BearoffDb::open(&g)
        .unwrap_err()
        .to_string()
        .contains("not a bearoff database"));
    // A damaged index entry: span beyond 32 rolls is reported, not a panic.
    let mut bad = bytes.clone();
    bad[40 + 8 * 5 + 4] = 200;
    let g = dir.join("badspan.bd");
    std::fs::write(&g, &bad).unwrap();
    let db = OneSidedDb::open(&g).unwrap();
    assert!(db.distribution(5).is_err());
    assert!(db.distribution(db.count()).is_err());
    // A changed value no longer sums to 65535.
    let mut bad = bytes.clone();
    let at = bad.len() - 2;
    bad[at] ^= 1;
    let g = dir.join("badsum.bd");
    std::fs::write(&g, &bad).unwrap();
    let db = OneSidedDb::open(&g).unwrap();
    assert!(db.distribution(db.count() - 1).is_err());
    // Truncated two-sided file.
    let t = dir.join("ts.bd");
    run_ok(&["two-sided", "-p", "6", "-c", "2", "-o", t.to_str().unwrap(), "-q"]);
    let tb = std::fs::read(&t).unwrap();
    std::fs::write(&t, &tb[..tb.len() - 8]).unwrap();
    assert!(TwoSidedDb::open(&t)
        .unwrap_err()
        .to_string()
        .contains("truncated"));
}

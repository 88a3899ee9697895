//! The MD5 tables of gnubg's manual (format reference §3.5 and §4.4): our generator's
//! output must reproduce them exactly. No gnubg needed.

mod common;

use common::{md5_hex, run_ok, scratch};

#[test]
fn one_sided_md5_match_gnubg_manual() {
    let expected = [
        (1, 288, "c789f049ec98ce4e307b471257999f39"),
        (2, 2452, "b6e61c1625ae4b3b164e93ab064192b9"),
        (3, 16672, "346dae6139ccb4b227c534373e5c52e4"),
        (4, 87074, "653255f5f9f22fd50277f7ff25b2a343"),
        (5, 385462, "2064f9a56b23117d053a573c96a92fa2"),
        (6, 1465788, "3dc7b833c4670849cee00479a9e21b49"),
    ];
    let dir = scratch("os-md5");
    for (p, size, md5) in expected {
        let f = dir.join(format!("os{p}.bd"));
        run_ok(&[
            "one-sided",
            "--points",
            &p.to_string(),
            "-o",
            f.to_str().unwrap(),
            "--quiet",
        ]);
        let bytes = std::fs::read(&f).unwrap();
        assert_eq!(bytes.len(), size, "size of the {p}-point file");
        assert_eq!(md5_hex(&bytes), md5, "md5 of the {p}-point file");
    }
}

#[test]
fn two_sided_md5_match_gnubg_manual() {
    let expected = [
        (1, 432, "7ed6f8e7fce16ea2b80e07a4a516653c"),
        (2, 6312, "e9d760bf213841c285245ed757a52f4d"),
        (3, 56488, "9d67da3db32ad4720cc38eecf9a67967"),
        (4, 352840, "9156f37032d1d4b0352a41186e632dfc"),
        (5, 1707592, "0db19ab08feae1feb33ddbd709479f62"),
        (6, 6830248, "44b6040b49b46cb9dd2ce8caa947044d"),
    ];
    let dir = scratch("ts-md5");
    for (c, size, md5) in expected {
        let f = dir.join(format!("ts6x{c}.bd"));
        run_ok(&[
            "two-sided",
            "--points",
            "6",
            "--checkers",
            &c.to_string(),
            "-o",
            f.to_str().unwrap(),
            "-q",
        ]);
        let bytes = std::fs::read(&f).unwrap();
        assert_eq!(bytes.len(), size, "size of 6x{c}");
        assert_eq!(md5_hex(&bytes), md5, "md5 of 6x{c}");
    }
}

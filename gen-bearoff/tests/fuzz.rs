//! Fuzz suite (issue 19) for every bearoff file reader: the 40-byte header and whole
//! one-sided, two-sided and hypergammon files, random and mutated from valid ones.
//! Opening, dumping and verifying a file must succeed or fail with an error, never
//! panic. `BGKIT_FUZZ_CASES` raises the case count (`scripts/fuzz.sh`).

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use gen_bearoff::dump::{dump, DumpTarget};
use gen_bearoff::format::Header;
use gen_bearoff::reader::BearoffDb;
use gen_bearoff::verify::verify;
use proptest::prelude::*;
use test_support::{fuzz_cases, mutate};

fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: fuzz_cases(default),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Valid files, generated once: one-sided (compressed and not), two-sided, hypergammon.
fn valid() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = common::scratch("fuzz-valid");
        let mut out = Vec::new();
        for (name, args) in [
            ("os.bd", &["one-sided", "-p", "3", "-c", "4"][..]),
            (
                "osn.bd",
                &["one-sided", "-p", "3", "-c", "3", "--no-compress", "--no-gammon"][..],
            ),
            (
                "osd.bd",
                &["one-sided", "-p", "3", "-c", "3", "--normal-dist"][..],
            ),
            ("ts.bd", &["two-sided", "-p", "3", "-c", "2"][..]),
            ("hy.bd", &["hyper", "-c", "1"][..]),
        ] {
            let f = dir.join(name);
            let mut a = args.to_vec();
            a.extend(["-q", "-o", f.to_str().unwrap()]);
            common::run_ok(&a);
            out.push((name.to_string(), std::fs::read(&f).unwrap()));
        }
        out
    })
}

fn scratch_file(tag: &str) -> (test_support::Scratch, PathBuf) {
    let dir = common::scratch(tag);
    let f = dir.join("f.bd");
    (dir, f)
}

fn exercise(path: &Path, index: u64) {
    if let Ok(db) = BearoffDb::open(path) {
        let _ = dump(&db, &DumpTarget::Index(index), "f.bd");
        let _ = dump(&db, &DumpTarget::position("4HPwATDgc/ABMA").unwrap(), "f.bd");
        let _ = verify(&db, 16, index, &|_, _, _| {});
    }
}

const HEADER_WORDS: &[&str] = &[
    "gnubg-",
    "bgkit-",
    "OS",
    "TS",
    "H",
    "-99-",
    "-00-",
    "-1",
    "xxxx",
    "\n",
    "99999999999",
];

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn fuzz_bearoff_header(seed in any::<u64>(), k in 0usize..5, random in proptest::collection::vec(any::<u8>(), 0..48), pick in 0u8..4) {
        let bytes = if pick == 0 { random } else { mutate(seed, &valid()[k].1[..40], HEADER_WORDS) };
        if let Ok(h) = Header::parse(&bytes) {
            if let Some(b) = h.to_bytes() {
                prop_assert!(Header::parse(&b).is_ok());
            }
        }
    }
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn fuzz_bearoff_files(seed in any::<u64>(), k in 0usize..5, index in any::<u64>(), small in 0u64..4000) {
        let (_dir, f) = scratch_file("fuzz-files");
        std::fs::write(&f, mutate(seed, &valid()[k].1, HEADER_WORDS)).unwrap();
        exercise(&f, if seed % 2 == 0 { small } else { index });
    }
}

//! Dataset files: round trips through every format, gnubg's position keys, and clear
//! errors on damaged files.

mod common;

use board::Position;
use datasets::format::binary::{BinaryDataset, Record, HEADER_SIZE, RECORD_SIZE};
use datasets::format::gnubg_nn::{key_text, parse_key};
use datasets::format::{self, Format, Sample};
use proptest::prelude::*;

fn samples(n: usize, with_se: bool, seed: u64) -> Vec<Sample> {
    let mut g = datasets::rng::SplitMix::new(seed);
    let mut unit = move || -> f32 {
        // Values with every kind of digit string, including exact 0 and 1.
        match g.below(10) {
            0 => 0.0,
            1 => 1.0,
            _ => (g.unit() as f32).min(1.0),
        }
    };
    common::random_game_positions(seed as u32, 20, 7)
        .into_iter()
        .take(n)
        .map(|position| Sample {
            position,
            probs: std::array::from_fn(|_| unit()),
            se: with_se.then(|| std::array::from_fn(|_| unit() * 0.01)),
            trials: 0,
        })
        .collect()
}

fn round_trip(samples: &[Sample], fmt: Format, name: &str) -> Vec<Sample> {
    let dir = common::scratch(&format!("rt-{name}"));
    let path = dir.join(name);
    format::write(&path, fmt, samples).unwrap();
    assert_eq!(Format::detect(&path).unwrap(), fmt);
    let back = format::read(&path, fmt).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    back
}

#[test]
fn every_format_round_trips_exactly() {
    for with_se in [false, true] {
        let s = samples(100, with_se, 5);
        assert_eq!(s.len(), 100);
        assert_eq!(round_trip(&s, Format::Csv, "a.csv"), s);
        assert_eq!(round_trip(&s, Format::Binary, "a.bgds"), s);
        // gnubg-nn text has no standard errors.
        let plain: Vec<Sample> = s.iter().map(|x| Sample { se: None, ..*x }).collect();
        assert_eq!(round_trip(&s, Format::GnubgNn, "a.nn"), plain);
    }
    // Trial counts survive in the binary format.
    let mut s = samples(5, true, 6);
    s[2].trials = 1296;
    assert_eq!(round_trip(&s, Format::Binary, "t.bin"), s);
}

#[test]
fn contents_tell_the_format_before_the_extension() {
    let s = samples(10, true, 7);
    let dir = common::scratch("detect-content");
    // CSV and binary files under the other formats' extensions (a CSV named .txt used to
    // be read as gnubg-nn text and fail on its header).
    for (fmt, name) in [
        (Format::Csv, "csv-named.txt"),
        (Format::Csv, "csv-named.nn"),
        (Format::Binary, "binary-named.csv"),
        (Format::GnubgNn, "nn-named.dat"),
        (Format::GnubgNn, "nn-without-extension"),
    ] {
        let path = dir.join(name);
        format::write(&path, fmt, &s).unwrap();
        assert_eq!(Format::detect(&path).unwrap(), fmt, "{name}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn conversions_chain_back_to_the_same_text() {
    let dir = common::scratch("chain");
    let s = samples(60, false, 9);
    let csv = dir.join("a.csv");
    format::write(&csv, Format::Csv, &s).unwrap();
    let nn = dir.join("a.nn");
    let bin = dir.join("a.bgds");
    let csv2 = dir.join("b.csv");
    format::write(&nn, Format::GnubgNn, &format::read(&csv, Format::Csv).unwrap()).unwrap();
    format::write(&bin, Format::Binary, &format::read(&nn, Format::GnubgNn).unwrap()).unwrap();
    format::write(&csv2, Format::Csv, &format::read(&bin, Format::Binary).unwrap()).unwrap();
    assert_eq!(std::fs::read(&csv).unwrap(), std::fs::read(&csv2).unwrap());
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with("position_id,win,win_g,win_bg,lose_g,lose_bg\n"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn gnubg_nn_keys_are_gnubgs_position_keys() {
    let text = std::fs::read_to_string(common::data("gnubg_keys.csv")).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let (id, key) = line.split_once(',').unwrap();
        let bytes: Vec<u8> = key.split(' ').map(|b| b.parse().unwrap()).collect();
        let letters: String = bytes
            .iter()
            .flat_map(|b| [char::from(b'A' + (b >> 4)), char::from(b'A' + (b & 15))])
            .collect();
        let pos = Position::from_id(id).unwrap();
        assert_eq!(key_text(&pos), letters, "{id}");
        assert_eq!(parse_key(&letters).unwrap(), pos);
        n += 1;
    }
    assert_eq!(n, 60);
}

#[test]
fn gnubg_nn_reads_the_published_example_line() {
    // The example line of gnubg-nn's training data (py/bgutil.py's readData format).
    let dir = common::scratch("nnex");
    let path = dir.join("ex.dat");
    std::fs::write(
        &path,
        "# comment\n\nNIKOIJADCANIGOAHADBA 0.61959 0.24388 0.00981 0.08774 0.00183\n",
    )
    .unwrap();
    let s = format::read(&path, Format::GnubgNn).unwrap();
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].probs, [0.61959, 0.24388, 0.00981, 0.08774, 0.00183]);
    assert_eq!(s[0].position.checkers(board::Player::OnRoll), 15);
    assert_eq!(s[0].position.checkers(board::Player::Opponent), 15);
    let out = dir.join("out.nn");
    format::write(&out, Format::GnubgNn, &s).unwrap();
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "NIKOIJADCANIGOAHADBA 0.61959 0.24388 0.00981 0.08774 0.00183\n"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn damaged_files_get_clear_errors() {
    let dir = common::scratch("bad");
    let s = samples(10, true, 3);
    let bin = dir.join("a.bgds");
    format::write(&bin, Format::Binary, &s).unwrap();
    let good = std::fs::read(&bin).unwrap();
    assert_eq!(good.len(), HEADER_SIZE + 10 * RECORD_SIZE);
    let ds = BinaryDataset::open(&bin).unwrap();
    assert_eq!(ds.len(), 10);
    assert!(ds.has_se());
    assert_eq!(ds.records()[3].key, s[3].position.key());
    let err = |bytes: &[u8]| {
        std::fs::write(&bin, bytes).unwrap();
        BinaryDataset::open(&bin).unwrap_err().to_string()
    };
    let mut flipped = good.clone();
    flipped[HEADER_SIZE + 20] ^= 1;
    assert!(err(&flipped).contains("checksum mismatch"), "{}", err(&flipped));
    assert!(err(&good[..good.len() - 1]).contains("truncated"));
    let mut v2 = good.clone();
    v2[8] = 2;
    assert!(err(&v2).contains("version 2"));
    assert!(err(b"hello").contains("not a bgkit binary dataset"));
    // Cut inside the header: the magic is there, the file is short.
    for n in [30, 8, 3] {
        assert_eq!(
            err(&good[..n]),
            format!(
                "{}: truncated bgkit binary dataset: {n} bytes, shorter than its 64-byte header",
                bin.display()
            )
        );
    }
    assert!(err(b"").contains(&bin.display().to_string()));

    let csv = dir.join("a.csv");
    std::fs::write(&csv, "position_id,win,win_g,win_bg,lose_g,lose_bg\n4HPwATDgc/ABMA,0.5,0.1,0,0.1,0\nnot-an-id,0.5,0.1,0,0.1,0\n").unwrap();
    let e = format::read(&csv, Format::Csv).unwrap_err().to_string();
    assert!(e.contains("a.csv:3") && e.contains("not-an-id"), "{e}");
    std::fs::write(
        &csv,
        "position_id,win,win_g,win_bg,lose_g,lose_bg\n4HPwATDgc/ABMA,1.5,0.1,0,0.1,0\n",
    )
    .unwrap();
    let e = format::read(&csv, Format::Csv).unwrap_err().to_string();
    assert!(e.contains("a.csv:2") && e.contains("outside"), "{e}");
    std::fs::write(&csv, "position_id,win\n4HPwATDgc/ABMA,0.5\n").unwrap();
    assert!(format::read(&csv, Format::Csv)
        .unwrap_err()
        .to_string()
        .contains("1 of the 5 target columns; missing: win_g, win_bg, lose_g, lose_bg"));
    std::fs::write(&csv, "position_id,win,win_g,win_bg,lose_g,lose_bg,win_se\n").unwrap();
    assert!(format::read(&csv, Format::Csv)
        .unwrap_err()
        .to_string()
        .contains("not all five"));

    let nn = dir.join("a.nn");
    std::fs::write(&nn, "NIKOIJADCANIGOAHADBZ 0.6 0.2 0 0.1 0\n").unwrap();
    assert!(format::read(&nn, Format::GnubgNn)
        .unwrap_err()
        .to_string()
        .contains("'Z'"));
    std::fs::write(&nn, "NIKOIJADCANIGOAHADBA 0.6 0.2 0\n").unwrap();
    assert!(format::read(&nn, Format::GnubgNn)
        .unwrap_err()
        .to_string()
        .contains("a.nn:1"));
    std::fs::remove_dir_all(dir).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_values_round_trip(seed in 0u64..1000, values in proptest::collection::vec(0f32..=1f32, 10)) {
        let mut s = samples(3, true, seed);
        for x in s.iter_mut() {
            x.probs.copy_from_slice(&values[..5]);
            x.se = Some(std::array::from_fn(|i| values[5 + i]));
        }
        prop_assert_eq!(round_trip(&s, Format::Csv, "p.csv"), s.clone());
        prop_assert_eq!(round_trip(&s, Format::Binary, "p.bin"), s);
    }
}

/// Rewrites record `at` of a binary dataset with `edit` and fixes the header checksum,
/// so that only the value check can catch the change.
fn with_record(good: &[u8], at: usize, edit: impl Fn(&mut Record)) -> Vec<u8> {
    let mut bytes = good.to_vec();
    let start = HEADER_SIZE + at * RECORD_SIZE;
    let mut r: Record = bytemuck::pod_read_unaligned(&bytes[start..start + RECORD_SIZE]);
    edit(&mut r);
    bytes[start..start + RECORD_SIZE].copy_from_slice(bytemuck::bytes_of(&r));
    let sum = datasets::rng::Fnv1a::of(&bytes[HEADER_SIZE..]);
    bytes[32..40].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// Issue 19: "`.bgds` records with NaN standard errors or class byte 77 pass
/// `convert`/`supervised`".
#[test]
fn bgds_records_with_nan_standard_errors_or_class_byte_77_are_refused() {
    let dir = common::scratch("bgds-values");
    let bin = dir.join("v.bgds");
    format::write(&bin, Format::Binary, &samples(6, true, 9)).unwrap();
    let good = std::fs::read(&bin).unwrap();
    let open_err = |bytes: Vec<u8>| {
        std::fs::write(&bin, bytes).unwrap();
        BinaryDataset::open(&bin).unwrap_err().to_string()
    };
    let name = bin.display().to_string();
    let e = open_err(with_record(&good, 3, |r| r.se[2] = f32::NAN));
    assert!(
        e.starts_with(&format!("{name}: record 4 of 6: standard errors")),
        "{e}"
    );
    assert!(e.contains("NaN"), "{e}");
    let e = open_err(with_record(&good, 0, |r| r.se[0] = f32::INFINITY));
    assert!(
        e.starts_with(&format!("{name}: record 1 of 6: standard errors")),
        "{e}"
    );
    let e = open_err(with_record(&good, 5, |r| r.class = 77));
    assert!(
        e.starts_with(&format!(
            "{name}: record 6 of 6: class byte 77 is not a dataset class"
        )),
        "{e}"
    );
    let e = open_err(with_record(&good, 1, |r| r.probs[0] = f32::NAN));
    assert!(e.contains("record 2 of 6: probabilities"), "{e}");
    let e = open_err(with_record(&good, 2, |r| r.flags = 0x81));
    assert!(e.contains("record 3 of 6: flags byte 0x81"), "{e}");
    // A known class that is not the position's own is caught when the positions are read.
    let other = datasets::class::DATASET_CLASSES
        .iter()
        .map(|&c| c as u8)
        .find(|&c| c != good[HEADER_SIZE + 10])
        .unwrap();
    std::fs::write(&bin, with_record(&good, 0, |r| r.class = other)).unwrap();
    let e = format::read(&bin, Format::Binary).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "record 1: class byte {other} but the position is of class"
        )),
        "{e}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 19: "a CSV with 4 of 5 target columns is silently taken as positions-only".
#[test]
fn csv_with_4_of_5_target_columns_is_an_error() {
    let dir = common::scratch("csv-4of5");
    let csv = dir.join("t.csv");
    std::fs::write(
        &csv,
        "position_id,win,win_g,win_bg,lose_g\n4HPwATDgc/ABMA,0.5,0.1,0,0.1\n",
    )
    .unwrap();
    let e = format::csv::has_targets(&csv).unwrap_err().to_string();
    assert!(e.contains("4 of the 5 target columns; missing: lose_bg"), "{e}");
    // Read as a dataset or as positions, alike: every missing column named.
    let e = format::read(&csv, Format::Csv).unwrap_err().to_string();
    assert!(
        e.ends_with("t.csv:1: the header has 4 of the 5 target columns; missing: lose_bg"),
        "{e}"
    );
    let e = format::csv::read_position_ids(&csv).unwrap_err().to_string();
    assert!(
        e.ends_with("t.csv:1: the header has 4 of the 5 target columns; missing: lose_bg"),
        "{e}"
    );
    std::fs::write(&csv, "position_id\n4HPwATDgc/ABMA\n").unwrap();
    assert!(!format::csv::has_targets(&csv).unwrap());
    assert_eq!(format::csv::read_position_ids(&csv).unwrap().len(), 1);
    let e = format::read(&csv, Format::Csv).unwrap_err().to_string();
    assert!(e.contains("none of the 5 target columns"), "{e}");
    std::fs::write(&csv, "position_id,win,win_g,win_bg,lose_g,lose_bg\n").unwrap();
    assert!(format::csv::has_targets(&csv).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

//! Supervised training: it learns, it is reproducible across thread counts and
//! interruptions, the nets it writes evaluate the same in the evaluator, and bad data
//! is refused with clear errors.

mod common;

use std::path::{Path, PathBuf};

use board::{DiceStream, MoveGen, Position, Variant};
use common::scratch;
use datasets::format::{self, Format, Sample};
use evaluator::bearoff::BearoffDbs;
use evaluator::class::classify_shape;
use evaluator::weights::{Net, Weights};
use evaluator::{Evaluator, PositionClass};
use trainer::encoding::Encoding;
use trainer::model::{Model, ModelConfig};
use trainer::supervised::net::{Activation, Chunk, CHUNK};
use trainer::supervised::run::{load_state, Schedule};
use trainer::supervised::{Limits, NetClass, Run, Start, SupervisedSettings};

/// Positions of `class` met in seeded games of random legal moves (each once).
fn positions(seed: u32, n: usize, class: PositionClass) -> Vec<Position> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut gen = MoveGen::new();
    let mut dice = DiceStream::new(seed);
    while out.len() < n {
        let mut pos = Variant::Backgammon.start();
        loop {
            if pos.sides().iter().any(|s| s.iter().all(|&c| c == 0)) {
                break;
            }
            if classify_shape(&pos) == class && seen.insert(pos.key()) {
                out.push(pos);
                if out.len() == n {
                    break;
                }
            }
            let r = gen.positions(&pos, dice.roll());
            if !r.is_empty() {
                pos = r[dice.below(r.len() as u32) as usize];
            }
            pos = pos.swapped();
        }
    }
    out
}

/// A fixed "teacher" contact net with spread-out outputs.
fn teacher() -> Net {
    let config = ModelConfig::gnubg(8, true);
    let mut n = Model::new(config, 42).unwrap().nets[0].clone();
    n.hidden_weights.iter_mut().for_each(|w| *w *= 2.0);
    n.output_weights.iter_mut().for_each(|w| *w *= 4.0);
    n
}

/// Contact positions labelled by the teacher net (gnubg inputs and activations).
fn teacher_samples(seed: u32, n: usize) -> Vec<Sample> {
    let t = teacher();
    let mut x = vec![0f32; 250];
    let mut scratch = Vec::new();
    positions(seed, n, PositionClass::Contact)
        .into_iter()
        .map(|position| {
            Encoding::Gnubg.write(PositionClass::Contact, &position, false, &mut x);
            let mut probs = [0f32; 5];
            evaluator::net::evaluate(&t, &x, &mut scratch, &mut probs);
            Sample {
                position,
                probs,
                se: None,
                trials: 0,
            }
        })
        .collect()
}

fn write_binary(dir: &Path, name: &str, samples: &[Sample]) -> PathBuf {
    let p = dir.join(name);
    format::write(&p, Format::Binary, samples).unwrap();
    p
}

fn small_settings() -> SupervisedSettings {
    let mut s = SupervisedSettings::new(NetClass::Contact);
    s.epochs = 3;
    s.batch = 50;
    s.lr = 0.01;
    s.seed = 3;
    s
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn fresh(hidden: usize) -> Start {
    Start::fresh(hidden, 5).unwrap()
}

#[test]
fn a_small_net_learns_a_known_function() {
    let dir = scratch("sup-learns");
    let data = write_binary(&dir, "teacher.bgds", &teacher_samples(1, 3000));
    let mut s = small_settings();
    s.epochs = 40;
    s.batch = 32;
    s.lr = 0.01;
    s.patience = 0;
    s.validation = 0.2;
    let mut run = Run::create(&dir.join("run"), s, &[data], fresh(8), 2).unwrap();
    assert!(run.cache_inputs(u64::MAX));
    // The targets' spread: the error of always answering their mean.
    let samples = format::read(&dir.join("teacher.bgds"), Format::Binary).unwrap();
    let mean: Vec<f64> = (0..5)
        .map(|k| samples.iter().map(|s| f64::from(s.probs[k])).sum::<f64>() / samples.len() as f64)
        .collect();
    let spread = samples
        .iter()
        .map(|s| {
            (0..5)
                .map(|k| (f64::from(s.probs[k]) - mean[k]).powi(2))
                .sum::<f64>()
        })
        .sum::<f64>()
        / (5.0 * samples.len() as f64);
    run.train(Limits::default(), &|_| {}).unwrap();
    let st = run.state();
    // Row 0 is the untrained net.
    assert_eq!(st.curve[0].epoch, 0);
    let first = st.curve[1].val_mse.unwrap();
    let best = st
        .curve
        .iter()
        .filter_map(|r| r.val_mse)
        .fold(f64::INFINITY, f64::min);
    eprintln!("target spread {spread:.5}, validation mse after epoch 1 {first:.6}, best {best:.6}");
    assert!(spread > 0.01, "the teacher's outputs vary: {spread}");
    assert!(
        best < 0.04 * spread,
        "validation mse {best} vs target spread {spread}"
    );
    assert!(best < first / 3.0);
    assert_eq!(st.curve.len(), 41);
    assert!(st.curve[0].val_mse.unwrap() > first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn same_seed_same_weights_on_any_number_of_threads() {
    let dir = scratch("sup-threads");
    let data = write_binary(&dir, "d.bgds", &teacher_samples(2, 700));
    let mut nets = Vec::new();
    for threads in [1, 2, 3] {
        let out = dir.join(format!("t{threads}"));
        let mut run = Run::create(
            &out,
            small_settings(),
            std::slice::from_ref(&data),
            fresh(16),
            threads,
        )
        .unwrap();
        run.train(Limits::default(), &|_| {}).unwrap();
        nets.push(bytes(&out.join("net.wd")));
        nets.push(bytes(&out.join("net.weights")));
    }
    assert_eq!(nets[0], nets[2]);
    assert_eq!(nets[0], nets[4]);
    assert_eq!(nets[1], nets[3]);
    assert_eq!(nets[1], nets[5]);
    // Another seed: another split, order and net.
    let mut s = small_settings();
    s.seed = 4;
    let out = dir.join("seed4");
    let mut run = Run::create(&out, s, &[data], fresh(16), 2).unwrap();
    run.train(Limits::default(), &|_| {}).unwrap();
    assert_ne!(bytes(&out.join("net.wd")), nets[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_run_equals_an_uninterrupted_one() {
    let dir = scratch("sup-resume");
    let data = write_binary(&dir, "d.bgds", &teacher_samples(3, 900));
    for (name, optimizer, schedule) in [
        (
            "adam",
            trainer::supervised::optim::OptimizerKind::Adam,
            Schedule::Plateau,
        ),
        (
            "sgd",
            trainer::supervised::optim::OptimizerKind::Sgd,
            Schedule::Cosine,
        ),
    ] {
        let mut s = small_settings();
        s.optimizer = trainer::supervised::optim::OptimizerSettings::new(optimizer);
        s.schedule = schedule;
        s.lr = if name == "sgd" { 0.5 } else { 0.01 };
        s.epochs = 4;
        let whole = dir.join(format!("whole-{name}"));
        let mut run = Run::create(&whole, s.clone(), std::slice::from_ref(&data), fresh(8), 2).unwrap();
        run.train(Limits::default(), &|_| {}).unwrap();
        let parts = dir.join(format!("parts-{name}"));
        let mut run = Run::create(&parts, s.clone(), std::slice::from_ref(&data), fresh(8), 1).unwrap();
        // 810 training positions in batches of 50: 17 batches per epoch. Interrupted
        // after 20 batches (epoch 2, batch 3), then after 20 more (epoch 3, batch 6),
        // then finished, with other thread counts each time.
        let stop = |n| Limits {
            deadline: None,
            max_batches: Some(n),
        };
        run.train(stop(20), &|_| {}).unwrap();
        assert_eq!((run.state().epoch, run.state().batch), (1, 3));
        drop(run);
        let mut run = Run::resume(&parts, None, 3).unwrap();
        run.train(stop(20), &|_| {}).unwrap();
        assert_eq!((run.state().epoch, run.state().batch), (2, 6));
        drop(run);
        let mut run = Run::resume(&parts, None, 2).unwrap();
        run.train(Limits::default(), &|_| {}).unwrap();
        let (a, b) = (load_state(&whole).unwrap(), load_state(&parts).unwrap());
        for f in [
            "net.wd",
            "net.weights",
            a.weights_file.as_str(),
            a.optimizer_file.as_str(),
        ] {
            assert_eq!(bytes(&whole.join(f)), bytes(&parts.join(f)), "{name}: {f}");
        }
        let strip = |s: &trainer::supervised::run::State| -> Vec<(u32, f32, f64, Option<f64>)> {
            s.curve
                .iter()
                .map(|r| (r.epoch, r.lr, r.train_mse, r.val_mse))
                .collect()
        };
        assert_eq!(strip(&a), strip(&b), "{name}");
        assert_eq!((a.steps, a.best_epoch, a.epoch), (b.steps, b.best_epoch, b.epoch));
        // One checkpoint pair is kept.
        let kept: Vec<String> = std::fs::read_dir(&parts)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("checkpoint-") || n.starts_with("optimizer-"))
            .collect();
        assert_eq!(kept.len(), 2, "{kept:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn early_stopping_and_the_plateau_schedule() {
    let dir = scratch("sup-early");
    // Targets that are noise: validation cannot improve for long.
    let mut samples = teacher_samples(4, 600);
    let mut d = DiceStream::new(9);
    for s in &mut samples {
        let w = d.below(1000) as f32 / 1000.0;
        s.probs = [w, w * 0.2, 0.0, (1.0 - w) * 0.2, 0.0];
    }
    let data = write_binary(&dir, "noise.bgds", &samples);
    let mut s = small_settings();
    s.epochs = 60;
    s.lr = 0.05;
    s.patience = 3;
    s.plateau = 1;
    let mut run = Run::create(&dir.join("run"), s, &[data], fresh(8), 2).unwrap();
    run.train(Limits::default(), &|_| {}).unwrap();
    let st = run.state();
    assert!(st.stopped && st.epoch < 60, "stopped early at {}", st.epoch);
    assert_eq!(st.epoch, st.best_epoch + 3);
    // Every epoch without improvement halved the rate (plateau 1).
    let rates: Vec<f32> = st.curve.iter().map(|r| r.lr).collect();
    assert_eq!(rates[rates.len() - 1], rates[rates.len() - 3] / 4.0, "{rates:?}");
    // The written net is the best one, not the last.
    let best = st.curve[st.best_epoch as usize].val_mse.unwrap();
    let w = Weights::load_any(dir.join("run/net.wd")).unwrap();
    let sums = run.evaluate(&w.nets[0], run.validation());
    assert!((sums.sq / (sums.rows as f64 * 5.0) - best).abs() < 1e-12);
    let last = run.evaluate(run.net(), run.validation());
    assert!(last.sq / (last.rows as f64 * 5.0) > best);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn written_nets_evaluate_the_same_in_the_evaluator() {
    if !common::have(&[common::WD]) {
        return;
    }
    let dir = scratch("sup-roundtrip");
    let data = write_binary(&dir, "d.bgds", &teacher_samples(5, 400));
    let gnubg = Weights::load(common::WD).unwrap();
    let mut s = small_settings();
    s.epochs = 1;
    let out = dir.join("run");
    let mut run = Run::create(&out, s, &[data], Start::load(Path::new(common::WD)).unwrap(), 2).unwrap();
    run.train(Limits::default(), &|_| {}).unwrap();
    let trained = run.net().clone();
    // The whole set is written: the contact net changed, the five others are gnubg's.
    let w = Weights::load(out.join("net.wd")).unwrap();
    let text = Weights::load(out.join("net.weights")).unwrap();
    assert_eq!(w.nets, text.nets);
    assert_eq!(w.nets[0], trained);
    assert_ne!(w.nets[0], gnubg.nets[0]);
    assert_eq!(w.nets[1..], gnubg.nets[1..]);
    assert_eq!(w.version, gnubg.version);
    assert!(
        !out.join("net.json").exists(),
        "gnubg weights in, gnubg weights out"
    );
    // The trainer's batched forward pass against the evaluator on the loaded file.
    let ev = Evaluator::new(w, BearoffDbs::default());
    let test = positions(77, 300, PositionClass::Contact);
    let mut worst = 0f32;
    let mut diffs = Vec::new();
    for part in test.chunks(CHUNK) {
        let mut c = Chunk::new(&trained);
        c.rows = part.len();
        for (r, p) in part.iter().enumerate() {
            Encoding::Gnubg.write(PositionClass::Contact, p, false, c.input_row(r));
        }
        c.forward(&trained, Activation::Gnubg);
        for (r, p) in part.iter().enumerate() {
            let mut mine: [f32; 5] = std::array::from_fn(|k| c.outputs()[[r, k]]);
            evaluator::sanity::sanity_check(p, &mut mine, |_| None);
            let (theirs, class) = ev.evaluate(p).unwrap();
            assert_eq!(class, PositionClass::Contact);
            for k in 0..5 {
                let d = (mine[k] - theirs[k]).abs();
                worst = worst.max(d);
                diffs.push(d);
            }
        }
    }
    diffs.sort_by(f32::total_cmp);
    let q = |f: f64| diffs[((diffs.len() - 1) as f64 * f) as usize];
    eprintln!(
        "differences over {} outputs: median {:e}, 90% {:e}, 99% {:e}, largest {worst:e}",
        diffs.len(),
        q(0.5),
        q(0.9),
        q(0.99)
    );
    // Only the order of the sums differs (matrix products here, gnubg's order there).
    // A sum that lands on the other side of one of gnubg's sigmoid table steps (its
    // first-order expansion is discontinuous there by ~0.5 % of eˣ) moves an output by
    // up to ~1e-4, rarely; almost every output agrees to float rounding.
    assert!(
        q(0.5) < 1e-7 && q(0.9) < 1e-6 && q(0.99) < 2e-5,
        "{} {} {}",
        q(0.5),
        q(0.9),
        q(0.99)
    );
    assert!(worst < 2e-4, "{worst}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_data_gets_clear_errors() {
    let dir = scratch("sup-bad");
    let data = write_binary(&dir, "d.bgds", &teacher_samples(6, 100));
    // Truncated binary dataset.
    let cut = dir.join("cut.bgds");
    let b = bytes(&data);
    std::fs::write(&cut, &b[..b.len() - 10]).unwrap();
    let e = Run::create(&dir.join("r1"), small_settings(), &[cut], fresh(8), 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("cut.bgds") && e.contains("truncated"), "{e}");
    // No positions of the class: the error says which classes the file has.
    let race: Vec<Sample> = positions(8, 30, PositionClass::Race)
        .into_iter()
        .map(|position| Sample {
            position,
            probs: [0.5, 0.0, 0.0, 0.0, 0.0],
            se: None,
            trials: 0,
        })
        .collect();
    let racefile = write_binary(&dir, "race.bgds", &race);
    let e = Run::create(
        &dir.join("r2"),
        small_settings(),
        std::slice::from_ref(&racefile),
        fresh(8),
        1,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        e.contains("race.bgds") && e.contains("no contact positions") && e.contains("race"),
        "{e}"
    );
    // Targets outside [0, 1] in a CSV file.
    let csv = dir.join("bad.csv");
    std::fs::write(
        &csv,
        "position_id,win,win_g,win_bg,lose_g,lose_bg\n4HPwATDgc/ABMA,1.5,0,0,0,0\n",
    )
    .unwrap();
    let e = Run::create(&dir.join("r3"), small_settings(), &[csv], fresh(8), 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("bad.csv"), "{e}");
    // A trainer model whose sidecar does not describe its nets.
    if common::have(&[common::WD]) {
        let m = dir.join("m.wd");
        std::fs::copy(common::WD, &m).unwrap();
        std::fs::write(
            dir.join("m.json"),
            r#"{"format":"bgkit-trainer-net","format_version":1,"config":{"encoding":"gnubg","layout":"split","hidden":8,"init":"xavier","weights_version":"1.00","bearoff":true},"training":null}"#,
        )
        .unwrap();
        let e = Start::load(&m).err().unwrap().to_string();
        assert!(e.contains("m.wd") && e.contains("250-128-5"), "{e}");
    }
    // A resumed run refuses changed data.
    let mut run = Run::create(
        &dir.join("r4"),
        small_settings(),
        std::slice::from_ref(&data),
        fresh(8),
        1,
    )
    .unwrap();
    run.train(
        Limits {
            deadline: None,
            max_batches: Some(1),
        },
        &|_| {},
    )
    .unwrap();
    let e = Run::resume(&dir.join("r4"), Some(&[racefile]), 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("race.bgds"), "{e}");
    std::fs::write(data.clone(), b"junk").unwrap();
    let e = Run::resume(&dir.join("r4"), None, 1).err().unwrap().to_string();
    assert!(e.contains("d.bgds"), "{e}");
    // A directory holding a run is not overwritten.
    let data2 = write_binary(&dir, "d2.bgds", &teacher_samples(6, 100));
    let e = Run::create(&dir.join("r4"), small_settings(), &[data2], fresh(8), 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("already holds a supervised run"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--widen`: the starting net's units are kept and fresh ones added with zero output
/// weights, so the widened net's outputs are the start's to the bit (the added
/// products are zeros); training then moves it, and the flag is refused where it has
/// no meaning.
#[test]
fn a_widened_net_starts_from_the_starting_nets_outputs() {
    let dir = scratch("sup-widen");
    let data = [write_binary(&dir, "teacher.bgds", &teacher_samples(1, 600))];
    let plain = Run::create(&dir.join("plain"), small_settings(), &data, fresh(8), 1).unwrap();
    let mut s = small_settings();
    s.hidden = Some(16);
    s.widen = true;
    let mut wide = Run::create(&dir.join("wide"), s.clone(), &data, fresh(8), 1).unwrap();
    let (a, b) = (plain.net(), wide.net());
    assert_eq!((a.hidden, b.hidden), (8, 16));
    for i in 0..a.inputs {
        assert_eq!(
            b.hidden_weights[i * 16..i * 16 + 8],
            a.hidden_weights[i * 8..i * 8 + 8]
        );
    }
    assert!(b.hidden_weights.iter().skip(8).take(8).any(|&w| w != 0.0));
    for k in 0..5 {
        assert!(b.output_weights[k * 16 + 8..(k + 1) * 16]
            .iter()
            .all(|&w| w == 0.0));
    }
    let mut x = vec![0f32; 250];
    let (mut pa, mut pb, mut scratch) = ([0f32; 5], [0f32; 5], Vec::new());
    for pos in positions(7, 200, PositionClass::Contact) {
        Encoding::Gnubg.write(PositionClass::Contact, &pos, false, &mut x);
        evaluator::net::evaluate(a, &x, &mut scratch, &mut pa);
        evaluator::net::evaluate(b, &x, &mut scratch, &mut pb);
        assert_eq!(pa, pb, "{}", pos.position_id());
    }
    let before = wide.evaluate(wide.net(), wide.validation());
    assert_eq!(before.sq, plain.evaluate(plain.net(), plain.validation()).sq);
    wide.train(Limits::default(), &|_| {}).unwrap();
    let after = wide.evaluate(wide.net(), wide.validation());
    assert!(after.sq < 0.9 * before.sq, "{} -> {}", before.sq, after.sq);
    // Narrower than the start, or no size to widen to.
    s.hidden = Some(4);
    let err = Run::create(&dir.join("narrow"), s.clone(), &data, fresh(8), 1)
        .err()
        .unwrap();
    assert!(err.to_string().contains("has 8 hidden units already"), "{err}");
    s.hidden = None;
    let err = Run::create(&dir.join("none"), s, &data, fresh(8), 1)
        .err()
        .unwrap();
    assert!(err.to_string().contains("--widen needs --hidden"), "{err}");
}

//! `trainer supervised`: supervised training of one class's net on rollout data, or of
//! several classes' nets in turn.

use cli_support::progress::progress_bar_until;
use cli_support::thread_count;
use std::path::PathBuf;
use std::process::ExitCode;

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use trainer::supervised::net::Loss;
use trainer::supervised::optim::{OptimizerKind, OptimizerSettings};
use trainer::supervised::run::{load_state, state_path, Event, Limits, Run};
use trainer::supervised::settings::{Schedule, SupervisedSettings};
use trainer::supervised::start::Start;
use trainer::supervised::{bench, NetClass};
use trainer::TrainerError;

/// Train the net of one position class (contact, crashed or race) on rolled-out
/// positions, starting from a weights file or from fresh weights, and write the whole
/// weights set with that net replaced.
///
/// The output directory gets net.wd / net.weights (gnubg's formats, the best net by
/// validation error; net.json when the start was a trainer model or fresh weights), the
/// checkpoint (supervised.json, checkpoint-<steps>.wd, optimizer-<steps>.bin) and the
/// learning curve (curve.csv, curve.png). `--resume DIR` continues a run from its
/// checkpoint.
#[derive(clap::Args)]
pub struct Args {
    /// Training data: binary datasets (.bgds, memory-mapped), CSV or gnubg-nn text;
    /// repeat the flag for several files. Only positions of --class are used.
    #[arg(long, value_name = "FILE", value_parser = cli_support::args::input_file())]
    data: Vec<PathBuf>,
    /// Starting weights: a gnubg weights file (.wd or .weights) or a trainer model (a
    /// weights file with its .json sidecar). Default: fresh nets.
    #[arg(long, value_name = "WEIGHTS", value_parser = |s: &str| super::init_file(s, false))]
    init: Option<PathBuf>,
    /// The net to train: contact, crashed or race; or several in turn, `all` (contact,
    /// race, crashed) or a list such as `contact,race`, each starting from the weights
    /// the previous one wrote (one sub-directory per class, the final nets in --out).
    #[arg(long, value_name = "CLASS|all|LIST", required_unless_present_any = ["resume", "bench"])]
    class: Option<Classes>,
    /// Hidden units of the trained net [default: the starting net's; 128 if fresh]. A
    /// size different from the starting net's starts that net afresh, unless --widen.
    #[arg(long)]
    hidden: Option<usize>,
    /// With --hidden above the starting net's units: keep its units and add fresh ones
    /// with zero output weights (the net starts from the starting net's outputs)
    /// instead of starting the net afresh.
    #[arg(long, requires = "hidden")]
    widen: bool,
    /// Epochs at most (with --resume: the new total) [default: 20].
    #[arg(long)]
    epochs: Option<u32>,
    /// Positions per mini-batch [default: 128].
    #[arg(long)]
    batch: Option<usize>,
    /// Optimizer: sgd (with momentum) or adam [default: adam].
    #[arg(long)]
    optimizer: Option<OptimizerKind>,
    /// Learning rate per effective (slope-scaled) weight [default: adam 0.001, sgd 0.1].
    #[arg(long)]
    lr: Option<f32>,
    /// SGD momentum [default: 0.9].
    #[arg(long)]
    momentum: Option<f32>,
    /// Learning-rate schedule: constant, cosine (to --min-lr over the epochs) or
    /// plateau (× --decay after --plateau epochs without improvement) [default: plateau].
    #[arg(long)]
    schedule: Option<Schedule>,
    /// Factor of the plateau schedule [default: 0.5].
    #[arg(long)]
    decay: Option<f32>,
    /// Epochs without improvement before the plateau schedule decays [default: 2].
    #[arg(long)]
    plateau: Option<u32>,
    /// Smallest learning rate [default: 1e-5].
    #[arg(long)]
    min_lr: Option<f32>,
    /// Stop after this many epochs without improvement of the validation error (0:
    /// never) [default: 4].
    #[arg(long)]
    patience: Option<u32>,
    /// Loss: mse or cross-entropy, summed over the five outputs [default: mse].
    #[arg(long)]
    loss: Option<Loss>,
    /// Fraction of the positions held out for validation (0..=0.5) [default: 0.1].
    #[arg(long)]
    validation: Option<f64>,
    /// Seed of the validation split, the epochs' orders and fresh weights [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// New run directory.
    #[arg(
        long,
        short = 'o',
        visible_alias = "output",
        required_unless_present_any = ["resume", "bench"],
        conflicts_with = "resume"
    )]
    out: Option<PathBuf>,
    /// Continue the run in this directory from its checkpoint.
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Worker threads (default: all cores; with --resume, the run's own count). Results
    /// do not depend on it.
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Stop after this many minutes of this session (after the batch in progress) and
    /// checkpoint; --resume continues.
    #[arg(long)]
    minutes: Option<f64>,
    /// Keep every position's net inputs in memory when they take at most this many MiB
    /// (faster epochs; the results are the same).
    #[arg(long, default_value_t = 1024)]
    cache_mb: u64,
    /// Measure instead of training: one epoch over N synthetic contact positions with
    /// a 250-H-5 net (H = --hidden, default 128) and Adam; prints JSON.
    #[arg(long, value_name = "N", conflicts_with_all = ["resume", "out", "data", "init"])]
    bench: Option<usize>,
    /// With --out: replace the files of another run in DIR (net.*, curve.*, the
    /// checkpoint) instead of refusing to start.
    #[arg(long, conflicts_with = "resume")]
    force: bool,
    /// Print the final summary as JSON.
    #[arg(long)]
    json: bool,
    /// No progress bar or epoch lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// `--class`: one class or several, trained in turn.
#[derive(Clone, Debug)]
pub struct Classes(Vec<NetClass>);

impl std::str::FromStr for Classes {
    type Err = String;
    fn from_str(s: &str) -> Result<Classes, String> {
        if s == "all" {
            return Ok(Classes(NetClass::ALL.to_vec()));
        }
        let list = s
            .split(',')
            .map(str::parse)
            .collect::<Result<Vec<NetClass>, String>>()?;
        for (i, c) in list.iter().enumerate() {
            if list[..i].contains(c) {
                return Err(format!("class '{c}' is listed twice"));
            }
        }
        Ok(Classes(list))
    }
}

/// The plan of a several-class run (`classes.json` in its directory).
#[derive(Serialize, Deserialize)]
struct Plan {
    /// Always [`PLAN_FORMAT`].
    format: String,
    /// 1.
    format_version: u32,
    /// Each class's settings, in training order.
    classes: Vec<SupervisedSettings>,
    /// The data files.
    data: Vec<PathBuf>,
    /// The starting weights of the first class (`null`: fresh nets).
    init: Option<PathBuf>,
}

const PLAN_FORMAT: &str = "bgkit-trainer-supervised-classes";

fn plan_path(dir: &Path) -> PathBuf {
    dir.join("classes.json")
}

fn write_plan(dir: &Path, plan: &Plan) -> Result<()> {
    let json = serde_json::to_string_pretty(plan)?;
    trainer::model::write_atomic(&plan_path(dir), format!("{json}\n").as_bytes())?;
    Ok(())
}

pub fn run(args: Args) -> Result<ExitCode> {
    let threads = thread_count(args.threads)?;
    if let Some(n) = args.bench {
        if n == 0 {
            bail!("--bench needs at least 1 position");
        }
        let r = bench::bench(n, args.hidden.unwrap_or(128), args.batch.unwrap_or(128), threads)?;
        cli_support::outln!("{}", serde_json::to_string(&r)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let deadline = cli_support::args::deadline(args.minutes)?;
    if args.resume.is_some() {
        check_resume_flags(&args)?;
    }
    let several = match (&args.resume, &args.class) {
        (Some(dir), _) => plan_path(dir).exists(),
        (None, Some(c)) => c.0.len() > 1,
        (None, None) => false,
    };
    if several {
        return run_classes(&args, threads, deadline);
    }
    // The run directory, held until the command ends.
    let _held;
    let (mut run, threads, previous_threads) = match &args.resume {
        Some(dir) => {
            _held = super::lock_run_dir(dir)?;
            let (threads, previous) =
                super::resume_threads(load_state(dir)?.threads, args.threads, args.quiet)?;
            let data = (!args.data.is_empty()).then_some(args.data.as_slice());
            let mut run = Run::resume(dir, data, threads)?;
            set_total_epochs(&mut run, args.epochs)?;
            (run, threads, previous)
        }
        None => {
            if args.data.is_empty() {
                bail!("--data is required (a dataset file with rolled-out positions)");
            }
            let class = args.class.as_ref().expect("clap requires --class").0[0];
            let settings = settings_for(&args, class)?;
            let start = match &args.init {
                Some(p) => Start::load(p)?,
                None => Start::fresh(args.hidden.unwrap_or(128), settings.seed)?,
            };
            let out = args.out.as_ref().expect("clap requires --out");
            let inputs = inputs(&args);
            let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            _held = super::prepare_run_dir(out, &inputs, args.force)?;
            (
                Run::create(out, settings, &args.data, start, threads)?,
                threads,
                None,
            )
        }
    };
    let top = run.dir().to_path_buf();
    train(&mut run, &args, deadline, false, &top)?;
    if args.json {
        cli_support::outln!("{}", summary_json(&run, threads, previous_threads))?;
    } else {
        summary_text(&run)?;
        if let Some(b) = previous_threads {
            cli_support::outln!("threads: {threads} in this session ({b} before)")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The files a new run reads (no output may replace them): the data, the --init
/// weights and the sidecar beside them.
fn inputs(args: &Args) -> Vec<PathBuf> {
    let mut inputs = args.data.clone();
    if let Some(p) = &args.init {
        inputs.extend(trainer::model::weights_files(p));
    }
    inputs
}

/// `--resume --epochs E`: E is the run's total, as `trainer td --games` is; below the
/// epochs already trained it is refused instead of doing nothing.
fn set_total_epochs(run: &mut Run, epochs: Option<u32>) -> Result<()> {
    let Some(e) = epochs else { return Ok(()) };
    let done = run.state().epoch;
    if e < done {
        bail!(
            "the run ({}) has already trained {done} epochs; --epochs is the total to reach (at least {done}), \
             not {e}",
            run.dir().display()
        );
    }
    run.set_epochs(e)?;
    Ok(())
}

fn check_resume_flags(args: &Args) -> Result<()> {
    let given = [
        ("init", args.init.is_some()),
        ("class", args.class.is_some()),
        ("hidden", args.hidden.is_some()),
        ("widen", args.widen),
        ("batch", args.batch.is_some()),
        ("optimizer", args.optimizer.is_some()),
        ("lr", args.lr.is_some()),
        ("momentum", args.momentum.is_some()),
        ("schedule", args.schedule.is_some()),
        ("decay", args.decay.is_some()),
        ("plateau", args.plateau.is_some()),
        ("min-lr", args.min_lr.is_some()),
        ("patience", args.patience.is_some()),
        ("loss", args.loss.is_some()),
        ("validation", args.validation.is_some()),
        ("seed", args.seed.is_some()),
    ];
    if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
        bail!("--{flag} cannot be given with --resume (a resumed run keeps its settings)");
    }
    Ok(())
}

/// A new run's settings for `class` from the flags.
fn settings_for(args: &Args, class: NetClass) -> Result<SupervisedSettings> {
    let kind = args.optimizer.unwrap_or(OptimizerKind::Adam);
    let mut optimizer = OptimizerSettings::new(kind);
    if let Some(m) = args.momentum {
        if kind != OptimizerKind::Sgd {
            bail!("--momentum is for --optimizer sgd (Adam's moments are not set by it)");
        }
        optimizer.momentum = m;
    }
    let d = SupervisedSettings::new(class);
    let settings = SupervisedSettings {
        class,
        hidden: args.hidden,
        widen: args.widen,
        epochs: args.epochs.unwrap_or(d.epochs),
        batch: args.batch.unwrap_or(d.batch),
        optimizer,
        lr: args.lr.unwrap_or(match kind {
            OptimizerKind::Adam => 0.001,
            OptimizerKind::Sgd => 0.1,
        }),
        schedule: args.schedule.unwrap_or(d.schedule),
        decay: args.decay.unwrap_or(d.decay),
        plateau: args.plateau.unwrap_or(d.plateau),
        min_lr: args.min_lr.unwrap_or(d.min_lr),
        patience: args.patience.unwrap_or(d.patience),
        loss: args.loss.unwrap_or(d.loss),
        validation: args.validation.unwrap_or(d.validation),
        seed: args.seed.unwrap_or(d.seed),
        activation: d.activation,
    };
    settings.validate()?;
    Ok(settings)
}

/// Trains `run` (unless it is finished) with a progress bar and epoch lines.
/// `top` is the directory the command was given (`--out` or `--resume`: the run's, or
/// the several classes' directory).
fn train(
    run: &mut Run,
    args: &Args,
    deadline: Option<std::time::Instant>,
    several: bool,
    top: &Path,
) -> Result<()> {
    if run.finished() {
        return Ok(());
    }
    run.cache_inputs(args.cache_mb.saturating_mul(1 << 20));
    let s = run.state();
    let per_epoch = s.train_positions;
    let total = per_epoch * u64::from(s.settings.epochs);
    let bar = progress_bar_until(total, "positions", args.quiet, deadline);
    bar.set_position(per_epoch * u64::from(s.epoch) + s.epoch_rows);
    bar.reset_eta();
    let quiet = args.quiet;
    let epochs = s.settings.epochs;
    // Several classes in turn: the epoch lines name the class.
    let prefix = if several {
        format!("{} ", s.settings.class)
    } else {
        String::new()
    };
    let events = |e: Event| match e {
        Event::Batch { epoch, done } => bar.set_position(per_epoch * u64::from(epoch) + done),
        Event::Epoch(r) => {
            let val = match (r.val_mse, r.val_equity_rmse) {
                (Some(m), Some(e)) => format!("validation mse {m:.6}, equity rmse {e:.4}"),
                _ => "no validation".into(),
            };
            let line = format!(
                "{}epoch {}/{epochs}: train mse {:.6}, {val} (lr {:.2e}, {:.0} positions/s)",
                prefix, r.epoch, r.train_mse, r.lr, r.samples_per_s
            );
            bar.set_message(format!("epoch {}: {val}", r.epoch));
            match (quiet, bar.is_hidden()) {
                (true, _) => {}
                (false, true) => cli_support::errln!("{line}"),
                (false, false) => bar.println(line),
            }
        }
        Event::EarlyStop(e) => {
            if !quiet {
                let line = format!("early stop after epoch {e}: no improvement for the patience");
                if bar.is_hidden() {
                    cli_support::errln!("{line}");
                } else {
                    bar.println(line);
                }
            }
        }
    };
    run.train(
        Limits {
            deadline,
            max_batches: None,
        },
        &events,
    )
    .map_err(|e| match e {
        // The checkpoint resumes with the same rate and would diverge again: a new
        // run with a smaller rate is the way on, in DIR with --force or elsewhere.
        TrainerError::Diverged { .. } => anyhow::anyhow!(
            "{e}; start the run again with a smaller --lr: --out {} --force replaces this run (--resume would \
             diverge again), or give another --out",
            top.display()
        ),
        e => e.into(),
    })?;
    bar.finish_and_clear();
    Ok(())
}

/// Training positions per second of training time, all sessions together.
fn samples_per_s(run: &Run) -> f64 {
    let s = run.state();
    let trained = u64::from(s.epoch) * s.train_positions + s.epoch_rows;
    if s.train_seconds > 0.0 {
        trained as f64 / s.train_seconds
    } else {
        0.0
    }
}

fn summary_json(run: &Run, threads: usize, previous_threads: Option<usize>) -> serde_json::Value {
    let s = run.state();
    let rate = samples_per_s(run);
    let best_row = s.curve.iter().find(|r| r.epoch == s.best_epoch);
    serde_json::json!({
        "class": s.settings.class,
        "train_positions": s.train_positions,
        "validation_positions": s.validation_positions,
        "epochs": s.epoch,
        "finished": run.finished(),
        "early_stopped": s.stopped,
        "best_epoch": s.best_epoch,
        "best_val_mse": best_row.and_then(|r| r.val_mse),
        "best_val_equity_rmse": best_row.and_then(|r| r.val_equity_rmse),
        "last_train_mse": s.curve.last().map(|r| r.train_mse),
        "samples_per_s": rate,
        "train_seconds": s.train_seconds,
        "elapsed_seconds": s.elapsed_seconds,
        "threads": threads,
        "previous_threads": previous_threads,
    })
}

fn summary_text(run: &Run) -> Result<()> {
    let s = run.state();
    let rate = samples_per_s(run);
    cli_support::outln!(
        "{} net: {} training and {} validation positions; {} epoch(s){}",
        s.settings.class,
        s.train_positions,
        s.validation_positions,
        s.epoch,
        if s.stopped {
            " (stopped early)"
        } else if run.finished() {
            ""
        } else {
            " so far (resume to continue)"
        }
    )?;
    if let Some(r) = s.curve.iter().find(|r| r.epoch == s.best_epoch) {
        match (r.val_mse, r.val_equity_rmse) {
            (Some(m), Some(e)) => cli_support::outln!(
                "best at epoch {}: validation mse {m:.6} per output, equity rmse {e:.4}",
                r.epoch
            )?,
            _ => cli_support::outln!("best at epoch {}: train mse {:.6}", r.epoch, r.train_mse)?,
        }
    }
    cli_support::outln!(
        "{rate:.0} positions/s in training batches, {:.0} s in all",
        s.elapsed_seconds
    )?;
    Ok(())
}

/// Several classes in turn: DIR/<class>/ is each class's run, started from the nets
/// the previous class's run wrote (the first from --init or fresh nets); when the last
/// is finished its nets are copied to DIR. `--resume DIR` continues with the class in
/// progress.
fn run_classes(args: &Args, mut threads: usize, deadline: Option<std::time::Instant>) -> Result<ExitCode> {
    // The run directories, held until the command ends.
    let mut held = Vec::new();
    let (dir, mut plan) = match &args.resume {
        Some(dir) => {
            held.push(super::lock_run_dir(dir)?);
            let path = plan_path(dir);
            let text =
                std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let plan: Plan = serde_json::from_str(&text)
                .ok()
                .filter(|p: &Plan| p.format == PLAN_FORMAT && p.format_version == 1)
                .with_context(|| format!("{}: not a several-class supervised run", path.display()))?;
            // Each class's run too: `--resume DIR/<class>` is a run of its own.
            for s in &plan.classes {
                held.push(super::lock_run_dir(&dir.join(s.class.to_string()))?);
            }
            (dir.clone(), plan)
        }
        None => {
            if args.data.is_empty() {
                bail!("--data is required (a dataset file with rolled-out positions)");
            }
            let classes = &args.class.as_ref().expect("clap requires --class").0;
            // Each class's run reads the data again (and a resume reads it later): a pipe
            // would give its positions to the first class only.
            if let Some(p) = args
                .data
                .iter()
                .find(|p| std::fs::metadata(p).is_ok_and(|m| !m.is_file()))
            {
                bail!(
                    "--data {} is not a regular file (a pipe?): a run of several classes reads its data once per class, and a resume reads it again; write it to a file first",
                    p.display()
                );
            }
            let settings = classes
                .iter()
                .map(|&c| settings_for(args, c))
                .collect::<Result<Vec<_>>>()?;
            let out = args.out.as_ref().expect("clap requires --out");
            let inputs = inputs(args);
            let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            held.push(super::prepare_run_dir(out, &inputs, args.force)?);
            for c in classes {
                held.push(super::prepare_run_dir(
                    &out.join(c.to_string()),
                    &inputs,
                    args.force,
                )?);
            }
            std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
            let plan = Plan {
                format: PLAN_FORMAT.into(),
                format_version: 1,
                classes: settings,
                data: args.data.clone(),
                init: args.init.clone(),
            };
            write_plan(out, &plan)?;
            (out.clone(), plan)
        }
    };
    let data = if args.data.is_empty() {
        plan.data.clone()
    } else {
        args.data.clone()
    };
    let mut rows = Vec::new();
    let mut previous_threads = None;
    let mut last: Option<PathBuf> = None;
    let mut finished = true;
    // On a resume, --epochs is recorded for the classes not started yet once the class
    // in progress has accepted it, so that a later --resume without it keeps it.
    let mut record_epochs = args.resume.as_ref().and(args.epochs);
    for i in 0..plan.classes.len() {
        let settings = plan.classes[i].clone();
        let sub = dir.join(settings.class.to_string());
        let mut run = if state_path(&sub).exists() {
            let (t, previous) = super::resume_threads(load_state(&sub)?.threads, args.threads, args.quiet)?;
            threads = t;
            previous_threads = previous_threads.or(previous);
            let mut run = Run::resume(&sub, Some(&data), threads)?;
            // --epochs applies to the classes not yet finished: a finished one keeps
            // its count (raising it would train that class again).
            if !run.finished() {
                set_total_epochs(&mut run, args.epochs)?;
            }
            run
        } else {
            let start = match (&last, &plan.init) {
                (Some(p), _) | (None, Some(p)) => Start::load(p)?,
                (None, None) => Start::fresh(settings.hidden.unwrap_or(128), settings.seed)?,
            };
            let mut settings = settings;
            settings.epochs = args.epochs.unwrap_or(settings.epochs);
            Run::create(&sub, settings, &data, start, threads)?
        };
        if !run.finished() {
            if let Some(e) = record_epochs.take() {
                plan.classes[i..].iter_mut().for_each(|c| c.epochs = e);
                write_plan(&dir, &plan)?;
            }
        }
        train(&mut run, args, deadline, true, &dir)?;
        rows.push(summary_json(&run, threads, None));
        last = Some(sub.join("net.wd"));
        if !run.finished() {
            finished = false;
            break;
        }
    }
    if finished {
        let last = last.expect("at least one class");
        for ext in ["wd", "weights", "json"] {
            let from = last.with_extension(ext);
            if ext == "json" && !from.exists() {
                continue;
            }
            let bytes = std::fs::read(&from).with_context(|| format!("cannot read {}", from.display()))?;
            trainer::model::write_atomic(&dir.join("net").with_extension(ext), &bytes)?;
        }
    }
    if args.json {
        let summary = serde_json::json!({
            "classes": rows,
            "finished": finished,
            "threads": threads,
            "previous_threads": previous_threads,
        });
        cli_support::outln!("{summary}")?;
    } else {
        for row in &rows {
            let best = match (row["best_val_mse"].as_f64(), row["best_val_equity_rmse"].as_f64()) {
                (Some(m), Some(e)) => format!("best validation mse {m:.6}, equity rmse {e:.4}"),
                _ => format!(
                    "train mse {:.6}",
                    row["last_train_mse"].as_f64().unwrap_or(f64::NAN)
                ),
            };
            cli_support::outln!(
                "{:<8} {} epoch(s){}, best at epoch {}: {best}",
                row["class"].as_str().unwrap_or(""),
                row["epochs"],
                if row["finished"] == true { "" } else { " so far" },
                row["best_epoch"]
            )?;
        }
        cli_support::outln!(
            "{}",
            if finished {
                format!("all classes trained: {}", dir.join("net.wd").display())
            } else {
                format!("stopped; continue with --resume {}", dir.display())
            }
        )?;
        if let Some(b) = previous_threads {
            cli_support::outln!("threads: {threads} in this session ({b} before)")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

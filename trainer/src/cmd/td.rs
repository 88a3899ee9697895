//! `trainer td`: TD(λ) self-play training.

use cli_support::progress::progress_bar_until;
use cli_support::thread_count;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Result};
use evaluator::bearoff::BearoffDbs;
use trainer::encoding::Encoding;
use trainer::model::{Init, Layout, ModelConfig};
use trainer::td::{EvalMode, TdParams};
use trainer::train::{Event, Parallel, Run, RunSettings};

use super::{data_paths, BearoffArgs};

/// The default parallel scheme.
pub const DEFAULT_PARALLEL: Parallel = Parallel::Ordered;
/// The default lag of the ordered scheme.
pub const DEFAULT_LAG: u64 = 1;
/// The default round of the sync scheme and block of the ordered scheme: for ordered
/// the largest divisor of 100 that divides the checkpoint and benchmark cadences (they
/// fall on block ends), so that a block is 100 games with the default cadences.
fn default_batch(p: Parallel, checkpoint_every: u64, bench_every: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    match p {
        Parallel::Ordered => gcd(gcd(100, checkpoint_every), bench_every),
        _ => 16,
    }
}

/// `--init`: a scheme for fresh nets or a weights file to start from.
#[derive(Clone, Debug)]
pub enum InitArg {
    /// Fresh nets.
    Scheme(Init),
    /// A weights file.
    File(PathBuf),
}

impl std::str::FromStr for InitArg {
    type Err = String;
    fn from_str(s: &str) -> Result<InitArg, String> {
        match s {
            "xavier" | "gnubg" => Ok(InitArg::Scheme(s.parse()?)),
            "" => Err("expected xavier, gnubg or a weights file".into()),
            _ => Ok(InitArg::File(super::init_file(s, true)?)),
        }
    }
}

/// Train nets by TD(λ) self-play at 0 ply (both sides the same nets, learning after
/// every move), from scratch or from a weights file (--init FILE), benchmarking against
/// pubeval on the way.
///
/// The run directory gets net.wd / net.weights (gnubg's formats) and net.json (sidecar),
/// a checkpoint (state.json, state-<games>.wd) every --checkpoint-every games, and the
/// learning curve (curve.csv, curve.png). `--resume DIR --games N` continues a run to N
/// games in total with its own settings.
#[derive(clap::Args)]
pub struct Args {
    /// Total self-play games (all sessions of the run together).
    #[arg(long)]
    games: u64,
    /// New run directory.
    #[arg(
        long,
        short = 'o',
        visible_alias = "output",
        required_unless_present = "resume",
        conflicts_with = "resume"
    )]
    out: Option<PathBuf>,
    /// Continue the run in this directory from its last checkpoint.
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Trace decay λ (0 = TD(0), the fastest) [default: 0].
    #[arg(long)]
    lambda: Option<f32>,
    /// Initial learning rate α, per effective weight [default: 0.2].
    #[arg(long)]
    alpha: Option<f32>,
    /// Annealing: the rate of game n is α / (1 + n/1000)^X [default: 0.3].
    #[arg(long)]
    anneal: Option<f32>,
    /// Hidden units of each net [default: 128].
    #[arg(long)]
    hidden: Option<usize>,
    /// Input encoding: gnubg (contact, crashed, race inputs) or tesauro (198 raw)
    /// [default: gnubg].
    #[arg(long)]
    encoding: Option<Encoding>,
    /// Nets: split (contact, race, crashed) or single (tesauro encoding only)
    /// [default: split].
    #[arg(long)]
    layout: Option<Layout>,
    /// Initial weights: xavier, gnubg (uniform ±0.25), or a weights file to continue
    /// from (.wd or .weights; a trainer model with its .json sidecar, or gnubg's nets)
    /// [default: xavier].
    #[arg(long, value_name = "xavier|gnubg|FILE")]
    init: Option<InitArg>,
    /// Version written into the weights files: 1.00 loads in Debian's gnubg 1.07;
    /// 1.01 and later also switch to the fixed PIPLOSS input [default: 1.00].
    #[arg(long)]
    weights_version: Option<String>,
    /// Let the nets play bearoff positions too, instead of gnubg's databases.
    #[arg(long)]
    no_bearoff: bool,
    /// Preselect self-play moves with the pruning nets, as gnubg does inside its
    /// lookahead: only the best 5 + log2(n) of n candidates get a full evaluation
    /// (gnubg encoding only; faster, slightly different move choices).
    #[arg(long)]
    prune_moves: bool,
    /// How self-play scores its move lists: fused (four candidates per pass over the
    /// weights, hidden sums with fused multiply-adds), exact (gnubg's 0-ply bits) or
    /// incremental (the first candidate in full, the others by the input rows that
    /// differ); both fast modes give equities within about 2e-3 of exact [default:
    /// fused].
    #[arg(long, value_name = "fused|exact|incremental")]
    eval: Option<EvalMode>,
    /// Worker threads (default: all cores; with --resume, the run's own count).
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Parallel scheme: ordered (each game learns online on the weights of --lag games
    /// before and merges in game order; reproducible for any thread count), async (each
    /// thread learns on a snapshot and merges after every game; reproducible only with
    /// --threads 1) or sync (rounds of --batch games from common weights; reproducible)
    /// [default: ordered].
    #[arg(long)]
    parallel: Option<Parallel>,
    /// Games per block of the ordered scheme or round of the sync scheme (checkpoints,
    /// benchmarks and --minutes stops fall on block ends) [default: sync 16; ordered
    /// 100, or the largest divisor of 100 that divides --checkpoint-every and
    /// --bench-every].
    #[arg(long)]
    batch: Option<u64>,
    /// Games the ordered scheme's snapshots lag behind (0 = plain online learning,
    /// no parallelism) [default: 1].
    #[arg(long)]
    lag: Option<u64>,
    /// Seed of the initial weights and the dice [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Games between checkpoints (with sync, a multiple of --batch) [default: 10000].
    #[arg(long)]
    checkpoint_every: Option<u64>,
    /// Games between benchmarks against pubeval (0: none; with sync, a multiple of
    /// --batch) [default: 10000].
    #[arg(long)]
    bench_every: Option<u64>,
    /// Games per benchmark (duplicate dice, even, at least 4) [default: 2000].
    #[arg(long)]
    bench_games: Option<u64>,
    /// Seed of the benchmark dice, the same games at every benchmark [default: 1].
    #[arg(long)]
    bench_seed: Option<u64>,
    /// Stop after this many minutes of this session (after the games in progress),
    /// benchmark and checkpoint; --games still caps the run.
    #[arg(long)]
    minutes: Option<f64>,
    /// With --out: replace the files of another run in DIR (net.*, curve.*, the
    /// checkpoint) instead of refusing to start.
    #[arg(long, conflicts_with = "resume")]
    force: bool,
    /// Print the final summary as JSON.
    #[arg(long)]
    json: bool,
    /// No progress bar or benchmark lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    data: BearoffArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    // Checked before any work; the deadline itself counts from the first game.
    cli_support::args::deadline(args.minutes)?;
    if args.resume.is_some() {
        let given = [
            ("lambda", args.lambda.is_some()),
            ("alpha", args.alpha.is_some()),
            ("anneal", args.anneal.is_some()),
            ("hidden", args.hidden.is_some()),
            ("encoding", args.encoding.is_some()),
            ("layout", args.layout.is_some()),
            ("init", args.init.is_some()),
            ("weights-version", args.weights_version.is_some()),
            ("no-bearoff", args.no_bearoff),
            ("prune-moves", args.prune_moves),
            ("eval", args.eval.is_some()),
            ("parallel", args.parallel.is_some()),
            ("batch", args.batch.is_some()),
            ("lag", args.lag.is_some()),
            ("seed", args.seed.is_some()),
            ("checkpoint-every", args.checkpoint_every.is_some()),
            ("bench-every", args.bench_every.is_some()),
            ("bench-games", args.bench_games.is_some()),
            ("bench-seed", args.bench_seed.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
            bail!("--{flag} cannot be given with --resume (a resumed run keeps its settings)");
        }
    }
    let open_dbs = |bearoff: bool| -> Result<Arc<BearoffDbs>> {
        Ok(Arc::new(if bearoff {
            data_paths(&args.data).open()?
        } else {
            BearoffDbs::default()
        }))
    };
    // With --resume: the thread count of the run's last session, when it changes.
    let mut previous_threads = None;
    // The run directory, held until the command ends.
    let _held;
    let mut run = match &args.resume {
        Some(dir) => {
            _held = super::lock_run_dir(dir)?;
            let (state, _) = trainer::train::load_state(dir)?;
            let (threads, previous) = super::resume_threads(state.threads, args.threads, args.quiet)?;
            previous_threads = previous;
            let dbs = open_dbs(state.settings.model.bearoff)?;
            Run::resume(dir, dbs, threads)?
        }
        None => {
            let threads = thread_count(args.threads)?;
            let (scheme, start) = match &args.init {
                None => (Init::Xavier, None),
                Some(InitArg::Scheme(i)) => (*i, None),
                Some(InitArg::File(path)) => (Init::Xavier, Some(load_start(path, &args)?)),
            };
            let file_config = start
                .as_ref()
                .map(|(m, _): &(trainer::model::Model, String)| m.config.clone());
            let parallel = args.parallel.unwrap_or(DEFAULT_PARALLEL);
            let checkpoint_every = args.checkpoint_every.unwrap_or(10_000);
            let bench_every = args.bench_every.unwrap_or(10_000);
            let settings = RunSettings {
                model: ModelConfig {
                    encoding: pick(
                        args.encoding,
                        file_config.as_ref().map(|c| c.encoding),
                        Encoding::Gnubg,
                    ),
                    layout: pick(args.layout, file_config.as_ref().map(|c| c.layout), Layout::Split),
                    hidden: pick(args.hidden, file_config.as_ref().map(|c| c.hidden), 128),
                    init: file_config.as_ref().map_or(scheme, |c| c.init),
                    weights_version: pick(
                        args.weights_version.clone(),
                        file_config.as_ref().map(|c| c.weights_version.clone()),
                        "1.00".into(),
                    ),
                    bearoff: !args.no_bearoff,
                },
                td: TdParams {
                    lambda: args.lambda.unwrap_or(TdParams::default().lambda),
                    alpha: args.alpha.unwrap_or(TdParams::default().alpha),
                    anneal: args.anneal.unwrap_or(TdParams::default().anneal),
                    prune_moves: args.prune_moves,
                    eval: args.eval.unwrap_or(TdParams::default().eval),
                },
                seed: args.seed.unwrap_or(1),
                parallel,
                batch: args
                    .batch
                    .unwrap_or(default_batch(parallel, checkpoint_every, bench_every)),
                lag: args.lag.unwrap_or(if parallel == Parallel::Ordered {
                    DEFAULT_LAG
                } else {
                    0
                }),
                checkpoint_every,
                bench_every,
                bench_games: args.bench_games.unwrap_or(2_000),
                bench_seed: args.bench_seed.unwrap_or(1),
            };
            settings.validate()?;
            if args.lag.is_some() && parallel != Parallel::Ordered {
                bail!("--lag is a setting of --parallel ordered");
            }
            let out = args.out.as_ref().expect("clap requires --out");
            // The --init file (and its sidecar) and the databases the run plays with,
            // given or found, are inputs.
            let mut inputs: Vec<PathBuf> = args.data.paths().into_iter().map(PathBuf::from).collect();
            if let Some(InitArg::File(p)) = &args.init {
                inputs.extend(trainer::model::weights_files(p));
            }
            if settings.model.bearoff {
                inputs.extend(data_paths(&args.data).files());
            }
            let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            let dbs = open_dbs(settings.model.bearoff)?;
            _held = super::prepare_run_dir(out, &inputs, args.force)?;
            let start = start.map(|(mut m, name)| {
                m.config = settings.model.clone();
                (m, name)
            });
            Run::create_from(out, settings, dbs, threads, start)?
        }
    };
    let done = run.state().games;
    if args.games < done {
        bail!("the run already has {done} games; --games is the total to reach");
    }
    let threads = run.threads();
    let deadline = cli_support::args::deadline(args.minutes)?;
    let bar = progress_bar_until(args.games, "games", args.quiet, deadline);
    bar.set_position(done);
    bar.reset_eta();
    let quiet = args.quiet;
    let events = |e: Event| match e {
        Event::Games(n) => bar.set_position(n),
        Event::Bench(r) => {
            let line = format!(
                "{} games: {:+.3} ± {:.3} ppg vs pubeval ({:.0} games/s, alpha {:.4})",
                r.games, r.ppg, r.se, r.games_per_s, r.alpha
            );
            bar.set_message(format!("last {:+.3} ± {:.3} ppg", r.ppg, r.se));
            match (quiet, bar.is_hidden()) {
                (true, _) => {}
                // stderr is not a terminal (a log file, say): plain lines.
                (false, true) => cli_support::errln!("{line}"),
                (false, false) => bar.println(line),
            }
        }
        Event::Checkpoint(_) => {}
    };
    run.train(args.games, deadline, &events)?;
    bar.finish_and_clear();
    let s = run.state();
    let last = s.curve.last();
    let rate = if s.train_seconds > 0.0 {
        s.games as f64 / s.train_seconds
    } else {
        0.0
    };
    if args.json {
        let summary = serde_json::json!({
            "games": s.games,
            "positions": s.positions,
            "elapsed_seconds": s.elapsed_seconds,
            "train_seconds": s.train_seconds,
            "games_per_second": rate,
            "ppg": last.map(|r| r.ppg),
            "se": last.map(|r| r.se),
            "threads": threads,
            "previous_threads": previous_threads,
            "eval": s.settings.td.eval,
        });
        cli_support::outln!("{summary}")?;
    } else {
        cli_support::outln!(
            "{} games, {} positions trained in {:.0} s of self-play ({:.0} games/s overall), {:.0} s in all",
            s.games,
            s.positions,
            s.train_seconds,
            rate,
            s.elapsed_seconds
        )?;
        if let Some(before) = previous_threads {
            cli_support::outln!("threads: {threads} in this session ({before} before)")?;
        }
        if let Some(r) = last {
            cli_support::outln!(
                "benchmark at {} games: {:+.4} ± {:.4} ppg vs pubeval",
                r.games,
                r.ppg,
                r.se
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The nets of `--init FILE` with the file's name: a trainer model (with its sidecar)
/// or gnubg's nets; the flags given must agree with what the file holds.
fn load_start(path: &std::path::Path, args: &Args) -> Result<(trainer::model::Model, String)> {
    use trainer::model::{self, Model};
    let name = path.display().to_string();
    let model = if let Some((m, _)) = model::load_if_trainer(path)? {
        m
    } else {
        let weights = evaluator::weights::Weights::load_any(path)?;
        let hidden = weights.nets.first().map_or(0, |n| n.hidden);
        let config = ModelConfig {
            encoding: Encoding::Gnubg,
            layout: Layout::Split,
            hidden,
            init: Init::Xavier,
            weights_version: weights.version.clone(),
            bearoff: true,
        };
        Model::from_weights(config, weights, path)?
    };
    let c = &model.config;
    let clash = |flag: &str, given: String, file: String| {
        anyhow::anyhow!("--{flag} {given} does not match --init {name}, whose nets have {flag} {file}")
    };
    if let Some(e) = args.encoding.filter(|e| *e != c.encoding) {
        return Err(clash("encoding", e.to_string(), c.encoding.to_string()));
    }
    if let Some(l) = args.layout.filter(|l| *l != c.layout) {
        return Err(clash("layout", l.to_string(), c.layout.to_string()));
    }
    if let Some(h) = args.hidden.filter(|h| *h != c.hidden) {
        return Err(clash("hidden", h.to_string(), c.hidden.to_string()));
    }
    Ok((model, name))
}

/// A setting: the flag's value, else the starting file's, else the default.
fn pick<T>(given: Option<T>, file: Option<T>, default: T) -> T {
    given.or(file).unwrap_or(default)
}

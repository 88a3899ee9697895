//! A whole TD training run: self-play on several threads, benchmarks against pubeval,
//! checkpoints, resumption, the learning curve.
//!
//! # Parallel schemes
//!
//! * `ordered` (default): deterministic asynchronous learning with a fixed lag (see
//!   [`crate::ordered`]): game `g` learns on a copy of the weights after games
//!   `0..max(b, g − lag)` (`b` the start of its block of `batch` games) and merges in
//!   game order. The result depends on the seed, the lag and the block size only, never
//!   on the number of threads or on timing; lag 0 is plain online learning.
//! * `async`: each thread repeatedly takes a snapshot of the shared weights,
//!   plays one game on a copy, learning online, and adds its change to the shared
//!   weights under a lock (or, if no other thread merged meanwhile, the copy becomes
//!   the shared weights). Staleness is at most the games of the other threads; the
//!   result depends on timing and is not reproducible with several threads. With one
//!   thread it is plain online learning, exactly reproducible.
//! * `sync`: games are played in rounds of `batch` games. Every game of a
//!   round starts from the same weights, learns online on its own copy, and at the end
//!   of the round the changes of all copies are added to the shared weights in game
//!   order. Game `g` always uses the dice seeded from (seed, g) and the learning rate
//!   of game `g`, so a run's result depends on the seed and the batch size only, never
//!   on the number of threads or on timing. `batch 1` is plain online self-play. The
//!   summed changes of a round act like a step `batch` times larger, which learns
//!   worse per game early on (see the README for measurements).
//!
//! # Files in the output directory
//!
//! * `net.wd`, `net.weights`, `net.json`: the latest nets (gnubg binary and text
//!   formats, sidecar) — see [`crate::model`].
//! * `state.json` and `state-<games>.wd`: the checkpoint (settings, progress, curve,
//!   exact weights). A new checkpoint's weights are written first, then `state.json` is
//!   replaced (atomically) and older `state-*.wd` files are removed, so the directory
//!   always holds one complete checkpoint.
//! * `curve.csv`, `curve.png`: the learning curve (see [`crate::curve`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use evaluator::bearoff::BearoffDbs;
use evaluator::weights::Weights;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::curve::{self, CurveRow};
use crate::duel::{duel, DuelOptions};
use crate::error::TrainerError;
use crate::model::{self, Model, ModelConfig, TrainingInfo};
use crate::player::{NetPlayer, Pubeval};
use crate::seed;
use crate::td::{GameStats, Learner, TdParams};

/// The checkpoint format tag.
pub const STATE_FORMAT: &str = "bgkit-trainer-td-state";

/// How threads share the learning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Parallel {
    /// Rounds of games from common weights, merged in game order (reproducible).
    Sync,
    /// Snapshot, play, merge under a lock, per thread (not reproducible).
    Async,
    /// Snapshots lagging a fixed number of games, merged in game order (reproducible).
    Ordered,
}

impl std::str::FromStr for Parallel {
    type Err = String;
    fn from_str(s: &str) -> Result<Parallel, String> {
        match s {
            "sync" => Ok(Parallel::Sync),
            "async" => Ok(Parallel::Async),
            "ordered" => Ok(Parallel::Ordered),
            _ => Err(format!(
                "unknown parallel scheme '{s}' (expected ordered, async or sync)"
            )),
        }
    }
}

impl std::fmt::Display for Parallel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Parallel::Sync => "sync",
            Parallel::Async => "async",
            Parallel::Ordered => "ordered",
        })
    }
}

/// The settings of a run that must stay the same when it is resumed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The nets.
    pub model: ModelConfig,
    /// TD parameters.
    pub td: TdParams,
    /// Seed of the initial weights and of every game's dice.
    pub seed: u64,
    /// Parallel scheme.
    pub parallel: Parallel,
    /// Games per round (sync) or per block (ordered).
    pub batch: u64,
    /// Games a snapshot lags behind (ordered; absent in older checkpoints).
    #[serde(default)]
    pub lag: u64,
    /// Games between checkpoints.
    pub checkpoint_every: u64,
    /// Games between benchmarks (0: none).
    pub bench_every: u64,
    /// Games per benchmark (even).
    pub bench_games: u64,
    /// Seed of the benchmark dice (the same games every time).
    pub bench_seed: u64,
}

impl RunSettings {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), TrainerError> {
        self.model.validate()?;
        self.td.validate()?;
        if self.td.prune_moves && !self.model.has_prune_nets() {
            return Err(TrainerError::Invalid(
                "--prune-moves needs the gnubg encoding (only it has pruning nets)".into(),
            ));
        }
        let invalid = |m: String| Err(TrainerError::Invalid(m));
        if self.batch == 0 {
            return invalid("--batch must be at least 1".into());
        }
        let unit = if self.parallel == Parallel::Async {
            1
        } else {
            self.batch
        };
        if self.lag > 1_000 {
            return invalid(format!("--lag must be at most 1000, got {}", self.lag));
        }
        if self.checkpoint_every == 0 || !self.checkpoint_every.is_multiple_of(unit) {
            return invalid(format!(
                "--checkpoint-every ({}) must be a positive multiple of --batch ({})",
                self.checkpoint_every, self.batch
            ));
        }
        if !self.bench_every.is_multiple_of(unit) {
            return invalid(format!(
                "--bench-every ({}) must be a multiple of --batch ({})",
                self.bench_every, self.batch
            ));
        }
        if self.bench_every > 0 && (self.bench_games == 0 || !self.bench_games.is_multiple_of(2)) {
            return invalid(format!(
                "--bench-games must be even and positive (duplicate dice), got {}",
                self.bench_games
            ));
        }
        Ok(())
    }
}

/// The checkpoint: everything needed to continue a run exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Always [`STATE_FORMAT`].
    pub format: String,
    /// Format version (1).
    pub format_version: u32,
    /// The seed rule of the run's dice and initial weights ([`crate::seed::RULE`]; 1 in
    /// checkpoints that record none, which cannot be resumed).
    #[serde(default = "seed::unrecorded")]
    pub seed_rule: u32,
    /// The run's settings.
    pub settings: RunSettings,
    /// Games trained.
    pub games: u64,
    /// Positions trained.
    pub positions: u64,
    /// Games cut off at the turn limit (see [`crate::td::GameStats::truncated`]).
    #[serde(default)]
    pub truncated: u64,
    /// Wall-clock seconds, all sessions.
    pub elapsed_seconds: f64,
    /// Seconds spent in self-play (without benchmarks and checkpoints).
    pub train_seconds: f64,
    /// File (in the run directory) with the weights after `games` games.
    pub weights_file: String,
    /// Learning curve so far.
    pub curve: Vec<CurveRow>,
    /// Worker threads of the last session (0 in older checkpoints: not recorded).
    /// `--resume` without `--threads` keeps it.
    #[serde(default)]
    pub threads: usize,
    /// The weights file the run started from (`--init FILE`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_file: Option<String>,
}

/// What a run reports while it works.
#[derive(Clone, Debug)]
pub enum Event {
    /// Games finished (total, all sessions).
    Games(u64),
    /// A benchmark finished.
    Bench(CurveRow),
    /// A checkpoint was written after this many games.
    Checkpoint(u64),
}

/// Where the checkpoint lives.
pub fn state_path(dir: &Path) -> PathBuf {
    dir.join("state.json")
}

/// Reads a run's checkpoint and its weights (refusing one of another seed rule).
pub fn load_state(dir: &Path) -> Result<(State, Model), TrainerError> {
    let path = state_path(dir);
    let text = std::fs::read_to_string(&path).map_err(|e| TrainerError::io(&path, e))?;
    let state: State = serde_json::from_str(&text)
        .map_err(|e| TrainerError::format(&path, format!("not a training checkpoint: {e}")))?;
    if state.format != STATE_FORMAT {
        return Err(TrainerError::format(
            &path,
            format!("format is '{}'", state.format),
        ));
    }
    seed::check_rule(&path, state.seed_rule)?;
    let wpath = dir.join(&state.weights_file);
    let weights = Weights::load_any(&wpath)?;
    let model = Model::from_weights(state.settings.model.clone(), weights, &wpath)?;
    Ok((state, model))
}

/// A run in progress.
pub struct Run {
    dir: PathBuf,
    state: State,
    model: Model,
    dbs: Arc<BearoffDbs>,
    pool: rayon::ThreadPool,
    threads: usize,
}

impl Run {
    /// Starts a new run in `dir` (created if needed; refused if it already holds one).
    pub fn create(
        dir: &Path,
        settings: RunSettings,
        dbs: Arc<BearoffDbs>,
        threads: usize,
    ) -> Result<Run, TrainerError> {
        Run::create_from(dir, settings, dbs, threads, None)
    }

    /// [`Run::create`] starting from the nets of a weights file (`start`: the model,
    /// whose configuration must be the settings', and the file's name as recorded in
    /// the checkpoint) instead of freshly initialised ones.
    pub fn create_from(
        dir: &Path,
        settings: RunSettings,
        dbs: Arc<BearoffDbs>,
        threads: usize,
        start: Option<(Model, String)>,
    ) -> Result<Run, TrainerError> {
        settings.validate()?;
        // A new run's benchmarks need two dice pairs for a standard error (runs made
        // before this rule, with 2 games, still resume: their curve keeps se 0).
        if settings.bench_every > 0 && settings.bench_games < 4 {
            return Err(TrainerError::Invalid(format!(
                "--bench-games must be at least 4 (two dice pairs, for a standard error), got {}",
                settings.bench_games
            )));
        }
        if state_path(dir).exists() {
            return Err(TrainerError::Invalid(format!(
                "{} already holds a training run (state.json); continue it with --resume {0} or choose \
                 another --out",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(|e| TrainerError::io(dir, e))?;
        let (model, init_file) = match start {
            Some((m, name)) => {
                if m.config != settings.model {
                    return Err(TrainerError::Invalid(format!(
                        "the starting nets of {name} do not have the run's configuration"
                    )));
                }
                (m, Some(name))
            }
            None => (Model::new(settings.model.clone(), settings.seed)?, None),
        };
        let state = State {
            format: STATE_FORMAT.into(),
            format_version: 1,
            seed_rule: seed::RULE,
            settings,
            games: 0,
            positions: 0,
            truncated: 0,
            elapsed_seconds: 0.0,
            train_seconds: 0.0,
            weights_file: String::new(),
            curve: Vec::new(),
            threads,
            init_file,
        };
        Run::with(dir, state, model, dbs, threads)
    }

    /// Reopens the run in `dir` from its checkpoint.
    pub fn resume(dir: &Path, dbs: Arc<BearoffDbs>, threads: usize) -> Result<Run, TrainerError> {
        let (state, model) = load_state(dir)?;
        state.settings.validate()?;
        fileio::remove_stale_temps(dir).map_err(|e| TrainerError::io(dir, e))?;
        Run::with(dir, state, model, dbs, threads)
    }

    fn with(
        dir: &Path,
        mut state: State,
        model: Model,
        dbs: Arc<BearoffDbs>,
        threads: usize,
    ) -> Result<Run, TrainerError> {
        let threads = threads.max(1);
        state.threads = threads;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| TrainerError::Invalid(format!("cannot start {threads} threads: {e}")))?;
        Ok(Run {
            dir: dir.to_path_buf(),
            state,
            model,
            dbs,
            pool,
            threads,
        })
    }

    /// The checkpointed state (progress, settings, curve).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Worker threads of this session.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The current model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Trains until `target` games in total, or until `deadline` has passed (then
    /// stopping after the games in progress), benchmarking and checkpointing on the
    /// way; the final state is always benchmarked (if benchmarks are on) and
    /// checkpointed.
    pub fn train(
        &mut self,
        target: u64,
        deadline: Option<Instant>,
        events: &(dyn Fn(Event) + Sync),
    ) -> Result<(), TrainerError> {
        let start = Instant::now();
        let elapsed0 = self.state.elapsed_seconds;
        let elapsed = |s: &Instant| elapsed0 + s.elapsed().as_secs_f64();
        let set = self.state.settings.clone();
        if self.state.games == 0 && set.bench_every > 0 && self.state.curve.is_empty() {
            let row = self.benchmark(0.0, elapsed(&start))?;
            events(Event::Bench(row));
        }
        let mut last_row_games = self.state.games;
        let mut last_row_train = self.state.train_seconds;
        while self.state.games < target {
            let g0 = self.state.games;
            let mut g1 = target.min(next_multiple(g0, set.checkpoint_every));
            if set.bench_every > 0 {
                g1 = g1.min(next_multiple(g0, set.bench_every));
            }
            let t = Instant::now();
            let reached = self.play(g0, g1, deadline, events)?;
            self.state.train_seconds += t.elapsed().as_secs_f64();
            self.state.games = reached;
            let stopped = reached < g1;
            let g1 = reached;
            if set.bench_every > 0 && (g1 % set.bench_every == 0 || stopped) && g1 > last_row_games {
                let dt = self.state.train_seconds - last_row_train;
                let rate = if dt > 0.0 {
                    (g1 - last_row_games) as f64 / dt
                } else {
                    0.0
                };
                let row = self.benchmark(rate, elapsed(&start))?;
                last_row_games = g1;
                last_row_train = self.state.train_seconds;
                events(Event::Bench(row));
            }
            if g1 % set.checkpoint_every == 0 || g1 == target || stopped {
                self.state.elapsed_seconds = elapsed(&start);
                self.checkpoint()?;
                events(Event::Checkpoint(g1));
            }
            if stopped {
                break;
            }
        }
        if self.state.weights_file.is_empty() {
            self.state.elapsed_seconds = elapsed(&start);
            self.checkpoint()?;
        }
        Ok(())
    }

    /// Plays games `g0..g1`, or fewer if `deadline` passes; returns the end of the
    /// games played (always a contiguous range from `g0`).
    fn play(
        &mut self,
        g0: u64,
        g1: u64,
        deadline: Option<Instant>,
        events: &(dyn Fn(Event) + Sync),
    ) -> Result<u64, TrainerError> {
        let late = || deadline.is_some_and(|d| Instant::now() >= d);
        let set = &self.state.settings;
        let dbs = &self.dbs;
        let td = set.td;
        let seed = set.seed;
        let dice = |g: u64| seed::derive32(seed, seed::TRAIN_DICE, g);
        match set.parallel {
            Parallel::Sync => {
                let b = set.batch;
                let mut learner = Learner::default();
                let mut g = g0;
                while g < g1 && !late() {
                    let end = g1.min(next_multiple(g, b));
                    if end - g == 1 {
                        let stats = learner.train_game(&mut self.model, dbs, dice(g), &td, td.rate(g))?;
                        self.state.positions += u64::from(stats.positions);
                        self.state.truncated += u64::from(stats.truncated);
                    } else {
                        let base = &self.model;
                        let copies: Vec<(Model, GameStats)> = self.pool.install(|| {
                            (g..end)
                                .into_par_iter()
                                .map_init(Learner::default, |l, game| {
                                    let mut m = base.clone();
                                    let stats = l.train_game(&mut m, dbs, dice(game), &td, td.rate(game))?;
                                    Ok((m, stats))
                                })
                                .collect::<Result<_, TrainerError>>()
                        })?;
                        let mut merged = self.model.clone();
                        for (m, stats) in &copies {
                            merged.add_difference(m, &self.model);
                            self.state.positions += u64::from(stats.positions);
                            self.state.truncated += u64::from(stats.truncated);
                        }
                        self.model = merged;
                    }
                    g = end;
                    events(Event::Games(g));
                }
                Ok(g)
            }
            Parallel::Ordered => {
                let mut g = g0;
                while g < g1 && !late() {
                    let end = g1.min(next_multiple(g, set.batch));
                    let block = crate::ordered::Block {
                        b: g,
                        e: end,
                        lag: set.lag,
                        threads: self.threads,
                        dbs,
                        td,
                        dice: &dice,
                    };
                    let totals = block.run(&mut self.model, &|n| events(Event::Games(n)))?;
                    self.state.positions += totals.positions;
                    self.state.truncated += totals.truncated;
                    g = end;
                }
                Ok(g)
            }
            Parallel::Async if self.threads == 1 => {
                // One thread: plain online learning on the shared weights.
                let mut learner = Learner::default();
                for g in g0..g1 {
                    if late() {
                        return Ok(g);
                    }
                    let stats = learner.train_game(&mut self.model, dbs, dice(g), &td, td.rate(g))?;
                    self.state.positions += u64::from(stats.positions);
                    self.state.truncated += u64::from(stats.truncated);
                    events(Event::Games(g + 1));
                }
                Ok(g1)
            }
            Parallel::Async => {
                let shared = Mutex::new(Shared {
                    model: self.model.clone(),
                    version: 0,
                    positions: 0,
                    truncated: 0,
                });
                let next = AtomicU64::new(g0);
                let finished = AtomicU64::new(g0);
                let threads = self.threads;
                let result: Result<(), TrainerError> = self.pool.install(|| {
                    (0..threads).into_par_iter().try_for_each(|_| {
                        let mut learner = Learner::default();
                        loop {
                            if late() {
                                return Ok(());
                            }
                            let game = next.fetch_add(1, Ordering::Relaxed);
                            if game >= g1 {
                                return Ok(());
                            }
                            let (snapshot, version) = {
                                let guard = shared.lock().expect("no panics under the lock");
                                (guard.model.clone(), guard.version)
                            };
                            let mut m = snapshot.clone();
                            let stats = learner.train_game(&mut m, dbs, dice(game), &td, td.rate(game))?;
                            {
                                let mut guard = shared.lock().expect("no panics under the lock");
                                if guard.version == version {
                                    // Nobody merged meanwhile: take the copy as it is.
                                    guard.model = m;
                                } else {
                                    guard.model.add_difference(&m, &snapshot);
                                }
                                guard.version += 1;
                                guard.positions += u64::from(stats.positions);
                                guard.truncated += u64::from(stats.truncated);
                            }
                            events(Event::Games(finished.fetch_add(1, Ordering::Relaxed) + 1));
                        }
                    })
                });
                result?;
                let shared = shared.into_inner().expect("no panics under the lock");
                self.model = shared.model;
                self.state.positions += shared.positions;
                self.state.truncated += shared.truncated;
                // Every claimed game was finished: the games played are contiguous.
                Ok(next.into_inner().min(g1))
            }
        }
    }

    /// Plays the benchmark duel against pubeval and appends a curve row.
    fn benchmark(&mut self, games_per_s: f64, elapsed: f64) -> Result<CurveRow, TrainerError> {
        let set = &self.state.settings;
        let player = NetPlayer::new("net", self.model.clone(), self.dbs.clone());
        let opts = DuelOptions {
            games: set.bench_games,
            seed: set.bench_seed,
            record: false,
        };
        let (r, _) = self.pool.install(|| duel(&player, &Pubeval, &opts, &|_| {}))?;
        let row = CurveRow {
            games: self.state.games,
            elapsed_s: elapsed,
            games_per_s,
            alpha: set.td.rate(self.state.games),
            bench_games: r.games,
            ppg: r.ppg,
            // One dice pair (a run made before --bench-games had to be 4 or more): the
            // curve's 0, as such runs always wrote.
            se: if r.se.is_nan() { 0.0 } else { r.se },
            win_rate: r.win_rate,
            gammon_rate: r.gammon_rate,
            gammon_loss_rate: r.gammon_loss_rate,
        };
        self.state.curve.push(row.clone());
        Ok(row)
    }

    /// The sidecar's training metadata for the current state.
    pub fn training_info(&self) -> TrainingInfo {
        let s = &self.state;
        TrainingInfo {
            games: s.games,
            seed: s.settings.seed,
            lambda: s.settings.td.lambda,
            alpha: s.settings.td.alpha,
            anneal: s.settings.td.anneal,
            alpha_now: s.settings.td.rate(s.games),
            parallel: s.settings.parallel.to_string(),
            batch: s.settings.batch,
            lag: s.settings.lag,
            threads: self.threads,
            init_file: s.init_file.clone(),
            elapsed_seconds: s.elapsed_seconds,
            positions: s.positions,
            prune_moves: s.settings.td.prune_moves,
            eval: s.settings.td.eval.to_string(),
        }
    }

    /// Writes the checkpoint, the nets and the curve.
    fn checkpoint(&mut self) -> Result<(), TrainerError> {
        let name = format!("state-{}.wd", self.state.games);
        let wpath = self.dir.join(&name);
        self.model
            .to_weights(self.state.games)
            .save(&wpath, evaluator::weights::WeightsFormat::Binary)?;
        let old = std::mem::replace(&mut self.state.weights_file, name);
        let json = serde_json::to_string_pretty(&self.state).expect("state serialises");
        model::write_atomic(&state_path(&self.dir), format!("{json}\n").as_bytes())?;
        if !old.is_empty() && old != self.state.weights_file {
            let _ = std::fs::remove_file(self.dir.join(old));
        }
        model::save(&self.dir.join("net"), &self.model, Some(self.training_info()))?;
        // The temporary files of an earlier session killed while writing (`kill -9`
        // during a save), once they have lain idle: a run that resumed within a minute
        // of the kill clears them here rather than only on its next resume. Tidying
        // only: a file that cannot be removed (another user's) does not stop training.
        let _ = fileio::remove_stale_temps(&self.dir);
        curve::write_csv(&self.dir.join("curve.csv"), &self.state.curve)?;
        if !self.state.curve.is_empty() {
            curve::plot(&self.dir.join("curve.png"), &self.state.curve)?;
        }
        Ok(())
    }
}

/// The weights shared by the threads of the async scheme.
struct Shared {
    model: Model,
    /// Merges so far.
    version: u64,
    positions: u64,
    truncated: u64,
}

/// The smallest multiple of `m` above `g`.
fn next_multiple(g: u64, m: u64) -> u64 {
    (g / m + 1) * m
}

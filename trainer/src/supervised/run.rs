//! A supervised training run: epochs of mini-batches over one class's positions, a
//! held-out validation split, a learning-rate schedule, early stopping, checkpoints
//! and resumption, the learning curve, and the trained weights.
//!
//! # Files in the output directory
//!
//! * `net.wd`, `net.weights`: the whole weights set (every net of the starting
//!   weights, the trained class's net replaced by the best one so far by validation
//!   error) in gnubg's binary and text formats; `net.json`, the trainer sidecar, when
//!   the starting weights were a trainer model (or when there were none).
//! * `supervised.json`: the checkpoint — settings, data files and digests, progress,
//!   schedule and early-stopping state, curve; it names `checkpoint-<steps>.wd` (the
//!   current weights) and `optimizer-<steps>.bin` (the optimiser's moments). Those two
//!   are written first, then `supervised.json` is replaced atomically, then the older
//!   pair is removed: the directory always holds one complete checkpoint.
//! * `curve.csv`, `curve.png`: the learning curve ([`super::curve`]).
//!
//! # Reproducibility
//!
//! The validation split, the order of every epoch and the initial weights of a fresh
//! net come from the seed; batches are cut into fixed chunks whose gradients are added
//! in chunk order ([`super::net`]). The same seed and data give byte-identical weights
//! on any number of threads, and a run interrupted at any point and resumed from its
//! checkpoint gives the same weights as an uninterrupted one.

use std::path::{Path, PathBuf};
use std::time::Instant;

use datasets::rng::SplitMix;
use evaluator::weights::{Net, Weights, WeightsFormat};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::curve::{self, EpochRow};
use super::data::{ClassData, FileInfo, NetClass};
use super::net::{Activation, Chunk, Grads, Loss, Sums, CHUNK};
use super::optim::{OptState, OptimizerSettings};
use crate::encoding::Encoding;
use crate::error::TrainerError;
use crate::model::{self, Init, Layout, Model, ModelConfig, Sidecar};
use crate::seed;

/// The checkpoint's format tag.
pub const STATE_FORMAT: &str = "bgkit-trainer-supervised";

/// Seed tag of the validation split.
const SPLIT: u64 = 101;
/// Seed tag of the epochs' orders.
const EPOCH: u64 = 102;
/// Seed tag of a fresh net's weights.
const FRESH: u64 = 103;

/// Seconds between checkpoints inside an epoch.
const CHECKPOINT_SECONDS: f64 = 60.0;

/// How the learning rate changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// The same rate throughout.
    Constant,
    /// Cosine annealing from the rate to the floor over the epochs.
    Cosine,
    /// Multiply by the decay factor whenever the monitored error has not improved for
    /// `plateau` epochs.
    Plateau,
}

impl std::fmt::Display for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Schedule::Constant => "constant",
            Schedule::Cosine => "cosine",
            Schedule::Plateau => "plateau",
        })
    }
}

impl std::str::FromStr for Schedule {
    type Err = String;
    fn from_str(s: &str) -> Result<Schedule, String> {
        match s {
            "constant" => Ok(Schedule::Constant),
            "cosine" => Ok(Schedule::Cosine),
            "plateau" => Ok(Schedule::Plateau),
            _ => Err(format!(
                "unknown schedule '{s}' (expected constant, cosine or plateau)"
            )),
        }
    }
}

/// Everything that decides what a run computes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SupervisedSettings {
    /// The class whose net is trained.
    pub class: NetClass,
    /// Hidden units of the trained net (None: the starting net's, or 128 for a fresh
    /// one). A size different from the starting net's starts that net afresh.
    pub hidden: Option<usize>,
    /// Epochs (passes over the training positions) at most.
    pub epochs: u32,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Optimiser.
    pub optimizer: OptimizerSettings,
    /// Initial learning rate (per effective weight).
    pub lr: f32,
    /// Learning-rate schedule.
    pub schedule: Schedule,
    /// Factor of the plateau schedule.
    pub decay: f32,
    /// Epochs without improvement before the plateau schedule decays the rate.
    pub plateau: u32,
    /// Floor of the rate (plateau and cosine schedules).
    pub min_lr: f32,
    /// Stop after this many epochs without improvement (0: never stop early).
    pub patience: u32,
    /// Loss.
    pub loss: Loss,
    /// Fraction of the positions held out for validation.
    pub validation: f64,
    /// Seed of the split, the epochs' orders and fresh weights.
    pub seed: u64,
    /// Activation functions of the forward pass.
    pub activation: Activation,
}

impl SupervisedSettings {
    /// Defaults for `class`: 20 epochs, batches of 128, Adam at 0.001, plateau schedule
    /// (× 0.5 after 2 epochs without improvement, floor 10⁻⁵), early stopping after
    /// 4, MSE, 10 % validation, seed 1, gnubg's activations.
    pub fn new(class: NetClass) -> SupervisedSettings {
        SupervisedSettings {
            class,
            hidden: None,
            epochs: 20,
            batch: 128,
            optimizer: OptimizerSettings::new(super::optim::OptimizerKind::Adam),
            lr: 0.001,
            schedule: Schedule::Plateau,
            decay: 0.5,
            plateau: 2,
            min_lr: 1e-5,
            patience: 4,
            loss: Loss::Mse,
            validation: 0.1,
            seed: 1,
            activation: Activation::Gnubg,
        }
    }

    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), TrainerError> {
        let bad = |m: String| Err(TrainerError::Invalid(m));
        if self.epochs == 0 {
            return bad("--epochs must be at least 1".into());
        }
        if self.batch == 0 || self.batch > 1 << 20 {
            return bad(format!("--batch must be 1..=1048576, got {}", self.batch));
        }
        if !(self.lr > 0.0 && self.lr.is_finite()) {
            return bad(format!("--lr must be a positive number, got {}", self.lr));
        }
        if !(self.min_lr >= 0.0 && self.min_lr <= self.lr) {
            return bad(format!("--min-lr must be in [0, --lr], got {}", self.min_lr));
        }
        if !(self.decay > 0.0 && self.decay < 1.0) {
            return bad(format!("--decay must be in (0, 1), got {}", self.decay));
        }
        if self.plateau == 0 {
            return bad("--plateau must be at least 1".into());
        }
        if !(0.0..=0.5).contains(&self.validation) {
            return bad(format!(
                "--validation must be in [0, 0.5], got {}",
                self.validation
            ));
        }
        if let Some(h) = self.hidden {
            if h == 0 || h > 4096 {
                return bad(format!("--hidden must be 1..=4096, got {h}"));
            }
        }
        self.optimizer.validate()
    }

    /// The learning rate of `epoch` (0-based) for the cosine schedule, or the base rate.
    fn scheduled_lr(&self, epoch: u32) -> f32 {
        match self.schedule {
            Schedule::Cosine => {
                let f =
                    0.5 * (1.0 + (std::f64::consts::PI * f64::from(epoch) / f64::from(self.epochs)).cos());
                (f64::from(self.min_lr) + f64::from(self.lr - self.min_lr) * f) as f32
            }
            _ => self.lr,
        }
    }
}

/// Where the starting weights came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InitInfo {
    /// The file (`null`: fresh nets).
    pub path: Option<String>,
    /// `gnubg` (a weights file without a sidecar), `trainer` (with one) or `fresh`.
    pub kind: String,
    /// The trained net was started afresh (no file, or another hidden size).
    pub fresh_net: bool,
}

/// The checkpoint (`supervised.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Always [`STATE_FORMAT`].
    pub format: String,
    /// 1.
    pub format_version: u32,
    /// The settings.
    pub settings: SupervisedSettings,
    /// The data files.
    pub data: Vec<FileInfo>,
    /// The starting weights.
    pub init: InitInfo,
    /// Input encoding of the nets.
    pub encoding: Encoding,
    /// Weights-file slot of the trained net.
    pub slot: usize,
    /// The sidecar written with the nets, if any.
    pub sidecar: Option<Sidecar>,
    /// Training positions.
    pub train_positions: u64,
    /// Validation positions.
    pub validation_positions: u64,
    /// Epochs completed.
    pub epoch: u32,
    /// Batches done in the current epoch.
    pub batch: u64,
    /// Optimiser steps, all epochs.
    pub steps: u64,
    /// Loss sums of the current epoch so far: rows, loss, squared error.
    pub epoch_rows: u64,
    /// See `epoch_rows`.
    pub epoch_loss: f64,
    /// See `epoch_rows`.
    pub epoch_sq: f64,
    /// Seconds of batches in the current epoch so far.
    pub epoch_seconds: f64,
    /// Current learning rate (plateau schedule).
    pub lr: f32,
    /// Best monitored error (validation MSE, or training MSE without validation).
    pub best: Option<f64>,
    /// Epoch of the best error.
    pub best_epoch: u32,
    /// Epochs since the best.
    pub since_best: u32,
    /// Epochs since the best or the last decay.
    pub since_decay: u32,
    /// Early stopping has ended the run.
    pub stopped: bool,
    /// Wall-clock seconds, all sessions.
    pub elapsed_seconds: f64,
    /// Seconds spent in batches, all sessions.
    pub train_seconds: f64,
    /// Checkpoint weights file.
    pub weights_file: String,
    /// Checkpoint optimiser file.
    pub optimizer_file: String,
    /// One row per epoch.
    pub curve: Vec<EpochRow>,
}

/// What a run reports as it works.
#[derive(Clone, Debug)]
pub enum Event {
    /// Training positions processed in this epoch, and in all.
    Batch {
        /// Epoch (0-based).
        epoch: u32,
        /// Positions of this epoch done.
        done: u64,
    },
    /// An epoch finished.
    Epoch(EpochRow),
    /// Early stopping ended the run after this epoch.
    EarlyStop(u32),
}

/// When to stop a session early (tests, time limits).
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop after this instant (after the batch in progress).
    pub deadline: Option<Instant>,
    /// Stop after this many batches of this session.
    pub max_batches: Option<u64>,
}

/// The checkpoint's path.
pub fn state_path(dir: &Path) -> PathBuf {
    dir.join("supervised.json")
}

/// Reads a checkpoint.
pub fn load_state(dir: &Path) -> Result<State, TrainerError> {
    let path = state_path(dir);
    let text = std::fs::read_to_string(&path).map_err(|e| TrainerError::io(&path, e))?;
    let s: State = serde_json::from_str(&text)
        .map_err(|e| TrainerError::format(&path, format!("not a supervised-training checkpoint: {e}")))?;
    if s.format != STATE_FORMAT || s.format_version != 1 {
        return Err(TrainerError::format(
            &path,
            format!(
                "format '{}' version {} (expected '{STATE_FORMAT}' 1)",
                s.format, s.format_version
            ),
        ));
    }
    Ok(s)
}

/// The starting weights: a gnubg weights file, a trainer model, or fresh nets.
pub struct Start {
    weights: Weights,
    sidecar: Option<Sidecar>,
    encoding: Encoding,
    layout: Layout,
    info: InitInfo,
}

impl Start {
    /// Loads `path`: with a sidecar beside it a trainer model, else gnubg's six nets.
    pub fn load(path: &Path) -> Result<Start, TrainerError> {
        let name = path.display().to_string();
        if model::sidecar_path(path).exists() {
            let (m, sidecar) = model::load(path)?;
            return Ok(Start {
                weights: m.to_weights(0),
                encoding: m.config.encoding,
                layout: m.config.layout,
                sidecar: Some(sidecar),
                info: InitInfo {
                    path: Some(name),
                    kind: "trainer".into(),
                    fresh_net: false,
                },
            });
        }
        let weights = Weights::load(path)?;
        Ok(Start {
            weights,
            sidecar: None,
            encoding: Encoding::Gnubg,
            layout: Layout::Split,
            info: InitInfo {
                path: Some(name),
                kind: "gnubg".into(),
                fresh_net: false,
            },
        })
    }

    /// Fresh gnubg-style nets (Xavier initialisation) of `hidden` units.
    pub fn fresh(hidden: usize, seed: u64) -> Result<Start, TrainerError> {
        let config = ModelConfig {
            encoding: Encoding::Gnubg,
            layout: Layout::Split,
            hidden,
            init: Init::Xavier,
            weights_version: "1.00".into(),
            bearoff: true,
        };
        let m = Model::new(config.clone(), seed::derive(seed, FRESH, 0))?;
        Ok(Start {
            weights: m.to_weights(0),
            sidecar: Some(Sidecar {
                format: model::SIDECAR_FORMAT.into(),
                format_version: 1,
                config,
                training: None,
            }),
            encoding: Encoding::Gnubg,
            layout: Layout::Split,
            info: InitInfo {
                path: None,
                kind: "fresh".into(),
                fresh_net: true,
            },
        })
    }
}

/// A run in progress.
pub struct Run {
    dir: PathBuf,
    state: State,
    weights: Weights,
    opt: OptState,
    data: ClassData,
    train: Vec<u32>,
    val: Vec<u32>,
    pool: rayon::ThreadPool,
}

fn pool(threads: usize) -> Result<rayon::ThreadPool, TrainerError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| TrainerError::Invalid(format!("cannot start {threads} threads: {e}")))
}

/// Fisher–Yates with SplitMix64.
fn shuffle(v: &mut [u32], seed: u64) {
    let mut rng = SplitMix::new(seed);
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// The validation and training positions of `n`, by the seed.
fn split(n: usize, fraction: f64, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut order: Vec<u32> = (0..n as u32).collect();
    shuffle(&mut order, seed::derive(seed, SPLIT, 0));
    let mut k = (n as f64 * fraction).round() as usize;
    if fraction > 0.0 && n >= 2 {
        k = k.clamp(1, n - 1);
    }
    let mut val = order[..k].to_vec();
    let mut train = order[k..].to_vec();
    val.sort_unstable();
    train.sort_unstable();
    (val, train)
}

impl Run {
    /// Starts a run in `dir` (created if needed; refused if it holds one) on the
    /// dataset files `data`, from `start`.
    pub fn create(
        dir: &Path,
        settings: SupervisedSettings,
        data: &[PathBuf],
        start: Start,
        threads: usize,
    ) -> Result<Run, TrainerError> {
        settings.validate()?;
        if state_path(dir).exists() {
            return Err(TrainerError::Invalid(format!(
                "{} already holds a supervised run (supervised.json); continue it with --resume {0} or choose \
                 another --out",
                dir.display()
            )));
        }
        let class = settings.class;
        let mut start = start;
        let slot = model::main_slot(start.layout, class.position_class());
        let want_inputs = start.encoding.inputs(class.position_class());
        let init_name = start.info.path.clone().unwrap_or_else(|| "fresh nets".into());
        let Some(net) = start.weights.nets.get(slot) else {
            return Err(TrainerError::Invalid(format!(
                "{init_name}: has no net for {class} positions"
            )));
        };
        if net.inputs != want_inputs || net.outputs != 5 {
            return Err(TrainerError::Invalid(format!(
                "{init_name}: its {class} net (net {}) is {}-{}-{}, but {class} positions have {want_inputs} inputs \
                 in the {} encoding",
                slot + 1,
                net.inputs,
                net.hidden,
                net.outputs,
                start.encoding
            )));
        }
        if let Some(h) = settings.hidden {
            if h != net.hidden {
                if start.sidecar.is_some() && start.info.kind == "trainer" {
                    return Err(TrainerError::Invalid(format!(
                        "--hidden {h}: {init_name} is a trainer model with {} hidden units in every net; train it \
                         at that size or start from gnubg weights",
                        net.hidden
                    )));
                }
                let fresh = Start::fresh(h, settings.seed)?;
                start.weights.nets[slot] = fresh.weights.nets[slot].clone();
                start.info.fresh_net = true;
            }
        }
        let data = ClassData::open(data, class)?;
        std::fs::create_dir_all(dir).map_err(|e| TrainerError::io(dir, e))?;
        let (val, train) = split(data.len(), settings.validation, settings.seed);
        if train.is_empty() {
            return Err(TrainerError::Invalid(format!(
                "only {} {class} position(s): nothing left to train on after the validation split",
                data.len()
            )));
        }
        let opt = OptState::new(&start.weights.nets[slot], &settings.optimizer);
        let state = State {
            format: STATE_FORMAT.into(),
            format_version: 1,
            lr: settings.lr,
            settings,
            data: data.files().to_vec(),
            init: start.info,
            encoding: start.encoding,
            slot,
            sidecar: start.sidecar,
            train_positions: train.len() as u64,
            validation_positions: val.len() as u64,
            epoch: 0,
            batch: 0,
            steps: 0,
            epoch_rows: 0,
            epoch_loss: 0.0,
            epoch_sq: 0.0,
            epoch_seconds: 0.0,
            best: None,
            best_epoch: 0,
            since_best: 0,
            since_decay: 0,
            stopped: false,
            elapsed_seconds: 0.0,
            train_seconds: 0.0,
            weights_file: String::new(),
            optimizer_file: String::new(),
            curve: Vec::new(),
        };
        let mut run = Run {
            dir: dir.to_path_buf(),
            state,
            weights: start.weights,
            opt,
            data,
            train,
            val,
            pool: pool(threads)?,
        };
        run.checkpoint()?;
        Ok(run)
    }

    /// Reopens the run in `dir`; `data` replaces the recorded data paths (the files
    /// must be the same, by digest).
    pub fn resume(dir: &Path, data: Option<&[PathBuf]>, threads: usize) -> Result<Run, TrainerError> {
        let state = load_state(dir)?;
        state.settings.validate()?;
        let paths: Vec<PathBuf> = match data {
            Some(d) => d.to_vec(),
            None => state.data.iter().map(|f| PathBuf::from(&f.path)).collect(),
        };
        let class_data = ClassData::open(&paths, state.settings.class)?;
        let files = class_data.files();
        if files.len() != state.data.len() {
            return Err(TrainerError::Invalid(format!(
                "the run was trained on {} data file(s), {} given",
                state.data.len(),
                files.len()
            )));
        }
        for (now, then) in files.iter().zip(&state.data) {
            if now.digest != then.digest || now.records != then.records {
                return Err(TrainerError::Invalid(format!(
                    "{}: not the data the run began with ({}: {} records, digest {}; now {} records, digest {})",
                    now.path, then.path, then.records, then.digest, now.records, now.digest
                )));
            }
        }
        let wpath = dir.join(&state.weights_file);
        let weights = Weights::load_any(&wpath)?;
        let net = weights
            .nets
            .get(state.slot)
            .ok_or_else(|| TrainerError::format(&wpath, "has fewer nets than the run trains"))?;
        let opt = OptState::load(&dir.join(&state.optimizer_file), net, &state.settings.optimizer)?;
        if opt.steps != state.steps {
            return Err(TrainerError::format(
                &dir.join(&state.optimizer_file),
                format!("holds {} steps, the checkpoint says {}", opt.steps, state.steps),
            ));
        }
        let (val, train) = split(class_data.len(), state.settings.validation, state.settings.seed);
        Ok(Run {
            dir: dir.to_path_buf(),
            state,
            weights,
            opt,
            data: class_data,
            train,
            val,
            pool: pool(threads)?,
        })
    }

    /// The checkpointed state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The net being trained (its current weights).
    pub fn net(&self) -> &Net {
        &self.weights.nets[self.state.slot]
    }

    /// The whole weights set with the current net.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Computes every position's net inputs once and keeps them in memory if they take
    /// at most `max_bytes` (results are the same either way; epochs are faster).
    /// Returns whether they were cached.
    pub fn cache_inputs(&mut self, max_bytes: u64) -> bool {
        let enc = self.state.encoding;
        let fixed = self.fixed_pip_loss();
        let data = &mut self.data;
        self.pool.install(|| data.cache_inputs(enc, fixed, max_bytes))
    }

    /// Sets the total number of epochs (to continue a finished run, say).
    pub fn set_epochs(&mut self, epochs: u32) -> Result<(), TrainerError> {
        if epochs == 0 {
            return Err(TrainerError::Invalid("--epochs must be at least 1".into()));
        }
        self.state.settings.epochs = epochs;
        Ok(())
    }

    /// Whether the run has nothing left to do.
    pub fn finished(&self) -> bool {
        self.state.stopped || self.state.epoch >= self.state.settings.epochs
    }

    fn fixed_pip_loss(&self) -> bool {
        self.weights.fixed_pip_loss()
    }

    /// Trains until the epochs are done, early stopping ends the run, or `limits`
    /// stop this session; checkpoints on the way and at the end.
    pub fn train(&mut self, limits: Limits, events: &(dyn Fn(Event) + Sync)) -> Result<(), TrainerError> {
        let session = Instant::now();
        let elapsed0 = self.state.elapsed_seconds;
        let mut last_checkpoint = Instant::now();
        let mut batches_this_session = 0u64;
        let set = self.state.settings.clone();
        let enc = self.state.encoding;
        let fixed = self.fixed_pip_loss();
        let slot = self.state.slot;
        let mut stepper = Stepper::new(&self.weights.nets[slot], set.batch);
        if self.state.curve.is_empty() && self.state.epoch == 0 && self.state.batch == 0 {
            self.start_row(elapsed0 + session.elapsed().as_secs_f64(), events)?;
            self.state.elapsed_seconds = elapsed0 + session.elapsed().as_secs_f64();
            self.checkpoint()?;
        }
        while !self.finished() {
            let epoch = self.state.epoch;
            let mut order = self.train.clone();
            shuffle(&mut order, seed::derive(set.seed, EPOCH, u64::from(epoch)));
            let lr = match set.schedule {
                Schedule::Plateau => self.state.lr,
                _ => set.scheduled_lr(epoch),
            };
            let batches = order.len().div_ceil(set.batch) as u64;
            while self.state.batch < batches {
                let stop = limits.max_batches.is_some_and(|m| batches_this_session >= m)
                    || limits.deadline.is_some_and(|d| Instant::now() >= d);
                if stop {
                    self.state.elapsed_seconds = elapsed0 + session.elapsed().as_secs_f64();
                    return self.checkpoint();
                }
                let t0 = Instant::now();
                let b = self.state.batch as usize;
                let idx = &order[b * set.batch..((b + 1) * set.batch).min(order.len())];
                let total = stepper.step(
                    &self.pool,
                    &self.data,
                    (enc, fixed),
                    &mut self.weights.nets[slot],
                    &mut self.opt,
                    idx,
                    &set,
                    lr,
                );
                self.state.steps += 1;
                self.state.batch += 1;
                self.state.epoch_rows += total.rows;
                self.state.epoch_loss += total.loss;
                self.state.epoch_sq += total.sq;
                let dt = t0.elapsed().as_secs_f64();
                self.state.epoch_seconds += dt;
                self.state.train_seconds += dt;
                batches_this_session += 1;
                events(Event::Batch {
                    epoch,
                    done: self.state.epoch_rows,
                });
                if last_checkpoint.elapsed().as_secs_f64() >= CHECKPOINT_SECONDS {
                    self.state.elapsed_seconds = elapsed0 + session.elapsed().as_secs_f64();
                    self.checkpoint()?;
                    last_checkpoint = Instant::now();
                }
            }
            self.end_epoch(lr, elapsed0 + session.elapsed().as_secs_f64(), events)?;
            self.state.elapsed_seconds = elapsed0 + session.elapsed().as_secs_f64();
            self.checkpoint()?;
            last_checkpoint = Instant::now();
        }
        Ok(())
    }

    /// Row 0 of the curve: the starting net's errors on the training and validation
    /// positions. It is the first "best": a run never writes a net that is worse on
    /// the validation positions than the one it started from.
    fn start_row(&mut self, elapsed: f64, events: &(dyn Fn(Event) + Sync)) -> Result<(), TrainerError> {
        let train = self.evaluate(self.net(), &self.train);
        let val = (!self.val.is_empty()).then(|| self.evaluate(self.net(), &self.val));
        let rows = train.rows.max(1) as f64;
        let vrows = val.map_or(1.0, |v| v.rows.max(1) as f64);
        let row = EpochRow {
            epoch: 0,
            lr: 0.0,
            train_loss: train.loss / rows,
            train_mse: train.sq / (rows * 5.0),
            val_loss: val.map(|v| v.loss / vrows),
            val_mse: val.map(|v| v.sq / (vrows * 5.0)),
            val_equity_rmse: val.map(|v| (v.eq_sq / vrows).sqrt()),
            samples_per_s: 0.0,
            elapsed_s: elapsed,
        };
        self.state.best = Some(row.val_mse.unwrap_or(row.train_mse));
        self.state.best_epoch = 0;
        self.state.curve.push(row.clone());
        events(Event::Epoch(row));
        self.write_net()
    }

    /// Validation, the curve row, best net, schedule and early stopping.
    fn end_epoch(
        &mut self,
        lr: f32,
        elapsed: f64,
        events: &(dyn Fn(Event) + Sync),
    ) -> Result<(), TrainerError> {
        let st = &self.state;
        let rows = st.epoch_rows.max(1) as f64;
        let val = if self.val.is_empty() {
            None
        } else {
            Some(self.evaluate(self.net(), &self.val))
        };
        let vrows = val.map_or(1.0, |v| v.rows.max(1) as f64);
        let row = EpochRow {
            epoch: st.epoch + 1,
            lr,
            train_loss: st.epoch_loss / rows,
            train_mse: st.epoch_sq / (rows * 5.0),
            val_loss: val.map(|v| v.loss / vrows),
            val_mse: val.map(|v| v.sq / (vrows * 5.0)),
            val_equity_rmse: val.map(|v| (v.eq_sq / vrows).sqrt()),
            samples_per_s: if st.epoch_seconds > 0.0 {
                st.epoch_rows as f64 / st.epoch_seconds
            } else {
                0.0
            },
            elapsed_s: elapsed,
        };
        let monitor = row.val_mse.unwrap_or(row.train_mse);
        let improved = self.state.best.is_none_or(|b| monitor < b);
        let st = &mut self.state;
        st.curve.push(row.clone());
        st.epoch += 1;
        st.batch = 0;
        st.epoch_rows = 0;
        st.epoch_loss = 0.0;
        st.epoch_sq = 0.0;
        st.epoch_seconds = 0.0;
        if improved {
            st.best = Some(monitor);
            st.best_epoch = st.epoch;
            st.since_best = 0;
            st.since_decay = 0;
        } else {
            st.since_best += 1;
            st.since_decay += 1;
            if st.settings.schedule == Schedule::Plateau && st.since_decay >= st.settings.plateau {
                st.lr = (st.lr * st.settings.decay).max(st.settings.min_lr);
                st.since_decay = 0;
            }
            if st.settings.patience > 0 && st.since_best >= st.settings.patience {
                st.stopped = true;
            }
        }
        events(Event::Epoch(row));
        if improved {
            self.write_net()?;
        }
        if self.state.stopped {
            events(Event::EarlyStop(self.state.epoch));
        }
        Ok(())
    }

    /// Loss sums of `net` (shaped like the trained net) over the run's positions
    /// `indices` (chunks summed in order).
    pub fn evaluate(&self, net: &Net, indices: &[u32]) -> Sums {
        let set = &self.state.settings;
        let enc = self.state.encoding;
        let fixed = self.fixed_pip_loss();
        let parts: Vec<Sums> = self.pool.install(|| {
            indices
                .par_chunks(CHUNK)
                .map_init(
                    || Chunk::new(net),
                    |c, part| {
                        self.data.fill(part, enc, fixed, c);
                        c.forward(net, set.activation);
                        c.score(net, set.loss)
                    },
                )
                .collect()
        });
        let mut total = Sums::default();
        parts.iter().for_each(|s| total.add(s));
        total
    }

    /// The validation positions.
    pub fn validation(&self) -> &[u32] {
        &self.val
    }

    /// Writes the current weights as the run's net (`net.wd`, `net.weights`, and
    /// `net.json` when the run has a sidecar).
    fn write_net(&self) -> Result<(), TrainerError> {
        let stem = self.dir.join("net");
        self.weights
            .save(stem.with_extension("wd"), WeightsFormat::Binary)?;
        self.weights
            .save(stem.with_extension("weights"), WeightsFormat::Text)?;
        if let Some(sc) = &self.state.sidecar {
            let json = serde_json::to_string_pretty(sc).expect("sidecar serialises");
            model::write_atomic(&stem.with_extension("json"), format!("{json}\n").as_bytes())?;
        }
        Ok(())
    }

    /// Writes the checkpoint, the curve and (before the first epoch) nothing else.
    fn checkpoint(&mut self) -> Result<(), TrainerError> {
        let steps = self.state.steps;
        let wname = format!("checkpoint-{steps}.wd");
        let oname = format!("optimizer-{steps}.bin");
        self.weights.save(self.dir.join(&wname), WeightsFormat::Binary)?;
        self.opt
            .save(&self.dir.join(&oname), &self.state.settings.optimizer)?;
        let old_w = std::mem::replace(&mut self.state.weights_file, wname);
        let old_o = std::mem::replace(&mut self.state.optimizer_file, oname);
        let json = serde_json::to_string_pretty(&self.state).expect("state serialises");
        model::write_atomic(&state_path(&self.dir), format!("{json}\n").as_bytes())?;
        for (old, new) in [
            (&old_w, &self.state.weights_file),
            (&old_o, &self.state.optimizer_file),
        ] {
            if !old.is_empty() && old != new {
                let _ = std::fs::remove_file(self.dir.join(old));
            }
        }
        curve::write_csv(&self.dir.join("curve.csv"), &self.state.curve)?;
        if !self.state.curve.is_empty() {
            let title = format!("{} net: squared error per output", self.state.settings.class);
            curve::plot(&self.dir.join("curve.png"), &self.state.curve, &title)?;
        }
        Ok(())
    }
}

/// The working memory of mini-batch steps: one chunk and one gradient per chunk of a
/// batch.
pub struct Stepper {
    chunks: Vec<Chunk>,
    grads: Vec<Grads>,
}

impl Stepper {
    /// Memory for batches of `batch` positions of `net`'s shape.
    pub fn new(net: &Net, batch: usize) -> Stepper {
        let n = batch.div_ceil(CHUNK);
        Stepper {
            chunks: (0..n).map(|_| Chunk::new(net)).collect(),
            grads: (0..n).map(|_| Grads::zeros(net)).collect(),
        }
    }

    /// One mini-batch: inputs, forward and backward pass per chunk in parallel, then
    /// the optimiser's step with the chunks' gradients added in order. Returns the
    /// loss sums of the batch (before the step).
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        pool: &rayon::ThreadPool,
        data: &ClassData,
        (enc, fixed_pip_loss): (Encoding, bool),
        net: &mut Net,
        opt: &mut OptState,
        idx: &[u32],
        set: &SupervisedSettings,
        lr: f32,
    ) -> Sums {
        let used = idx.len().div_ceil(CHUNK);
        let frozen = &*net;
        let sums: Vec<Sums> = pool.install(|| {
            self.chunks[..used]
                .par_iter_mut()
                .zip(self.grads[..used].par_iter_mut())
                .zip(idx.par_chunks(CHUNK))
                .map(|((c, g), part)| {
                    data.fill(part, enc, fixed_pip_loss, c);
                    c.gradient(frozen, set.activation, set.loss, g)
                })
                .collect()
        });
        let mut total = Sums::default();
        sums.iter().for_each(|s| total.add(s));
        let grads = &self.grads[..used];
        pool.install(|| opt.step(net, grads, total.rows, lr, &set.optimizer));
        total
    }
}

/// What [`bench`] measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Positions in the epoch.
    pub positions: u64,
    /// Net shape.
    pub inputs: usize,
    /// Hidden units.
    pub hidden: usize,
    /// Batch size.
    pub batch: usize,
    /// Threads.
    pub threads: usize,
    /// Seconds of the first epoch, inputs computed on the fly (forward, backward,
    /// steps included).
    pub seconds: f64,
    /// Positions per second of that epoch.
    pub samples_per_s: f64,
    /// Seconds for one such epoch of 1,000,000 positions.
    pub seconds_per_million: f64,
    /// Seconds to compute every position's inputs once (the input cache).
    pub cache_seconds: f64,
    /// Positions per second of a second epoch with the cached inputs.
    pub cached_samples_per_s: f64,
    /// Seconds for one epoch of 1,000,000 positions with cached inputs.
    pub cached_seconds_per_million: f64,
    /// CPU seconds (all threads) of the first epoch, where the system reports them
    /// (Linux): on a loaded machine the wall clock says little, and CPU seconds / cores
    /// is the epoch's time on that many free cores, if the work splits evenly.
    pub cpu_seconds: Option<f64>,
    /// CPU seconds of the epoch with cached inputs.
    pub cached_cpu_seconds: Option<f64>,
}

/// CPU seconds used by this process so far (user + system, all threads), on Linux.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (in parentheses; it may hold spaces): utime and
    // stime are the 14th and 15th of the line, the 12th and 13th of these, in clock
    // ticks of 1/100 s on Linux.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Synthetic contact positions with targets, from seeded games of random legal moves
/// (for benchmarks).
pub fn synthetic_contact(n: usize, seed: u32) -> Vec<datasets::format::binary::Record> {
    use board::{DiceStream, MoveGen, Variant};
    let mut out = Vec::with_capacity(n);
    let mut gen = MoveGen::new();
    let mut dice = DiceStream::new(seed);
    while out.len() < n {
        let mut pos = Variant::Backgammon.start();
        for _ in 0..200 {
            if evaluator::class::classify_shape(&pos) != evaluator::PositionClass::Contact {
                break;
            }
            let r = (dice.below(1000) as f32) / 1000.0;
            out.push(datasets::format::binary::Record::of(&datasets::Sample {
                position: pos,
                probs: [r, r * 0.3, r * 0.02, (1.0 - r) * 0.3, (1.0 - r) * 0.02],
                se: None,
                trials: 0,
            }));
            if out.len() == n {
                break;
            }
            let results = gen.positions(&pos, dice.roll());
            if !results.is_empty() {
                pos = results[dice.below(results.len() as u32) as usize];
            }
            pos = pos.swapped();
        }
    }
    out
}

/// Times one epoch of training a 250-`hidden`-5 contact net (gnubg inputs, Adam) on
/// `positions` synthetic positions with `threads` threads.
pub fn bench(
    positions: usize,
    hidden: usize,
    batch: usize,
    threads: usize,
) -> Result<BenchReport, TrainerError> {
    let mut data = ClassData::from_records(NetClass::Contact, "synthetic", synthetic_contact(positions, 7))?;
    let start = Start::fresh(hidden, 1)?;
    let mut weights = start.weights;
    let slot = model::main_slot(Layout::Split, evaluator::PositionClass::Contact);
    let mut set = SupervisedSettings::new(NetClass::Contact);
    set.batch = batch;
    set.validate()?;
    let pool = pool(threads)?;
    let mut opt = OptState::new(&weights.nets[slot], &set.optimizer);
    let mut stepper = Stepper::new(&weights.nets[slot], batch);
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    shuffle(&mut order, 5);
    let mut epoch = |data: &ClassData| {
        let t = Instant::now();
        let cpu = process_cpu_seconds();
        for idx in order.chunks(batch) {
            stepper.step(
                &pool,
                data,
                (Encoding::Gnubg, false),
                &mut weights.nets[slot],
                &mut opt,
                idx,
                &set,
                set.lr,
            );
        }
        let used = cpu.zip(process_cpu_seconds()).map(|(a, b)| b - a);
        (t.elapsed().as_secs_f64().max(1e-9), used)
    };
    let (seconds, cpu_seconds) = epoch(&data);
    let t = Instant::now();
    pool.install(|| data.cache_inputs(Encoding::Gnubg, false, u64::MAX));
    let cache_seconds = t.elapsed().as_secs_f64();
    let (cached, cached_cpu_seconds) = epoch(&data);
    let n = data.len() as f64;
    Ok(BenchReport {
        positions: data.len() as u64,
        inputs: 250,
        hidden,
        batch,
        threads,
        seconds,
        samples_per_s: n / seconds,
        seconds_per_million: 1e6 * seconds / n,
        cache_seconds,
        cached_samples_per_s: n / cached,
        cached_seconds_per_million: 1e6 * cached / n,
        cpu_seconds,
        cached_cpu_seconds,
    })
}

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

use evaluator::weights::{Net, Weights, WeightsFormat};
use rayon::prelude::*;

use super::curve::{self, EpochRow};
use super::data::ClassData;
use super::net::{Chunk, Sums, CHUNK};
use super::optim::OptState;
use super::order;
use super::stepper::pool;
use crate::error::TrainerError;
use crate::model;

// The parts of a run that live in modules of their own, at the paths they have always
// had here.
pub use super::bench::{bench, synthetic_contact, BenchReport};
pub use super::settings::{Schedule, SupervisedSettings};
pub use super::start::Start;
pub use super::state::{load_state, state_path, InitInfo, State, STATE_FORMAT};
pub use super::stepper::Stepper;

/// Seconds between checkpoints inside an epoch.
const CHECKPOINT_SECONDS: f64 = 60.0;

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
            if settings.widen && h <= net.hidden {
                return Err(TrainerError::Invalid(format!(
                    "--widen --hidden {h}: the starting {class} net ({init_name}) has {} hidden units already; \
                     --widen needs an --init net smaller than --hidden",
                    net.hidden
                )));
            }
            if h != net.hidden {
                if start.sidecar.is_some() && start.info.kind == "trainer" {
                    return Err(TrainerError::Invalid(format!(
                        "--hidden {h}: {init_name} is a trainer model with {} hidden units in every net; train it \
                         at that size or start from gnubg weights",
                        net.hidden
                    )));
                }
                let fresh = Start::fresh(h, settings.seed)?;
                if settings.widen {
                    start.weights.nets[slot] = super::start::widened(net, &fresh.weights.nets[slot]);
                } else {
                    start.weights.nets[slot] = fresh.weights.nets[slot].clone();
                    start.info.fresh_net = true;
                }
            }
        }
        let data = ClassData::open(data, class)?;
        std::fs::create_dir_all(dir).map_err(|e| TrainerError::io(dir, e))?;
        let (val, train) = order::split(data.len(), settings.validation, settings.seed);
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
            seed_rule: crate::seed::RULE,
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
            threads,
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
        let mut state = load_state(dir)?;
        state.threads = threads;
        state.settings.validate()?;
        fileio::remove_stale_temps(dir).map_err(|e| TrainerError::io(dir, e))?;
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
        let (val, train) = order::split(class_data.len(), state.settings.validation, state.settings.seed);
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

    /// The run's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
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
            let order = order::epoch(&self.train, set.seed, epoch);
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
                if !self.weights.nets[slot].is_finite() {
                    // Stops before a checkpoint or a net keeps the broken weights: the
                    // last checkpoint resumes with the same settings, so it would too.
                    return Err(TrainerError::Diverged {
                        batch: self.state.batch + 1,
                        epoch: epoch + 1,
                        lr: set.lr,
                    });
                }
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
            let saved = Some(self.state.best_epoch);
            curve::plot(&self.dir.join("curve.png"), &self.state.curve, &title, saved)?;
        }
        // As td's checkpoints: an earlier session's idle temporary files go here too
        // (tidying only, which never stops training).
        let _ = fileio::remove_stale_temps(&self.dir);
        Ok(())
    }
}

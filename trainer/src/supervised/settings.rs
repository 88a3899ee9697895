//! The settings of a supervised run: everything that decides what it computes, and
//! the learning-rate schedule.

use serde::{Deserialize, Serialize};

use super::data::NetClass;
use super::net::{Activation, Loss};
use super::optim::{OptimizerKind, OptimizerSettings};
use crate::error::TrainerError;

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
    /// one). A size different from the starting net's starts that net afresh, unless
    /// `widen`.
    pub hidden: Option<usize>,
    /// With `hidden` above the starting net's units: keep them and add fresh ones whose
    /// output weights are zero, so the net starts from the starting net's outputs
    /// (absent in checkpoints written before the setting: false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub widen: bool,
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
            widen: false,
            epochs: 20,
            batch: 128,
            optimizer: OptimizerSettings::new(OptimizerKind::Adam),
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
        } else if self.widen {
            return bad("--widen needs --hidden (the size to widen to)".into());
        }
        self.optimizer.validate()
    }

    /// The learning rate of `epoch` (0-based) for the cosine schedule, or the base rate.
    pub(super) fn scheduled_lr(&self, epoch: u32) -> f32 {
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

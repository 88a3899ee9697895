//! The checkpoint of a supervised run (`supervised.json`): settings, data files and
//! their digests, where the starting weights came from, progress, schedule and
//! early-stopping state, and the curve so far.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::curve::EpochRow;
use super::data::FileInfo;
use super::settings::SupervisedSettings;
use crate::encoding::Encoding;
use crate::error::TrainerError;
use crate::model::Sidecar;

/// The checkpoint's format tag.
pub const STATE_FORMAT: &str = "bgkit-trainer-supervised";

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
    /// The seed rule of the validation split, the epochs' orders and fresh nets
    /// ([`crate::seed::RULE`]; 1 in checkpoints that record none, which cannot be
    /// resumed).
    #[serde(default = "crate::seed::unrecorded")]
    pub seed_rule: u32,
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
    /// Worker threads of the last session (0 in older checkpoints: not recorded).
    /// `--resume` without `--threads` keeps it; results do not depend on it.
    #[serde(default)]
    pub threads: usize,
}

/// The checkpoint's path.
pub fn state_path(dir: &Path) -> PathBuf {
    dir.join("supervised.json")
}

/// Reads a checkpoint (refusing one of another seed rule).
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
    crate::seed::check_rule(&path, s.seed_rule)?;
    Ok(s)
}

//! The trainer library's errors.

use evaluator::eval::EvalError;
use evaluator::weights::WeightsError;

/// Why a trainer operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrainerError {
    /// A file could not be read or written.
    // The system error is part of the message, not a `source`: error reports that
    // print the chain would otherwise show it twice.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The system error.
        error: std::io::Error,
    },
    /// A file's contents are not what was expected.
    #[error("{path}: {reason}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A weights file could not be read or written.
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// An evaluation failed (a bearoff database could not be read).
    #[error(transparent)]
    Eval(#[from] EvalError),
    /// A game record could not be written.
    #[error(transparent)]
    Record(#[from] board::records::RecordError),
    /// A checkpoint was written with another seed rule (see [`crate::seed`]).
    #[error("{path} {}", seed_rule_reason(*rule))]
    SeedRule {
        /// The checkpoint file.
        path: String,
        /// The rule it records (1 when it records none).
        rule: u32,
    },
    /// Supervised training diverged: a step left weights that are not finite numbers.
    /// The run's last checkpoint resumes with the same settings, so it would diverge
    /// again: the run must start over with a smaller learning rate.
    #[error(
        "training diverged: batch {batch} of epoch {epoch} left weights that are not finite numbers \
         (this run's --lr is {lr:e})"
    )]
    Diverged {
        /// The batch (1-based) whose step diverged.
        batch: u64,
        /// Its epoch (1-based).
        epoch: u32,
        /// The run's learning rate (`--lr`).
        lr: f32,
    },
    /// A setting or argument is invalid.
    #[error("{0}")]
    Invalid(String),
}

fn seed_rule_reason(rule: u32) -> String {
    if rule < board::seed::RULE {
        format!(
            "was written with seed rule {rule} (bgkit before seed rule {}: main at a17f0e0 or older); it cannot \
             be resumed with this version — start a new run or finish it with the older build",
            board::seed::RULE
        )
    } else {
        format!(
            "was written with seed rule {rule}, which this build does not know (it knows {}); resume it with \
             the newer build that wrote it",
            board::seed::RULE
        )
    }
}

impl TrainerError {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, source: std::io::Error) -> TrainerError {
        TrainerError::Io {
            path: path.display().to_string(),
            error: source,
        }
    }

    /// A format error in `path`.
    pub fn format(path: &std::path::Path, reason: impl Into<String>) -> TrainerError {
        TrainerError::Format {
            path: path.display().to_string(),
            reason: reason.into(),
        }
    }
}

impl From<gen_bearoff::BearoffError> for TrainerError {
    fn from(e: gen_bearoff::BearoffError) -> TrainerError {
        TrainerError::Eval(EvalError::Bearoff(e))
    }
}

impl From<fileio::mmap::MapError> for TrainerError {
    fn from(e: fileio::mmap::MapError) -> TrainerError {
        match e.kind {
            fileio::mmap::MapErrorKind::Io { error, .. } => TrainerError::io(&e.path, error),
            kind => TrainerError::format(&e.path, kind.to_string()),
        }
    }
}

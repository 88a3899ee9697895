//! The long jobs behind `datasets sample`, `datasets rollout` and `datasets benchmark
//! build`, as library functions: each takes a plain settings struct and a [`Progress`]
//! to report to, runs on its own worker threads, journals its results so that an
//! interrupted run resumes, writes its output file and returns a summary.
//!
//! * [`rollout`]: roll out every position of an input file.
//! * [`sample`]: positions from self-play games.
//! * [`benchmark`]: a move-error benchmark set.
//!
//! Also here: what the jobs' descriptions (the journal's identity of a run) are made
//! of ([`describe_files`], [`file_digest`], [`positions_digest`]), the part of them
//! that decides sameness ([`identity`]: contents, not paths) and their input
//! ([`read_positions`]).

pub mod benchmark;
pub mod rollout;
pub mod sample;

use std::path::Path;

use board::Position;
use evaluator::engine::{EngineError, EngineFiles};
use evaluator::eval::EvalError;
use serde_json::{json, Value};

use crate::error::DatasetError;
use crate::format::Input;
use crate::rng::Fnv1a;

/// Where a job reports how far it is. Every method has an empty default, and `()`
/// reports nothing. Called from the thread that called the job only.
pub trait Progress {
    /// The work begins: `total` units (positions, games), `done` of them finished by an
    /// earlier run that is resumed.
    fn start(&mut self, total: u64, done: u64) {
        let _ = (total, done);
    }
    /// `done` units are finished; `status` is a short line about the run (rate, count).
    fn update(&mut self, done: u64, status: Option<String>) {
        let _ = (done, status);
    }
    /// An informational line (a run resumed).
    fn note(&mut self, text: &str) {
        let _ = text;
    }
    /// The work has ended, finished or failed.
    fn finish(&mut self) {}
}

impl Progress for () {}

/// Why a job failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
    /// A dataset file, journal or setting.
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    /// The evaluator could not be built.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// An evaluation failed.
    #[error(transparent)]
    Eval(#[from] EvalError),
    /// A setting or input is unusable.
    #[error("{0}")]
    Invalid(String),
    /// A file could not be read (`context` names it).
    #[error("{context}")]
    Io {
        /// What was being done, naming the file.
        context: String,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// An error while working on one item (`context` names it).
    #[error("{context}")]
    At {
        /// The item, e.g. a position and its input row.
        context: String,
        /// What went wrong.
        #[source]
        source: Box<JobError>,
    },
}

/// A rayon pool of `threads` workers.
fn pool(threads: usize) -> Result<rayon::ThreadPool, JobError> {
    if threads == 0 {
        return Err(JobError::Invalid(
            "the number of threads must be at least 1".into(),
        ));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| JobError::Invalid(format!("cannot start the worker threads: {e}")))
}

/// A description of an evaluator's files (paths and digests), for job descriptions.
/// The paths are there for the reader; what makes a job the same job is the digests
/// ([`identity`]).
pub fn describe_files(files: &EngineFiles) -> Result<Value, JobError> {
    let d = |p: &Path| -> Result<Value, JobError> {
        Ok(json!({ "path": p.display().to_string(), "digest": file_digest(p)? }))
    };
    Ok(json!({
        "weights": d(&files.weights)?,
        "bearoff_os": files.one_sided.as_deref().map(d).transpose()?,
        "bearoff_ts": files.two_sided.as_deref().map(d).transpose()?,
    }))
}

/// What decides whether two job descriptions describe the same job: the description
/// without the paths of its files (every object with a `digest` loses its `path`), so
/// that byte-identical weights or databases at different paths (another machine, a
/// copy, `a/../b`) make the same job, as the input file already does by its digest.
pub fn identity(description: &Value) -> Value {
    match description {
        Value::Object(o) => {
            let is_file = o.contains_key("digest");
            Value::Object(
                o.iter()
                    .filter(|(k, _)| !(is_file && k.as_str() == "path"))
                    .map(|(k, v)| (k.clone(), identity(v)))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(identity).collect()),
        other => other.clone(),
    }
}

/// A digest of a file that changes when the file does: FNV-1a 64 of the whole file up
/// to 64 MiB; for larger files (big bearoff databases) of its size and its first and
/// last 8 MiB, to keep start-up quick.
pub fn file_digest(path: &Path) -> Result<String, JobError> {
    use std::io::{Read, Seek, SeekFrom};
    const WHOLE: u64 = 64 << 20;
    const PART: u64 = 8 << 20;
    let io = |what: &str| {
        let context = format!("{what} {}", path.display());
        move |source| JobError::Io { context, source }
    };
    let mut f = std::fs::File::open(path).map_err(io("cannot open"))?;
    let len = f.metadata().map_err(io("cannot read"))?.len();
    let mut h = Fnv1a::default();
    h.update(&len.to_le_bytes());
    let mut chunk = |f: &mut std::fs::File, from: u64, n: u64| -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(n as usize);
        f.seek(SeekFrom::Start(from))?;
        f.take(n).read_to_end(&mut buf)?;
        h.update(&buf);
        Ok(())
    };
    if len <= WHOLE {
        chunk(&mut f, 0, len)
    } else {
        chunk(&mut f, 0, PART).and_then(|_| chunk(&mut f, len - PART, PART))
    }
    .map_err(io("cannot read"))?;
    Ok(format!("{:016x}", h.finish()))
}

/// The positions of an input file: the `position_id` column of a CSV file, or the
/// positions of any dataset file.
pub fn read_positions(path: &Path) -> Result<Vec<Position>, DatasetError> {
    Input::open(path)?.positions()
}

/// A digest of a list of positions (order included).
pub fn positions_digest(positions: &[Position]) -> String {
    let mut h = Fnv1a::default();
    for p in positions {
        h.update(&p.key());
    }
    format!("{:016x}", h.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identity_of_a_job_has_its_files_digests_but_not_their_paths() {
        let d = json!({
            "settings": {"trials": 36, "path": "kept: not a file"},
            "input_digest": "00ff",
            "engine": {
                "weights": {"path": "/usr/lib/gnubg/gnubg.wd", "digest": "1234"},
                "bearoff_os": null,
                "bearoff_ts": {"path": "/var/lib/gnubg/gnubg_ts0.bd", "digest": "5678"},
                "disagree_weights": {"path": "w2.wd", "digest": "9abc"},
            },
        });
        assert_eq!(
            identity(&d),
            json!({
                "settings": {"trials": 36, "path": "kept: not a file"},
                "input_digest": "00ff",
                "engine": {
                    "weights": {"digest": "1234"},
                    "bearoff_os": null,
                    "bearoff_ts": {"digest": "5678"},
                    "disagree_weights": {"digest": "9abc"},
                },
            })
        );
        let mut moved = d.clone();
        moved["engine"]["weights"]["path"] = json!("w.wd");
        assert_eq!(identity(&moved), identity(&d));
        let mut other = d.clone();
        other["engine"]["weights"]["digest"] = json!("4321");
        assert_ne!(identity(&other), identity(&d));
    }
}

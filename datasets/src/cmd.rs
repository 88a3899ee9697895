//! One module per subcommand, each with its `Args` and `run`, and what they share.

pub mod benchmark;
pub mod convert;
pub mod merge;
pub mod rollout;
pub mod sample;
pub mod stats;

use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use board::Position;
use datasets::format::{self, Format};
use datasets::rng::Fnv1a;
pub use evaluator::cli::{EngineArgs, EngineFiles};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value};

/// A description of an evaluator's files (paths and digests), for job descriptions.
/// Options shared by the resumable jobs (sample, rollout, benchmark build).
#[derive(clap::Args)]
pub struct JobArgs {
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Discard partial results of an earlier run instead of resuming.
    #[arg(long)]
    pub fresh: bool,
    /// No progress bar or summary.
    #[arg(long)]
    pub quiet: bool,
}

pub fn describe_files(files: &EngineFiles) -> Result<Value> {
    let d = |p: &Path| -> Result<Value> {
        Ok(json!({ "path": p.display().to_string(), "digest": file_digest(p)? }))
    };
    Ok(json!({
        "weights": d(&files.weights)?,
        "bearoff_os": files.one_sided.as_deref().map(d).transpose()?,
        "bearoff_ts": files.two_sided.as_deref().map(d).transpose()?,
    }))
}

/// A digest of a file that changes when the file does: FNV-1a 64 of the whole file up
/// to 64 MiB; for larger files (big bearoff databases) of its size and its first and
/// last 8 MiB, to keep start-up quick.
pub fn file_digest(path: &Path) -> Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    const WHOLE: u64 = 64 << 20;
    const PART: u64 = 8 << 20;
    let mut f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let len = f
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    let mut h = Fnv1a::default();
    h.update(&len.to_le_bytes());
    let mut chunk = |f: &mut std::fs::File, from: u64, n: u64| -> Result<()> {
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
    .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(format!("{:016x}", h.finish()))
}

/// A rayon pool of `threads` threads (default: one per core).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        b = b.num_threads(t);
    }
    b.build().context("cannot start the worker threads")
}

/// A progress bar on stderr (hidden with `--quiet`) counting `unit`, with rate and ETA.
pub fn progress_bar(total: u64, unit: &str, quiet: bool) -> ProgressBar {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    };
    let template = format!(
        "[{{elapsed_precise}}] [{{wide_bar}}] {{pos}}/{{len}} {unit} ({{per_sec}}, ETA {{eta}}) {{msg}}"
    );
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// The positions of an input file: the `position_id` column of a CSV file, or the
/// positions of any dataset file.
pub fn read_positions(path: &Path) -> Result<Vec<Position>> {
    Ok(match Format::detect(path)? {
        Format::Csv => format::csv::read_position_ids(path)?,
        f => format::read(path, f)?.into_iter().map(|s| s.position).collect(),
    })
}

/// A digest of a list of positions (order included).
pub fn positions_digest(positions: &[Position]) -> String {
    let mut h = Fnv1a::default();
    for p in positions {
        h.update(&p.key());
    }
    format!("{:016x}", h.finish())
}

/// Prints a line on stderr unless quiet.
pub fn note(quiet: bool, text: &str) {
    if !quiet {
        eprintln!("{text}");
    }
}

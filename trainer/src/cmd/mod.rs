//! One module per subcommand, each with its `Args` and `run`.

pub mod benchmark;
pub mod duel;
pub mod supervised;
pub mod td;
pub mod tourney;

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use trainer::player::DataPaths;

/// Where the bearoff databases are.
#[derive(clap::Args, Clone, Debug)]
pub struct DataArgs {
    /// One-sided bearoff database (gnubg_os0.bd). Default: $BGKIT_DATA, then
    /// /usr/share/gnubg, /var/lib/gnubg.
    #[arg(long)]
    pub bearoff_os: Option<PathBuf>,
    /// Two-sided bearoff database (gnubg_ts0.bd). Default: $BGKIT_DATA, then
    /// /var/lib/gnubg, /usr/share/gnubg.
    #[arg(long)]
    pub bearoff_ts: Option<PathBuf>,
}

impl DataArgs {
    pub fn paths(&self) -> DataPaths {
        DataPaths {
            bearoff_os: self.bearoff_os.clone(),
            bearoff_ts: self.bearoff_ts.clone(),
        }
    }
}

/// A progress bar on stderr over `total` games (hidden with `quiet`).
pub fn progress(total: u64, quiet: bool, what: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let template =
        format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {what} ({{per_sec}}, ETA {{eta}}) {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

/// The number of threads to use: the flag, or every available core.
pub fn threads(flag: Option<usize>) -> anyhow::Result<usize> {
    match flag {
        Some(0) => anyhow::bail!("--threads must be at least 1"),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

//! `trainer curve`: a learning-curve CSV (`trainer td`'s `curve.csv` layout) drawn as a
//! PNG, over games or over minutes (the overnight pipeline's whole-run curve).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use trainer::curve::{self, XAxis};

/// Draw a learning curve (ppg against pubeval, ± 1 SE) from a curve CSV as a PNG.
///
/// The CSV has `trainer td`'s curve.csv columns (games, elapsed_s, games_per_s, alpha,
/// bench_games, ppg, se, win_rate, gammon_rate, gammon_loss_rate). The chart has
/// pubeval's and gnubg 0-ply's levels as reference lines; `scripts/overnight.sh` draws
/// a whole run with it (TD's benchmarks, then each round's duel, over minutes).
#[derive(clap::Args)]
pub struct Args {
    /// The curve CSV.
    #[arg(long, value_parser = cli_support::args::input_file())]
    input: PathBuf,
    /// The PNG to write.
    #[arg(short, long)]
    output: PathBuf,
    /// The x axis: games trained, or minutes since the run began (elapsed_s).
    #[arg(long, value_enum, default_value_t = Axis::Games)]
    x: Axis,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Axis {
    Games,
    Minutes,
}

pub fn run(args: Args) -> Result<ExitCode> {
    cli_support::outputs::check(&args.output, &[args.input.as_path()], args.force)?;
    let rows = curve::read_csv(&args.input)?;
    if rows.is_empty() {
        anyhow::bail!("{}: no rows to draw", args.input.display());
    }
    let x = match args.x {
        Axis::Games => XAxis::Games,
        Axis::Minutes => XAxis::Minutes,
    };
    curve::plot_by(&args.output, &rows, x)?;
    Ok(ExitCode::SUCCESS)
}

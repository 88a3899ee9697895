//! `trainer duel`: a duplicate-dice duel between two players.

use cli_support::{progress_bar, thread_count};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use board::records::{self, Format};
use trainer::duel::{duel, DuelOptions};
use trainer::player;

use super::{data_paths, BearoffArgs};

/// Play cubeless money games between two players with duplicate dice (each dice
/// stream twice, the players exchanging places) and report player A's points per game
/// with its standard error over game pairs.
///
/// A PLAYER is `pubeval`, `random`, `gnubg:PATH` (a gnubg weights file in bgkit's
/// gnubg-exact evaluator, with gnubg's bearoff databases; `gnubg:` alone finds gnubg.wd)
/// or the weights file of a net trained by `trainer td` (its .json trainer sidecar beside
/// it; without one, a weights file is gnubg's nets).
#[derive(clap::Args)]
pub struct Args {
    /// Player A (results are from A's side).
    #[arg(long)]
    a: String,
    /// Player B.
    #[arg(long)]
    b: String,
    /// Games to play (even: two per dice stream).
    #[arg(long)]
    games: u64,
    /// Seed of the dice streams.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Write every game to this file (.sgf or .mat; A is White).
    #[arg(long, value_name = "FILE", visible_alias = "sgf")]
    record: Option<PathBuf>,
    /// Replace an existing --record file.
    #[arg(long, requires = "record")]
    force: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    data: BearoffArgs,
}

/// The format of a `--record` file by its name: `.sgf` or `.mat`, the names the
/// synopsis and the message promise (any other, `.txt` included, is refused).
fn record_format(path: &std::path::Path) -> Result<Format> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("sgf") => Ok(Format::Sgf),
        Some("mat") => Ok(Format::Mat),
        _ => bail!(
            "--record {}: the file name must end in .sgf or .mat",
            path.display()
        ),
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.games == 0 || !args.games.is_multiple_of(2) {
        bail!(
            "--games must be even and positive (each dice stream is played twice), got {}",
            args.games
        );
    }
    let mut format = None;
    if let Some(record) = &args.record {
        // The input rule first (the graver mistake), then the name, then the rest.
        let inputs = super::player_inputs([args.a.as_str(), args.b.as_str()], &args.data);
        let inputs: Vec<&std::path::Path> = inputs.iter().map(PathBuf::as_path).collect();
        cli_support::outputs::check_not_input(record, &inputs)?;
        format = Some(record_format(record)?);
        cli_support::outputs::check(record, &inputs, args.force)?;
    }
    let threads = thread_count(args.threads)?;
    let paths = data_paths(&args.data);
    let mut dbs = None;
    let a = player::from_spec(&args.a, &paths, &mut dbs).context("player A")?;
    let b = player::from_spec(&args.b, &paths, &mut dbs).context("player B")?;
    let opts = DuelOptions {
        games: args.games,
        seed: args.seed,
        record: format.is_some(),
    };
    let bar = progress_bar(args.games, "games", args.quiet);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let (r, record) = pool.install(|| duel(a.as_ref(), b.as_ref(), &opts, &|n| bar.set_position(n)))?;
    bar.finish_and_clear();
    if let (Some(path), Some(format), Some(record)) = (&args.record, format, record) {
        records::save_with(path, &record, format, fileio::Existing::replace_if(args.force))?;
    }
    if args.json {
        cli_support::outln!("{}", serde_json::to_string(&r)?)?;
    } else {
        cli_support::outln!(
            "{} vs {}: {} games ({} dice pair{}), seed {}",
            r.a,
            r.b,
            r.games,
            r.pairs,
            if r.pairs == 1 { "" } else { "s" },
            r.seed
        )?;
        if r.se.is_nan() {
            cli_support::outln!("ppg (A):        {:+.4} (one dice pair: no SE)", r.ppg)?;
        } else {
            cli_support::outln!("ppg (A):        {:+.4} ± {:.4} (1 SE over pairs)", r.ppg, r.se)?;
        }
        cli_support::outln!("A wins:         {:.2} %", 100.0 * r.win_rate)?;
        cli_support::outln!(
            "A gammons:      {:.2} % won, {:.2} % lost",
            100.0 * r.gammon_rate,
            100.0 * r.gammon_loss_rate
        )?;
        cli_support::outln!(
            "A backgammons:  {:.2} % won, {:.2} % lost",
            100.0 * r.backgammon_rate,
            100.0 * r.backgammon_loss_rate
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

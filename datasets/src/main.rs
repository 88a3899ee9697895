//! The `datasets` command line: a thin layer over the `datasets` library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

/// Training data for backgammon nets: sample positions by self-play, roll them out,
/// convert, summarise, and merge dataset files.
///
/// Exit status: 0 success, 1 a clean negative answer, 2 an error.
#[derive(Parser)]
#[command(name = "datasets", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Sample(cmd::sample::Args),
    Rollout(cmd::rollout::Args),
    Convert(cmd::convert::Args),
    Stats(cmd::stats::Args),
    Merge(cmd::merge::Args),
    Benchmark(cmd::benchmark::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sample(args) => cmd::sample::run(args),
        Command::Rollout(args) => cmd::rollout::run(args),
        Command::Convert(args) => cmd::convert::run(args),
        Command::Stats(args) => cmd::stats::run(args),
        Command::Merge(args) => cmd::merge::run(args),
        Command::Benchmark(args) => cmd::benchmark::run(args),
    };
    cli_support::exit_status("datasets", result)
}

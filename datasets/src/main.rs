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
    Label(cmd::label::Args),
    Convert(cmd::convert::Args),
    Stats(cmd::stats::Args),
    Merge(cmd::merge::Args),
    Benchmark(cmd::benchmark::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(cli_support::docs::CompletionsArgs),
    /// Write the man pages (this tool and every subcommand) into a directory.
    Man(cli_support::docs::ManArgs),
}

fn main() -> ExitCode {
    let cli = match cli_support::parse::<Cli>("datasets") {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    // A BGKIT_SIMD that names no kernel is a typo to report, not a value to ignore.
    if let Err(e) = evaluator::simd::requested_kernel() {
        return cli_support::exit_status("datasets", Err(anyhow::Error::msg(e)));
    }
    let result = match cli.command {
        Command::Sample(args) => cmd::sample::run(args),
        Command::Rollout(args) => cmd::rollout::run(args),
        Command::Label(args) => cmd::label::run(args),
        Command::Convert(args) => cmd::convert::run(args),
        Command::Stats(args) => cmd::stats::run(args),
        Command::Merge(args) => cmd::merge::run(args),
        Command::Benchmark(args) => cmd::benchmark::run(args),
        Command::Completions(args) => {
            cli_support::docs::completions::<Cli>(&args).map(|()| ExitCode::SUCCESS)
        }
        Command::Man(args) => cli_support::docs::write_man_pages::<Cli>(&args).map(|_| ExitCode::SUCCESS),
    };
    cli_support::exit_status("datasets", result)
}

//! The `trainer` command line: a thin layer over the trainer library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

/// Train backgammon nets by TD(λ) self-play and by supervised training on rollouts,
/// and measure players in duplicate-dice duels and on move-error benchmarks.
///
/// Exit status: 0 success, 1 a clean negative answer, 2 an error.
#[derive(Parser)]
#[command(name = "trainer", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Td(cmd::td::Args),
    Duel(cmd::duel::Args),
    Tourney(cmd::tourney::Args),
    Supervised(cmd::supervised::Args),
    Benchmark(cmd::benchmark::Args),
    Curve(cmd::curve::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(cli_support::docs::CompletionsArgs),
    /// Write the man pages (this tool and every subcommand) into a directory.
    Man(cli_support::docs::ManArgs),
}

fn main() -> ExitCode {
    let cli = match cli_support::parse::<Cli>("trainer") {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    // A BGKIT_SIMD that names no kernel is a typo to report, not a value to ignore.
    if let Err(e) = evaluator::simd::requested_kernel() {
        return cli_support::exit_status("trainer", Err(anyhow::Error::msg(e)));
    }
    let result = match cli.command {
        Command::Td(args) => cmd::td::run(args),
        Command::Duel(args) => cmd::duel::run(args),
        Command::Tourney(args) => cmd::tourney::run(args),
        Command::Supervised(args) => cmd::supervised::run(args),
        Command::Benchmark(args) => cmd::benchmark::run(args),
        Command::Curve(args) => cmd::curve::run(args),
        Command::Completions(args) => {
            cli_support::docs::completions::<Cli>(&args).map(|()| ExitCode::SUCCESS)
        }
        Command::Man(args) => cli_support::docs::write_man_pages::<Cli>(&args).map(|_| ExitCode::SUCCESS),
    };
    cli_support::exit_status("trainer", result)
}

//! The `evaluator` command line: a thin layer over the `board` and `evaluator` libraries.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

/// Backgammon position tools: gnubg-compatible evaluation, best moves, legal moves,
/// notation, boards and benchmarks.
///
/// Exit status: 0 success, 1 a clean negative answer, 2 an error.
#[derive(Parser)]
#[command(name = "evaluator", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Eval(cmd::eval::Args),
    BestMove(cmd::best_move::Args),
    Moves(cmd::moves::Args),
    Notation(cmd::notation::Args),
    Show(cmd::show::Args),
    Bench(cmd::bench::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(cli_support::docs::CompletionsArgs),
    /// Write the man pages (this tool and every subcommand) into a directory.
    Man(cli_support::docs::ManArgs),
}

fn main() -> ExitCode {
    let cli = match cli_support::parse::<Cli>("evaluator") {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    // A BGKIT_SIMD that names no kernel is a typo to report, not a value to ignore.
    if let Err(e) = evaluator::simd::requested_kernel() {
        return cli_support::exit_status("evaluator", Err(anyhow::Error::msg(e)));
    }
    let result = match cli.command {
        Command::Eval(args) => cmd::eval::run(args),
        Command::BestMove(args) => cmd::best_move::run(args),
        Command::Moves(args) => cmd::moves::run(args),
        Command::Notation(args) => cmd::notation::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Completions(args) => {
            cli_support::docs::completions::<Cli>(&args).map(|()| ExitCode::SUCCESS)
        }
        Command::Man(args) => cli_support::docs::write_man_pages::<Cli>(&args).map(|_| ExitCode::SUCCESS),
    };
    cli_support::exit_status("evaluator", result)
}

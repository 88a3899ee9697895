//! `gen-bearoff`: build, dump and verify bearoff and hypergammon databases in gnubg's
//! formats.
//!
//! Exit codes: 0 success, 1 a clean negative answer (`verify` found a problem), 2 an
//! error (printed once as `gen-bearoff: message`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

#[derive(Parser, Debug)]
#[command(
    name = "gen-bearoff",
    version,
    about = "Bearoff and hypergammon databases in gnubg's formats: generate, dump, verify"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate a one-sided database (gnubg `makebearoff -o P`).
    OneSided(cmd::one_sided::Args),
    /// Generate a two-sided database (gnubg `makebearoff -t PxC`).
    TwoSided(cmd::two_sided::Args),
    /// Prepare the work directory of a sharded two-sided build; prints its number of levels.
    TwoSidedPlan(cmd::two_sided_sharded::PlanArgs),
    /// Solve hypergammon and write gnubg's database (gnubg `makehyper -c C`).
    Hyper(cmd::hyper::Args),
    /// Print one record as gnubg's `bearoffdump` does.
    Dump(cmd::dump::Args),
    /// Check a database's structure and recompute a sample of records.
    Verify(cmd::verify::Args),
    /// Largest differences between two hypergammon databases.
    Compare(cmd::compare::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(cli_support::docs::CompletionsArgs),
    /// Write the man pages (this tool and every subcommand) into a directory.
    Man(cli_support::docs::ManArgs),
}

fn main() -> ExitCode {
    let cli = match cli_support::parse::<Cli>("gen-bearoff") {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    let result = match cli.command {
        Command::OneSided(a) => cmd::one_sided::run(a),
        Command::TwoSided(a) => cmd::two_sided_sharded::run(a),
        Command::TwoSidedPlan(a) => cmd::two_sided_sharded::run_plan(a),
        Command::Hyper(a) => cmd::hyper::run(a),
        Command::Dump(a) => cmd::dump::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Completions(args) => {
            cli_support::docs::completions::<Cli>(&args).map(|()| ExitCode::SUCCESS)
        }
        Command::Man(args) => cli_support::docs::write_man_pages::<Cli>(&args).map(|_| ExitCode::SUCCESS),
    };
    cli_support::exit_status("gen-bearoff", result)
}

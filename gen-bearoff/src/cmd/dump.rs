//! `gen-bearoff dump`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{ArgGroup, Parser};

use gen_bearoff::dump::{dump, DumpTarget};

use super::common::open_db;

/// Options of `dump`.
#[derive(Parser, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["position_id", "index"])))]
pub struct Args {
    /// The database file.
    pub file: PathBuf,
    /// Dump the position with this gnubg Position ID.
    #[arg(long, short = 'p')]
    pub position_id: Option<String>,
    /// Dump this index (gnubg's convention: index / n is the player on roll, index % n
    /// the opponent, n = positions per side).
    #[arg(long, short = 'n')]
    pub index: Option<u64>,
    /// For a headerless file: its header text, e.g. "gnubg-TS-06-06-1".
    #[arg(long)]
    pub assume_header: Option<String>,
}

/// Runs `dump`.
pub fn run(args: Args) -> Result<ExitCode> {
    let db = open_db(&args.file, args.assume_header.as_deref())?;
    let target = match (args.position_id, args.index) {
        (Some(id), _) => DumpTarget::PositionId(id),
        (None, Some(i)) => DumpTarget::Index(i),
        (None, None) => unreachable!("clap requires one"),
    };
    let text = dump(&db, &target, &args.file.display().to_string())
        .with_context(|| format!("{}", args.file.display()))?;
    cli_support::out!("{text}")?;
    Ok(ExitCode::SUCCESS)
}

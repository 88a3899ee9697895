//! `datasets merge`: join the outputs of `rollout --shard K/N` runs.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use datasets::format::{self, Format};
use datasets::merge::{merge_by_input, merge_round_robin};

use datasets::job::read_positions;

use super::{note, FormatArg};

/// Join shard outputs into exactly what one machine would have produced.
///
/// With --input (the positions file given to every shard), rows follow the input and
/// each takes its position's result from the parts. Without it, give the parts in
/// shard order (1/N first); they are interleaved round robin.
#[derive(clap::Args)]
pub struct Args {
    /// The shard outputs.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
    /// The positions file the shards were given.
    #[arg(long)]
    input: Option<PathBuf>,
    /// Output format (default: from the output's extension).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Replace an existing output file (never one of the inputs).
    #[arg(long)]
    force: bool,
    /// No summary line.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut inputs: Vec<&std::path::Path> = args.parts.iter().map(PathBuf::as_path).collect();
    inputs.extend(args.input.as_deref());
    cli_support::outputs::check(&args.output, &inputs, args.force)?;
    let to = Format::for_output(&args.output, args.format.map(Format::from))?;
    let mut parts = Vec::new();
    for p in &args.parts {
        let f = Format::detect(p)?;
        parts.push((p.display().to_string(), format::read(p, f)?));
    }
    let merged = match &args.input {
        Some(input) => merge_by_input(&read_positions(input)?, &parts)?,
        None => merge_round_robin(&parts)?,
    };
    format::write(&args.output, to, &merged)?;
    note(
        args.quiet,
        &format!(
            "datasets: merged {} parts, {} positions -> {}",
            parts.len(),
            merged.len(),
            args.output.display()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

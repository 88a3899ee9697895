//! `datasets convert`: between CSV, gnubg-nn text and the binary format.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use datasets::format::{self, Format, Input};
use fileio::Existing;

use super::{note, FormatArg};

/// Convert a dataset between formats (CSV, gnubg-nn text, binary).
///
/// The input format is recognised from its content and extension; the output's from
/// --to or its extension. Standard errors are kept where the target format holds them.
#[derive(clap::Args)]
pub struct Args {
    /// Dataset to read.
    #[arg(value_parser = cli_support::args::input_file())]
    input: PathBuf,
    /// Dataset to write.
    output: PathBuf,
    /// Input format (default: recognised).
    #[arg(long, value_enum)]
    from: Option<FormatArg>,
    /// Output format (default: from the output's extension).
    #[arg(long, value_enum)]
    to: Option<FormatArg>,
    /// Replace an existing output file (never one of the inputs).
    #[arg(long)]
    force: bool,
    /// No summary line.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    cli_support::outputs::check(&args.output, &[&args.input], args.force)?;
    let to = Format::for_output(&args.output, args.to.map(Format::from), "--to")?;
    let input = Input::open(&args.input)?;
    let from = match args.from {
        Some(f) => f.into(),
        None => input.format()?,
    };
    let samples = input.samples(from)?;
    format::write_with(&args.output, to, &samples, Existing::replace_if(args.force))?;
    note(
        args.quiet,
        &format!(
            "datasets: {} positions, {} -> {} ({})",
            samples.len(),
            from.name(),
            to.name(),
            args.output.display()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

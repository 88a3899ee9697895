//! `gen-bearoff one-sided`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Parser;

use gen_bearoff::byte_size::show;
use gen_bearoff::onesided::{build_one_sided, BuildError, OneSidedSpec};
use gen_bearoff::output::AtomicOutput;
use gen_bearoff::HeaderStyle;

use super::common::{
    default_memory_limit, global_threads, note, parse_size, phase_bar, style_error, FormatChoice,
};

/// Options of `one-sided`.
#[derive(Parser, Debug)]
pub struct Args {
    /// Points per side (gnubg allows 1-13; up to 24 here).
    #[arg(long, short = 'p', value_parser = clap::value_parser!(u8).range(1..=24))]
    pub points: u8,
    /// Checkers per side (1-15; gnubg always uses 15).
    #[arg(long, short = 'c', default_value_t = 15, value_parser = clap::value_parser!(u8).range(1..=15))]
    pub checkers: u8,
    /// Leave out the gammon (first checker off) distributions (gnubg -g).
    #[arg(long)]
    pub no_gammon: bool,
    /// Write fixed 32-value arrays instead of the compressed layout (gnubg -c).
    #[arg(long)]
    pub no_compress: bool,
    /// Approximate by normal distributions (gnubg -n; always with gammons, in its own
    /// fixed layout, so --no-gammon and --no-compress do not apply).
    #[arg(long, conflicts_with_all = ["no_gammon", "no_compress"])]
    pub normal_dist: bool,
    /// Write no header (gnubg -H); such files need --assume-header to be read.
    #[arg(long)]
    pub no_header: bool,
    /// Header and offset width.
    #[arg(long, value_enum, default_value_t = FormatChoice::Auto)]
    pub format: FormatChoice,
    /// Output file (written as FILE.partial, renamed when complete).
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Refuse to start if the tables would need more memory than this (e.g. 8G).
    #[arg(long, value_parser = parse_size)]
    pub memory_limit: Option<u64>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    /// No progress bar or messages.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Runs `one-sided`.
pub fn run(args: Args) -> Result<ExitCode> {
    global_threads(args.threads)?;
    super::common::check_database_output(&args.output, args.force)?;
    let spec = OneSidedSpec {
        points: args.points,
        checkers: args.checkers,
        gammon: !args.no_gammon,
        compressed: !args.no_compress,
        normal: args.normal_dist,
        style: args.format.into(),
        no_header: args.no_header,
    };
    let flags = |e: BuildError| match e {
        BuildError::Style(e) => style_error(e),
        e => anyhow::Error::new(e),
    };
    let count = spec.index().map_err(flags)?.count();
    let per_position = spec.bytes_per_position();
    let need = count * per_position;
    let limit = args.memory_limit.unwrap_or_else(default_memory_limit);
    if need > limit {
        bail!(
            "one-sided {}x{} needs about {} of memory ({count} positions x {per_position} bytes); the limit is {} (--memory-limit)",
            args.points,
            args.checkers,
            show(need),
            show(limit)
        );
    }
    note(
        args.quiet,
        &format!(
            "one-sided {}x{}: {count} positions, about {} of memory",
            args.points,
            args.checkers,
            show(need)
        ),
    );
    let start = Instant::now();
    let bar = phase_bar(count, "one-sided", args.quiet);
    let mut out = AtomicOutput::create(&args.output, args.force)?;
    let style =
        build_one_sided(&spec, limit - need, &mut out, &|done| bar.set_position(done)).map_err(|e| match e {
            BuildError::Write(e) => {
                anyhow::Error::new(e).context(format!("cannot write {}", out.partial().display()))
            }
            e => flags(e),
        });
    bar.finish_and_clear();
    let style = style?;
    out.commit()?;
    note(
        args.quiet,
        &format!(
            "wrote {} ({} header) in {:.2} s",
            args.output.display(),
            match style {
                HeaderStyle::Gnubg => "gnubg",
                HeaderStyle::Wide => "bgkit wide",
                HeaderStyle::None => "no",
            },
            start.elapsed().as_secs_f64()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

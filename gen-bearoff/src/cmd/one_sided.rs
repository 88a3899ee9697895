//! `gen-bearoff one-sided`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Parser;

use gen_bearoff::byte_size::show;
use gen_bearoff::format::header::{Header, Kind, OneSidedParams};
use gen_bearoff::onesided::generate::{exact_bytes_per_position, generate_exact};
use gen_bearoff::onesided::layout::{
    exact_file_size, write_exact, write_normal, OneSidedWriteOptions, NORMAL_RECORD_LEN,
};
use gen_bearoff::onesided::normal::generate_normal;
use gen_bearoff::output::AtomicOutput;
use gen_bearoff::{HeaderStyle, PositionIndex};

use super::common::{
    check_format_points, choose_style, default_memory_limit, global_threads, note, parse_size, phase_bar,
    FormatChoice,
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
    if !(1..=24).contains(&args.points) {
        bail!("--points must be 1-24, got {}", args.points);
    }
    if !(1..=15).contains(&args.checkers) {
        bail!("--checkers must be 1-15, got {}", args.checkers);
    }
    check_format_points(args.format, args.no_header, args.points)?;
    let index = PositionIndex::new(usize::from(args.points), usize::from(args.checkers)).expect("checked");
    let count = index.count();
    if count > u64::from(u32::MAX) {
        bail!(
            "{}x{} has {count} positions, more than this generator supports (2^32)",
            args.points,
            args.checkers
        );
    }
    let gammon = !args.no_gammon;
    let per_position = if args.normal_dist {
        16 + 10
    } else {
        exact_bytes_per_position(gammon)
    };
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
    let params = OneSidedParams {
        points: args.points,
        checkers: args.checkers,
        gammon: gammon || args.normal_dist,
        compressed: !args.no_compress && !args.normal_dist,
        normal: args.normal_dist,
    };
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
    let progress = |done: u64| bar.set_position(done);
    let mut out = AtomicOutput::create(&args.output, args.force)?;
    let style;
    if args.normal_dist {
        let table = generate_normal(&index, &progress);
        bar.finish_and_clear();
        style = choose_style(
            args.format,
            args.no_header,
            args.points,
            40 + count * NORMAL_RECORD_LEN,
        )?;
        let header = Header {
            kind: Kind::OneSided(params),
            style,
        };
        write_normal(&table, header.to_bytes(), &mut out)
            .with_context(|| format!("cannot write {}", out.partial().display()))?;
    } else {
        let table = generate_exact(&index, gammon, limit - need, &progress);
        bar.finish_and_clear();
        let mut opts = OneSidedWriteOptions {
            params,
            style: HeaderStyle::Gnubg,
        };
        let size = exact_file_size(&table, &opts);
        style = choose_style(args.format, args.no_header, args.points, size)?;
        opts.style = style;
        let header = Header {
            kind: Kind::OneSided(params),
            style,
        };
        write_exact(&table, &opts, header.to_bytes(), &mut out)
            .with_context(|| format!("cannot write {}", out.partial().display()))?;
    }
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

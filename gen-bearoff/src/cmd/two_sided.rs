//! `gen-bearoff two-sided`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Parser;

use gen_bearoff::byte_size::show;
use gen_bearoff::format::header::{Header, Kind, TwoSidedParams};
use gen_bearoff::output::AtomicOutput;
use gen_bearoff::twosided::sharded::Shard;
use gen_bearoff::twosided::{generate_two_sided, TwoSidedRun};
use gen_bearoff::{HeaderStyle, PositionIndex};

use super::common::{
    choose_style, default_memory_limit, global_threads, note, parse_size, phase_bar, FormatChoice,
};

/// Options of `two-sided`.
#[derive(Parser, Debug)]
pub struct Args {
    #[command(flatten)]
    pub spec: Spec,
    /// Output file (written as FILE.partial, renamed when complete).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Memory to plan for (e.g. 20G; default 80% of available memory). Beyond the window
    /// of 24 pip levels the output is assembled in bands that fit.
    #[arg(long, value_parser = parse_size)]
    pub memory_limit: Option<u64>,
    /// Cap the size of an output band (forces bucket files; for testing and tuning).
    #[arg(long, value_parser = parse_size, hide = true)]
    pub band_size: Option<u64>,
    /// Continue an interrupted run (its state file FILE.state and bucket files
    /// FILE.bucketN), also when this run would fit in memory. Only runs that use bucket
    /// files leave these: those whose output does not fit in memory, and all long ones
    /// (2^28 records and more); shorter runs start again from the beginning. Without
    /// --resume a leftover state file is an error.
    #[arg(long)]
    pub resume: bool,
    /// For tests: stop with an error after this pip-sum level, as if interrupted.
    #[arg(long, hide = true)]
    pub stop_after_level: Option<usize>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    /// No progress bar or messages.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Sharded build: the work directory prepared by `two-sided-plan` (shared by all
    /// tasks); with --shard K/N, run worker K of N over every level (or, with --level,
    /// one shard of one level); with --assemble, write the database.
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// Sharded build: compute only this pip-sum level's shard --shard K/N (0 .. levels −
    /// 1, in order; a level needs all parts of the 24 levels below it). Without it, the
    /// task is a worker that goes through every level.
    #[arg(long, requires = "work", requires = "shard", conflicts_with = "assemble")]
    pub level: Option<usize>,
    /// Sharded build: K/N with 1 <= K <= N; each level is split into N shards (every
    /// task must use the same N). A worker (no --level) computes whichever shards of a
    /// level nobody else has claimed, starting with shard K, and waits for the level to
    /// be complete before going up: N workers started together build the database.
    #[arg(long, value_name = "K/N", requires = "work", conflicts_with = "assemble")]
    pub shard: Option<Shard>,
    /// Sharded build, workers: a claim of another worker that has not changed for this
    /// many seconds is taken over (its worker died on another host or hangs; a dead
    /// worker of this host, or this task's own run before a requeue, is taken over at
    /// once).
    #[arg(long, value_name = "SECONDS", default_value_t = 120.0, requires = "shard")]
    pub stale_after: f64,
    /// Sharded build: check every part is there exactly once and write the database to -o.
    #[arg(long, requires = "work", requires = "output")]
    pub assemble: bool,
}

/// The database a two-sided command builds or plans: its size and layout.
#[derive(clap::Args, Debug, Clone)]
pub struct Spec {
    /// The database as PxC (e.g. 6x8), instead of --points and --checkers.
    #[arg(value_name = "PxC")]
    pub size: Option<String>,
    /// Points per side (gnubg uses 6).
    #[arg(long, short = 'p', value_parser = clap::value_parser!(u8).range(1..=24))]
    pub points: Option<u8>,
    /// Checkers per side (gnubg allows up to 11; up to 15 here).
    #[arg(long, short = 'c', value_parser = clap::value_parser!(u8).range(1..=15))]
    pub checkers: Option<u8>,
    /// Store only the cubeless equity (gnubg -C).
    #[arg(long)]
    pub no_cubeful: bool,
    /// Write no header (gnubg -H).
    #[arg(long)]
    pub no_header: bool,
    /// Header style.
    #[arg(long, value_enum, default_value_t = FormatChoice::Auto)]
    pub format: FormatChoice,
}

impl Spec {
    /// Points and checkers per side.
    pub fn size(&self) -> Result<(u8, u8)> {
        size_of(self.size.as_deref(), self.points, self.checkers)
    }

    /// The database's parameters, its number of records and its header style.
    pub fn resolve(&self) -> Result<(TwoSidedParams, u64, HeaderStyle)> {
        let (points, checkers) = self.size()?;
        let params = TwoSidedParams {
            points,
            checkers,
            cubeful: !self.no_cubeful,
        };
        let n = PositionIndex::new(usize::from(points), usize::from(checkers))
            .expect("checked")
            .count();
        let records = n * n;
        let size = 40 + records * if params.cubeful { 8 } else { 2 };
        let style = choose_style(self.format, self.no_header, points, size)?;
        Ok((params, records, style))
    }
}

/// The points and checkers given as `PxC` or with --points and --checkers.
pub fn size_of(size: Option<&str>, points: Option<u8>, checkers: Option<u8>) -> Result<(u8, u8)> {
    let parsed = match size {
        None => None,
        Some(text) => {
            let bad = || anyhow::anyhow!("size '{text}' must be PxC, e.g. 6x8");
            let (p, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
            Some((
                p.parse::<u8>().map_err(|_| bad())?,
                c.parse::<u8>().map_err(|_| bad())?,
            ))
        }
    };
    let (p, c) = match (parsed, points, checkers) {
        (Some((p, c)), None, None) => (p, c),
        (Some((p, c)), Some(p2), None) if p == p2 => (p, c),
        (Some((p, c)), None, Some(c2)) if c == c2 => (p, c),
        (Some((p, c)), Some(p2), Some(c2)) if (p, c) == (p2, c2) => (p, c),
        (Some(_), _, _) => bail!("the size PxC contradicts --points/--checkers"),
        (None, Some(p), Some(c)) => (p, c),
        (None, _, _) => bail!("give the size as PxC (e.g. 6x8) or with --points and --checkers"),
    };
    if !(1..=24).contains(&p) || !(1..=15).contains(&c) {
        bail!("two-sided databases need --points 1-24 and --checkers 1-15, got {p}x{c}");
    }
    Ok((p, c))
}

/// Runs `two-sided` without --work (one process).
pub fn run(args: Args) -> Result<ExitCode> {
    global_threads(args.threads)?;
    let (params, records, style) = args.spec.resolve()?;
    let (points, checkers) = (params.points, params.checkers);
    if args.level.is_some() || args.assemble {
        bail!("--level and --assemble belong to a sharded build: give its --work directory");
    }
    let Some(output) = args.output.clone() else {
        bail!("give the output file with -o FILE");
    };
    super::common::check_database_output(&output, args.force)?;
    let n = PositionIndex::new(usize::from(points), usize::from(checkers))
        .expect("checked")
        .count();
    let header = Header {
        kind: Kind::TwoSided(params),
        style,
    };
    let limit = args.memory_limit.unwrap_or_else(default_memory_limit);
    let start = Instant::now();
    let mut out = AtomicOutput::create(&output, args.force)?;
    let scratch = out.partial().to_path_buf();
    let quiet = args.quiet;
    let bar = phase_bar(records, "two-sided", true);
    let bar_cell = std::sync::Mutex::new(Some(bar));
    let on_plan = |plan: &gen_bearoff::twosided::TwoSidedPlan| {
        note(
            quiet,
            &format!(
                "two-sided {points}x{checkers}: {n} positions per side, {records} records, {} output; memory: window {}, band {}, tables {}, peak about {}; {} band(s)",
                show(plan.output_bytes),
                show(plan.window_bytes),
                show(plan.band_bytes),
                show(plan.table_bytes),
                show(plan.peak_bytes()),
                plan.bands.len()
            ),
        );
        if let Ok(mut b) = bar_cell.lock() {
            *b = Some(phase_bar(records, "two-sided", quiet));
        }
    };
    let progress = |done: u64| {
        if let Ok(b) = bar_cell.lock() {
            if let Some(b) = b.as_ref() {
                b.set_position(done);
            }
        }
    };
    let run = TwoSidedRun {
        memory_limit: limit,
        band_limit: args.band_size,
        scratch,
        resume: args.resume,
        stop_after_level: args.stop_after_level,
    };
    let result = generate_two_sided(params, &run, header.to_bytes(), &mut out, &on_plan, &progress);
    if let Ok(mut b) = bar_cell.lock() {
        if let Some(b) = b.take() {
            b.finish_and_clear();
        }
    }
    result?;
    out.commit()?;
    note(
        quiet,
        &format!(
            "wrote {} ({} header) in {:.2} s",
            output.display(),
            style_label(style),
            start.elapsed().as_secs_f64()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

/// How notes name a header style.
pub fn style_label(style: HeaderStyle) -> &'static str {
    match style {
        HeaderStyle::Gnubg => "gnubg",
        HeaderStyle::Wide => "bgkit wide",
        HeaderStyle::None => "no",
    }
}

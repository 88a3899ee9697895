//! Sharded two-sided builds: `gen-bearoff two-sided-plan` (prepare the work directory,
//! print the number of levels), and `two-sided --work DIR` with `--level I --shard K/N`
//! (one task) or `--assemble -o FILE` (the database).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Parser;

use gen_bearoff::format::header::{Header, Kind, TwoSidedParams};
use gen_bearoff::output::AtomicOutput;
use gen_bearoff::twosided::sharded::{assemble, run_shard, shard_records, ShardOutcome, WorkPlan};
use gen_bearoff::{HeaderStyle, PositionIndex};

use super::common::{choose_style, default_memory_limit, global_threads, note, phase_bar, FormatChoice};
use super::two_sided::{size_of, Args};

/// Options of `two-sided-plan`.
#[derive(Parser, Debug)]
pub struct PlanArgs {
    /// The database as PxC (e.g. 6x8), instead of --points and --checkers.
    #[arg(value_name = "PxC")]
    pub size: Option<String>,
    /// Points per side.
    #[arg(long, short = 'p')]
    pub points: Option<u8>,
    /// Checkers per side (1-15).
    #[arg(long, short = 'c')]
    pub checkers: Option<u8>,
    /// Store only the cubeless equity (gnubg -C).
    #[arg(long)]
    pub no_cubeful: bool,
    /// Write no header (gnubg -H).
    #[arg(long)]
    pub no_header: bool,
    /// Header style of the assembled file.
    #[arg(long, value_enum, default_value_t = FormatChoice::Auto)]
    pub format: FormatChoice,
    /// The work directory (created if needed; shared by all tasks).
    #[arg(long, value_name = "DIR")]
    pub work: PathBuf,
    /// No messages.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Runs `two-sided-plan`: writes `DIR/plan` and prints the number of levels.
pub fn run_plan(args: PlanArgs) -> Result<ExitCode> {
    let (points, checkers) = size_of(args.size.as_deref(), args.points, args.checkers)?;
    let params = TwoSidedParams {
        points,
        checkers,
        cubeful: !args.no_cubeful,
    };
    let n = PositionIndex::new(usize::from(points), usize::from(checkers))
        .expect("checked")
        .count();
    let size = 40 + n * n * if params.cubeful { 8 } else { 2 };
    let style = choose_style(args.format, args.no_header, size)?;
    let plan = WorkPlan::create(&args.work, WorkPlan::new(params, style)?)?;
    note(
        args.quiet,
        &format!(
            "{}: {} ({} records); run levels 0 to {} in order, each as tasks --level I --shard K/N, then --assemble",
            args.work.display(),
            plan.describe(),
            n * n,
            plan.levels - 1
        ),
    );
    println!("{}", plan.levels);
    Ok(ExitCode::SUCCESS)
}

/// Runs `two-sided`: with --work one task or the assembly of a sharded build, else
/// the one-process build ([`super::two_sided::run`]).
pub fn run(args: Args) -> Result<ExitCode> {
    let Some(dir) = args.work.clone() else {
        return super::two_sided::run(args);
    };
    global_threads(args.threads)?;
    let (points, checkers) = size_of(args.size.as_deref(), args.points, args.checkers)?;
    if args.resume || args.band_size.is_some() || args.stop_after_level.is_some() {
        bail!("--resume, --band-size and --stop-after-level are for one-process builds, not with --work (a rerun task redoes its part)");
    }
    let plan = WorkPlan::open(&dir)?;
    let p = plan.params;
    if (p.points, p.checkers) != (points, checkers)
        || (args.no_cubeful && p.cubeful)
        || (args.no_header && plan.style != HeaderStyle::None)
    {
        bail!(
            "{} is planned for {}, not what these options ask for",
            dir.display(),
            plan.describe()
        );
    }
    if args.assemble {
        return run_assemble(&args, &dir, &plan);
    }
    let (Some(level), Some(shard)) = (args.level, args.shard) else {
        bail!("with --work give --level I --shard K/N (one task) or --assemble -o FILE");
    };
    if args.output.is_some() {
        bail!("a task writes its part into the work directory: -o is for --assemble");
    }
    let start = Instant::now();
    let records = shard_records(&plan, level, shard)?;
    let bar = phase_bar(records, &format!("level {level} shard {shard}"), args.quiet);
    let progress = |done: u64| bar.set_position(done);
    let result = run_shard(&dir, &plan, level, shard, &progress);
    bar.finish_and_clear();
    match result? {
        ShardOutcome::Computed { path, records } => {
            let secs = start.elapsed().as_secs_f64();
            note(
                args.quiet,
                &format!(
                    "wrote {} ({records} records in {secs:.2} s, {:.0} records/s)",
                    path.display(),
                    records as f64 / secs.max(1e-9)
                ),
            );
        }
        ShardOutcome::AlreadyDone { path } => {
            note(args.quiet, &format!("{} is already done", path.display()));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_assemble(args: &Args, dir: &std::path::Path, plan: &WorkPlan) -> Result<ExitCode> {
    let output = args.output.clone().expect("--assemble requires -o");
    cli_support::outputs::check(&output, &[], args.force)?;
    let start = Instant::now();
    let header = Header {
        kind: Kind::TwoSided(plan.params),
        style: plan.style,
    };
    let limit = args.memory_limit.unwrap_or_else(default_memory_limit);
    let mut out = AtomicOutput::create(&output)?;
    let bar = phase_bar(1, "assemble", args.quiet);
    let progress = |step: u64, steps: u64| {
        bar.set_length(steps);
        bar.set_position(step);
    };
    let result = assemble(dir, plan, header.to_bytes(), limit, &mut out, &progress);
    bar.finish_and_clear();
    result?;
    out.commit()?;
    note(
        args.quiet,
        &format!(
            "wrote {} ({}) from {} in {:.2} s",
            output.display(),
            plan.describe(),
            dir.display(),
            start.elapsed().as_secs_f64()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

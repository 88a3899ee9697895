//! Sharded two-sided builds: `gen-bearoff two-sided-plan` (prepare the work directory,
//! print the number of levels), and `two-sided --work DIR` with `--level I --shard K/N`
//! (one task) or `--assemble -o FILE` (the database).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Parser;

use gen_bearoff::format::header::{Header, Kind};
use gen_bearoff::output::AtomicOutput;
use gen_bearoff::twosided::sharded::{assemble, run_shard, shard_records, ShardOutcome, WorkPlan};
use gen_bearoff::HeaderStyle;

use super::common::{default_memory_limit, global_threads, note, phase_bar};
use super::two_sided::{Args, Spec};

/// Options of `two-sided-plan`.
#[derive(Parser, Debug)]
pub struct PlanArgs {
    #[command(flatten)]
    pub spec: Spec,
    /// The work directory (created if needed; shared by all tasks).
    #[arg(long, value_name = "DIR")]
    pub work: PathBuf,
    /// No messages.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Runs `two-sided-plan`: writes `DIR/plan` and prints the number of levels.
pub fn run_plan(args: PlanArgs) -> Result<ExitCode> {
    let (params, records, style) = args.spec.resolve()?;
    let plan = WorkPlan::create(&args.work, WorkPlan::new(params, style)?)?;
    note(
        args.quiet,
        &format!(
            "{}: {} ({} records); run levels 0 to {} in order, each as tasks --level I --shard K/N, then --assemble",
            args.work.display(),
            plan.describe(),
            records,
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
    let (points, checkers) = args.spec.size()?;
    if args.resume || args.band_size.is_some() || args.stop_after_level.is_some() {
        bail!("--resume, --band-size and --stop-after-level are for one-process builds, not with --work (a rerun task redoes its part)");
    }
    let plan = WorkPlan::open(&dir)?;
    let p = plan.params;
    if (p.points, p.checkers) != (points, checkers)
        || (args.spec.no_cubeful && p.cubeful)
        || (args.spec.no_header && plan.style != HeaderStyle::None)
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

//! Sharded two-sided builds: `gen-bearoff two-sided-plan` (prepare the work directory,
//! print the number of levels), and `two-sided --work DIR` with `--shard K/N` (a worker
//! over every level), `--level I --shard K/N` (one task) or `--assemble -o FILE` (the
//! database).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Parser;

use gen_bearoff::format::header::{Header, Kind};
use gen_bearoff::output::AtomicOutput;
use gen_bearoff::twosided::sharded::{
    assemble, is_work_file, remove_leftovers, run_shard, run_worker, shard_records, Shard, ShardOutcome,
    WorkPlan, WorkerEvent, WorkerSettings,
};
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
            "{}: {} ({} records); run N workers --shard K/N (or levels 0 to {} in order, each as tasks --level I --shard K/N), then --assemble",
            args.work.display(),
            plan.describe(),
            records,
            plan.levels - 1
        ),
    );
    cli_support::outln!("{}", plan.levels)?;
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
    // Named as given (--band-size and --stop-after-level are hidden from --help).
    let given: Vec<&str> = [
        (args.resume, "--resume"),
        (args.band_size.is_some(), "--band-size"),
        (args.stop_after_level.is_some(), "--stop-after-level"),
    ]
    .into_iter()
    .filter_map(|(on, flag)| on.then_some(flag))
    .collect();
    if !given.is_empty() {
        bail!(
            "{} {} for one-process builds, not with --work (a rerun task redoes its part)",
            given.join(" and "),
            if given.len() == 1 { "is" } else { "are" }
        );
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
    let Some(shard) = args.shard else {
        bail!(
            "with --work give --shard K/N (a worker), --level I --shard K/N (one task) or --assemble -o FILE"
        );
    };
    if args.output.is_some() {
        bail!("a task writes its parts into the work directory: -o is for --assemble");
    }
    match args.level {
        Some(level) => run_task(&args, &dir, &plan, level, shard),
        None => run_as_worker(&args, &dir, &plan, shard),
    }
}

fn run_task(args: &Args, dir: &Path, plan: &WorkPlan, level: usize, shard: Shard) -> Result<ExitCode> {
    let start = Instant::now();
    let records = shard_records(plan, level, shard)?;
    let bar = phase_bar(records, &format!("level {level} shard {shard}"), args.quiet);
    let progress = |done: u64| bar.set_position(done);
    let result = run_shard(dir, plan, level, shard, &progress);
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

/// The tag of this worker that survives a requeue: Slurm's job id of the task.
fn owner_tag() -> String {
    match std::env::var("SLURM_JOB_ID") {
        Ok(id) if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) => format!("slurm-{id}"),
        _ => String::new(),
    }
}

fn run_as_worker(args: &Args, dir: &Path, plan: &WorkPlan, shard: Shard) -> Result<ExitCode> {
    let stale_after = cli_support::args::positive_duration(
        "--stale-after",
        args.stale_after,
        cli_support::args::TimeUnit::Seconds,
    )?;
    let start = Instant::now();
    let settings = WorkerSettings {
        me: shard,
        owner: owner_tag(),
        stale_after,
    };
    let bar = phase_bar(plan.levels as u64, &format!("worker {shard}"), args.quiet);
    let quiet = args.quiet;
    let event = |e: WorkerEvent| match e {
        WorkerEvent::LevelDone { level } => bar.set_position(level as u64 + 1),
        WorkerEvent::Computing {
            level,
            shard,
            records,
        } => {
            bar.set_message(format!("level {level} shard {shard} ({records} records)"));
        }
        WorkerEvent::TookOver { level, shard, why } => {
            if !quiet {
                bar.suspend(|| eprintln!("gen-bearoff: took over level {level} shard {shard}: {why}"));
            }
        }
    };
    let result = run_worker(dir, plan, &settings, &event, &|_| {});
    bar.finish_and_clear();
    let report = result?;
    let records: u64 = report.computed.iter().map(|c| c.2).sum();
    note(
        args.quiet,
        &format!(
            "worker {shard}: {} levels complete in {}; computed {} parts ({records} records), took over {} claims, waited {:.1} s in {:.1} s",
            plan.levels,
            dir.display(),
            report.computed.len(),
            report.taken_over,
            report.waited.as_secs_f64(),
            start.elapsed().as_secs_f64()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

fn run_assemble(args: &Args, dir: &Path, plan: &WorkPlan) -> Result<ExitCode> {
    let output = args.output.clone().expect("--assemble requires -o");
    // The work directory and its files are refused here (they are what the assembly
    // reads), so the output rule has no inputs left to check.
    check_not_a_work_file(&output, dir)?;
    super::common::check_database_output(&output, args.force)?;
    let start = Instant::now();
    let header = Header {
        kind: Kind::TwoSided(plan.params),
        style: plan.style,
    };
    let limit = args.memory_limit.unwrap_or_else(default_memory_limit);
    let mut out = AtomicOutput::create(&output, args.force)?;
    let bar = phase_bar(1, "assemble", args.quiet);
    let progress = |step: u64, steps: u64| {
        bar.set_length(steps);
        bar.set_position(step);
    };
    let partial = out.partial().to_path_buf();
    let result = assemble(dir, plan, header.to_bytes(), limit, &mut out, &partial, &progress);
    bar.finish_and_clear();
    result?;
    out.commit()?;
    let swept = remove_leftovers(dir)?;
    note(
        args.quiet,
        &format!(
            "wrote {} ({}) from {} in {:.2} s{}",
            output.display(),
            plan.describe(),
            dir.display(),
            start.elapsed().as_secs_f64(),
            if swept > 0 {
                format!(" (removed {swept} leftover temporary or claim files)")
            } else {
                String::new()
            }
        ),
    );
    Ok(ExitCode::SUCCESS)
}

/// Refuses an output that is the work directory or one of its files (the plan, the parts
/// the assembly reads, claims and temporary parts, which it removes afterwards), also
/// one that does not exist yet: they are never replaced, `--force` or not.
fn check_not_a_work_file(output: &Path, dir: &Path) -> Result<()> {
    let (out, work) = (
        cli_support::outputs::canonical(output),
        cli_support::outputs::canonical(dir),
    );
    let name = out.file_name().and_then(|n| n.to_str());
    if out == work {
        bail!(
            "the output {} is the work directory; write the database elsewhere",
            output.display()
        );
    }
    if out.parent() == Some(work.as_path()) && name.is_some_and(is_work_file) {
        bail!(
            "the output {} is one of the work directory {}'s own files (its plan, parts, claims and temporary parts); write the database elsewhere",
            output.display(),
            dir.display()
        );
    }
    Ok(())
}

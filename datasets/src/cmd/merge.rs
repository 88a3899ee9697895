//! `datasets merge`: join the outputs of `rollout`, `sample` or `benchmark build` runs
//! with `--shard K/N`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use datasets::benchmark;
use datasets::format::{self, write_text, Format, Input};
use datasets::job::read_positions;
use datasets::merge::{
    merge_benchmark, merge_by_input, merge_positions, merge_round_robin, read_benchmark_lines,
};
use datasets::shard::{check_parts, Manifest};
use fileio::Existing;

use super::{note, FormatArg};

/// Join shard outputs into exactly what one machine would have produced.
///
/// Parts written with --shard K/N carry a manifest (PART.shard.json): the merge then
/// takes them in shard order and refuses a missing or duplicated shard, or a part of
/// another job. Rollout parts: with --input (the positions file given to every shard),
/// rows follow the input and each takes its position's result from the parts; without
/// it, they are interleaved round robin (parts without manifests must then be given in
/// shard order). Sample parts: joined in shard order, each position's first occurrence
/// kept. Benchmark parts: joined in shard order under one header.
#[derive(clap::Args)]
pub struct Args {
    /// The shard outputs.
    #[arg(required = true, value_parser = cli_support::args::input_file())]
    parts: Vec<PathBuf>,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
    /// The positions file the rollout shards were given.
    #[arg(long, value_parser = cli_support::args::input_file())]
    input: Option<PathBuf>,
    /// Output format of rollout parts (default: from the output's extension).
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
    // The parts' manifests are read too: the output must not replace one either.
    let manifest_files: Vec<PathBuf> = args.parts.iter().map(|p| Manifest::path_for(p)).collect();
    let mut inputs: Vec<&Path> = args.parts.iter().map(PathBuf::as_path).collect();
    inputs.extend(args.input.as_deref());
    inputs.extend(manifest_files.iter().filter(|m| m.exists()).map(PathBuf::as_path));
    cli_support::outputs::check(&args.output, &inputs, args.force)?;
    let mut manifests = Vec::new();
    for p in &args.parts {
        manifests.push((p.display().to_string(), Manifest::read(p)?));
    }
    let order = check_parts(&manifests)?;
    let kind = manifests[0].1.as_ref().map_or("rollout", |m| m.job.as_str());
    let ordered: Vec<(&Path, Option<&Manifest>)> = match &order {
        Some(o) => o
            .iter()
            .map(|&i| (args.parts[i].as_path(), manifests[i].1.as_ref()))
            .collect(),
        None => args.parts.iter().map(|p| (p.as_path(), None)).collect(),
    };
    if kind != "rollout" && (args.input.is_some() || args.format.is_some()) {
        bail!("--input and --format are for rollout parts; these are {kind} parts");
    }
    let rows = |p: &Path, m: Option<&Manifest>, n: usize| -> Result<()> {
        if let Some(m) = m {
            if m.rows != n {
                bail!(
                    "{} has {n} rows but its shard manifest says {} (the file changed after shard {} finished)",
                    p.display(),
                    m.rows,
                    m.shard
                );
            }
        }
        Ok(())
    };
    let existing = Existing::replace_if(args.force);
    let merged = match kind {
        "rollout" => {
            let to = Format::for_output(&args.output, args.format.map(Format::from), "--format")?;
            let mut parts = Vec::new();
            for &(p, m) in &ordered {
                let part = Input::open(p)?;
                let samples = part.samples(part.format()?)?;
                rows(p, m, samples.len())?;
                parts.push((p.display().to_string(), samples));
            }
            let merged = match &args.input {
                Some(input) => merge_by_input(&read_positions(input)?, &parts)?,
                None => merge_round_robin(&parts)?,
            };
            format::write_with(&args.output, to, &merged, existing)?;
            merged.len()
        }
        "sample" => {
            let mut parts = Vec::new();
            for &(p, m) in &ordered {
                let positions = read_positions(p)?;
                rows(p, m, positions.len())?;
                parts.push((p.display().to_string(), positions));
            }
            let merged = merge_positions(&parts);
            write_text(&args.output, existing, |w| {
                writeln!(w, "position_id")?;
                for p in &merged {
                    writeln!(w, "{}", p.position_id())?;
                }
                Ok(())
            })?;
            merged.len()
        }
        "benchmark" => {
            let mut parts = Vec::new();
            for &(p, m) in &ordered {
                let (header, lines) = read_benchmark_lines(p)?;
                rows(p, m, lines.len())?;
                parts.push((p.display().to_string(), header, lines));
            }
            let (header, lines) = merge_benchmark(&parts)?;
            benchmark::write(&args.output, &header, &lines, existing)?;
            lines.len()
        }
        other => bail!(
            "{}: unknown job '{other}' in its shard manifest",
            ordered[0].0.display()
        ),
    };
    note(
        args.quiet,
        &format!(
            "datasets: merged {} {kind} parts, {merged} positions -> {}",
            args.parts.len(),
            args.output.display()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

//! `datasets sample`: positions from self-play games, resumable.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use board::Position;
use datasets::class::parse_classes;
use datasets::format::write_text;
use datasets::journal::ChunkJournal;
use datasets::sample::{Referee, SampleSettings, Sampler};
use serde_json::json;

use super::{note, progress_bar, thread_pool, EngineArgs, JobArgs};

/// Games played between checkpoints.
const CHUNK_GAMES: u64 = 256;

/// Sample positions from self-play games at 0 ply.
///
/// Writes CSV with one column, `position_id` (wildbg's positions layout): every
/// position met with a side about to roll, of the chosen classes, first occurrence
/// only, in game order. Same seed, same file, on any number of threads.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Self-play games to play.
    #[arg(long)]
    games: u64,
    /// Seed of the games' dice, noise and random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output CSV file.
    #[arg(short, long)]
    output: PathBuf,
    /// Standard deviation of normal noise added to each move's equity (like gnubg's
    /// noisy players).
    #[arg(long, default_value_t = 0.0)]
    noise: f32,
    /// Probability of playing a uniformly random legal move instead.
    #[arg(long, default_value_t = 0.05)]
    epsilon: f64,
    /// Classes to keep, comma-separated: contact, crashed, race, bearoff1, bearoff2
    /// (bearoff = both).
    #[arg(long, default_value = "contact,crashed,race")]
    classes: String,
    /// Keep only positions where the 0-ply and the N-ply evaluations disagree by more
    /// than --threshold (cubeless money equity).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=2))]
    disagree_plies: Option<u32>,
    /// Keep only positions where these weights and --weights (both at 0 ply) disagree by
    /// more than --threshold.
    #[arg(long, value_name = "FILE", conflicts_with = "disagree_plies")]
    disagree_weights: Option<PathBuf>,
    /// Disagreement threshold, in cubeless money equity.
    #[arg(long, default_value_t = 0.05)]
    threshold: f32,
    #[command(flatten)]
    job: JobArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if !(0.0..=1.0).contains(&args.epsilon) {
        bail!("--epsilon {} must be between 0 and 1", args.epsilon);
    }
    if !(args.noise >= 0.0 && args.noise.is_finite()) {
        bail!("--noise {} must be a non-negative number", args.noise);
    }
    if !(args.threshold >= 0.0 && args.threshold.is_finite()) {
        bail!("--threshold {} must be a non-negative number", args.threshold);
    }
    let classes = parse_classes(&args.classes)
        .map_err(anyhow::Error::msg)
        .context("--classes")?;
    let files = args.engine.files()?;
    let ev = files
        .evaluator(None)?
        .with_cache(if args.disagree_plies.is_some() { 18 } else { 0 });
    let other = args
        .disagree_weights
        .as_deref()
        .map(|w| files.evaluator(Some(w)))
        .transpose()?;
    let referee = match (args.disagree_plies, &other) {
        (Some(n), _) => Some((Referee::Plies(n), args.threshold)),
        (None, Some(o)) => Some((Referee::Other(o), args.threshold)),
        _ => None,
    };
    let settings = SampleSettings {
        seed: args.seed,
        noise: args.noise,
        epsilon: args.epsilon,
        classes,
    };
    let mut engine = super::describe_files(&files)?;
    if let Some(w) = &args.disagree_weights {
        engine["disagree_weights"] =
            json!({ "path": w.display().to_string(), "digest": super::file_digest(w)? });
    }
    let job = json!({
        "settings": settings,
        "games": args.games,
        "disagree_plies": args.disagree_plies,
        "threshold": referee.as_ref().map(|_| args.threshold),
        "engine": engine,
        "chunk_games": CHUNK_GAMES,
    });
    let sampler = Sampler::new(&ev, settings, referee);
    let (mut journal, lines, chunks_done) = ChunkJournal::open(&args.output, &job, args.job.fresh)?;
    let mut kept: Vec<String> = lines;
    let mut seen: HashSet<[u8; 10]> = HashSet::new();
    for id in &kept {
        let p = Position::from_id(id)
            .with_context(|| format!("{}.partial: bad line '{id}'", args.output.display()))?;
        seen.insert(p.key());
    }
    let pool = thread_pool(args.job.threads)?;
    let bar = progress_bar(args.games, "games", args.job.quiet);
    let mut next = (chunks_done * CHUNK_GAMES).min(args.games);
    if next > 0 {
        note(
            args.job.quiet,
            &format!(
                "datasets: resuming after {next} games ({} positions kept)",
                kept.len()
            ),
        );
    }
    bar.set_position(next);
    bar.reset_eta();
    let started = Instant::now();
    while next < args.games {
        let end = (next + CHUNK_GAMES).min(args.games);
        let fresh: Vec<Position> = pool.install(|| -> Result<Vec<Position>> {
            let played = sampler.play_games(next..end)?;
            let mut new = Vec::new();
            for p in played {
                if seen.insert(p.key()) {
                    new.push(p);
                }
            }
            Ok(sampler.disagreeing(new)?)
        })?;
        let ids: Vec<String> = fresh.iter().map(Position::position_id).collect();
        journal.append_chunk(&ids)?;
        kept.extend(ids);
        next = end;
        bar.set_position(next);
        bar.set_message(format!("{} positions", kept.len()));
    }
    bar.finish_and_clear();
    write_text(&args.output, |w| {
        writeln!(w, "position_id")?;
        for id in &kept {
            writeln!(w, "{id}")?;
        }
        Ok(())
    })?;
    journal.remove()?;
    note(
        args.job.quiet,
        &format!(
            "datasets: {} games, {} positions kept in {:.1}s -> {}",
            args.games,
            kept.len(),
            started.elapsed().as_secs_f64(),
            args.output.display()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

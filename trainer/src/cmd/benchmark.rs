//! `trainer benchmark`: the move-error rate (ER) of players on benchmark sets.

use cli_support::thread_count;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use trainer::benchmark::{compare, score_player, summarise, unreachable_candidate, Report};
use trainer::player;

use super::{data_paths, BearoffArgs};

/// Score players' move choices on benchmark sets: the average equity a player gives up
/// against the best rolled-out candidate, per position class, in millipoints (ER, as
/// gnubg-nn's benchmarks).
///
/// A set is a file written by `datasets benchmark build` (JSON lines) or a gnubg-nn
/// benchmark file (contact.bm, crashed.bm, race.bm: its `m` lines). A chosen move that
/// is not among the set's candidates is scored with the worst candidate's loss. With
/// several players, each after the first is also compared with the first position by
/// position (the difference of ER and its paired standard error).
#[derive(clap::Args)]
pub struct Args {
    /// The player: a weights file (a trainer model with its .json sidecar, or gnubg
    /// weights), gnubg:PATH, pubeval or random; repeat for several.
    #[arg(long, required = true)]
    weights: Vec<String>,
    /// Benchmark set; repeat for several (scored together).
    #[arg(long, required = true, value_parser = cli_support::args::input_file())]
    set: Vec<PathBuf>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Print one JSON object per player instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    data: BearoffArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let threads = thread_count(args.threads)?;
    let mut entries = Vec::new();
    let mut gen = board::MoveGen::new();
    trainer::benchmark::distinct_sets(&args.set)?;
    for path in &args.set {
        let set = datasets::benchmark::read(path)?;
        if set.entries.is_empty() {
            bail!("{} holds no positions", path.display());
        }
        for (i, e) in set.entries.iter().enumerate() {
            if let Some(c) = unreachable_candidate(&mut gen, e) {
                bail!(
                    "{}:{}: candidate {} (after_id {}) is not reached by any legal move of {}-{} from {} \
                     (a damaged line)",
                    path.display(),
                    set.lines[i],
                    c + 1,
                    e.candidates[c].after.position_id(),
                    e.dice.high(),
                    e.dice.low(),
                    e.position.position_id()
                );
            }
        }
        entries.extend(set.entries);
    }
    let paths = data_paths(&args.data);
    let mut dbs = None;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let mut reports: Vec<Report> = Vec::new();
    let mut first = None;
    for spec in &args.weights {
        let p = player::from_spec(spec, &paths, &mut dbs)?;
        let scores = pool.install(|| score_player(&entries, p.as_ref()))?;
        // Named as duels and tournaments name players (`gnubg:` is `gnubg`).
        let name = p.name();
        let mut report = summarise(&name, &entries, &scores);
        match &first {
            None => first = Some((name, scores)),
            Some((name, theirs)) => compare(&mut report, name, &entries, &scores, theirs),
        }
        reports.push(report);
    }
    if args.json {
        for r in &reports {
            cli_support::outln!("{}", serde_json::to_string(r)?)?;
        }
    } else {
        cli_support::outln!(
            "{:<40} {:>8} {:>9} {:>8} {:>7} {:>9} {:>16}",
            "player",
            "class",
            "positions",
            "ER",
            "SE",
            "unlisted",
            "vs first (SE)"
        )?;
        for r in &reports {
            for c in &r.classes {
                let vs = r
                    .versus
                    .as_ref()
                    .and_then(|v| v.classes.iter().find(|d| d.class == c.class))
                    .map_or(String::new(), |d| format!("{:+.2} ({:.2})", d.delta, d.se));
                cli_support::outln!(
                    "{:<40} {:>8} {:>9} {:>8.2} {:>7.2} {:>9} {:>16}",
                    r.player,
                    c.class,
                    c.positions,
                    c.er,
                    c.se,
                    c.unlisted,
                    vs
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

//! `trainer tourney`: tournaments kept in a file that several workers share.

use cli_support::{progress_bar, thread_count};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;
use trainer::player;
use trainer::tourney::export::{self, ExportOptions};
use trainer::tourney::tournament::{Kind, Settings, Sync};
use trainer::tourney::worker::{self, RunOptions};
use trainer::tourney::{manage, participants, schedule, standings, Store};

use super::{data_paths, BearoffArgs};

/// Tournaments between many players (round-robin, gauntlet or Swiss), kept in one
/// JSON file so that they resume after interruption and any number of worker
/// processes can share them.
///
/// A player is described as for `trainer duel`: `pubeval`, `random`, `gnubg:PATH`
/// (`gnubg:` alone finds gnubg.wd) or a weights file written by `trainer td`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    New(NewArgs),
    Run(RunArgs),
    Standings(StandingsArgs),
    /// Give a participant a new player for the games not started yet (its results
    /// stay).
    Upgrade(ChangeArgs),
    /// Give a participant a new player and erase its results, so that all its games
    /// are played again.
    Replace(ChangeArgs),
    Export(ExportArgs),
}

/// Create a tournament file: settings, participants and the schedule.
#[derive(clap::Args)]
struct NewArgs {
    /// The tournament file to write.
    file: PathBuf,
    /// Participants: player descriptions, each optionally named as NAME=PLAYER
    /// (default name: pubeval, random, gnubg, or the weights file's name).
    #[arg(long, num_args = 2.., required = true)]
    participants: Vec<String>,
    /// round-robin, gauntlet[:N] (the first N participants play all others) or
    /// swiss[:R] (R rounds per cycle, paired by score; default ⌈log2 participants⌉).
    #[arg(long = "type", default_value = "round-robin")]
    kind: String,
    /// Games of each pairing (even: each dice stream is played twice).
    #[arg(long)]
    games_per_pairing: u32,
    /// Repetitions of the pairing scheme.
    #[arg(long, default_value_t = 1)]
    cycles: u32,
    /// Seed of the dice, the players' random choices and Swiss tie-breaks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Default of `run --sync`: none, round or cycle.
    #[arg(long, default_value = "none")]
    sync: String,
    /// Seconds after which a game claimed by a worker on another host is replayed (a
    /// positive number; claims are stamped in whole seconds, so a fraction counts as
    /// the next whole second).
    #[arg(long, default_value_t = 3600.0)]
    stale_after: f64,
    /// Replace an existing file.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    data: BearoffArgs,
}

/// Play the tournament's games until all are finished. Any number of processes, on
/// one machine or sharing the file's filesystem, may run at once.
#[derive(clap::Args)]
struct RunArgs {
    /// The tournament file.
    file: PathBuf,
    /// Worker threads in this process (default: all cores).
    #[arg(long, short = 'j', visible_alias = "threads")]
    workers: Option<usize>,
    /// Wait for the current round (round) or cycle (cycle) to finish before starting
    /// games of the next; default: the file's setting.
    #[arg(long)]
    sync: Option<String>,
    /// Games claimed at a time (default: about 2 seconds of play).
    #[arg(long)]
    batch: Option<usize>,
    /// Seconds after which a game claimed on another host is replayed (default: the
    /// file's setting; as in `new`).
    #[arg(long)]
    stale_after: Option<f64>,
    /// Stop after claiming this many games.
    #[arg(long)]
    max_games: Option<u64>,
    /// Exit when no game can be started now (the rest are being played, or --sync
    /// holds the next round back) instead of waiting for them.
    #[arg(long)]
    no_wait: bool,
    /// Print a JSON summary instead of text.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    data: BearoffArgs,
}

/// Standings: points, points per game ± SE, Elo-style ratings and the cross table.
#[derive(clap::Args)]
struct StandingsArgs {
    /// The tournament file.
    file: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Give a participant a new player: `upgrade` for games not started yet, `replace`
/// also erasing its results so that all its games are played again.
#[derive(clap::Args)]
struct ChangeArgs {
    /// The tournament file.
    file: PathBuf,
    /// The participant: its number (as in the standings) or name.
    participant: String,
    /// The new player.
    player: String,
    #[command(flatten)]
    data: BearoffArgs,
}

/// Write the finished games as game records, one money session per pairing (the
/// games are replayed from their seeds and checked against the file).
#[derive(clap::Args)]
struct ExportArgs {
    /// The tournament file.
    file: PathBuf,
    /// One SGF file per pairing in this directory.
    #[arg(long, value_name = "DIR")]
    sgf: Option<PathBuf>,
    /// One Jellyfish .mat file per pairing in this directory.
    #[arg(long, value_name = "DIR")]
    mat: Option<PathBuf>,
    /// All pairings in one SGF collection file (its name ends in .sgf).
    #[arg(long, value_name = "FILE")]
    collection: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Replace existing record files.
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    data: BearoffArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::New(a) => new(a),
        Command::Run(a) => play(a),
        Command::Standings(a) => show(a),
        Command::Upgrade(a) => change(a, false),
        Command::Replace(a) => change(a, true),
        Command::Export(a) => export_records(a),
    }
}

/// Checks that a player description loads.
fn check_player(spec: &str, data: &BearoffArgs) -> Result<()> {
    let mut dbs = None;
    player::from_spec(spec, &data_paths(data), &mut dbs)?;
    Ok(())
}

/// `--stale-after`'s whole seconds: checked as every tool checks a time (positive, at
/// most a thousand years), a fraction rounded up (claims are stamped in whole seconds).
fn stale_seconds(value: f64) -> Result<u64> {
    let d =
        cli_support::args::positive_duration("--stale-after", value, cli_support::args::TimeUnit::Seconds)?;
    Ok(d.as_secs_f64().ceil() as u64)
}

fn new(a: NewArgs) -> Result<ExitCode> {
    let parts = participants(&a.participants)?;
    for p in &parts {
        check_player(p.spec(), &a.data).with_context(|| format!("participant {}", p.name))?;
    }
    let settings = Settings {
        kind: Kind::parse(&a.kind, parts.len())?,
        games_per_pairing: a.games_per_pairing,
        cycles: a.cycles,
        seed: a.seed,
        sync: a.sync.parse::<Sync>()?,
        stale_after_s: stale_seconds(a.stale_after)?,
    };
    let inputs = super::player_inputs(a.participants.iter().map(String::as_str), &a.data);
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    cli_support::outputs::check(&a.file, &inputs, a.force)?;
    let t = schedule::new_tournament(settings, parts)?;
    Store::new(&a.file).create(&t, a.force)?;
    cli_support::outln!(
        "{}: {} tournament of {} participants, {} games",
        a.file.display(),
        t.settings.kind,
        t.participants.len(),
        t.games_total()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn play(a: RunArgs) -> Result<ExitCode> {
    let store = Store::new(&a.file);
    let t = store.read()?;
    let opts = RunOptions {
        workers: cli_support::threads::thread_count_named("--workers", a.workers)?,
        sync: a.sync.as_deref().map(str::parse::<Sync>).transpose()?,
        batch: a.batch,
        stale_after_s: a.stale_after.map(stale_seconds).transpose()?,
        max_games: a.max_games,
        no_wait: a.no_wait,
        data: data_paths(&a.data),
        ..RunOptions::default()
    };
    let bar = progress_bar(t.games_total(), "games", a.quiet);
    bar.set_position(t.games_played());
    let report = worker::run(&store, &opts, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })?;
    bar.finish_and_clear();
    if a.json {
        cli_support::outln!("{}", serde_json::to_string(&report)?)?;
    } else {
        cli_support::outln!(
            "{}: played {} games ({} discarded, {} abandoned games taken over); {} of {} games finished",
            a.file.display(),
            report.played,
            report.discarded,
            report.reclaimed,
            report.games_played,
            report.games_total
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn show(a: StandingsArgs) -> Result<ExitCode> {
    let t = Store::new(&a.file).read()?;
    let s = standings::standings(&t);
    if a.json {
        cli_support::outln!("{}", serde_json::to_string_pretty(&s)?)?;
    } else {
        cli_support::out!("{}: {}", a.file.display(), s.to_text())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn change(a: ChangeArgs, replace: bool) -> Result<ExitCode> {
    check_player(&a.player, &a.data)?;
    let store = Store::new(&a.file);
    let c = if replace {
        manage::replace(&store, &a.participant, &a.player)?
    } else {
        manage::upgrade(&store, &a.participant, &a.player)?
    };
    let t = store.read()?;
    let name = &t.participants[c.participant].name;
    if replace {
        cli_support::outln!(
            "{}: participant {} ({name}) replaced by {} (version {}); {} results erased, {} games in progress abandoned",
            a.file.display(),
            c.participant + 1,
            a.player,
            c.version,
            c.erased,
            c.abandoned
        )?;
    } else {
        cli_support::outln!(
            "{}: participant {} ({name}) upgraded to {} (version {}) for games not started yet",
            a.file.display(),
            c.participant + 1,
            a.player,
            c.version
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn export_records(a: ExportArgs) -> Result<ExitCode> {
    if a.sgf.is_none() && a.mat.is_none() && a.collection.is_none() {
        anyhow::bail!("nothing to export: give --sgf DIR, --mat DIR and/or --collection FILE");
    }
    let store = Store::new(&a.file);
    let t = store.read()?;
    // The tournament file, every weights file a participant has played with (explicit
    // or found where the evaluator looks, with its sidecar) and the databases are
    // inputs; every file written is checked by the output rule before the games are
    // replayed.
    let specs = t
        .participants
        .iter()
        .flat_map(|p| p.specs.iter().map(String::as_str));
    let players = super::player_inputs(specs, &a.data);
    let mut inputs = vec![a.file.as_path()];
    inputs.extend(players.iter().map(PathBuf::as_path));
    for dir in [&a.sgf, &a.mat].into_iter().flatten() {
        cli_support::outputs::check_not_dash(dir)?;
        cli_support::outputs::check_not_input(dir, &inputs)?;
    }
    // A file in a record directory the export creates has nothing to replace yet: only
    // the input rule applies to it.
    let created: Vec<PathBuf> = [&a.sgf, &a.mat]
        .into_iter()
        .flatten()
        .filter(|d| std::fs::symlink_metadata(d).is_err())
        .map(|d| cli_support::outputs::canonical(d))
        .collect();
    let check = |file: &Path| {
        let parent = file.parent().map(cli_support::outputs::canonical);
        if parent.is_some_and(|p| created.contains(&p)) {
            cli_support::outputs::check_not_input(file, &inputs)
        } else {
            cli_support::outputs::check(file, &inputs, a.force)
        }
    };
    if let Some(c) = &a.collection {
        // An input named as the collection is the graver mistake: said first.
        cli_support::outputs::check_not_input(c, &inputs)?;
        if !c.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            anyhow::bail!(
                "--collection {}: the file name must end in .sgf (the collection is one SGF file)",
                c.display()
            );
        }
        check(c)?;
    }
    let threads = thread_count(a.threads)?;
    let bar = progress_bar(t.games_played(), "games replayed", a.quiet);
    let source = a
        .file
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let sessions =
        pool.install(|| export::sessions(&t, &source, &data_paths(&a.data), &|n| bar.set_position(n)))?;
    bar.finish_and_clear();
    for (dir, ext) in [(&a.sgf, "sgf"), (&a.mat, "mat")] {
        let Some(dir) = dir else { continue };
        for s in &sessions {
            check(&dir.join(s.file_name(ext)))?;
        }
    }
    let opts = ExportOptions {
        sgf_dir: a.sgf,
        mat_dir: a.mat,
        collection: a.collection,
        existing: fileio::Existing::replace_if(a.force),
    };
    let files = export::export(&sessions, &opts)?;
    let games: usize = sessions.iter().map(|s| s.record.games.len()).sum();
    cli_support::outln!(
        "{}: {games} games of {} pairings written to {} files",
        a.file.display(),
        sessions.len(),
        files.len()
    )?;
    Ok(ExitCode::SUCCESS)
}

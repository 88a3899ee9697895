//! Workers: processes (and threads within them) that cooperate on one tournament file.
//!
//! A worker repeatedly, under the file's lock: returns games claimed by workers that
//! are gone to the pending pool, adds the next Swiss round when one is due, and
//! claims a batch of pending games, marking each with its identity (host, pid,
//! process start time, thread) and the participants' versions. It then plays the
//! batch without the lock and records the results under the lock again — only for
//! games that still carry its own mark, so a game erased by `replace` or taken over
//! by another worker is never recorded twice.
//!
//! A claim on the same host is abandoned when its process no longer exists (or the
//! pid now belongs to a process started at another time, or a zombie); claims from
//! other hosts are abandoned after `stale_after_s` seconds. Batches are sized to
//! about two seconds of play, so the file is rewritten a few times a second at most
//! whatever the speed of the players, and little work is lost when a worker dies.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use evaluator::bearoff::BearoffDbs;

use crate::error::TrainerError;
use crate::player::{self, DataPaths, Player};
use crate::seed::Rule;
use crate::tourney::identity::is_abandoned;
pub use crate::tourney::identity::{hostname, now, WorkerId};
use crate::tourney::play;
use crate::tourney::schedule::push_round;
use crate::tourney::store::Store;
use crate::tourney::swiss;
use crate::tourney::tournament::{Claim, Game, Outcome, Slot, Sync, Tournament};

/// How `tourney run` works.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads in this process.
    pub workers: usize,
    /// Overrides the file's `sync` setting.
    pub sync: Option<Sync>,
    /// Games claimed at a time (default: about `target_batch_s` of play).
    pub batch: Option<usize>,
    /// Overrides the file's `stale_after_s`.
    pub stale_after_s: Option<u64>,
    /// Seconds of play a batch should take when `batch` is not set.
    pub target_batch_s: f64,
    /// Stop claiming after this many games (this process, all threads).
    pub max_games: Option<u64>,
    /// Return when no game can be started now (others are running, or `sync` holds
    /// the next round back) instead of waiting.
    pub no_wait: bool,
    /// Bearoff databases for players that need them.
    pub data: DataPaths,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            workers: 1,
            sync: None,
            batch: None,
            stale_after_s: None,
            target_batch_s: 2.0,
            max_games: None,
            no_wait: false,
            data: DataPaths::default(),
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RunReport {
    /// Games this process played and recorded.
    pub played: u64,
    /// Games it played but did not record (erased by `replace` or taken over meanwhile).
    pub discarded: u64,
    /// Abandoned claims it returned to the pending pool.
    pub reclaimed: u64,
    /// Finished games in the tournament at the end.
    pub games_played: u64,
    /// All games of the tournament.
    pub games_total: u64,
}

/// A claimed game.
#[derive(Clone, Debug)]
struct Job {
    slot: Slot,
    game: Game,
    players: [usize; 2],
    specs: [String; 2],
    claim: Claim,
}

/// What one claim transaction found.
enum Claimed {
    Work(Vec<Job>),
    Wait,
    Finished,
}

/// The games a worker may start now under `sync`: those of the first unfinished
/// round or cycle, or all.
fn in_scope(t: &Tournament, sync: Sync) -> impl Fn(Slot) -> bool {
    let first = t.games().find(|(_, _, g)| g.result.is_none()).map(|(s, _, _)| s);
    move |s: Slot| match (sync, first) {
        (_, None) | (Sync::None, _) => true,
        (Sync::Round, Some(f)) => s.cycle == f.cycle && s.round == f.round,
        (Sync::Cycle, Some(f)) => s.cycle == f.cycle,
    }
}

/// Adds every Swiss round that is due; returns whether any was.
pub fn extend_swiss(t: &mut Tournament) -> bool {
    let mut added = false;
    while let Some((cycle, plan)) = swiss::next_round(t) {
        push_round(t, cycle, &plan);
        added = true;
    }
    added
}

/// Returns abandoned claims to the pending pool; returns how many.
pub fn reclaim(t: &mut Tournament, me: &WorkerId, now: u64, stale_after_s: u64) -> u64 {
    let mut n = 0;
    for cycle in &mut t.schedule {
        for round in &mut cycle.rounds {
            for pairing in &mut round.pairings {
                for g in &mut pairing.games {
                    if g.running
                        .as_ref()
                        .is_some_and(|c| is_abandoned(me, c, now, stale_after_s))
                    {
                        g.running = None;
                        n += 1;
                    }
                }
            }
        }
    }
    n
}

/// One claim transaction: reclaim, extend a Swiss schedule, claim up to `max` games.
fn claim(
    t: &mut Tournament,
    me: &WorkerId,
    thread: u32,
    sync: Sync,
    stale_after_s: u64,
    max: usize,
) -> (Claimed, u64, bool) {
    let now = now();
    let reclaimed = reclaim(t, me, now, stale_after_s);
    let extended = extend_swiss(t);
    let scope = in_scope(t, sync);
    let picked: Vec<(Slot, [usize; 2])> = t
        .games()
        .filter(|(s, _, g)| g.result.is_none() && g.running.is_none() && scope(*s))
        .take(max)
        .map(|(s, p, _)| (s, p.players))
        .collect();
    let mut jobs = Vec::with_capacity(picked.len());
    for (slot, players) in picked {
        let versions = players.map(|i| t.participants[i].version());
        let specs = players.map(|i| t.participants[i].spec().to_string());
        let claim = Claim {
            host: me.host.clone(),
            pid: me.pid,
            start: me.start,
            thread,
            since: now,
            versions,
        };
        let g = t.game_mut(slot);
        g.running = Some(claim.clone());
        jobs.push(Job {
            slot,
            game: Game {
                running: None,
                ..g.clone()
            },
            players,
            specs,
            claim,
        });
    }
    let changed = reclaimed > 0 || extended || !jobs.is_empty();
    let status = if !jobs.is_empty() {
        Claimed::Work(jobs)
    } else if t.is_finished() {
        Claimed::Finished
    } else {
        Claimed::Wait
    };
    (status, reclaimed, changed)
}

/// Records results of games that still carry their job's mark; returns how many
/// were recorded and how many discarded.
fn record(t: &mut Tournament, results: &[(Job, Outcome)]) -> (u64, u64) {
    let (mut kept, mut dropped) = (0, 0);
    for (job, outcome) in results {
        let counts = job
            .players
            .iter()
            .zip(outcome.versions)
            .all(|(&i, v)| v >= t.participants[i].results_from);
        match t.get_mut(job.slot) {
            Some(g) if counts && g.id == job.game.id && g.running.as_ref() == Some(&job.claim) => {
                g.running = None;
                g.result = Some(*outcome);
                kept += 1;
            }
            _ => dropped += 1,
        }
    }
    (kept, dropped)
}

/// Players loaded so far, by participant and version.
struct Players {
    paths: DataPaths,
    dbs: Option<Arc<BearoffDbs>>,
    loaded: HashMap<(usize, usize), Arc<dyn Player>>,
}

impl Players {
    fn get(
        &mut self,
        participant: usize,
        version: usize,
        spec: &str,
    ) -> Result<Arc<dyn Player>, TrainerError> {
        if let Some(p) = self.loaded.get(&(participant, version)) {
            return Ok(p.clone());
        }
        let p: Arc<dyn Player> = player::from_spec(spec, &self.paths, &mut self.dbs)
            .map_err(|e| TrainerError::Invalid(format!("participant {} ({spec}): {e}", participant + 1)))?
            .into();
        self.loaded.insert((participant, version), p.clone());
        Ok(p)
    }
}

/// Shared state of the worker threads of one process.
struct Shared<'a> {
    store: &'a Store,
    opts: &'a RunOptions,
    me: WorkerId,
    players: Mutex<Players>,
    stop: AtomicBool,
    /// Games claimed by the threads (and reserved by a claim in progress).
    claimed: AtomicU64,
    played: AtomicU64,
    discarded: AtomicU64,
    reclaimed: AtomicU64,
    progress: &'a (dyn Fn(u64, u64) + std::marker::Sync),
}

/// Plays the tournament in `store` until every game is finished (or `max_games`
/// are played); `progress` gets the finished and total games after every change.
pub fn run(
    store: &Store,
    opts: &RunOptions,
    progress: &(dyn Fn(u64, u64) + std::marker::Sync),
) -> Result<RunReport, TrainerError> {
    if opts.workers == 0 {
        return Err(TrainerError::Invalid("--workers must be at least 1".into()));
    }
    if opts.batch == Some(0) {
        return Err(TrainerError::Invalid("--batch must be at least 1".into()));
    }
    let shared = Shared {
        store,
        opts,
        me: WorkerId::current(),
        players: Mutex::new(Players {
            paths: opts.data.clone(),
            dbs: None,
            loaded: HashMap::new(),
        }),
        stop: AtomicBool::new(false),
        claimed: AtomicU64::new(0),
        played: AtomicU64::new(0),
        discarded: AtomicU64::new(0),
        reclaimed: AtomicU64::new(0),
        progress,
    };
    let results: Vec<Result<(), TrainerError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..opts.workers)
            .map(|k| {
                let shared = &shared;
                s.spawn(move || {
                    let r = work(shared, k as u32);
                    if r.is_err() {
                        shared.stop.store(true, Ordering::SeqCst);
                    }
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(TrainerError::Invalid("a worker thread panicked".into())))
            })
            .collect()
    });
    for r in results {
        r?;
    }
    let t = store.read()?;
    Ok(RunReport {
        played: shared.played.load(Ordering::SeqCst),
        discarded: shared.discarded.load(Ordering::SeqCst),
        reclaimed: shared.reclaimed.load(Ordering::SeqCst),
        games_played: t.games_played(),
        games_total: t.games_total(),
    })
}

/// One worker thread.
fn work(shared: &Shared<'_>, thread: u32) -> Result<(), TrainerError> {
    let opts = shared.opts;
    let mut per_game: Option<f64> = None;
    let mut pause = Duration::from_millis(50);
    while !shared.stop.load(Ordering::SeqCst) {
        let mut want = match (opts.batch, per_game) {
            (Some(b), _) => b,
            (None, None) => 1,
            (None, Some(s)) => (opts.target_batch_s / s.max(1e-6)).clamp(1.0, 512.0) as usize,
        };
        // Reserve the batch in the count the threads share, so that together they
        // never claim more than --max-games; what is not claimed is given back.
        let limit = opts.max_games.unwrap_or(u64::MAX);
        let w = want as u64;
        let before = shared
            .claimed
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |c| {
                Some(c + w.min(limit.saturating_sub(c)))
            })
            .unwrap_or_else(|c| c);
        want = w.min(limit.saturating_sub(before)) as usize;
        if want == 0 {
            break;
        }
        let update = shared.store.update(|t| {
            let sync = opts.sync.unwrap_or(t.settings.sync);
            let stale = opts.stale_after_s.unwrap_or(t.settings.stale_after_s);
            let (status, reclaimed, changed) = claim(t, &shared.me, thread, sync, stale, want);
            shared.reclaimed.fetch_add(reclaimed, Ordering::SeqCst);
            Ok((
                (
                    status,
                    t.games_played(),
                    t.games_total(),
                    (t.rule(), t.settings.seed),
                ),
                changed,
            ))
        });
        let got = match &update {
            Ok((Claimed::Work(jobs), ..)) => jobs.len(),
            _ => 0,
        };
        shared.claimed.fetch_sub((want - got) as u64, Ordering::SeqCst);
        let (status, played, total, (rule, seed)) = update?;
        (shared.progress)(played, total);
        let jobs = match status {
            Claimed::Finished => break,
            Claimed::Wait if opts.no_wait => break,
            Claimed::Wait => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(2));
                continue;
            }
            Claimed::Work(jobs) => jobs,
        };
        pause = Duration::from_millis(50);
        let started = Instant::now();
        let outcomes = play_jobs(shared, &jobs, rule, seed);
        let results = match outcomes {
            Ok(r) => r,
            Err(e) => {
                // Give the games back before reporting the error.
                let _ = shared.store.update(|t| {
                    let mut changed = false;
                    for job in &jobs {
                        if let Some(g) = t.get_mut(job.slot) {
                            if g.running.as_ref() == Some(&job.claim) {
                                g.running = None;
                                changed = true;
                            }
                        }
                    }
                    Ok(((), changed))
                });
                return Err(e);
            }
        };
        let secs = started.elapsed().as_secs_f64() / jobs.len() as f64;
        per_game = Some(per_game.map_or(secs, |p| 0.5 * p + 0.5 * secs));
        let (kept, dropped, played, total) = shared.store.update(|t| {
            let (kept, dropped) = record(t, &results);
            Ok(((kept, dropped, t.games_played(), t.games_total()), kept > 0))
        })?;
        shared.played.fetch_add(kept, Ordering::SeqCst);
        shared.discarded.fetch_add(dropped, Ordering::SeqCst);
        (shared.progress)(played, total);
    }
    Ok(())
}

/// Plays claimed games.
fn play_jobs(
    shared: &Shared<'_>,
    jobs: &[Job],
    rule: Rule,
    seed: u64,
) -> Result<Vec<(Job, Outcome)>, TrainerError> {
    let mut out = Vec::with_capacity(jobs.len());
    for job in jobs {
        if shared.stop.load(Ordering::SeqCst) {
            return Err(TrainerError::Invalid(
                "stopped: another worker thread failed".into(),
            ));
        }
        let versions = job.claim.versions;
        let [a, b] = {
            let mut players = shared.players.lock().unwrap_or_else(|e| e.into_inner());
            [
                players.get(job.players[0], versions[0], &job.specs[0])?,
                players.get(job.players[1], versions[1], &job.specs[1])?,
            ]
        };
        let o = play::play([a.as_ref(), b.as_ref()], rule, seed, &job.game, None)?;
        out.push((job.clone(), play::outcome(&o, versions)));
    }
    Ok(out)
}

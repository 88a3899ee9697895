//! A worker of a sharded build: one process that walks every level in order and, in
//! each, computes whichever of the level's `N` shards nobody else is computing, then
//! waits until the level is complete before going up. `N` workers started at once (the
//! tasks of one Slurm job array, or processes on one machine) build the whole database
//! with one submission and no scheduler between the levels; fewer workers, or workers
//! that start late, still finish it (a worker that finds a shard unclaimed takes it).
//!
//! A worker claims a shard by creating `L<level>-<K>of<N>.claim` with `O_EXCL` (atomic
//! on NFS v3+ and the cluster filesystems), holding its identity (host, pid, process
//! start, and an owner tag that survives a requeue, e.g. the Slurm job id). While it
//! computes, a thread touches the claim's modification time every quarter of
//! `stale_after`. A claim is taken over when:
//! - its owner tag is this worker's (this worker's earlier run, killed and requeued);
//! - its process ran on this host and is gone;
//! - it has not changed for `stale_after`, as measured by the waiting worker's own
//!   clock (so clocks of different machines never need to agree).
//!
//! A claim taken over from a worker that was only slow leaves two workers computing the
//! same shard: both write the same bytes under unique temporary names and rename them
//! in turn, so the part is right either way.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use fileio::identity::WorkerId;

use super::part::{list_parts, part_name, refuse_other_split};
use super::slice::Shard;
use super::task::{ShardBuilder, ShardOutcome};
use super::work::WorkPlan;
use crate::error::BearoffError;

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerSettings {
    /// `K/N`: every level is split into `N` shards; this worker tries shard `K` first
    /// (then `K+1`, … round the level), so `N` workers start on different shards.
    pub me: Shard,
    /// Survives a restart of this worker (e.g. `slurm-<job id>`): a claim with this tag
    /// is this worker's own from before and is taken back at once. Empty: none.
    pub owner: String,
    /// A claim that has not changed for this long is abandoned (its worker died on
    /// another host, or hangs).
    pub stale_after: Duration,
}

/// What a worker reports as it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkerEvent {
    /// Level `level` is complete (all its parts are there).
    LevelDone {
        /// The level.
        level: usize,
    },
    /// This worker starts computing a shard of `records` records.
    Computing {
        /// The level.
        level: usize,
        /// The shard.
        shard: Shard,
        /// Its records.
        records: u64,
    },
    /// This worker took over an abandoned claim.
    TookOver {
        /// The level.
        level: usize,
        /// The shard.
        shard: Shard,
        /// Why: whose claim it was.
        why: String,
    },
}

/// What a worker did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerReport {
    /// The shards it computed (level, shard, records).
    pub computed: Vec<(usize, Shard, u64)>,
    /// Claims it took over.
    pub taken_over: usize,
    /// Time spent waiting for other workers.
    pub waited: Duration,
}

/// Runs worker `settings.me` over every level of the build in work directory `dir`
/// (plan `plan`), returning when the last level is complete. `event(...)` is told what
/// happens; `progress(records done)` counts the records of the shard being computed.
pub fn run_worker(
    dir: &Path,
    plan: &WorkPlan,
    settings: &WorkerSettings,
    event: &(dyn Fn(WorkerEvent) + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<WorkerReport, BearoffError> {
    let builder = ShardBuilder::new(dir, plan)?;
    let me = WorkerId::current();
    let token = format!(
        "{} {} {} {}\n",
        me.host,
        me.pid,
        me.start,
        if settings.owner.is_empty() {
            "-"
        } else {
            &settings.owner
        }
    );
    let n = settings.me.n;
    let mut report = WorkerReport::default();
    for level in 0..plan.levels {
        check_split(dir, level, n)?;
        // Claims seen while waiting: their modification time and since when unchanged.
        let mut seen: HashMap<u32, (Option<SystemTime>, Instant)> = HashMap::new();
        let mut nap = Duration::from_millis(5);
        loop {
            let order = (0..n).map(|j| Shard {
                k: (settings.me.k - 1 + j) % n + 1,
                n,
            });
            let missing: Vec<Shard> = order
                .filter(|&sh| !builder.part_path(level, sh).exists())
                .collect();
            if missing.is_empty() {
                break;
            }
            let mut worked = false;
            for &shard in &missing {
                let claim = claim_path(dir, level, shard);
                match try_claim(&claim, &token)? {
                    Claim::Mine => {}
                    Claim::Held(text) => {
                        let Some(why) = abandoned(&me, settings, &claim, &text, &mut seen, shard.k) else {
                            continue;
                        };
                        // Take it: the file is this worker's from now on.
                        fileio::write_atomic(&claim, token.as_bytes())
                            .map_err(|e| BearoffError::io(&claim, "cannot take over the claim", e))?;
                        report.taken_over += 1;
                        event(WorkerEvent::TookOver { level, shard, why });
                    }
                }
                if builder.part_path(level, shard).exists() {
                    // Finished between the listing and the claim.
                    let _ = fs::remove_file(&claim);
                    continue;
                }
                let records = builder.records(level, shard);
                event(WorkerEvent::Computing {
                    level,
                    shard,
                    records,
                });
                let outcome = with_heartbeat(&claim, settings.stale_after, || {
                    builder.run(level, shard, progress)
                });
                let _ = fs::remove_file(&claim);
                if let ShardOutcome::Computed { records, .. } = outcome? {
                    report.computed.push((level, shard, records));
                }
                worked = true;
            }
            if worked {
                nap = Duration::from_millis(5);
                continue;
            }
            // Every missing shard is someone else's: wait a little longer each round
            // (up to half a second), then look again.
            let t = Instant::now();
            std::thread::sleep(nap);
            report.waited += t.elapsed();
            nap = (nap * 2).min(Duration::from_millis(500));
        }
        event(WorkerEvent::LevelDone { level });
    }
    Ok(report)
}

/// The claim file of `shard` of `level`.
pub fn claim_path(dir: &Path, level: usize, shard: Shard) -> PathBuf {
    let mut name = part_name(level, shard);
    name.truncate(name.len() - ".part".len());
    dir.join(name + ".claim")
}

/// Refuses a level that already holds parts of another split (the levels below are
/// checked where a shard is computed, [`ShardBuilder::run`]).
fn check_split(dir: &Path, level: usize, n: u32) -> Result<(), BearoffError> {
    refuse_other_split(dir, &list_parts(dir)?, level, n, |other| {
        format!("use --shard K/{other}, or delete those parts")
    })
}

enum Claim {
    /// Created by this worker.
    Mine,
    /// Someone's (the file's text).
    Held(String),
}

fn try_claim(path: &Path, token: &str) -> Result<Claim, BearoffError> {
    match OpenOptions::new().write(true).create_new(true).open(path) {
        Ok(mut f) => {
            f.write_all(token.as_bytes())
                .and_then(|()| f.sync_all())
                .map_err(|e| BearoffError::io(path, "cannot write the claim", e))?;
            Ok(Claim::Mine)
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => match fs::read_to_string(path) {
            Ok(text) => Ok(Claim::Held(text)),
            // Removed in between (its worker finished): look again next round.
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(Claim::Held(String::new())),
            Err(e) => Err(BearoffError::io(path, "cannot read the claim", e)),
        },
        Err(e) => Err(BearoffError::io(path, "cannot create the claim", e)),
    }
}

/// Whether the claim at `path` (text `text`) is abandoned; `Some(whose)` if so.
fn abandoned(
    me: &WorkerId,
    settings: &WorkerSettings,
    path: &Path,
    text: &str,
    seen: &mut HashMap<u32, (Option<SystemTime>, Instant)>,
    k: u32,
) -> Option<String> {
    let mtime = fs::metadata(path).and_then(|m| m.modified()).ok();
    if text.is_empty() && mtime.is_none() {
        return None; // gone: the next round claims it
    }
    let f: Vec<&str> = text.split_whitespace().collect();
    let owner = f.get(3).copied().unwrap_or("-");
    if !settings.owner.is_empty() && owner == settings.owner {
        return Some(format!("this worker's own claim ({owner}) from before a restart"));
    }
    if let (Some(host), Some(Ok(pid)), Some(Ok(start))) = (
        f.first(),
        f.get(1).map(|s| s.parse::<u32>()),
        f.get(2).map(|s| s.parse::<u64>()),
    ) {
        if me.is_gone(host, pid, start) == Some(true) {
            return Some(format!("process {pid} of this host ({host}) is gone"));
        }
    }
    let now = Instant::now();
    let entry = seen.entry(k).or_insert((mtime, now));
    if entry.0 != mtime {
        *entry = (mtime, now);
    }
    let still = now.duration_since(entry.1);
    (still >= settings.stale_after).then(|| {
        seen.remove(&k);
        format!("'{}' unchanged for {:.0} s", text.trim(), still.as_secs_f64())
    })
}

/// Runs `work` while a thread touches `claim`'s modification time every quarter of
/// `stale_after`, so that waiting workers see this one is alive.
fn with_heartbeat<T: Send>(claim: &Path, stale_after: Duration, work: impl FnOnce() -> T + Send) -> T {
    let stop = AtomicBool::new(false);
    let beat = (stale_after / 4).max(Duration::from_millis(20));
    std::thread::scope(|scope| {
        let ticker = scope.spawn(|| {
            while !stop.load(Ordering::Acquire) {
                std::thread::park_timeout(beat);
                if stop.load(Ordering::Acquire) {
                    break;
                }
                // A claim taken over by another worker is touched harmlessly; a missing
                // one is not recreated.
                if let Ok(f) = File::options().write(true).open(claim) {
                    let _ = f.set_modified(SystemTime::now());
                }
            }
        });
        let out = work();
        stop.store(true, Ordering::Release);
        ticker.thread().unpark();
        out
    })
}

//! The `ordered` parallel scheme of TD training: asynchronous self-play with a fixed
//! lag, merged in game order, so that the result is the same on any number of threads.
//!
//! Games are played in blocks `[b, e)`. Game `g` learns online on a copy of the
//! snapshot `W_s`, `s = max(b, g − lag)`, where `W_k` is the shared weights after games
//! `b..k` (and everything before the block) were merged. Games merge strictly in game
//! order: `W_{g+1} = W_g + (copy_g − W_s)`, and when `s == g` (lag 0, or the first game
//! of a block) the copy itself becomes `W_{g+1}` — with lag 0 this is exactly
//! single-thread online learning. Threads claim games in order; a finished game whose
//! predecessors are not merged waits in a pending queue while its thread goes on with
//! the next game (if that game's snapshot exists yet). The snapshots still needed by
//! unstarted games are kept (at most `lag + 1`).
//!
//! Game `g` plays the dice and uses the learning rate it would in any other scheme, so
//! the weights after a block depend on the weights before it, the lag and the block
//! bounds only: never on the thread count or on timing.
//!
//! A thread that has to wait (its next game's snapshot is not merged yet, or no game
//! is left to claim before the block ends) helps the others score their move lists
//! (`help`), which changes no bit.
//!
//! Copies and merges touch only the hidden-weight rows that can differ ([`crate::rows`]):
//! a game's copy is made in a recycled model holding some `W_v`, by copying the rows
//! changed in a merge after `min(v, s)`; a merge adds the difference in the rows the
//! game learned and takes `W_g`'s rows where only games merged after `s` changed them.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex};

use evaluator::bearoff::BearoffDbs;

use crate::error::TrainerError;
use crate::help::Helpers;
use crate::model::Model;
use crate::rows::{copy_rows, merge_rows_onto, RowClock, Rows};
use crate::td::{GameStats, How, Learner, TdParams};

/// One block's job: games `b..e` on `threads` threads with snapshots lagging `lag`
/// games; `dice(g)` seeds game g's dice.
pub struct Block<'a> {
    /// First game of the block.
    pub b: u64,
    /// End of the block (exclusive).
    pub e: u64,
    /// The fixed lag.
    pub lag: u64,
    /// Worker threads.
    pub threads: usize,
    /// The bearoff databases.
    pub dbs: &'a Arc<BearoffDbs>,
    /// TD settings (the rate of game g is `td.rate(g)`).
    pub td: TdParams,
    /// Dice seed of game g.
    pub dice: &'a (dyn Fn(u64) -> u32 + Sync),
}

/// What a block trained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Positions trained.
    pub positions: u64,
    /// Games cut off at the turn limit.
    pub truncated: u64,
    /// Move decisions another thread helped score (`help`).
    pub shared_decisions: u64,
}

struct Finished {
    copy: Model,
    base: Arc<Model>,
    s: u64,
    stats: GameStats,
    /// The hidden-weight rows the game changed.
    learned: Rows,
}

struct Shared {
    /// `W_merged`, shared with the snapshot of the same games (a merge makes a new one
    /// out of the merged game's copy, so no snapshot needs a copy of its own).
    model: Arc<Model>,
    /// Games `b..merged` are merged.
    merged: u64,
    /// Next game to claim.
    next: u64,
    /// Snapshots `(k, W_k)` still needed by unstarted games, oldest first.
    snapshots: VecDeque<(u64, Arc<Model>)>,
    /// Finished games waiting for their predecessors.
    pending: BTreeMap<u64, Finished>,
    positions: u64,
    truncated: u64,
    failed: bool,
    /// Models no longer in use, each `W_k` with its `k`, whose weight arrays the next
    /// copies reuse (a fresh allocation per copy cost page faults on every game).
    spare: Vec<(u64, Model)>,
    /// When each hidden-weight row last changed.
    clock: RowClock,
}

impl Shared {
    /// Keeps `m`, the weights `W_k`, for later copies (a few at most).
    fn recycle(&mut self, k: u64, m: Model) {
        if self.spare.len() < SPARE_MODELS {
            self.spare.push((k, m));
        }
    }

    /// Recycles the snapshot `W_k` once nothing else holds it.
    fn release(&mut self, k: u64, snapshot: Arc<Model>) {
        if let Ok(m) = Arc::try_unwrap(snapshot) {
            self.recycle(k, m);
        }
    }
}

/// Marks the block failed and wakes the threads waiting for its games, so that they
/// stop (also after a panic under the lock).
fn fail(shared: &Mutex<Shared>, helpers: &Helpers, ready: &Condvar) {
    let mut sh = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    sh.failed = true;
    helpers.bump();
    drop(sh);
    ready.notify_all();
}

/// Fails the block if its thread panics (the panic reaches the caller when the
/// threads are joined).
struct FailOnPanic<'a>(&'a Mutex<Shared>, &'a Helpers, &'a Condvar);

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            fail(self.0, self.1, self.2);
        }
    }
}

/// Spare models kept for reuse.
const SPARE_MODELS: usize = 4;

/// A copy of `source`, in `spare`'s arrays if given, which then differ from `source`
/// only in the hidden-weight rows `stale`.
fn copy_into(spare: Option<Model>, source: &Model, stale: &Rows) -> Model {
    match spare {
        Some(mut m) => {
            copy_rows(&mut m, source, stale);
            m
        }
        None => source.clone(),
    }
}

impl Block<'_> {
    /// The snapshot game `g` learns on.
    fn source(&self, g: u64) -> u64 {
        self.b.max(g.saturating_sub(self.lag))
    }

    /// Whether an unstarted game from `next` on still needs `W_k`.
    fn needed(&self, k: u64, next: u64) -> bool {
        k >= self.source(next) && (k == self.b || k + self.lag < self.e)
    }

    /// Plays the block, updating `model` from `W_b` to `W_e`; `progress(n)` is called
    /// (outside the lock) after each merge with the games merged so far in all.
    pub fn run(&self, model: &mut Model, progress: &(dyn Fn(u64) + Sync)) -> Result<Totals, TrainerError> {
        if self.b >= self.e {
            return Ok(Totals::default());
        }
        let first = Arc::new(model.clone());
        let clock = RowClock::new(model, self.b);
        let shared = Mutex::new(Shared {
            model: first.clone(),
            merged: self.b,
            next: self.b,
            snapshots: VecDeque::from([(self.b, first)]),
            pending: BTreeMap::new(),
            positions: 0,
            truncated: 0,
            failed: false,
            spare: Vec::new(),
            clock,
        });
        let ready = Condvar::new();
        let threads = self.threads.clamp(1, (self.e - self.b) as usize);
        let helpers = Helpers::new(threads);
        let results: Vec<Result<(), TrainerError>> = std::thread::scope(|scope| {
            let (shared, ready, helpers) = (&shared, &ready, &helpers);
            let handles: Vec<_> = (0..threads)
                .map(|me| scope.spawn(move || self.worker(me, shared, (ready, helpers), progress)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a training thread panicked"))
                .collect()
        });
        results.into_iter().collect::<Result<(), TrainerError>>()?;
        let shared = shared.into_inner().expect("no panics under the lock");
        debug_assert_eq!(shared.merged, self.e);
        let totals = Totals {
            positions: shared.positions,
            truncated: shared.truncated,
            shared_decisions: helpers.shared_decisions(),
        };
        // The last snapshot shares the last weights: drop the snapshots first.
        let last = shared.model;
        drop(shared.snapshots);
        *model = Arc::try_unwrap(last).unwrap_or_else(|m| (*m).clone());
        Ok(totals)
    }

    /// Thread `me`: claims, plays and merges games; waits by helping the others.
    fn worker(
        &self,
        me: usize,
        shared: &Mutex<Shared>,
        (ready, helpers): (&Condvar, &Helpers),
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), TrainerError> {
        let mut learner = Learner::recording_rows();
        // The rows in which this thread's next copy must be refreshed, and those in
        // which a merge's `W_g` may differ from the game's `W_s` (buffers).
        let (mut stale, mut moved) = (Rows::default(), Rows::default());
        let lock = || shared.lock().expect("no panics under the lock");
        let _on_panic = FailOnPanic(shared, helpers, ready);
        loop {
            // Claim the next game once its snapshot exists (and a spare model for its
            // copy, if there is one).
            let (g, base, spare) = {
                let mut sh = lock();
                loop {
                    if sh.failed || sh.merged >= self.e {
                        return Ok(());
                    }
                    let g = sh.next;
                    let s = self.source(g);
                    if g < self.e && s <= sh.merged {
                        let base = sh
                            .snapshots
                            .iter()
                            .find(|(k, _)| *k == s)
                            .map(|(_, m)| m.clone())
                            .expect("the snapshot of an unstarted game is kept");
                        sh.next += 1;
                        let next = sh.next;
                        // Snapshots fall out of use oldest first (a kept one was needed
                        // when made, and only its age can change that).
                        while sh.snapshots.front().is_some_and(|(k, _)| !self.needed(*k, next)) {
                            let (k, m) = sh.snapshots.pop_front().expect("a front exists");
                            sh.release(k, m);
                        }
                        // A spare `W_v` differs from `W_s` only in rows changed after
                        // the older of the two: take the newest.
                        let newest = (0..sh.spare.len()).max_by_key(|&i| sh.spare[i].0);
                        let spare = newest.map(|i| sh.spare.swap_remove(i)).map(|(v, m)| {
                            sh.clock.changed_after(v.min(s), &m, &mut stale);
                            m
                        });
                        break (g, base, spare);
                    }
                    sh = helpers.wait(sh, shared, ready);
                }
            };
            let mut copy = copy_into(spare, &base, &stale);
            let td = &self.td;
            let how = How {
                settle: true,
                help: Some((helpers, me)),
            };
            let stats = match learner.play(&mut copy, self.dbs, (self.dice)(g), td, td.rate(g), how) {
                Ok(s) => s,
                Err(e) => {
                    fail(shared, helpers, ready);
                    return Err(e);
                }
            };
            let s = self.source(g);
            let learned = learner.touched().clone();
            let merged_to = {
                let mut sh = lock();
                sh.pending.insert(
                    g,
                    Finished {
                        copy,
                        base,
                        s,
                        stats,
                        learned,
                    },
                );
                let before = sh.merged;
                while let Some(f) = {
                    let m = sh.merged;
                    sh.pending.remove(&m)
                } {
                    let k = sh.merged;
                    let mut next_model = f.copy;
                    if f.s != k {
                        sh.clock.changed_after(f.s, &next_model, &mut moved);
                        merge_rows_onto(&mut next_model, &sh.model, &f.base, &f.learned, &moved);
                    }
                    sh.clock.stamp(&f.learned, k + 1);
                    let old = std::mem::replace(&mut sh.model, Arc::new(next_model));
                    sh.release(k, old);
                    sh.release(f.s, f.base);
                    sh.merged = k + 1;
                    sh.positions += u64::from(f.stats.positions);
                    sh.truncated += u64::from(f.stats.truncated);
                    let (merged, next) = (sh.merged, sh.next);
                    if merged < self.e && self.needed(merged, next) {
                        let snap = sh.model.clone();
                        sh.snapshots.push_back((merged, snap));
                    }
                }
                let advanced = sh.merged > before;
                if advanced {
                    helpers.bump();
                }
                advanced.then_some(sh.merged)
            };
            if let Some(n) = merged_to {
                ready.notify_all();
                progress(n);
            }
        }
    }
}

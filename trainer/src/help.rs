//! Help between the threads of the ordered scheme ([`crate::ordered`]): a thread whose
//! next game waits for a merge scores half of another thread's move list instead of
//! sitting idle.
//!
//! With lag 1 at most two games are in play, so on two threads one of them often
//! waits for the other's game to end (about a fifth of the time), and any thread past
//! `lag + 1` always waits. The owner of a decision posts the second half of its
//! candidates in its slot when some thread is idle, scores the first half, then takes
//! the helper's values, or scores the second half itself if nobody has taken it. A
//! position's exact value depends neither on the thread that computes it nor on its
//! neighbours in the list (the evaluator's pair kernels give its single kernel's bits),
//! so a game is the same with or without help, and so is the run. The fused mode's
//! values depend on the position alone too, so it is shared the same way; the
//! incremental mode's values depend on the list's first position and are not.
//!
//! An idle thread spins while jobs come (a move list takes microseconds; waking a
//! parked thread would take longer) and parks once none has come for a while. With
//! more threads than CPUs nobody helps: a spinning thread would take a CPU from one
//! that plays.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use board::Position;
use evaluator::bearoff::BearoffDbs;
use evaluator::choice::best_of_values;
use evaluator::eval::{EvalError, Probabilities};
use evaluator::{Evaluator, PositionClass};

use crate::engine::EvalMode;
use crate::model::Model;

/// Move lists shorter than this are scored by their owner alone (splitting them costs
/// about what it saves).
const MIN_SHARED: usize = 8;

/// Rounds without a job after which an idle thread parks (tens of microseconds).
const PARK_AFTER: u32 = 4096;

/// A slot's states.
const EMPTY: u8 = 0;
const POSTED: u8 = 1;
const TAKEN: u8 = 2;
const DONE: u8 = 3;

/// Positions' values with the opponent on roll, as [`Evaluator::evaluate_all`] gives
/// them.
pub type Values = Vec<(Probabilities, PositionClass)>;

/// The help desk of one block of games: a slot per thread and the idle threads.
pub struct Helpers {
    /// Whether idle threads help (else they park at once).
    on: bool,
    slots: Box<[Slot]>,
    idle: AtomicUsize,
    /// Bumped (under the scheme's lock) whenever a waiting thread may go on.
    generation: AtomicU64,
    /// Decisions whose second half another thread scored.
    shared: AtomicU64,
}

#[derive(Default)]
struct Slot {
    state: AtomicU8,
    job: Mutex<Job>,
}

#[derive(Default)]
struct Job {
    /// The owner's model: valid from POSTED until the owner has seen DONE or taken the
    /// job back (it waits for one of them before it returns, also when unwinding).
    model: Option<ModelPtr>,
    dbs: Option<Arc<BearoffDbs>>,
    /// Whether the owner scores its lists fused (else exact).
    fused: bool,
    after: Vec<Position>,
    values: Values,
    /// `None` while not done, or if the helper panicked.
    result: Option<Result<(), EvalError>>,
}

struct ModelPtr(*const Model);

// SAFETY: the pointer is only dereferenced by a helper between TAKEN and DONE, while
// the owner, which holds a shared borrow of the model for the whole time, waits; two
// threads then read one `Model`, which must therefore be `Sync` (checked below).
unsafe impl Send for ModelPtr {}

const _: () = {
    const fn shared_between_threads<T: Sync>() {}
    shared_between_threads::<Model>();
};

impl Helpers {
    /// A help desk for `threads` threads (numbered from 0); help is given only if
    /// there are as many CPUs.
    pub(crate) fn new(threads: usize) -> Helpers {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        Helpers {
            on: threads <= cpus,
            slots: (0..threads).map(|_| Slot::default()).collect(),
            idle: AtomicUsize::new(0),
            generation: AtomicU64::new(0),
            shared: AtomicU64::new(0),
        }
    }

    /// Decisions shared so far.
    pub fn shared_decisions(&self) -> u64 {
        self.shared.load(Ordering::Relaxed)
    }

    /// Tells waiting threads that they may go on; call it under the lock they
    /// check their condition under, and notify them there.
    pub(crate) fn bump(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// The current generation ([`Helpers::bump`]); read it under the lock.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Thread `me`'s 0-ply choice among `results` ([`Evaluator::best_of`] of `engine`,
    /// the exact or fused scoring of a model over `dbs`: not incremental, whose values
    /// depend on the list), with an idle thread scoring the second half the same way if
    /// there is one. `own` and `after` are the caller's buffers.
    pub(crate) fn best_of(
        &self,
        me: usize,
        dbs: &Arc<BearoffDbs>,
        engine: &Evaluator<&Model>,
        results: &[Position],
        own: &mut Values,
        after: &mut Vec<Position>,
    ) -> Result<Option<(usize, Probabilities)>, EvalError> {
        let n = results.len();
        if n < MIN_SHARED || self.idle.load(Ordering::Relaxed) == 0 {
            return engine.best_of(results);
        }
        let m = n / 2;
        // Slot `me` has one owner, thread `me` (the scheme runs one worker per slot):
        // a second owner could see the first one's DONE and return while a helper
        // still reads its model.
        let slot = &self.slots[me];
        debug_assert_eq!(slot.state.load(Ordering::Acquire), EMPTY, "slot {me} in use");
        {
            let mut job = lock(&slot.job);
            job.model = Some(ModelPtr(*engine.nets()));
            job.dbs = Some(dbs.clone());
            job.fused = engine.is_fused();
            job.after.clear();
            Position::extend_swapped(&mut job.after, results[m..].iter().copied());
            job.result = None;
        }
        slot.state.store(POSTED, Ordering::Release);
        let posted = Posted { slot };
        after.clear();
        Position::extend_swapped(after, results[..m].iter().copied());
        let mine = engine.evaluate_all(after, own);
        let (mut job, helped) = posted.collect();
        if helped {
            self.shared.fetch_add(1, Ordering::Relaxed);
        } else {
            let job = &mut *job;
            job.result = Some(engine.evaluate_all(&job.after, &mut job.values));
        }
        job.model = None;
        job.dbs = None;
        mine?;
        match job.result.take() {
            Some(r) => r?,
            None => panic!("a helping thread panicked"),
        }
        own.extend_from_slice(&job.values);
        Ok(best_of_values(results, own))
    }

    /// Waits, helping other threads, until the generation moves on from the one seen
    /// under `shared`'s lock, which `guard` holds; returns the lock again.
    pub(crate) fn wait<'m, T>(
        &self,
        guard: MutexGuard<'m, T>,
        shared: &'m Mutex<T>,
        ready: &std::sync::Condvar,
    ) -> MutexGuard<'m, T> {
        let seen = self.generation();
        if !self.on {
            return self.park(guard, seen, ready);
        }
        drop(guard);
        self.idle.fetch_add(1, Ordering::AcqRel);
        let mut quiet = 0u32;
        while self.generation() == seen {
            if self.help_once() {
                quiet = 0;
                continue;
            }
            quiet += 1;
            if quiet >= PARK_AFTER {
                self.idle.fetch_sub(1, Ordering::AcqRel);
                return self.park(lock(shared), seen, ready);
            }
            if quiet.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        self.idle.fetch_sub(1, Ordering::AcqRel);
        lock(shared)
    }

    /// Waits on `ready` until the generation moves past `seen`.
    fn park<'m, T>(
        &self,
        mut guard: MutexGuard<'m, T>,
        seen: u64,
        ready: &std::sync::Condvar,
    ) -> MutexGuard<'m, T> {
        while self.generation() == seen {
            guard = ready.wait(guard).expect("no panics under the lock");
        }
        guard
    }

    /// Takes one posted job, if any, and does it; returns whether it did one.
    fn help_once(&self) -> bool {
        for slot in self.slots.iter() {
            if slot.state.load(Ordering::Relaxed) != POSTED
                || slot
                    .state
                    .compare_exchange(POSTED, TAKEN, Ordering::AcqRel, Ordering::Relaxed)
                    .is_err()
            {
                continue;
            }
            {
                let mut job = lock(&slot.job);
                let job = &mut *job;
                let ptr = job.model.as_ref().expect("a posted job has its model").0;
                let dbs = job.dbs.as_ref().expect("a posted job has its databases");
                // SAFETY: the owner keeps its model borrowed, unchanged, until it sees
                // DONE (stored below, after the last use).
                let model = unsafe { &*ptr };
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    model
                        .engine_for(
                            dbs,
                            if job.fused {
                                EvalMode::Fused
                            } else {
                                EvalMode::Exact
                            },
                        )
                        .evaluate_all(&job.after, &mut job.values)
                }));
                job.result = outcome.ok();
            }
            slot.state.store(DONE, Ordering::Release);
            return true;
        }
        false
    }
}

/// A posted job: collected before the owner goes on, also when it unwinds, so that
/// no helper outlives the owner's borrow of its model.
struct Posted<'a> {
    slot: &'a Slot,
}

impl<'a> Posted<'a> {
    /// Takes the job back if nobody took it, or waits for its helper; returns the job
    /// and whether a helper did it.
    fn collect(self) -> (MutexGuard<'a, Job>, bool) {
        let slot = self.slot;
        std::mem::forget(self);
        let helped = take_back_or_await(slot);
        (lock(&slot.job), helped)
    }
}

impl Drop for Posted<'_> {
    fn drop(&mut self) {
        take_back_or_await(self.slot);
    }
}

/// Empties a posted slot: takes the job back (false) or waits until its helper is done
/// (true).
fn take_back_or_await(slot: &Slot) -> bool {
    if slot
        .state
        .compare_exchange(POSTED, EMPTY, Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
    {
        return false;
    }
    // The helper is scoring (microseconds); yield now and then in case the system
    // took its CPU away.
    let mut spins = 0u32;
    while slot.state.load(Ordering::Acquire) != DONE {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(256) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
    slot.state.store(EMPTY, Ordering::Release);
    true
}

/// Locks a mutex nobody panics under.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().expect("no panics under the lock")
}

#[cfg(test)]
mod tests {
    use std::sync::Condvar;

    use board::{DiceStream, MoveGen, Variant};

    use super::*;
    use crate::model::ModelConfig;

    /// Move lists of at least [`MIN_SHARED`] candidates from a few 0-ply games.
    fn move_lists(model: &Model, dbs: &Arc<BearoffDbs>) -> Vec<Vec<Position>> {
        let engine = model.engine(dbs);
        let (mut gen, mut lists) = (MoveGen::new(), Vec::new());
        for seed in 0..4 {
            let mut dice = DiceStream::new(seed);
            let mut pos = Variant::Backgammon.start();
            let mut roll = dice.opening_roll();
            for _ in 0..150 {
                let list = gen.positions(&pos, roll).to_vec();
                pos = match engine.best_of(&list).unwrap() {
                    Some((k, _)) => list[k].swapped(),
                    None => pos.swapped(),
                };
                if list.len() >= MIN_SHARED {
                    lists.push(list);
                }
                if pos.swapped().finish(Variant::Backgammon).is_some() {
                    break;
                }
                roll = dice.roll();
            }
        }
        lists
    }

    /// A helped decision is the owner's own, bit for bit: the same move, the same
    /// probabilities and the same value of every candidate, over a few hundred move
    /// lists of a fresh net with gnubg's inputs (128 hidden units).
    #[test]
    fn shared_decisions_are_the_owners_bits() {
        owners_bits(EvalMode::Exact);
    }

    /// The same in fused mode, whose values depend on the position alone too.
    #[test]
    fn shared_fused_decisions_are_the_owners_bits() {
        owners_bits(EvalMode::Fused);
    }

    fn owners_bits(mode: EvalMode) {
        let config = ModelConfig::gnubg(128, false);
        let model = Model::new(config, 4).unwrap();
        let dbs = Arc::new(BearoffDbs::default());
        let lists = move_lists(&model, &dbs);
        assert!(lists.len() > 100, "{} lists", lists.len());
        let mut helpers = Helpers::new(2);
        helpers.on = true;
        let (lock_, ready, done) = (Mutex::new(()), Condvar::new(), AtomicU8::new(0));
        /// Lets the helper go when the owner is done, also when an assertion fails.
        struct Release<'a>(&'a Helpers, &'a Mutex<()>, &'a Condvar, &'a AtomicU8);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                let _g = lock(self.1);
                self.3.store(1, Ordering::Release);
                self.0.bump();
                self.2.notify_all();
            }
        }
        std::thread::scope(|s| {
            let (helpers, lock_, ready, done) = (&helpers, &lock_, &ready, &done);
            // The helper waits (helping) until the owner is done; the owner wakes it
            // whenever it has parked (a busy machine can keep it from jobs for long).
            s.spawn(move || loop {
                let g = lock(lock_);
                if done.load(Ordering::Acquire) == 1 {
                    break;
                }
                drop(helpers.wait(g, lock_, ready));
            });
            let _release = Release(helpers, lock_, ready, done);
            let engine = model.engine_for(&dbs, mode);
            let (mut own, mut after) = (Vec::new(), Vec::new());
            let bits = |r: Option<(usize, Probabilities)>| r.map(|(k, p)| (k, p.map(f32::to_bits)));
            let all_bits = |v: &Values| {
                v.iter()
                    .map(|(p, c)| (p.map(f32::to_bits), *c))
                    .collect::<Vec<_>>()
            };
            let mut values = Vec::new();
            let start = std::time::Instant::now();
            while helpers.shared_decisions() < 50 && start.elapsed().as_secs() < 20 {
                for list in &lists {
                    if helpers.idle.load(Ordering::Acquire) == 0 {
                        let _g = lock(lock_);
                        helpers.bump();
                        ready.notify_all();
                    }
                    own.clear();
                    let helped = helpers.best_of(0, &dbs, &engine, list, &mut own, &mut after);
                    assert_eq!(bits(helped.unwrap()), bits(engine.best_of(list).unwrap()));
                    // Every value, the helper's half included, when the list was split.
                    if !own.is_empty() {
                        let swapped: Vec<Position> = list.iter().map(Position::swapped).collect();
                        engine.evaluate_all(&swapped, &mut values).unwrap();
                        assert_eq!(all_bits(&own), all_bits(&values));
                    }
                }
            }
        });
        assert!(helpers.shared_decisions() > 0, "nobody helped");
    }
}

//! Building a hypergammon database: solve (exact or gnubg-compatible), checkpoint after
//! every iteration, resume from a checkpoint, write gnubg's file format.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;

use super::checkpoint::{self, CheckpointMeta};
use super::compat::{CompatRecord, CompatSolver};
use super::equations::DanceRule;
use super::exact::{extrapolate, extrapolation, ExactSolver, ExactState, TAIL};
use super::moves::MoveTable;
use super::record::{HyperRecord, RECORD_LEN};
use super::space::{Class, HyperSpace};
use crate::error::BearoffError;
use crate::format::header::{Header, HeaderStyle, Kind};
use crate::output::AtomicOutput;

/// gnubg's default convergence threshold (`makehyper -t`).
pub const GNUBG_THRESHOLD: f64 = 1e-5;
/// bgkit's default threshold for the exact solver: the iteration stops when no value
/// changes by more than this in a sweep, which leaves the values well inside the
/// 24-bit resolution of the file (6·10⁻⁸ for probabilities).
pub const EXACT_THRESHOLD: f64 = 1e-9;
/// The smallest threshold the exact solver accepts: it computes in `f64`, whose steps
/// near the largest values (equities up to 3) are 4.4·10⁻¹⁶, so a sweep can keep
/// changing a value by an ulp or two forever; below this it might never stop.
pub const EXACT_THRESHOLD_MIN: f64 = 1e-14;

/// Which computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HyperMethod {
    /// bgkit's solver: exact fixed point in `f64` (see [`super::exact`]).
    Exact(DanceRule),
    /// gnubg 1.07's `makehyper`, reproduced operation for operation (see
    /// [`super::compat`]).
    GnubgCompat,
}

/// What to build and how.
#[derive(Clone, Debug)]
pub struct HyperOptions {
    /// Checkers per side (1..=3).
    pub checkers: usize,
    /// The computation.
    pub method: HyperMethod,
    /// Stop when an iteration changes no value by more than this.
    pub threshold: f64,
    /// Give up (with [`BearoffError::NotConverged`]) after this many iterations.
    pub max_iterations: Option<u32>,
    /// Where to write a checkpoint after every iteration (none: no checkpoints).
    pub checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint if it exists.
    pub resume: bool,
}

impl HyperOptions {
    /// Defaults for `checkers` and `method`: the method's default threshold, no limit, no
    /// checkpoint.
    pub fn new(checkers: usize, method: HyperMethod) -> HyperOptions {
        HyperOptions {
            checkers,
            method,
            threshold: match method {
                HyperMethod::Exact(_) => EXACT_THRESHOLD,
                HyperMethod::GnubgCompat => GNUBG_THRESHOLD,
            },
            max_iterations: None,
            checkpoint: None,
            resume: false,
        }
    }

    /// Refuses settings that cannot finish: a threshold outside [least, 1] (the exact
    /// solver's least is [`EXACT_THRESHOLD_MIN`]) or a limit of 0 iterations.
    pub fn check(&self) -> Result<(), BearoffError> {
        let least = match self.method {
            HyperMethod::Exact(_) => EXACT_THRESHOLD_MIN,
            HyperMethod::GnubgCompat => 0.0,
        };
        if !(self.threshold >= least && self.threshold <= 1.0) {
            return Err(BearoffError::InvalidParameters(format!(
                "the convergence threshold must lie between {least:?} and 1{}, not {:?}",
                if least > 0.0 {
                    " (the exact solver's f64 arithmetic cannot promise less)"
                } else {
                    ""
                },
                self.threshold
            )));
        }
        if self.max_iterations == Some(0) {
            return Err(BearoffError::InvalidParameters(
                "the limit of iterations must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// Progress reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HyperEvent {
    /// Positions classified and moves tabulated.
    Ready {
        /// Records per class: illegal, over, no contact, contact.
        classes: [usize; 4],
        /// Move paths tabulated.
        paths: usize,
        /// Approximate memory in use, bytes.
        memory: u64,
    },
    /// Continuing from a checkpoint after this many iterations.
    Resumed {
        /// Iterations already done.
        iteration: u32,
        /// Their last residual.
        residual: f64,
    },
    /// Progress within a pass: pass 0 is the exact no-contact pass, pass k ≥ 1 iteration k.
    Pass {
        /// Which pass.
        pass: u32,
        /// What it computes.
        phase: HyperPhase,
        /// Work done (records, or rows for the gnubg-compatible sweep).
        done: usize,
        /// Work in the pass.
        total: usize,
    },
    /// An iteration finished.
    Iteration {
        /// Its number (1-based, counting iterations before a resume).
        iteration: u32,
        /// What it computed.
        phase: HyperPhase,
        /// Largest change of any stored quantity.
        residual: f64,
        /// Seconds it took.
        seconds: f64,
    },
    /// Writing the output.
    Writing,
}

/// What an iteration computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HyperPhase {
    /// The exact solver's pass over positions without contact (done once).
    NoContact,
    /// The exact solver's equities (first phase).
    Equities,
    /// The exact solver's probabilities for the settled cubeless choices (second phase).
    Probabilities,
    /// A gnubg-compatible sweep (everything at once).
    Sweep,
}

/// How a solve went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HyperSummary {
    /// Iterations in total (including those before a resume).
    pub iterations: u32,
    /// Residual of the last iteration.
    pub residual: f64,
    /// Iterations that came from a checkpoint.
    pub resumed_from: Option<u32>,
    /// Records per class: illegal, over, no contact, contact.
    pub classes: [usize; 4],
}

enum Values {
    Exact(ExactState),
    Compat(Vec<CompatRecord>),
}

/// A solved database in memory.
pub struct HyperSolution {
    space: HyperSpace,
    values: Values,
    /// How the solve went.
    pub summary: HyperSummary,
}

impl std::fmt::Debug for HyperSolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HyperSolution")
            .field("checkers", &self.space.checkers())
            .field("summary", &self.summary)
            .finish()
    }
}

impl HyperSolution {
    /// The position space.
    pub fn space(&self) -> &HyperSpace {
        &self.space
    }

    /// Record `r` as it is written to the file.
    pub fn record(&self, r: usize) -> HyperRecord {
        match &self.values {
            Values::Exact(s) => {
                if self.space.class(r) == Class::Illegal {
                    HyperRecord::ILLEGAL
                } else {
                    let (e, o) = s.get(r);
                    HyperRecord::encode_nearest(&o, &[e[1], e[2], e[3], e[4]])
                }
            }
            Values::Compat(v) => {
                let n = self.space.n();
                let x = &v[(r % n) * n + r / n];
                HyperRecord::encode_gnubg(&[x[0], x[1], x[2], x[3], x[4]], &[x[6], x[7], x[8], x[9]])
            }
        }
    }

    /// Unrounded values of record `r`: the five probabilities and the five equities
    /// (cubeless, owned, centred, centred Jacoby, opponent owns).
    pub fn values(&self, r: usize) -> ([f64; 5], [f64; 5]) {
        match &self.values {
            Values::Exact(s) => {
                let (e, o) = s.get(r);
                (o, e)
            }
            Values::Compat(v) => {
                let n = self.space.n();
                let x = &v[(r % n) * n + r / n];
                (
                    [0, 1, 2, 3, 4].map(|q| f64::from(x[q])),
                    [5, 6, 7, 8, 9].map(|q| f64::from(x[q])),
                )
            }
        }
    }

    /// Writes the whole file (gnubg's header and records) to `out`.
    pub fn write(&self, out: &mut dyn Write) -> Result<(), std::io::Error> {
        let header = Header {
            kind: Kind::Hypergammon {
                checkers: self.space.checkers() as u8,
            },
            style: HeaderStyle::Gnubg,
        };
        out.write_all(&header.to_bytes().expect("gnubg style has a header"))?;
        let records = self.space.records();
        const BATCH: usize = 1 << 18;
        let mut buf = vec![0u8; BATCH * RECORD_LEN];
        for start in (0..records).step_by(BATCH) {
            let len = BATCH.min(records - start);
            buf[..len * RECORD_LEN]
                .par_chunks_mut(RECORD_LEN)
                .enumerate()
                .for_each(|(k, b)| b.copy_from_slice(&self.record(start + k).to_bytes()));
            out.write_all(&buf[..len * RECORD_LEN])?;
        }
        Ok(())
    }
}

/// Solves the database described by `opts`.
pub fn solve(opts: &HyperOptions, event: &dyn Fn(HyperEvent)) -> Result<HyperSolution, BearoffError> {
    opts.check()?;
    let space = HyperSpace::new(opts.checkers)?;
    let table = MoveTable::new(&space);
    let classes = space.class_counts();
    // Values of every record; for the exact solver also, per contact record, its place
    // in the sweep order, the last change (f32) and the cubeless choices of moves.
    let memory = match opts.method {
        HyperMethod::Exact(_) => space.records() * 81 + classes[3] * (4 + 20 + 21),
        HyperMethod::GnubgCompat => space.records() * 41,
    } + table.bytes();
    event(HyperEvent::Ready {
        classes,
        paths: table.len(),
        memory: memory as u64,
    });
    let (values, iterations, residual, resumed_from) = match opts.method {
        HyperMethod::Exact(dance) => solve_exact(&space, &table, dance, opts, event)?,
        HyperMethod::GnubgCompat => solve_compat(&space, &table, opts, event)?,
    };
    if let Some(path) = &opts.checkpoint {
        if path.exists() {
            std::fs::remove_file(path)
                .map_err(|e| BearoffError::io(path, "cannot remove the finished checkpoint", e))?;
        }
    }
    Ok(HyperSolution {
        space,
        values,
        summary: HyperSummary {
            iterations,
            residual,
            resumed_from,
            classes,
        },
    })
}

/// Solves and writes the file to `out` (committed by the caller).
pub fn generate_hyper(
    opts: &HyperOptions,
    out: &mut AtomicOutput,
    event: &dyn Fn(HyperEvent),
) -> Result<HyperSummary, BearoffError> {
    let solution = solve(opts, event)?;
    event(HyperEvent::Writing);
    let partial = out.partial().to_path_buf();
    solution
        .write(out)
        .map_err(|e| BearoffError::io(&partial, "cannot write", e))?;
    Ok(solution.summary)
}

fn method_code(method: HyperMethod) -> (u8, u8) {
    match method {
        HyperMethod::Exact(DanceRule::Correct) => (0, 0),
        HyperMethod::Exact(DanceRule::Gnubg) => (0, 1),
        HyperMethod::GnubgCompat => (1, 0),
    }
}

fn check_meta(
    opts: &HyperOptions,
    meta: &CheckpointMeta,
    values: u64,
    width: u8,
) -> Result<(), BearoffError> {
    let (method, dance) = method_code(opts.method);
    let path = opts.checkpoint.as_deref().expect("resuming from a checkpoint");
    if usize::from(meta.checkers) != opts.checkers || meta.method != method || meta.dance != dance {
        let describe = |c: u8, m: u8, d: u8| {
            format!(
                "{c} checkers, {}",
                match (m, d) {
                    (1, _) => "--gnubg-compat",
                    (_, 1) => "gnubg's dance rule",
                    _ => "exact",
                }
            )
        };
        return Err(BearoffError::WrongKind {
            path: path.to_path_buf(),
            why: format!(
                "the checkpoint is for {}, this run asks for {}",
                describe(meta.checkers, meta.method, meta.dance),
                describe(opts.checkers as u8, method, dance)
            ),
        });
    }
    if meta.values != values || meta.width != width {
        return Err(BearoffError::corrupt(
            path,
            "checkpoint holds the wrong number of values",
        ));
    }
    Ok(())
}

fn not_converged(opts: &HyperOptions, iterations: u32, residual: f64) -> BearoffError {
    BearoffError::NotConverged {
        iterations,
        residual,
        threshold: opts.threshold,
        hint: match &opts.checkpoint {
            Some(p) => format!(
                "; continue from {} with --resume (and a larger --max-iterations)",
                p.display()
            ),
            None => String::new(),
        },
    }
}

type Solved<V> = Result<(V, u32, f64, Option<u32>), BearoffError>;

fn solve_exact(
    space: &HyperSpace,
    table: &MoveTable,
    dance: DanceRule,
    opts: &HyperOptions,
    event: &dyn Fn(HyperEvent),
) -> Solved<Values> {
    let solver = ExactSolver { space, table, dance };
    let mut state = solver.start();
    let (quiet, quiet_starts) = space.levels(Class::NoContact);
    solver.pass(&mut state, &quiet, &quiet_starts, &|done| {
        event(HyperEvent::Pass {
            pass: 0,
            phase: HyperPhase::NoContact,
            done,
            total: quiet.len(),
        })
    });
    drop((quiet, quiet_starts));
    let (contact, starts) = space.columns(Class::Contact);
    let values = contact.len() as u64 * 10;
    let (method, dance_code) = method_code(opts.method);
    let mut iteration = 0u32;
    let mut phase = HyperPhase::Equities;
    let mut residuals: Vec<f64> = Vec::new();
    let mut since = 0u32;
    let mut resumed_from = None;
    if let Some(path) = opts.checkpoint.as_deref().filter(|p| opts.resume && p.exists()) {
        let meta = checkpoint::read_meta(path)?;
        check_meta(opts, &meta, values, 8)?;
        checkpoint::load(path, |i, v| {
            let r = contact[(i / 10) as usize] as usize;
            let q = (i % 10) as usize;
            if q < 5 {
                state.eq[r][q] = v;
            } else {
                state.out[r][q - 5] = v;
            }
        })?;
        iteration = meta.iteration;
        phase = if meta.phase == 1 {
            HyperPhase::Probabilities
        } else {
            HyperPhase::Equities
        };
        residuals = meta
            .residuals
            .iter()
            .rev()
            .copied()
            .filter(|r| !r.is_nan())
            .collect();
        since = meta.since;
        resumed_from = Some(iteration);
        event(HyperEvent::Resumed {
            iteration,
            residual: meta.residuals[0],
        });
    }
    let mut delta: Vec<[f32; 5]> = Vec::new();
    let mut choices = Vec::new();
    loop {
        let residual = residuals.last().copied().unwrap_or(f64::INFINITY);
        if residual <= opts.threshold {
            if phase == HyperPhase::Probabilities {
                break;
            }
            // The equities are settled: so are the cubeless choices of moves. The
            // probabilities follow them (a linear system), iterated the same way.
            phase = HyperPhase::Probabilities;
            residuals.clear();
            since = 0;
            continue;
        }
        if opts.max_iterations.is_some_and(|m| iteration >= m) {
            return Err(not_converged(opts, iteration, residual));
        }
        if phase == HyperPhase::Probabilities && choices.is_empty() {
            choices = solver.choices(&state, &contact, &starts);
        }
        iteration += 1;
        let t0 = Instant::now();
        let pass = iteration;
        // Keep the changes once extrapolation may follow this sweep.
        let keep = residual < 10.0 * TAIL;
        if keep && delta.is_empty() {
            delta = vec![[0f32; 5]; contact.len()];
        }
        let progress = |done| {
            event(HyperEvent::Pass {
                pass,
                phase,
                done,
                total: contact.len(),
            })
        };
        let kept = keep.then_some(&mut delta[..]);
        let residual = if phase == HyperPhase::Equities {
            solver.sweep_equities(&mut state, &contact, &starts, &progress, kept)
        } else {
            solver.sweep_outputs(&mut state, &contact, &starts, &choices, &progress, kept)
        };
        residuals.push(residual);
        since += 1;
        event(HyperEvent::Iteration {
            iteration,
            phase,
            residual,
            seconds: t0.elapsed().as_secs_f64(),
        });
        if residual > opts.threshold {
            if let Some(factor) = extrapolation(&residuals, since).filter(|_| keep) {
                let values = if phase == HyperPhase::Equities {
                    &mut state.eq
                } else {
                    &mut state.out
                };
                extrapolate(values, &contact, &delta, factor);
                since = 0;
            }
        }
        if let Some(path) = &opts.checkpoint {
            let last = |k: usize| {
                residuals
                    .len()
                    .checked_sub(k + 1)
                    .map_or(f64::NAN, |i| residuals[i])
            };
            let meta = CheckpointMeta {
                checkers: space.checkers() as u8,
                method,
                dance: dance_code,
                width: 8,
                phase: u8::from(phase == HyperPhase::Probabilities),
                iteration,
                residuals: [last(0), last(1), last(2)],
                since,
                values,
            };
            let st = &state;
            checkpoint::save(path, &meta, || {
                contact.iter().flat_map(move |&r| {
                    let (e, o) = st.get(r as usize);
                    e.into_iter().chain(o)
                })
            })?;
        }
    }
    let residual = residuals.last().copied().unwrap_or(0.0);
    Ok((Values::Exact(state), iteration, residual, resumed_from))
}

fn solve_compat(
    space: &HyperSpace,
    table: &MoveTable,
    opts: &HyperOptions,
    event: &dyn Fn(HyperEvent),
) -> Solved<Values> {
    let solver = CompatSolver { space, table };
    let mut values = solver.start();
    let count = values.len() as u64 * 10;
    let threshold = opts.threshold as f32;
    let mut iteration = 0u32;
    let mut norm = f32::INFINITY;
    let mut resumed_from = None;
    if let Some(path) = opts.checkpoint.as_deref().filter(|p| opts.resume && p.exists()) {
        let meta = checkpoint::read_meta(path)?;
        check_meta(opts, &meta, count, 4)?;
        checkpoint::load(path, |i, v| {
            values[(i / 10) as usize][(i % 10) as usize] = v as f32;
        })?;
        iteration = meta.iteration;
        norm = meta.residuals[0] as f32;
        resumed_from = Some(iteration);
        event(HyperEvent::Resumed {
            iteration,
            residual: meta.residuals[0],
        });
    }
    let n = space.n();
    while norm > threshold {
        if opts.max_iterations.is_some_and(|m| iteration >= m) {
            return Err(not_converged(opts, iteration, f64::from(norm)));
        }
        iteration += 1;
        let t0 = Instant::now();
        let pass = iteration;
        let r = solver.sweep(&mut values, &|done| {
            event(HyperEvent::Pass {
                pass,
                phase: HyperPhase::Sweep,
                done,
                total: n,
            })
        });
        let previous = f64::from(std::mem::replace(&mut norm, r));
        event(HyperEvent::Iteration {
            iteration,
            phase: HyperPhase::Sweep,
            residual: f64::from(norm),
            seconds: t0.elapsed().as_secs_f64(),
        });
        if norm > threshold {
            if let Some(path) = &opts.checkpoint {
                let meta = CheckpointMeta {
                    checkers: space.checkers() as u8,
                    method: 1,
                    dance: 0,
                    width: 4,
                    phase: 0,
                    iteration,
                    residuals: [f64::from(norm), previous, f64::NAN],
                    since: 0,
                    values: count,
                };
                let v = &values;
                checkpoint::save(path, &meta, || {
                    v.iter().flat_map(|x| x.iter().map(|&y| f64::from(y)))
                })?;
            }
        }
    }
    Ok((Values::Compat(values), iteration, f64::from(norm), resumed_from))
}

//! The evaluator: gnubg's weights and bearoff databases, batch evaluation on the SIMD
//! kernels (in parallel, without the GIL), lookahead and the best move (evaluator
//! crate).

use std::path::PathBuf;

use board::{MoveGen, Position};
use evaluator::engine::{EngineError, EngineOptions, OptionNames};
use evaluator::eval::{EvalError, Probabilities};
use evaluator::search::{Lookahead, FILTERS_NORMAL};
use evaluator::weights::Shapes;
use evaluator::{Evaluator, PositionClass};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray3};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::errors::{detached, existing, file_error, guard, value_error};
use crate::nets::PyWeights;
use crate::position as convert;
use crate::position::{dice, PyMove};

/// Positions per `evaluate_all` call in a batch, as `evaluator bench` times it.
const CHUNK: usize = 64;

/// How the "not found" errors say to give each file.
const PY_NAMES: OptionNames = OptionNames {
    weights: "weights=PATH",
    bearoff_os: "bearoff_os=PATH",
    bearoff_ts: "bearoff_ts=PATH",
};

/// gnubg's 0-ply cubeless evaluator (with lookahead on request): a weights file's nets
/// and the one- and two-sided bearoff databases.
///
/// An evaluator from a weights file (``gnubg.wd`` or ``gnubg.weights``; a path or
/// a :class:`Weights`) and the bearoff databases ``gnubg_os0.bd`` and
/// ``gnubg_ts0.bd``. A file not given is looked for as the ``evaluator`` command
/// does: ``$BGKIT_DATA``, then gnubg's install directories. ``no_bearoff=True``
/// uses no databases (race net everywhere; not gnubg's answers). Raises
/// ``bgkit.FileError`` naming a file that is missing or damaged.
#[pyclass(name = "Evaluator", module = "bgkit", frozen)]
pub struct PyEvaluator {
    inner: Evaluator,
    weights_name: String,
}

fn engine_error(e: EngineError) -> PyErr {
    // Every engine error is about a file: not found, unreadable or damaged. The
    // databases' error says which file in its source.
    match e {
        EngineError::Bearoff(b) => file_error(format!("cannot open the bearoff databases: {b}")),
        e => file_error(e),
    }
}

fn eval_error(e: EvalError) -> PyErr {
    match e {
        EvalError::TooDeep { .. } => value_error(e),
        e => file_error(e),
    }
}

/// The deepest search offered, as the CLI's `--plies`: the depth of gnubg's move filters
/// (each ply costs about 21 times the one before; 4 plies take seconds a position).
const MAX_PLIES: u32 = evaluator::search::MAX_FILTER_PLIES;

/// `plies` (a Python int) as a depth, or `ValueError` naming it.
fn check_plies(plies: i64) -> PyResult<u32> {
    match u32::try_from(plies) {
        Ok(p) if p <= MAX_PLIES => Ok(p),
        Ok(_) => Err(value_error(format!("plies {plies}: at most {MAX_PLIES}"))),
        Err(_) => Err(value_error(format!("plies {plies}: a depth is 0 to {MAX_PLIES}"))),
    }
}

/// A batch to evaluate: positions already built, or the bytes of a `(n, 2, 25)` board
/// array, turned into positions and checked chunk by chunk on the thread that
/// evaluates them (one pass over the pool, no array of positions in between).
#[derive(Clone, Copy)]
enum Batch<'a> {
    Positions(&'a [Position]),
    Boards(&'a [u8]),
}

/// Why a batch was not evaluated.
enum RunError {
    /// A board is not valid (which one: found after).
    Board,
    Eval(EvalError),
}

impl PyEvaluator {
    /// Evaluates `batch` (0-ply in chunks of 64 through `evaluate_all`, else each
    /// searched `plies` deep) in parallel; returns the probabilities, 5 per position.
    fn run(&self, batch: Batch<'_>, plies: u32) -> Result<Vec<f32>, PyErr> {
        let n = match batch {
            Batch::Positions(p) => p.len(),
            Batch::Boards(raw) => raw.len() / 50,
        };
        let mut probs = vec![0f32; n * 5];
        let ev = &self.inner;
        let work = |(c, out): (usize, &mut [f32])| -> Result<(), RunError> {
            let first = c * CHUNK;
            let len = out.len() / 5;
            let mut local = [Position::EMPTY; CHUNK];
            let chunk: &[Position] = match batch {
                Batch::Positions(p) => &p[first..first + len],
                Batch::Boards(raw) => {
                    convert::fill_positions(&mut local[..len], &raw[first * 50..(first + len) * 50])
                        .map_err(|()| RunError::Board)?;
                    &local[..len]
                }
            };
            if plies == 0 {
                thread_local! {
                    static RESULTS: std::cell::RefCell<Vec<(Probabilities, PositionClass)>> =
                        const { std::cell::RefCell::new(Vec::new()) };
                }
                RESULTS.with(|r| {
                    let mut r = r.borrow_mut();
                    ev.evaluate_all(chunk, &mut r).map_err(RunError::Eval)?;
                    for ((p, _), o) in r.iter().zip(out.chunks_mut(5)) {
                        o.copy_from_slice(p);
                    }
                    Ok(())
                })
            } else {
                for (pos, o) in chunk.iter().zip(out.chunks_mut(5)) {
                    let p = ev
                        .evaluate_plied(pos, plies, Lookahead::default())
                        .map_err(RunError::Eval)?;
                    o.copy_from_slice(&p);
                }
                Ok(())
            }
        };
        // With a pool of one thread, the calling thread does the work itself (no handoff
        // to the pool and back, which costs about as much as evaluating 50 positions).
        let done = if rayon::current_num_threads() == 1 {
            probs.chunks_mut(CHUNK * 5).enumerate().try_for_each(work)
        } else {
            probs.par_chunks_mut(CHUNK * 5).enumerate().try_for_each(work)
        };
        match (done, batch) {
            (Ok(()), _) => Ok(probs),
            (Err(RunError::Eval(e)), _) => Err(eval_error(e)),
            (Err(RunError::Board), Batch::Boards(raw)) => Err(value_error(convert::first_bad_board(raw))),
            (Err(RunError::Board), Batch::Positions(_)) => unreachable!("built positions are valid"),
        }
    }
}

#[pymethods]
impl PyEvaluator {
    #[new]
    #[pyo3(signature = (weights=None, bearoff_os=None, bearoff_ts=None, no_bearoff=false))]
    fn new(
        py: Python<'_>,
        weights: Option<&Bound<'_, PyAny>>,
        bearoff_os: Option<PathBuf>,
        bearoff_ts: Option<PathBuf>,
        no_bearoff: bool,
    ) -> PyResult<PyEvaluator> {
        guard(|| {
            evaluator::simd::requested_kernel().map_err(value_error)?;
            if no_bearoff && (bearoff_os.is_some() || bearoff_ts.is_some()) {
                return Err(value_error(
                    "no_bearoff=True uses no databases: give it or bearoff_os/bearoff_ts, not both",
                ));
            }
            // A path (`Ok(Some)`), none (`Ok(None)`: looked for), or weights in memory.
            let given = match weights {
                Some(w) => match w.cast::<PyWeights>() {
                    // The rules a weights file meets to load here (gnubg's six nets).
                    Ok(w) => Err({
                        let w = &w.get().inner;
                        w.check(Shapes::Gnubg)
                            .map_err(|e| value_error(format!("these weights cannot be evaluated: {e}")))?;
                        w.clone()
                    }),
                    Err(_) => Ok(Some(existing(py, "weights", w.extract::<PathBuf>()?)?)),
                },
                None => Ok(None),
            };
            let opts = EngineOptions {
                weights: match &given {
                    Ok(p) => p.clone(),
                    Err(_) => Some(PathBuf::from("(in memory)")),
                },
                bearoff_os: bearoff_os.map(|p| existing(py, "bearoff_os", p)).transpose()?,
                bearoff_ts: bearoff_ts.map(|p| existing(py, "bearoff_ts", p)).transpose()?,
                no_bearoff,
            };
            let (inner, weights_name) = detached(
                py,
                || {
                    let files = opts.files_named(&PY_NAMES)?;
                    match given {
                        Ok(_) => Ok((files.evaluator(None)?, files.weights.display().to_string())),
                        Err(w) => {
                            let dbs = evaluator::bearoff::BearoffDbs::open(
                                files.one_sided.as_deref(),
                                files.two_sided.as_deref(),
                            )
                            .map_err(EngineError::Bearoff)?;
                            Ok((Evaluator::new(w, dbs), "(in memory)".to_string()))
                        }
                    }
                },
                engine_error,
            )?;
            Ok(PyEvaluator { inner, weights_name })
        })
    }

    /// The weights file in use (``"(in memory)"`` for a :class:`Weights`).
    #[getter]
    fn weights_path(&self) -> String {
        self.weights_name.clone()
    }

    /// Cubeless evaluations of a batch: a ``(n, 2, 25)`` uint8 board array or a list
    /// of texts (Position IDs, ``PositionID:MatchID``, XGIDs) / ``Position``s. Returns a ``(n, 5)`` float32 array (win, win
    /// gammon, win backgammon, lose gammon, lose backgammon; cumulative, side on
    /// roll's view). 0-ply runs 64 positions per call of the engine's batched path,
    /// on all cores, without the GIL; ``plies`` > 0 searches deeper (gnubg's pruning).
    #[pyo3(signature = (positions, plies=0))]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        plies: i64,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        guard(|| {
            let plies = check_plies(plies)?;
            let probs = if let Ok(a) = positions.extract::<PyReadonlyArray3<u8>>() {
                let raw = convert::board_bytes(&a)?;
                detached(py, || self.run(Batch::Boards(&raw), plies), |e| e)?
            } else {
                let positions = convert::positions_of(positions)?;
                detached(py, || self.run(Batch::Positions(&positions), plies), |e| e)?
            };
            let n = probs.len() / 5;
            PyArray1::from_vec(py, probs).reshape([n, 5])
        })
    }

    /// gnubg's class numbers of a batch given these databases (0 over, 4 two-sided
    /// bearoff, 6 one-sided bearoff, 8 race, 9 crashed, 10 contact), as uint8.
    fn classes<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        guard(|| {
            let positions = convert::positions_of(positions)?;
            let c: Vec<u8> = py.detach(|| {
                positions
                    .par_iter()
                    .map(|p| self.inner.classify(p) as u8)
                    .collect()
            });
            Ok(PyArray1::from_vec(py, c))
        })
    }

    /// The best move for a roll by cubeless money equity, as gnubg chooses it: 0-ply,
    /// or ``plies`` deep with gnubg's normal move filters. Returns ``(Move, equity)``,
    /// or ``None`` when no move is legal. The roll is ``die1``, ``die2``: dice in an
    /// XGID or Match ID given as ``position`` are not read.
    #[pyo3(signature = (position, die1, die2, plies=0))]
    fn best_move(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        die1: i64,
        die2: i64,
        plies: i64,
    ) -> PyResult<Option<(PyMove, f32)>> {
        guard(|| {
            let pos = convert::one_position(position)?;
            let d = dice(die1, die2)?;
            let plies = check_plies(plies)?;
            let best = detached(
                py,
                || {
                    self.inner.best_move_plied(
                        &mut MoveGen::new(),
                        &pos,
                        d,
                        plies,
                        &FILTERS_NORMAL,
                        Lookahead::default(),
                    )
                },
                eval_error,
            )?;
            Ok(best.map(|(m, e)| (PyMove::of(&m), e)))
        })
    }
}

/// The hidden-layer kernel in use: ``"Scalar"``, ``"Avx2"`` or ``"Avx512"``.
/// ``BGKIT_SIMD`` forces one, as for the command-line tools: ``scalar``, ``avx2`` or
/// ``avx512`` in any case (these names too), set before the first evaluation; a kernel
/// the CPU lacks falls back to the best one below it. ``ValueError`` if ``BGKIT_SIMD``
/// names no kernel (:class:`Evaluator` raises it too).
#[pyfunction]
pub fn simd_kernel() -> PyResult<String> {
    evaluator::simd::requested_kernel().map_err(value_error)?;
    Ok(format!("{:?}", evaluator::simd::kernel()))
}

/// The 4,096 contact positions ``evaluator bench`` times, as a ``(4096, 2, 25)``
/// board array.
#[pyfunction]
pub fn bench_positions(py: Python<'_>) -> PyResult<Bound<'_, numpy::PyArray3<u8>>> {
    guard(|| Ok(convert::to_boards(py, &evaluator::corpus::contact_positions())))
}

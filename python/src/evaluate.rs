//! The evaluator: gnubg's weights and bearoff databases, batch evaluation on the SIMD
//! kernels (in parallel, without the GIL), lookahead and the best move (evaluator
//! crate).

use std::path::PathBuf;

use board::{MoveGen, Position};
use evaluator::engine::{EngineError, EngineOptions};
use evaluator::eval::{EvalError, Probabilities};
use evaluator::search::{Lookahead, FILTERS_NORMAL};
use evaluator::{Evaluator, PositionClass};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::errors::{detached, file_error, guard, value_error};
use crate::nets::PyWeights;
use crate::position as convert;
use crate::position::{dice, PyMove};

/// Positions per `evaluate_all` call in a batch, as `evaluator bench` times it.
const CHUNK: usize = 64;

/// gnubg's 0-ply cubeless evaluator (with lookahead on request): a weights file's nets
/// and the one- and two-sided bearoff databases.
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
    file_error(e)
}

impl PyEvaluator {
    /// Evaluates `positions` (0-ply in chunks of 64 through `evaluate_all`, else each
    /// searched `plies` deep) in parallel; returns the probabilities and classes.
    fn run(&self, positions: &[Position], plies: u32) -> Result<(Vec<f32>, Vec<u8>), EvalError> {
        let n = positions.len();
        let mut probs = vec![0f32; n * 5];
        let mut classes = vec![0u8; n];
        let ev = &self.inner;
        positions
            .par_chunks(CHUNK)
            .zip(probs.par_chunks_mut(CHUNK * 5))
            .zip(classes.par_chunks_mut(CHUNK))
            .try_for_each(|((chunk, out), cls)| -> Result<(), EvalError> {
                if plies == 0 {
                    thread_local! {
                        static RESULTS: std::cell::RefCell<Vec<(Probabilities, PositionClass)>> =
                            const { std::cell::RefCell::new(Vec::new()) };
                    }
                    RESULTS.with(|r| {
                        let mut r = r.borrow_mut();
                        ev.evaluate_all(chunk, &mut r)?;
                        for ((p, c), (o, k)) in r.iter().zip(out.chunks_mut(5).zip(cls.iter_mut())) {
                            o.copy_from_slice(p);
                            *k = *c as u8;
                        }
                        Ok(())
                    })
                } else {
                    for ((pos, o), k) in chunk.iter().zip(out.chunks_mut(5)).zip(cls.iter_mut()) {
                        o.copy_from_slice(&ev.evaluate_plied(pos, plies, Lookahead::default())?);
                        *k = ev.classify(pos) as u8;
                    }
                    Ok(())
                }
            })?;
        Ok((probs, classes))
    }
}

#[pymethods]
impl PyEvaluator {
    /// An evaluator from a weights file (``gnubg.wd`` or ``gnubg.weights``; a path or
    /// a :class:`Weights`) and the bearoff databases ``gnubg_os0.bd`` and
    /// ``gnubg_ts0.bd``. A file not given is looked for as the ``evaluator`` command
    /// does: ``$BGKIT_DATA``, then gnubg's install directories. ``no_bearoff=True``
    /// uses no databases (race net everywhere; not gnubg's answers). Raises
    /// ``bgkit.FileError`` naming a file that is missing or damaged.
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
            let given = match weights {
                Some(w) => match w.cast::<PyWeights>() {
                    Ok(w) => Err(w.get().inner.clone()),
                    Err(_) => Ok(w.extract::<PathBuf>()?),
                },
                None => Ok(PathBuf::new()),
            };
            let opts = EngineOptions {
                weights: match &given {
                    Ok(p) if p.as_os_str().is_empty() => None,
                    Ok(p) => Some(p.clone()),
                    Err(_) => Some(PathBuf::from("(in memory)")),
                },
                bearoff_os,
                bearoff_ts,
                no_bearoff,
            };
            let (inner, weights_name) = detached(
                py,
                || {
                    let files = opts.files()?;
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
    /// of Position IDs / ``Position``s. Returns a ``(n, 5)`` float32 array (win, win
    /// gammon, win backgammon, lose gammon, lose backgammon; cumulative, side on
    /// roll's view). 0-ply runs 64 positions per call of the engine's batched path,
    /// on all cores, without the GIL; ``plies`` > 0 searches deeper (gnubg's pruning).
    #[pyo3(signature = (positions, plies=0))]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        plies: u32,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        guard(|| {
            let positions = convert::positions_of(positions)?;
            let n = positions.len();
            let (probs, _) = detached(py, || self.run(&positions, plies), eval_error)?;
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
    /// or ``None`` when no move is legal.
    #[pyo3(signature = (position, die1, die2, plies=0))]
    fn best_move(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        die1: u8,
        die2: u8,
        plies: u32,
    ) -> PyResult<Option<(PyMove, f32)>> {
        guard(|| {
            let pos = convert::one_position(position)?;
            let d = dice(die1, die2)?;
            if plies > 4 {
                return Err(value_error(format!("plies {plies}: at most 4")));
            }
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

/// The hidden-layer kernel in use: ``"Scalar"``, ``"Avx2"`` or ``"Avx512"``
/// (``BGKIT_SIMD`` forces one, as for the command-line tools).
#[pyfunction]
pub fn simd_kernel() -> String {
    format!("{:?}", evaluator::simd::kernel())
}

/// The 4,096 contact positions ``evaluator bench`` times, as a ``(4096, 2, 25)``
/// board array.
#[pyfunction]
pub fn bench_positions(py: Python<'_>) -> PyResult<Bound<'_, numpy::PyArray3<u8>>> {
    guard(|| Ok(convert::to_boards(py, &evaluator::corpus::contact_positions())))
}

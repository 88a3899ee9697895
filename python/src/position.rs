//! Positions, their identifiers and legal moves (board crate).

use board::{Dice, MatchState, Position, Xgid};
use numpy::{PyArray2, PyArray3};
use pyo3::prelude::*;

use crate::convert;
use crate::errors::{guard, value_error};

/// A backgammon position in gnubg's layout: ``board[1]`` is the side on roll,
/// ``board[0]`` the side not on roll, each a 25-slot array counted from that side's
/// own ace point (index 24: its bar). Immutable and hashable.
#[pyclass(name = "Position", module = "bgkit", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub inner: Position,
}

/// One legal move: its notation and the position right after it, still from the
/// mover's side (call ``result.swapped()`` to give the opponent the roll).
#[pyclass(name = "Move", module = "bgkit", frozen)]
pub struct PyMove {
    /// Standard notation, e.g. ``"24/18 13/11"``.
    #[pyo3(get)]
    pub notation: String,
    /// gnubg's notation, e.g. ``"24/18 13/11"`` or ``"24/18(2) 13/7(2)"``.
    #[pyo3(get)]
    pub gnubg_notation: String,
    /// The position right after the move, mover still in ``board[1]``.
    #[pyo3(get)]
    pub result: PyPosition,
    /// How many opposing checkers the move hits.
    #[pyo3(get)]
    pub hits: usize,
}

impl PyMove {
    pub fn of(m: &board::Move) -> PyMove {
        PyMove {
            notation: m.notation(),
            gnubg_notation: m.gnubg_notation(),
            result: PyPosition { inner: m.result },
            hits: m.hits(),
        }
    }
}

#[pymethods]
impl PyMove {
    fn __repr__(&self) -> String {
        format!(
            "Move({:?}, result={})",
            self.gnubg_notation,
            self.result.inner.position_id()
        )
    }
}

pub fn dice(d1: u8, d2: u8) -> PyResult<Dice> {
    Dice::new(d1, d2).map_err(value_error)
}

#[pymethods]
impl PyPosition {
    /// A position from a ``(2, 25)`` board (``board[1]`` on roll), a Position ID, or
    /// another ``Position``; raises ``ValueError`` if it breaks the rules.
    #[new]
    fn new(value: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        guard(|| {
            Ok(PyPosition {
                inner: convert::one_position(value)?,
            })
        })
    }

    /// The position of a gnubg Position ID (14 characters); ``ValueError`` naming the
    /// ID if it is not one.
    #[staticmethod]
    fn from_id(id: &str) -> PyResult<PyPosition> {
        guard(|| {
            Ok(PyPosition {
                inner: Position::from_id(id).map_err(value_error)?,
            })
        })
    }

    /// The position of an XGID (with or without ``XGID=``), the player whose turn it
    /// is on roll.
    #[staticmethod]
    fn from_xgid(xgid: &str) -> PyResult<PyPosition> {
        guard(|| {
            Ok(PyPosition {
                inner: Xgid::parse(xgid).map_err(value_error)?.position,
            })
        })
    }

    /// The standard starting position.
    #[staticmethod]
    fn start() -> PyPosition {
        PyPosition {
            inner: board::Variant::Backgammon.start(),
        }
    }

    /// The gnubg Position ID.
    #[getter]
    fn position_id(&self) -> String {
        self.inner.position_id()
    }

    /// The XGID of this position in a money game, cube centred at 1, no dice rolled,
    /// the side on roll as XG's player 1 (upper case, turn 1).
    fn xgid(&self) -> String {
        Xgid {
            position: self.inner,
            state: MatchState {
                on_roll: 1,
                ..MatchState::default()
            },
            beaver: false,
            max_cube: 10,
        }
        .to_xgid()
    }

    /// The board as a new ``(2, 25)`` uint8 array (``[1]`` on roll).
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let b: Bound<'py, PyArray3<u8>> = convert::to_boards(py, &[self.inner]);
        use numpy::PyArrayMethods;
        b.reshape([2, 25])
    }

    /// Pip counts ``(on roll, not on roll)``.
    #[getter]
    fn pips(&self) -> (u32, u32) {
        (
            self.inner.pips(board::Player::OnRoll),
            self.inner.pips(board::Player::Opponent),
        )
    }

    /// The same board with the other side on roll.
    fn swapped(&self) -> PyPosition {
        PyPosition {
            inner: self.inner.swapped(),
        }
    }

    /// The legal moves for a roll, in gnubg's order, one per distinct resulting
    /// position (empty when no move is legal).
    fn legal_moves(&self, die1: u8, die2: u8) -> PyResult<Vec<PyMove>> {
        guard(|| {
            Ok(self
                .inner
                .legal_moves(dice(die1, die2)?)
                .iter()
                .map(PyMove::of)
                .collect())
        })
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.inner.position_id())
    }

    /// The board drawn as text (as ``evaluator eval`` shows it).
    fn __str__(&self) -> String {
        board::render(&self.inner, board::Variant::Backgammon)
    }
}

/// Boards of Position IDs (or ``Position``s) as a ``(n, 2, 25)`` uint8 array.
#[pyfunction]
pub fn boards<'py>(py: Python<'py>, positions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray3<u8>>> {
    guard(|| Ok(convert::to_boards(py, &convert::positions(positions)?)))
}

/// Position IDs of a batch (a ``(n, 2, 25)`` uint8 array or a list of positions).
#[pyfunction]
pub fn position_ids(positions: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    guard(|| {
        Ok(convert::positions(positions)?
            .iter()
            .map(Position::position_id)
            .collect())
    })
}

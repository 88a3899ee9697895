//! Positions, their identifiers and legal moves (board crate), and how positions are
//! given from Python: texts (Position IDs, `PositionID:MatchID`, XGIDs), `Position`
//! objects and NumPy boards of shape `(n, 2, 25)` (gnubg's layout: `[i, 0]` the side
//! not on roll, `[i, 1]` the side on roll, each counted from its own ace point, index
//! 24 its bar).

use board::{Dice, MatchState, Position, Xgid};
use numpy::ndarray::Array3;
use numpy::{
    IntoPyArray, PyArray2, PyArray3, PyReadonlyArray2, PyReadonlyArray3, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use rayon::prelude::*;

use crate::errors::{guard, value_error};

/// A backgammon position in gnubg's layout: ``board[1]`` is the side on roll,
/// ``board[0]`` the side not on roll, each a 25-slot array counted from that side's
/// own ace point (index 24: its bar). Immutable and hashable.
///
/// A position from a ``(2, 25)`` board (``board[1]`` on roll), a text (a Position
/// ID, ``PositionID:MatchID`` as gnubg shows them, or an XGID: the board only, the
/// player whose turn it is on roll), or another ``Position``; raises
/// ``ValueError`` if it breaks the rules.
#[pyclass(name = "Position", module = "bgkit", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub inner: Position,
}

/// One legal move: its notation and the position right after it, still from the
/// mover's side (call ``result.swapped()`` to give the opponent the roll).
#[pyclass(name = "Move", module = "bgkit", frozen)]
pub struct PyMove {
    /// Standard notation, e.g. ``"24/18, 13/11"`` (as ``evaluator moves`` writes it).
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

/// The roll `d1`, `d2` (Python ints), or `ValueError` naming it.
pub fn dice(d1: i64, d2: i64) -> PyResult<Dice> {
    Dice::from_ints(d1, d2).map_err(value_error)
}

#[pymethods]
impl PyPosition {
    #[new]
    fn new(value: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        guard(|| {
            Ok(PyPosition {
                inner: one_position(value)?,
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

    /// Pickled as its Position ID (multiprocessing, PyTorch's DataLoader workers).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().inner.position_id(),)))
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
        let b: Bound<'py, PyArray3<u8>> = to_boards(py, &[self.inner]);
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
    fn legal_moves(&self, die1: i64, die2: i64) -> PyResult<Vec<PyMove>> {
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

/// Boards of positions (Position IDs, ``PositionID:MatchID``, XGIDs or ``Position``s)
/// as a ``(n, 2, 25)`` uint8 array.
#[pyfunction]
pub fn boards<'py>(py: Python<'py>, positions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray3<u8>>> {
    guard(|| Ok(to_boards(py, &positions_of(positions)?)))
}

/// Position IDs of a batch (a ``(n, 2, 25)`` uint8 array or a list of positions).
#[pyfunction]
pub fn position_ids(positions: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    guard(|| {
        Ok(positions_of(positions)?
            .iter()
            .map(Position::position_id)
            .collect())
    })
}

/// One position given as a text (Position ID, `PositionID:MatchID` or XGID:
/// `board::parse_any_id`, the CLI's reading), a `Position` or a `(2, 25)` board.
pub fn one_position(obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().inner);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return board::parse_any_id(&s.to_cow()?)
            .map(|id| id.position)
            .map_err(value_error);
    }
    if let Ok(a) = obj.extract::<PyReadonlyArray2<u8>>() {
        let v = a.as_array();
        if v.shape() != [2, 25] {
            return Err(value_error(format!(
                "a board has shape (2, 25), got {}",
                shape_text(v.shape())
            )));
        }
        let row: Vec<u8> = v.iter().copied().collect();
        return Position::from_slices(&row[..25], &row[25..]).map_err(value_error);
    }
    Err(value_error(format!(
        "a position is a Position ID, PositionID:MatchID or XGID (str), a bgkit.Position or a (2, 25) uint8 board, got {}",
        what_is(obj)?
    )))
}

/// A batch given as a `(n, 2, 25)` uint8 array, or a list/tuple of IDs, `Position`s or
/// boards. A bad entry raises `ValueError` naming it and its index.
pub fn positions_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    if let Ok(a) = obj.extract::<PyReadonlyArray3<u8>>() {
        return positions_of_boards(&a);
    }
    if obj.is_instance_of::<PyString>() || obj.cast::<PyPosition>().is_ok() {
        return Ok(vec![one_position(obj)?]);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::with_capacity(obj.len()?);
        for (i, item) in obj.try_iter()?.enumerate() {
            let item = item?;
            out.push(
                one_position(&item)
                    .map_err(|e| value_error(format!("position {i}: {}", e.value(obj.py()))))?,
            );
        }
        return Ok(out);
    }
    Err(value_error(format!(
        "positions are a (n, 2, 25) uint8 array or a list of Position IDs (or PositionID:MatchID, XGIDs), Positions or boards, got {}",
        what_is(obj)?
    )))
}

/// A shape in Python's notation: `(3, 2, 25)`, `(5,)`.
pub fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// An object's type for an error message; for a NumPy array, its shape and dtype
/// (`an array of shape (3, 2, 25) and dtype int64`), which is what is usually wrong.
pub fn what_is(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(match obj.cast::<PyUntypedArray>() {
        // Python's notation of a shape: (3, 2, 25), (5,).
        Ok(a) => format!(
            "an array of shape {} and dtype {}",
            a.getattr("shape")?.repr()?,
            a.dtype()
        ),
        Err(_) => obj.get_type().name()?.to_string(),
    })
}

/// The positions of a `(n, 2, 25)` board array, each validated.
pub fn positions_of_boards(a: &PyReadonlyArray3<u8>) -> PyResult<Vec<Position>> {
    let raw = board_bytes(a)?;
    a.py()
        .detach(|| {
            // Filled in place, 256 boards per task (a collect into a Result<Vec> costs
            // more than the checks); on a bad board, the first one is named.
            let mut out = vec![Position::EMPTY; raw.len() / 50];
            let checked = out
                .par_chunks_mut(256)
                .zip(raw.par_chunks(50 * 256))
                .try_for_each(|(ps, bytes)| fill_positions(ps, bytes));
            match checked {
                Ok(()) => Ok(out),
                Err(()) => Err(first_bad_board(&raw)),
            }
        })
        .map_err(value_error)
}

/// The bytes of a `(n, 2, 25)` board array, row after row: one copy while the GIL is
/// held (Python may change the array afterwards), to be checked and used without it.
pub fn board_bytes(a: &PyReadonlyArray3<u8>) -> PyResult<Vec<u8>> {
    if a.shape()[1..] != [2, 25] {
        return Err(value_error(format!(
            "boards have shape (n, 2, 25), got {}",
            shape_text(a.shape())
        )));
    }
    // `as_slice` hands back a Fortran-ordered array's memory too, in memory order: only
    // a C-ordered one is read as a slice.
    Ok(match a.as_slice() {
        Ok(s) if a.is_c_contiguous() => s.to_vec(),
        _ => a.as_array().iter().copied().collect(),
    })
}

/// Fills `out` with the positions of `bytes` (50 per board), each validated; `Err` at
/// the first bad board (which [`first_bad_board`] names).
pub fn fill_positions(out: &mut [Position], bytes: &[u8]) -> Result<(), ()> {
    for (p, r) in out.iter_mut().zip(bytes.chunks_exact(50)) {
        *p = Position::from_slices(&r[..25], &r[25..]).map_err(|_| ())?;
    }
    Ok(())
}

/// `board I: why` for the first invalid board of `raw` (50 bytes a board).
pub fn first_bad_board(raw: &[u8]) -> String {
    raw.chunks_exact(50)
        .enumerate()
        .find_map(|(i, r)| {
            Position::from_slices(&r[..25], &r[25..])
                .err()
                .map(|e| format!("board {i}: {e}"))
        })
        .unwrap_or_else(|| "a board is not valid".to_string())
}

/// Boards of positions as a `(n, 2, 25)` uint8 array.
pub fn to_boards<'py>(py: Python<'py>, positions: &[Position]) -> Bound<'py, PyArray3<u8>> {
    let mut raw = Vec::with_capacity(positions.len() * 50);
    for p in positions {
        for side in p.sides() {
            raw.extend_from_slice(side);
        }
    }
    Array3::from_shape_vec((positions.len(), 2, 25), raw)
        .expect("50 bytes a position")
        .into_pyarray(py)
}

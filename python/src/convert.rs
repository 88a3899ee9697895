//! Positions to and from Python values: Position IDs, `Position` objects and NumPy
//! boards of shape `(n, 2, 25)` (gnubg's layout: `[i, 0]` the side not on roll, `[i, 1]`
//! the side on roll, each counted from its own ace point, index 24 its bar).

use board::Position;
use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray3, PyReadonlyArray2, PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::errors::value_error;
use crate::position::PyPosition;

/// One position given as an ID, a `Position` or a `(2, 25)` board.
pub fn one_position(obj: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().inner);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Position::from_id(&s.to_cow()?).map_err(value_error);
    }
    if let Ok(a) = obj.extract::<PyReadonlyArray2<u8>>() {
        let v = a.as_array();
        if v.shape() != [2, 25] {
            return Err(value_error(format!(
                "a board has shape (2, 25), got {:?}",
                v.shape()
            )));
        }
        let row: Vec<u8> = v.iter().copied().collect();
        return Position::from_slices(&row[..25], &row[25..]).map_err(value_error);
    }
    Err(value_error(format!(
        "a position is a Position ID (str), a bgkit.Position or a (2, 25) uint8 board, got {}",
        obj.get_type().name()?
    )))
}

/// A batch given as a `(n, 2, 25)` uint8 array, or a list/tuple of IDs, `Position`s or
/// boards. A bad entry raises `ValueError` naming it and its index.
pub fn positions(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Position>> {
    if let Ok(a) = obj.extract::<PyReadonlyArray3<u8>>() {
        return boards(&a);
    }
    if obj.is_instance_of::<PyString>() || obj.cast::<PyPosition>().is_ok() {
        return Ok(vec![one_position(obj)?]);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::with_capacity(obj.len()?);
        for (i, item) in obj.try_iter()?.enumerate() {
            let item = item?;
            out.push(one_position(&item).map_err(|e| value_error(format!("position {i}: {e}")))?);
        }
        return Ok(out);
    }
    Err(value_error(format!(
        "positions are a (n, 2, 25) uint8 array or a list of Position IDs, Positions or boards, got {}",
        obj.get_type().name()?
    )))
}

/// The positions of a `(n, 2, 25)` board array, each validated.
pub fn boards(a: &PyReadonlyArray3<u8>) -> PyResult<Vec<Position>> {
    if a.shape()[1..] != [2, 25] {
        return Err(value_error(format!(
            "boards have shape (n, 2, 25), got {:?}",
            a.shape()
        )));
    }
    let v = a.as_array();
    let mut out = Vec::with_capacity(v.shape()[0]);
    let mut row = [0u8; 50];
    for (i, b) in v.outer_iter().enumerate() {
        for (d, s) in row.iter_mut().zip(b.iter()) {
            *d = *s;
        }
        let pos = Position::from_slices(&row[..25], &row[25..])
            .map_err(|e| value_error(format!("board {i}: {e}")))?;
        out.push(pos);
    }
    Ok(out)
}

/// Boards of positions as a `(n, 2, 25)` uint8 array.
pub fn to_boards<'py>(py: Python<'py>, positions: &[Position]) -> Bound<'py, PyArray3<u8>> {
    let mut a = Array3::<u8>::zeros((positions.len(), 2, 25));
    for (mut b, p) in a.outer_iter_mut().zip(positions) {
        for (s, side) in p.sides().iter().enumerate() {
            for (k, &c) in side.iter().enumerate() {
                b[[s, k]] = c;
            }
        }
    }
    a.into_pyarray(py)
}

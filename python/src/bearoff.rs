//! Bearoff databases (gen-bearoff crate's memory-mapped readers): one-sided
//! distributions and two-sided equities, in gnubg's files or bgkit's.

use std::path::PathBuf;

use gen_bearoff::{BearoffDb, BearoffError, OneSidedDb, TwoSidedDb};
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::errors::{existing, file_error, guard, value_error};
use crate::position as convert;

/// A one-sided bearoff database (``gnubg_os0.bd`` or one ``gen-bearoff`` wrote), mapped.
///
/// Maps a one-sided database; ``bgkit.FileError`` naming the file if it is not one
/// or is damaged.
#[pyclass(name = "OneSidedDb", module = "bgkit", frozen)]
pub struct PyOneSided {
    inner: OneSidedDb,
}

/// A two-sided bearoff database (``gnubg_ts0.bd`` or one ``gen-bearoff`` wrote), mapped.
///
/// Maps a two-sided database; ``bgkit.FileError`` naming the file if it is not one
/// or is damaged.
#[pyclass(name = "TwoSidedDb", module = "bgkit", frozen)]
pub struct PyTwoSided {
    inner: TwoSidedDb,
}

/// A position or side outside the database is a bad value; anything else is the file's.
fn lookup_error(e: BearoffError) -> PyErr {
    match e {
        BearoffError::NotCovered(_) | BearoffError::IndexOutOfRange { .. } => value_error(e),
        e => file_error(e),
    }
}

fn open(path: &PathBuf) -> PyResult<BearoffDb> {
    BearoffDb::open(path).map_err(file_error)
}

/// Two float32 arrays (bear-off and gammon distributions).
type Pair<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<f32>>);

/// One side's checkers: a sequence of up to 25 counts, index ``i`` = point ``i + 1``
/// counted from that side's ace point.
fn side(v: Vec<i64>) -> PyResult<[u8; 25]> {
    if v.len() > 25 {
        return Err(value_error(format!(
            "a side has at most 25 slots, got {}",
            v.len()
        )));
    }
    let mut s = [0u8; 25];
    for (i, (d, &n)) in s.iter_mut().zip(&v).enumerate() {
        *d = u8::try_from(n)
            .map_err(|_| value_error(format!("side[{i}] is {n}: a count of checkers is 0 to 15")))?;
    }
    Ok(s)
}

#[pymethods]
impl PyOneSided {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<PyOneSided> {
        let path = existing(py, "path", path)?;
        guard(|| match open(&path)? {
            BearoffDb::OneSided(inner) => Ok(PyOneSided { inner }),
            _ => Err(file_error(format!(
                "{}: not a one-sided bearoff database",
                path.display()
            ))),
        })
    }

    /// ``(points, checkers)`` the database covers.
    #[getter]
    fn covers(&self) -> (usize, usize) {
        let p = self.inner.params();
        (p.points as usize, p.checkers as usize)
    }

    fn __len__(&self) -> usize {
        self.inner.count() as usize
    }

    /// The database's index of one side (``side[i]`` checkers on point ``i + 1``);
    /// ``ValueError`` if the database does not cover it.
    fn index_of(&self, side: Vec<i64>) -> PyResult<u64> {
        guard(|| self.inner.index_of(&self::side(side)?).map_err(lookup_error))
    }

    /// The side's distributions as gnubg reads them: ``(bearoff, gammon)``, two
    /// ``(32,)`` float32 arrays, the probability of bearing off all checkers
    /// (``gammon``: the first checker) in exactly ``n`` rolls.
    fn distribution<'py>(&self, py: Python<'py>, side: Vec<i64>) -> PyResult<Pair<'py>> {
        guard(|| {
            let i = self.inner.index_of(&self::side(side)?).map_err(lookup_error)?;
            let p = self.inner.probabilities(i).map_err(lookup_error)?;
            Ok((
                PyArray1::from_slice(py, &p.bearoff),
                PyArray1::from_slice(py, &p.gammon),
            ))
        })
    }

    /// gnubg's one-sided evaluation of a position where both sides are covered:
    /// ``(5,)`` float32, side on roll's view.
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        guard(|| {
            let pos = convert::one_position(position)?;
            Ok(PyArray1::from_slice(
                py,
                &self.inner.evaluate(&pos).map_err(lookup_error)?,
            ))
        })
    }
}

#[pymethods]
impl PyTwoSided {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<PyTwoSided> {
        let path = existing(py, "path", path)?;
        guard(|| match open(&path)? {
            BearoffDb::TwoSided(inner) => Ok(PyTwoSided { inner }),
            _ => Err(file_error(format!(
                "{}: not a two-sided bearoff database",
                path.display()
            ))),
        })
    }

    /// ``(points, checkers)`` the database covers.
    #[getter]
    fn covers(&self) -> (usize, usize) {
        let p = self.inner.params();
        (p.points as usize, p.checkers as usize)
    }

    fn __len__(&self) -> usize {
        self.inner.count() as usize
    }

    /// The stored equities of a position (side on roll's view, per unit cube, no
    /// double this turn): a dict with ``cubeless`` (``2p - 1``), ``win`` and, in
    /// cubeful files, ``owned``, ``centred``, ``opponent_owns``. ``ValueError`` if the
    /// database does not cover the position.
    fn equities(
        &self,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<std::collections::BTreeMap<&'static str, f32>> {
        guard(|| {
            let pos = convert::one_position(position)?;
            let e = self.inner.equities_of(&pos).map_err(lookup_error)?;
            let mut out = std::collections::BTreeMap::new();
            out.insert("cubeless", e.cubeless());
            out.insert("win", e.win_probability());
            for (k, v) in [
                ("owned", e.owned()),
                ("centred", e.centred()),
                ("opponent_owns", e.opponent_owns()),
            ] {
                if let Some(v) = v {
                    out.insert(k, v);
                }
            }
            Ok(out)
        })
    }
}

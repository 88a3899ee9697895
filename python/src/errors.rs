//! How Rust errors and panics become Python exceptions: a bad value (an ID, a board,
//! dice, an array of the wrong shape) raises `ValueError`, a file that is missing,
//! unreadable or damaged raises `bgkit.FileError` (a subclass of `OSError`), each with
//! the Rust message, which names the ID or the file. A panic never crosses into Python:
//! every entry point runs under [`guard`], which turns one into `RuntimeError`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use pyo3::exceptions::{PyFileNotFoundError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

pyo3::create_exception!(
    bgkit,
    FileError,
    pyo3::exceptions::PyOSError,
    "A file is missing, unreadable or damaged; the message names it and says what is wrong."
);

/// `ValueError` with the error's message.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `bgkit.FileError` with the error's message.
pub fn file_error(e: impl std::fmt::Display) -> PyErr {
    FileError::new_err(e.to_string())
}

/// `bgkit.FileMissingError`: a file given by path is not there. A subclass of both
/// [`FileError`] and Python's `FileNotFoundError` (made with `type()`, as a class with
/// two bases cannot be declared here), so `except FileNotFoundError` catches it too;
/// `errno` and `filename` are set.
static FILE_MISSING: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Creates `FileMissingError` and adds it to the module `m`.
pub fn add_file_missing(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let bases = PyTuple::new(
        py,
        [py.get_type::<FileError>(), py.get_type::<PyFileNotFoundError>()],
    )?;
    let attrs = PyDict::new(py);
    attrs.set_item("__module__", "bgkit")?;
    attrs.set_item(
        "__doc__",
        "A file given by path is not there: a bgkit.FileError and a FileNotFoundError (errno, filename set).",
    )?;
    let ty = py
        .get_type::<PyType>()
        .call1(("FileMissingError", bases, attrs))?
        .cast_into::<PyType>()?;
    m.add("FileMissingError", &ty)?;
    FILE_MISSING
        .set(py, ty.unbind())
        .map_err(|_| PyRuntimeError::new_err("bgkit: FileMissingError made twice"))
}

/// An input file's path: [`nonempty`], and there (else `bgkit.FileMissingError` with
/// Python's own message, `[Errno 2] No such file or directory: 'PATH'`). Other
/// problems (unreadable, damaged) are found when it is opened.
pub fn existing(py: Python<'_>, arg: &str, path: PathBuf) -> PyResult<PathBuf> {
    let path = nonempty(arg, path)?;
    if path.try_exists().unwrap_or(true) {
        return Ok(path);
    }
    let ty = FILE_MISSING
        .get(py)
        .ok_or_else(|| PyRuntimeError::new_err("bgkit: FileMissingError not made"))?;
    Err(PyErr::from_type(
        ty.bind(py).clone(),
        (2, "No such file or directory", path.display().to_string()),
    ))
}

/// `path`, or `ValueError` naming the argument `arg` if it is empty (an empty path
/// names no file; the command-line tools refuse an empty value too).
pub fn nonempty(arg: &str, path: PathBuf) -> PyResult<PathBuf> {
    if path.as_os_str().is_empty() {
        return Err(value_error(format!("{arg}: an empty path names no file")));
    }
    Ok(path)
}

/// The integer argument `arg` as a `T`, or `ValueError` naming it and the value when
/// it is outside `T`'s range (a Python int can be anything; PyO3 would raise a bare
/// `OverflowError`).
pub fn int_arg<T: TryFrom<i128>>(arg: &str, value: i128, range: &str) -> PyResult<T> {
    T::try_from(value).map_err(|_| value_error(format!("{arg} {value} is out of range ({range})")))
}

/// Runs `f`, turning a panic into `RuntimeError` (it would be a bug in bgkit).
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(PyRuntimeError::new_err(format!("bgkit internal error: {msg}")))
        }
    }
}

/// [`guard`] for work run without the GIL: `f` returns a plain `Result` whose error is
/// made into a Python exception by `to_py` once the GIL is held again.
pub fn detached<T: Send, E: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, E> + Send,
    to_py: impl FnOnce(E) -> PyErr,
) -> PyResult<T> {
    let out = py.detach(|| catch_unwind(AssertUnwindSafe(f)));
    match out {
        Ok(r) => r.map_err(to_py),
        Err(payload) => guard(|| std::panic::resume_unwind(payload)),
    }
}

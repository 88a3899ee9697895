//! bgkit for Python: a PyO3 extension module (``bgkit._bgkit``, re-exported as
//! ``bgkit``) that is a thin layer over the Rust crates, with no rules of its own.
//! It owns only the conversions between Python/NumPy values and the crates' types:
//!
//! * [`position`]: positions, Position IDs, XGIDs, legal moves (board), and the
//!   conversions of positions given from Python;
//! * [`evaluate`]: the evaluator, batch evaluation without the GIL, best moves
//!   (evaluator);
//! * [`inputs`]: gnubg's input encodings for a batch (evaluator, trainer);
//! * [`dataset`]: ``.bgds`` files as NumPy arrays without a copy, text datasets,
//!   shuffled mini-batches (datasets, trainer);
//! * [`nets`]: nets from NumPy arrays and weights files (evaluator);
//! * [`bearoff`]: one- and two-sided database lookups (gen-bearoff);
//! * [`errors`]: exceptions (no panic crosses into Python).

use pyo3::prelude::*;

mod bearoff;
mod dataset;
mod errors;
mod evaluate;
mod inputs;
mod nets;
mod position;

#[pymodule]
fn _bgkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FileError", m.py().get_type::<errors::FileError>())?;
    errors::add_file_missing(m)?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<position::PyMove>()?;
    m.add_function(wrap_pyfunction!(position::boards, m)?)?;
    m.add_function(wrap_pyfunction!(position::position_ids, m)?)?;
    m.add_class::<evaluate::PyEvaluator>()?;
    m.add_function(wrap_pyfunction!(evaluate::simd_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate::bench_positions, m)?)?;
    m.add_function(wrap_pyfunction!(inputs::inputs, m)?)?;
    m.add_class::<dataset::PyDataset>()?;
    m.add_class::<dataset::PySamples>()?;
    m.add_class::<dataset::Batches>()?;
    m.add_function(wrap_pyfunction!(dataset::read_dataset, m)?)?;
    m.add("BGDS_HEADER_SIZE", dataset::BGDS_HEADER)?;
    m.add_class::<nets::PyNet>()?;
    m.add_class::<nets::PyWeights>()?;
    m.add_class::<bearoff::PyOneSided>()?;
    m.add_class::<bearoff::PyTwoSided>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

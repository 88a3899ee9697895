//! Training data (datasets crate): a binary ``.bgds`` file mapped into memory and
//! shown as NumPy arrays without a copy; CSV and gnubg-nn text read into memory; and
//! shuffled mini-batches of net inputs and targets in the trainer's epoch order.

use std::path::PathBuf;
use std::sync::Arc;

use board::Position;
use datasets::format::binary::{BinaryDataset, Record, HEADER_SIZE};
use datasets::format::{Format, Input, Sample};
use numpy::ndarray::{ArrayView, Dim, Dimension, ShapeBuilder};
use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};

use crate::errors::{existing, file_error, guard, int_arg, value_error};
use crate::inputs::{self, Kind};
use crate::position as convert;

/// Labelled positions, by index.
pub trait Source: Send + Sync {
    fn len(&self) -> usize;
    /// Position `i` (an error text if its key is invalid) and its five targets.
    fn get(&self, i: usize) -> Result<(Position, [f32; 5]), String>;
}

impl Source for BinaryDataset {
    fn len(&self) -> usize {
        BinaryDataset::len(self)
    }
    fn get(&self, i: usize) -> Result<(Position, [f32; 5]), String> {
        let r = &self.records()[i];
        Ok((
            r.position().map_err(|e| format!("record {}: {e}", i + 1))?,
            r.probs,
        ))
    }
}

impl Source for Vec<Sample> {
    fn len(&self) -> usize {
        <[Sample]>::len(self)
    }
    fn get(&self, i: usize) -> Result<(Position, [f32; 5]), String> {
        Ok((self[i].position, self[i].probs))
    }
}

/// A ``.bgds`` file mapped into memory. Its columns are NumPy arrays over the mapped
/// records, read-only, without a copy (each array's ``base`` is this object, which
/// keeps the file mapped). ``bgkit.FileError`` naming the file if it is damaged.
///
/// Maps and checks a ``.bgds`` file (header, size, checksum, every record's
/// values).
#[pyclass(name = "Dataset", module = "bgkit", frozen)]
pub struct PyDataset {
    inner: Arc<BinaryDataset>,
    path: PathBuf,
    /// The path made absolute when the file was opened (what a pickle holds).
    absolute: PathBuf,
}

impl PyDataset {
    /// A read-only array over the records' field at byte `offset` (shape and strides
    /// in `T`s), whose base is `slf`.
    fn column<'py, T: Element, D: Dimension>(
        slf: &Bound<'py, Self>,
        offset: usize,
        shape: D,
        strides: D,
    ) -> PyResult<Bound<'py, PyArray<T, D>>> {
        let ds = &slf.get().inner;
        let records: &[Record] = ds.records();
        let array = if records.is_empty() {
            // Nothing to view (an empty map has no address): an empty array, read-only
            // as the views are.
            PyArray::zeros(slf.py(), shape, false)
        } else {
            Self::view(slf, records, offset, shape, strides)
        };
        let kw = PyDict::new(slf.py());
        kw.set_item("write", false)?;
        array.call_method("setflags", (), Some(&kw))?;
        Ok(array)
    }

    /// A column of the mapped, non-empty `records` as an array borrowing `slf`.
    fn view<'py, T: Element, D: Dimension>(
        slf: &Bound<'py, Self>,
        records: &[Record],
        offset: usize,
        shape: D,
        strides: D,
    ) -> Bound<'py, PyArray<T, D>> {
        let base = records.as_ptr().cast::<u8>();
        // SAFETY: every index the shape and strides reach lies inside the mapped
        // records (offset + size of T within one 56-byte record, record index < n),
        // the field offsets are multiples of T's alignment within a record whose size
        // (56) is too, and the map is page aligned; the array borrows `slf`, which owns
        // the map, so the memory lives as long as the array; [`Self::column`] makes it
        // read-only.
        unsafe {
            let view =
                ArrayView::<T, D>::from_shape_ptr(shape.strides(strides), base.add(offset).cast::<T>());
            PyArray::borrow_from_array(&view, slf.clone().into_any())
        }
    }
}

/// Record size in `T`s: the records' stride for a column of `T`.
fn stride<T>() -> usize {
    std::mem::size_of::<Record>() / std::mem::size_of::<T>()
}

#[pymethods]
impl PyDataset {
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<PyDataset> {
        let path = existing(py, "path", path)?;
        guard(|| {
            let inner = py.detach(|| BinaryDataset::open(&path)).map_err(file_error)?;
            Ok(PyDataset {
                inner: Arc::new(inner),
                absolute: std::path::absolute(&path).unwrap_or_else(|_| path.clone()),
                path,
            })
        })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Pickled as its absolute path: unpickling maps and checks the file again (multiprocessing,
    /// PyTorch's DataLoader workers).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (PathBuf,))> {
        Ok((slf.get_type().into_any(), (slf.get().absolute.clone(),)))
    }

    /// The file's path.
    #[getter]
    fn path(&self) -> String {
        self.path.display().to_string()
    }

    /// Whether every record has standard errors.
    #[getter]
    fn has_se(&self) -> bool {
        self.inner.has_se()
    }

    /// The five probabilities (win, win gammon, win backgammon, lose gammon, lose
    /// backgammon), ``(n, 5)`` float32, no copy.
    #[getter]
    fn probs<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let n = slf.get().inner.len();
        Self::column(slf, 16, Dim([n, 5]), Dim([stride::<f32>(), 1]))
    }

    /// Their standard errors, ``(n, 5)`` float32 (zero where absent), no copy.
    #[getter]
    fn se<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let n = slf.get().inner.len();
        Self::column(slf, 36, Dim([n, 5]), Dim([stride::<f32>(), 1]))
    }

    /// Rollout trials per record, ``(n,)`` uint32 (0 unknown), no copy.
    #[getter]
    fn trials<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let n = slf.get().inner.len();
        Self::column(slf, 12, Dim([n]), Dim([stride::<u32>()]))
    }

    /// gnubg's class number per record under its default databases, ``(n,)`` uint8
    /// (4 two-sided bearoff, 6 one-sided bearoff, 8 race, 9 crashed, 10 contact), no
    /// copy.
    #[getter]
    fn classes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let n = slf.get().inner.len();
        Self::column(slf, 10, Dim([n]), Dim([stride::<u8>()]))
    }

    /// gnubg's 10-byte position keys, ``(n, 10)`` uint8, no copy.
    #[getter]
    fn keys<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let n = slf.get().inner.len();
        Self::column(slf, 0, Dim([n, 10]), Dim([stride::<u8>(), 1]))
    }

    /// Position IDs of the records at ``indices`` (all when omitted).
    #[pyo3(signature = (indices=None))]
    fn position_ids(&self, indices: Indices<'_>) -> PyResult<Vec<String>> {
        guard(|| {
            Ok(gather(&*self.inner, indices)?
                .iter()
                .map(Position::position_id)
                .collect())
        })
    }

    /// Boards of the records at ``indices`` (all when omitted), ``(n, 2, 25)`` uint8.
    #[pyo3(signature = (indices=None))]
    fn boards<'py>(
        &self,
        py: Python<'py>,
        indices: Indices<'py>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        guard(|| Ok(convert::to_boards(py, &gather(&*self.inner, indices)?)))
    }

    /// Shuffled mini-batches; see :func:`batches`.
    #[pyo3(signature = (batch_size, seed, epoch=0, net="contact", indices=None, fixed_pip_loss=false, drop_last=false))]
    #[allow(clippy::too_many_arguments)]
    fn batches(
        &self,
        batch_size: i128,
        seed: i128,
        epoch: i128,
        net: &str,
        indices: Indices<'_>,
        fixed_pip_loss: bool,
        drop_last: bool,
    ) -> PyResult<Batches> {
        Batches::new(
            self.inner.clone(),
            batch_size,
            seed,
            epoch,
            net,
            indices,
            fixed_pip_loss,
            drop_last,
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Dataset({:?}, {} records)",
            self.path.display().to_string(),
            self.inner.len()
        )
    }
}

/// Labelled positions read into memory from any dataset format (CSV, gnubg-nn text,
/// ``.bgds``).
#[pyclass(name = "Samples", module = "bgkit", frozen)]
pub struct PySamples {
    inner: Arc<Vec<Sample>>,
}

#[pymethods]
impl PySamples {
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// ``(n, 5)`` float32 probabilities (a copy).
    #[getter]
    fn probs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let v: Vec<f32> = self.inner.iter().flat_map(|s| s.probs).collect();
        PyArray1::from_vec(py, v).reshape([self.inner.len(), 5])
    }

    /// ``(n, 5)`` float32 standard errors, or ``None`` unless every sample has them.
    #[getter]
    fn se<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<f32>>>> {
        if self.inner.is_empty() || self.inner.iter().any(|s| s.se.is_none()) {
            return Ok(None);
        }
        let v: Vec<f32> = self.inner.iter().flat_map(|s| s.se.unwrap_or_default()).collect();
        Ok(Some(PyArray1::from_vec(py, v).reshape([self.inner.len(), 5])?))
    }

    /// ``(n,)`` uint32 rollout trials (0 unknown).
    #[getter]
    fn trials<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_vec(py, self.inner.iter().map(|s| s.trials).collect())
    }

    /// Position IDs.
    fn position_ids(&self) -> Vec<String> {
        self.inner.iter().map(|s| s.position.position_id()).collect()
    }

    /// Boards, ``(n, 2, 25)`` uint8.
    fn boards<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray3<u8>> {
        let p: Vec<Position> = self.inner.iter().map(|s| s.position).collect();
        convert::to_boards(py, &p)
    }

    /// Shuffled mini-batches; see :func:`batches`.
    #[pyo3(signature = (batch_size, seed, epoch=0, net="contact", indices=None, fixed_pip_loss=false, drop_last=false))]
    #[allow(clippy::too_many_arguments)]
    fn batches(
        &self,
        batch_size: i128,
        seed: i128,
        epoch: i128,
        net: &str,
        indices: Indices<'_>,
        fixed_pip_loss: bool,
        drop_last: bool,
    ) -> PyResult<Batches> {
        Batches::new(
            self.inner.clone(),
            batch_size,
            seed,
            epoch,
            net,
            indices,
            fixed_pip_loss,
            drop_last,
        )
    }
}

/// Reads a dataset into memory: ``format`` ``"csv"``, ``"gnubg-nn"`` or ``"binary"``,
/// else told from the file (binary magic, a CSV header, then the extension); a pipe
/// (``/dev/stdin``) is read once. ``bgkit.FileError`` naming the file and line of a bad
/// row.
#[pyfunction]
#[pyo3(signature = (path, format=None))]
pub fn read_dataset(py: Python<'_>, path: PathBuf, format: Option<&str>) -> PyResult<PySamples> {
    let path = existing(py, "path", path)?;
    guard(|| {
        let format = match format {
            None => None,
            Some("csv") => Some(Format::Csv),
            Some("gnubg-nn") => Some(Format::GnubgNn),
            Some("binary") => Some(Format::Binary),
            Some(f) => {
                return Err(value_error(format!(
                    "unknown format '{f}' (csv, gnubg-nn or binary)"
                )))
            }
        };
        let samples = py
            .detach(|| {
                let input = Input::open(&path)?;
                let f = match format {
                    Some(f) => f,
                    None => input.format()?,
                };
                input.samples(f)
            })
            .map_err(file_error)?;
        Ok(PySamples {
            inner: Arc::new(samples),
        })
    })
}

/// The positions at `indices` (all when `None`), checked against the source's length.
fn gather(src: &dyn Source, indices: Indices<'_>) -> PyResult<Vec<Position>> {
    let idx = checked_indices(src.len(), indices)?;
    idx.iter()
        .map(|&i| src.get(i as usize).map(|(p, _)| p).map_err(file_error))
        .collect()
}

/// Record numbers given from Python: an integer array (any integer dtype) or a list or
/// tuple of ints; `None` for all records.
type Indices<'py> = Option<Bound<'py, PyAny>>;

fn checked_indices(n: usize, indices: Indices<'_>) -> PyResult<Vec<u32>> {
    let Some(obj) = indices else {
        return Ok((0..n as u32).collect());
    };
    let list = index_list(&obj)?.ok_or_else(|| {
        let got = convert::what_is(&obj).unwrap_or_default();
        value_error(format!(
            "indices are record numbers: a 1-D integer array or a list of ints, got {got}"
        ))
    })?;
    list.into_iter()
        .map(|i| {
            if i < 0 || i >= n as i128 {
                Err(value_error(format!(
                    "index {i} out of range (the dataset has {n} records)"
                )))
            } else {
                Ok(i as u32)
            }
        })
        .collect()
}

/// The integers of a 1-D integer array (any integer dtype) or of a list or tuple of
/// ints; `None` for anything else (a boolean mask, floats, a str).
fn index_list(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<i128>>> {
    if let Ok(a) = obj.extract::<PyReadonlyArray1<'_, i64>>() {
        return Ok(Some(a.as_array().iter().map(|&i| i128::from(i)).collect()));
    }
    if let Ok(a) = obj.cast::<PyUntypedArray>() {
        if a.ndim() != 1 || !matches!(a.dtype().kind(), b'i' | b'u') {
            return Ok(None);
        }
    } else if !(obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(obj.len()?);
    for item in obj.try_iter()? {
        let item = item?;
        if item.is_instance_of::<PyBool>() {
            return Ok(None);
        }
        // i128: a uint64 or a huge int is an index out of range, not a wrong type.
        match item.extract::<i128>() {
            Ok(i) => out.push(i),
            Err(_) => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// An iterator over mini-batches ``(indices, inputs, targets)``: ``indices`` ``(b,)``
/// int64 record numbers, ``inputs`` ``(b, k)`` float32 (the net's inputs, as
/// :func:`inputs`), ``targets`` ``(b, 5)`` float32.
/// Threads may share one: each batch goes to one of them (the cursor is behind a
/// lock, held only to take a batch's record numbers).
#[pyclass(module = "bgkit", frozen)]
pub struct Batches {
    src: Arc<dyn Source>,
    order: Vec<u32>,
    at: std::sync::Mutex<usize>,
    batch_size: usize,
    kind: Kind,
    fixed_pip_loss: bool,
    drop_last: bool,
}

impl Batches {
    #[allow(clippy::too_many_arguments)]
    fn new(
        src: Arc<dyn Source>,
        batch_size: i128,
        seed: i128,
        epoch: i128,
        net: &str,
        indices: Indices<'_>,
        fixed_pip_loss: bool,
        drop_last: bool,
    ) -> PyResult<Batches> {
        guard(|| {
            let batch_size: usize = int_arg("batch_size", batch_size, "1 or more")?;
            let seed: u64 = int_arg("seed", seed, "0 to 2**64 - 1")?;
            let epoch: u32 = int_arg("epoch", epoch, "0 to 2**32 - 1")?;
            if batch_size == 0 {
                return Err(value_error("batch_size must be at least 1"));
            }
            let kind = Kind::parse(net)?;
            let chosen = checked_indices(src.len(), indices)?;
            // The trainer's epoch order (`trainer supervised`): Fisher–Yates with
            // SplitMix64 from the seed and the epoch.
            let order = trainer::supervised::order::epoch(&chosen, seed, epoch);
            Ok(Batches {
                src,
                order,
                at: std::sync::Mutex::new(0),
                batch_size,
                kind,
                fixed_pip_loss,
                drop_last,
            })
        })
    }
}

type Batch<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<f32>>,
);

#[pymethods]
impl Batches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __len__(&self) -> usize {
        let n = self.order.len();
        if self.drop_last {
            n / self.batch_size
        } else {
            n.div_ceil(self.batch_size)
        }
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Batch<'py>>> {
        guard(|| {
            let idx = {
                // A panic elsewhere cannot leave the cursor half-moved: it is one usize.
                let mut at = self.at.lock().unwrap_or_else(|e| e.into_inner());
                let left = self.order.len() - *at;
                if left == 0 || (self.drop_last && left < self.batch_size) {
                    return Ok(None);
                }
                let take = left.min(self.batch_size);
                *at += take;
                &self.order[*at - take..*at]
            };
            let take = idx.len();
            let (src, kind, fixed) = (&*self.src, self.kind, self.fixed_pip_loss);
            let (x, y) = py
                .detach(|| -> Result<_, String> {
                    let mut pos = Vec::with_capacity(idx.len());
                    let mut y = Vec::with_capacity(idx.len() * 5);
                    for &i in idx {
                        let (p, t) = src.get(i as usize)?;
                        pos.push(p);
                        y.extend_from_slice(&t);
                    }
                    Ok((inputs::encode(&pos, kind, fixed), y))
                })
                .map_err(file_error)?;
            let ids = PyArray1::from_vec(py, idx.iter().map(|&i| i64::from(i)).collect());
            let x = PyArray1::from_vec(py, x).reshape([take, kind.width()])?;
            let y = PyArray1::from_vec(py, y).reshape([take, 5])?;
            Ok(Some((ids, x, y)))
        })
    }
}

/// Header size of a ``.bgds`` file, in bytes (the records follow it, 56 bytes each).
pub const BGDS_HEADER: usize = HEADER_SIZE;

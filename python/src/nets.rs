//! Nets from NumPy arrays and gnubg weights files (evaluator crate's `weights`): build
//! a net from a PyTorch model's arrays and write it as ``.wd``/``.weights``, which
//! ``trainer duel``, ``datasets rollout`` and gnubg load.

use std::path::PathBuf;

use evaluator::weights::{Net, Shapes, Weights, WeightsError, WeightsFormat, NET_INPUTS, NET_NAMES};
use numpy::ndarray::{Dimension, Ix1, Ix2};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::errors::{existing, file_error, guard, nonempty, value_error};
use crate::position::shape_text;

/// One net with one hidden layer, as gnubg computes it:
/// ``hidden = 1 / (1 + exp(-beta_hidden * (x @ hidden_weights + hidden_bias)))`` and
/// ``out = 1 / (1 + exp(-beta_output * (output_weights @ hidden + output_bias)))``.
/// gnubg's nets have ``beta_hidden = 0.1``, ``beta_output = 1`` and 5 outputs.
///
/// A net from arrays: ``hidden_weights`` ``(inputs, hidden)`` (a PyTorch
/// ``Linear(inputs, hidden).weight`` transposed), ``hidden_bias`` ``(hidden,)``,
/// ``output_weights`` ``(outputs, hidden)`` (PyTorch's layout), ``output_bias``
/// ``(outputs,)``; float32. ``ValueError`` if the shapes disagree or a value is
/// not finite.
#[pyclass(name = "Net", module = "bgkit", frozen)]
#[derive(Clone)]
pub struct PyNet {
    pub inner: Net,
}

fn floats<'py>(py: Python<'py>, v: &[f32], shape: [usize; 2]) -> PyResult<Bound<'py, PyArray2<f32>>> {
    PyArray1::from_slice(py, v).reshape(shape)
}

/// `obj` as a read-only float32 array of `D`'s dimensions, or `TypeError` naming the
/// argument and what it is (NumPy's default dtype is float64: say so, not just "type
/// mismatch").
fn f32_array<'py, D: Dimension>(
    name: &str,
    obj: &Bound<'py, PyAny>,
) -> PyResult<PyReadonlyArray<'py, f32, D>> {
    obj.extract::<PyReadonlyArray<'py, f32, D>>().map_err(|_| {
        let dims = D::NDIM.unwrap_or(0);
        PyTypeError::new_err(format!(
            "{name} must be a {dims}-D float32 NumPy array (.astype(numpy.float32)), got {}",
            crate::position::what_is(obj).unwrap_or_default()
        ))
    })
}

#[pymethods]
impl PyNet {
    #[new]
    #[pyo3(signature = (hidden_weights, hidden_bias, output_weights, output_bias, beta_hidden=0.1, beta_output=1.0))]
    fn new(
        hidden_weights: &Bound<'_, PyAny>,
        hidden_bias: &Bound<'_, PyAny>,
        output_weights: &Bound<'_, PyAny>,
        output_bias: &Bound<'_, PyAny>,
        beta_hidden: f32,
        beta_output: f32,
    ) -> PyResult<PyNet> {
        guard(|| {
            let hidden_weights = f32_array::<Ix2>("hidden_weights", hidden_weights)?;
            let hidden_bias = f32_array::<Ix1>("hidden_bias", hidden_bias)?;
            let output_weights = f32_array::<Ix2>("output_weights", output_weights)?;
            let output_bias = f32_array::<Ix1>("output_bias", output_bias)?;
            let hw = hidden_weights.as_array();
            let ow = output_weights.as_array();
            let (inputs, hidden) = (hw.shape()[0], hw.shape()[1]);
            let outputs = ow.shape()[0];
            let want = |what: &str, got: &[usize], want: &[usize]| -> PyResult<()> {
                if got == want {
                    Ok(())
                } else {
                    Err(value_error(format!(
                        "{what} has shape {}, expected {}",
                        shape_text(got),
                        shape_text(want)
                    )))
                }
            };
            if inputs == 0 || hidden == 0 || outputs == 0 {
                return Err(value_error(format!(
                    "a net needs inputs, hidden units and outputs (hidden_weights {}, output_weights {})",
                    shape_text(hw.shape()),
                    shape_text(ow.shape())
                )));
            }
            want("hidden_bias", hidden_bias.shape(), &[hidden])?;
            want("output_weights", ow.shape(), &[outputs, hidden])?;
            want("output_bias", output_bias.shape(), &[outputs])?;
            let mut net = Net::zeros(inputs, hidden, outputs);
            // The training counter as gnubg writes it in its binary files.
            net.trained = 1;
            net.beta_hidden = beta_hidden;
            net.beta_output = beta_output;
            for (d, s) in net.hidden_weights.iter_mut().zip(hw.iter()) {
                *d = *s;
            }
            for (d, s) in net.output_weights.iter_mut().zip(ow.iter()) {
                *d = *s;
            }
            for (d, s) in net
                .hidden_thresholds
                .iter_mut()
                .zip(hidden_bias.as_array().iter())
            {
                *d = *s;
            }
            for (d, s) in net
                .output_thresholds
                .iter_mut()
                .zip(output_bias.as_array().iter())
            {
                *d = *s;
            }
            // The rules of every net in a weights file (5 outputs, 1 to 4096 hidden
            // units, positive slopes, finite values): a net that breaks one could be
            // saved but not loaded again.
            net.check().map_err(value_error)?;
            Ok(PyNet { inner: net })
        })
    }

    /// ``(inputs, hidden, outputs)``.
    #[getter]
    fn shape(&self) -> (usize, usize, usize) {
        (self.inner.inputs, self.inner.hidden, self.inner.outputs)
    }

    /// A copy of the input-to-hidden weights, ``(inputs, hidden)``.
    #[getter]
    fn hidden_weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        floats(
            py,
            &self.inner.hidden_weights,
            [self.inner.inputs, self.inner.hidden],
        )
    }

    /// A copy of the hidden thresholds, ``(hidden,)``.
    #[getter]
    fn hidden_bias<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &self.inner.hidden_thresholds)
    }

    /// A copy of the hidden-to-output weights, ``(outputs, hidden)``.
    #[getter]
    fn output_weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        floats(
            py,
            &self.inner.output_weights,
            [self.inner.outputs, self.inner.hidden],
        )
    }

    /// A copy of the output thresholds, ``(outputs,)``.
    #[getter]
    fn output_bias<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &self.inner.output_thresholds)
    }

    /// The hidden layer's slope (0.1 in gnubg's nets).
    #[getter]
    fn beta_hidden(&self) -> f32 {
        self.inner.beta_hidden
    }

    /// The output layer's slope (1.0 in gnubg's nets).
    #[getter]
    fn beta_output(&self) -> f32 {
        self.inner.beta_output
    }

    fn __repr__(&self) -> String {
        format!(
            "Net({}-{}-{})",
            self.inner.inputs, self.inner.hidden, self.inner.outputs
        )
    }

    /// Pickles as a one-net weights file in gnubg's text format (exact: every value,
    /// slope and the training counter come back bit for bit).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Vec<u8>,))> {
        let one = Weights {
            version: "1.00".into(),
            nets: vec![slf.get().inner.clone()],
        };
        Ok((
            slf.get_type().getattr("_from_bytes")?,
            (one.to_text().into_bytes(),),
        ))
    }

    /// The net of a pickle (``__reduce__``).
    #[staticmethod]
    fn _from_bytes(data: &[u8]) -> PyResult<PyNet> {
        guard(|| {
            let mut w = Weights::parse(data, "<pickled Net>", Shapes::Any).map_err(file_error)?;
            match w.nets.len() {
                1 => Ok(PyNet {
                    inner: w.nets.remove(0),
                }),
                n => Err(value_error(format!("a pickled Net holds one net, not {n}"))),
            }
        })
    }
}

/// A weights file's nets: gnubg's six (contact, race, crashed, then the pruning nets
/// for contact, crashed and race, with 250, 214, 250, 200, 200, 200 inputs) or any
/// other number as bgkit's trainer writes for its own encodings.
///
/// Weights from a list of :class:`Net` (gnubg's six in gnubg's order, checked for
/// gnubg's input counts) and a version: ``"1.00"`` loads in Debian's gnubg 1.07
/// and keeps its PIPLOSS input; ``"1.01"`` selects the fixed PIPLOSS rule.
#[pyclass(name = "Weights", module = "bgkit", frozen)]
pub struct PyWeights {
    pub inner: Weights,
}

/// The rules a weights file's nets meet (evaluator's `Weights::check`), and gnubg's
/// input counts where there are six nets.
fn check(w: &Weights) -> PyResult<()> {
    w.check(Shapes::Any).map_err(value_error)?;
    let nets = &w.nets;
    if nets.len() == NET_INPUTS.len() {
        for (k, (n, want)) in nets.iter().zip(NET_INPUTS).enumerate() {
            if n.inputs != want || n.outputs != 5 {
                return Err(value_error(format!(
                    "net {k} ({}) is {}-{}-{}; gnubg's has {want} inputs and 5 outputs",
                    NET_NAMES[k], n.inputs, n.hidden, n.outputs
                )));
            }
        }
    }
    Ok(())
}

fn net_index(name: &Bound<'_, PyAny>, count: usize) -> PyResult<usize> {
    let k = if let Ok(k) = name.extract::<i64>() {
        usize::try_from(k).map_err(|_| value_error(format!("net {k}: an index is 0 or more")))?
    } else {
        let s: String = name.extract().map_err(|_| {
            value_error(format!(
                "a net is given by its index or its name ({}), got {}",
                NET_NAMES.join(", "),
                crate::position::what_is(name).unwrap_or_default()
            ))
        })?;
        NET_NAMES.iter().position(|n| *n == s).ok_or_else(|| {
            value_error(format!(
                "unknown net '{s}' (expected one of {})",
                NET_NAMES.join(", ")
            ))
        })?
    };
    if k >= count {
        return Err(value_error(format!("net {k}: the weights hold {count} nets")));
    }
    Ok(k)
}

#[pymethods]
impl PyWeights {
    #[new]
    #[pyo3(signature = (nets, version="1.00"))]
    fn new(nets: Vec<PyRef<'_, PyNet>>, version: &str) -> PyResult<PyWeights> {
        guard(|| {
            let inner = Weights {
                version: version.trim().to_string(),
                nets: nets.iter().map(|n| n.inner.clone()).collect(),
            };
            check(&inner)?;
            Ok(PyWeights { inner })
        })
    }

    /// Reads a weights file, text (``.weights``) or binary (``.wd``), told apart by its
    /// first bytes; nets of any shape are accepted. ``bgkit.FileError`` naming the file
    /// if it is missing or damaged.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyWeights> {
        let path = existing(py, "path", path)?;
        guard(|| {
            Ok(PyWeights {
                inner: Weights::load_any(&path).map_err(file_error)?,
            })
        })
    }

    /// Weights from the bytes of a weights file, text or binary (as :meth:`load` reads
    /// a file; ``name`` names them in errors).
    #[staticmethod]
    #[pyo3(signature = (data, name="<bytes>"))]
    fn from_bytes(py: Python<'_>, data: &[u8], name: &str) -> PyResult<PyWeights> {
        guard(|| {
            let inner = py
                .detach(|| Weights::parse(data, name, Shapes::Any))
                .map_err(file_error)?;
            Ok(PyWeights { inner })
        })
    }

    /// The bytes :meth:`save` writes: ``format="binary"`` (``.wd``, the default) or
    /// ``"text"`` (``.weights``).
    #[pyo3(signature = (format="binary"))]
    fn to_bytes(&self, py: Python<'_>, format: &str) -> PyResult<Vec<u8>> {
        guard(|| {
            let format = weights_format(format)?;
            Ok(py.detach(|| self.inner.to_bytes(format)))
        })
    }

    /// Pickles as the text format, which keeps everything, the version text too (the
    /// binary format holds the version as a number); multiprocessing workers get their
    /// own copy.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Vec<u8>,))> {
        let text = slf.get().inner.to_text().into_bytes();
        Ok((slf.get_type().getattr("from_bytes")?, (text,)))
    }

    /// The version text.
    #[getter]
    fn version(&self) -> String {
        self.inner.version.clone()
    }

    /// Copies of the nets, in file order.
    #[getter]
    fn nets(&self) -> Vec<PyNet> {
        self.inner
            .nets
            .iter()
            .map(|n| PyNet { inner: n.clone() })
            .collect()
    }

    /// Net ``key``: an index or a name (``"contact"``, ``"race"``, ``"crashed"``,
    /// ``"prune contact"``, ``"prune crashed"``, ``"prune race"``).
    fn net(&self, key: &Bound<'_, PyAny>) -> PyResult<PyNet> {
        guard(|| {
            Ok(PyNet {
                inner: self.inner.nets[net_index(key, self.inner.nets.len())?].clone(),
            })
        })
    }

    /// New weights with net ``key`` (index or name) replaced by ``net``, e.g. a
    /// PyTorch-trained contact net in gnubg's weights.
    fn replace(&self, key: &Bound<'_, PyAny>, net: PyRef<'_, PyNet>) -> PyResult<PyWeights> {
        guard(|| {
            let mut w = self.inner.clone();
            let k = net_index(key, w.nets.len())?;
            w.nets[k] = net.inner.clone();
            check(&w)?;
            Ok(PyWeights { inner: w })
        })
    }

    /// Writes the weights: binary for ``.wd``, text for ``.weights`` (or
    /// ``format="binary"``/``"text"``), through a temporary file renamed into place.
    /// An existing file is kept (``bgkit.FileError``) unless ``force=True``.
    #[pyo3(signature = (path, format=None, force=false))]
    fn save(&self, py: Python<'_>, path: PathBuf, format: Option<&str>, force: bool) -> PyResult<()> {
        let path = nonempty("path", path)?;
        guard(|| {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            let format = match (format, ext) {
                (Some(f), _) => weights_format(f)?,
                (None, "wd") => WeightsFormat::Binary,
                (None, "weights") => WeightsFormat::Text,
                (None, _) => {
                    return Err(value_error(format!(
                        "cannot tell the format of {} from its extension (.wd or .weights); give format=",
                        path.display()
                    )))
                }
            };
            let exists = || {
                file_error(format!(
                    "{}: exists; give force=True to replace it",
                    path.display()
                ))
            };
            if !force && std::fs::symlink_metadata(&path).is_ok() {
                return Err(exists());
            }
            // Without `force`, a file that appears while the weights are written is kept.
            let existing = fileio::Existing::replace_if(force);
            py.detach(|| self.inner.save_with(&path, format, existing))
                .map_err(|e| match &e {
                    WeightsError::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists => {
                        exists()
                    }
                    _ => file_error(e),
                })
        })
    }

    fn __len__(&self) -> usize {
        self.inner.nets.len()
    }

    fn __repr__(&self) -> String {
        let shapes: Vec<String> = self
            .inner
            .nets
            .iter()
            .map(|n| format!("{}-{}-{}", n.inputs, n.hidden, n.outputs))
            .collect();
        format!(
            "Weights(version={:?}, nets=[{}])",
            self.inner.version,
            shapes.join(", ")
        )
    }
}

/// The weights format a Python argument names: ``"binary"`` (``.wd``) or ``"text"``
/// (``.weights``).
fn weights_format(name: &str) -> PyResult<WeightsFormat> {
    match name {
        "binary" => Ok(WeightsFormat::Binary),
        "text" => Ok(WeightsFormat::Text),
        f => Err(value_error(format!("unknown format '{f}' (binary or text)"))),
    }
}

//! gnubg's input encodings for a batch, as the evaluator's nets see them (evaluator
//! crate; Tesauro's from the trainer).

use board::Position;
use evaluator::inputs::{BASE_INPUTS, CONTACT_INPUTS, RACE_INPUTS};
use evaluator::PositionClass;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use trainer::encoding::{Encoding, TESAURO_INPUTS};

use crate::errors::{guard, value_error};
use crate::position as convert;

/// Which encoding: a net class of gnubg's, its pruning nets' base inputs, or Tesauro's.
#[derive(Clone, Copy)]
pub enum Kind {
    Gnubg(PositionClass),
    Base,
    Tesauro,
}

impl Kind {
    pub fn parse(net: &str) -> PyResult<Kind> {
        Ok(match net {
            "contact" => Kind::Gnubg(PositionClass::Contact),
            "crashed" => Kind::Gnubg(PositionClass::Crashed),
            "race" => Kind::Gnubg(PositionClass::Race),
            "base" | "prune" => Kind::Base,
            "tesauro" => Kind::Tesauro,
            other => {
                return Err(value_error(format!(
                    "unknown net '{other}' (expected contact, crashed, race, base or tesauro)"
                )))
            }
        })
    }

    pub fn width(self) -> usize {
        match self {
            Kind::Gnubg(PositionClass::Race) => RACE_INPUTS,
            Kind::Gnubg(_) => CONTACT_INPUTS,
            Kind::Base => BASE_INPUTS,
            Kind::Tesauro => TESAURO_INPUTS,
        }
    }

    /// Writes the inputs of `pos` into `out` (exactly [`Kind::width`] long).
    pub fn write(self, pos: &Position, fixed_pip_loss: bool, out: &mut [f32]) {
        match self {
            Kind::Gnubg(class) => {
                let mut buf = [0f32; CONTACT_INPUTS];
                let n = Encoding::Gnubg.write(class, pos, fixed_pip_loss, &mut buf);
                out.copy_from_slice(&buf[..n]);
            }
            Kind::Base => evaluator::inputs::base_inputs(pos, out),
            Kind::Tesauro => trainer::encoding::tesauro_inputs(pos, out),
        }
    }
}

/// Fills a `(n, width)` row-major buffer with the inputs of `positions`, in parallel.
pub fn encode(positions: &[Position], kind: Kind, fixed_pip_loss: bool) -> Vec<f32> {
    let w = kind.width();
    let mut out = vec![0f32; positions.len() * w];
    out.par_chunks_mut(w * 64)
        .zip(positions.par_chunks(64))
        .for_each(|(rows, ps)| {
            for (row, p) in rows.chunks_mut(w).zip(ps) {
                kind.write(p, fixed_pip_loss, row);
            }
        });
    out
}

/// The inputs of a batch for one net, as a ``(n, k)`` float32 array: ``net`` is
/// ``"contact"`` (250), ``"crashed"`` (250), ``"race"`` (214), ``"base"`` (200, the
/// pruning nets' inputs) or ``"tesauro"`` (198). ``fixed_pip_loss`` selects the
/// PIPLOSS rule of gnubg weights 1.01 and later (False: weights 1.00, Debian's
/// gnubg 1.07). These are exactly the values the evaluator feeds the net.
#[pyfunction]
#[pyo3(signature = (positions, net="contact", fixed_pip_loss=false))]
pub fn inputs<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    net: &str,
    fixed_pip_loss: bool,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    guard(|| {
        let kind = Kind::parse(net)?;
        let positions = convert::positions_of(positions)?;
        let v = py.detach(|| encode(&positions, kind, fixed_pip_loss));
        PyArray1::from_vec(py, v).reshape([positions.len(), kind.width()])
    })
}

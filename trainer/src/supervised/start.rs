//! The starting weights of a supervised run: a gnubg weights file, a trainer model
//! (weights with a sidecar), or fresh nets.

use std::path::Path;

use evaluator::weights::{Net, Weights};

use super::state::InitInfo;
use crate::encoding::Encoding;
use crate::error::TrainerError;
use crate::model::{self, Init, Layout, Model, ModelConfig, Sidecar};
use crate::seed;

/// Seed tag of a fresh net's weights.
const FRESH: u64 = 103;

/// The starting weights: a gnubg weights file, a trainer model, or fresh nets.
pub struct Start {
    pub(super) weights: Weights,
    pub(super) sidecar: Option<Sidecar>,
    pub(super) encoding: Encoding,
    pub(super) layout: Layout,
    pub(super) info: InitInfo,
}

impl Start {
    /// Loads `path`: with a trainer sidecar beside it ([`model::find_sidecar`]) a trainer
    /// model, else gnubg's six nets.
    pub fn load(path: &Path) -> Result<Start, TrainerError> {
        let name = path.display().to_string();
        if let Some((m, sidecar)) = model::load_if_trainer(path)? {
            return Ok(Start {
                weights: m.to_weights(0),
                encoding: m.config.encoding,
                layout: m.config.layout,
                sidecar: Some(sidecar),
                info: InitInfo {
                    path: Some(name),
                    kind: "trainer".into(),
                    fresh_net: false,
                },
            });
        }
        let weights = Weights::load(path)?;
        Ok(Start {
            weights,
            sidecar: None,
            encoding: Encoding::Gnubg,
            layout: Layout::Split,
            info: InitInfo {
                path: Some(name),
                kind: "gnubg".into(),
                fresh_net: false,
            },
        })
    }

    /// Fresh gnubg-style nets (Xavier initialisation) of `hidden` units.
    pub fn fresh(hidden: usize, seed: u64) -> Result<Start, TrainerError> {
        let config = ModelConfig {
            encoding: Encoding::Gnubg,
            layout: Layout::Split,
            hidden,
            init: Init::Xavier,
            weights_version: "1.00".into(),
            bearoff: true,
        };
        let m = Model::new(config.clone(), seed::derive(seed, FRESH, 0))?;
        Ok(Start {
            weights: m.to_weights(0),
            sidecar: Some(Sidecar {
                format: model::SIDECAR_FORMAT.into(),
                format_version: 1,
                config,
                training: None,
            }),
            encoding: Encoding::Gnubg,
            layout: Layout::Split,
            info: InitInfo {
                path: None,
                kind: "fresh".into(),
                fresh_net: true,
            },
        })
    }
}

/// `net` widened to `fresh`'s hidden units (at least `net`'s): `net`'s units first, then
/// `fresh`'s units from there on with their input weights and thresholds but zero output
/// weights, so the widened net computes what `net` computes (the added units' products
/// are zeros; to the bit in the evaluator when `net`'s size is a multiple of 4, else its
/// leftover units move into the output layer's four lanes) and training grows it from
/// there. Slopes and output thresholds are `net`'s.
pub fn widened(net: &Net, fresh: &Net) -> Net {
    let (h0, h) = (net.hidden, fresh.hidden);
    assert!(h >= h0 && net.inputs == fresh.inputs && net.outputs == fresh.outputs);
    let mut out = Net::zeros(net.inputs, h, net.outputs);
    out.trained = net.trained;
    out.beta_hidden = net.beta_hidden;
    out.beta_output = net.beta_output;
    for i in 0..net.inputs {
        let row = &mut out.hidden_weights[i * h..(i + 1) * h];
        row[..h0].copy_from_slice(&net.hidden_weights[i * h0..(i + 1) * h0]);
        row[h0..].copy_from_slice(&fresh.hidden_weights[i * h + h0..(i + 1) * h]);
    }
    out.hidden_thresholds[..h0].copy_from_slice(&net.hidden_thresholds[..h0]);
    out.hidden_thresholds[h0..].copy_from_slice(&fresh.hidden_thresholds[h0..]);
    for k in 0..net.outputs {
        out.output_weights[k * h..k * h + h0].copy_from_slice(&net.output_weights[k * h0..(k + 1) * h0]);
    }
    out.output_thresholds.copy_from_slice(&net.output_thresholds);
    out
}

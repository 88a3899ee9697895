//! Optimisers for supervised training (SGD with momentum, Adam) and their state file.
//!
//! Steps are taken in the slope-free parametrisation, as in TD training: the nets
//! store weights `w` that the forward pass multiplies by a slope β (0.1 for the hidden
//! layer, 1 for the outputs), so an optimiser step is computed for the effective
//! weight `β·w` (gradient `g/β`) and divided by β when applied to `w`. A learning rate
//! therefore means what it means for a plain logistic net, whatever the slopes.
//!
//! The gradients of a batch arrive as one [`Grads`] per chunk; each parameter's chunk
//! gradients are added in chunk order before the step, so the step does not depend
//! on the number of threads (the work is split over parameters, never over chunks).
//!
//! **State file** (`optimizer-<steps>.bin`), little endian: a 64-byte header, then
//! `arrays × parameters` f32 values — the first moment (SGD: the momentum buffer), and
//! for Adam the second moment, each in parameter order (hidden weights, hidden
//! thresholds, output weights, output thresholds).
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `BGKITOPT` |
//! | 8 | 4 | format version, u32 = 1 |
//! | 12 | 4 | header size, u32 = 64 |
//! | 16 | 4 | optimiser, u32: 0 SGD, 1 Adam |
//! | 20 | 4 | arrays, u32 (1 or 2) |
//! | 24 | 8 | steps taken, u64 |
//! | 32 | 8 | parameters per array, u64 |
//! | 40 | 8 | checksum, u64: FNV-1a 64 over the values' bytes |
//! | 48 | 16 | reserved, zero |

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use datasets::rng::Fnv1a;
use evaluator::weights::Net;
use fileio::mmap::{HeaderSpec, MappedFile};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::net::Grads;
use crate::error::TrainerError;

/// Parameters per parallel work item of a step.
const BLOCK: usize = 1024;

/// Which optimiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// Stochastic gradient descent with (optional) momentum.
    Sgd,
    /// Adam (Kingma and Ba), bias-corrected.
    Adam,
}

impl fmt::Display for OptimizerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OptimizerKind::Sgd => "sgd",
            OptimizerKind::Adam => "adam",
        })
    }
}

impl FromStr for OptimizerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<OptimizerKind, String> {
        match s {
            "sgd" => Ok(OptimizerKind::Sgd),
            "adam" => Ok(OptimizerKind::Adam),
            _ => Err(format!("unknown optimizer '{s}' (expected sgd or adam)")),
        }
    }
}

/// Optimiser settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptimizerSettings {
    /// The optimiser.
    pub kind: OptimizerKind,
    /// SGD momentum (0 = plain SGD).
    pub momentum: f32,
    /// Adam's β1.
    pub beta1: f32,
    /// Adam's β2.
    pub beta2: f32,
    /// Adam's ε.
    pub eps: f32,
}

impl OptimizerSettings {
    /// Defaults for `kind`: momentum 0.9; β1 0.9, β2 0.999, ε 10⁻⁸.
    pub fn new(kind: OptimizerKind) -> OptimizerSettings {
        OptimizerSettings {
            kind,
            momentum: 0.9,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        }
    }

    /// Checks the ranges: momentum, β1 and β2 in [0, 1), ε > 0 (the first one out of
    /// range is named).
    pub fn validate(&self) -> Result<(), TrainerError> {
        let unit = [
            ("momentum", self.momentum),
            ("beta1", self.beta1),
            ("beta2", self.beta2),
        ];
        if let Some((name, v)) = unit.iter().find(|(_, v)| !(0.0..1.0).contains(v)) {
            return Err(TrainerError::Invalid(format!(
                "optimizer {name} must lie in [0, 1), not {v}"
            )));
        }
        if !(self.eps > 0.0 && self.eps.is_finite()) {
            return Err(TrainerError::Invalid(format!(
                "optimizer eps must be a positive number, not {}",
                self.eps
            )));
        }
        Ok(())
    }

    fn arrays(&self) -> usize {
        match self.kind {
            OptimizerKind::Sgd => 1,
            OptimizerKind::Adam => 2,
        }
    }
}

/// The optimiser's memory: moments per parameter and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct OptState {
    /// Steps taken.
    pub steps: u64,
    /// First moment (SGD: momentum buffer), per parameter group.
    m: [Vec<f32>; 4],
    /// Second moment (Adam), per parameter group; empty for SGD.
    v: [Vec<f32>; 4],
}

/// The parameter groups of a net with their slopes.
fn groups(net: &mut Net) -> [(&mut [f32], f32); 4] {
    let (bh, bo) = (net.beta_hidden, net.beta_output);
    [
        (&mut net.hidden_weights[..], bh),
        (&mut net.hidden_thresholds[..], bh),
        (&mut net.output_weights[..], bo),
        (&mut net.output_thresholds[..], bo),
    ]
}

fn grad_group(g: &Grads, k: usize) -> &[f32] {
    match k {
        0 => &g.hw,
        1 => &g.ht,
        2 => &g.ow,
        _ => &g.ot,
    }
}

fn sizes(net: &Net) -> [usize; 4] {
    [
        net.inputs * net.hidden,
        net.hidden,
        net.outputs * net.hidden,
        net.outputs,
    ]
}

impl OptState {
    /// A fresh state for `net`.
    pub fn new(net: &Net, settings: &OptimizerSettings) -> OptState {
        let s = sizes(net);
        let adam = settings.kind == OptimizerKind::Adam;
        OptState {
            steps: 0,
            m: s.map(|n| vec![0.0; n]),
            v: s.map(|n| if adam { vec![0.0; n] } else { Vec::new() }),
        }
    }

    /// One step on `net` with the mean gradient of `rows` positions, given as the
    /// chunk gradients `chunks` (added in order), at learning rate `lr`.
    pub fn step(
        &mut self,
        net: &mut Net,
        chunks: &[Grads],
        rows: u64,
        lr: f32,
        settings: &OptimizerSettings,
    ) {
        self.steps += 1;
        let scale = 1.0 / rows.max(1) as f32;
        let t = self.steps as i32;
        let (c1, c2) = match settings.kind {
            OptimizerKind::Adam => (1.0 - settings.beta1.powi(t), 1.0 - settings.beta2.powi(t)),
            OptimizerKind::Sgd => (1.0, 1.0),
        };
        let s = *settings;
        for (k, (w, beta)) in groups(net).into_iter().enumerate() {
            let m = &mut self.m[k];
            let v = &mut self.v[k];
            let update = |b: usize, w: &mut [f32], m: &mut [f32], v: &mut [f32]| {
                let off = b * BLOCK;
                let n = w.len();
                let mut acc = [0f32; BLOCK];
                let acc = &mut acc[..n];
                acc.copy_from_slice(&grad_group(&chunks[0], k)[off..off + n]);
                for c in &chunks[1..] {
                    for (a, &g) in acc.iter_mut().zip(&grad_group(c, k)[off..off + n]) {
                        *a += g;
                    }
                }
                // Gradient of the effective weight β·w, averaged over the rows.
                let gs = scale / beta;
                match s.kind {
                    OptimizerKind::Sgd => {
                        for ((w, m), &g) in w.iter_mut().zip(m.iter_mut()).zip(acc.iter()) {
                            *m = s.momentum * *m + g * gs;
                            *w -= lr * *m / beta;
                        }
                    }
                    OptimizerKind::Adam => {
                        for (((w, m), v), &g) in
                            w.iter_mut().zip(m.iter_mut()).zip(v.iter_mut()).zip(acc.iter())
                        {
                            let g = g * gs;
                            *m = s.beta1 * *m + (1.0 - s.beta1) * g;
                            *v = s.beta2 * *v + (1.0 - s.beta2) * g * g;
                            let mh = *m / c1;
                            let vh = *v / c2;
                            *w -= lr * mh / (vh.sqrt() + s.eps) / beta;
                        }
                    }
                }
            };
            if s.kind == OptimizerKind::Adam {
                w.par_chunks_mut(BLOCK)
                    .zip(m.par_chunks_mut(BLOCK))
                    .zip(v.par_chunks_mut(BLOCK))
                    .enumerate()
                    .for_each(|(b, ((w, m), v))| update(b, w, m, v));
            } else {
                w.par_chunks_mut(BLOCK)
                    .zip(m.par_chunks_mut(BLOCK))
                    .enumerate()
                    .for_each(|(b, (w, m))| update(b, w, m, &mut []));
            }
        }
    }

    /// Writes the state file (through a temporary name).
    pub fn save(&self, path: &Path, settings: &OptimizerSettings) -> Result<(), TrainerError> {
        let arrays = settings.arrays();
        let per: usize = self.m.iter().map(Vec::len).sum();
        let mut body: Vec<u8> = Vec::with_capacity(arrays * per * 4);
        let groups = if arrays == 2 { 8 } else { 4 };
        for g in self.m.iter().chain(&self.v).take(groups) {
            for x in g {
                body.extend_from_slice(&x.to_le_bytes());
            }
        }
        let mut h = [0u8; HEADER];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&1u32.to_le_bytes());
        h[12..16].copy_from_slice(&(HEADER as u32).to_le_bytes());
        h[16..20].copy_from_slice(&(settings.kind as u32).to_le_bytes());
        h[20..24].copy_from_slice(&(arrays as u32).to_le_bytes());
        h[24..32].copy_from_slice(&self.steps.to_le_bytes());
        h[32..40].copy_from_slice(&(per as u64).to_le_bytes());
        h[40..48].copy_from_slice(&Fnv1a::of(&body).to_le_bytes());
        let mut bytes = h.to_vec();
        bytes.extend_from_slice(&body);
        crate::model::write_atomic(path, &bytes)
    }

    /// Reads a state file for `net` and `settings` (memory-mapped, checked).
    pub fn load(path: &Path, net: &Net, settings: &OptimizerSettings) -> Result<OptState, TrainerError> {
        let spec = HeaderSpec {
            what: "bgkit optimizer state",
            magic: MAGIC,
            size: HEADER,
            version_at: 8,
            version: 1,
            header_size_at: Some(12),
        };
        let file = MappedFile::open(path)?;
        let h = file.header(&spec)?;
        let arrays = settings.arrays();
        let s = sizes(net);
        let per: usize = s.iter().sum();
        if h.u32_at(16) != settings.kind as u32
            || h.u32_at(20) as usize != arrays
            || h.u64_at(32) != per as u64
        {
            return Err(TrainerError::format(
                path,
                format!(
                    "holds {} arrays of {} parameters for optimizer {}; this run needs {arrays} of {per} for {}",
                    h.u32_at(20),
                    h.u64_at(32),
                    h.u32_at(16),
                    settings.kind
                ),
            ));
        }
        file.expect_len(
            HEADER as u64,
            (arrays * per) as u64,
            4,
            format!("{arrays} arrays of {per} values"),
        )?;
        let body = &file.bytes()[HEADER..];
        h.expect_checksum(40, Fnv1a::of(body))?;
        let values: Vec<f32> = body
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        let mut at = 0;
        let mut take = |n: usize| {
            let v = values[at..at + n].to_vec();
            at += n;
            v
        };
        let m = s.map(&mut take);
        let v = if arrays == 2 {
            s.map(&mut take)
        } else {
            s.map(|_| Vec::new())
        };
        Ok(OptState {
            steps: h.u64_at(24),
            m,
            v,
        })
    }
}

const MAGIC: &[u8; 8] = b"BGKITOPT";
const HEADER: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Net {
        let mut n = Net::zeros(3, 4, 5);
        n.hidden_weights
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = i as f32 * 0.1);
        n
    }

    #[test]
    fn sgd_steps_effective_weights_by_the_learning_rate() {
        // One SGD step without momentum: Δ(βw) = −lr·g/β, i.e. Δw = −lr·g/β².
        let mut n = tiny();
        let before = n.clone();
        let s = OptimizerSettings {
            momentum: 0.0,
            ..OptimizerSettings::new(OptimizerKind::Sgd)
        };
        let mut st = OptState::new(&n, &s);
        let mut g = Grads::zeros(&n);
        g.hw[5] = 0.4;
        g.ot[2] = -0.2;
        let mut g2 = Grads::zeros(&n);
        g2.hw[5] = 0.2;
        st.step(&mut n, &[g, g2], 2, 0.5, &s);
        // Mean gradient of hw[5] = 0.3; β_h = 0.1: Δw = −0.5 · 0.3 / 0.01 = −15.
        assert!((n.hidden_weights[5] - (before.hidden_weights[5] - 15.0)).abs() < 1e-4);
        // ot[2]: mean −0.1, β_o = 1: Δ = +0.05.
        assert!((n.output_thresholds[2] - 0.05).abs() < 1e-7);
        assert_eq!(n.hidden_weights[4], before.hidden_weights[4]);
    }

    #[test]
    fn adam_first_step_moves_each_effective_weight_by_the_learning_rate() {
        let mut n = tiny();
        let before = n.clone();
        let s = OptimizerSettings::new(OptimizerKind::Adam);
        let mut st = OptState::new(&n, &s);
        let mut g = Grads::zeros(&n);
        g.hw[1] = 3.0;
        g.ow[7] = -1e-3;
        st.step(&mut n, std::slice::from_ref(&g), 1, 0.01, &s);
        // Bias-corrected first step: Δ(βw) = −lr·sign(g).
        assert!(((n.hidden_weights[1] - before.hidden_weights[1]) * 0.1 + 0.01).abs() < 1e-6);
        assert!((n.output_weights[7] - 0.01).abs() < 1e-5);
        assert_eq!(st.steps, 1);
    }

    #[test]
    fn state_files_round_trip_and_damage_is_reported() {
        let dir = std::env::temp_dir().join(format!("bgkit-optim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut n = tiny();
        let s = OptimizerSettings::new(OptimizerKind::Adam);
        let mut st = OptState::new(&n, &s);
        let mut g = Grads::zeros(&n);
        g.hw.iter_mut().enumerate().for_each(|(i, v)| *v = i as f32 - 4.0);
        st.step(&mut n, &[g], 1, 0.01, &s);
        let path = dir.join("opt.bin");
        st.save(&path, &s).unwrap();
        assert_eq!(OptState::load(&path, &n, &s).unwrap(), st);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 4]).unwrap();
        let e = OptState::load(&path, &n, &s).unwrap_err().to_string();
        assert!(e.contains("opt.bin") && e.contains("truncated"), "{e}");
        let mut bad = bytes.clone();
        bad[HEADER + 3] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        assert!(OptState::load(&path, &n, &s)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
        let sgd = OptimizerSettings::new(OptimizerKind::Sgd);
        std::fs::write(&path, &bytes).unwrap();
        assert!(OptState::load(&path, &n, &sgd).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

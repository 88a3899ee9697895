//! Batched forward and backward passes of one gnubg net, for supervised training.
//!
//! A net (an [`evaluator::weights::Net`], the very struct the evaluator runs) computes
//! hidden activations `a_j = f(β_h · (θ_j + Σ_i W[i][j]·x_i))` and outputs
//! `y_k = f(β_o · (θ'_k + Σ_j V[k][j]·a_j))`, f the logistic. Training keeps the
//! stored weights (W, θ, V, θ') as the master copy, so the net written to disk is
//! exactly the net that was trained.
//!
//! * [`Activation::Gnubg`] (what training uses) applies gnubg's own activation
//!   functions, the ones of the evaluator's forward pass: the vectorised-style logistic
//!   on the hidden layer and gnubg's table sigmoid on the outputs. The trained net
//!   therefore evaluates in the evaluator (and in gnubg) as it did in training, up to
//!   the summation order of the sums. The backward pass uses the logistic's derivative
//!   `y(1 − y)`, as gnubg's own training code does.
//! * [`Activation::Logistic`] is the exact logistic `1/(1 + e⁻ˣ)`: with it the
//!   backward pass is the exact gradient (checked against finite differences).
//!
//! Rows of a batch are processed in chunks of [`CHUNK`] rows with matrix products
//! (ndarray, `matrixmultiply`). Each chunk's gradient is computed on its own and the
//! chunks' gradients are added in chunk order, so results do not depend on how chunks
//! are spread over threads.

use evaluator::sigmoid::{logistic_vector_style, sigmoid};
use evaluator::weights::Net;
use ndarray::linalg::general_mat_mul;
use ndarray::{s, Array2, ArrayView2, ArrayViewMut2};
use serde::{Deserialize, Serialize};

/// Rows per chunk: the unit of parallel work and of gradient reduction.
pub const CHUNK: usize = 32;

/// The activation functions of the forward pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// gnubg's table-driven approximations, exactly as the evaluator computes them.
    Gnubg,
    /// The exact logistic function.
    Logistic,
}

impl Activation {
    /// The hidden activation of the sum `s` (threshold included) with slope `beta`.
    #[inline]
    pub fn hidden(self, beta: f32, s: f32) -> f32 {
        match self {
            Activation::Gnubg => logistic_vector_style(s * beta),
            Activation::Logistic => 1.0 / (1.0 + (-(s * beta)).exp()),
        }
    }

    /// The output activation of the sum `s` (threshold included) with slope `beta`.
    #[inline]
    pub fn output(self, beta: f32, s: f32) -> f32 {
        match self {
            Activation::Gnubg => sigmoid(-beta * s),
            Activation::Logistic => 1.0 / (1.0 + (-(s * beta)).exp()),
        }
    }
}

/// What training minimises, per position, summed over the five outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// Squared error `Σ_k (y_k − t_k)²`.
    Mse,
    /// Cross-entropy `−Σ_k [t_k ln y_k + (1 − t_k) ln(1 − y_k)]` (outputs clamped to
    /// [10⁻⁷, 1 − 10⁻⁷] inside the logarithms).
    CrossEntropy,
}

impl std::fmt::Display for Loss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Loss::Mse => "mse",
            Loss::CrossEntropy => "cross-entropy",
        })
    }
}

impl std::str::FromStr for Loss {
    type Err = String;
    fn from_str(s: &str) -> Result<Loss, String> {
        match s {
            "mse" => Ok(Loss::Mse),
            "cross-entropy" | "ce" => Ok(Loss::CrossEntropy),
            _ => Err(format!("unknown loss '{s}' (expected mse or cross-entropy)")),
        }
    }
}

impl Loss {
    /// The loss of output `y` against target `t`, and its derivative with respect to
    /// the output's pre-activation `u` (y = logistic(u)).
    #[inline]
    pub fn term(self, y: f32, t: f32) -> (f64, f32) {
        match self {
            Loss::Mse => {
                let d = y - t;
                (f64::from(d * d), 2.0 * d * y * (1.0 - y))
            }
            Loss::CrossEntropy => {
                let c = f64::from(y.clamp(1e-7, 1.0 - 1e-7));
                let t64 = f64::from(t);
                (-(t64 * c.ln() + (1.0 - t64) * (1.0 - c).ln()), y - t)
            }
        }
    }
}

/// Gradients of a net's stored parameters (same shapes as the net's arrays).
#[derive(Clone, Debug, PartialEq)]
pub struct Grads {
    /// Of `hidden_weights` (input-major, inputs × hidden).
    pub hw: Vec<f32>,
    /// Of `hidden_thresholds`.
    pub ht: Vec<f32>,
    /// Of `output_weights` (output-major, outputs × hidden).
    pub ow: Vec<f32>,
    /// Of `output_thresholds`.
    pub ot: Vec<f32>,
}

impl Grads {
    /// Zero gradients shaped like `net`.
    pub fn zeros(net: &Net) -> Grads {
        Grads {
            hw: vec![0.0; net.inputs * net.hidden],
            ht: vec![0.0; net.hidden],
            ow: vec![0.0; net.outputs * net.hidden],
            ot: vec![0.0; net.outputs],
        }
    }
}

/// Sums over the rows of a chunk: the loss and the squared errors.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sums {
    /// Rows.
    pub rows: u64,
    /// Sum of the per-position losses.
    pub loss: f64,
    /// Sum of the squared errors over rows and outputs.
    pub sq: f64,
    /// Sum of the squared errors of cubeless money equity (`2w − 1 + wg − lg + wbg − lbg`).
    pub eq_sq: f64,
}

impl Sums {
    /// Adds another chunk's sums.
    pub fn add(&mut self, o: &Sums) {
        self.rows += o.rows;
        self.loss += o.loss;
        self.sq += o.sq;
        self.eq_sq += o.eq_sq;
    }
}

/// Working memory of one chunk: inputs, targets and the activations.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// Inputs, one row per position (CHUNK × inputs).
    pub x: Array2<f32>,
    /// Targets (CHUNK × outputs).
    pub t: Array2<f32>,
    /// Hidden activations; in the backward pass, the hidden deltas.
    a: Array2<f32>,
    /// Outputs.
    pub y: Array2<f32>,
    /// Output deltas.
    dz: Array2<f32>,
    /// Back-propagated hidden deltas.
    da: Array2<f32>,
    /// Rows in use.
    pub rows: usize,
}

impl Chunk {
    /// A chunk for `net`'s shape.
    pub fn new(net: &Net) -> Chunk {
        Chunk {
            x: Array2::zeros((CHUNK, net.inputs)),
            t: Array2::zeros((CHUNK, net.outputs)),
            a: Array2::zeros((CHUNK, net.hidden)),
            y: Array2::zeros((CHUNK, net.outputs)),
            dz: Array2::zeros((CHUNK, net.outputs)),
            da: Array2::zeros((CHUNK, net.hidden)),
            rows: 0,
        }
    }

    /// The input row `r` to fill.
    pub fn input_row(&mut self, r: usize) -> &mut [f32] {
        self.x
            .row_mut(r)
            .into_slice()
            .expect("rows of a standard-layout array are contiguous")
    }

    /// Forward pass over the chunk's rows (fills the outputs `y`).
    pub fn forward(&mut self, net: &Net, act: Activation) {
        let n = self.rows;
        let x = self.x.slice(s![..n, ..]);
        let mut a = self.a.slice_mut(s![..n, ..]);
        let mut y = self.y.slice_mut(s![..n, ..]);
        forward(net, act, &x, &mut a, &mut y);
    }

    /// Forward and backward pass over the chunk's rows: writes the gradient of the
    /// summed loss into `g` (overwriting it) and returns the sums.
    pub fn gradient(&mut self, net: &Net, act: Activation, loss: Loss, g: &mut Grads) -> Sums {
        let n = self.rows;
        let h = net.hidden;
        let o = net.outputs;
        let x = self.x.slice(s![..n, ..]);
        let t = self.t.slice(s![..n, ..]);
        let mut a = self.a.slice_mut(s![..n, ..]);
        let mut y = self.y.slice_mut(s![..n, ..]);
        let mut dz = self.dz.slice_mut(s![..n, ..]);
        let mut da = self.da.slice_mut(s![..n, ..]);
        forward(net, act, &x, &mut a, &mut y);
        let sums = output_deltas(net, loss, &y.view(), &t, &mut dz);
        let w2 = ArrayView2::from_shape((o, h), &net.output_weights).expect("output weights shape");
        // Output layer: dV = dzᵀ·a, dθ' = Σ dz.
        let mut gow = ArrayViewMut2::from_shape((o, h), &mut g.ow).expect("gradient shape");
        general_mat_mul(1.0, &dz.t(), &a, 0.0, &mut gow);
        for (k, gt) in g.ot.iter_mut().enumerate() {
            *gt = dz.column(k).iter().sum();
        }
        // Hidden deltas: (dz·V) ⊙ β_h·a(1 − a).
        general_mat_mul(1.0, &dz, &w2, 0.0, &mut da);
        let bh = net.beta_hidden;
        for (d, &av) in da.iter_mut().zip(a.iter()) {
            *d *= bh * av * (1.0 - av);
        }
        // Hidden layer: dW = xᵀ·δ, dθ = Σ δ.
        let mut ghw = ArrayViewMut2::from_shape((net.inputs, h), &mut g.hw).expect("gradient shape");
        general_mat_mul(1.0, &x.t(), &da, 0.0, &mut ghw);
        g.ht.iter_mut().for_each(|v| *v = 0.0);
        for row in da.rows() {
            for (gt, &d) in g.ht.iter_mut().zip(row.iter()) {
                *gt += d;
            }
        }
        sums
    }

    /// The outputs of the rows in use.
    pub fn outputs(&self) -> ArrayView2<'_, f32> {
        self.y.slice(s![..self.rows, ..])
    }

    /// Loss sums of the current outputs against the targets (after [`Chunk::forward`]).
    pub fn score(&mut self, net: &Net, loss: Loss) -> Sums {
        let n = self.rows;
        let y = self.y.slice(s![..n, ..]);
        let t = self.t.slice(s![..n, ..]);
        let mut dz = self.dz.slice_mut(s![..n, ..]);
        output_deltas(net, loss, &y, &t, &mut dz)
    }
}

/// `a = f(β_h(x·W + θ))`, `y = f(β_o(a·Vᵀ + θ'))` for every row.
pub fn forward(
    net: &Net,
    act: Activation,
    x: &ArrayView2<f32>,
    a: &mut ArrayViewMut2<f32>,
    y: &mut ArrayViewMut2<f32>,
) {
    let h = net.hidden;
    let w1 = ArrayView2::from_shape((net.inputs, h), &net.hidden_weights).expect("hidden weights shape");
    let w2 = ArrayView2::from_shape((net.outputs, h), &net.output_weights).expect("output weights shape");
    general_mat_mul(1.0, x, &w1, 0.0, a);
    let bh = net.beta_hidden;
    for mut row in a.rows_mut() {
        for (v, &th) in row.iter_mut().zip(&net.hidden_thresholds) {
            *v = act.hidden(bh, *v + th);
        }
    }
    general_mat_mul(1.0, &*a, &w2.t(), 0.0, y);
    let bo = net.beta_output;
    for mut row in y.rows_mut() {
        for (v, &th) in row.iter_mut().zip(&net.output_thresholds) {
            *v = act.output(bo, *v + th);
        }
    }
}

/// Output deltas `dz = β_o·∂L/∂u` (u the effective pre-activation) and the sums.
fn output_deltas(
    net: &Net,
    loss: Loss,
    y: &ArrayView2<f32>,
    t: &ArrayView2<f32>,
    dz: &mut ArrayViewMut2<f32>,
) -> Sums {
    let bo = net.beta_output;
    let mut sums = Sums {
        rows: y.nrows() as u64,
        ..Sums::default()
    };
    for ((yr, tr), mut dr) in y.rows().into_iter().zip(t.rows()).zip(dz.rows_mut()) {
        for ((&yv, &tv), d) in yr.iter().zip(tr.iter()).zip(dr.iter_mut()) {
            let (l, du) = loss.term(yv, tv);
            sums.loss += l;
            sums.sq += f64::from((yv - tv) * (yv - tv));
            *d = bo * du;
        }
        if yr.len() == 5 {
            // Equity difference: 2Δw + Δwg − Δlg + Δwbg − Δlbg.
            let d = |k: usize| f64::from(yr[k]) - f64::from(tr[k]);
            let e = 2.0 * d(0) + d(1) - d(3) + d(2) - d(4);
            sums.eq_sq += e * e;
        }
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small net with irregular weights.
    fn net(inputs: usize, hidden: usize) -> Net {
        let mut n = Net::zeros(inputs, hidden, 5);
        let mut s = 7u32;
        let mut next = || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / (1 << 24) as f32 - 0.5
        };
        n.hidden_weights.iter_mut().for_each(|w| *w = 4.0 * next());
        n.hidden_thresholds.iter_mut().for_each(|w| *w = 2.0 * next());
        n.output_weights.iter_mut().for_each(|w| *w = 2.0 * next());
        n.output_thresholds.iter_mut().for_each(|w| *w = next());
        n
    }

    /// An independent scalar reference in f64 with the exact logistic.
    fn loss_f64(n: &Net, loss: Loss, xs: &[Vec<f64>], ts: &[[f64; 5]]) -> f64 {
        let f = |v: f64| 1.0 / (1.0 + (-v).exp());
        let mut total = 0.0;
        for (x, t) in xs.iter().zip(ts) {
            let a: Vec<f64> = (0..n.hidden)
                .map(|j| {
                    let s: f64 = f64::from(n.hidden_thresholds[j])
                        + (0..n.inputs)
                            .map(|i| f64::from(n.hidden_weights[i * n.hidden + j]) * x[i])
                            .sum::<f64>();
                    f(f64::from(n.beta_hidden) * s)
                })
                .collect();
            for (k, &tk) in t.iter().enumerate() {
                let s: f64 = f64::from(n.output_thresholds[k])
                    + (0..n.hidden)
                        .map(|j| f64::from(n.output_weights[k * n.hidden + j]) * a[j])
                        .sum::<f64>();
                let y = f(f64::from(n.beta_output) * s);
                total += match loss {
                    Loss::Mse => (y - tk).powi(2),
                    Loss::CrossEntropy => -(tk * y.ln() + (1.0 - tk) * (1.0 - y).ln()),
                };
            }
        }
        total
    }

    fn data(n: &Net, rows: usize) -> (Vec<Vec<f64>>, Vec<[f64; 5]>) {
        let mut s = 99u32;
        let mut next = || {
            s = s.wrapping_mul(22_695_477).wrapping_add(1);
            f64::from(s >> 8) / f64::from(1u32 << 24)
        };
        let xs = (0..rows)
            .map(|_| {
                (0..n.inputs)
                    .map(|_| {
                        if next() < 0.4 {
                            0.0
                        } else {
                            (next() * 4.0).floor() / 2.0
                        }
                    })
                    .collect()
            })
            .collect();
        let ts = (0..rows)
            .map(|_| [next(), next() * 0.3, next() * 0.05, next() * 0.3, next() * 0.05])
            .collect();
        (xs, ts)
    }

    #[test]
    fn backward_pass_equals_finite_differences_of_the_exact_loss() {
        for loss in [Loss::Mse, Loss::CrossEntropy] {
            let n = net(12, 8);
            let (xs, ts) = data(&n, 20);
            let mut c = Chunk::new(&n);
            c.rows = xs.len();
            for (r, x) in xs.iter().enumerate() {
                for (d, &v) in c.input_row(r).iter_mut().zip(x) {
                    *d = v as f32;
                }
                for (k, &v) in ts[r].iter().enumerate() {
                    c.t[[r, k]] = v as f32;
                }
            }
            let mut g = Grads::zeros(&n);
            let sums = c.gradient(&n, Activation::Logistic, loss, &mut g);
            let exact = loss_f64(&n, loss, &xs, &ts);
            assert!(
                (sums.loss - exact).abs() < 1e-4 * exact.max(1.0),
                "{loss}: {} vs {exact}",
                sums.loss
            );
            // Central differences in f64 on every parameter, against the f32 gradient.
            let h = 1e-3f32;
            let mut worst = 0f64;
            let mut check = |which: usize, idx: usize, analytic: f32| {
                let mut plus = n.clone();
                let mut minus = n.clone();
                let (p, m) = match which {
                    0 => (&mut plus.hidden_weights[idx], &mut minus.hidden_weights[idx]),
                    1 => (
                        &mut plus.hidden_thresholds[idx],
                        &mut minus.hidden_thresholds[idx],
                    ),
                    2 => (&mut plus.output_weights[idx], &mut minus.output_weights[idx]),
                    _ => (
                        &mut plus.output_thresholds[idx],
                        &mut minus.output_thresholds[idx],
                    ),
                };
                *p += h;
                *m -= h;
                let step = f64::from(*p) - f64::from(*m);
                let numeric = (loss_f64(&plus, loss, &xs, &ts) - loss_f64(&minus, loss, &xs, &ts)) / step;
                let err = (numeric - f64::from(analytic)).abs() / numeric.abs().max(1e-2);
                worst = worst.max(err);
                assert!(
                    err < 2e-3,
                    "{loss} param {which}/{idx}: numeric {numeric}, analytic {analytic}"
                );
            };
            for (i, &v) in g.hw.iter().enumerate() {
                check(0, i, v);
            }
            for (i, &v) in g.ht.iter().enumerate() {
                check(1, i, v);
            }
            for (i, &v) in g.ow.iter().enumerate() {
                check(2, i, v);
            }
            for (i, &v) in g.ot.iter().enumerate() {
                check(3, i, v);
            }
            assert!(worst > 0.0);
        }
    }

    #[test]
    fn gnubg_activation_matches_the_evaluators_forward_pass() {
        let n = net(30, 12);
        let (xs, _) = data(&n, 25);
        let mut c = Chunk::new(&n);
        c.rows = xs.len();
        for (r, x) in xs.iter().enumerate() {
            for (d, &v) in c.input_row(r).iter_mut().zip(x) {
                *d = v as f32;
            }
        }
        c.forward(&n, Activation::Gnubg);
        let mut scratch = Vec::new();
        for (r, x) in xs.iter().enumerate() {
            let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            let mut out = [0f32; 5];
            evaluator::net::evaluate(&n, &x32, &mut scratch, &mut out);
            for (k, &o) in out.iter().enumerate() {
                let d = (c.outputs()[[r, k]] - o).abs();
                // Only the summation order differs.
                assert!(d < 2e-6, "row {r} output {k}: {} vs {}", c.outputs()[[r, k]], o);
            }
        }
    }
}

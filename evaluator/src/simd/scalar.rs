//! The scalar twin of the vector kernels: the reference every kernel is tested to agree
//! with bit for bit, and the path off x86-64 or under `BGKIT_SIMD=scalar`.

use crate::sigmoid::{logistic_vector_style, sigmoid};
use crate::weights::Net;

/// Adds the weighted inputs to `sums` (which must hold the thresholds), scalar.
pub fn hidden_sums(net: &Net, inputs: &[f32], sums: &mut [f32]) {
    let h = net.hidden;
    for (i, &x) in inputs.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        let row = &net.hidden_weights[i * h..i * h + h];
        if x == 1.0 {
            sums.iter_mut().zip(row).for_each(|(s, &w)| *s += w);
        } else {
            sums.iter_mut().zip(row).for_each(|(s, &w)| *s += w * x);
        }
    }
}

/// Applies the hidden activation in place, scalar.
pub fn activate(beta: f32, sums: &mut [f32]) {
    sums.iter_mut()
        .for_each(|s| *s = logistic_vector_style(*s * beta));
}

/// The five outputs from the hidden activations, with gnubg's SSE2 summation order.
pub fn outputs(net: &Net, act: &[f32], out: &mut [f32; 5]) {
    let h = net.hidden;
    for (k, o) in out.iter_mut().enumerate() {
        let row = &net.output_weights[k * h..k * h + h];
        let mut lane = [0f32; 4];
        let full = h / 4 * 4;
        for j in (0..full).step_by(4) {
            for l in 0..4 {
                lane[l] += act[j + l] * row[j + l];
            }
        }
        let mut r = (lane[0] + lane[1]) + (lane[2] + lane[3]);
        for j in full..h {
            r += act[j] * row[j];
        }
        *o = sigmoid(-net.beta_output * (r + net.output_thresholds[k]));
    }
}

//! The forward pass of a gnubg net, computed exactly as gnubg's SSE2 build does, so
//! that outputs match gnubg to the last bit.
//!
//! * Hidden sums: each unit starts at its threshold and adds, input by input in index
//!   order, the weight (input 1.0) or weight × input (skipping zeros); vectorised
//!   across units, which does not change any unit's order of operations.
//! * Hidden activation: `logistic(β_h · sum)` in the vectorised style
//!   ([`crate::sigmoid::logistic_vector_style`]).
//! * Outputs: the products activation × weight are summed in four interleaved lanes
//!   (units 0,4,8,… / 1,5,9,… / …), the lanes combined as (l0 + l1) + (l2 + l3), the
//!   threshold added, and gnubg's scalar sigmoid applied to −β_o · total.
//!
//! The layers are computed by [`crate::simd`] (vector kernels and their scalar twin,
//! tested to agree bit for bit); this module composes them.

use crate::weights::Net;

/// Evaluates a net on `inputs` into `out`, using `scratch` (resized to `hidden` floats)
/// for the hidden layer, with the best kernel this CPU has.
pub fn evaluate(net: &Net, inputs: &[f32], scratch: &mut Vec<f32>, out: &mut [f32; 5]) {
    scratch.resize(net.hidden, 0.0);
    evaluate_with(net, None, inputs, scratch, out);
}

/// [`evaluate`] with the net's output weights laid out by
/// [`crate::simd::interleave_outputs`] (faster on AVX-512; same results), if the caller
/// keeps them. `scratch` holds the `hidden` activations (exactly that many; a buffer
/// from [`crate::aligned::AlignedFloats`] is fastest).
pub fn evaluate_with(
    net: &Net,
    interleaved: Option<&[f32]>,
    inputs: &[f32],
    scratch: &mut [f32],
    out: &mut [f32; 5],
) {
    debug_assert_eq!(inputs.len(), net.inputs);
    crate::simd::hidden_layer(net, inputs, scratch);
    crate::simd::output_layer(net, interleaved, scratch, out);
}

/// [`evaluate`] for two input vectors of the same net at once (same results).
/// `interleaved`: the net's output weights laid out by [`crate::simd::interleave_outputs`]
/// (faster on AVX-512), if the caller keeps them. `scratch`: as for [`evaluate_with`].
pub fn evaluate_pair(
    net: &Net,
    interleaved: Option<&[f32]>,
    inputs: [&[f32]; 2],
    scratch: [&mut [f32]; 2],
    out: [&mut [f32; 5]; 2],
) {
    debug_assert!(inputs.iter().all(|i| i.len() == net.inputs));
    let [a, b] = scratch;
    crate::simd::hidden_layer_pair(net, inputs, [a, b]);
    crate::simd::output_layer_pair(net, interleaved, [&a[..], &b[..]], out);
}

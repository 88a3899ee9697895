//! Vector kernels, chosen once at run time, each with portable code it is tested to
//! agree with bit for bit. All `unsafe` code of the crate lives here.
//!
//! * Forward pass: hidden layer (one position, or two sharing each weight row:
//!   `avx2_pair` and `avx512`) and activation in `avx2` and `avx512`, output layer in `sse` (and `avx512`); CPU
//!   detection in `cpu`; the scalar twin of them all is [`scalar`]. The layering is
//!   one way: [`crate::sigmoid`] and [`crate::weights`] below, `crate::net` above.
//! * Contact features: slot bit masks ([`slot_masks`], SSE2), weighted checker sums
//!   (`sums`, SSE2), the PIPLOSS/P1/P2 shot count (`shots`, AVX-512 with one roll per
//!   lane; `shots_avx2`, the same lanes in 256-bit registers), mobility and containment
//!   (`escapes`, AVX-512 and AVX2 with one checker position per lane); the scalar
//!   references are in `crate::inputs`.
//! * Training's fast mode (`fused`): hidden and output layers of up to four positions
//!   at once with fused multiply-adds, AVX-512 and AVX2+FMA, with their own scalar
//!   twin (not gnubg's bits; the same bits on every kernel).
//! * Training: the rank-one weight update of a gradient step ([`add_outer`]) and the
//!   merge of a copy's changes ([`add_difference`], or [`add_difference_onto`] into the
//!   copy), in `update`: the portable loops compiled for AVX2 and AVX-512, the same
//!   bits.
//!
//! Set `BGKIT_SIMD=scalar`, `avx2` or `avx512` (any case) to force a path; an
//! unsupported choice falls back to the best available one below it, and the tools
//! refuse a value that names no kernel ([`requested_kernel`]). (SSE2 is part of x86-64 and always
//! used there.)

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx2_pair;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod cpu;
mod escapes;
mod fused;
pub mod scalar;
mod shots;
mod shots_avx2;
#[cfg(target_arch = "x86_64")]
mod sse;
mod sums;
#[cfg(test)]
mod tests;
mod update;

pub use escapes::{EscapeSums, TABLE_BYTES as ESCAPE_TABLE_BYTES};
pub use fused::{
    fits_fused, hidden_fused_scalar, hidden_layer_fused_with, output_layer_fused_with, outputs_fused_scalar,
    FUSED_GROUP,
};
pub use shots::ShotMasks;
pub use sums::{beyond, checker_total, side_sums, SideSums};
pub use update::{add_difference_onto_with, add_difference_with, add_outer_with};

pub use crate::sigmoid::approx_recip;

use std::sync::OnceLock;

use crate::weights::Net;

/// The kernels available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Portable Rust.
    Scalar,
    /// x86-64 AVX2 (no FMA in the exact kernels: the results are bit-identical to
    /// scalar; the fused kernels of training's fast mode also need FMA).
    Avx2,
    /// x86-64 AVX-512 (F, BW, CD; the activation's approximate reciprocal stays the
    /// 256-bit `vrcpps`), bit-identical too.
    Avx512,
}

impl Kernel {
    /// The kernel's name as `BGKIT_SIMD` takes it: `scalar`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }
}

/// The kernel `BGKIT_SIMD` asks for: `None` when it is unset or empty, else its value
/// read without regard to case (`avx512` or `Avx512`, the [`Kernel`] names as `Debug`
/// prints them); an error naming the value when it is none of them. The tools refuse
/// such a value ([`kernel`] alone would ignore it).
pub fn requested_kernel() -> Result<Option<Kernel>, String> {
    let Some(value) = std::env::var_os("BGKIT_SIMD").filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let text = value.to_string_lossy();
    [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512]
        .into_iter()
        .find(|k| k.name().eq_ignore_ascii_case(&text))
        .map(Some)
        .ok_or_else(|| format!("BGKIT_SIMD is '{text}': give scalar, avx2 or avx512, or unset it"))
}

/// The kernel in use (detected once; `BGKIT_SIMD` overrides: a kernel this CPU lacks
/// falls back to the best one below it, a value that names no kernel is ignored).
pub fn kernel() -> Kernel {
    static KERNEL: OnceLock<Kernel> = OnceLock::new();
    *KERNEL.get_or_init(|| {
        let wanted = requested_kernel().ok().flatten();
        match wanted {
            Some(Kernel::Scalar) => Kernel::Scalar,
            Some(Kernel::Avx2) if cpu::has_avx2() => Kernel::Avx2,
            _ if cpu::has_avx512() && wanted != Some(Kernel::Avx2) => Kernel::Avx512,
            _ if cpu::has_avx2() => Kernel::Avx2,
            _ => Kernel::Scalar,
        }
    })
}

/// `w[i·n + j] += (s · x[i]) · g[j]` for every `i` with `x[i] != 0`, `n = g.len()`:
/// the weight update of a gradient step (rows of `w` for the non-zero inputs `x`, each
/// moved along `g`). Bit-identical on every kernel (one multiply and one add per
/// element, in that order).
pub fn add_outer(w: &mut [f32], x: &[f32], s: f32, g: &[f32]) {
    add_outer_with(kernel(), w, x, s, g);
}

/// `m[j] += o[j] − b[j]` for every `j` (over the shortest of the three): adds what a
/// copy of the weights learned (`o`, copied from `b`) to `m`. Bit-identical on every
/// kernel.
pub fn add_difference(m: &mut [f32], o: &[f32], b: &[f32]) {
    add_difference_with(kernel(), m, o, b);
}

/// `o[j] = m[j] + (o[j] − b[j])` for every `j` (over the shortest of the three): the
/// sum [`add_difference`] writes into `m`, written into the learned copy `o` instead
/// (the same bits), so that the merged weights need no copy of their own.
/// Bit-identical on every kernel.
pub fn add_difference_onto(o: &mut [f32], m: &[f32], b: &[f32]) {
    add_difference_onto_with(kernel(), o, m, b);
}

/// `words[i / 64] |= 1 << (i % 64)` for every input `i` with `x[i] != 0` (up to
/// `64 · words.len()` inputs): the weight rows [`add_outer`] changes, as bits. SSE on
/// x86-64 (the portable code's bits), portable code elsewhere.
pub fn or_nonzero_bits(x: &[f32], words: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of the x86-64 baseline.
    unsafe {
        update::or_nonzero_bits_sse(x, words)
    }
    #[cfg(not(target_arch = "x86_64"))]
    update::or_nonzero_bits_portable(x, words)
}

/// The output layer (gnubg's SSE summation order); SSE on x86-64, scalar elsewhere.
/// `interleaved`: [`interleave_outputs`] of the net, if the caller keeps it (faster
/// with AVX-512, same bits).
pub fn output_layer(net: &Net, interleaved: Option<&[f32]>, act: &[f32], out: &mut [f32; 5]) {
    assert_outputs_fit(net, &[act]);
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(w) = interleaved.filter(|w| interleaved_fits(net, w)) {
            // SAFETY: the Avx512 kernel is only chosen where AVX-512F is present; `w`
            // has the interleaved layout's length.
            return unsafe { avx512::outputs_512(net, w, [act], [out]) };
        }
        // SAFETY: SSE is part of the x86-64 baseline.
        unsafe { sse::outputs(net, act, out) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = interleaved;
        scalar::outputs(net, act, out)
    }
}

/// The hidden kernels read a weight row per input and write `net.hidden` activations,
/// starting from as many thresholds.
fn assert_hidden_fits(net: &Net, inputs: usize, act_lens: impl IntoIterator<Item = usize>) {
    assert!(
        net.hidden_weights.len() >= inputs * net.hidden,
        "a row of hidden weights per input"
    );
    assert!(
        act_lens.into_iter().all(|n| n == net.hidden),
        "one activation per hidden unit"
    );
    assert_eq!(
        net.hidden_thresholds.len(),
        net.hidden,
        "one threshold per hidden unit"
    );
}

/// The output kernels read `net.hidden` activations and five rows of output weights.
fn assert_outputs_fit(net: &Net, act: &[&[f32]]) {
    assert!(
        act.iter().all(|a| a.len() >= net.hidden),
        "one activation per hidden unit"
    );
    assert!(
        net.output_weights.len() >= 5 * net.hidden,
        "five rows of output weights"
    );
    assert!(net.output_thresholds.len() >= 5, "five output thresholds");
}

/// Whether the AVX-512 output kernel is in use and `w` is the net's interleaved layout.
fn interleaved_fits(net: &Net, w: &[f32]) -> bool {
    kernel() == Kernel::Avx512 && net.outputs == 5 && w.len() == 4 * (net.hidden / 4 * 4)
}

/// Bit masks of one side's 25 slots (bit i: slot i; slot 24 is the bar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotMasks {
    /// Slots holding any checker.
    pub any: u32,
    /// Slots holding exactly one.
    pub one: u32,
    /// Slots holding exactly two.
    pub two: u32,
    /// Slots holding two or more (made points).
    pub made: u32,
}

impl SlotMasks {
    /// The highest occupied slot (24: the bar), or −1 when the side has no checker left.
    #[inline]
    pub fn rearmost(&self) -> i32 {
        31 - self.any.leading_zeros() as i32
    }
}

/// The [`SlotMasks`] of a side: byte compares and `movemask` (SSE2, part of x86-64),
/// portable code elsewhere.
#[inline]
pub fn slot_masks(side: &[u8; 25]) -> SlotMasks {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // Slots 0..16 and 9..25, both loads inside the side (a padded copy would make
        // the second load wait for the copy's stores).
        // SAFETY: SSE2 is part of the x86-64 baseline; both loads lie inside `side`.
        unsafe {
            let lo = _mm_loadu_si128(side.as_ptr().cast());
            let hi = _mm_loadu_si128(side.as_ptr().add(9).cast());
            let mask = |f: &dyn Fn(__m128i) -> __m128i| {
                _mm_movemask_epi8(f(lo)) as u32 | (_mm_movemask_epi8(f(hi)) as u32) << 9
            };
            let zero = _mm_setzero_si128();
            SlotMasks {
                any: !mask(&|x| _mm_cmpeq_epi8(x, zero)) & 0x1ff_ffff,
                one: mask(&|x| _mm_cmpeq_epi8(x, _mm_set1_epi8(1))),
                two: mask(&|x| _mm_cmpeq_epi8(x, _mm_set1_epi8(2))),
                // Counts are at most 15, so a signed compare is exact.
                made: mask(&|x| _mm_cmpgt_epi8(x, _mm_set1_epi8(1))),
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        slot_masks_scalar(side)
    }
}

/// [`slot_masks`] in portable code.
pub fn slot_masks_scalar(side: &[u8; 25]) -> SlotMasks {
    let bits = |f: &dyn Fn(u8) -> bool| {
        side.iter()
            .enumerate()
            .fold(0u32, |m, (i, &n)| m | (u32::from(f(n)) << i))
    };
    SlotMasks {
        any: bits(&|n| n > 0),
        one: bits(&|n| n == 1),
        two: bits(&|n| n == 2),
        made: bits(&|n| n >= 2),
    }
}

/// `Some(call)` of an x86-64 vector kernel when `available` (the CPU has the features
/// the kernel is compiled for), else `None` (and always `None` on other CPUs).
macro_rules! when_available {
    ($available:expr, $call:expr) => {{
        if !$available {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU supports the kernel's target features (checked just above).
        return Some(unsafe { $call });
        #[cfg(not(target_arch = "x86_64"))]
        None
    }};
}

/// Mobility and containment of one side by the vector kernel in use (AVX-512 where the
/// CPU also has AVX-512BW, else AVX2); `None` for the scalar kernel or without those
/// (the caller then loops in scalar code). `table`: the escape counts, padded (see
/// [`ESCAPE_TABLE_BYTES`]).
#[inline]
pub fn escape_sums(
    table: &[u8; ESCAPE_TABLE_BYTES],
    me: &[u8; 25],
    my_made: u32,
    opp_made: u32,
    near_end: i32,
) -> Option<EscapeSums> {
    match kernel() {
        Kernel::Avx512 => escape_sums_avx512(table, me, my_made, opp_made, near_end),
        Kernel::Avx2 => escape_sums_avx2(table, me, my_made, opp_made, near_end),
        Kernel::Scalar => None,
    }
}

/// [`escape_sums`] by the AVX2 kernel whatever the kernel in use, for tests; `None`
/// where the CPU lacks it.
pub fn escape_sums_avx2(
    table: &[u8; ESCAPE_TABLE_BYTES],
    me: &[u8; 25],
    my_made: u32,
    opp_made: u32,
    near_end: i32,
) -> Option<EscapeSums> {
    when_available!(
        escapes::available_avx2(),
        escapes::escape_sums_avx2(table, me, my_made, opp_made, near_end)
    )
}

/// [`escape_sums`] by the AVX-512 kernel whatever the kernel in use, for tests; `None`
/// where the CPU lacks it.
pub fn escape_sums_avx512(
    table: &[u8; ESCAPE_TABLE_BYTES],
    me: &[u8; 25],
    my_made: u32,
    opp_made: u32,
    near_end: i32,
) -> Option<EscapeSums> {
    when_available!(
        escapes::available(),
        escapes::escape_sums(table, me, my_made, opp_made, near_end)
    )
}

/// The shot count (pips lost, rolls hitting one, rolls hitting two) by the vector
/// kernel in use (AVX-512 where the CPU also has AVX-512CD, else AVX2); `None` for the
/// scalar kernel or without those (the caller then counts in scalar code).
#[inline]
pub fn shot_count(masks: ShotMasks) -> Option<(i32, i32, i32)> {
    match kernel() {
        Kernel::Avx512 => shot_count_avx512(masks),
        Kernel::Avx2 => shot_count_avx2(masks),
        Kernel::Scalar => None,
    }
}

/// [`shot_count`] by the AVX2 kernel whatever the kernel in use, for tests; `None`
/// where the CPU lacks it.
pub fn shot_count_avx2(masks: ShotMasks) -> Option<(i32, i32, i32)> {
    when_available!(shots_avx2::available(), shots_avx2::count(masks).get())
}

/// [`shot_count`] by the AVX-512 kernel whatever the kernel in use, for tests; `None`
/// where the CPU lacks it.
pub fn shot_count_avx512(masks: ShotMasks) -> Option<(i32, i32, i32)> {
    when_available!(shots::available(), shots::count(masks).get())
}

/// Hidden activations of two input vectors of one net at once, into `act` (each
/// `net.hidden` long; the thresholds come from the net); the same bits as
/// [`hidden_layer`] on each.
pub fn hidden_layer_pair(net: &Net, inputs: [&[f32]; 2], act: [&mut [f32]; 2]) {
    hidden_layer_pair_with(kernel(), net, inputs, act);
}

/// [`hidden_layer_pair`] with a chosen kernel: AVX-512 and AVX2 share each weight row
/// between the two; the scalar kernel evaluates one after the other.
pub fn hidden_layer_pair_with(kernel: Kernel, net: &Net, inputs: [&[f32]; 2], act: [&mut [f32]; 2]) {
    assert_eq!(inputs[0].len(), inputs[1].len(), "inputs of one net");
    assert_hidden_fits(net, inputs[0].len(), act.iter().map(|a| a.len()));
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 if cpu::has_avx512() => {
            // SAFETY: the CPU supports AVX-512F, AVX2 and POPCNT (checked just above);
            // the shapes were checked by assert_hidden_fits.
            unsafe { avx512::hidden_layer_pair_512(net, inputs, act) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if cpu::has_avx2() => {
            // SAFETY: the CPU supports AVX2 and POPCNT (checked just above); the shapes
            // were checked by assert_hidden_fits.
            unsafe { avx2_pair::hidden_layer_pair_from(net, &net.hidden_thresholds, inputs, act) }
        }
        _ => {
            let [a, b] = act;
            hidden_layer_with(kernel, net, inputs[0], a);
            hidden_layer_with(kernel, net, inputs[1], b);
        }
    }
}

/// [`output_layer`] for two activation vectors at once (interleaved, same bits).
/// `interleaved`: [`interleave_outputs`] of the net, for the AVX-512 kernel.
pub fn output_layer_pair(net: &Net, interleaved: Option<&[f32]>, act: [&[f32]; 2], out: [&mut [f32; 5]; 2]) {
    assert_outputs_fit(net, &act);
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(w) = interleaved.filter(|w| interleaved_fits(net, w)) {
            // SAFETY: as in output_layer.
            return unsafe { avx512::outputs_512(net, w, act, out) };
        }
        // SAFETY: SSE is part of the x86-64 baseline.
        unsafe { sse::outputs_pair(net, act, out) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = interleaved;
        let [a, b] = out;
        scalar::outputs(net, act[0], a);
        scalar::outputs(net, act[1], b);
    }
}

/// Output weights laid out for the AVX-512 output kernel of [`output_layer`] and
/// [`output_layer_pair`].
pub fn interleave_outputs(net: &Net) -> Vec<f32> {
    let h = net.hidden;
    let full = h / 4 * 4;
    let mut v = Vec::with_capacity(4 * full);
    if net.outputs < 4 {
        return v;
    }
    for j in (0..full).step_by(4) {
        for k in 0..4 {
            v.extend_from_slice(&net.output_weights[k * h + j..k * h + j + 4]);
        }
    }
    v
}

/// [`hidden_layer`] starting from the sums `start` instead of the net's thresholds,
/// into `out`: the activations, or with `activate` false the sums before them. With a
/// base position's sums as `start` and another position's input differences from the
/// base as `inputs`, this evaluates that position incrementally, adding only the rows
/// whose inputs differ, as gnubg's evaluation "from base" does. That is not
/// bit-identical to a full evaluation (the sums are added in another order); every
/// kernel gives the same bits.
pub fn hidden_layer_from(net: &Net, start: &[f32], inputs: &[f32], out: &mut [f32], activate: bool) {
    hidden_layer_from_with(kernel(), net, start, inputs, out, activate);
}

/// [`hidden_layer_from`] with a chosen kernel (tests run every kernel).
pub fn hidden_layer_from_with(
    kernel: Kernel,
    net: &Net,
    start: &[f32],
    inputs: &[f32],
    out: &mut [f32],
    activate: bool,
) {
    assert_hidden_fits(net, inputs.len(), [start.len(), out.len()]);
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx512 && cpu::has_avx512() && avx512::fits_512(net, inputs.len()) {
        // SAFETY: the CPU supports AVX-512F, AVX2 and POPCNT (checked just above); the
        // shapes were checked by assert_hidden_fits and fits_512.
        return unsafe { avx512::hidden_layer_512_from(net, start, inputs, out, activate) };
    }
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 && cpu::has_avx2() {
        // SAFETY: the CPU supports AVX2 (checked just above); the shapes were checked
        // by assert_hidden_fits.
        return unsafe { avx2::hidden_layer_from(net, start, inputs, out, activate) };
    }
    out.copy_from_slice(start);
    scalar::hidden_sums(net, inputs, out);
    if activate {
        scalar::activate(net.beta_hidden, out);
    }
}

/// [`hidden_layer_from`] (activations) for two input vectors from the same sums at
/// once, each weight row loaded once for both; the same bits as one at a time.
pub fn hidden_layer_pair_from(net: &Net, start: &[f32], inputs: [&[f32]; 2], act: [&mut [f32]; 2]) {
    hidden_layer_pair_from_with(kernel(), net, start, inputs, act);
}

/// [`hidden_layer_pair_from`] with a chosen kernel.
pub fn hidden_layer_pair_from_with(
    kernel: Kernel,
    net: &Net,
    start: &[f32],
    inputs: [&[f32]; 2],
    act: [&mut [f32]; 2],
) {
    assert_eq!(inputs[0].len(), inputs[1].len(), "inputs of one net");
    assert_hidden_fits(net, inputs[0].len(), [start.len(), act[0].len(), act[1].len()]);
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx512 && cpu::has_avx512() && avx512::fits_512(net, inputs[0].len()) {
        // SAFETY: the CPU supports AVX-512F, AVX2 and POPCNT (checked just above); the
        // shapes were checked by assert_hidden_fits and fits_512.
        return unsafe { avx512::hidden_layer_pair_512_from(net, start, inputs, act) };
    }
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 && cpu::has_avx2() {
        // SAFETY: the CPU supports AVX2 and POPCNT (checked just above); the shapes
        // were checked by assert_hidden_fits.
        return unsafe { avx2_pair::hidden_layer_pair_from(net, start, inputs, act) };
    }
    let [a, b] = act;
    hidden_layer_from_with(kernel, net, start, inputs[0], a, true);
    hidden_layer_from_with(kernel, net, start, inputs[1], b, true);
}

/// [`hidden_layer_fused_with`] with the kernel in use: training's fast mode, up to
/// [`FUSED_GROUP`] positions at once with fused multiply-adds (not gnubg's bits).
pub fn hidden_layer_fused(net: &Net, inputs: &[&[f32]], act: &mut [&mut [f32]]) {
    hidden_layer_fused_with(kernel(), net, inputs, act);
}

/// [`output_layer_fused_with`] with the kernel in use: the output layer of training's
/// fast mode (fused multiply-adds, not gnubg's summation order).
pub fn output_layer_fused(net: &Net, act: &[&[f32]], out: &mut [[f32; 5]]) {
    output_layer_fused_with(kernel(), net, act, out);
}

/// Hidden activations into `act` (`net.hidden` long): each unit's threshold plus its
/// weighted inputs, through the logistic.
pub fn hidden_layer(net: &Net, inputs: &[f32], act: &mut [f32]) {
    hidden_layer_with(kernel(), net, inputs, act);
}

/// [`hidden_layer`] with a chosen kernel (tests run every kernel).
pub fn hidden_layer_with(kernel: Kernel, net: &Net, inputs: &[f32], act: &mut [f32]) {
    assert_hidden_fits(net, inputs.len(), [act.len()]);
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 if cpu::has_avx512() => {
            // SAFETY: the CPU supports AVX-512F, AVX2 and POPCNT (checked just above);
            // the shapes were checked by assert_hidden_fits.
            unsafe { avx512::hidden_layer_512(net, inputs, act) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if cpu::has_avx2() => {
            // SAFETY: the CPU supports AVX2 (checked just above); the shapes were
            // checked by assert_hidden_fits.
            unsafe { avx2::hidden_layer(net, inputs, act) }
        }
        _ => hidden_layer_from_with(Kernel::Scalar, net, &net.hidden_thresholds, inputs, act, true),
    }
}

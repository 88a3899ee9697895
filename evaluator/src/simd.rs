//! Vector kernels, chosen once at run time, each with portable code it is tested to
//! agree with bit for bit. All `unsafe` code of the crate lives here.
//!
//! * Forward pass (`avx2`): hidden layer (one position, or two sharing each weight
//!   row), activation, output layer; the scalar reference is [`crate::net`].
//! * Contact features: slot bit masks ([`slot_masks`], SSE2), weighted checker sums
//!   (`sums`, SSE2), the PIPLOSS/P1/P2 shot count (`shots`, AVX-512 with one roll per
//!   lane), mobility and containment (`escapes`, AVX-512 with one checker position per
//!   lane); the scalar references are in `crate::inputs`.
//!
//! Set `BGKIT_SIMD=scalar`, `avx2` or `avx512` to force a path; an unsupported choice
//! falls back to the best available one below it. (SSE2 is part of x86-64 and always
//! used there.)

mod avx2;
mod escapes;
mod shots;
mod sums;

pub use escapes::{EscapeSums, TABLE_BYTES as ESCAPE_TABLE_BYTES};
pub use shots::ShotMasks;
pub use sums::{beyond, checker_total, side_sums, SideSums};

use std::sync::OnceLock;

use crate::net::{activate_scalar, hidden_sums_scalar};
use crate::weights::Net;

/// The kernels available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Portable Rust.
    Scalar,
    /// x86-64 AVX2 (no FMA: the results are bit-identical to scalar).
    Avx2,
    /// x86-64 AVX-512 (F, BW, CD; the activation's approximate reciprocal stays the
    /// 256-bit `vrcpps`), bit-identical too.
    Avx512,
}

/// The kernel in use (detected once; `BGKIT_SIMD` overrides).
pub fn kernel() -> Kernel {
    static KERNEL: OnceLock<Kernel> = OnceLock::new();
    *KERNEL.get_or_init(|| {
        let wanted = std::env::var("BGKIT_SIMD").unwrap_or_default();
        match wanted.as_str() {
            "scalar" => Kernel::Scalar,
            "avx2" if avx2::available() => Kernel::Avx2,
            _ if avx2::available_512() && wanted != "avx2" => Kernel::Avx512,
            _ if avx2::available() => Kernel::Avx2,
            _ => Kernel::Scalar,
        }
    })
}

/// gnubg's reciprocal in the hidden layer: the SSE `rcpss`/`rcpps` approximation on
/// x86-64 (relative error below 1.5·2⁻¹²; the exact bits are the CPU's, identical on
/// Intel processors), an exact division elsewhere.
#[inline(always)]
pub fn approx_recip(x: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cvtss_f32, _mm_rcp_ss, _mm_set_ss};
        // SAFETY: SSE is part of the x86-64 baseline.
        unsafe { _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        1.0 / x
    }
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
            return unsafe { avx2::outputs_512(net, w, [act], [out]) };
        }
        // SAFETY: SSE is part of the x86-64 baseline.
        unsafe { avx2::outputs(net, act, out) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = interleaved;
        crate::net::outputs(net, act, out)
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

/// Mobility and containment of one side by the AVX-512 kernel when it is the kernel in
/// use and the CPU also has AVX-512BW; `None` otherwise (the caller then loops in
/// scalar code). `table`: the escape counts, padded (see [`ESCAPE_TABLE_BYTES`]).
#[inline]
pub fn escape_sums(
    table: &[u8; ESCAPE_TABLE_BYTES],
    me: &[u8; 25],
    my_made: u32,
    opp_made: u32,
    near_end: i32,
) -> Option<EscapeSums> {
    if kernel() != Kernel::Avx512 {
        return None;
    }
    escape_sums_avx512(table, me, my_made, opp_made, near_end)
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
    if !escapes::available() {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU supports AVX-512F and AVX-512BW (checked just above).
    return Some(unsafe { escapes::escape_sums(table, me, my_made, opp_made, near_end) });
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// The shot count (pips lost, rolls hitting one, rolls hitting two) by the AVX-512
/// kernel when it is the kernel in use and the CPU also has AVX-512CD; `None` otherwise
/// (the caller then counts in scalar code).
#[inline]
pub fn shot_count(masks: ShotMasks) -> Option<(i32, i32, i32)> {
    if kernel() != Kernel::Avx512 {
        return None;
    }
    shot_count_avx512(masks)
}

/// [`shot_count`] by the AVX-512 kernel whatever the kernel in use, for tests; `None`
/// where the CPU lacks it.
pub fn shot_count_avx512(masks: ShotMasks) -> Option<(i32, i32, i32)> {
    if !shots::available() {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU supports AVX-512F and AVX-512CD (checked just above).
    return Some(unsafe { shots::count(masks) });
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// Hidden activations of two input vectors of one net at once, into `act` (each
/// `net.hidden` long; the thresholds come from the net); the same bits as
/// [`hidden_layer`] on each.
pub fn hidden_layer_pair(net: &Net, inputs: [&[f32]; 2], act: [&mut [f32]; 2]) {
    hidden_layer_pair_with(kernel(), net, inputs, act);
}

/// [`hidden_layer_pair`] with a chosen kernel: AVX-512 shares each weight row between
/// the two; the other kernels evaluate one after the other.
pub fn hidden_layer_pair_with(kernel: Kernel, net: &Net, inputs: [&[f32]; 2], act: [&mut [f32]; 2]) {
    assert_eq!(inputs[0].len(), inputs[1].len(), "inputs of one net");
    assert_hidden_fits(net, inputs[0].len(), act.iter().map(|a| a.len()));
    match kernel {
        Kernel::Avx512 if avx2::available_512() => {
            // SAFETY: the CPU supports AVX-512F, AVX2 and POPCNT (checked just above);
            // the shapes were checked by assert_hidden_fits.
            unsafe { avx2::hidden_layer_pair_512(net, inputs, act) }
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
            return unsafe { avx2::outputs_512(net, w, act, out) };
        }
        // SAFETY: SSE is part of the x86-64 baseline.
        unsafe { avx2::outputs_pair(net, act, out) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = interleaved;
        let [a, b] = out;
        crate::net::outputs(net, act[0], a);
        crate::net::outputs(net, act[1], b);
    }
}

/// Output weights laid out for the AVX-512 output kernel of [`output_layer`] and
/// [`output_layer_pair`].
pub fn interleave_outputs(net: &Net) -> Vec<f32> {
    avx2::interleave_outputs(net)
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

/// [`hidden_layer_from`] with a chosen kernel (AVX-512 or portable; tests run both).
pub fn hidden_layer_from_with(
    kernel: Kernel,
    net: &Net,
    start: &[f32],
    inputs: &[f32],
    out: &mut [f32],
    activate: bool,
) {
    assert_hidden_fits(net, inputs.len(), [start.len(), out.len()]);
    if kernel == Kernel::Avx512 && avx2::available_512() && avx2::fits_512(net, inputs.len()) {
        // SAFETY: the CPU supports AVX-512F, AVX2 and POPCNT (checked just above); the
        // shapes were checked by assert_hidden_fits and fits_512.
        return unsafe { avx2::hidden_layer_512_from(net, start, inputs, out, activate) };
    }
    out.copy_from_slice(start);
    hidden_sums_scalar(net, inputs, out);
    if activate {
        activate_scalar(net.beta_hidden, out);
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
    if kernel == Kernel::Avx512 && avx2::available_512() && avx2::fits_512(net, inputs[0].len()) {
        // SAFETY: the CPU supports AVX-512F, AVX2 and POPCNT (checked just above); the
        // shapes were checked by assert_hidden_fits and fits_512.
        return unsafe { avx2::hidden_layer_pair_512_from(net, start, inputs, act) };
    }
    let [a, b] = act;
    hidden_layer_from_with(kernel, net, start, inputs[0], a, true);
    hidden_layer_from_with(kernel, net, start, inputs[1], b, true);
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
        Kernel::Avx512 if avx2::available_512() => {
            // SAFETY: the CPU supports AVX-512F, AVX2 and POPCNT (checked just above);
            // the shapes were checked by assert_hidden_fits.
            unsafe { avx2::hidden_layer_512(net, inputs, act) }
        }
        Kernel::Avx2 if avx2::available() => {
            // SAFETY: the CPU supports AVX2 (checked just above); the shapes were
            // checked by assert_hidden_fits.
            unsafe { avx2::hidden_layer(net, inputs, act) }
        }
        _ => hidden_layer_from_with(Kernel::Scalar, net, &net.hidden_thresholds, inputs, act, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net with irregular weights and a hidden size that is not a multiple of 8.
    fn net(hidden: usize) -> Net {
        net_with_inputs(250, hidden)
    }

    fn net_with_inputs(inputs: usize, hidden: usize) -> Net {
        let mut n = Net::zeros(inputs, hidden, 5);
        let mut x = 12345u32;
        let mut next = || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 8) as f32 / (1 << 24) as f32 * 8.0 - 4.0
        };
        n.hidden_weights.iter_mut().for_each(|w| *w = next());
        n.hidden_thresholds.iter_mut().for_each(|w| *w = next() * 10.0);
        n
    }

    #[test]
    fn vector_and_scalar_reciprocals_agree_bit_for_bit() {
        if !avx2::available() {
            eprintln!("skipping: no AVX2");
            return;
        }
        let mut x = 1.0f32;
        while x < 20000.0 {
            let v = [
                x,
                x * 1.0001,
                x * 1.3,
                x * 1.7,
                x * 2.1,
                x * 3.3,
                x * 5.5,
                x * 7.9,
            ];
            // SAFETY: AVX2 checked above.
            let got = unsafe { avx2::recip8(v) };
            for (g, &y) in got.iter().zip(&v) {
                assert_eq!(g.to_bits(), approx_recip(y).to_bits(), "{y}");
            }
            x *= 1.000_37;
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn four_lane_sigmoid_agrees_bit_for_bit_with_scalar() {
        use std::arch::x86_64::*;
        let mut xs: Vec<f32> = vec![
            0.0, -0.0, 10.0, -10.0, 9.999_999, -9.999_999, 1e-30, -1e-30, 1e30, -1e30,
        ];
        xs.extend([
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            0.1,
            -0.1,
            9.95,
            -9.95,
        ]);
        // A fine sweep across the table's range and past it, and bit patterns in between.
        xs.extend((-130_000..=130_000).map(|k| k as f32 * 1e-4));
        let mut b = 0x3a00_0000u32;
        while b < 0x4200_0000 {
            xs.extend([f32::from_bits(b), -f32::from_bits(b)]);
            b += 997;
        }
        for chunk in xs.chunks(4) {
            let mut v = [0.5f32; 4];
            v[..chunk.len()].copy_from_slice(chunk);
            let mut got = [0f32; 4];
            // SAFETY: SSE2 is part of x86-64.
            unsafe { _mm_storeu_ps(got.as_mut_ptr(), avx2::sigmoid_ps(_mm_loadu_ps(v.as_ptr()))) };
            for (g, &x) in got.iter().zip(&v) {
                assert_eq!(
                    g.to_bits(),
                    crate::sigmoid::sigmoid(x).to_bits(),
                    "sigmoid({x:e})"
                );
            }
        }
    }

    #[test]
    fn slot_masks_agree_with_the_portable_code() {
        let mut side = [0u8; 25];
        for k in 0..2000u32 {
            side[(k * 7 % 25) as usize] = (k * 13 % 16) as u8;
            assert_eq!(slot_masks(&side), slot_masks_scalar(&side), "{side:?}");
        }
        let start = [
            0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0,
        ];
        let m = slot_masks(&start);
        assert_eq!(
            (m.any, m.one, m.two, m.made),
            (0x80_10a0, 0, 0x80_0000, 0x80_10a0)
        );
    }

    /// An activation buffer full of NaNs: every kernel must write all of it (from the
    /// net's thresholds), whatever it held.
    fn garbage(hidden: usize) -> Vec<f32> {
        vec![f32::NAN; hidden]
    }

    #[test]
    fn every_kernel_agrees_bit_for_bit_with_scalar() {
        for hidden in [5, 8, 13, 16, 32, 48, 64, 72, 128, 131, 144, 176, 256] {
            let n = net(hidden);
            let inputs: Vec<f32> = (0..250)
                .map(|i| [0.0, 1.0, 0.5, 2.5, 0.0, 0.123][i % 6])
                .collect();
            let mut want = garbage(hidden);
            hidden_layer_with(Kernel::Scalar, &n, &inputs, &mut want);
            let mut scalar_out = [0f32; 5];
            crate::net::outputs(&n, &want, &mut scalar_out);
            let mut fast_out = [0f32; 5];
            output_layer(&n, None, &want, &mut fast_out);
            assert_eq!(
                scalar_out.map(f32::to_bits),
                fast_out.map(f32::to_bits),
                "outputs, hidden {hidden}"
            );
            // The interleaved layout (the AVX-512 output kernel where present).
            let interleaved = interleave_outputs(&n);
            let mut laid_out = [0f32; 5];
            output_layer(&n, Some(&interleaved), &want, &mut laid_out);
            assert_eq!(
                scalar_out.map(f32::to_bits),
                laid_out.map(f32::to_bits),
                "interleaved outputs, hidden {hidden}"
            );
            for k in [Kernel::Avx2, Kernel::Avx512] {
                let ok = match k {
                    Kernel::Avx512 => avx2::available_512(),
                    _ => avx2::available(),
                };
                if !ok {
                    eprintln!("skipping {k:?}: not supported here");
                    continue;
                }
                let mut got = garbage(hidden);
                hidden_layer_with(k, &n, &inputs, &mut got);
                let same = want.iter().zip(&got).all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{k:?} differs at hidden size {hidden}");
                // In a pair, with zeros in different places in the partner's inputs
                // (and this one first or second).
                let other: Vec<f32> = (0..250).map(|i| [0.75, 0.0, 1.0, 0.0][i % 4]).collect();
                let mut want_other = garbage(hidden);
                hidden_layer_with(Kernel::Scalar, &n, &other, &mut want_other);
                let (mut x, mut y) = (garbage(hidden), garbage(hidden));
                hidden_layer_pair_with(k, &n, [&inputs, &other], [&mut x, &mut y]);
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    (bits(&x), bits(&y)),
                    (bits(&want), bits(&want_other)),
                    "{k:?} pair, hidden {hidden}"
                );
                let (mut x, mut y) = (garbage(hidden), garbage(hidden));
                hidden_layer_pair_with(k, &n, [&other, &inputs], [&mut x, &mut y]);
                assert_eq!(
                    (bits(&x), bits(&y)),
                    (bits(&want_other), bits(&want)),
                    "{k:?} pair, hidden {hidden}"
                );
                let mut single = [0f32; 5];
                output_layer(&n, None, &want_other, &mut single);
                for layout in [None, Some(&interleaved[..])] {
                    let (mut o1, mut o2) = ([0f32; 5], [0f32; 5]);
                    output_layer_pair(&n, layout, [&want, &want_other], [&mut o1, &mut o2]);
                    assert_eq!(
                        (o1.map(f32::to_bits), o2.map(f32::to_bits)),
                        (fast_out.map(f32::to_bits), single.map(f32::to_bits))
                    );
                }
            }
        }
    }

    #[test]
    fn every_kernel_agrees_on_any_input_length_and_sparsity() {
        for len in [7, 16, 200, 214, 250, 256] {
            let n = net_with_inputs(len, 128);
            let dense: Vec<f32> = (0..len).map(|i| [0.25, 1.0, -3.0][i % 3]).collect();
            let zeros = vec![0.0f32; len];
            // Non-zero only in the last block of sixteen (partly masked when len is not a
            // multiple of 16).
            let tail: Vec<f32> = (0..len)
                .map(|i| {
                    if i >= len / 16 * 16 && i % 2 == 0 {
                        1.5
                    } else {
                        0.0
                    }
                })
                .collect();
            let inputs = [dense, zeros, tail];
            let want: Vec<Vec<f32>> = inputs
                .iter()
                .map(|x| {
                    let mut a = garbage(128);
                    hidden_layer_with(Kernel::Scalar, &n, x, &mut a);
                    a
                })
                .collect();
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            for k in [Kernel::Avx2, Kernel::Avx512] {
                for (x, w) in inputs.iter().zip(&want) {
                    let mut got = garbage(128);
                    hidden_layer_with(k, &n, x, &mut got);
                    assert_eq!(bits(&got), bits(w), "{k:?}, {len} inputs");
                    for (y, v) in inputs.iter().zip(&want) {
                        let (mut a, mut b) = (garbage(128), garbage(128));
                        hidden_layer_pair_with(k, &n, [x, y], [&mut a, &mut b]);
                        assert_eq!((bits(&a), bits(&b)), (bits(w), bits(v)), "{k:?} pair, {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn layers_from_given_sums_agree_with_the_full_layer_and_across_kernels() {
        for hidden in [8, 128, 144] {
            let n = net(hidden);
            let base: Vec<f32> = (0..250).map(|i| [0.0, 1.0, 0.5, 0.0, 2.5][i % 5]).collect();
            let other: Vec<f32> = (0..250)
                .map(|i| if i % 7 == 3 { 0.75 } else { base[i] })
                .collect();
            let delta: Vec<f32> = other.iter().zip(&base).map(|(a, b)| a - b).collect();
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            let mut full = garbage(hidden);
            hidden_layer_with(Kernel::Scalar, &n, &base, &mut full);
            let mut full_other = garbage(hidden);
            hidden_layer_with(Kernel::Scalar, &n, &other, &mut full_other);
            let mut per_kernel = Vec::new();
            for k in [Kernel::Scalar, Kernel::Avx512] {
                // From the thresholds: the full layer, bit for bit.
                let mut act = garbage(hidden);
                hidden_layer_from_with(k, &n, &n.hidden_thresholds, &base, &mut act, true);
                assert_eq!(bits(&act), bits(&full), "{k:?}, hidden {hidden}");
                // The base's sums, then the other position from them.
                let mut sums = garbage(hidden);
                hidden_layer_from_with(k, &n, &n.hidden_thresholds, &base, &mut sums, false);
                let mut again = sums.clone();
                activate_scalar(n.beta_hidden, &mut again);
                assert_eq!(bits(&again), bits(&full), "sums, {k:?}");
                let mut inc = garbage(hidden);
                hidden_layer_from_with(k, &n, &sums, &delta, &mut inc, true);
                let worst = inc
                    .iter()
                    .zip(&full_other)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f32::max);
                assert!(worst < 1e-6, "{k:?}: incremental differs by {worst}");
                per_kernel.push(bits(&inc));
            }
            assert_eq!(per_kernel[0], per_kernel[1], "kernels agree, hidden {hidden}");
            // Two at once, in both orders, with the base itself (all differences zero).
            let zeros = vec![0.0f32; 250];
            let mut sums = garbage(hidden);
            hidden_layer_from(&n, &n.hidden_thresholds, &base, &mut sums, false);
            for k in [Kernel::Scalar, Kernel::Avx512] {
                for (x, y, wx, wy) in [
                    (&delta, &zeros, &per_kernel[0], &bits(&full)),
                    (&zeros, &delta, &bits(&full), &per_kernel[0]),
                ] {
                    let (mut a, mut b) = (garbage(hidden), garbage(hidden));
                    hidden_layer_pair_from_with(k, &n, &sums, [x, y], [&mut a, &mut b]);
                    assert_eq!((&bits(&a), &bits(&b)), (wx, wy), "{k:?} pair, hidden {hidden}");
                }
            }
        }
    }

    #[test]
    fn every_kernel_refuses_more_inputs_than_the_net_has_rows_for() {
        let n = net(128);
        let too_many = vec![1.0f32; n.inputs + 1];
        for kernel in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            let single = std::panic::catch_unwind(|| {
                hidden_layer_with(kernel, &n, &too_many, &mut vec![0.0; 128]);
            });
            let pair = std::panic::catch_unwind(|| {
                let (mut a, mut b) = (vec![0.0; 128], vec![0.0; 128]);
                hidden_layer_pair_with(kernel, &n, [&too_many, &too_many], [&mut a, &mut b]);
            });
            // Refused by the check itself, not by some later panic.
            for (what, r) in [("single", single), ("pair", pair)] {
                let message = r.expect_err(what);
                let message = message.downcast_ref::<&str>().copied().unwrap_or_default();
                assert_eq!(message, "a row of hidden weights per input", "{kernel:?} {what}");
            }
        }
    }
}

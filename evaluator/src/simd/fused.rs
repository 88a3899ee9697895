//! The fused hidden and output layers of training's fast mode: up to four positions of
//! one net at a time, each weight row loaded once for all of them, each sum built with
//! fused multiply-adds (one rounding per input instead of gnubg's two). Not gnubg's
//! bits, but the same bits on every kernel: the AVX-512 and AVX2 kernels add the rows
//! in index order, as the scalar twin does with `f32::mul_add` (a library call where
//! the CPU has no FMA: slow, but the same bits). Nets of other shapes ([`fits_fused`])
//! get the exact layers, which are the same bits on every kernel too.
//!
//! A row that is zero for one position of a group adds `w · 0` to that one's sums,
//! which for finite weights changes no sum except that −0 may become +0; the logistic
//! treats ±0 alike, so every position's activations are those of the scalar twin,
//! which skips zero inputs. (A net whose weights have overflowed to ±∞ or NaN gets NaN
//! from such rows, so its values would depend on the group.)

use super::{assert_hidden_fits, cpu, scalar, Kernel};
use crate::weights::Net;

/// Positions one call of the fused kernels takes at most.
pub const FUSED_GROUP: usize = 4;

/// Whether the fused layers take this net with inputs of this length: at most
/// `MAX_INPUTS` inputs and a hidden layer of a multiple of 16 units (gnubg's 128
/// included); other nets get the exact layers.
pub fn fits_fused(net: &Net, inputs: usize) -> bool {
    cpu::fits_sixteen(net, inputs)
}

/// Hidden activations of 1..=[`FUSED_GROUP`] input vectors of one net (of one length)
/// into `act` (as many, `net.hidden` long each), with fused multiply-adds where
/// [`fits_fused`], else exact; the same bits on every kernel.
pub fn hidden_layer_fused_with(kernel: Kernel, net: &Net, inputs: &[&[f32]], act: &mut [&mut [f32]]) {
    let p = inputs.len();
    assert!(
        (1..=FUSED_GROUP).contains(&p) && act.len() == p,
        "1 to 4 positions"
    );
    let n = inputs[0].len();
    assert!(inputs.iter().all(|x| x.len() == n), "inputs of one net");
    assert_hidden_fits(net, n, act.iter().map(|a| a.len()));
    if !fits_fused(net, n) {
        for (x, a) in inputs.iter().zip(act.iter_mut()) {
            super::hidden_layer_with(kernel, net, x, a);
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if kernel != Kernel::Scalar && cpu::has_fma() {
        let out: [*mut f32; FUSED_GROUP] =
            std::array::from_fn(|k| act.get_mut(k).map_or(std::ptr::null_mut(), |a| a.as_mut_ptr()));
        if kernel == Kernel::Avx512 && cpu::has_avx512() {
            // SAFETY: AVX-512F, AVX2, POPCNT and FMA are present (checked just above);
            // the shapes were checked above and the first p pointers are the
            // activation slices.
            return unsafe { x86::group_512(net, inputs, &out) };
        }
        if cpu::has_avx2() {
            // SAFETY: AVX2, POPCNT and FMA are present; shapes as above.
            return unsafe { x86::group_256(net, inputs, &out) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = kernel;
    for (x, a) in inputs.iter().zip(act.iter_mut()) {
        #[cfg(target_arch = "x86_64")]
        if cpu::has_fma() {
            // SAFETY: the CPU has FMA (checked just above).
            unsafe { x86::hidden_fused_scalar_fma(net, x, a) };
            continue;
        }
        hidden_fused_scalar(net, x, a);
    }
}

/// [`hidden_layer_fused_with`] on one position in portable code: the reference. (On
/// x86-64 without FMA, `f32::mul_add` is a library call: slow, the same bits.)
pub fn hidden_fused_scalar(net: &Net, inputs: &[f32], act: &mut [f32]) {
    hidden_fused_portable(net, inputs, act);
}

/// The body of [`hidden_fused_scalar`], inlined into its FMA build too.
#[inline(always)]
fn hidden_fused_portable(net: &Net, inputs: &[f32], act: &mut [f32]) {
    let h = net.hidden;
    act.copy_from_slice(&net.hidden_thresholds[..h]);
    for (i, &x) in inputs.iter().enumerate() {
        if x != 0.0 {
            let row = &net.hidden_weights[i * h..i * h + h];
            act.iter_mut().zip(row).for_each(|(s, &w)| *s = w.mul_add(x, *s));
        }
    }
    scalar::activate(net.beta_hidden, act);
}

/// The five outputs of 1..=[`FUSED_GROUP`] activation vectors in fused mode: each
/// output's sum over 16 lanes of fused multiply-adds (lane `l` takes the units
/// `j ≡ l` mod 16), the lanes added pairwise (8 + 8, 4 + 4, 2 + 2, 1 + 1), then gnubg's
/// output sigmoid. The same bits on every kernel; nets whose hidden layer is not a
/// multiple of 16 units (or without five outputs) use the exact output layer.
pub fn output_layer_fused_with(kernel: Kernel, net: &Net, act: &[&[f32]], out: &mut [[f32; 5]]) {
    assert_eq!(act.len(), out.len(), "an output per activation vector");
    let h = net.hidden;
    assert!(act.iter().all(|a| a.len() >= h), "one activation per hidden unit");
    assert!(net.output_weights.len() >= 5 * h && net.output_thresholds.len() >= 5);
    if net.outputs != 5 || !h.is_multiple_of(16) {
        for (a, o) in act.iter().zip(out) {
            super::output_layer(net, None, a, o);
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if kernel != Kernel::Scalar && cpu::has_fma() {
        if kernel == Kernel::Avx512 && cpu::has_avx512() && (1..=FUSED_GROUP).contains(&act.len()) {
            // SAFETY: AVX-512F, AVX2 and FMA are present; shapes checked above.
            return unsafe { x86::outputs_512(net, act, out) };
        }
        if cpu::has_avx2() {
            for (a, o) in act.iter().zip(out) {
                // SAFETY: AVX2 and FMA are present; shapes checked above.
                unsafe { x86::outputs_256(net, a, o) };
            }
            return;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = kernel;
    for (a, o) in act.iter().zip(out) {
        #[cfg(target_arch = "x86_64")]
        if cpu::has_fma() {
            // SAFETY: the CPU has FMA (checked just above).
            unsafe { x86::outputs_fused_scalar_fma(net, a, o) };
            continue;
        }
        outputs_fused_scalar(net, a, o);
    }
}

/// [`output_layer_fused_with`] on one activation vector in portable code: the
/// reference (`net.hidden` a multiple of 16, five outputs).
pub fn outputs_fused_scalar(net: &Net, act: &[f32], out: &mut [f32; 5]) {
    outputs_fused_portable(net, act, out);
}

/// The body of [`outputs_fused_scalar`], inlined into its FMA build too.
#[inline(always)]
fn outputs_fused_portable(net: &Net, act: &[f32], out: &mut [f32; 5]) {
    let h = net.hidden;
    for (k, o) in out.iter_mut().enumerate() {
        let row = &net.output_weights[k * h..k * h + h];
        let mut lanes = [0f32; 16];
        for (a, w) in act[..h].chunks_exact(16).zip(row.chunks_exact(16)) {
            for l in 0..16 {
                lanes[l] = a[l].mul_add(w[l], lanes[l]);
            }
        }
        *o = finish_output(net, k, pairwise(lanes));
    }
}

/// The 16 lanes added pairwise: 8 + 8, 4 + 4, 2 + 2, 1 + 1.
fn pairwise(l: [f32; 16]) -> f32 {
    let s8: [f32; 8] = std::array::from_fn(|i| l[i] + l[i + 8]);
    let s4: [f32; 4] = std::array::from_fn(|i| s8[i] + s8[i + 4]);
    let s2: [f32; 2] = std::array::from_fn(|i| s4[i] + s4[i + 2]);
    s2[0] + s2[1]
}

/// Output `k` from its sum: gnubg's sigmoid of [`sigmoid_argument`].
#[inline]
fn finish_output(net: &Net, k: usize, sum: f32) -> f32 {
    crate::sigmoid::sigmoid(sigmoid_argument(net, k, sum))
}

/// What output `k`'s sigmoid is applied to: the sum plus the threshold, times minus the
/// slope (the AVX-512 kernel applies `sse::sigmoid_ps`, the same bits, to it).
#[inline]
fn sigmoid_argument(net: &Net, k: usize, sum: f32) -> f32 {
    -net.beta_output * (sum + net.output_thresholds[k])
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit;

    use super::super::avx2::{activate, nonzero};
    use super::super::avx512::logistic_512;
    use super::super::cpu::MAX_INPUTS;
    use super::super::sse::sigmoid_ps;
    use super::FUSED_GROUP;
    use crate::weights::Net;

    /// The indices of the inputs non-zero in any of the group's input vectors, in
    /// order, written to the front of `buf`.
    ///
    /// # Safety
    /// AVX2 and POPCNT; 1 to 4 inputs of one length `n <= MAX_INPUTS`.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn union<'a>(inputs: &[&[f32]], buf: &'a mut MaybeUninit<[u32; MAX_INPUTS + 16]>) -> &'a [u32] {
        let idx = buf.as_mut_ptr().cast::<u32>();
        // `nonzero` needs room for n + 8 entries: MAX_INPUTS + 16.
        let n = match *inputs {
            [a] => nonzero([a], idx),
            [a, b] => nonzero([a, b], idx),
            [a, b, c] => nonzero([a, b, c], idx),
            [a, b, c, d] => nonzero([a, b, c, d], idx),
            _ => unreachable!("1 to 4 positions"),
        };
        // SAFETY: the first n entries were written just above.
        std::slice::from_raw_parts(idx, n)
    }

    /// Runs `$block::<P, B>` for the group's size `P` (1 to 4), with `B = $wide` blocks
    /// where `$fits` and 1 otherwise; the block's width.
    macro_rules! run_block {
        ($block:ident, $p:expr, $fits:expr, $wide:literal, $($arg:expr),*) => {
            match ($p, $fits) {
                (1, true) => $block::<1, $wide>($($arg),*),
                (2, true) => $block::<2, $wide>($($arg),*),
                (3, true) => $block::<3, $wide>($($arg),*),
                (4, true) => $block::<4, $wide>($($arg),*),
                (1, false) => $block::<1, 1>($($arg),*),
                (2, false) => $block::<2, 1>($($arg),*),
                (3, false) => $block::<3, 1>($($arg),*),
                _ => $block::<4, 1>($($arg),*),
            }
        };
    }

    /// The AVX-512 kernel: `P` positions, `B` registers of 16 units per pass.
    ///
    /// # Safety
    /// As [`group_512`], with `inputs.len() == P` and `16 · B` dividing `net.hidden`
    /// or the caller looping over the rest.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    unsafe fn block_512<const P: usize, const B: usize>(
        net: &Net,
        idx: &[u32],
        inputs: &[&[f32]],
        out: &[*mut f32; FUSED_GROUP],
        j: usize,
    ) -> usize {
        let h = net.hidden;
        let w = net.hidden_weights.as_ptr();
        let x: [*const f32; P] = std::array::from_fn(|p| inputs[p].as_ptr());
        let mut acc = [[_mm512_setzero_ps(); B]; P];
        for k in 0..B {
            let t = _mm512_loadu_ps(net.hidden_thresholds.as_ptr().add(j + 16 * k));
            acc.iter_mut().for_each(|a| a[k] = t);
        }
        for &i in idx {
            let row = w.add(i as usize * h + j);
            let xs: [__m512; P] = std::array::from_fn(|p| _mm512_set1_ps(*x[p].add(i as usize)));
            for k in 0..B {
                let wk = _mm512_loadu_ps(row.add(16 * k));
                for (a, &x) in acc.iter_mut().zip(&xs) {
                    a[k] = _mm512_fmadd_ps(wk, x, a[k]);
                }
            }
        }
        for (p, a) in acc.iter().enumerate() {
            for (k, &s) in a.iter().enumerate() {
                _mm512_storeu_ps(out[p].add(j + 16 * k), logistic_512(net.beta_hidden, s));
            }
        }
        16 * B
    }

    /// The group's activations with AVX-512.
    ///
    /// # Safety
    /// AVX-512F, AVX2, POPCNT and FMA; 1 to 4 inputs of one length `n <= MAX_INPUTS`,
    /// each with a weight row; `net.hidden` a multiple of 16; the first `inputs.len()`
    /// pointers of `out` each `net.hidden` writable values.
    #[target_feature(enable = "avx512f,avx2,popcnt,fma")]
    pub(super) unsafe fn group_512(net: &Net, inputs: &[&[f32]], out: &[*mut f32; FUSED_GROUP]) {
        let mut buf = MaybeUninit::uninit();
        let idx = union(inputs, &mut buf);
        let h = net.hidden;
        let mut j = 0;
        while j < h {
            j += run_block!(block_512, inputs.len(), h - j >= 64, 4, net, idx, inputs, out, j);
        }
    }

    /// The AVX2 kernel: `P` positions, `B` registers of 8 units per pass; the sums are
    /// stored and activated afterwards.
    ///
    /// # Safety
    /// As [`group_256`], with `inputs.len() == P` and `j + 8 · B <= net.hidden`.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn block_256<const P: usize, const B: usize>(
        net: &Net,
        idx: &[u32],
        inputs: &[&[f32]],
        out: &[*mut f32; FUSED_GROUP],
        j: usize,
    ) -> usize {
        let h = net.hidden;
        let w = net.hidden_weights.as_ptr();
        let x: [*const f32; P] = std::array::from_fn(|p| inputs[p].as_ptr());
        let mut acc = [[_mm256_setzero_ps(); B]; P];
        for k in 0..B {
            let t = _mm256_loadu_ps(net.hidden_thresholds.as_ptr().add(j + 8 * k));
            acc.iter_mut().for_each(|a| a[k] = t);
        }
        for &i in idx {
            let row = w.add(i as usize * h + j);
            let xs: [__m256; P] = std::array::from_fn(|p| _mm256_set1_ps(*x[p].add(i as usize)));
            for k in 0..B {
                let wk = _mm256_loadu_ps(row.add(8 * k));
                for (a, &x) in acc.iter_mut().zip(&xs) {
                    a[k] = _mm256_fmadd_ps(wk, x, a[k]);
                }
            }
        }
        for (p, a) in acc.iter().enumerate() {
            for (k, &s) in a.iter().enumerate() {
                _mm256_storeu_ps(out[p].add(j + 8 * k), s);
            }
        }
        8 * B
    }

    /// The group's activations with AVX2 and FMA.
    ///
    /// # Safety
    /// As [`group_512`], with AVX2, POPCNT and FMA instead of AVX-512.
    #[target_feature(enable = "avx2,popcnt,fma")]
    pub(super) unsafe fn group_256(net: &Net, inputs: &[&[f32]], out: &[*mut f32; FUSED_GROUP]) {
        let mut buf = MaybeUninit::uninit();
        let idx = union(inputs, &mut buf);
        let h = net.hidden;
        let mut j = 0;
        while j < h {
            j += run_block!(block_256, inputs.len(), h - j >= 16, 2, net, idx, inputs, out, j);
        }
        for &o in &out[..inputs.len()] {
            // SAFETY: each pointer is net.hidden writable values (the caller's promise).
            activate(net.beta_hidden, std::slice::from_raw_parts_mut(o, h));
        }
    }

    /// The portable hidden layer compiled with FMA (`BGKIT_SIMD=scalar` on a CPU that
    /// has it): the same code and bits, without a library call per multiply-add.
    ///
    /// # Safety
    /// The CPU must support FMA.
    #[target_feature(enable = "fma")]
    pub(super) unsafe fn hidden_fused_scalar_fma(net: &Net, inputs: &[f32], act: &mut [f32]) {
        super::hidden_fused_portable(net, inputs, act);
    }

    /// The portable output layer compiled with FMA, as [`hidden_fused_scalar_fma`].
    ///
    /// # Safety
    /// The CPU must support FMA.
    #[target_feature(enable = "fma")]
    pub(super) unsafe fn outputs_fused_scalar_fma(net: &Net, act: &[f32], out: &mut [f32; 5]) {
        super::outputs_fused_portable(net, act, out);
    }

    /// The eight lanes `l[i] + l[i + 8]` of a register of sixteen.
    ///
    /// # Safety
    /// AVX-512F and AVX2.
    #[inline]
    #[target_feature(enable = "avx512f,avx2")]
    unsafe fn halves(v: __m512) -> __m256 {
        let lo = _mm512_castps512_ps256(v);
        let hi = _mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(_mm512_castps_pd(v)));
        _mm256_add_ps(lo, hi)
    }

    /// The eight lanes added pairwise (4 + 4, 2 + 2, 1 + 1), as `super::pairwise`
    /// after its first step.
    ///
    /// # Safety
    /// AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn pairwise8(s8: __m256) -> f32 {
        let s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps::<1>(s8));
        let s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
        _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps::<1>(s2, s2)))
    }

    /// The fused output layer of up to four activation vectors with AVX-512.
    ///
    /// # Safety
    /// AVX-512F, AVX2 and FMA; `net.hidden` a multiple of 16, five outputs with their
    /// weights; each activation vector `net.hidden` long; `act.len() == out.len() <= 4`.
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub(super) unsafe fn outputs_512(net: &Net, act: &[&[f32]], out: &mut [[f32; 5]]) {
        match act.len() {
            1 => outputs_n_512::<1>(net, act, out),
            2 => outputs_n_512::<2>(net, act, out),
            3 => outputs_n_512::<3>(net, act, out),
            _ => outputs_n_512::<4>(net, act, out),
        }
    }

    /// [`outputs_512`] for `P` vectors.
    ///
    /// # Safety
    /// As [`outputs_512`], with `act.len() == P`.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    unsafe fn outputs_n_512<const P: usize>(net: &Net, act: &[&[f32]], out: &mut [[f32; 5]]) {
        let h = net.hidden;
        let w = net.output_weights.as_ptr();
        // One vector at a time, so that its five sums stay in registers (a loop over
        // all of them at once spilled them to the stack).
        let mut x = [0f32; 20];
        for p in 0..P {
            let a = act[p].as_ptr();
            let mut acc = [_mm512_setzero_ps(); 5];
            for j in (0..h).step_by(16) {
                let v = _mm512_loadu_ps(a.add(j));
                for (k, s) in acc.iter_mut().enumerate() {
                    *s = _mm512_fmadd_ps(v, _mm512_loadu_ps(w.add(k * h + j)), *s);
                }
            }
            for (k, &s) in acc.iter().enumerate() {
                x[5 * p + k] = super::sigmoid_argument(net, k, pairwise8(halves(s)));
            }
        }
        // The sigmoids four at a time (`sigmoid_ps`: the scalar sigmoid's bits).
        let mut y = [0f32; 20];
        for q in (0..5 * P).step_by(4) {
            _mm_storeu_ps(y.as_mut_ptr().add(q), sigmoid_ps(_mm_loadu_ps(x.as_ptr().add(q))));
        }
        for p in 0..P {
            out[p].copy_from_slice(&y[5 * p..5 * p + 5]);
        }
    }

    /// The fused output layer of one activation vector with AVX2: each output's
    /// sixteen lanes in two registers (units `j..j + 8` and `j + 8..j + 16`).
    ///
    /// # Safety
    /// AVX2 and FMA; shapes as [`outputs_512`] for one vector.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn outputs_256(net: &Net, act: &[f32], out: &mut [f32; 5]) {
        let h = net.hidden;
        let w = net.output_weights.as_ptr();
        let mut lo = [_mm256_setzero_ps(); 5];
        let mut hi = [_mm256_setzero_ps(); 5];
        for j in (0..h).step_by(16) {
            let (a0, a1) = (
                _mm256_loadu_ps(act.as_ptr().add(j)),
                _mm256_loadu_ps(act.as_ptr().add(j + 8)),
            );
            for k in 0..5 {
                lo[k] = _mm256_fmadd_ps(a0, _mm256_loadu_ps(w.add(k * h + j)), lo[k]);
                hi[k] = _mm256_fmadd_ps(a1, _mm256_loadu_ps(w.add(k * h + j + 8)), hi[k]);
            }
        }
        for k in 0..5 {
            out[k] = super::finish_output(net, k, pairwise8(_mm256_add_ps(lo[k], hi[k])));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::output_layer;
    use super::*;

    /// A net with irregular weights from a linear congruential sequence.
    fn net(inputs: usize, hidden: usize) -> Net {
        let mut n = Net::zeros(inputs, hidden, 5);
        let mut x = 987_654_321u32;
        let mut next = move || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 8) as f32 / (1 << 24) as f32 * 8.0 - 4.0
        };
        n.hidden_weights.iter_mut().for_each(|w| *w = next());
        n.hidden_thresholds.iter_mut().for_each(|w| *w = next() * 10.0);
        n.output_weights.iter_mut().for_each(|w| *w = next() / 8.0);
        n
    }

    /// Four input vectors with zeros in different places (one of them all zeros), so
    /// that every group has rows that are zero for some of its members.
    fn inputs(len: usize) -> Vec<Vec<f32>> {
        let pick = |t: &[f32]| (0..len).map(|i| t[i % t.len()]).collect::<Vec<f32>>();
        vec![
            pick(&[0.0, 1.0, 0.5, 2.5, 0.0, 0.123]),
            pick(&[0.75, 0.0, 1.0, 0.0]),
            vec![0.0; len],
            pick(&[1.0, 1.0, 0.0, 0.3333, 0.0, 0.0, 7.25]),
        ]
    }

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|f| f.to_bits()).collect()
    }

    #[test]
    fn every_kernel_and_group_size_gives_the_scalar_twins_bits() {
        let kernels = [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512];
        for (len, hidden) in [
            (250, 128),
            (214, 64),
            (200, 16),
            (250, 48),
            (256, 144),
            (7, 32),
            (250, 5),
        ] {
            let n = net(len, hidden);
            let xs = inputs(len);
            let want: Vec<Vec<f32>> = xs
                .iter()
                .map(|x| {
                    let mut a = vec![f32::NAN; hidden];
                    hidden_fused_scalar(&n, x, &mut a);
                    a
                })
                .collect();
            for k in kernels {
                for size in 1..=FUSED_GROUP {
                    for first in 0..xs.len() {
                        let members: Vec<usize> = (0..size).map(|p| (first + p) % xs.len()).collect();
                        let group: Vec<&[f32]> = members.iter().map(|&m| &xs[m][..]).collect();
                        let mut act = vec![vec![f32::NAN; hidden]; size];
                        let mut refs: Vec<&mut [f32]> = act.iter_mut().map(|a| &mut a[..]).collect();
                        hidden_layer_fused_with(k, &n, &group, &mut refs);
                        for (a, &m) in act.iter().zip(&members) {
                            assert_eq!(
                                bits(a),
                                bits(&want[m]),
                                "{k:?}, {len}x{hidden}, group {members:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn fused_sums_round_once_per_input() {
        // One input row: the threshold −1 plus w·x = 1 + ε/2 − ε²/2, which rounds to 1
        // on its own (gnubg's two roundings give 0) but survives a fused multiply-add.
        let mut n = Net::zeros(1, 16, 5);
        n.hidden_thresholds.fill(-1.0);
        n.hidden_weights.fill(1.0 + f32::EPSILON);
        n.beta_hidden = 1.0;
        let x = [1.0 - f32::EPSILON / 2.0];
        let (mut fused, mut exact) = (vec![0f32; 16], vec![0f32; 16]);
        hidden_fused_scalar(&n, &x, &mut fused);
        let once = (1.0 + f32::EPSILON).mul_add(x[0], -1.0);
        let twice = -1.0 + (1.0 + f32::EPSILON) * x[0];
        assert_ne!(
            once.to_bits(),
            twice.to_bits(),
            "the example must tell them apart"
        );
        let mut want = vec![once; 16];
        scalar::activate(n.beta_hidden, &mut want);
        assert_eq!(bits(&fused), bits(&want));
        super::super::hidden_layer_with(Kernel::Scalar, &n, &x, &mut exact);
        let mut gnubg = vec![twice; 16];
        scalar::activate(n.beta_hidden, &mut gnubg);
        assert_eq!(bits(&exact), bits(&gnubg));
    }

    #[test]
    fn fused_outputs_agree_on_every_kernel_and_group_size() {
        for hidden in [16, 48, 128, 256] {
            let n = net(250, hidden);
            let act: Vec<Vec<f32>> = inputs(250)
                .iter()
                .map(|x| {
                    let mut a = vec![0f32; hidden];
                    hidden_fused_scalar(&n, x, &mut a);
                    a
                })
                .collect();
            let want: Vec<[f32; 5]> = act
                .iter()
                .map(|a| {
                    let mut o = [0f32; 5];
                    outputs_fused_scalar(&n, a, &mut o);
                    o
                })
                .collect();
            for k in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
                for size in 1..=FUSED_GROUP {
                    let refs: Vec<&[f32]> = act[..size].iter().map(|a| &a[..]).collect();
                    let mut got = vec![[f32::NAN; 5]; size];
                    output_layer_fused_with(k, &n, &refs, &mut got);
                    for (g, w) in got.iter().zip(&want) {
                        assert_eq!(
                            g.map(f32::to_bits),
                            w.map(f32::to_bits),
                            "{k:?}, {hidden}, {size}"
                        );
                    }
                }
            }
            // Close to the exact output layer (other rounding, same function).
            for (a, w) in act.iter().zip(&want) {
                let mut exact = [0f32; 5];
                output_layer(&n, None, a, &mut exact);
                for (x, y) in exact.iter().zip(w) {
                    assert!((x - y).abs() < 1e-5, "{x} vs {y}");
                }
            }
        }
    }

    #[test]
    fn fused_outputs_are_exact_outputs_where_the_shape_does_not_fit() {
        let n = net(250, 40);
        let act = vec![0.25f32; 40];
        let (mut got, mut want) = ([[0f32; 5]], [0f32; 5]);
        output_layer_fused_with(Kernel::Avx512, &n, &[&act], &mut got);
        output_layer(&n, None, &act, &mut want);
        assert_eq!(got[0].map(f32::to_bits), want.map(f32::to_bits));
    }

    #[test]
    fn lanes_add_pairwise() {
        // 1e8 meets −1e8 in the first step, so the small lanes survive; adding the lanes
        // in order would lose them.
        let mut l = [0f32; 16];
        l[0] = 1e8;
        l[8] = -1e8;
        l[1] = 1.0;
        l[3] = 0.5;
        assert_eq!(pairwise(l), 1.5);
        let l: [f32; 16] = std::array::from_fn(|i| i as f32);
        assert_eq!(pairwise(l), 120.0);
    }
}

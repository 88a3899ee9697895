//! The AVX-512 hidden layers (one position, two sharing each weight row, and from given
//! sums) and output layer. As in [`super::avx2`], each unit adds its inputs in index
//! order with separate multiply and add: bit-identical to the scalar code. The
//! activation's approximate reciprocal stays the 256-bit `vrcpps` (AVX-512's
//! `vrcp14ps` returns other bits).

use super::avx2::hidden_layer;
use super::cpu::MAX_INPUTS;
use super::sse::finish_outputs_all;
use crate::weights::Net;

/// The non-zero inputs with AVX-512 compresses (no data-dependent branches): their
/// indices, each below `inputs.len()`, are written to the front of `idx`; returns how
/// many. (The row loop reads each value from the inputs by its index: compressing the
/// values too cost two more shuffle-port operations per block.)
/// Each block of sixteen is compressed in a register and stored whole (a compress
/// straight to memory is slow on Intel cores), so up to 15 entries past the count are
/// scratch.
///
/// # Safety
/// The CPU must support AVX-512F and POPCNT; `idx` has room for `inputs.len() + 16`
/// values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn nonzero_512(inputs: &[f32], idx: *mut u32) -> usize {
    use std::arch::x86_64::*;
    let mut n = 0usize;
    let mut lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let sixteen = _mm512_set1_epi32(16);
    let mut i = 0;
    while i < inputs.len() {
        let left = inputs.len() - i;
        let load: __mmask16 = if left >= 16 { 0xffff } else { (1u16 << left) - 1 };
        // SAFETY: masked lanes beyond the slice are not read; n + 16 never exceeds
        // inputs.len() + 16, the room the caller provides.
        let x = _mm512_maskz_loadu_ps(load, inputs.as_ptr().add(i));
        let keep = _mm512_mask_cmp_ps_mask::<_CMP_NEQ_UQ>(load, x, _mm512_setzero_ps());
        _mm512_storeu_si512(idx.add(n).cast(), _mm512_maskz_compress_epi32(keep, lanes));
        n += keep.count_ones() as usize;
        lanes = _mm512_add_epi32(lanes, sixteen);
        i += 16;
    }
    n
}

/// The sums of `BLOCKS` × 16 hidden units (columns `j..`) in registers: each starts at
/// its value in `start` (the thresholds, or a base position's sums) and adds the listed
/// inputs' weights in order.
///
/// # Safety
/// AVX-512F; `j + 16 * BLOCKS <= net.hidden`, and `start` has `net.hidden` values;
/// every index is a row of the net and an index of `inputs`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn hidden_block_512<const BLOCKS: usize>(
    net: &Net,
    start: *const f32,
    idx: &[u32],
    inputs: &[f32],
    j: usize,
) -> [std::arch::x86_64::__m512; BLOCKS] {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let w = net.hidden_weights.as_ptr();
    let t = start.add(j);
    let mut acc = [_mm512_setzero_ps(); BLOCKS];
    for (k, a) in acc.iter_mut().enumerate() {
        *a = _mm512_loadu_ps(t.add(16 * k));
    }
    for &i in idx {
        let row = w.add(i as usize * h + j);
        // w · 1.0 is exactly w: always multiplying avoids a data-dependent branch.
        let xv = _mm512_set1_ps(*inputs.get_unchecked(i as usize));
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm512_add_ps(*a, _mm512_mul_ps(_mm512_loadu_ps(row.add(16 * k)), xv));
        }
    }
    acc
}

/// Hidden activations with 512-bit vectors (128 units per register block), into
/// `act`; the sums never leave the registers before their activation.
///
/// # Safety
/// The CPU must support AVX-512F, AVX2 and POPCNT ([`available_512`]); the net has a
/// weight row for every input and `net.hidden` thresholds, and `act.len() == net.hidden`
/// (the checks of `simd::hidden_layer_with`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,popcnt")]
pub unsafe fn hidden_layer_512(net: &Net, inputs: &[f32], act: &mut [f32]) {
    if !fits_512(net, inputs.len()) {
        hidden_layer(net, inputs, act);
        return;
    }
    let beta = Some(net.beta_hidden);
    hidden_512(
        net,
        net.hidden_thresholds.as_ptr(),
        inputs,
        act.as_mut_ptr(),
        beta,
    );
}

/// Whether the AVX-512 kernels take inputs of this length for this net (else
/// [`hidden_layer_512`] falls back to the AVX2 kernel).
pub fn fits_512(net: &Net, inputs: usize) -> bool {
    super::cpu::fits_sixteen(net, inputs)
}

/// [`hidden_layer_512`] starting from the sums `start` instead of the thresholds; the
/// activations into `out`, or with `activate` false the sums themselves.
///
/// # Safety
/// As [`hidden_layer_512`], with `start.len() == out.len() == net.hidden` and
/// [`fits_512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,popcnt")]
pub unsafe fn hidden_layer_512_from(
    net: &Net,
    start: &[f32],
    inputs: &[f32],
    out: &mut [f32],
    activate: bool,
) {
    let beta = activate.then_some(net.beta_hidden);
    hidden_512(net, start.as_ptr(), inputs, out.as_mut_ptr(), beta);
}

/// The hidden layer from `start` into `out`: activations with the slope `beta`, or
/// the sums where it is `None`.
///
/// # Safety
/// As [`hidden_layer_512_from`]; `out` has `net.hidden` values.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx2,popcnt")]
unsafe fn hidden_512(net: &Net, start: *const f32, inputs: &[f32], out: *mut f32, beta: Option<f32>) {
    // Not zeroed first (that cost as much as the search): only the first n entries,
    // which nonzero_512 writes, are read.
    let mut idx = std::mem::MaybeUninit::<[u32; MAX_INPUTS + 16]>::uninit();
    let ip = idx.as_mut_ptr().cast::<u32>();
    let n = nonzero_512(inputs, ip);
    // SAFETY: the first n entries were written just above, each an index of `inputs`.
    let idx = std::slice::from_raw_parts(ip, n);
    let h = net.hidden;
    let mut j = 0;
    // SAFETY: each block covers columns j..j + 16·BLOCKS <= h, the length of `out`.
    while j < h {
        j += match (h - j) / 16 {
            8.. => store_block(
                beta,
                &hidden_block_512::<8>(net, start, idx, inputs, j),
                out.add(j),
            ),
            4.. => store_block(
                beta,
                &hidden_block_512::<4>(net, start, idx, inputs, j),
                out.add(j),
            ),
            2.. => store_block(
                beta,
                &hidden_block_512::<2>(net, start, idx, inputs, j),
                out.add(j),
            ),
            _ => store_block(
                beta,
                &hidden_block_512::<1>(net, start, idx, inputs, j),
                out.add(j),
            ),
        };
    }
}

/// Stores `BLOCKS` × 16 sums at `out`, through the logistic when `beta` is given;
/// returns how many.
///
/// # Safety
/// AVX-512F and AVX2; `out` has room for `16 * BLOCKS` values.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx2")]
unsafe fn store_block<const BLOCKS: usize>(
    beta: Option<f32>,
    sums: &[std::arch::x86_64::__m512; BLOCKS],
    out: *mut f32,
) -> usize {
    use std::arch::x86_64::*;
    match beta {
        Some(beta) => store_activated(beta, sums, out),
        None => {
            for (k, &x) in sums.iter().enumerate() {
                _mm512_storeu_ps(out.add(16 * k), x);
            }
            16 * BLOCKS
        }
    }
}

/// Stores the activations of `BLOCKS` × 16 sums at `out`; returns how many.
///
/// # Safety
/// AVX-512F and AVX2; `out` has room for `16 * BLOCKS` values.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx2")]
unsafe fn store_activated<const BLOCKS: usize>(
    beta: f32,
    sums: &[std::arch::x86_64::__m512; BLOCKS],
    out: *mut f32,
) -> usize {
    use std::arch::x86_64::*;
    for (k, &x) in sums.iter().enumerate() {
        _mm512_storeu_ps(out.add(16 * k), logistic_512(beta, x));
    }
    16 * BLOCKS
}

/// The inputs non-zero in either of two input vectors (same length): their indices;
/// returns how many. Stores as [`nonzero_512`].
///
/// # Safety
/// AVX-512F and POPCNT; `idx` has room for `a.len() + 16` values; `b.len() == a.len()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn nonzero_pair_512(a: &[f32], b: &[f32], idx: *mut u32) -> usize {
    use std::arch::x86_64::*;
    let mut n = 0usize;
    let mut lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let mut i = 0;
    while i < a.len() {
        let left = a.len() - i;
        let load: __mmask16 = if left >= 16 { 0xffff } else { (1u16 << left) - 1 };
        // SAFETY: as in nonzero_512, for both inputs.
        let x = _mm512_maskz_loadu_ps(load, a.as_ptr().add(i));
        let y = _mm512_maskz_loadu_ps(load, b.as_ptr().add(i));
        let keep = _mm512_mask_cmp_ps_mask::<_CMP_NEQ_UQ>(load, x, _mm512_setzero_ps())
            | _mm512_mask_cmp_ps_mask::<_CMP_NEQ_UQ>(load, y, _mm512_setzero_ps());
        _mm512_storeu_si512(idx.add(n).cast(), _mm512_maskz_compress_epi32(keep, lanes));
        n += keep.count_ones() as usize;
        lanes = _mm512_add_epi32(lanes, _mm512_set1_epi32(16));
        i += 16;
    }
    n
}

/// [`hidden_block_512`] for two input vectors at once: each weight row is loaded once
/// and applied to both. A row that is zero for one of them adds w · 0 = ±0 to that
/// one's sums, which leaves a sum unchanged except that −0 may become +0; the logistic
/// treats ±0 alike, so the activations are the same bits as one at a time.
///
/// # Safety
/// As [`hidden_block_512`]; every index is an index of both `a` and `b`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn hidden_block_pair_512<const BLOCKS: usize>(
    net: &Net,
    start: *const f32,
    idx: &[u32],
    a: &[f32],
    b: &[f32],
    j: usize,
) -> [[std::arch::x86_64::__m512; BLOCKS]; 2] {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let w = net.hidden_weights.as_ptr();
    let t = start.add(j);
    let mut acc_a = [_mm512_setzero_ps(); BLOCKS];
    let mut acc_b = [_mm512_setzero_ps(); BLOCKS];
    for k in 0..BLOCKS {
        acc_a[k] = _mm512_loadu_ps(t.add(16 * k));
        acc_b[k] = acc_a[k];
    }
    for &i in idx {
        let row = w.add(i as usize * h + j);
        let (x, y) = (*a.get_unchecked(i as usize), *b.get_unchecked(i as usize));
        let (xv, yv) = (_mm512_set1_ps(x), _mm512_set1_ps(y));
        for k in 0..BLOCKS {
            let wk = _mm512_loadu_ps(row.add(16 * k));
            acc_a[k] = _mm512_add_ps(acc_a[k], _mm512_mul_ps(wk, xv));
            acc_b[k] = _mm512_add_ps(acc_b[k], _mm512_mul_ps(wk, yv));
        }
    }
    [acc_a, acc_b]
}

/// Hidden activations of two input vectors of the same net at once (weights loaded
/// once for both), bit-identical to [`hidden_layer_512`] on each.
///
/// # Safety
/// As [`hidden_layer_512`], for both input vectors (of one length) and both `act`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,popcnt")]
pub unsafe fn hidden_layer_pair_512(net: &Net, inputs: [&[f32]; 2], act: [&mut [f32]; 2]) {
    let [a, b] = inputs;
    let [aa, ab] = act;
    if b.len() != a.len() || !fits_512(net, a.len()) {
        hidden_layer_512(net, a, aa);
        hidden_layer_512(net, b, ab);
        return;
    }
    hidden_pair_512(net, net.hidden_thresholds.as_ptr(), [a, b], [aa, ab]);
}

/// [`hidden_layer_pair_512`] with both input vectors starting from the sums `start`
/// (see [`hidden_layer_512_from`]).
///
/// # Safety
/// As [`hidden_layer_pair_512`], with `start.len() == net.hidden` and [`fits_512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,popcnt")]
pub unsafe fn hidden_layer_pair_512_from(
    net: &Net,
    start: &[f32],
    inputs: [&[f32]; 2],
    act: [&mut [f32]; 2],
) {
    hidden_pair_512(net, start.as_ptr(), inputs, act);
}

/// The pair kernel from `start`.
///
/// # Safety
/// As [`hidden_layer_pair_512_from`].
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx2,popcnt")]
unsafe fn hidden_pair_512(net: &Net, start: *const f32, inputs: [&[f32]; 2], act: [&mut [f32]; 2]) {
    let [a, b] = inputs;
    let [aa, ab] = act;
    let mut idx = std::mem::MaybeUninit::<[u32; MAX_INPUTS + 16]>::uninit();
    let ip = idx.as_mut_ptr().cast::<u32>();
    let n = nonzero_pair_512(a, b, ip);
    // SAFETY: the first n entries were written just above, each an index of a and b.
    let idx = std::slice::from_raw_parts(ip, n);
    let (h, beta) = (net.hidden, net.beta_hidden);
    let (oa, ob) = (aa.as_mut_ptr(), ab.as_mut_ptr());
    let mut j = 0;
    // SAFETY: each block covers columns j..j + 16·BLOCKS <= h, the length of both.
    while j < h {
        j += match (h - j) / 16 {
            8.. => {
                let [x, y] = hidden_block_pair_512::<8>(net, start, idx, a, b, j);
                store_activated(beta, &x, oa.add(j));
                store_activated(beta, &y, ob.add(j))
            }
            4.. => {
                let [x, y] = hidden_block_pair_512::<4>(net, start, idx, a, b, j);
                store_activated(beta, &x, oa.add(j));
                store_activated(beta, &y, ob.add(j))
            }
            _ => {
                let [x, y] = hidden_block_pair_512::<1>(net, start, idx, a, b, j);
                store_activated(beta, &x, oa.add(j));
                store_activated(beta, &y, ob.add(j))
            }
        };
    }
}

/// The output layer of `N` activation vectors with AVX-512: outputs 0..4 of a position
/// in the four 128-bit lanes of one register, from `interleaved`
/// ([`interleave_outputs`]), so that one multiply and one add serve four outputs;
/// output 4 in SSE. Each output still adds its four lanes of products in gnubg's order.
///
/// # Safety
/// The CPU must support AVX-512F; `interleaved` is `interleave_outputs(net)`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
pub unsafe fn outputs_512<const N: usize>(
    net: &Net,
    interleaved: &[f32],
    act: [&[f32]; N],
    out: [&mut [f32; 5]; N],
) {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let full = h / 4 * 4;
    debug_assert!(interleaved.len() >= 4 * full && net.outputs == 5);
    let w4 = net.output_weights.as_ptr().add(4 * h);
    let mut four = [_mm512_setzero_ps(); N];
    let mut last = [_mm_setzero_ps(); N];
    for j in (0..full).step_by(4) {
        // SAFETY: j + 4 <= full <= h; `interleaved` holds 16 weights per step.
        let w = _mm512_loadu_ps(interleaved.as_ptr().add(4 * j));
        let w1 = _mm_loadu_ps(w4.add(j));
        for p in 0..N {
            let x = _mm_loadu_ps(act[p].as_ptr().add(j));
            four[p] = _mm512_add_ps(four[p], _mm512_mul_ps(_mm512_broadcast_f32x4(x), w));
            last[p] = _mm_add_ps(last[p], _mm_mul_ps(x, w1));
        }
    }
    let lanes: [[__m128; 5]; N] = std::array::from_fn(|p| {
        let v = four[p];
        [
            _mm512_extractf32x4_ps::<0>(v),
            _mm512_extractf32x4_ps::<1>(v),
            _mm512_extractf32x4_ps::<2>(v),
            _mm512_extractf32x4_ps::<3>(v),
            last[p],
        ]
    });
    finish_outputs_all(net, act, &lanes, full, out);
}

/// gnubg's sigmoid table padded with zeros to 128 entries, on a cache line (loaded
/// 16 entries at a time).
fn padded_table() -> &'static [f32; 128] {
    #[repr(align(64))]
    struct Padded([f32; 128]);
    static PADDED: std::sync::OnceLock<Padded> = std::sync::OnceLock::new();
    &PADDED
        .get_or_init(|| {
            let mut t = [0f32; 128];
            t[..101].copy_from_slice(crate::sigmoid::table());
            Padded(t)
        })
        .0
}

/// [`activate`] for one register of sums; the approximate reciprocal stays the 256-bit
/// `vrcpps` (AVX-512's `vrcp14ps` returns other bits), applied to both halves.
///
/// # Safety
/// The CPU must support AVX-512F and AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx2")]
pub(super) unsafe fn logistic_512(beta: f32, sums: std::arch::x86_64::__m512) -> std::arch::x86_64::__m512 {
    use std::arch::x86_64::*;
    let ten = _mm512_set1_ps(10.0);
    let one = _mm512_set1_ps(1.0);
    let x = _mm512_mul_ps(sums, _mm512_set1_ps(beta));
    let negative = _mm512_cmp_ps_mask::<_CMP_LT_OS>(x, _mm512_setzero_ps());
    let x1 = _mm512_mul_ps(_mm512_min_ps(_mm512_abs_ps(x), ten), ten);
    let i = _mm512_cvttps_epi32(x1);
    // 0 <= i <= 100 because x1 is in [0, 100]: the table in registers, four
    // two-register permutes of 32 entries each and two blends.
    let tp = padded_table().as_ptr();
    let r = |k: usize| _mm512_loadu_ps(tp.add(16 * k));
    let q0 = _mm512_permutex2var_ps(r(0), i, r(1));
    let q1 = _mm512_permutex2var_ps(r(2), i, r(3));
    let q2 = _mm512_permutex2var_ps(r(4), i, r(5));
    let q3 = _mm512_permutex2var_ps(r(6), i, r(7));
    let bit5 = _mm512_test_epi32_mask(i, _mm512_set1_epi32(32));
    let lo = _mm512_mask_blend_ps(bit5, q0, q1);
    let hi = _mm512_mask_blend_ps(bit5, q2, q3);
    let e = _mm512_mask_blend_ps(_mm512_test_epi32_mask(i, _mm512_set1_epi32(64)), lo, hi);
    let t = _mm512_add_ps(_mm512_sub_ps(x1, _mm512_cvtepi32_ps(i)), ten);
    let d = _mm512_add_ps(_mm512_mul_ps(e, t), one);
    let lo = _mm256_rcp_ps(_mm512_castps512_ps256(d));
    let hi = _mm256_rcp_ps(_mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(_mm512_castps_pd(d))));
    let c = _mm512_castpd_ps(_mm512_insertf64x4::<1>(
        _mm512_castpd256_pd512(_mm256_castps_pd(lo)),
        _mm256_castps_pd(hi),
    ));
    // 1 − c where x ≥ 0, c itself where x < 0.
    _mm512_mask_sub_ps(c, !negative, one, c)
}

//! The output layer with SSE (part of x86-64): gnubg's four-lane summation order and
//! its scalar sigmoid, four outputs side by side.

use crate::weights::Net;

/// [`outputs`] for two activation vectors at once (ten independent sums, so that their
/// additions overlap), each in gnubg's order.
///
/// # Safety
/// SSE is part of x86-64; always callable there.
#[cfg(target_arch = "x86_64")]
pub unsafe fn outputs_pair(net: &Net, act: [&[f32]; 2], out: [&mut [f32; 5]; 2]) {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let full = h / 4 * 4;
    let w = net.output_weights.as_ptr();
    let (mut acc_a, mut acc_b) = ([_mm_setzero_ps(); 5], [_mm_setzero_ps(); 5]);
    for j in (0..full).step_by(4) {
        // SAFETY: j + 4 <= full <= h, and the weights hold 5 rows of h.
        let a = _mm_loadu_ps(act[0].as_ptr().add(j));
        let b = _mm_loadu_ps(act[1].as_ptr().add(j));
        for (k, (sa, sb)) in acc_a.iter_mut().zip(&mut acc_b).enumerate() {
            let wk = _mm_loadu_ps(w.add(k * h + j));
            *sa = _mm_add_ps(*sa, _mm_mul_ps(a, wk));
            *sb = _mm_add_ps(*sb, _mm_mul_ps(b, wk));
        }
    }
    finish_outputs_all(net, act, &[acc_a, acc_b], full, out);
}

/// [`finish_outputs`] for `N` (at most 4) positions, with the last output of every
/// position through one [`sigmoid_ps`] instead of one scalar sigmoid each: the same
/// operations on each lane, so the same bits.
///
/// # Safety
/// SSE is part of x86-64; always callable there.
#[cfg(target_arch = "x86_64")]
pub unsafe fn finish_outputs_all<const N: usize>(
    net: &Net,
    act: [&[f32]; N],
    acc: &[[std::arch::x86_64::__m128; 5]; N],
    full: usize,
    out: [&mut [f32; 5]; N],
) {
    use std::arch::x86_64::*;
    let thr = &net.output_thresholds;
    if N > 4 || N == 1 || full != net.hidden || thr.len() != 5 {
        for (p, o) in out.into_iter().enumerate() {
            finish_outputs(net, act[p], &acc[p], full, o);
        }
        return;
    }
    // Lane p: position p's last output, summed as the scalar code adds.
    let mut last = [_mm_setzero_ps(); 4];
    for p in 0..N {
        last[p] = acc[p][4];
    }
    let r = lane_sums(last);
    let x = _mm_mul_ps(_mm_set1_ps(-net.beta_output), _mm_add_ps(r, _mm_set1_ps(thr[4])));
    let mut fifth = [0f32; 4];
    _mm_storeu_ps(fifth.as_mut_ptr(), sigmoid_ps(x));
    for (p, o) in out.into_iter().enumerate() {
        finish_four(net, &acc[p], o);
        o[4] = fifth[p];
    }
}

/// Lane k: (l0 + l1) + (l2 + l3) of the four lanes of `v[k]`, gnubg's order for an
/// output's sum (the four registers transposed, then added).
#[cfg(target_arch = "x86_64")]
unsafe fn lane_sums(v: [std::arch::x86_64::__m128; 4]) -> std::arch::x86_64::__m128 {
    use std::arch::x86_64::*;
    let (r0, r1) = (_mm_unpacklo_ps(v[0], v[1]), _mm_unpackhi_ps(v[0], v[1]));
    let (r2, r3) = (_mm_unpacklo_ps(v[2], v[3]), _mm_unpackhi_ps(v[2], v[3]));
    let l0 = _mm_movelh_ps(r0, r2);
    let l1 = _mm_movehl_ps(r2, r0);
    let l2 = _mm_movelh_ps(r1, r3);
    let l3 = _mm_movehl_ps(r3, r1);
    _mm_add_ps(_mm_add_ps(l0, l1), _mm_add_ps(l2, l3))
}

/// Outputs 0..4 of one position from its lanes (the net has no tail and at least four
/// thresholds): the lanes transposed and combined, the threshold, the sigmoid.
#[cfg(target_arch = "x86_64")]
unsafe fn finish_four(net: &Net, acc: &[std::arch::x86_64::__m128; 5], out: &mut [f32; 5]) {
    use std::arch::x86_64::*;
    let r = lane_sums([acc[0], acc[1], acc[2], acc[3]]);
    let thr = net.output_thresholds.as_ptr();
    let x = _mm_mul_ps(_mm_set1_ps(-net.beta_output), _mm_add_ps(r, _mm_loadu_ps(thr)));
    _mm_storeu_ps(out.as_mut_ptr(), sigmoid_ps(x));
}

/// The lanes combined, the tail, the threshold and the sigmoid. Without a tail (the
/// usual case) outputs 0..4 go through these steps side by side in one register.
#[cfg(target_arch = "x86_64")]
pub unsafe fn finish_outputs(
    net: &Net,
    act: &[f32],
    acc: &[std::arch::x86_64::__m128; 5],
    full: usize,
    out: &mut [f32; 5],
) {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let w = net.output_weights.as_ptr();
    let (thr, beta) = (&net.output_thresholds, net.beta_output);
    let mut first = 0;
    if full == h && thr.len() >= 4 {
        finish_four(net, acc, out);
        first = 4;
    }
    for (k, o) in out.iter_mut().enumerate().skip(first) {
        let mut l = [0f32; 4];
        _mm_storeu_ps(l.as_mut_ptr(), acc[k]);
        let mut r = (l[0] + l[1]) + (l[2] + l[3]);
        for (j, &a) in act.iter().enumerate().take(h).skip(full) {
            r += a * *w.add(k * h + j);
        }
        *o = crate::sigmoid::sigmoid(-beta * (r + thr[k]));
    }
}

/// gnubg's scalar sigmoid ([`crate::sigmoid::sigmoid`]) of four values without
/// branches: the same operations in the same order on each lane (the division is an
/// exact one, as in the scalar code), and the same constants beyond ±10.
///
/// # Safety
/// SSE2 is part of x86-64; always callable there.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::excessive_precision)]
pub unsafe fn sigmoid_ps(x: std::arch::x86_64::__m128) -> std::arch::x86_64::__m128 {
    use std::arch::x86_64::*;
    const BEYOND_POSITIVE: f32 = 1.0 / 19_931.370_438_230_298_f32;
    const BEYOND_NEGATIVE: f32 = 19_930.370_438_230_298_f32 / 19_931.370_438_230_298_f32;
    let (one, ten) = (_mm_set1_ps(1.0), _mm_set1_ps(10.0));
    // Lanes with the sign bit set (−0 included) take the mirrored branch.
    let negative = _mm_castsi128_ps(_mm_srai_epi32::<31>(_mm_castps_si128(x)));
    let magnitude = _mm_andnot_ps(_mm_set1_ps(-0.0), x);
    // ±10·x of the scalar code is 10·|x| exactly; NaN and |x| ≥ 10 are not "near".
    let near = _mm_cmplt_ps(magnitude, ten);
    let x1 = _mm_mul_ps(magnitude, ten);
    // Clamped so that lanes beyond 10 (whose result is replaced) index the table too.
    let i = _mm_cvttps_epi32(_mm_min_ps(x1, _mm_set1_ps(99.0)));
    let mut k = [0i32; 4];
    _mm_storeu_si128(k.as_mut_ptr().cast(), i);
    let table = crate::sigmoid::table();
    let e = _mm_setr_ps(
        table[k[0] as usize],
        table[k[1] as usize],
        table[k[2] as usize],
        table[k[3] as usize],
    );
    let t = _mm_add_ps(_mm_cvtepi32_ps(_mm_sub_epi32(_mm_set1_epi32(10), i)), x1);
    let v = _mm_div_ps(one, _mm_add_ps(one, _mm_mul_ps(e, t)));
    let select = |m: __m128, a: __m128, b: __m128| _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
    let inside = select(negative, _mm_sub_ps(one, v), v);
    let outside = select(
        negative,
        _mm_set1_ps(BEYOND_NEGATIVE),
        _mm_set1_ps(BEYOND_POSITIVE),
    );
    select(near, inside, outside)
}

/// The five outputs with gnubg's SSE order: four lanes of products, combined as
/// (l0 + l1) + (l2 + l3), then the threshold. The five sums run side by side (each in
/// its own order) so that their additions overlap.
///
/// # Safety
/// SSE is part of x86-64; always callable there.
#[cfg(target_arch = "x86_64")]
pub unsafe fn outputs(net: &Net, act: &[f32], out: &mut [f32; 5]) {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let full = h / 4 * 4;
    let w = net.output_weights.as_ptr();
    let mut acc = [_mm_setzero_ps(); 5];
    for j in (0..full).step_by(4) {
        // SAFETY: j + 4 <= full <= h, and the weights hold 5 rows of h.
        let a = _mm_loadu_ps(act.as_ptr().add(j));
        for (k, s) in acc.iter_mut().enumerate() {
            *s = _mm_add_ps(*s, _mm_mul_ps(a, _mm_loadu_ps(w.add(k * h + j))));
        }
    }
    finish_outputs(net, act, &acc, full, out);
}

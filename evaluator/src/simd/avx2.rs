//! The AVX2 hidden layer. Hidden units are spread over vector lanes and kept in
//! registers while the non-zero inputs stream past, so each unit still adds its inputs
//! in index order with separate multiply and add (never fused): the results are
//! bit-identical to the scalar code ([`super::scalar`]).

use super::cpu::MAX_INPUTS;
use super::scalar;
use crate::weights::Net;

/// The non-zero inputs: their indices and values, and how many.
fn nonzero(inputs: &[f32], idx: &mut [u16; MAX_INPUTS], val: &mut [f32; MAX_INPUTS]) -> usize {
    let mut n = 0;
    for (i, &x) in inputs.iter().enumerate() {
        if x != 0.0 {
            idx[n] = i as u16;
            val[n] = x;
            n += 1;
        }
    }
    n
}

/// Hidden activations with 256-bit vectors (64 units per register block), into `sums`
/// (`net.hidden` long; started from the net's thresholds, as [`hidden_layer_512`]).
///
/// # Safety
/// The CPU must support AVX2 ([`available`]); the net has a weight row for every input
/// and `net.hidden` thresholds, and `sums.len() == net.hidden` (the checks of
/// `simd::hidden_layer_with`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn hidden_layer(net: &Net, inputs: &[f32], sums: &mut [f32]) {
    use std::arch::x86_64::*;
    sums.copy_from_slice(&net.hidden_thresholds);
    if inputs.len() > MAX_INPUTS {
        scalar::hidden_sums(net, inputs, sums);
        activate(net.beta_hidden, sums);
        return;
    }
    let mut idx = [0u16; MAX_INPUTS];
    let mut val = [0f32; MAX_INPUTS];
    let n = nonzero(inputs, &mut idx, &mut val);
    let h = net.hidden;
    let w = net.hidden_weights.as_ptr();
    let s = sums.as_mut_ptr();
    let mut j = 0;
    // SAFETY (all pointer arithmetic below): rows are `h` long and j + width <= h.
    while j + 64 <= h {
        let mut acc = [_mm256_setzero_ps(); 8];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_loadu_ps(s.add(j + 8 * k));
        }
        for t in 0..n {
            let row = w.add(usize::from(idx[t]) * h + j);
            let x = val[t];
            if x == 1.0 {
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_add_ps(*a, _mm256_loadu_ps(row.add(8 * k)));
                }
            } else {
                let xv = _mm256_set1_ps(x);
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_add_ps(*a, _mm256_mul_ps(_mm256_loadu_ps(row.add(8 * k)), xv));
                }
            }
        }
        for (k, a) in acc.iter().enumerate() {
            _mm256_storeu_ps(s.add(j + 8 * k), *a);
        }
        j += 64;
    }
    while j + 8 <= h {
        let mut a = _mm256_loadu_ps(s.add(j));
        for t in 0..n {
            let row = w.add(usize::from(idx[t]) * h + j);
            let x = val[t];
            a = if x == 1.0 {
                _mm256_add_ps(a, _mm256_loadu_ps(row))
            } else {
                _mm256_add_ps(a, _mm256_mul_ps(_mm256_loadu_ps(row), _mm256_set1_ps(x)))
            };
        }
        _mm256_storeu_ps(s.add(j), a);
        j += 8;
    }
    scalar::add_rows_from(net, &idx[..n], &val[..n], sums, j);
    activate(net.beta_hidden, sums);
}

/// The vectorised logistic of `crate::sigmoid::logistic_vector_style` (with `vrcpps`,
/// the same approximation as the scalar `rcpss`), scalar for a tail.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn activate(beta: f32, sums: &mut [f32]) {
    use std::arch::x86_64::*;
    let full = sums.len() / 8 * 8;
    let table = crate::sigmoid::table();
    let s = sums.as_mut_ptr();
    let betav = _mm256_set1_ps(beta);
    let ten = _mm256_set1_ps(10.0);
    let one = _mm256_set1_ps(1.0);
    let abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff));
    for j in (0..full).step_by(8) {
        // SAFETY: j + 8 <= full <= sums.len().
        let x = _mm256_mul_ps(_mm256_loadu_ps(s.add(j)), betav);
        let negative = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OS);
        let x1 = _mm256_mul_ps(_mm256_min_ps(_mm256_and_ps(x, abs_mask), ten), ten);
        let i = _mm256_cvttps_epi32(x1);
        // SAFETY: 0 <= i <= 100 because x1 is in [0, 100]; the table has 101 entries.
        let e = _mm256_i32gather_ps::<4>(table.as_ptr(), i);
        let t = _mm256_add_ps(_mm256_sub_ps(x1, _mm256_cvtepi32_ps(i)), ten);
        let c = _mm256_rcp_ps(_mm256_add_ps(_mm256_mul_ps(e, t), one));
        let r = _mm256_blendv_ps(_mm256_sub_ps(one, c), c, negative);
        _mm256_storeu_ps(s.add(j), r);
    }
    for v in &mut sums[full..] {
        *v = crate::sigmoid::logistic_vector_style(*v * beta);
    }
}

/// Eight approximate reciprocals (`vrcpps`), for tests against the scalar `rcpss`.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(all(test, target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
pub unsafe fn recip8(x: [f32; 8]) -> [f32; 8] {
    use std::arch::x86_64::*;
    let mut out = [0f32; 8];
    _mm256_storeu_ps(out.as_mut_ptr(), _mm256_rcp_ps(_mm256_loadu_ps(x.as_ptr())));
    out
}

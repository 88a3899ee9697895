//! The AVX2 hidden layer, from the thresholds or from given sums. Hidden units are
//! spread over vector lanes and kept in registers while the non-zero inputs stream past,
//! so each unit still adds its inputs in index order with separate multiply and add
//! (never fused): the results are bit-identical to the scalar code ([`super::scalar`]).
//! The non-zero inputs are found eight at a time and packed to the front without
//! data-dependent branches (a compare, a mask and a shuffle from a table).

use super::cpu::MAX_INPUTS;
use super::scalar;
use crate::weights::Net;

/// For each 8-bit mask, the positions of its set bits in order, three bits each (the
/// shuffle that packs the selected lanes of a vector to its front).
const PACK: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut m = 0;
    while m < 256 {
        let (mut packed, mut n, mut lane) = (0u32, 0, 0);
        while lane < 8 {
            if m & (1 << lane) != 0 {
                packed |= (lane as u32) << (3 * n);
                n += 1;
            }
            lane += 1;
        }
        t[m] = packed;
        m += 1;
    }
    t
};

/// The indices of the inputs non-zero in any of `inputs` (all of one length), in
/// order, written to the front of `idx`; returns how many. Each block of eight is packed
/// in a register and stored whole, so up to seven entries past the count are scratch.
///
/// # Safety
/// AVX2 and POPCNT; `idx` has room for `inputs[0].len() + 8` values; every input
/// vector is as long as the first.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn nonzero<const N: usize>(inputs: [&[f32]; N], idx: *mut u32) -> usize {
    use std::arch::x86_64::*;
    let len = inputs[0].len();
    let mut n = 0usize;
    let mut lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let (eight, shifts) = (
        _mm256_set1_epi32(8),
        _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21),
    );
    let full = len / 8 * 8;
    let mut i = 0;
    while i < full {
        // SAFETY: i + 8 <= len; n + 8 <= i + 8 is within the caller's room.
        let mut keep = 0usize;
        for x in inputs {
            let v = _mm256_loadu_ps(x.as_ptr().add(i));
            keep |= _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_NEQ_UQ>(v, _mm256_setzero_ps())) as usize;
        }
        let order = _mm256_and_si256(
            _mm256_srlv_epi32(_mm256_set1_epi32(PACK[keep] as i32), shifts),
            _mm256_set1_epi32(7),
        );
        _mm256_storeu_si256(idx.add(n).cast(), _mm256_permutevar8x32_epi32(lanes, order));
        n += keep.count_ones() as usize;
        lanes = _mm256_add_epi32(lanes, eight);
        i += 8;
    }
    for k in full..len {
        *idx.add(n) = k as u32;
        n += usize::from(inputs.iter().any(|x| x[k] != 0.0));
    }
    n
}

/// Hidden activations with 256-bit vectors (64 units per register block), into `act`
/// (`net.hidden` long), starting from the net's thresholds.
///
/// # Safety
/// The CPU must support AVX2; the net has a weight row for every input and
/// `net.hidden` thresholds, and `act.len() == net.hidden` (the checks of
/// `simd::hidden_layer_with`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
pub unsafe fn hidden_layer(net: &Net, inputs: &[f32], act: &mut [f32]) {
    hidden_layer_from(net, &net.hidden_thresholds, inputs, act, true);
}

/// The hidden layer from the sums `start` into `out`: the activations, or with
/// `activate` false the sums (see `simd::hidden_layer_from`).
///
/// # Safety
/// The CPU must support AVX2; the net has a weight row for every input, and `start`
/// and `out` have `net.hidden` values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
pub unsafe fn hidden_layer_from(net: &Net, start: &[f32], inputs: &[f32], out: &mut [f32], activate: bool) {
    use std::arch::x86_64::*;
    out.copy_from_slice(start);
    if inputs.len() > MAX_INPUTS {
        scalar::hidden_sums(net, inputs, out);
    } else {
        // Not zeroed first: only the first n entries, which `nonzero` writes, are read.
        let mut idx = std::mem::MaybeUninit::<[u32; MAX_INPUTS + 8]>::uninit();
        let ip = idx.as_mut_ptr().cast::<u32>();
        let n = nonzero([inputs], ip);
        // SAFETY: the first n entries were written just above, each an index of `inputs`.
        let idx = std::slice::from_raw_parts(ip, n);
        let h = net.hidden;
        let w = net.hidden_weights.as_ptr();
        let s = out.as_mut_ptr();
        let x = inputs.as_ptr();
        let mut j = 0;
        // SAFETY (all pointer arithmetic below): rows are `h` long, j + width <= h, and
        // every index is below inputs.len().
        while j + 64 <= h {
            let mut acc = [_mm256_setzero_ps(); 8];
            for (k, a) in acc.iter_mut().enumerate() {
                *a = _mm256_loadu_ps(s.add(j + 8 * k));
            }
            for &i in idx {
                let row = w.add(i as usize * h + j);
                // w · 1.0 is exactly w: always multiplying avoids a data-dependent branch.
                let xv = _mm256_set1_ps(*x.add(i as usize));
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_add_ps(*a, _mm256_mul_ps(_mm256_loadu_ps(row.add(8 * k)), xv));
                }
            }
            for (k, a) in acc.iter().enumerate() {
                _mm256_storeu_ps(s.add(j + 8 * k), *a);
            }
            j += 64;
        }
        while j + 8 <= h {
            let mut a = _mm256_loadu_ps(s.add(j));
            for &i in idx {
                let row = w.add(i as usize * h + j);
                a = _mm256_add_ps(
                    a,
                    _mm256_mul_ps(_mm256_loadu_ps(row), _mm256_set1_ps(*x.add(i as usize))),
                );
            }
            _mm256_storeu_ps(s.add(j), a);
            j += 8;
        }
        if j < h {
            for &i in idx {
                let row = &net.hidden_weights[i as usize * h..i as usize * h + h];
                let v = inputs[i as usize];
                for (o, &r) in out[j..].iter_mut().zip(&row[j..]) {
                    *o += r * v;
                }
            }
        }
    }
    if activate {
        self::activate(net.beta_hidden, out);
    }
}

/// The vectorised logistic of `crate::sigmoid::logistic_vector_style` (with `vrcpps`,
/// the same approximation as the scalar `rcpss`), scalar for a tail.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn activate(beta: f32, sums: &mut [f32]) {
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

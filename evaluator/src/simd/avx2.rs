//! AVX2 hidden layer: eight hidden units per vector. Only add and multiply (never fused
//! multiply-add) so that each unit sees exactly the scalar sequence of roundings.

use crate::weights::Net;

/// Whether this CPU runs AVX2.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Hidden sums and activations, vectorised; the tail (hidden % 8) is done in scalar.
///
/// # Safety
/// The CPU must support AVX2 ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn hidden_layer(net: &Net, inputs: &[f32], sums: &mut [f32]) {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let full = h / 8 * 8;
    let w = net.hidden_weights.as_ptr();
    let s = sums.as_mut_ptr();
    for (i, &x) in inputs.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        // SAFETY: row i has h weights; j + 8 <= full <= h; sums has h entries.
        let row = w.add(i * h);
        if x == 1.0 {
            for j in (0..full).step_by(8) {
                let acc = _mm256_loadu_ps(s.add(j));
                _mm256_storeu_ps(s.add(j), _mm256_add_ps(acc, _mm256_loadu_ps(row.add(j))));
            }
            for j in full..h {
                *s.add(j) += *row.add(j);
            }
        } else {
            let xv = _mm256_set1_ps(x);
            for j in (0..full).step_by(8) {
                let acc = _mm256_loadu_ps(s.add(j));
                let prod = _mm256_mul_ps(_mm256_loadu_ps(row.add(j)), xv);
                _mm256_storeu_ps(s.add(j), _mm256_add_ps(acc, prod));
            }
            for j in full..h {
                *s.add(j) += *row.add(j) * x;
            }
        }
    }
    activate(net.beta_hidden, sums, full);
}

/// The vectorised logistic of `crate::sigmoid::logistic_vector_style` on the first
/// `full` sums, scalar on the rest.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn activate(beta: f32, sums: &mut [f32], full: usize) {
    use std::arch::x86_64::*;
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
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn recip8(x: [f32; 8]) -> [f32; 8] {
    use std::arch::x86_64::*;
    let mut out = [0f32; 8];
    _mm256_storeu_ps(out.as_mut_ptr(), _mm256_rcp_ps(_mm256_loadu_ps(x.as_ptr())));
    out
}

/// Never called off x86-64 ([`available`] is false there).
///
/// # Safety
/// Not callable.
#[cfg(not(target_arch = "x86_64"))]
pub unsafe fn hidden_layer(_: &Net, _: &[f32], _: &mut [f32]) {
    unreachable!("AVX2 is x86-64 only")
}

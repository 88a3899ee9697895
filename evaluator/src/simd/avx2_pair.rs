//! The AVX2 hidden layer for two input vectors of one net at once: each weight row is
//! loaded once and applied to both (the weights do not fit in the first-level cache, so
//! loading them is what a hidden layer waits on). Blocks of 32 units keep both
//! positions' sums in eight registers. Each unit adds its inputs in index order with
//! separate multiply and add, as [`super::avx2`]; an input that is zero for one of the
//! two adds w · 0 = ±0 to that one's sums, which leaves a sum unchanged except that −0
//! may become +0, and the logistic treats ±0 alike: the activations are the same bits
//! as one at a time.

use super::avx2::{activate, hidden_layer_from, nonzero};
use super::cpu::MAX_INPUTS;
use crate::weights::Net;

/// Hidden activations of two input vectors (of one length) from the sums `start`, into
/// `act`; the same bits as [`hidden_layer_from`] on each.
///
/// # Safety
/// The CPU must support AVX2 and POPCNT; the net has a weight row for every input, and
/// `start` and both `act` have `net.hidden` values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
pub unsafe fn hidden_layer_pair_from(net: &Net, start: &[f32], inputs: [&[f32]; 2], act: [&mut [f32]; 2]) {
    use std::arch::x86_64::*;
    let [a, b] = inputs;
    let [oa, ob] = act;
    if a.len() > MAX_INPUTS || b.len() != a.len() {
        hidden_layer_from(net, start, a, oa, true);
        hidden_layer_from(net, start, b, ob, true);
        return;
    }
    oa.copy_from_slice(start);
    ob.copy_from_slice(start);
    // Not zeroed first: only the first n entries, which `nonzero` writes, are read.
    let mut idx = std::mem::MaybeUninit::<[u32; MAX_INPUTS + 8]>::uninit();
    let ip = idx.as_mut_ptr().cast::<u32>();
    let n = nonzero([a, b], ip);
    // SAFETY: the first n entries were written just above, each an index of a and b.
    let idx = std::slice::from_raw_parts(ip, n);
    let h = net.hidden;
    let w = net.hidden_weights.as_ptr();
    let (sa, sb) = (oa.as_mut_ptr(), ob.as_mut_ptr());
    let (xa, xb) = (a.as_ptr(), b.as_ptr());
    let mut j = 0;
    // SAFETY (all pointer arithmetic below): rows are `h` long, j + width <= h, and
    // every index is below the inputs' length.
    while j + 32 <= h {
        let mut acc_a = [_mm256_setzero_ps(); 4];
        let mut acc_b = [_mm256_setzero_ps(); 4];
        for k in 0..4 {
            acc_a[k] = _mm256_loadu_ps(sa.add(j + 8 * k));
            acc_b[k] = acc_a[k];
        }
        for &i in idx {
            let row = w.add(i as usize * h + j);
            let (xv, yv) = (
                _mm256_set1_ps(*xa.add(i as usize)),
                _mm256_set1_ps(*xb.add(i as usize)),
            );
            for k in 0..4 {
                let wk = _mm256_loadu_ps(row.add(8 * k));
                acc_a[k] = _mm256_add_ps(acc_a[k], _mm256_mul_ps(wk, xv));
                acc_b[k] = _mm256_add_ps(acc_b[k], _mm256_mul_ps(wk, yv));
            }
        }
        for k in 0..4 {
            _mm256_storeu_ps(sa.add(j + 8 * k), acc_a[k]);
            _mm256_storeu_ps(sb.add(j + 8 * k), acc_b[k]);
        }
        j += 32;
    }
    while j + 8 <= h {
        let (mut pa, mut pb) = (_mm256_loadu_ps(sa.add(j)), _mm256_loadu_ps(sb.add(j)));
        for &i in idx {
            let wk = _mm256_loadu_ps(w.add(i as usize * h + j));
            pa = _mm256_add_ps(pa, _mm256_mul_ps(wk, _mm256_set1_ps(*xa.add(i as usize))));
            pb = _mm256_add_ps(pb, _mm256_mul_ps(wk, _mm256_set1_ps(*xb.add(i as usize))));
        }
        _mm256_storeu_ps(sa.add(j), pa);
        _mm256_storeu_ps(sb.add(j), pb);
        j += 8;
    }
    if j < h {
        for &i in idx {
            let row = &net.hidden_weights[i as usize * h + j..i as usize * h + h];
            let (x, y) = (a[i as usize], b[i as usize]);
            for ((pa, pb), &r) in oa[j..].iter_mut().zip(ob[j..].iter_mut()).zip(row) {
                *pa += r * x;
                *pb += r * y;
            }
        }
    }
    activate(net.beta_hidden, oa);
    activate(net.beta_hidden, ob);
}

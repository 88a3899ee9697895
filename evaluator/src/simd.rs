//! Vector kernels for the hidden layer, chosen once at run time, with the scalar code of
//! [`crate::net`] as the portable path. All `unsafe` code of the crate lives here.
//!
//! Set `BGKIT_SIMD=scalar` (or `avx2`) to force a path; an unsupported choice falls
//! back to scalar.

mod avx2;

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
}

/// The kernel in use (detected once; `BGKIT_SIMD` overrides).
pub fn kernel() -> Kernel {
    static KERNEL: OnceLock<Kernel> = OnceLock::new();
    *KERNEL.get_or_init(|| {
        let wanted = std::env::var("BGKIT_SIMD").unwrap_or_default();
        if wanted == "scalar" || !avx2::available() {
            Kernel::Scalar
        } else {
            Kernel::Avx2
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

/// Hidden sums and activations (`sums` holds the thresholds on entry).
pub fn hidden_layer(net: &Net, inputs: &[f32], sums: &mut [f32]) {
    hidden_layer_with(kernel(), net, inputs, sums);
}

/// [`hidden_layer`] with a chosen kernel (tests run every kernel).
pub fn hidden_layer_with(kernel: Kernel, net: &Net, inputs: &[f32], sums: &mut [f32]) {
    match kernel {
        Kernel::Avx2 if avx2::available() => {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { avx2::hidden_layer(net, inputs, sums) }
        }
        _ => {
            hidden_sums_scalar(net, inputs, sums);
            activate_scalar(net.beta_hidden, sums);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net with irregular weights and a hidden size that is not a multiple of 8.
    fn net(hidden: usize) -> Net {
        let mut n = Net::zeros(250, hidden, 5);
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
    fn every_kernel_agrees_bit_for_bit_with_scalar() {
        for hidden in [5, 8, 13, 16, 128, 131] {
            let n = net(hidden);
            let inputs: Vec<f32> = (0..250)
                .map(|i| [0.0, 1.0, 0.5, 2.5, 0.0, 0.123][i % 6])
                .collect();
            let mut want = n.hidden_thresholds.clone();
            hidden_layer_with(Kernel::Scalar, &n, &inputs, &mut want);
            for k in [Kernel::Avx2] {
                if k == Kernel::Avx2 && !avx2::available() {
                    eprintln!("skipping AVX2: not supported here");
                    continue;
                }
                let mut got = n.hidden_thresholds.clone();
                hidden_layer_with(k, &n, &inputs, &mut got);
                let same = want.iter().zip(&got).all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{k:?} differs at hidden size {hidden}");
            }
        }
    }
}

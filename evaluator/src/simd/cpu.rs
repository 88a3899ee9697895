//! Which vector instructions this CPU runs (detected at run time), and the shape limits
//! the register-blocked kernels share.

use crate::weights::Net;

/// Inputs a net may have for the register-blocked kernels.
pub const MAX_INPUTS: usize = 256;

/// Whether the kernels that work in blocks of 16 hidden units (the AVX-512 exact ones
/// and the fused ones) take this net with inputs of this length: at most
/// [`MAX_INPUTS`] inputs and a multiple of 16 hidden units.
pub fn fits_sixteen(net: &Net, inputs: usize) -> bool {
    inputs <= MAX_INPUTS && net.hidden.is_multiple_of(16)
}

/// Whether this CPU runs AVX2 (and POPCNT, which every such CPU has).
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU runs AVX-512F (and AVX2 and POPCNT, which every such CPU has).
pub fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_avx2()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU runs fused multiply-adds (FMA3), as the fused kernels use them.
pub fn has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

//! A cache hint: ask the processor to fetch data before it is read. The one-sided
//! generator and the hypergammon solver use it to hide memory latency in their inner
//! loops.

/// Asks the processor to fetch `x` into cache (no effect where not supported).
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint; it never faults, and SSE is part of the
        // x86-64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

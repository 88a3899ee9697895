//! gnubg's sigmoid: a table-driven approximation of the logistic function, in `f32`.
//!
//! `TABLE[k] = exp(k/10) / 10` for k = 0..=99, and `TABLE[100] = TABLE[99]`. Within
//! each interval of 0.1, exp is expanded to first order around the table point:
//! for 0 ≤ x < 10, with t = 10x and i = ⌊t⌋, `1 / (1 + e^x) ≈ 1 / (1 + TABLE[i]·(10 − i + t))`.

use std::sync::OnceLock;

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

/// The exponential table.
pub fn table() -> &'static [f32; 101] {
    static TABLE: OnceLock<[f32; 101]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0f32; 101];
        for (k, v) in t.iter_mut().enumerate().take(100) {
            *v = ((k as f64 / 10.0).exp() / 10.0) as f32;
        }
        t[100] = t[99];
        t
    })
}

/// gnubg's scalar `sigmoid(x)` ≈ 1 / (1 + eˣ), used for the output layer. The
/// saturation constants are gnubg's literals, kept as written.
#[inline]
#[allow(clippy::excessive_precision)]
pub fn sigmoid(x: f32) -> f32 {
    let e = table();
    if !x.is_sign_negative() {
        if x < 10.0 {
            let x1 = 10.0 * x;
            let i = x1 as i32;
            1.0 / (1.0 + e[i as usize] * ((10 - i) as f32 + x1))
        } else {
            1.0 / 19_931.370_438_230_298_f32
        }
    } else if x > -10.0 {
        let x1 = -10.0 * x;
        let i = x1 as i32;
        1.0 - 1.0 / (1.0 + e[i as usize] * ((10 - i) as f32 + x1))
    } else {
        19_930.370_438_230_298_f32 / 19_931.370_438_230_298_f32
    }
}

/// The logistic 1 / (1 + e⁻ˣ) as gnubg's vectorised hidden layer computes it (its
/// `sigmoid_ps`): |x| clamped at 10, the table step, then mirrored for x ≥ 0.
///
/// Debian's gnubg is built with `-ffast-math`, so the final division is the SSE
/// approximate reciprocal (`rcpps`, about 12 bits); this uses the same instruction on
/// x86-64 (see [`approx_recip`]) to reproduce gnubg bit for bit.
#[inline]
pub fn logistic_vector_style(x: f32) -> f32 {
    let e = table();
    let x1 = x.abs().min(10.0) * 10.0;
    let i = x1 as i32;
    let t = (x1 - i as f32) + 10.0;
    let c = approx_recip(e[i as usize] * t + 1.0);
    if x < 0.0 {
        c
    } else {
        1.0 - c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_its_definition_and_gnubgs_printed_values() {
        let e = table();
        assert_eq!(e[0], 0.1);
        // Values gnubg prints in lib/sigmoid.h, as f32.
        assert_eq!(e[10], 0.271_828_18_f32);
        assert_eq!(e[99], 1993.037_f32);
        assert_eq!(e[100], e[99]);
    }

    #[test]
    #[allow(clippy::excessive_precision)]
    fn both_forms_approximate_the_logistic_closely() {
        for k in -200..=200 {
            let x = k as f32 * 0.05;
            let exact = 1.0 / (1.0 + (-x as f64).exp());
            assert!((sigmoid(-x) as f64 - exact).abs() < 2e-3, "{x}");
            assert!((logistic_vector_style(x) as f64 - exact).abs() < 2e-3, "{x}");
            // The two forms agree up to the approximate reciprocal's precision.
            assert!((sigmoid(-x) - logistic_vector_style(x)).abs() < 1e-3, "{x}");
        }
        assert_eq!(sigmoid(0.0), 0.5);
        assert_eq!(sigmoid(20.0), 1.0 / 19_931.370_438_230_298_f32);
    }
}

//! The weight update of a gradient step: rows of a weight matrix each moved by a scaled
//! copy of one vector. Every element is one multiply and one add, as in the portable
//! loop (no FMA), so the vector builds give its bits; they only let the compiler use
//! wider registers.

use super::{cpu, Kernel};

/// Defines `$name(kernel, args…)`: the portable `$portable` compiled for AVX-512F and
/// for AVX2 (the same operations in wider registers), run as `kernel` says where the
/// CPU has it, else as portable code.
macro_rules! compiled_for_kernels {
    ($(#[$doc:meta])* $name:ident = $portable:ident($($arg:ident: $ty:ty),*)) => {
        $(#[$doc])*
        pub fn $name(kernel: Kernel, $($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f")]
                unsafe fn avx512($($arg: $ty),*) {
                    $portable($($arg),*)
                }
                #[target_feature(enable = "avx2")]
                unsafe fn avx2($($arg: $ty),*) {
                    $portable($($arg),*)
                }
                if kernel == Kernel::Avx512 && cpu::has_avx512() {
                    // SAFETY: AVX-512F checked just above.
                    return unsafe { avx512($($arg),*) };
                }
                if kernel != Kernel::Scalar && cpu::has_avx2() {
                    // SAFETY: AVX2 checked just above.
                    return unsafe { avx2($($arg),*) };
                }
            }
            let _ = kernel;
            $portable($($arg),*)
        }
    };
}

/// [`super::add_outer`] on a given kernel (portable code where the CPU lacks it). The
/// vector kernels list the non-zero inputs eight at a time (`avx2::nonzero`: a compare,
/// a mask and a shuffle; the portable scan, one input per step, took a quarter of the
/// update's time) and move the listed rows as the portable code does.
pub fn add_outer_with(kernel: Kernel, w: &mut [f32], x: &[f32], s: f32, g: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx2,popcnt")]
        unsafe fn avx512(w: &mut [f32], x: &[f32], s: f32, g: &[f32]) {
            add_outer_packed(w, x, s, g)
        }
        #[target_feature(enable = "avx2,popcnt")]
        unsafe fn avx2(w: &mut [f32], x: &[f32], s: f32, g: &[f32]) {
            add_outer_packed(w, x, s, g)
        }
        if kernel == Kernel::Avx512 && cpu::has_avx512() {
            // SAFETY: AVX-512F, AVX2 and POPCNT checked just above.
            return unsafe { avx512(w, x, s, g) };
        }
        if kernel != Kernel::Scalar && cpu::has_avx2() {
            // SAFETY: AVX2 and POPCNT checked just above.
            return unsafe { avx2(w, x, s, g) };
        }
    }
    let _ = kernel;
    add_outer_portable(w, x, s, g)
}

/// Inputs listed per chunk (the index buffers' size).
const CHUNK: usize = 256;

compiled_for_kernels!(
    /// [`super::add_difference`] on a given kernel (portable code where the CPU lacks
    /// it).
    add_difference_with = add_difference_portable(m: &mut [f32], o: &[f32], b: &[f32])
);

compiled_for_kernels!(
    /// [`super::add_difference_onto`] on a given kernel (portable code where the CPU
    /// lacks it).
    add_difference_onto_with = add_difference_onto_portable(o: &mut [f32], m: &[f32], b: &[f32])
);

/// `w[i·n + j] += (s · x[i]) · g[j]` for every `i` with `x[i] != 0` and every `j < n`,
/// where `n = g.len()` (portable code, the reference).
#[inline(always)]
pub fn add_outer_portable(w: &mut [f32], x: &[f32], s: f32, g: &[f32]) {
    let n = g.len();
    if n == 0 {
        return;
    }
    // The non-zero inputs are listed first, without a branch per input (most inputs
    // of a position are zero, in no predictable pattern).
    let mut idx = [0u32; CHUNK];
    for (xs, rows) in x.chunks(CHUNK).zip(w.chunks_mut(CHUNK * n)) {
        let mut k = 0;
        for (i, &xi) in xs.iter().enumerate() {
            idx[k] = i as u32;
            k += usize::from(xi != 0.0);
        }
        add_rows(rows, xs, &idx[..k], s, g);
    }
}

/// [`add_outer_portable`] with the non-zero inputs listed by `avx2::nonzero`.
///
/// # Safety
/// AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn add_outer_packed(w: &mut [f32], x: &[f32], s: f32, g: &[f32]) {
    let n = g.len();
    if n == 0 {
        return;
    }
    // `nonzero` stores eight entries at a time: room for a chunk and eight more.
    let mut idx = [0u32; CHUNK + 8];
    for (xs, rows) in x.chunks(CHUNK).zip(w.chunks_mut(CHUNK * n)) {
        // SAFETY: AVX2 and POPCNT (the caller's); `idx` has room for xs.len() + 8.
        let k = unsafe { super::avx2::nonzero([xs], idx.as_mut_ptr()) };
        add_rows(rows, xs, &idx[..k], s, g);
    }
}

/// `rows[i·n + j] += (s · xs[i]) · g[j]` for the listed inputs `i` (ascending), while
/// `rows` holds their rows (`n = g.len()`).
#[inline(always)]
fn add_rows(rows: &mut [f32], xs: &[f32], listed: &[u32], s: f32, g: &[f32]) {
    let n = g.len();
    for &i in listed {
        let i = i as usize;
        let Some(row) = rows.get_mut(i * n..(i + 1) * n) else {
            break;
        };
        let d = s * xs[i];
        for (wj, &gj) in row.iter_mut().zip(g) {
            *wj += d * gj;
        }
    }
}

/// `m[j] += o[j] − b[j]` for every `j` (portable code, the reference): what one copy
/// of a net learned (`o`, from `b`) added to another.
#[inline(always)]
pub fn add_difference_portable(m: &mut [f32], o: &[f32], b: &[f32]) {
    for ((m, &o), &b) in m.iter_mut().zip(o).zip(b) {
        *m += o - b;
    }
}

/// `o[j] = m[j] + (o[j] − b[j])` for every `j` (portable code, the reference):
/// [`add_difference_portable`]'s sum, written over the learned copy instead of `m`.
#[inline(always)]
pub fn add_difference_onto_portable(o: &mut [f32], m: &[f32], b: &[f32]) {
    for ((o, &m), &b) in o.iter_mut().zip(m).zip(b) {
        *o = m + (*o - b);
    }
}

/// `words[i / 64] |= 1 << (i % 64)` for every `i` with `x[i] != 0` (NaN included; −0.0
/// is zero): the rows that [`super::add_outer`] changes (portable code, the reference).
#[cfg(any(test, not(target_arch = "x86_64")))]
pub fn or_nonzero_bits_portable(x: &[f32], words: &mut [u64]) {
    for (w, chunk) in words.iter_mut().zip(x.chunks(64)) {
        for (i, &v) in chunk.iter().enumerate() {
            *w |= u64::from(v != 0.0) << i;
        }
    }
}

/// [`or_nonzero_bits_portable`] with SSE (part of x86-64): four compares and a mask
/// move per four inputs.
///
/// # Safety
/// SSE is part of x86-64; always callable there.
#[cfg(target_arch = "x86_64")]
pub unsafe fn or_nonzero_bits_sse(x: &[f32], words: &mut [u64]) {
    use std::arch::x86_64::*;
    let zero = _mm_setzero_ps();
    for (w, chunk) in words.iter_mut().zip(x.chunks(64)) {
        let mut fours = chunk.chunks_exact(4);
        let mut bits = 0u64;
        for (k, f) in fours.by_ref().enumerate() {
            // SAFETY: `f` holds four floats.
            let m = _mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(f.as_ptr()), zero));
            bits |= (m as u64) << (4 * k);
        }
        let done = chunk.len() - fours.remainder().len();
        for (i, &v) in fours.remainder().iter().enumerate() {
            bits |= u64::from(v != 0.0) << (done + i);
        }
        *w |= bits;
    }
}

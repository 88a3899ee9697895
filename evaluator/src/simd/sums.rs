//! Weighted checker counts of one side for the contact features, over the 25 slots at
//! once: SSE2 (part of x86-64) with 16-bit lanes and `pmaddwd`, portable code
//! elsewhere; both give the same integers (tested).

/// Sums over one side's slots (slot 24 is the bar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideSums {
    /// Σ (i + 1 − b)·nᵢ over slots i > b, b the opponent's rearmost checker in our
    /// numbering (pips to break contact).
    pub contact: i32,
    /// Σ (i + 1)·nᵢ over slots i < b (pips already past the opponent).
    pub free: i32,
    /// Σ nᵢ.
    pub total: i32,
    /// Σ i·nᵢ.
    pub moment1: i32,
    /// gnubg's timing sum before the home board: 24·n₂₄ + Σ i·kᵢ over slots 6..=23,
    /// where kᵢ = nᵢ up to slot `limit`, and beyond it the checkers above two on a
    /// point (a single checker counts one).
    pub timing: i32,
    /// 24's count n₂₄ + Σ kᵢ (the spare checkers for the home board).
    pub spare: i32,
}

/// [`SideSums`] of `side` given the opponent's rearmost checker `back` and the timing
/// limit.
pub fn side_sums(side: &[u8; 25], back: i32, limit: i32) -> SideSums {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86-64 baseline.
    unsafe {
        x86::side_sums(side, back, limit)
    }
    #[cfg(not(target_arch = "x86_64"))]
    side_sums_scalar(side, back, limit)
}

/// (Σ nᵢ, Σ (i − mean)²·nᵢ) over slots i > mean.
pub fn beyond(side: &[u8; 25], mean: i32) -> (i32, i32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86-64 baseline.
    unsafe {
        x86::beyond(side, mean)
    }
    #[cfg(not(target_arch = "x86_64"))]
    beyond_scalar(side, mean)
}

/// Σ nᵢ over the 25 slots (SSE2 `psadbw` on x86-64).
#[inline]
pub fn checker_total(side: &[u8; 25]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86-64 baseline.
    unsafe {
        x86::checker_total(side)
    }
    #[cfg(not(target_arch = "x86_64"))]
    side.iter().map(|&n| i32::from(n)).sum()
}

/// [`side_sums`] in portable code.
#[cfg(any(test, not(target_arch = "x86_64")))]
pub fn side_sums_scalar(side: &[u8; 25], back: i32, limit: i32) -> SideSums {
    let mut s = SideSums {
        contact: 0,
        free: 0,
        total: 0,
        moment1: 0,
        timing: 24 * i32::from(side[24]),
        spare: i32::from(side[24]),
    };
    for (i, &c) in side.iter().enumerate() {
        let (i, c) = (i as i32, i32::from(c));
        s.contact += if i > back { (i + 1 - back) * c } else { 0 };
        s.free += if i < back { (i + 1) * c } else { 0 };
        s.total += c;
        s.moment1 += i * c;
        if (6..24).contains(&i) {
            let k = if i > limit {
                (c - 2).max(0) + i32::from(c == 1)
            } else {
                c
            };
            s.timing += i * k;
            s.spare += k;
        }
    }
    s
}

/// [`beyond`] in portable code.
#[cfg(any(test, not(target_arch = "x86_64")))]
pub fn beyond_scalar(side: &[u8; 25], mean: i32) -> (i32, i32) {
    let (mut count, mut moment) = (0, 0);
    for (i, &c) in side.iter().enumerate() {
        let (i, c) = (i as i32, i32::from(c));
        if i > mean {
            count += c;
            moment += c * (i - mean) * (i - mean);
        }
    }
    (count, moment)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::SideSums;

    /// Slots 0..16, and slots 16..25 followed by zeros: both loads lie inside the side
    /// (the second at slot 9, shifted down), so no padded copy has to be stored first.
    #[inline(always)]
    unsafe fn bytes(side: &[u8; 25]) -> (__m128i, __m128i) {
        let lo = _mm_loadu_si128(side.as_ptr().cast());
        let hi = _mm_srli_si128::<7>(_mm_loadu_si128(side.as_ptr().add(9).cast()));
        (lo, hi)
    }

    /// The 25 counts (and 7 zeros) as four vectors of eight 16-bit lanes, and the slot
    /// numbers alike.
    #[inline(always)]
    unsafe fn lanes(side: &[u8; 25]) -> ([__m128i; 4], [__m128i; 4]) {
        let (lo, hi) = bytes(side);
        let z = _mm_setzero_si128();
        let n = [
            _mm_unpacklo_epi8(lo, z),
            _mm_unpackhi_epi8(lo, z),
            _mm_unpacklo_epi8(hi, z),
            _mm_unpackhi_epi8(hi, z),
        ];
        let i = [
            _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7),
            _mm_setr_epi16(8, 9, 10, 11, 12, 13, 14, 15),
            _mm_setr_epi16(16, 17, 18, 19, 20, 21, 22, 23),
            _mm_setr_epi16(24, 25, 26, 27, 28, 29, 30, 31),
        ];
        (n, i)
    }

    /// Sum of the four 32-bit lanes.
    #[inline(always)]
    unsafe fn total(v: __m128i) -> i32 {
        let v = _mm_add_epi32(v, _mm_shuffle_epi32::<0b01_00_11_10>(v));
        let v = _mm_add_epi32(v, _mm_shuffle_epi32::<0b10_11_00_01>(v));
        _mm_cvtsi128_si32(v)
    }

    /// Σ over the four vectors of Σ aₖ·bₖ (16-bit products, 32-bit sums).
    #[inline(always)]
    unsafe fn dot(a: &[__m128i; 4], b: impl Fn(usize) -> __m128i) -> i32 {
        let mut acc = _mm_setzero_si128();
        for (k, &x) in a.iter().enumerate() {
            acc = _mm_add_epi32(acc, _mm_madd_epi16(x, b(k)));
        }
        total(acc)
    }

    pub unsafe fn side_sums(side: &[u8; 25], back: i32, limit: i32) -> SideSums {
        let (n, i) = lanes(side);
        let one = _mm_set1_epi16(1);
        let b = _mm_set1_epi16(back as i16);
        let after = |k: usize| _mm_cmpgt_epi16(i[k], b);
        let before = |k: usize| _mm_cmpgt_epi16(b, i[k]);
        let contact = dot(&n, |k| {
            _mm_and_si128(after(k), _mm_sub_epi16(_mm_add_epi16(i[k], one), b))
        });
        let free = dot(&n, |k| _mm_and_si128(before(k), _mm_add_epi16(i[k], one)));
        let total = dot(&n, |_| one);
        let moment1 = dot(&n, |k| i[k]);
        // Timing: slots 6..=23; beyond `limit` the checkers above two (a single one
        // counts one).
        let (five, twenty_four) = (_mm_set1_epi16(5), _mm_set1_epi16(24));
        let lim = _mm_set1_epi16(limit as i16);
        let two = _mm_set1_epi16(2);
        let mut k_lanes = [_mm_setzero_si128(); 4];
        for (k, kl) in k_lanes.iter_mut().enumerate() {
            let inside = _mm_and_si128(_mm_cmpgt_epi16(i[k], five), _mm_cmpgt_epi16(twenty_four, i[k]));
            let far = _mm_cmpgt_epi16(i[k], lim);
            let spares = _mm_add_epi16(
                _mm_max_epi16(_mm_sub_epi16(n[k], two), _mm_setzero_si128()),
                _mm_and_si128(_mm_cmpeq_epi16(n[k], one), one),
            );
            let kept = _mm_or_si128(_mm_and_si128(far, spares), _mm_andnot_si128(far, n[k]));
            *kl = _mm_and_si128(inside, kept);
        }
        let bar = i32::from(side[24]);
        SideSums {
            contact,
            free,
            total,
            moment1,
            timing: 24 * bar + dot(&k_lanes, |k| i[k]),
            spare: bar + dot(&k_lanes, |_| one),
        }
    }

    pub unsafe fn checker_total(side: &[u8; 25]) -> i32 {
        let (lo, hi) = bytes(side);
        let z = _mm_setzero_si128();
        let s = _mm_add_epi64(_mm_sad_epu8(lo, z), _mm_sad_epu8(hi, z));
        _mm_cvtsi128_si32(s) + _mm_extract_epi16::<4>(s)
    }

    pub unsafe fn beyond(side: &[u8; 25], mean: i32) -> (i32, i32) {
        let (n, i) = lanes(side);
        let m = _mm_set1_epi16(mean as i16);
        let after = |k: usize| _mm_cmpgt_epi16(i[k], m);
        let count = dot(&n, |k| _mm_and_si128(after(k), _mm_set1_epi16(1)));
        let moment = dot(&n, |k| {
            let d = _mm_sub_epi16(i[k], m);
            _mm_and_si128(after(k), _mm_mullo_epi16(d, d))
        });
        (count, moment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_sums_equal_the_portable_ones() {
        let mut x = 7u32;
        let mut next = |n: u32| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) % n
        };
        for _ in 0..20_000 {
            let mut side = [0u8; 25];
            for _ in 0..=next(15) {
                side[next(25) as usize] += 1;
            }
            let back = next(26) as i32 - 1;
            let limit = back.max(11);
            assert_eq!(
                side_sums(&side, back, limit),
                side_sums_scalar(&side, back, limit),
                "{side:?} {back}"
            );
            let mean = next(25) as i32;
            assert_eq!(beyond(&side, mean), beyond_scalar(&side, mean), "{side:?} {mean}");
            let total: i32 = side.iter().map(|&n| i32::from(n)).sum();
            assert_eq!(checker_total(&side), total, "{side:?}");
        }
    }
}

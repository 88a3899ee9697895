//! The shot count of [`super::shots`] with 256-bit vectors, for CPUs with AVX2 but not
//! AVX-512: the same lanes (one roll per lane) in three registers, the 15 non-doubles
//! in two and the 6 doubles in one, and vector masks (all ones or zero per lane) in
//! place of AVX-512's mask registers. AVX2 has no per-lane leading-zero count, so the
//! highest set bit comes from the exponent of the mask converted to a float. Same rules
//! and integer results as the scalar code (tested equal on random positions).

#[cfg(target_arch = "x86_64")]
use super::shots::PackedCounts;
use super::shots::ShotMasks;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Whether this CPU runs the kernel.
pub fn available() -> bool {
    super::cpu::has_avx2()
}

/// The broadcast masks and constants every lane works with.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Lanes {
    hitters: __m256i,
    targets: __m256i,
    blocks: __m256i,
    one: __m256i,
    zero: __m256i,
}

#[cfg(target_arch = "x86_64")]
impl Lanes {
    /// Hitters of a way covering `d` (per lane), before intermediate points are checked.
    #[inline(always)]
    unsafe fn reach(self, d: __m256i) -> __m256i {
        let all25 = _mm256_set1_epi32(0x1ff_ffff);
        _mm256_and_si256(
            _mm256_and_si256(self.hitters, _mm256_sllv_epi32(self.targets, d)),
            all25,
        )
    }

    /// Highest set bit of each lane's mask (masks are below 2^25); 0 for 0 and 1.
    /// `x >> 1` is below 2^24, so it converts to a float exactly, and its exponent is
    /// the highest bit of `x` less one.
    #[inline(always)]
    unsafe fn top(self, x: __m256i) -> __m256i {
        let f = _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_srli_epi32::<1>(x)));
        _mm256_max_epi32(
            _mm256_sub_epi32(_mm256_srli_epi32::<23>(f), _mm256_set1_epi32(126)),
            self.zero,
        )
    }

    /// Bit k (per lane) of x, as 0 or 1.
    #[inline(always)]
    unsafe fn bit(self, x: __m256i, k: __m256i) -> __m256i {
        _mm256_and_si256(_mm256_srlv_epi32(x, k), self.one)
    }

    /// The lanes of `valid` where x is not zero.
    #[inline(always)]
    unsafe fn live(self, x: __m256i, valid: __m256i) -> __m256i {
        _mm256_andnot_si256(_mm256_cmpeq_epi32(x, self.zero), valid)
    }

    /// The lanes of `valid` whose mask includes the bar (slot 24).
    #[inline(always)]
    unsafe fn hits_from_bar(self, x: __m256i, valid: __m256i) -> __m256i {
        let bar = _mm256_set1_epi32(1 << 24);
        _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_and_si256(x, bar), bar), valid)
    }

    /// Pips lost to a hit from k with a way covering d (k − d + 1); 0 where not `live`.
    #[inline(always)]
    unsafe fn lost(self, live: __m256i, k: __m256i, d: __m256i) -> __m256i {
        _mm256_and_si256(live, _mm256_add_epi32(_mm256_sub_epi32(k, d), self.one))
    }

    /// 1 in the lanes of a mask, else 0.
    #[inline(always)]
    unsafe fn ones(self, mask: __m256i) -> __m256i {
        _mm256_and_si256(mask, self.one)
    }

    /// Where `mask`: at least one checker, plus `more`; elsewhere `c` unchanged.
    #[inline(always)]
    unsafe fn at_least_one_plus(self, c: __m256i, mask: __m256i, more: __m256i) -> __m256i {
        _mm256_blendv_epi8(c, _mm256_add_epi32(_mm256_max_epi32(c, self.one), more), mask)
    }
}

/// (pips lost summed over the 36 rolls, rolls hitting at least one checker, rolls
/// hitting two), packed, as [`super::shots::count`].
///
/// # Safety
/// The CPU must support AVX2 ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn count(m: ShotMasks) -> PackedCounts {
    let v = Lanes {
        hitters: _mm256_set1_epi32(m.hitters as i32),
        targets: _mm256_set1_epi32(m.targets as i32),
        blocks: _mm256_set1_epi32(m.blocks as i32),
        one: _mm256_set1_epi32(1),
        zero: _mm256_setzero_si256(),
    };
    let all = _mm256_set1_epi32(-1);
    // Non-doubles 21, 31, 32, 41, .., 65: the smaller die and the larger (lane 7 of the
    // second register unused).
    let (small, big) = (
        [
            _mm256_setr_epi32(1, 1, 2, 1, 2, 3, 1, 2),
            _mm256_setr_epi32(3, 4, 1, 2, 3, 4, 5, 32),
        ],
        [
            _mm256_setr_epi32(2, 3, 3, 4, 4, 4, 5, 5),
            _mm256_setr_epi32(5, 5, 6, 6, 6, 6, 6, 32),
        ],
    );
    let second = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, 0);
    let (pn0, cn0) = non_doubles(v, &m, small[0], big[0], all);
    let (pn1, cn1) = non_doubles(v, &m, small[1], big[1], second);
    let dd = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0);
    let (pd, cd) = doubles(v, &m, dd);
    let (t0, o0, w0) = weigh(pn0, cn0, all, 2);
    let (t1, o1, w1) = weigh(pn1, cn1, second, 2);
    let (t2, o2, w2) = weigh(pd, cd, dd, 1);
    PackedCounts::new((t0 + t1 + t2, o0 + o1 + o2, w0 + w1 + w2))
}

/// Pips lost and checkers hit for the non-doubles of one register (`valid` lanes).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn non_doubles(
    v: Lanes,
    m: &ShotMasks,
    small: __m256i,
    big: __m256i,
    valid: __m256i,
) -> (__m256i, __m256i) {
    let one = v.one;
    let sum = _mm256_add_epi32(small, big);
    // The combined shot needs one of the two landing points open.
    let both = _mm256_and_si256(
        _mm256_sllv_epi32(v.blocks, big),
        _mm256_sllv_epi32(v.blocks, small),
    );
    let h = [
        v.reach(small),
        v.reach(big),
        _mm256_andnot_si256(both, v.reach(sum)),
    ];
    let bar = _mm256_set1_epi32(24);
    match m.bar {
        0 => {
            let spares = _mm256_set1_epi32(m.spares as i32);
            let blots = _mm256_set1_epi32(m.blots as i32);
            let l = h.map(|x| v.live(x, valid));
            let k = h.map(|x| v.top(x));
            let pn = _mm256_max_epi32(
                _mm256_max_epi32(v.lost(l[0], k[0], small), v.lost(l[1], k[1], big)),
                v.lost(l[2], k[2], sum),
            );
            // The larger die hits with a new checker when it comes from another point
            // than the smaller die's hitter, or from a point with spares.
            let same_point = _mm256_and_si256(l[0], _mm256_cmpeq_epi32(k[0], k[1]));
            let spare = _mm256_cmpeq_epi32(v.bit(spares, k[1]), one);
            let second = _mm256_and_si256(
                l[1],
                _mm256_or_si256(_mm256_xor_si256(same_point, _mm256_set1_epi32(-1)), spare),
            );
            let cn = _mm256_add_epi32(v.ones(l[0]), v.ones(second));
            let on_way = _mm256_or_si256(_mm256_sllv_epi32(blots, small), _mm256_sllv_epi32(blots, big));
            (pn, v.at_least_one_plus(cn, l[2], v.bit(on_way, k[2])))
        }
        1 => {
            let entry = Entry::new(m);
            let (b0, b1, b2) = (
                v.hits_from_bar(h[0], valid),
                v.hits_from_bar(h[1], valid),
                v.hits_from_bar(h[2], valid),
            );
            let ((r0, k0), (r1, k1)) = (entry.off_board(v, h[0], valid), entry.off_board(v, h[1], valid));
            let e0 = _mm256_and_si256(r0, entry.enters(v, big, valid));
            let e1 = _mm256_and_si256(_mm256_andnot_si256(e0, r1), entry.enters(v, small, valid));
            let mut pn = _mm256_max_epi32(v.lost(b0, bar, small), v.lost(b1, bar, big));
            pn = _mm256_max_epi32(pn, _mm256_max_epi32(v.lost(e0, k0, small), v.lost(e1, k1, big)));
            pn = _mm256_max_epi32(pn, v.lost(b2, bar, sum));
            let mut cn = v.zero;
            for hit in [b0, e0, b1, e1] {
                cn = _mm256_add_epi32(cn, v.ones(hit));
            }
            let on_way = _mm256_or_si256(
                v.bit(entry.blots, _mm256_add_epi32(small, one)),
                v.bit(entry.blots, _mm256_add_epi32(big, one)),
            );
            (pn, v.at_least_one_plus(cn, b2, on_way))
        }
        _ => {
            let (b0, b1) = (v.hits_from_bar(h[0], valid), v.hits_from_bar(h[1], valid));
            let pn = _mm256_max_epi32(v.lost(b0, bar, small), v.lost(b1, bar, big));
            (pn, _mm256_add_epi32(v.ones(b0), v.ones(b1)))
        }
    }
}

/// Pips lost and checkers hit for the doubles 11..66 (`valid`: lanes 0..6).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn doubles(v: Lanes, m: &ShotMasks, valid: __m256i) -> (__m256i, __m256i) {
    let one = v.one;
    // One to four steps of d; the intermediate landing points d, 2d, .. behind the
    // hitter must all be open.
    let d = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 0, 0);
    let mut g = [v.reach(d), v.zero, v.zero, v.zero];
    let mut dist = [d; 4];
    let mut blocked = v.zero;
    for s in 1..4 {
        blocked = _mm256_or_si256(_mm256_sllv_epi32(blocked, d), _mm256_sllv_epi32(v.blocks, d));
        dist[s] = _mm256_add_epi32(dist[s - 1], d);
        g[s] = _mm256_andnot_si256(blocked, v.reach(dist[s]));
    }
    let bar = _mm256_set1_epi32(24);
    match m.bar {
        0 => {
            // A direct shot counts one, two when another point also hits; a longer one
            // at least one, plus one for a blot on a landing point.
            let blots = _mm256_set1_epi32(m.blots as i32);
            let l0 = v.live(g[0], valid);
            let k0 = v.top(g[0]);
            let mut pd = v.lost(l0, k0, d);
            let others = _mm256_andnot_si256(_mm256_sllv_epi32(one, k0), g[0]);
            let mut cd = _mm256_add_epi32(v.ones(l0), v.ones(v.live(others, l0)));
            let mut passed = v.zero;
            for s in 1..4 {
                passed = _mm256_or_si256(_mm256_sllv_epi32(passed, d), _mm256_sllv_epi32(blots, d));
                let l = v.live(g[s], valid);
                let k = v.top(g[s]);
                pd = _mm256_max_epi32(pd, v.lost(l, k, dist[s]));
                cd = v.at_least_one_plus(cd, l, v.bit(passed, k));
            }
            (pd, cd)
        }
        1 => {
            // The direct shot's "other die" is the two-step way (gnubg's rule).
            let entry = Entry::new(m);
            let b0 = v.hits_from_bar(g[0], valid);
            let (r0, k0) = entry.off_board(v, g[0], valid);
            let e0 = _mm256_and_si256(r0, entry.enters(v, _mm256_add_epi32(d, d), valid));
            let mut pd = _mm256_max_epi32(v.lost(b0, bar, d), v.lost(e0, k0, d));
            let mut cd = _mm256_add_epi32(v.ones(b0), v.ones(e0));
            let mut passed = v.zero;
            for s in 1..4 {
                passed = _mm256_or_si256(passed, v.bit(entry.blots, _mm256_add_epi32(dist[s - 1], one)));
                let b = v.hits_from_bar(g[s], valid);
                pd = _mm256_max_epi32(pd, v.lost(b, bar, dist[s]));
                cd = v.at_least_one_plus(cd, b, passed);
            }
            (pd, cd)
        }
        _ => {
            let b = v.hits_from_bar(g[0], valid);
            (v.lost(b, bar, d), v.ones(b))
        }
    }
}

/// With one checker of ours on the bar: the opponent's made points and blots in its
/// numbering (bit i: its slot i).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Entry {
    blocks: __m256i,
    blots: __m256i,
}

#[cfg(target_arch = "x86_64")]
impl Entry {
    #[inline(always)]
    unsafe fn new(m: &ShotMasks) -> Entry {
        Entry {
            blocks: _mm256_set1_epi32(m.entry_blocks as i32),
            blots: _mm256_set1_epi32(m.entry_blots as i32),
        }
    }

    /// The lanes of `valid` where the other die's entry point (its slot die − 1) is
    /// not made.
    #[inline(always)]
    unsafe fn enters(self, v: Lanes, die: __m256i, valid: __m256i) -> __m256i {
        let blocked = _mm256_cmpeq_epi32(v.bit(self.blocks, _mm256_sub_epi32(die, v.one)), v.one);
        _mm256_andnot_si256(blocked, valid)
    }

    /// The hitters of a mask on the board (not the bar, not slot 0): which lanes have
    /// one, and the highest.
    #[inline(always)]
    unsafe fn off_board(self, v: Lanes, x: __m256i, valid: __m256i) -> (__m256i, __m256i) {
        let rest = _mm256_and_si256(x, _mm256_set1_epi32(0x00ff_fffe));
        (v.live(rest, valid), v.top(rest))
    }
}

/// Sums over `valid` lanes (rolls of weight `w`): pips lost, rolls hitting one, rolls
/// hitting two.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn weigh(pips: __m256i, chequers: __m256i, valid: __m256i, w: i32) -> (i32, i32, i32) {
    let p = _mm256_and_si256(pips, valid);
    let s = _mm_add_epi32(_mm256_castsi256_si128(p), _mm256_extracti128_si256::<1>(p));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    let lanes =
        |x: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_and_si256(x, valid))).count_ones() as i32;
    let one = lanes(_mm256_cmpgt_epi32(chequers, _mm256_setzero_si256()));
    let two = lanes(_mm256_cmpgt_epi32(chequers, _mm256_set1_epi32(1)));
    (_mm_cvtsi128_si32(s) * w, one * w, two * w)
}

//! The PIPLOSS / P1 / P2 shot count with AVX-512, one roll per vector lane, for the
//! common case of no checker of ours on the bar. Same rules and integer results as the
//! scalar `inputs::features` code (tested equal on random positions):
//!
//! * a way of playing a roll hits from our slot x when a blot lies its distance d
//!   ahead (`blots << d`), x holds a hitter, and the intermediate landing points are
//!   open (all of them for a double, one of the two for a non-double);
//! * per roll, pips lost are the most advanced hit (k − d + 1 for the highest hitter
//!   k of a way); a direct shot counts one checker (a second one if the other die
//!   hits from another point or from a point with spares; a double's direct shot
//!   from two points counts two); a combined shot counts at least one, plus one if it
//!   passes over a blot on the way.

/// The three counts of a shot count kernel (pips lost, rolls hitting one, rolls hitting
/// two) in one integer, so that they come back from the kernel in a register. Returned
/// as a tuple they went through memory as three 4-byte stores that the caller reloaded
/// 8 bytes at a time: a store-forwarding stall on every call (1 % of self-play).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct PackedCounts(u64);

impl PackedCounts {
    /// Packs the counts: any pips lost, and rolls hitting one or two in 0..=36 (the
    /// most there are).
    #[inline(always)]
    pub fn new((pips, one, two): (i32, i32, i32)) -> PackedCounts {
        debug_assert!((0..=36).contains(&one) && (0..=36).contains(&two));
        PackedCounts(u64::from(pips as u32) | u64::from(one as u16) << 32 | u64::from(two as u16) << 48)
    }

    /// The counts as given to [`PackedCounts::new`].
    #[inline(always)]
    pub fn get(self) -> (i32, i32, i32) {
        (
            self.0 as u32 as i32,
            i32::from((self.0 >> 32) as u16),
            i32::from((self.0 >> 48) as u16),
        )
    }
}

/// Bit masks (our numbering, bit x = our slot x, unless said otherwise) describing one
/// side's shots.
#[derive(Clone, Copy, Debug)]
pub struct ShotMasks {
    /// Our checkers that may hit (not a home point holding exactly two).
    pub hitters: u32,
    /// The opponent's blots we would consider hitting.
    pub targets: u32,
    /// Every opposing blot (for blots hit on the way).
    pub blots: u32,
    /// The opponent's made points (two or more checkers).
    pub blocks: u32,
    /// Our points holding two or more checkers (spares for a second hit).
    pub spares: u32,
    /// Our checkers on the bar.
    pub bar: u32,
    /// In the opponent's numbering (bit i: its slot i): its made points, which stop our
    /// checker from the bar entering with the other die.
    pub entry_blocks: u32,
    /// In the opponent's numbering: its blots (a checker entering hits them on the way).
    pub entry_blots: u32,
}

/// Whether this CPU runs the kernel (AVX-512F and AVX-512CD, and POPCNT, which every
/// such CPU has).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Per-lane helpers over broadcast masks.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Lanes {
    hitters: __m512i,
    targets: __m512i,
    one: __m512i,
}

#[cfg(target_arch = "x86_64")]
impl Lanes {
    /// Hitters of a way covering `d` (per lane), before intermediate points are checked.
    #[inline(always)]
    unsafe fn reach(self, d: __m512i) -> __m512i {
        let all25 = _mm512_set1_epi32(0x1ff_ffff);
        _mm512_and_si512(
            _mm512_and_si512(self.hitters, _mm512_sllv_epi32(self.targets, d)),
            all25,
        )
    }

    /// Highest set bit of each lane's mask; 0 for an empty mask.
    #[inline(always)]
    unsafe fn top(self, x: __m512i) -> __m512i {
        _mm512_sub_epi32(
            _mm512_set1_epi32(31),
            _mm512_lzcnt_epi32(_mm512_or_si512(x, self.one)),
        )
    }

    /// Bit k (per lane) of x, as 0 or 1.
    #[inline(always)]
    unsafe fn bit(self, x: __m512i, k: __m512i) -> __m512i {
        _mm512_and_si512(_mm512_srlv_epi32(x, k), self.one)
    }

    /// Lanes (of `lanes`) whose mask includes the bar (slot 24).
    #[inline(always)]
    unsafe fn hits_from_bar(self, x: __m512i, lanes: __mmask16) -> __mmask16 {
        _mm512_mask_test_epi32_mask(lanes, x, _mm512_set1_epi32(1 << 24))
    }

    /// Pips lost to a hit from k with a way covering d (k − d + 1); 0 where not `live`.
    #[inline(always)]
    unsafe fn lost(self, live: __mmask16, k: __m512i, d: __m512i) -> __m512i {
        _mm512_maskz_add_epi32(live, _mm512_sub_epi32(k, d), self.one)
    }
}

/// (pips lost summed over the 36 rolls, rolls hitting at least one checker, rolls
/// hitting two), packed.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512CD and POPCNT ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,popcnt")]
pub unsafe fn count(m: ShotMasks) -> PackedCounts {
    let v = Lanes {
        hitters: _mm512_set1_epi32(m.hitters as i32),
        targets: _mm512_set1_epi32(m.targets as i32),
        one: _mm512_set1_epi32(1),
    };
    let blocks = _mm512_set1_epi32(m.blocks as i32);
    let zero = _mm512_setzero_si512();
    let one = v.one;

    // Non-doubles, lane r = the r-th of 21, 31, 32, 41, .., 65 (lane 15 unused): the
    // smaller die, the larger, both (one of the two landing points must be open).
    let small = _mm512_setr_epi32(1, 1, 2, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4, 5, 32);
    let big = _mm512_setr_epi32(2, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 32);
    let sum = _mm512_add_epi32(small, big);
    let both = _mm512_and_si512(_mm512_sllv_epi32(blocks, big), _mm512_sllv_epi32(blocks, small));
    let h = [
        v.reach(small),
        v.reach(big),
        _mm512_andnot_si512(both, v.reach(sum)),
    ];
    // Doubles, lane r = 11, 22, .., 66 (lanes 6.. unused): one to four steps of d; the
    // intermediate landing points d, 2d, .. behind the hitter must all be open.
    let d = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    let mut g = [v.reach(d), zero, zero, zero];
    let mut dist = [d; 4];
    let mut blocked = zero;
    for s in 1..4 {
        blocked = _mm512_or_si512(_mm512_sllv_epi32(blocked, d), _mm512_sllv_epi32(blocks, d));
        dist[s] = _mm512_add_epi32(dist[s - 1], d);
        g[s] = _mm512_andnot_si512(blocked, v.reach(dist[s]));
    }
    let (nd, dd): (__mmask16, __mmask16) = (0x7fff, 0x3f);
    // The bar is our slot 24.
    let bar = _mm512_set1_epi32(24);

    let (pn, cn, pd, cd) = match m.bar {
        0 => {
            let spares = _mm512_set1_epi32(m.spares as i32);
            let blots = _mm512_set1_epi32(m.blots as i32);
            // Non-doubles.
            let l = h.map(|x| _mm512_mask_test_epi32_mask(nd, x, x));
            let k = h.map(|x| v.top(x));
            let pn = _mm512_max_epi32(
                _mm512_max_epi32(v.lost(l[0], k[0], small), v.lost(l[1], k[1], big)),
                v.lost(l[2], k[2], sum),
            );
            // The larger die hits with a new checker when it comes from another point
            // than the smaller die's hitter, or from a point with spares.
            let other_point = _mm512_mask_cmpneq_epi32_mask(l[0], k[0], k[1]) | !l[0];
            let spare = _mm512_test_epi32_mask(v.bit(spares, k[1]), one);
            let mut cn = _mm512_maskz_mov_epi32(l[0], one);
            cn = _mm512_mask_add_epi32(cn, l[1] & (other_point | spare), cn, one);
            let on_way = _mm512_or_si512(_mm512_sllv_epi32(blots, small), _mm512_sllv_epi32(blots, big));
            cn = _mm512_mask_add_epi32(cn, l[2], _mm512_max_epi32(cn, one), v.bit(on_way, k[2]));
            // Doubles: a direct shot counts one, two when another point also hits; a
            // longer one at least one, plus one for a blot on a landing point.
            let l0 = _mm512_mask_test_epi32_mask(dd, g[0], g[0]);
            let k0 = v.top(g[0]);
            let mut pd = v.lost(l0, k0, d);
            let others = _mm512_andnot_si512(_mm512_sllv_epi32(one, k0), g[0]);
            let mut cd = _mm512_maskz_mov_epi32(l0, one);
            cd = _mm512_mask_add_epi32(cd, _mm512_mask_test_epi32_mask(l0, others, others), cd, one);
            let mut passed = zero;
            for s in 1..4 {
                passed = _mm512_or_si512(_mm512_sllv_epi32(passed, d), _mm512_sllv_epi32(blots, d));
                let l = _mm512_mask_test_epi32_mask(dd, g[s], g[s]);
                let k = v.top(g[s]);
                pd = _mm512_max_epi32(pd, v.lost(l, k, dist[s]));
                cd = _mm512_mask_add_epi32(cd, l, _mm512_max_epi32(cd, one), v.bit(passed, k));
            }
            (pn, cn, pd, cd)
        }
        1 => {
            // One checker on the bar: a shot from the bar always counts; a direct shot
            // from the board needs the checker entered with the other die first (once
            // per roll, the highest such hitter); a combined shot only from the bar.
            let entry_blocks = _mm512_set1_epi32(m.entry_blocks as i32);
            let entry_blots = _mm512_set1_epi32(m.entry_blots as i32);
            let board_only = _mm512_set1_epi32(0x00ff_fffe);
            let enters = |die: __m512i, lanes: __mmask16| {
                // The other die's entry point (its slot die − 1) is not made.
                !_mm512_test_epi32_mask(v.bit(entry_blocks, _mm512_sub_epi32(die, one)), one) & lanes
            };
            let off_board = |x: __m512i, lanes: __mmask16| {
                let rest = _mm512_and_si512(x, board_only);
                (_mm512_mask_test_epi32_mask(lanes, rest, rest), v.top(rest))
            };
            // Non-doubles.
            let (b0, b1, b2) = (
                v.hits_from_bar(h[0], nd),
                v.hits_from_bar(h[1], nd),
                v.hits_from_bar(h[2], nd),
            );
            let ((r0, k0), (r1, k1)) = (off_board(h[0], nd), off_board(h[1], nd));
            let e0 = r0 & enters(big, nd);
            let e1 = r1 & !e0 & enters(small, nd);
            let mut pn = _mm512_max_epi32(v.lost(b0, bar, small), v.lost(b1, bar, big));
            pn = _mm512_max_epi32(pn, _mm512_max_epi32(v.lost(e0, k0, small), v.lost(e1, k1, big)));
            pn = _mm512_max_epi32(pn, v.lost(b2, bar, sum));
            let mut cn = zero;
            for hit in [b0, e0, b1, e1] {
                cn = _mm512_mask_add_epi32(cn, hit, cn, one);
            }
            let on_way = _mm512_or_si512(
                v.bit(entry_blots, _mm512_add_epi32(small, one)),
                v.bit(entry_blots, _mm512_add_epi32(big, one)),
            );
            cn = _mm512_mask_add_epi32(cn, b2, _mm512_max_epi32(cn, one), on_way);
            // Doubles: the direct shot's "other die" is the two-step way (gnubg's rule).
            let b0 = v.hits_from_bar(g[0], dd);
            let (r0, k0) = off_board(g[0], dd);
            let e0 = r0 & enters(_mm512_add_epi32(d, d), dd);
            let mut pd = _mm512_max_epi32(v.lost(b0, bar, d), v.lost(e0, k0, d));
            let mut cd = _mm512_add_epi32(_mm512_maskz_mov_epi32(b0, one), _mm512_maskz_mov_epi32(e0, one));
            let mut passed = zero;
            for s in 1..4 {
                passed = _mm512_or_si512(passed, v.bit(entry_blots, _mm512_add_epi32(dist[s - 1], one)));
                let b = v.hits_from_bar(g[s], dd);
                pd = _mm512_max_epi32(pd, v.lost(b, bar, dist[s]));
                cd = _mm512_mask_add_epi32(cd, b, _mm512_max_epi32(cd, one), passed);
            }
            (pn, cn, pd, cd)
        }
        _ => {
            // Two or more on the bar: only direct shots from the bar.
            let (b0, b1) = (v.hits_from_bar(h[0], nd), v.hits_from_bar(h[1], nd));
            let pn = _mm512_max_epi32(v.lost(b0, bar, small), v.lost(b1, bar, big));
            let cn = _mm512_add_epi32(_mm512_maskz_mov_epi32(b0, one), _mm512_maskz_mov_epi32(b1, one));
            let b = v.hits_from_bar(g[0], dd);
            (pn, cn, v.lost(b, bar, d), _mm512_maskz_mov_epi32(b, one))
        }
    };
    let (t1, o1, w1) = weigh(pn, cn, nd, 2);
    let (t2, o2, w2) = weigh(pd, cd, dd, 1);
    PackedCounts::new((t1 + t2, o1 + o2, w1 + w2))
}

/// Sums over `lanes` (rolls of weight `w`): pips lost, rolls hitting one, rolls
/// hitting two.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn weigh(pips: __m512i, chequers: __m512i, lanes: __mmask16, w: i32) -> (i32, i32, i32) {
    let total = _mm512_mask_reduce_add_epi32(lanes, pips) * w;
    let one = _mm512_mask_cmpgt_epi32_mask(lanes, chequers, _mm512_setzero_si512()).count_ones() as i32;
    let two = _mm512_mask_cmpgt_epi32_mask(lanes, chequers, _mm512_set1_epi32(1)).count_ones() as i32;
    (total, one * w, two * w)
}

#[cfg(test)]
mod tests {
    use super::PackedCounts;

    #[test]
    fn packed_counts_come_back_unchanged() {
        for pips in [0, 1, 431, 12 * 36 * 24, i32::MAX, -1, i32::MIN] {
            for one in 0..=36 {
                for two in [0, 1, one / 2, one] {
                    assert_eq!(PackedCounts::new((pips, one, two)).get(), (pips, one, two));
                }
            }
        }
    }
}

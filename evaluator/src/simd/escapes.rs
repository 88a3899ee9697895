//! Mobility and containment of one side with AVX-512: the escape counts of 29 checker
//! positions looked up at once (one per lane, a byte gather from the escape table),
//! then weighted and summed or minimised. Same integers as the scalar loops of
//! `inputs::features` (tested equal on random positions).
//!
//! Lanes: register A holds slots 6..=21 against the opponent's made points; register
//! B holds slots 22..=24 against them (lanes 0..3) and slots 15..=24 against our own
//! made points (lanes 3..13).

/// What the kernel returns (see `inputs::features` for the definitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EscapeSums {
    /// Σ (i − 5)·nᵢ·escapes(opponent's points, i) over our slots i ≥ 6.
    pub mobility: i32,
    /// The fewest escapes past our points from slots 15.. up to (not including) the
    /// `near_end` given, 36 if none.
    pub worst_near: i32,
    /// The fewest escapes past our points from slots 15..=23.
    pub worst_all: i32,
}

/// Whether this CPU runs the kernel (AVX-512F and AVX-512BW).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Bytes the escape table must have: 4096 entries and three more, so that a 4-byte
/// gather at the last entry stays inside it.
pub const TABLE_BYTES: usize = 4096 + 3;

/// The kernel. Equal to the portable loops for the escape table of `inputs` (entries
/// at most 36) and a side of at most 15 checkers per slot (16-bit products).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512BW ([`available`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe fn escape_sums(
    table: &[u8; TABLE_BYTES],
    me: &[u8; 25],
    my_made: u32,
    opp_made: u32,
    near_end: i32,
) -> EscapeSums {
    use std::arch::x86_64::*;
    // The slot n of each lane, and which made points it runs against (B lanes 0..3:
    // the opponent's; lanes 13.. are unused and masked out below).
    let n_a = _mm512_setr_epi32(6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21);
    let n_b = _mm512_setr_epi32(22, 23, 24, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 24, 24, 24);
    let made_a = _mm512_set1_epi32(opp_made as i32);
    let made_b = _mm512_mask_blend_epi32(0b111, _mm512_set1_epi32(my_made as i32), made_a);
    // The table index of a checker n slots from the end (n ≥ 6 here): the min(n, 12)
    // points in front of it, (made >> (24 − n)) & (2^min(n, 12) − 1).
    let index = |made: __m512i, n: __m512i| {
        let width = _mm512_min_epi32(n, _mm512_set1_epi32(12));
        let low = _mm512_sub_epi32(
            _mm512_sllv_epi32(_mm512_set1_epi32(1), width),
            _mm512_set1_epi32(1),
        );
        _mm512_and_si512(
            _mm512_srlv_epi32(made, _mm512_sub_epi32(_mm512_set1_epi32(24), n)),
            low,
        )
    };
    let byte = _mm512_set1_epi32(0xff);
    // SAFETY: indices are below 4096 and each lane reads 4 bytes of the padded table.
    let gather =
        |idx: __m512i| _mm512_and_si512(_mm512_i32gather_epi32::<1>(idx, table.as_ptr().cast()), byte);
    let (esc_a, esc_b) = (gather(index(made_a, n_a)), gather(index(made_b, n_b)));

    // Our checker counts on slots 6..=21 and 22..=24 (zero beyond): loads inside the
    // side, the second (slots 9..25) shifted down.
    // SAFETY: both 16-byte loads lie inside `me`.
    let count_a = _mm512_cvtepu8_epi32(_mm_loadu_si128(me.as_ptr().add(6).cast()));
    let count_b = _mm512_cvtepu8_epi32(_mm_srli_si128::<13>(_mm_loadu_si128(me.as_ptr().add(9).cast())));
    // (n − 5)·count·escapes < 2^15 in every lane: 16-bit products are exact.
    let five = _mm512_set1_epi32(5);
    let weigh = |n: __m512i, count: __m512i, esc: __m512i| {
        _mm512_mullo_epi16(_mm512_mullo_epi16(_mm512_sub_epi32(n, five), count), esc)
    };
    let mobility = _mm512_reduce_add_epi32(weigh(n_a, count_a, esc_a))
        + _mm512_mask_reduce_add_epi32(0b111, weigh(n_b, count_b, esc_b));

    // Containment: lanes 3.. of B are slots 15..=24.
    let near = (near_end.clamp(15, 25) - 15) as u32;
    let near_lanes = (((1u32 << near) - 1) << 3) as __mmask16;
    let worst = |lanes: __mmask16| _mm512_mask_reduce_min_epi32(lanes, esc_b).min(36);
    EscapeSums {
        mobility,
        worst_near: worst(near_lanes),
        worst_all: worst(0x0ff8),
    }
}

/// Whether this CPU runs [`escape_sums_avx2`].
pub fn available_avx2() -> bool {
    super::cpu::has_avx2()
}

/// [`escape_sums`] with 256-bit vectors: the same lanes as the AVX-512 kernel, A split
/// into slots 6..=13 and 14..=21, B into its lanes 0..8 and 8..16. The same integers.
///
/// # Safety
/// The CPU must support AVX2 ([`available_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn escape_sums_avx2(
    table: &[u8; TABLE_BYTES],
    me: &[u8; 25],
    my_made: u32,
    opp_made: u32,
    near_end: i32,
) -> EscapeSums {
    use std::arch::x86_64::*;
    let n_a = [
        _mm256_setr_epi32(6, 7, 8, 9, 10, 11, 12, 13),
        _mm256_setr_epi32(14, 15, 16, 17, 18, 19, 20, 21),
    ];
    let n_b = [
        _mm256_setr_epi32(22, 23, 24, 15, 16, 17, 18, 19),
        _mm256_setr_epi32(20, 21, 22, 23, 24, 24, 24, 24),
    ];
    let made_a = _mm256_set1_epi32(opp_made as i32);
    let mine = _mm256_set1_epi32(my_made as i32);
    let made_b = [_mm256_blend_epi32::<0b111>(mine, made_a), mine];
    let (one, twelve, twenty_four) = (_mm256_set1_epi32(1), _mm256_set1_epi32(12), _mm256_set1_epi32(24));
    let index = |made: __m256i, n: __m256i| {
        let low = _mm256_sub_epi32(_mm256_sllv_epi32(one, _mm256_min_epi32(n, twelve)), one);
        _mm256_and_si256(_mm256_srlv_epi32(made, _mm256_sub_epi32(twenty_four, n)), low)
    };
    let byte = _mm256_set1_epi32(0xff);
    // SAFETY: indices are below 4096 and each lane reads 4 bytes of the padded table.
    let gather =
        |idx: __m256i| _mm256_and_si256(_mm256_i32gather_epi32::<1>(table.as_ptr().cast(), idx), byte);
    let esc_a = [gather(index(made_a, n_a[0])), gather(index(made_a, n_a[1]))];
    let esc_b = [gather(index(made_b[0], n_b[0])), gather(index(made_b[1], n_b[1]))];

    // Our counts on slots 6..=13, 14..=21 and 22..=24 (zero beyond), 8-byte loads
    // inside the side.
    // SAFETY: the loads read bytes 6..14, 14..22 and 17..25 of `me`.
    let load = |at: usize| _mm_loadl_epi64(me.as_ptr().add(at).cast());
    let count_a = [_mm256_cvtepu8_epi32(load(6)), _mm256_cvtepu8_epi32(load(14))];
    let count_b = _mm256_cvtepu8_epi32(_mm_srli_si128::<5>(load(17)));
    // (n − 5)·count·escapes < 2^15 in every lane: 16-bit products are exact.
    let five = _mm256_set1_epi32(5);
    let weigh = |n: __m256i, count: __m256i, esc: __m256i| {
        _mm256_mullo_epi16(_mm256_mullo_epi16(_mm256_sub_epi32(n, five), count), esc)
    };
    let sum = _mm256_add_epi32(
        _mm256_add_epi32(
            weigh(n_a[0], count_a[0], esc_a[0]),
            weigh(n_a[1], count_a[1], esc_a[1]),
        ),
        weigh(n_b[0], count_b, esc_b[0]),
    );
    let s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    let mobility = _mm_cvtsi128_si32(s);

    // Containment: lanes 3.. of B (slots 15..=24); lanes outside a range read 36.
    let lane = [
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        _mm256_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15),
    ];
    let worst = |end: i32| {
        let (lo, hi) = (_mm256_set1_epi32(2), _mm256_set1_epi32(end));
        let thirty_six = _mm256_set1_epi32(36);
        let pick = |k: usize| {
            let inside = _mm256_and_si256(_mm256_cmpgt_epi32(lane[k], lo), _mm256_cmpgt_epi32(hi, lane[k]));
            _mm256_blendv_epi8(thirty_six, esc_b[k], inside)
        };
        let m = _mm256_min_epi32(pick(0), pick(1));
        let m = _mm_min_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
        let m = _mm_min_epi32(m, _mm_shuffle_epi32::<0b01_00_11_10>(m));
        let m = _mm_min_epi32(m, _mm_shuffle_epi32::<0b10_11_00_01>(m));
        _mm_cvtsi128_si32(m)
    };
    EscapeSums {
        mobility,
        worst_near: worst(near_end.clamp(15, 25) - 12),
        worst_all: worst(12),
    }
}

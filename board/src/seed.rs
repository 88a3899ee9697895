//! bgkit's one seed rule: every random stream in bgkit (dice, permutations, noise,
//! initial weights, pairings) is seeded from the user's seed, a stream tag and an
//! index, through [`derive()`], so that results are a pure function of the seed and of
//! the item's index, never of the thread count or the order of work.
//!
//! [`derive()`] turns (seed, stream, index) into a 64-bit seed with the SplitMix64
//! finaliser [`mix64`] (Steele, Lea and Flood, "Fast splittable pseudorandom number
//! generators", OOPSLA 2014; constants of Vigna's `splitmix64.c`):
//!
//! ```text
//! G = 0x9E3779B97F4A7C15
//! a = mix64(seed + G)
//! b = mix64(a ^ rotl(stream · G, 17))
//! derive(seed, stream, index) = mix64(b ^ mix64(index + rotl(G, 32)))      (all mod 2^64)
//! derive32 = low 32 bits of (d ^ (d >> 32)), d = derive(…)
//! ```
//!
//! [`SplitMix`] is the SplitMix64 generator, for random choices that are not dice.
//! Each crate keeps its own stream tags. This is seed rule [`RULE`] 2; trainer files
//! written before it record no rule (rule 1, see the trainer's `seed` module).

/// The number of this seed rule, recorded in resumable files whose meaning depends on it.
pub const RULE: u32 = 2;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective 64-bit mix.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed for item `index` of `stream`, from the user's `seed`.
pub fn derive(seed: u64, stream: u64, index: u64) -> u64 {
    let a = mix64(seed.wrapping_add(GOLDEN));
    let b = mix64(a ^ stream.wrapping_mul(GOLDEN).rotate_left(17));
    mix64(b ^ mix64(index.wrapping_add(GOLDEN.rotate_left(32))))
}

/// A 32-bit seed (for [`crate::DiceStream`], [`crate::Mt19937`]) for item `index` of
/// `stream`: [`derive()`] folded to 32 bits.
pub fn derive32(seed: u64, stream: u64, index: u64) -> u32 {
    let d = derive(seed, stream, index);
    (d ^ (d >> 32)) as u32
}

/// SplitMix64: a small, fast generator with a 64-bit state.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix64(self.0)
    }

    /// A uniform integer in `0..n` (`n > 0`), without bias (rejection).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal deviate (Box–Muller).
    pub fn gaussian(&mut self) -> f64 {
        let u1 = 1.0 - self.unit(); // (0, 1]
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_sequences() {
        // Vigna's splitmix64.c seeded with 0 and with 1234567.
        let mut g = SplitMix::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
        let mut g = SplitMix::new(1_234_567);
        assert_eq!(g.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(g.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(g.next_u64(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn derive_matches_the_documented_formula() {
        // Computed by a separate Python transcription of the formula in the module
        // documentation (arbitrary-precision integers masked to 64 bits).
        let cases: [((u64, u64, u64), u64, u32); 6] = [
            ((0, 0, 0), 0x77cd_902b_a378_a5df, 0xd4b5_35f4),
            ((1, 1, 0), 0x8f83_5929_fe69_8fc6, 0x71ea_d6ef),
            ((1, 2, 0), 0x6501_8596_453b_0d69, 0x203a_88ff),
            ((1, 3, 0), 0x896b_6ac8_225f_29ce, 0xab34_4306),
            ((7, 5, 3), 0x99db_6a75_b18e_7146, 0x2855_1b33),
            (
                (u64::MAX, 0x5472_6e79_4469_6365, 12_345),
                0xcfd9_85ca_ee9b_addc,
                0x2142_2816,
            ),
        ];
        for ((s, t, i), d, d32) in cases {
            assert_eq!(derive(s, t, i), d, "derive({s}, {t}, {i})");
            assert_eq!(derive32(s, t, i), d32, "derive32({s}, {t}, {i})");
        }
    }
}

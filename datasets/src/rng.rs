//! Seeds and small generators.
//!
//! Every random choice in this crate is a pure function of the user's seed and the
//! index of the thing it belongs to (trial, game, turn), never of the thread or the
//! order in which work is done: that is what makes results independent of the thread
//! count and lets a job be split into shards.
//!
//! [`derive`] turns (seed, stream, index) into a 64-bit seed with the SplitMix64
//! finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
//! OOPSLA 2014); [`SplitMix`] is that generator, used where dice are not involved
//! (permutations for stratified dice, noise and random moves in self-play).

/// Stream of a trial's dice after the stratified turns.
pub const STREAM_TRIAL_DICE: u64 = 1;
/// Stream of the permutations that stratify the first turns of rollouts.
pub const STREAM_STRATA: u64 = 2;
/// Stream of a self-play game's dice.
pub const STREAM_GAME_DICE: u64 = 3;
/// Stream of a self-play game's noise and random moves.
pub const STREAM_GAME_CHOICES: u64 = 4;
/// Stream of per-position rollout seeds.
pub const STREAM_POSITION: u64 = 5;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective 64-bit mix.
pub fn mix64(mut z: u64) -> u64 {
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

/// A 32-bit seed (for [`board::DiceStream`]) for item `index` of `stream`.
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

/// FNV-1a, 64 bits (offset basis 14695981039346656037, prime 1099511628211): the
/// checksum of binary datasets and the digest of the files a run depends on.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Feeds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
    }

    /// The digest so far.
    pub fn finish(&self) -> u64 {
        self.0
    }

    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> u64 {
        let mut h = Fnv1a::default();
        h.update(bytes);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_sequence() {
        // Reference outputs of splitmix64 seeded with 1234567 (Vigna's splitmix64.c).
        let mut g = SplitMix::new(1_234_567);
        assert_eq!(g.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(g.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(g.next_u64(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference test suite (Fowler, Noll, Vo).
        assert_eq!(Fnv1a::of(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(Fnv1a::of(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv1a::of(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn below_is_uniform_and_gaussian_has_unit_variance() {
        let mut g = SplitMix::new(9);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[g.below(7) as usize] += 1;
        }
        // Binomial(70000, 1/7): sd ≈ 92.6; allow 5 sd.
        assert!(
            counts.iter().all(|&c| (9_537..=10_463).contains(&c)),
            "{counts:?}"
        );
        let n = 100_000;
        let xs: Vec<f64> = (0..n).map(|_| g.gaussian()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        // Standard errors: mean 1/sqrt(n) ≈ 0.0032, variance sqrt(2/n) ≈ 0.0045.
        assert!(mean.abs() < 0.016, "{mean}");
        assert!((var - 1.0).abs() < 0.023, "{var}");
    }
}

//! Seeds and small generators.
//!
//! Every random choice in this crate is a pure function of the user's seed and the
//! index of the thing it belongs to (trial, game, turn), never of the thread or the
//! order in which work is done: that is what makes results independent of the thread
//! count and lets a job be split into shards.
//!
//! [`derive()`] turns (seed, stream, index) into a 64-bit seed and [`SplitMix`] is the
//! SplitMix64 generator, used where dice are not involved (permutations for stratified
//! dice, noise and random moves in self-play): both are bgkit's one seed rule,
//! [`board::seed`], re-exported here; this module keeps the crate's stream tags.

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

pub use board::seed::{derive, derive32, mix64, SplitMix};

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

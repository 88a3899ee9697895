//! Seeds: every random stream of a run is derived from the run's seed, a purpose tag
//! and an index (a game number, say), so that any game can be replayed on its own and
//! results do not depend on how games are spread over threads.

/// Tag of the dice of self-play training games.
pub const TRAIN_DICE: u64 = 1;
/// Tag of the dice of duel games (pairs).
pub const DUEL_DICE: u64 = 2;
/// Tag of the initial weights.
pub const INIT: u64 = 3;
/// Tag of players' own choices (the random player).
pub const CHOICES: u64 = 4;

/// splitmix64's finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A 64-bit seed for stream `index` of purpose `tag` in a run seeded with `seed`.
pub fn derive(seed: u64, tag: u64, index: u64) -> u64 {
    mix(mix(mix(seed) ^ tag) ^ index)
}

/// [`derive`] folded to the 32 bits an MT19937 seed takes.
pub fn derive32(seed: u64, tag: u64, index: u64) -> u32 {
    let z = derive(seed, tag, index);
    (z ^ (z >> 32)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_by_every_argument() {
        let a = derive(1, TRAIN_DICE, 0);
        assert_eq!(a, derive(1, TRAIN_DICE, 0));
        assert_ne!(a, derive(2, TRAIN_DICE, 0));
        assert_ne!(a, derive(1, DUEL_DICE, 0));
        assert_ne!(a, derive(1, TRAIN_DICE, 1));
        // splitmix64 of 0 is a published value.
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
    }
}

//! Seeds: every random stream of a run is derived from the run's seed, a purpose tag
//! and an index (a game number, say), so that any game can be replayed on its own and
//! results do not depend on how games are spread over threads.
//!
//! The derivation is bgkit's one seed rule, [`board::seed`] (rule [`RULE`] = 2); this
//! module keeps the trainer's tags. Files written before it (no `seed_rule` field)
//! used rule 1, [`rule1::derive`]: TD and supervised checkpoints of rule 1 cannot be
//! resumed ([`check_rule`]); tournaments of rule 1 keep playing and replaying their
//! games with it ([`Rule`]).

use std::path::Path;

pub use board::seed::{derive, derive32, RULE};

use crate::error::TrainerError;

/// Tag of the dice of self-play training games.
pub const TRAIN_DICE: u64 = 1;
/// Tag of the dice of duel games (pairs).
pub const DUEL_DICE: u64 = 2;
/// Tag of the initial weights.
pub const INIT: u64 = 3;
/// Tag of players' own choices (the random player).
pub const CHOICES: u64 = 4;

/// The seed rule of a file that records none (written before rules were recorded);
/// for `#[serde(default = "...")]`.
pub fn unrecorded() -> u32 {
    1
}

/// Checks that a checkpoint at `path` was written with the current seed rule: one of
/// an older rule cannot be resumed (its remaining games or epochs would draw other
/// dice and orders than a run that was never interrupted).
pub fn check_rule(path: &Path, rule: u32) -> Result<(), TrainerError> {
    if rule == RULE {
        return Ok(());
    }
    Err(TrainerError::SeedRule {
        path: path.display().to_string(),
        rule,
    })
}

/// A seed rule a tournament may use: the current one, or rule 1 for tournaments begun
/// before rules were recorded (their games are played and replayed with the rule they
/// began with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Rule 1: the trainer's derivation before bgkit had one seed rule.
    One,
    /// Rule 2: [`board::seed::derive`].
    Two,
}

impl Rule {
    /// The rule numbered `n`, or `None` if this build does not know it.
    pub fn of(n: u32) -> Option<Rule> {
        match n {
            1 => Some(Rule::One),
            2 => Some(Rule::Two),
            _ => None,
        }
    }

    /// A 64-bit seed for stream `index` of purpose `tag` in a run seeded with `seed`.
    pub fn derive(self, seed: u64, tag: u64, index: u64) -> u64 {
        match self {
            Rule::One => rule1::derive(seed, tag, index),
            Rule::Two => derive(seed, tag, index),
        }
    }

    /// [`Rule::derive`] folded to the 32 bits an MT19937 seed takes.
    pub fn derive32(self, seed: u64, tag: u64, index: u64) -> u32 {
        let z = self.derive(seed, tag, index);
        (z ^ (z >> 32)) as u32
    }
}

/// Seed rule 1, kept only to continue and replay tournaments begun with it.
pub mod rule1 {
    /// splitmix64's increment and finaliser.
    fn mix(z: u64) -> u64 {
        board::seed::mix64(z.wrapping_add(0x9E37_79B9_7F4A_7C15))
    }

    /// Rule 1's seed for stream `index` of purpose `tag`:
    /// `mix(mix(mix(seed) ^ tag) ^ index)`, `mix(z) = mix64(z + 0x9E3779B97F4A7C15)`.
    pub fn derive(seed: u64, tag: u64, index: u64) -> u64 {
        mix(mix(mix(seed) ^ tag) ^ index)
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn mix_of_zero_is_splitmix_first_output() {
            // splitmix64 seeded with 0: its first output is a published value.
            assert_eq!(super::mix(0), 0xE220_A839_7B1D_CDAF);
            // The formula above, computed independently (Python).
            assert_eq!(super::derive(1, 1, 0), 0x5775_264a_9a7e_1b09);
            assert_eq!(super::derive(3, 0x5472_6e79_4469_6365, 5), 0xe540_f423_a08a_c18a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_by_every_argument() {
        let a = derive(1, TRAIN_DICE, 0);
        assert_eq!(a, derive(1, TRAIN_DICE, 0));
        assert_ne!(a, derive(1, DUEL_DICE, 0));
        assert_ne!(a, derive(2, TRAIN_DICE, 0));
        assert_ne!(a, derive(1, TRAIN_DICE, 1));
        // The documented formula, computed independently (see board::seed's tests).
        assert_eq!(derive(1, TRAIN_DICE, 0), 0x8f83_5929_fe69_8fc6);
        assert_eq!(Rule::Two.derive32(1, INIT, 0), 0xab34_4306);
    }
}

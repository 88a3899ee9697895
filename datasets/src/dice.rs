//! Dice for rollouts: stratified ("quasi-random") first turns, then a seeded stream.
//!
//! A rollout of `n` trials numbers its trials `0..n`. The 36 ordered outcomes of two
//! dice are numbered `0..36` (first die `o / 6 + 1`, second `o % 6 + 1`). Turn `k` of
//! trial `t` is *stratified* while `36^k < n`: write `t` in base 36, let `d = (t / 36^k)
//! % 36` be its k-th digit and `p = t % 36^k` the number formed by the lower digits
//! (the outcomes of the turns before); the outcome is `π(k, p)[d]`, where `π(k, p)` is a
//! permutation of `0..36` drawn from the seed for that turn and prefix.
//!
//! Consequences (each checked by the tests): in every block of 36 consecutive trials
//! starting at a multiple of 36, the first turn shows each of the 36 outcomes exactly
//! once; in every block of 1296, each ordered pair of first two outcomes appears
//! exactly once; and so on for as many turns as the trial count allows. Because the
//! permutation of turn `k` depends on the outcomes before it, later turns are not
//! locked to earlier ones.
//!
//! After the stratified turns, trial `t` draws from its own [`DiceStream`] (gnubg's
//! MT19937 and die mapping) seeded from (seed, t). The dice of trial `t` depend on
//! nothing but the seed and `t`: the same trial sees the same dice for every position
//! rolled out with that seed (common random numbers), on any number of threads.

use board::{Dice, DiceStream};

use crate::rng::{derive, derive32, SplitMix, STREAM_STRATA, STREAM_TRIAL_DICE};

/// The most turns that are ever stratified (36^6 > 2^31 trials).
pub const MAX_STRATIFIED_TURNS: u32 = 6;

/// The roll for ordered outcome `o` (0..36).
pub fn outcome_dice(o: u8) -> Dice {
    Dice::new(o / 6 + 1, o % 6 + 1).expect("outcome below 36")
}

/// The index (0..21) of a roll in [`Dice::all`]'s order.
pub fn roll_index(d: Dice) -> usize {
    let (h, l) = (usize::from(d.high()), usize::from(d.low()));
    h * (h - 1) / 2 + (l - 1)
}

/// The dice plan of one rollout: its seed and how many turns are stratified.
#[derive(Clone, Debug)]
pub struct QuasiRandomDice {
    seed: u64,
    stratified: u32,
}

impl QuasiRandomDice {
    /// The plan for `trials` trials with this seed.
    pub fn new(seed: u64, trials: u32) -> QuasiRandomDice {
        let mut stratified = 0;
        while stratified < MAX_STRATIFIED_TURNS && 36u64.pow(stratified) < u64::from(trials) {
            stratified += 1;
        }
        QuasiRandomDice { seed, stratified }
    }

    /// How many turns at the start of each trial are stratified.
    pub fn stratified_turns(&self) -> u32 {
        self.stratified
    }

    /// The ordered outcome (0..36) of stratified turn `turn` (< [`Self::stratified_turns`])
    /// of trial `trial`.
    pub fn outcome(&self, trial: u32, turn: u32) -> u8 {
        let block = 36u64.pow(turn);
        let t = u64::from(trial);
        let prefix = t % block;
        let digit = ((t / block) % 36) as usize;
        let mut g = SplitMix::new(derive(self.seed, STREAM_STRATA, (u64::from(turn) << 48) | prefix));
        // Fisher–Yates, stopping once position `digit` is final.
        let mut perm: [u8; 36] = std::array::from_fn(|i| i as u8);
        for i in (1..36).rev() {
            let j = g.below(i as u64 + 1) as usize;
            perm.swap(i, j);
            if i == digit {
                return perm[i];
            }
        }
        perm[0]
    }

    /// The dice of one trial, turn by turn.
    pub fn trial(&self, trial: u32) -> TrialDice<'_> {
        TrialDice {
            plan: self,
            trial,
            turn: 0,
            stream: None,
        }
    }
}

/// The rolls of one trial, in order.
#[derive(Debug)]
pub struct TrialDice<'a> {
    plan: &'a QuasiRandomDice,
    trial: u32,
    turn: u32,
    stream: Option<DiceStream>,
}

impl TrialDice<'_> {
    /// The next roll.
    pub fn next_roll(&mut self) -> Dice {
        let turn = self.turn;
        self.turn += 1;
        if turn < self.plan.stratified {
            return outcome_dice(self.plan.outcome(self.trial, turn));
        }
        let (seed, trial) = (self.plan.seed, self.trial);
        self.stream
            .get_or_insert_with(|| DiceStream::new(derive32(seed, STREAM_TRIAL_DICE, u64::from(trial))))
            .roll()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_turn_is_exactly_uniform_in_every_block_of_36() {
        let plan = QuasiRandomDice::new(77, 36 * 50);
        assert_eq!(plan.stratified_turns(), 3);
        for block in 0..50u32 {
            let mut seen = [0u32; 36];
            for t in block * 36..block * 36 + 36 {
                seen[usize::from(plan.outcome(t, 0))] += 1;
            }
            assert!(seen.iter().all(|&c| c == 1), "block {block}: {seen:?}");
        }
    }

    #[test]
    fn first_two_turns_are_exactly_uniform_in_every_block_of_1296() {
        let plan = QuasiRandomDice::new(5, 1296 * 3);
        for block in 0..3u32 {
            let mut seen = vec![0u32; 1296];
            for t in block * 1296..(block + 1) * 1296 {
                let (a, b) = (plan.outcome(t, 0), plan.outcome(t, 1));
                seen[usize::from(a) * 36 + usize::from(b)] += 1;
            }
            assert!(seen.iter().all(|&c| c == 1), "block {block}");
        }
    }

    #[test]
    fn rolls_are_uniform_weighted_and_depend_only_on_seed_and_trial() {
        let plan = QuasiRandomDice::new(11, 1296);
        assert_eq!(plan.stratified_turns(), 2);
        // 1296 trials: each roll appears weight × 36 times on the first turn.
        let mut by_roll = [0u32; 21];
        for t in 0..1296 {
            by_roll[roll_index(plan.trial(t).next_roll())] += 1;
        }
        for d in Dice::all() {
            assert_eq!(by_roll[roll_index(d)], d.weight() * 36, "{d}");
        }
        let a: Vec<Dice> = {
            let mut td = plan.trial(700);
            (0..40).map(|_| td.next_roll()).collect()
        };
        let same = QuasiRandomDice::new(11, 1296);
        let mut td = same.trial(700);
        assert!(a.iter().all(|&d| d == td.next_roll()));
        let seed12 = QuasiRandomDice::new(12, 1296);
        let mut other = seed12.trial(700);
        assert!(a.iter().any(|&d| d != other.next_roll()));
        // The stratified second turn is not a fixed function of the first.
        let seconds: std::collections::HashSet<u8> = (0..1296)
            .filter(|&t| plan.outcome(t, 0) == 0)
            .map(|t| plan.outcome(t, 1))
            .collect();
        assert_eq!(seconds.len(), 36);
    }

    #[test]
    fn roll_index_follows_dice_all() {
        for (i, d) in Dice::all().enumerate() {
            assert_eq!(roll_index(d), i);
        }
        let mut counts = [0u32; 21];
        for o in 0..36 {
            counts[roll_index(outcome_dice(o))] += 1;
        }
        assert!(Dice::all().all(|d| counts[roll_index(d)] == d.weight()));
    }
}

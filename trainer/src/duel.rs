//! Duplicate-dice duels: cubeless money games between two players, each dice stream
//! played twice with the players' places exchanged, so that luck largely cancels.
//!
//! Pair `p` uses the dice stream seeded from (seed, p). In its first game player A
//! moves first (with the stream's opening roll), in the second player B does, with
//! the same rolls turn by turn: each player meets, in the same order, the rolls the
//! other had. A pair's score is A's points in the two games divided by 2; ppg is the
//! mean of the pair scores and its standard error their sample standard deviation
//! over √pairs. Results do not depend on the number of threads.

use std::sync::atomic::{AtomicU64, Ordering};

use board::records::{GameRecord, MatchRecord};
use board::{DiceStream, Variant};
use rayon::prelude::*;
use serde::Serialize;

use crate::error::TrainerError;
use crate::game::{play_game, GameOutcome};
use crate::player::{PlayContext, Player};
use crate::seed;

/// Settings of a duel.
#[derive(Clone, Debug)]
pub struct DuelOptions {
    /// Games (even: two per dice stream).
    pub games: u64,
    /// Seed of the dice streams.
    pub seed: u64,
    /// Keep a record of every game (for SGF or .mat files).
    pub record: bool,
}

/// Results of a duel, from player A's side.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DuelResult {
    /// Player A's name.
    pub a: String,
    /// Player B's name.
    pub b: String,
    /// Games played.
    pub games: u64,
    /// Dice streams (pairs of games).
    pub pairs: u64,
    /// The seed.
    pub seed: u64,
    /// A's points per game (positive: A is ahead).
    pub ppg: f64,
    /// Standard error of `ppg`, over pairs; NaN (`null` in JSON) for a single pair,
    /// whose spread is unknown.
    pub se: f64,
    /// Fraction of games A won.
    pub win_rate: f64,
    /// Fraction of games A won with a gammon or backgammon.
    pub gammon_rate: f64,
    /// Fraction of games A won with a backgammon.
    pub backgammon_rate: f64,
    /// Fraction of games A lost with a gammon or backgammon.
    pub gammon_loss_rate: f64,
    /// Fraction of games A lost with a backgammon.
    pub backgammon_loss_rate: f64,
    /// Average turns per game.
    pub turns_per_game: f64,
}

/// Accumulates game results.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: u64,
    wins: u64,
    gammons: u64,
    backgammons: u64,
    gammon_losses: u64,
    backgammon_losses: u64,
    turns: u64,
    pair_sum: f64,
    pair_sq: f64,
    pairs: u64,
}

impl Tally {
    fn game(&mut self, o: &GameOutcome) -> i64 {
        self.games += 1;
        self.turns += u64::from(o.turns);
        let a_won = o.winner == 0;
        if a_won {
            self.wins += 1;
            self.gammons += u64::from(o.points >= 2);
            self.backgammons += u64::from(o.points == 3);
            i64::from(o.points)
        } else {
            self.gammon_losses += u64::from(o.points >= 2);
            self.backgammon_losses += u64::from(o.points == 3);
            -i64::from(o.points)
        }
    }
}

/// Summarises pair results (A's points in each of the two games).
fn summarise(a: &str, b: &str, seed: u64, outcomes: &[(GameOutcome, GameOutcome)]) -> DuelResult {
    let mut t = Tally::default();
    for (g1, g2) in outcomes {
        let s = (t.game(g1) + t.game(g2)) as f64 / 2.0;
        t.pair_sum += s;
        t.pair_sq += s * s;
        t.pairs += 1;
    }
    let n = t.pairs as f64;
    let games = t.games as f64;
    let mean = if t.pairs > 0 { t.pair_sum / n } else { 0.0 };
    let se = if t.pairs > 1 {
        let var = (t.pair_sq - n * mean * mean).max(0.0) / (n - 1.0);
        (var / n).sqrt()
    } else {
        f64::NAN
    };
    let rate = |k: u64| if t.games > 0 { k as f64 / games } else { 0.0 };
    DuelResult {
        a: a.into(),
        b: b.into(),
        games: t.games,
        pairs: t.pairs,
        seed,
        ppg: mean,
        se,
        win_rate: rate(t.wins),
        gammon_rate: rate(t.gammons),
        backgammon_rate: rate(t.backgammons),
        gammon_loss_rate: rate(t.gammon_losses),
        backgammon_loss_rate: rate(t.backgammon_losses),
        turns_per_game: rate(t.turns),
    }
}

/// Plays pair `p`: two games on the same dice, A first and then B first. Player
/// indices in the outcomes are A = 0, B = 1.
pub fn play_pair(
    a: &dyn Player,
    b: &dyn Player,
    seed: u64,
    p: u64,
    records: Option<&mut [GameRecord; 2]>,
    settings: &MatchRecord,
) -> Result<(GameOutcome, GameOutcome), TrainerError> {
    let dice_seed = seed::derive32(seed, seed::DUEL_DICE, p);
    let mut out = [None, None];
    let mut recs = records;
    for (g, first) in [0usize, 1].into_iter().enumerate() {
        let choice = |who: u64| seed::derive32(seed, seed::CHOICES, p * 4 + 2 * g as u64 + who);
        let mut ctx = [PlayContext::new(choice(0)), PlayContext::new(choice(1))];
        let mut dice = DiceStream::new(dice_seed);
        let mut play = recs.as_ref().map(|_| settings.next_game());
        out[g] = Some(play_game([a, b], first, &mut dice, &mut ctx, play.as_mut())?);
        if let (Some(r), Some(play)) = (recs.as_deref_mut(), play) {
            r[g] = play.finish();
        }
    }
    Ok((out[0].expect("played"), out[1].expect("played")))
}

/// A money session record for two players without the cube (game records of a duel).
pub fn session(a: &dyn Player, b: &dyn Player) -> MatchRecord {
    let mut m = MatchRecord::new(&a.name(), &b.name(), 0, Variant::Backgammon);
    m.rules.cube = false;
    m
}

/// A pair's outcomes and, if asked for, its records.
type PairResult = ((GameOutcome, GameOutcome), Option<[GameRecord; 2]>);

/// Plays a duel on the current rayon thread pool; `progress` is called with the games
/// finished so far. Returns the results and, if asked, the records of every game
/// (pair by pair, A's first game first).
pub fn duel(
    a: &dyn Player,
    b: &dyn Player,
    opts: &DuelOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(DuelResult, Option<MatchRecord>), TrainerError> {
    if opts.games == 0 || !opts.games.is_multiple_of(2) {
        return Err(TrainerError::Invalid(format!(
            "a duplicate-dice duel needs an even, positive number of games, got {}",
            opts.games
        )));
    }
    let pairs = opts.games / 2;
    let settings = session(a, b);
    let done = AtomicU64::new(0);
    let results: Vec<PairResult> = (0..pairs)
        .into_par_iter()
        .map(|p| {
            let mut recs = opts
                .record
                .then(|| [GameRecord::new([0, 0], false), GameRecord::new([0, 0], false)]);
            let r = play_pair(a, b, opts.seed, p, recs.as_mut(), &settings)?;
            progress(done.fetch_add(2, Ordering::Relaxed) + 2);
            Ok((r, recs))
        })
        .collect::<Result<_, TrainerError>>()?;
    let outcomes: Vec<_> = results.iter().map(|(o, _)| *o).collect();
    let summary = summarise(&a.name(), &b.name(), opts.seed, &outcomes);
    let record = opts.record.then(|| {
        let mut m = settings;
        for (_, recs) in results {
            for r in recs.expect("recorded") {
                m.push_next(r);
            }
        }
        m
    });
    Ok((summary, record))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(winner: usize, points: u32) -> GameOutcome {
        GameOutcome {
            winner,
            points,
            turns: 50,
        }
    }

    #[test]
    fn statistics_over_pairs() {
        // Pairs: A +1 and -2 (-0.5); A +3 and +1 (+2); A -1 and -1 (-1).
        let pairs = [
            (outcome(0, 1), outcome(1, 2)),
            (outcome(0, 3), outcome(0, 1)),
            (outcome(1, 1), outcome(1, 1)),
        ];
        let r = summarise("a", "b", 0, &pairs);
        assert_eq!(r.games, 6);
        assert_eq!(r.pairs, 3);
        assert!((r.ppg - 0.5 / 3.0).abs() < 1e-12);
        // Sample sd of (-0.5, 2, -1): mean 1/6, sum of squares of deviations = 5.1666..
        let var: f64 = [-0.5f64, 2.0, -1.0]
            .iter()
            .map(|x| (x - 1.0 / 6.0).powi(2))
            .sum::<f64>()
            / 2.0;
        assert!((r.se - (var / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(r.win_rate, 0.5);
        assert!((r.gammon_rate - 1.0 / 6.0).abs() < 1e-12);
        assert!((r.backgammon_rate - 1.0 / 6.0).abs() < 1e-12);
        assert!((r.gammon_loss_rate - 1.0 / 6.0).abs() < 1e-12);
        assert_eq!(r.backgammon_loss_rate, 0.0);
    }

    #[test]
    fn one_pair_has_no_standard_error() {
        let r = summarise("a", "b", 0, &[(outcome(0, 3), outcome(0, 3))]);
        assert_eq!(r.ppg, 3.0);
        assert!(r.se.is_nan(), "{}", r.se);
        let json = serde_json::to_value(&r).unwrap();
        assert!(json["se"].is_null(), "{json}");
        // Two pairs have one.
        let r = summarise(
            "a",
            "b",
            0,
            &[(outcome(0, 3), outcome(0, 3)), (outcome(0, 1), outcome(0, 1))],
        );
        assert!((r.se - 1.0).abs() < 1e-12, "{}", r.se);
    }
}

//! Building the schedule: the rounds of each cycle (from [`super::pairing`] or Swiss
//! pairing) turned into pairings of games with their ids and first movers, and a new
//! tournament with its schedule, checked.

use crate::error::TrainerError;
use crate::tourney::check;
use crate::tourney::swiss;
use crate::tourney::tournament::{
    Cycle, Game, Kind, Pairing, Participant, Round, Settings, Tournament, FORMAT, VERSION,
};
// The pairing schemes, at the paths they have always had here.
pub use crate::tourney::pairing::{cycle_plan, gauntlet, round_robin, RoundPlan};

/// The games of a pairing whose first game gets id `first_id`: players alternate
/// moving first, so games `2k` and `2k + 1` are one dice stream seen from both sides.
pub fn games(first_id: u64, count: u32) -> Vec<Game> {
    (0..u64::from(count))
        .map(|g| Game {
            id: first_id + g,
            first: (g % 2) as u8,
            running: None,
            result: None,
        })
        .collect()
}

/// The number of games in the schedule so far (the id of the next one).
pub fn next_id(t: &Tournament) -> u64 {
    t.schedule
        .iter()
        .flat_map(|c| &c.rounds)
        .flat_map(|r| &r.pairings)
        .map(|p| p.games.len() as u64)
        .sum()
}

/// Appends a round to cycle `cycle` (created if it is the next one).
pub fn push_round(t: &mut Tournament, cycle: usize, plan: &RoundPlan) {
    let mut id = next_id(t);
    let g = t.settings.games_per_pairing;
    let pairings = plan
        .pairs
        .iter()
        .map(|&players| {
            let p = Pairing {
                players,
                games: games(id, g),
            };
            id += u64::from(g);
            p
        })
        .collect();
    while t.schedule.len() <= cycle {
        t.schedule.push(Cycle::default());
    }
    t.schedule[cycle].rounds.push(Round {
        byes: plan.byes.clone(),
        pairings,
    });
}

/// The most games a new tournament may schedule: its file holds each game (about 40
/// bytes before it is played), and every command holds the file in memory. Files made
/// before the limit still load.
pub const MAX_GAMES: u128 = 10_000_000;

/// Refuses a schedule of more than [`MAX_GAMES`] games before building it: the pairings
/// of a cycle (as [`cycle_plan`] makes them; Swiss: ⌊p/2⌋ a round) × the games of each
/// × the cycles.
fn check_size(s: &Settings, p: usize) -> Result<(), TrainerError> {
    let pairings = match s.kind {
        Kind::Swiss(rounds) => rounds as usize * (p / 2),
        kind => cycle_plan(kind, p, 0).iter().map(|r| r.pairs.len()).sum(),
    } as u128;
    let games = pairings * u128::from(s.games_per_pairing) * u128::from(s.cycles);
    if games > MAX_GAMES {
        return Err(TrainerError::Invalid(format!(
            "{games} games ({pairings} pairings a cycle × {} games × {} cycles): a new tournament holds at most {MAX_GAMES}",
            s.games_per_pairing, s.cycles
        )));
    }
    Ok(())
}

/// A new tournament: checks the settings and its size, builds the whole schedule
/// (Swiss: its first round).
pub fn new_tournament(
    settings: Settings,
    participants: Vec<Participant>,
) -> Result<Tournament, TrainerError> {
    let mut t = Tournament {
        format: FORMAT.into(),
        version: VERSION,
        seed_rule: crate::seed::RULE,
        settings,
        participants,
        schedule: Vec::new(),
    };
    check::check_settings(&t).map_err(TrainerError::Invalid)?;
    let p = t.participants.len();
    check_size(&t.settings, p)?;
    match t.settings.kind {
        Kind::Swiss(_) => {
            if let Some((cycle, plan)) = swiss::next_round(&t) {
                push_round(&mut t, cycle, &plan);
            }
        }
        kind => {
            for c in 0..t.settings.cycles as usize {
                for plan in cycle_plan(kind, p, c) {
                    push_round(&mut t, c, &plan);
                }
            }
        }
    }
    check::check(&t).map_err(TrainerError::Invalid)?;
    Ok(t)
}

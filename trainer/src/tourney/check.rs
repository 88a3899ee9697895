//! Consistency checks of a tournament read from its file: everything workers and
//! standings rely on, so that a damaged or hand-edited file is refused with the place
//! of the fault rather than played wrongly.

use std::collections::HashSet;

use crate::tourney::pairing::cycle_plan;
use crate::tourney::tournament::{Kind, Tournament};

/// Checks the settings and participants.
pub fn check_settings(t: &Tournament) -> Result<(), String> {
    let p = t.participants.len();
    if p < 2 {
        return Err(format!("a tournament needs at least 2 participants, got {p}"));
    }
    let s = &t.settings;
    if s.games_per_pairing == 0 || s.games_per_pairing % 2 == 1 {
        return Err(format!(
            "games per pairing must be even and positive (each dice stream is played twice), got {}",
            s.games_per_pairing
        ));
    }
    if s.cycles == 0 {
        return Err("cycles must be at least 1".into());
    }
    match s.kind {
        Kind::Gauntlet(n) if n == 0 || n >= p => {
            return Err(format!(
                "gauntlet:{n} needs more than {n} participants (there are {p})"
            ))
        }
        Kind::Swiss(0) => return Err("a Swiss tournament needs at least one round per cycle".into()),
        _ => {}
    }
    let mut names = HashSet::new();
    for (i, part) in t.participants.iter().enumerate() {
        let who = format!("participant {} ({})", i + 1, part.name);
        if part.name.trim().is_empty() {
            return Err(format!("participant {} has no name", i + 1));
        }
        if !names.insert(part.name.as_str()) {
            return Err(format!("{who}: two participants have this name"));
        }
        if part.specs.is_empty() || part.specs.iter().any(|s| s.is_empty()) {
            return Err(format!("{who}: empty player description"));
        }
        if part.results_from > part.version() {
            return Err(format!(
                "{who}: results count from version {} but it has only {} versions",
                part.results_from,
                part.specs.len()
            ));
        }
    }
    Ok(())
}

/// Checks everything: settings, the schedule against the pairing scheme, ids, first
/// movers and each game's state.
pub fn check(t: &Tournament) -> Result<(), String> {
    check_settings(t)?;
    if crate::seed::Rule::of(t.seed_rule).is_none() {
        return Err(format!(
            "seed rule {} is unknown to this trainer (it plays rules 1 and {}): the file comes from a newer build",
            t.seed_rule,
            crate::seed::RULE
        ));
    }
    let p = t.participants.len();
    let s = &t.settings;
    match s.kind {
        Kind::Swiss(per_cycle) => {
            if t.schedule.len() > s.cycles as usize {
                return Err(format!(
                    "{} cycles in the schedule, the settings say {}",
                    t.schedule.len(),
                    s.cycles
                ));
            }
            for (c, cycle) in t.schedule.iter().enumerate() {
                let last = c + 1 == t.schedule.len();
                let n = cycle.rounds.len();
                if n > per_cycle as usize || (!last && n != per_cycle as usize) || n == 0 {
                    return Err(format!("cycle {}: {n} Swiss rounds, expected {per_cycle}", c + 1));
                }
                for (r, round) in cycle.rounds.iter().enumerate() {
                    let mut seen = vec![0; p];
                    for &b in &round.byes {
                        if b >= p {
                            return Err(format!(
                                "cycle {} round {}: bye for participant {}, there are {p}",
                                c + 1,
                                r + 1,
                                b + 1
                            ));
                        }
                        seen[b] += 1;
                    }
                    for pairing in &round.pairings {
                        for &x in &pairing.players {
                            if x >= p {
                                return Err(format!(
                                    "cycle {} round {}: participant {} does not exist (there are {p})",
                                    c + 1,
                                    r + 1,
                                    x + 1
                                ));
                            }
                            seen[x] += 1;
                        }
                    }
                    if round.byes.len() != p % 2 || seen.iter().any(|&n| n != 1) {
                        return Err(format!(
                            "cycle {} round {}: each participant must play or sit out exactly once",
                            c + 1,
                            r + 1
                        ));
                    }
                }
            }
        }
        kind => {
            if t.schedule.len() != s.cycles as usize {
                return Err(format!(
                    "{} cycles in the schedule, the settings say {}",
                    t.schedule.len(),
                    s.cycles
                ));
            }
            for (c, cycle) in t.schedule.iter().enumerate() {
                let plan = cycle_plan(kind, p, c);
                let got: Vec<(Vec<[usize; 2]>, &Vec<usize>)> = cycle
                    .rounds
                    .iter()
                    .map(|r| (r.pairings.iter().map(|x| x.players).collect(), &r.byes))
                    .collect();
                let want: Vec<(Vec<[usize; 2]>, &Vec<usize>)> =
                    plan.iter().map(|r| (r.pairs.clone(), &r.byes)).collect();
                if got != want {
                    let r = got
                        .iter()
                        .zip(&want)
                        .position(|(a, b)| a != b)
                        .unwrap_or(got.len().min(want.len()));
                    return Err(format!(
                        "cycle {}: the pairings{} are not those of a {kind} of {p} participants",
                        c + 1,
                        if r < got.len().min(want.len()) {
                            format!(" of round {}", r + 1)
                        } else {
                            String::new()
                        }
                    ));
                }
            }
        }
    }
    for (next_id, (slot, pairing, game)) in (0u64..).zip(t.games()) {
        let at = || {
            format!(
                "cycle {} round {} pairing {} game {}",
                slot.cycle + 1,
                slot.round + 1,
                slot.pairing + 1,
                slot.game + 1
            )
        };
        if slot.game == 0 && pairing.games.len() != s.games_per_pairing as usize {
            return Err(format!(
                "{}: the pairing has {} games, the settings say {}",
                at(),
                pairing.games.len(),
                s.games_per_pairing
            ));
        }
        if pairing.players[0] == pairing.players[1] {
            return Err(format!(
                "{}: participant {} paired with itself",
                at(),
                pairing.players[0] + 1
            ));
        }
        if game.id != next_id {
            return Err(format!(
                "{}: id {}, expected {next_id} (games are numbered in order)",
                at(),
                game.id
            ));
        }
        if usize::from(game.first) != slot.game % 2 {
            return Err(format!(
                "{}: first mover {}, expected {} (it alternates)",
                at(),
                game.first,
                slot.game % 2
            ));
        }
        let versions_ok = |v: &[usize; 2], from_results: bool| {
            v.iter().zip(pairing.players).all(|(&v, x)| {
                let part = &t.participants[x];
                v <= part.version() && (!from_results || v >= part.results_from)
            })
        };
        if let Some(r) = &game.result {
            if game.running.is_some() {
                return Err(format!("{}: both finished and in progress", at()));
            }
            if r.winner > 1 || !(1..=3).contains(&r.points) || r.turns == 0 {
                return Err(format!(
                    "{}: impossible result (winner {}, points {}, turns {})",
                    at(),
                    r.winner,
                    r.points,
                    r.turns
                ));
            }
            if !versions_ok(&r.versions, true) {
                return Err(format!(
                    "{}: result of player versions {:?} that do not count",
                    at(),
                    r.versions
                ));
            }
        }
        if let Some(c) = &game.running {
            if !versions_ok(&c.versions, false) {
                return Err(format!(
                    "{}: claimed for player versions {:?} that do not exist",
                    at(),
                    c.versions
                ));
            }
        }
    }
    Ok(())
}

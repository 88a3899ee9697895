//! Changing participants mid-tournament: `upgrade` gives a participant a new player
//! for the games not played yet; `replace` also erases its results, so all its games
//! are played again by the new player. The number of participants never changes.

use crate::error::TrainerError;
use crate::tourney::store::Store;
use crate::tourney::tournament::Tournament;

/// The index of the participant `who` names: its 1-based number or its name.
pub fn find(t: &Tournament, who: &str) -> Result<usize, TrainerError> {
    if let Some(i) = t.participants.iter().position(|p| p.name == who) {
        return Ok(i);
    }
    match who.parse::<usize>() {
        Ok(n) if (1..=t.participants.len()).contains(&n) => Ok(n - 1),
        _ => Err(TrainerError::Invalid(format!(
            "no participant '{who}' (give a number from 1 to {} or a name)",
            t.participants.len()
        ))),
    }
}

/// What a change did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The participant's index.
    pub participant: usize,
    /// Its new version.
    pub version: usize,
    /// Results erased (replace only).
    pub erased: u64,
    /// Games in progress whose results will be discarded (replace only).
    pub abandoned: u64,
}

/// Gives participant `who` the player `spec` for games not started yet.
pub fn upgrade(store: &Store, who: &str, spec: &str) -> Result<Change, TrainerError> {
    store.update(|t| {
        let i = find(t, who)?;
        let p = &mut t.participants[i];
        p.specs.push(spec.to_string());
        Ok((
            Change {
                participant: i,
                version: p.version(),
                erased: 0,
                abandoned: 0,
            },
            true,
        ))
    })
}

/// Gives participant `who` the player `spec` and erases its results (and claims), so
/// that all its games are played again.
pub fn replace(store: &Store, who: &str, spec: &str) -> Result<Change, TrainerError> {
    store.update(|t| {
        let i = find(t, who)?;
        let p = &mut t.participants[i];
        p.specs.push(spec.to_string());
        p.results_from = p.version();
        let version = p.version();
        let (mut erased, mut abandoned) = (0, 0);
        for cycle in &mut t.schedule {
            for round in &mut cycle.rounds {
                for pairing in round.pairings.iter_mut().filter(|x| x.players.contains(&i)) {
                    for g in &mut pairing.games {
                        erased += u64::from(g.result.take().is_some());
                        abandoned += u64::from(g.running.take().is_some());
                    }
                }
            }
        }
        Ok((
            Change {
                participant: i,
                version,
                erased,
                abandoned,
            },
            true,
        ))
    })
}

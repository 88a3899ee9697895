//! Tournaments between many players, kept in one file that any number of worker
//! processes share (after XBoard's tournament manager): the file holds the settings,
//! the participants, the schedule (cycles → rounds → pairings → games) and every
//! game's state, so a tournament survives interruptions and grows across machines
//! that share a filesystem.
//!
//! From the bottom up (each module uses only those above it in this list):
//!
//! * [`tournament`]: the data — settings, participants, schedule, games and their
//!   states.
//! * [`pairing`]: round-robin and gauntlet pairings, the plan of a round;
//!   [`swiss`]: Swiss pairing from the results so far.
//! * [`check`]: consistency checks of a tournament.
//! * [`schedule`]: the games of each round, a new tournament; [`file`](mod@file): the file
//!   format (reading checks, writing); [`identity`]: who a process is, whether it is
//!   gone; [`lockfile`]: the file's lock, safe on network filesystems; [`store`]:
//!   locked, atomic updates of the file.
//! * [`play`]: one game from its seeds; [`worker`]: claiming, playing and recording
//!   games, recovering games of dead workers.
//! * [`manage`]: upgrading or replacing participants.
//! * [`elo`] and [`standings`]: ratings; points, points per game with standard
//!   errors, cross table.
//! * [`export`]: game records (SGF, `.mat`) of the games played.
//!
//! Games are cubeless money games with duplicate dice: in each pairing, games `2k`
//! and `2k + 1` share a dice stream, each player moving first in one of them.

pub mod check;
pub mod elo;
pub mod export;
pub mod file;
pub mod identity;
pub mod lockfile;
pub mod manage;
pub mod pairing;
pub mod play;
pub mod schedule;
pub mod standings;
pub mod store;
pub mod swiss;
pub mod tournament;
pub mod worker;

pub use store::Store;
pub use tournament::{Kind, Participant, Settings, Sync, Tournament};

use crate::error::TrainerError;

pub use crate::player::participant_arg;

/// The name a player description gets when none is given (a lookahead suffix `@N`
/// is kept: `gnubg:@2` is `gnubg@2`).
pub fn default_name(spec: &str) -> String {
    let (base, plies) = match crate::player::plies_suffix(spec) {
        Some((b, n)) => (b, format!("@{n}")),
        None => (spec, String::new()),
    };
    let path = base.strip_prefix("gnubg:").unwrap_or(base);
    if path.is_empty() {
        return format!("gnubg{plies}");
    }
    std::path::Path::new(path)
        .file_stem()
        .map_or_else(|| spec.to_string(), |s| format!("{}{plies}", s.to_string_lossy()))
}

/// Participants from command-line arguments, with unique names (a repeated default
/// name gets `-2`, `-3`… appended).
pub fn participants(args: &[String]) -> Result<Vec<Participant>, TrainerError> {
    let mut out: Vec<Participant> = Vec::new();
    for arg in args {
        let (name, spec) = participant_arg(arg);
        if spec.is_empty() {
            return Err(TrainerError::Invalid(format!(
                "participant '{arg}': empty player description"
            )));
        }
        let name = match name {
            Some(n) => {
                if out.iter().any(|p| p.name == n) {
                    return Err(TrainerError::Invalid(format!("two participants are named '{n}'")));
                }
                n
            }
            None => {
                let base = default_name(&spec);
                let mut name = base.clone();
                let mut k = 2;
                while out.iter().any(|p| p.name == name)
                    || args
                        .iter()
                        .any(|a| participant_arg(a).0.as_deref() == Some(&name))
                {
                    name = format!("{base}-{k}");
                    k += 1;
                }
                name
            }
        };
        out.push(Participant {
            name,
            specs: vec![spec],
            results_from: 0,
        });
    }
    Ok(out)
}

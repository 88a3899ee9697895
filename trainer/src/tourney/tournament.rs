//! A tournament's data, as its file holds it: settings, participants and the schedule
//! (cycles → rounds → pairings → games), each game with its state (pending, claimed by
//! a worker, or its result), and the counts derived from them. Every other tourney
//! module builds on these types; reading, checking and writing the file are in
//! [`super::file`] and [`super::check`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::TrainerError;
use crate::seed::Rule;

/// The `format` field of every tournament file.
pub const FORMAT: &str = "bgkit-tourney";
/// The version of the file layout this library reads and writes.
pub const VERSION: u32 = 1;

/// How participants are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Everyone plays everyone once per cycle (`round-robin`).
    RoundRobin,
    /// The first N participants each play every other participant once per cycle
    /// (`gauntlet:N`; `gauntlet` is `gauntlet:1`).
    Gauntlet(usize),
    /// Rounds paired by score, each generated when the previous one is finished
    /// (`swiss:R`, R rounds per cycle).
    Swiss(u32),
}

impl Kind {
    /// Reads `round-robin`, `gauntlet[:N]` or `swiss[:R]` for `participants`
    /// participants; `swiss` alone means ⌈log₂ participants⌉ rounds per cycle.
    pub fn parse(text: &str, participants: usize) -> Result<Kind, TrainerError> {
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (text, None),
        };
        let number = |a: &str| -> Result<u64, TrainerError> {
            a.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                TrainerError::Invalid(format!(
                    "tournament type '{text}': '{a}' is not a positive number"
                ))
            })
        };
        let kind = match (name, arg) {
            ("round-robin", None) => Kind::RoundRobin,
            ("gauntlet", None) => Kind::Gauntlet(1),
            ("gauntlet", Some(a)) => Kind::Gauntlet(number(a)? as usize),
            ("swiss", None) => Kind::Swiss((participants.max(2) as f64).log2().ceil() as u32),
            ("swiss", Some(a)) => Kind::Swiss(u32::try_from(number(a)?).unwrap_or(u32::MAX)),
            _ => {
                return Err(TrainerError::Invalid(format!(
                    "tournament type '{text}': expected round-robin, gauntlet[:N] or swiss[:R]"
                )))
            }
        };
        if let Kind::Gauntlet(n) = kind {
            if n >= participants {
                return Err(TrainerError::Invalid(format!(
                    "gauntlet:{n} needs more than {n} participants (there are {participants})"
                )));
            }
        }
        Ok(kind)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::RoundRobin => write!(f, "round-robin"),
            Kind::Gauntlet(n) => write!(f, "gauntlet:{n}"),
            Kind::Swiss(r) => write!(f, "swiss:{r}"),
        }
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        let text = String::deserialize(d)?;
        // In a file the numbers are explicit; the participant count is checked later.
        if text == "swiss" {
            return Err(serde::de::Error::custom("'swiss' without its number of rounds"));
        }
        Kind::parse(&text, usize::MAX).map_err(serde::de::Error::custom)
    }
}

/// When a worker may start games of the next round or cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sync {
    /// Any pending game, in schedule order.
    #[default]
    None,
    /// Only games of the first round that is not finished.
    Round,
    /// Only games of the first cycle that is not finished.
    Cycle,
}

impl FromStr for Sync {
    type Err = TrainerError;
    fn from_str(s: &str) -> Result<Sync, TrainerError> {
        match s {
            "none" => Ok(Sync::None),
            "round" => Ok(Sync::Round),
            "cycle" => Ok(Sync::Cycle),
            _ => Err(TrainerError::Invalid(format!(
                "sync '{s}': expected none, round or cycle"
            ))),
        }
    }
}

/// Settings fixed when the tournament is created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// How participants are paired.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// Games of each pairing (even: each dice stream is played twice).
    pub games_per_pairing: u32,
    /// How many times the pairing scheme is repeated (Swiss: R rounds each).
    pub cycles: u32,
    /// Seed of the dice, the players' own random choices and Swiss tie-breaks.
    pub seed: u64,
    /// Default for `run --sync`.
    pub sync: Sync,
    /// A game claimed by a worker on another host is replayed after this many
    /// seconds (on the same host a dead worker is recognised at once).
    pub stale_after_s: u64,
}

/// A participant: a name and the player descriptions it has had.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Participant {
    /// Name in standings and game records (unique in the tournament).
    pub name: String,
    /// Every player description it has had (see [`crate::player::from_spec`]); the
    /// last is current. A result's `versions` index this list.
    pub specs: Vec<String>,
    /// The first version whose results count: results of earlier versions were
    /// erased when the participant was replaced.
    pub results_from: usize,
}

impl Participant {
    /// The current player description.
    pub fn spec(&self) -> &str {
        self.specs.last().map_or("", String::as_str)
    }

    /// The current version (index into `specs`).
    pub fn version(&self) -> usize {
        self.specs.len().saturating_sub(1)
    }
}

/// A worker's mark on a game it is playing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Host name of the worker's machine.
    pub host: String,
    /// Process id.
    pub pid: u32,
    /// Start time of the process (Linux: clock ticks after boot, from /proc), so that
    /// a reused pid is not taken for the worker; 0 when unknown.
    pub start: u64,
    /// Worker thread within the process.
    pub thread: u32,
    /// When the game was claimed (seconds since the Unix epoch).
    pub since: u64,
    /// The participants' versions the worker plays (as in [`Outcome::versions`]).
    pub versions: [usize; 2],
}

/// How a game ended, from the pairing's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// 0 or 1: which of the pairing's `players` won.
    pub winner: u8,
    /// 1 single game, 2 gammon, 3 backgammon.
    pub points: u8,
    /// Turns played (dances included).
    pub turns: u32,
    /// The versions of the two players that played it.
    pub versions: [usize; 2],
}

/// One game of a pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// Position of the game in the whole schedule: 0, 1, 2, … Games `2k` and
    /// `2k + 1` share dice stream `k`.
    pub id: u64,
    /// 0 or 1: which of the pairing's players moves first (with the stream's
    /// opening roll); it alternates, so each player meets the other's rolls.
    pub first: u8,
    /// Set while a worker plays the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<Claim>,
    /// Set when the game is finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Outcome>,
}

/// Two participants and their games in one round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pairing {
    /// Participant indices; the first is White in game records.
    pub players: [usize; 2],
    /// The games, `games_per_pairing` of them.
    pub games: Vec<Game>,
}

/// A round: pairings that may be played at the same time.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Round {
    /// Participants who sit this round out (odd counts in round-robin and Swiss).
    #[serde(default)]
    pub byes: Vec<usize>,
    /// The pairings.
    pub pairings: Vec<Pairing>,
}

/// One repetition of the pairing scheme.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cycle {
    /// The rounds, in order.
    pub rounds: Vec<Round>,
}

/// A whole tournament, as kept in its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tournament {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The seed rule of the games' dice, the players' choices and Swiss tie-breaks
    /// (see [`crate::seed`]): [`crate::seed::RULE`] in new tournaments, 1 in files
    /// that record none (they keep playing and replaying their games with rule 1).
    #[serde(default = "crate::seed::unrecorded")]
    pub seed_rule: u32,
    /// Settings.
    pub settings: Settings,
    /// Participants (their number never changes).
    pub participants: Vec<Participant>,
    /// Cycles → rounds → pairings → games. Swiss rounds are added as the previous
    /// round finishes.
    pub schedule: Vec<Cycle>,
}

/// Where a game sits in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Cycle index.
    pub cycle: usize,
    /// Round index within the cycle.
    pub round: usize,
    /// Pairing index within the round.
    pub pairing: usize,
    /// Game index within the pairing.
    pub game: usize,
}

impl Tournament {
    /// The seed rule of this tournament's games (checked when the file is read).
    pub fn rule(&self) -> Rule {
        Rule::of(self.seed_rule).unwrap_or(Rule::Two)
    }

    /// Every game with its place and pairing, in schedule order.
    pub fn games(&self) -> impl Iterator<Item = (Slot, &Pairing, &Game)> {
        self.schedule.iter().enumerate().flat_map(|(c, cycle)| {
            cycle.rounds.iter().enumerate().flat_map(move |(r, round)| {
                round.pairings.iter().enumerate().flat_map(move |(p, pairing)| {
                    pairing.games.iter().enumerate().map(move |(g, game)| {
                        (
                            Slot {
                                cycle: c,
                                round: r,
                                pairing: p,
                                game: g,
                            },
                            pairing,
                            game,
                        )
                    })
                })
            })
        })
    }

    /// The game at `slot`, for changing it (`slot` must come from [`Tournament::games`]
    /// of this schedule; see [`Tournament::get_mut`] otherwise).
    pub fn game_mut(&mut self, slot: Slot) -> &mut Game {
        &mut self.schedule[slot.cycle].rounds[slot.round].pairings[slot.pairing].games[slot.game]
    }

    /// The game at `slot`, if the schedule has one there.
    pub fn get_mut(&mut self, slot: Slot) -> Option<&mut Game> {
        self.schedule
            .get_mut(slot.cycle)?
            .rounds
            .get_mut(slot.round)?
            .pairings
            .get_mut(slot.pairing)?
            .games
            .get_mut(slot.game)
    }

    /// Games of the whole tournament, including Swiss rounds not generated yet.
    pub fn games_total(&self) -> u64 {
        match self.settings.kind {
            Kind::Swiss(r) => {
                let pairings = (self.participants.len() / 2) as u64;
                u64::from(self.settings.cycles)
                    * u64::from(r)
                    * pairings
                    * u64::from(self.settings.games_per_pairing)
            }
            _ => self.games().count() as u64,
        }
    }

    /// Finished games.
    pub fn games_played(&self) -> u64 {
        self.games().filter(|(_, _, g)| g.result.is_some()).count() as u64
    }

    /// Whether every game of the tournament is finished.
    pub fn is_finished(&self) -> bool {
        self.games_played() == self.games_total()
    }
}

//! Game records of a tournament: every finished game is played again from its seeds
//! (the same dice, the same choices, the player version that played it), checked
//! against the result in the file, and written per pairing as a cubeless money
//! session: SGF (gnubg's dialect) and/or Jellyfish `.mat`, or all pairings in one SGF
//! collection, with `board::records`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use board::records::{self, Format, GamePlay, GameRecord, MatchRecord};
use board::Variant;
use fileio::Existing;
use rayon::prelude::*;

use crate::error::TrainerError;
use crate::player::{self, DataPaths, Player};
use crate::tourney::file;
use crate::tourney::play;
use crate::tourney::tournament::{Slot, Tournament};

/// Where to write records.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// One SGF file per pairing in this directory.
    pub sgf_dir: Option<PathBuf>,
    /// One `.mat` file per pairing in this directory.
    pub mat_dir: Option<PathBuf>,
    /// All pairings in one SGF collection.
    pub collection: Option<PathBuf>,
    /// What a file written does with a file at its name (`--force`).
    pub existing: Existing,
}

/// The games of one pairing as a money session.
#[derive(Clone, Debug)]
pub struct Session {
    /// Cycle, round and pairing (0-based).
    pub cycle: usize,
    /// Round within the cycle.
    pub round: usize,
    /// Pairing within the round.
    pub pairing: usize,
    /// The session (White = the pairing's first player), finished games only.
    pub record: MatchRecord,
}

impl Session {
    /// A file name for the session: `cCC-rRR-pPP-WHITE-vs-BLACK.EXT`.
    pub fn file_name(&self, ext: &str) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                        c
                    } else {
                        '_'
                    }
                })
                .collect()
        };
        format!(
            "c{:02}-r{:02}-p{:02}-{}-vs-{}.{ext}",
            self.cycle + 1,
            self.round + 1,
            self.pairing + 1,
            clean(&self.record.players[0]),
            clean(&self.record.players[1])
        )
    }
}

/// Replays every finished game of `t` (named `source` in records) and returns one
/// session per pairing with finished games; `progress` gets the games replayed.
pub fn sessions(
    t: &Tournament,
    source: &str,
    data: &DataPaths,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Session>, TrainerError> {
    // Every player version that played.
    let mut dbs = None;
    let mut players: HashMap<(usize, usize), Box<dyn Player>> = HashMap::new();
    for (_, pairing, game) in t.games() {
        let Some(r) = game.result else { continue };
        for (&i, v) in pairing.players.iter().zip(r.versions) {
            if let std::collections::hash_map::Entry::Vacant(e) = players.entry((i, v)) {
                let spec = &t.participants[i].specs[v];
                let p = player::from_spec(spec, data, &mut dbs)
                    .map_err(|err| TrainerError::Invalid(format!("participant {} ({spec}): {err}", i + 1)))?;
                e.insert(p);
            }
        }
    }
    let settings = |players: [usize; 2], slot: Slot| {
        let mut m = MatchRecord::new(
            &t.participants[players[0]].name,
            &t.participants[players[1]].name,
            0,
            Variant::Backgammon,
        );
        m.rules.cube = false;
        m.info.event = Some(format!("bgkit tournament {source}"));
        m.info.round = Some(format!(
            "cycle {} round {} pairing {}",
            slot.cycle + 1,
            slot.round + 1,
            slot.pairing + 1
        ));
        m
    };
    let done: Vec<_> = t.games().filter(|(_, _, g)| g.result.is_some()).collect();
    let count = AtomicU64::new(0);
    let replayed: Vec<GameRecord> = done
        .par_iter()
        .map(|(slot, pairing, game)| {
            let r = game.result.expect("filtered");
            let pair = [0, 1].map(|k| players[&(pairing.players[k], r.versions[k])].as_ref());
            let m = settings(pairing.players, *slot);
            let mut gp = GamePlay::new(&m, [0, 0], false);
            let o = play::play(pair, t.rule(), t.settings.seed, game, Some(&mut gp))?;
            let again = play::outcome(&o, r.versions);
            if again != r {
                return Err(TrainerError::Invalid(format!(
                    "game {} (cycle {} round {} pairing {} game {}): replayed it ends {}-point win for player {} \
                     in {} turns, the file says {}-point win for player {} in {} turns (were the players' files \
                     changed?)",
                    game.id,
                    slot.cycle + 1,
                    slot.round + 1,
                    slot.pairing + 1,
                    slot.game + 1,
                    again.points,
                    pairing.players[usize::from(again.winner)] + 1,
                    again.turns,
                    r.points,
                    pairing.players[usize::from(r.winner)] + 1,
                    r.turns
                )));
            }
            progress(count.fetch_add(1, Ordering::Relaxed) + 1);
            Ok(gp.finish())
        })
        .collect::<Result<_, TrainerError>>()?;
    let mut out: Vec<Session> = Vec::new();
    for ((slot, pairing, _), game) in done.iter().zip(replayed) {
        let same = out
            .last()
            .is_some_and(|s| (s.cycle, s.round, s.pairing) == (slot.cycle, slot.round, slot.pairing));
        if !same {
            out.push(Session {
                cycle: slot.cycle,
                round: slot.round,
                pairing: slot.pairing,
                record: settings(pairing.players, *slot),
            });
        }
        out.last_mut().expect("pushed").record.push_next(game);
    }
    Ok(out)
}

/// Writes the records `opts` asks for; returns the files written.
pub fn export(sessions: &[Session], opts: &ExportOptions) -> Result<Vec<PathBuf>, TrainerError> {
    let mut files = Vec::new();
    for (dir, format, ext) in [
        (&opts.sgf_dir, Format::Sgf, "sgf"),
        (&opts.mat_dir, Format::Mat, "mat"),
    ] {
        let Some(dir) = dir else { continue };
        std::fs::create_dir_all(dir).map_err(|e| file::io_error(dir, e))?;
        for s in sessions {
            let path = dir.join(s.file_name(ext));
            records::save_with(&path, &s.record, format, opts.existing)?;
            files.push(path);
        }
    }
    if let Some(path) = &opts.collection {
        let mut text = String::new();
        for s in sessions {
            text.push_str(
                &records::write_sgf(&s.record).map_err(|e| e.in_source(&path.display().to_string()))?,
            );
        }
        fileio::write_atomic_with(path, text.as_bytes(), opts.existing)
            .map_err(|e| file::io_error(path, e))?;
        files.push(path.clone());
    }
    Ok(files)
}

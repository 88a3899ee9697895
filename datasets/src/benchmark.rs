//! Move-error benchmark sets: positions with a roll and the rolled-out equity of
//! several candidate moves, against which a player's move choices are scored (the
//! "ER" of gnubg-nn's benchmarks).
//!
//! # bgkit's format (`.jsonl`), version 1
//!
//! JSON lines. The first line is the header, every further line one position:
//!
//! ```text
//! {"format":"bgkit-benchmark","version":1,"candidates":5,"select_plies":0,"dice_seed":1,"rollout":{...},"engine":{...},"input_rows":1000}
//! {"position_id":"4HPwATDgc/ABMA","dice":[3,1],"class":"contact","candidates":[{"move":"8/5 6/5","after_id":"4HPwATDgc/ABMA","equity":0.1624,"se":0.0031,"probs":[0.55,0.16,0.01,0.12,0.005]},...]}
//! ```
//!
//! * `position_id`: gnubg's Position ID, side on roll to move; `dice`: the roll, high
//!   die first; `class`: gnubg's class of the position (as in dataset files);
//! * `candidates`: best first by rolled-out equity. `after_id` is the position right
//!   after the move from the mover's side (as gnubg keys its move lists), `move` its
//!   notation, `equity` the mover's cubeless money equity after the move (gammons and
//!   backgammons included: `2w − 1 + wg − lg + wbg − lbg`), `se` its standard error
//!   over the rollout's trials, `probs` the mover's five probabilities.
//!
//! Readers ignore header fields they do not know; the header's `version` must be 1.
//!
//! # gnubg-nn's format (`.bm`), read only
//!
//! gnubg-nn's benchmark files (contact.bm, crashed.bm, race.bm, made by its rollout
//! program sagnubg) hold lines of several kinds; only move lines are read:
//!
//! ```text
//! m POSITION D0 D1 MOVE1 EQUITY MOVE2 LOSS2 MOVE3 LOSS3 ...
//! ```
//!
//! `POSITION` and each `MOVEi` are 20-letter gnubg-nn position keys (see
//! [`crate::format::gnubg_nn`]) of the position and of the positions after the
//! candidate moves; `EQUITY` is the best move's rolled-out money equity and `LOSSi` the
//! equity move i gives up against it. A move's key is matched in the mover's view or
//! in the swapped view, and the sign of a loss is ignored, so either convention reads.
//! Other lines (`o`, `r`, `s`, `#`, blank) are skipped.

use std::io::Write;
use std::path::Path;

use board::{Dice, MoveGen, Position};
use evaluator::eval::{move_shape, mover_equity, EvalError};
use evaluator::search::Lookahead;
use evaluator::Evaluator;
use fileio::Existing;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::class::dataset_class;
use crate::error::DatasetError;
use crate::format::gnubg_nn::parse_key;
use crate::play::equity_after;
use crate::rng::{derive, STREAM_GAME_DICE};
use crate::rollout::Roller;

/// The header's format tag.
pub const FORMAT: &str = "bgkit-benchmark";
/// The format version written and read.
pub const VERSION: u32 = 1;

/// Seed stream of the benchmark's rolls (distinct from the other streams' use of the
/// game-dice tag by the index space: the tag is mixed with this offset).
const DICE_OFFSET: u64 = 0xBE4C_0000_0000_0000;

/// One candidate move.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The position right after the move, mover still in `sides()[1]`.
    pub after: Position,
    /// The move's notation (empty when unknown).
    pub notation: String,
    /// The mover's rolled-out cubeless money equity after the move.
    pub equity: f64,
    /// Its standard error, when known.
    pub se: Option<f64>,
    /// The mover's five probabilities after the move, when known.
    pub probs: Option<[f32; 5]>,
}

/// One benchmark position.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The position, side to move in `sides()[1]`.
    pub position: Position,
    /// The roll.
    pub dice: Dice,
    /// Candidates, best first.
    pub candidates: Vec<Candidate>,
}

impl Entry {
    /// The best candidate's equity.
    pub fn best_equity(&self) -> f64 {
        self.candidates
            .iter()
            .map(|c| c.equity)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The equity a player gives up by playing the move that leads to `after` (the
    /// position after the move, mover's view): 0 for the best candidate, the loss of
    /// the listed candidate, or — for a move not listed — the loss of the worst listed
    /// candidate (as gnubg-nn scores it). The flag says whether the move was listed.
    pub fn loss_of(&self, after: &Position) -> (f64, bool) {
        let best = self.best_equity();
        let swapped = after.swapped();
        match self
            .candidates
            .iter()
            .find(|c| c.after == *after || c.after == swapped)
        {
            Some(c) => ((best - c.equity).max(0.0), true),
            None => {
                let worst = self
                    .candidates
                    .iter()
                    .map(|c| c.equity)
                    .fold(f64::INFINITY, f64::min);
                ((best - worst).max(0.0), false)
            }
        }
    }
}

/// Which file format a set came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetFormat {
    /// bgkit's JSON lines.
    Bgkit,
    /// gnubg-nn's `m` lines.
    GnubgNn,
}

/// A benchmark set read from a file.
#[derive(Clone, Debug)]
pub struct BenchmarkSet {
    /// Its format.
    pub format: SetFormat,
    /// The header (bgkit's format).
    pub header: Option<Value>,
    /// The positions.
    pub entries: Vec<Entry>,
    /// The line (1-based) of the file each entry was read from, for messages.
    pub lines: Vec<usize>,
}

#[derive(Serialize, Deserialize)]
struct CandidateJson {
    #[serde(rename = "move", default)]
    notation: String,
    after_id: String,
    equity: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    se: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    probs: Option<[f32; 5]>,
}

#[derive(Serialize, Deserialize)]
struct EntryJson {
    position_id: String,
    dice: [u8; 2],
    #[serde(default)]
    class: String,
    candidates: Vec<CandidateJson>,
}

/// The JSON line of an entry (no newline).
pub fn entry_line(e: &Entry) -> String {
    let j = EntryJson {
        position_id: e.position.position_id(),
        dice: [e.dice.high(), e.dice.low()],
        class: dataset_class(&e.position).name().into(),
        candidates: e
            .candidates
            .iter()
            .map(|c| CandidateJson {
                notation: c.notation.clone(),
                after_id: c.after.position_id(),
                equity: c.equity,
                se: c.se,
                probs: c.probs,
            })
            .collect(),
    };
    serde_json::to_string(&j).expect("entries serialise")
}

fn parse_entry_line(text: &str) -> Result<Entry, String> {
    let j: EntryJson = serde_json::from_str(text).map_err(|e| format!("not a benchmark entry: {e}"))?;
    let position = Position::from_id(&j.position_id).map_err(|e| format!("position_id: {e}"))?;
    let dice = Dice::new(j.dice[0], j.dice[1]).map_err(|e| e.to_string())?;
    if j.candidates.is_empty() {
        return Err("no candidates".into());
    }
    let candidates = j
        .candidates
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let after =
                Position::from_id(&c.after_id).map_err(|e| format!("candidate {}: after_id: {e}", i + 1))?;
            if !c.equity.is_finite() || c.equity.abs() > 3.0 {
                return Err(format!(
                    "candidate {}: equity {} outside [-3, 3]",
                    i + 1,
                    c.equity
                ));
            }
            Ok(Candidate {
                after,
                notation: c.notation,
                equity: c.equity,
                se: c.se,
                probs: c.probs,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Entry {
        position,
        dice,
        candidates,
    })
}

fn parse_gnubg_nn_line(text: &str) -> Result<Entry, String> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() < 6 {
        return Err(format!(
            "a move line needs at least 6 fields (m POSITION D0 D1 MOVE EQUITY), found {}",
            f.len()
        ));
    }
    let position = parse_key(f[1])?;
    let die = |s: &str| s.parse::<u8>().map_err(|_| format!("die '{s}' is not a number"));
    let dice = Dice::new(die(f[2])?, die(f[3])?).map_err(|e| e.to_string())?;
    let num = |s: &str| -> Result<f64, String> {
        let v: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
        if v.is_finite() && v.abs() <= 3.0 {
            Ok(v)
        } else {
            Err(format!("equity {v} outside [-3, 3]"))
        }
    };
    let best = num(f[5])?;
    let mut candidates = vec![Candidate {
        after: parse_key(f[4])?,
        notation: String::new(),
        equity: best,
        se: None,
        probs: None,
    }];
    let rest = &f[6..];
    if !rest.len().is_multiple_of(2) {
        return Err("a move without its equity loss at the end of the line".into());
    }
    for pair in rest.chunks(2) {
        candidates.push(Candidate {
            after: parse_key(pair[0])?,
            notation: String::new(),
            equity: best - num(pair[1])?.abs(),
            se: None,
            probs: None,
        });
    }
    Ok(Entry {
        position,
        dice,
        candidates,
    })
}

/// Reads a benchmark set: bgkit's JSON lines (first line a header object), or
/// gnubg-nn's `m` lines.
pub fn read(path: &Path) -> Result<BenchmarkSet, DatasetError> {
    let text = std::fs::read_to_string(path).map_err(|e| DatasetError::io(path, e))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((n0, first)) = lines.next() else {
        return Err(DatasetError::file(path, "empty benchmark file"));
    };
    let mut entries = Vec::new();
    let mut numbers = Vec::new();
    if first.trim_start().starts_with('{') {
        let header: Value = serde_json::from_str(first)
            .map_err(|e| DatasetError::parse(path, n0 as u64 + 1, format!("not a benchmark header: {e}")))?;
        if header.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(DatasetError::parse(
                path,
                n0 as u64 + 1,
                format!("the header's format is not \"{FORMAT}\""),
            ));
        }
        let v = header.get("version");
        if v.and_then(Value::as_u64) != Some(u64::from(VERSION)) {
            let found = v.map_or("missing".to_string(), Value::to_string);
            return Err(DatasetError::parse(
                path,
                n0 as u64 + 1,
                format!("benchmark format version {found} is not supported (this program reads {VERSION})"),
            ));
        }
        for (n, l) in lines {
            entries.push(parse_entry_line(l).map_err(|m| DatasetError::parse(path, n as u64 + 1, m))?);
            numbers.push(n + 1);
        }
        return Ok(BenchmarkSet {
            format: SetFormat::Bgkit,
            header: Some(header),
            entries,
            lines: numbers,
        });
    }
    for (n, l) in std::iter::once((n0, first)).chain(lines) {
        let t = l.trim_start();
        if t.starts_with("m ") || t.starts_with("m\t") {
            entries.push(parse_gnubg_nn_line(t).map_err(|m| DatasetError::parse(path, n as u64 + 1, m))?);
            numbers.push(n + 1);
        }
    }
    if entries.is_empty() {
        return Err(DatasetError::file(
            path,
            "neither a bgkit benchmark (JSON header line) nor a gnubg-nn benchmark (no 'm' lines)",
        ));
    }
    Ok(BenchmarkSet {
        format: SetFormat::GnubgNn,
        header: None,
        entries,
        lines: numbers,
    })
}

/// Writes a set in bgkit's format: `header`, then the entry lines (to a temporary
/// name, put in place when complete as `existing` says).
pub fn write(path: &Path, header: &Value, lines: &[String], existing: Existing) -> Result<(), DatasetError> {
    crate::format::write_text(path, existing, |w: &mut dyn Write| {
        writeln!(w, "{}", serde_json::to_string(header).expect("json"))?;
        for l in lines {
            writeln!(w, "{l}")?;
        }
        Ok(())
    })
}

/// How a set is built.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildSettings {
    /// Candidates kept per position (the best by the selection ply).
    pub candidates: usize,
    /// Ply of the candidate selection (0 or 1).
    pub select_plies: u32,
    /// Seed of the rolls.
    pub dice_seed: u64,
}

/// The roll of input row `index`: uniform over the 36 outcomes, from the seed.
pub fn dice_for(seed: u64, index: u64) -> Dice {
    let r = derive(seed, STREAM_GAME_DICE ^ DICE_OFFSET, index) % 36;
    Dice::new((r / 6) as u8 + 1, (r % 6) as u8 + 1).expect("dice in 1..=6")
}

/// gnubg's move-list order (stable sort): bearing off the last checker first, then
/// higher equity, then fewer checkers left, then the lower rearmost checker.
fn sort_moves<T>(list: &mut [(T, Position, f32)]) {
    list.sort_by(|(_, a, ea), (_, b, eb)| {
        let (ba, la) = move_shape(a);
        let (bb, lb) = move_shape(b);
        (bb == -1)
            .cmp(&(ba == -1))
            .then(eb.total_cmp(ea))
            .then(la.cmp(&lb))
            .then(ba.cmp(&bb))
    });
}

/// The benchmark entry of `pos` with `dice`: the best `candidates` moves by the
/// selection ply, each rolled out with `roller` (one rollout per candidate, of the
/// position after it with the opponent on roll; the same trial dice for every
/// candidate, so their differences are measured precisely). `None` when fewer than two
/// distinct moves are legal (no choice, no error possible).
pub fn build_entry(
    ev: &Evaluator,
    roller: &Roller<'_>,
    gen: &mut MoveGen,
    pos: &Position,
    dice: Dice,
    settings: &BuildSettings,
) -> Result<Option<Entry>, EvalError> {
    let moves = gen.moves(pos, dice).to_vec();
    if moves.len() < 2 {
        return Ok(None);
    }
    let mut list = Vec::with_capacity(moves.len());
    for m in &moves {
        let eq = if settings.select_plies == 0 {
            equity_after(ev, &m.result)?
        } else {
            let p = ev.evaluate_plied(&m.result.swapped(), settings.select_plies, Lookahead::default())?;
            mover_equity(&p)
        };
        list.push((m.notation(), m.result, eq));
    }
    sort_moves(&mut list);
    list.truncate(settings.candidates.max(1));
    let mut candidates = Vec::with_capacity(list.len());
    for (notation, after, _) in list {
        let trials = roller.rollout_trials(&after.swapped())?;
        let n = trials.len() as f64;
        // Each trial from the opponent's view; the mover's equity is its negation.
        let eqs: Vec<f64> = trials
            .iter()
            .map(|r| -(2.0 * r[0] - 1.0 + r[1] - r[3] + r[2] - r[4]))
            .collect();
        let equity = eqs.iter().sum::<f64>() / n;
        let se = if trials.len() > 1 {
            (eqs.iter().map(|e| (e - equity).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt()
        } else {
            0.0
        };
        let mut mean = [0f64; 5];
        for r in &trials {
            for (m, v) in mean.iter_mut().zip(r) {
                *m += v / n;
            }
        }
        // The mover's view of the opponent's probabilities.
        let mover = [1.0 - mean[0], mean[3], mean[4], mean[1], mean[2]];
        candidates.push(Candidate {
            after,
            notation,
            equity,
            se: Some(se),
            probs: Some(mover.map(|p| p.clamp(0.0, 1.0) as f32)),
        });
    }
    candidates.sort_by(|a, b| b.equity.total_cmp(&a.equity));
    Ok(Some(Entry {
        position: *pos,
        dice,
        candidates,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_are_uniform_and_seeded() {
        let mut counts = [0u32; 36];
        for i in 0..36_000 {
            let d = dice_for(3, i);
            counts[usize::from((d.high() - 1) * 6 + d.low() - 1)] += 1;
        }
        // Only high ≥ low is stored: doubles 1/36 each, other rolls 2/36.
        for h in 0..6 {
            for l in 0..6 {
                let c = counts[h * 6 + l];
                match h.cmp(&l) {
                    std::cmp::Ordering::Less => assert_eq!(c, 0),
                    std::cmp::Ordering::Equal => assert!((800..1200).contains(&c), "{h}{l}: {c}"),
                    std::cmp::Ordering::Greater => assert!((1700..2300).contains(&c), "{h}{l}: {c}"),
                }
            }
        }
        assert_eq!(dice_for(3, 17), dice_for(3, 17));
    }
}

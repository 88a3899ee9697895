//! Fixed, reproducible sets of positions for benchmarks.

use board::{Dice, DiceStream, MoveGen, Position, Variant};

use crate::class::{classify_shape, PositionClass};
use crate::eval::EvalError;
use crate::Evaluator;

/// Seed of the built-in benchmark corpora.
pub const CORPUS_SEED: u32 = 20_261_130;

/// The (position, roll) pairs met while playing `games` games of uniformly random legal
/// moves from the starting position, dice and choices drawn from one [`DiceStream`]
/// seeded with `seed`. The mix covers openings, contact, hits and bar entries, races and
/// bear-offs in the proportions random play produces.
pub fn random_game_corpus(seed: u32, games: usize) -> Vec<(Position, Dice)> {
    let choose = |stream: &mut DiceStream, _: &Position, _: Dice, children: &[Position]| {
        Ok::<_, std::convert::Infallible>(children[stream.below(children.len() as u32) as usize])
    };
    match play_games(seed, games, choose) {
        Ok(pairs) => pairs,
        Err(never) => match never {},
    }
}

/// The (position, roll) pairs met while `ev` plays `games` games against itself from
/// the starting position, each move its 0-ply choice ([`Evaluator::best_move`]), dice
/// from one [`DiceStream`] seeded with `seed`. With gnubg's weights and databases these
/// are the games gnubg 0-ply plays against itself with those dice.
pub fn self_play_corpus(ev: &Evaluator, seed: u32, games: usize) -> Result<Vec<(Position, Dice)>, EvalError> {
    let mut gen = MoveGen::new();
    play_games(seed, games, |_, pos, dice, children| {
        Ok(ev
            .best_move(&mut gen, pos, dice)?
            .map_or(children[0], |(m, _)| m.result))
    })
}

/// Plays `games` games from the starting position with dice from one [`DiceStream`]
/// seeded with `seed`; `choose` picks each move from the legal results (never empty; it
/// may draw from the stream). Returns every (position, roll) met, the side on roll first.
fn play_games<E>(
    seed: u32,
    games: usize,
    mut choose: impl FnMut(&mut DiceStream, &Position, Dice, &[Position]) -> Result<Position, E>,
) -> Result<Vec<(Position, Dice)>, E> {
    let mut stream = DiceStream::new(seed);
    let mut gen = MoveGen::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Variant::Backgammon.start();
        let mut dice = stream.opening_roll();
        loop {
            out.push((pos, dice));
            let children = gen.positions(&pos, dice);
            let next = if children.is_empty() {
                pos
            } else {
                choose(&mut stream, &pos, dice, children)?
            };
            if next.on_roll().iter().all(|&n| n == 0) {
                break;
            }
            pos = next.swapped();
            dice = stream.roll();
        }
    }
    Ok(out)
}

/// The movegen benchmark corpus: 200 random games (about 19,000 pairs).
pub fn movegen_corpus() -> Vec<(Position, Dice)> {
    random_game_corpus(CORPUS_SEED, 200)
}

/// The static-evaluation benchmark set: 4,096 distinct contact positions (contact net,
/// like gnubg's `calibrate`) from seeded random games.
pub fn contact_positions() -> Vec<Position> {
    let mut seen = std::collections::HashSet::new();
    random_game_corpus(CORPUS_SEED, 400)
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| classify_shape(p) == PositionClass::Contact && seen.insert(*p))
        .take(4096)
        .collect()
}

/// The static-evaluation set drawn as gnubg's `calibrate` draws its boards: 4,096
/// random boards, each side's 15 checkers on random points 1..=24 (never on the bar
/// or borne off), no point held by both sides (blot-heavy contact positions).
pub fn calibrate_boards() -> Vec<Position> {
    let mut stream = DiceStream::new(CORPUS_SEED);
    let mut out = Vec::with_capacity(4096);
    while out.len() < 4096 {
        // sides[0] and sides[1], each in its own numbering: point k of one side is
        // point 23 - k of the other.
        let mut sides = [[0u8; 25]; 2];
        for _ in 0..15 {
            for s in 0..2 {
                loop {
                    let k = stream.below(24) as usize;
                    if sides[1 - s][23 - k] == 0 {
                        sides[s][k] += 1;
                        break;
                    }
                }
            }
        }
        let [a, b] = sides;
        out.extend(Position::new(a, b));
    }
    out
}

/// The best-move benchmark set: 1,024 (position, roll) pairs from seeded random games.
pub fn best_move_pairs() -> Vec<(Position, Dice)> {
    random_game_corpus(CORPUS_SEED + 1, 40)
        .into_iter()
        .step_by(3)
        .take(1024)
        .collect()
}

/// Why [`all_rolls_from_file`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CorpusFileError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: String,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// A line is not a Position ID.
    #[error("{path}:{line}")]
    Position {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong with the ID.
        #[source]
        source: board::PositionIdError,
    },
    /// The file holds no position.
    #[error("{0}: no positions")]
    Empty(String),
}

/// Every position of a file of Position IDs (one per line; blank lines and a
/// `position_id` header skipped; further CSV columns ignored), each with all 21 rolls.
pub fn all_rolls_from_file(path: &std::path::Path) -> Result<Vec<(Position, Dice)>, CorpusFileError> {
    let name = || path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|source| CorpusFileError::Read { path: name(), source })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let id = line.split(',').next().unwrap_or("").trim();
        if id.is_empty() || id == "position_id" {
            continue;
        }
        let pos = Position::from_id(id).map_err(|source| CorpusFileError::Position {
            path: name(),
            line: n + 1,
            source,
        })?;
        out.extend(Dice::all().map(|d| (pos, d)));
    }
    if out.is_empty() {
        return Err(CorpusFileError::Empty(name()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_is_reproducible_and_ends_every_game() {
        let a = random_game_corpus(1, 5);
        assert_eq!(a, random_game_corpus(1, 5));
        assert_ne!(a, random_game_corpus(2, 5));
        assert_eq!(
            a.iter()
                .filter(|(p, _)| *p == Variant::Backgammon.start())
                .count(),
            5
        );
    }

    #[test]
    fn benchmark_sets_have_their_documented_sizes() {
        assert_eq!(contact_positions().len(), 4096);
        let boards = calibrate_boards();
        assert_eq!(boards.len(), 4096);
        for p in &boards {
            assert_eq!(
                (
                    p.checkers(board::Player::Opponent),
                    p.checkers(board::Player::OnRoll)
                ),
                (15, 15)
            );
            assert!(p.sides().iter().all(|s| s[24] == 0), "nobody on the bar");
            assert_eq!(classify_shape(p), PositionClass::Contact, "{p:?}");
        }
        assert_eq!(best_move_pairs().len(), 1024);
    }
}

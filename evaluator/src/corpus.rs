//! Fixed, reproducible sets of positions for benchmarks.

use board::{Dice, DiceStream, MoveGen, Position, Variant};

/// Seed of the built-in benchmark corpus.
pub const CORPUS_SEED: u32 = 20_261_130;

/// The (position, roll) pairs met while playing `games` games of uniformly random legal
/// moves from the starting position, dice and choices drawn from one [`DiceStream`]
/// seeded with `seed`. The mix covers openings, contact, hits and bar entries, races and
/// bear-offs in the proportions random play produces.
pub fn random_game_corpus(seed: u32, games: usize) -> Vec<(Position, Dice)> {
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
                children[stream.below(children.len() as u32) as usize]
            };
            if next.on_roll().iter().all(|&n| n == 0) {
                break;
            }
            pos = next.swapped();
            dice = stream.roll();
        }
    }
    out
}

/// Every position of a file of Position IDs (one per line; blank lines and a
/// `position_id` header skipped; further CSV columns ignored), each with all 21 rolls.
pub fn all_rolls_from_file(path: &std::path::Path) -> anyhow::Result<Vec<(Position, Dice)>> {
    use anyhow::Context;
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let id = line.split(',').next().unwrap_or("").trim();
        if id.is_empty() || id == "position_id" {
            continue;
        }
        let pos = Position::from_id(id).with_context(|| format!("{}:{}", path.display(), n + 1))?;
        out.extend(Dice::all().map(|d| (pos, d)));
    }
    anyhow::ensure!(!out.is_empty(), "{}: no positions", path.display());
    Ok(out)
}

/// The movegen benchmark corpus: 200 random games (about 24,000 pairs).
pub fn movegen_corpus() -> Vec<(Position, Dice)> {
    random_game_corpus(CORPUS_SEED, 200)
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
}

//! SGF (`GM[6]`) in gnubg's dialect: writer and reader.
//!
//! # What is written
//!
//! One game tree per game, as gnubg 1.07 saves a match (`save match`), each tree on
//! its own lines:
//!
//! ```text
//! (;FF[4]GM[6]CA[UTF-8]AP[bgkit:0.1.0]MI[length:7][game:0][ws:0][bs:0]PW[alice]PB[bob]
//! DT[2025-01-31]EV[...]RU[Crawford]RE[W+2]
//! ;W[31hefe]
//! ;B[double]
//! ;W[take]
//! ...)
//! ```
//!
//! * `MI`: match length (0 = money), the game's number counted **from 0** (as gnubg
//!   writes it; the SGF specification counts from 1), White's and Black's score before
//!   the game. `PW`/`PB`: White's and Black's names. On the first game only: `WR`,
//!   `BR`, `DT`, `EV`, `RO`, `PC`, `AN`, `GC`.
//! * `RU`: colon-separated rules: `NoCube`, `Crawford` (match play with the rule),
//!   `CrawfordGame`, `Jacoby` (money play), `Nackgammon`/`Hypergammon1..3`, and the
//!   bgkit token `Beavers` (gnubg skips tokens it does not know).
//! * `RE[W+n]`, `RE[B+nR]`: winner, points (cube × 1, 2 or 3, not capped), `R` when
//!   the loser resigned. Absent while a game is unfinished.
//! * Moves: colour, dice (larger first), then one from/to letter pair per die in the
//!   order played. Points are letters `a`–`x` = points 1–24 counted from **White's**
//!   ace point: White's point p is `a` + p − 1, Black's point p is `x` − (p − 1); `y` is
//!   the bar, `z` off. Hits are not marked. A dance is the dice alone (`B[66]`).
//! * Cube: `W[double]`, `B[take]`, `B[drop]`; a beaver is written as gnubg does, as a
//!   `double` answering a double, followed by the original doubler's `take`/`drop`.
//!   A cube set by hand is a node `CV[value]CP[c|w|b]`, as gnubg writes board edits.
//! * Resignations: gnubg keeps only the result (`RE[..R]`), from which it takes the
//!   level as points ÷ cube. bgkit also writes each offer and answer as its own node
//!   with bgkit properties that gnubg ignores: `RS[W2]` (White offers a gammon),
//!   `RA[B]` (Black accepts), `RJ[B]` (Black declines).
//!
//! # What is read
//!
//! Any SGF collection; game trees whose root lacks `GM[6]` are skipped, and of
//! variations only the main line (first branch) is followed. Besides the above: moves
//! whose pairs join the dice of one checker (`B[61yg]`), dice in either order, cube
//! ownership as `CP` (gnubg) or `CO` (the specification; `n` ignored), gnubg's
//! analysis and marks (`A`, `DA`, `LU`, `GS`, `MR`, `BM`, `DO`, `GB`, `GW`, comments,
//! ...: ignored), and its `PL`/`DI` nodes of a roll not yet played (ignored). An
//! `RE[..R]` without resignation nodes becomes a resignation offered by the loser at
//! the end of the game and accepted, at level points ÷ cube clamped to 1..=3, as gnubg
//! reads it. Position setup (`AE`, `AB`, `AW`) and automatic doubles (`CV` on the
//! root) are rejected as unsupported.
//!
//! Consecutive trees form one match while their `MI` game numbers count up from the
//! first and the players, length and variant stay the same; a tree numbered 0 (or one
//! that differs) starts the next match. So a file appended to game after game, from
//! many matches, reads back as those matches.
//!
//! The code: `write` writes the trees, `syntax` reads any SGF text into trees of
//! nodes and properties, and `read` gives those trees their backgammon meaning.

mod read;
mod syntax;
#[cfg(test)]
mod tests;
mod write;

pub use read::read_sgf;
pub use write::{write_sgf, write_sgf_game};

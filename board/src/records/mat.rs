//! Jellyfish `.mat` match files: writer and reader.
//!
//! The format has no specification; gnubg's export and import define it in practice.
//!
//! # What is written
//!
//! The layout of gnubg 1.07's `export match mat`:
//!
//! ```text
//! ; [Event "Night 12"]
//! ; [EventDate "2025.01.31"]
//!
//!  3 point match
//!
//!  Game 1
//!  alice : 0                      bob : 0
//!   1)                             64: 24/18 18/14
//!   2) 62: 13/11* 24/18            51: 25/20 8/7*
//!  ...
//!  16)  Doubles => 2                Drops
//!       Wins 1 point
//! ```
//!
//! * Header tags `; [Site|Event|Round|EventDate|Variation|Transcriber "..."]`, then
//!   rule tags in XG's style where the rules differ from what gnubg assumes on import
//!   (`Crawford "Off"` in match play; `Jacoby "On"`, `Beaver "On"` in money play;
//!   `CubeLimit "1"` without a cube; gnubg skips all four), then the comment as `; `
//!   lines.
//! * ` N point match` (0 for money), then per game ` Game k` (from 1) and the score
//!   line: White's name and score padded to 31 columns, then Black's.
//!   A name that would read back as another (a ':', a line break, white space at an
//!   end, `name,1500`, which reads as GridGammon's name and rating), a header tag
//!   value with a line break, and a match longer than 64 points (gnubg's limit) are
//!   refused.
//! * Numbered lines: White's action in a 28-column left field, Black's on the right;
//!   when Black opens, the first left field is blank.
//! * A move is the dice, larger first, a colon and the checker movements one per die,
//!   unjoined, in the order played: `31: 8/5 6/5`, `62: 25/23 8/2*`, `62: 6/0 6/4`
//!   (bar 25, off 0, `*` on the first movement landing on a blot). A dance is the dice
//!   alone (`63: `).
//! * Cube: ` Doubles => 2`, ` Takes`, ` Drops` followed by `Wins n point(s)`;
//!   ` Beavers => 4`, whose acceptance by the doubler is not written. A beaver that the
//!   doubler drops is written ` Doubles => 4` instead (gnubg reads a double answering
//!   a double as a beaver): after ` Beavers` gnubg 1.07's import waits for the
//!   doubler's roll to accept it, and when the game ends first it rejects the next
//!   game's opening move.
//! * The end: `Wins n point(s)` in the winner's column (n = cube × 1, 2 or 3, the
//!   Jacoby rule not applied, as gnubg writes it; a dropped cube's value; a
//!   resignation's level × cube, where a player who resigns facing a double loses at
//!   the cube before the double, which gnubg's export gets wrong).
//!
//! The format has no place for resignation offers that were declined (not written)
//! or for cube values set by hand ([`Action::SetCube`](super::Action::SetCube): an error).
//!
//! # What is read
//!
//! gnubg's own files and, like gnubg's import, more: a UTF-8 byte-order mark, `#`
//! comment lines, XG's header tags (`Crawford`, `Jacoby`, `Beaver`, `CubeLimit`,
//! `Variation` are used; `EventTime`, `Player 1`, ... skipped), GridGammon's
//! `name,rating` score lines, joined movements (`61: 11/4`, `65: 9/Off`,
//! `44: 24/16(2)`), `bar`/`off` as words, XG's `???` and `Cannot Move`, ` Beavers`
//! followed directly by the doubler's roll (the acceptance implied), a bare roll
//! with a forced move (played), and a bare roll before `Wins` (a resignation after
//! rolling: the roll is dropped). `Wins n points` while the game is still on means the
//! other player resigned: the points won are taken from the next game's score line
//! (gnubg's export overstates them when the doubled player resigns), else n, and the
//! level is 1, 2 or 3 by those points against the cube, as gnubg reads it.
//! The Crawford game is the first game with exactly one player at match point (rule on
//! unless a `Crawford "Off"` tag says otherwise). Games after the match is won are
//! skipped, as gnubg does. Raccoons and Snowie's `Illegal play` are rejected.
//!
//! Unlike gnubg's import, every move is checked against the rules: gnubg 1.07 accepts,
//! for instance, a move from a point while the mover has a checker on the bar.
//!
//! The code: `write` writes the file, `lines` reads its lines one by one, and `read`
//! builds the games from them.

mod lines;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::read_mat;
pub use write::write_mat;

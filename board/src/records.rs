//! Game records: matches and money sessions as data, checked against the rules, and
//! written and read as SGF (gnubg's dialect of `GM[6]`) and Jellyfish `.mat`, the
//! two formats gnubg 1.07 loads (`load match FILE.sgf`, `import mat FILE.mat`).
//!
//! # The model
//!
//! A [`MatchRecord`] holds the players' names, the match length (0 = money), the
//! [`Variant`](crate::Variant), the [`Rules`] (cube, Crawford, Jacoby, beavers), the
//! descriptive [`MatchInfo`] and the games. A [`GameRecord`] holds the score before
//! the game, its Crawford flag, its [`Action`]s in order and its [`GameResult`].
//! Actions are moves (dice and [`Step`](crate::Step)s in played order, no steps for a
//! dance), cube actions (double, take, drop, beaver, and cube values set by hand) and
//! resignations (offer, accept, decline).
//!
//! # Perspective conventions
//!
//! * Players are [`Seat`]s in gnubg's numbering: **White = player 0 = O**, **Black =
//!   player 1 = X**. SGF writes them as `W`/`PW` and `B`/`PB`; `.mat` puts White's
//!   name first and White's actions in the left column. (gnubg's Python module
//!   `gnubg.match()` labels them the other way round, `X` for player 0; the board
//!   drawing and Match IDs follow the table above.)
//! * A move's steps use the mover's own point numbers: 1–24 from the mover's ace
//!   point, 25 the bar, 0 off; in SGF they become letters counted from White's side,
//!   in `.mat` numbers in the mover's numbering (see [`sgf`] and [`mat`]).
//! * A [`Position`](crate::Position) in a replay is seen by someone: `sides()[1]`
//!   belongs to the player who acts (see [`ReplayStep::before`]) or to the seat named
//!   in a [`SeatedPosition`].
//!
//! # What each format keeps
//!
//! * bgkit's SGF keeps everything in the model (declined resignations and the beaver
//!   rule in bgkit properties that gnubg skips). gnubg's own `save match` keeps no
//!   declined resignation offers and no beaver rule; readers take the rule from a
//!   beaver that was played.
//! * `.mat` keeps no declined resignation offers and no cube set by hand (an
//!   error). The Jacoby and beaver rules, a match without the Crawford rule and a
//!   game without the cube are written as XG-style tags, which bgkit reads and gnubg
//!   skips (its import then applies its own settings).
//! * Rules that do not apply to the kind of play are not written: [`Rules::crawford`]
//!   in money play (read back as `true`, the default), [`Rules::jacoby`] and
//!   [`Rules::beavers`] in match play (read back as `false`).
//!
//! gnubg 1.07 was the oracle for both writers: it loads bgkit's files to the same
//! positions, results and scores as bgkit's replay, its `.mat` export of the same
//! matches is byte for byte bgkit's except where gnubg is wrong (see [`mat`]), and its
//! own exports read back to the same games (`board/tests/records_gnubg/`).
//!
//! # Checking
//!
//! [`MatchRecord::replay`] plays a game from the variant's starting position and
//! checks every action: moves against the move generator (including which die must
//! be used), doubles against the turn, cube ownership, the Crawford game and the cube
//! rules; takes, drops, beavers and resignation answers against what is pending; the
//! result against the one the actions produce. [`MatchRecord::validate`] does this
//! for all games and checks that scores and Crawford flags follow from game to game.
//! Writers validate before writing; readers replay while reading, so a bad move is
//! reported with the file, game, action and line, e.g.
//! `m.sgf: game 2, action 17, line 20: B[61yf]: Black 61: bar/19 is not a legal move`.
//!
//! # Recording games
//!
//! ```
//! use board::records::{write_mat, write_sgf, Action, MatchRecord, Seat};
//! use board::{DiceStream, Variant};
//!
//! let mut record = MatchRecord::new("pubeval", "net-7", 3, Variant::Backgammon);
//! let mut dice = DiceStream::new(1);
//! while !record.is_over() {
//!     let mut game = record.next_game(); // score and Crawford flag filled in
//!     let mut seat = if dice.below(2) == 0 { Seat::White } else { Seat::Black };
//!     let mut roll = dice.opening_roll();
//!     loop {
//!         match game.position().legal_moves(roll).first() {
//!             Some(mv) => game.play(seat, roll, mv).unwrap(),
//!             None => game.dance(seat, roll).unwrap(),
//!         }
//!         if game.is_over() {
//!             break;
//!         }
//!         seat = seat.other();
//!         if game.may_double(seat) && dice.below(20) == 0 {
//!             game.apply(Action::Double { seat }).unwrap();
//!             game.apply(Action::Take { seat: seat.other() }).unwrap();
//!         }
//!         roll = dice.roll();
//!     }
//!     record.push_game(game.finish());
//! }
//! let sgf = write_sgf(&record).unwrap();
//! let mat = write_mat(&record).unwrap();
//! assert_eq!(board::records::read_sgf(&sgf, "m.sgf").unwrap(), vec![record.clone()]);
//! assert_eq!(board::records::read_mat(&mat, "m.mat").unwrap(), record);
//! ```
//!
//! Files: [`save`] writes a match to a temporary name and renames it into place;
//! [`append_sgf_game`] appends one game to an SGF collection; [`load`] reads either
//! format.

mod error;
mod game;
pub mod mat;
mod model;
mod resolve;
pub mod sgf;
#[cfg(test)]
mod test_games;

use std::fs;
use std::io::Write as _;
use std::path::Path;

pub use error::{RecordError, RecordErrorKind};
pub use game::{GamePlay, Replay, ReplayStep, SeatedPosition};
pub use mat::{read_mat, write_mat};
pub use model::{Action, Date, GameRecord, GameResult, MatchInfo, MatchRecord, Resignation, Rules, Seat};
pub use sgf::{read_sgf, write_sgf, write_sgf_game};

/// A record file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// SGF, gnubg's dialect (`.sgf`).
    Sgf,
    /// Jellyfish match file (`.mat`).
    Mat,
}

impl Format {
    /// The format a file name's extension names: `.sgf`, or `.mat` (also `.txt`, as XG
    /// names its match exports); any case.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "sgf" => Some(Format::Sgf),
            "mat" | "txt" => Some(Format::Mat),
            _ => None,
        }
    }
}

fn io_error(path: &Path, e: std::io::Error) -> RecordError {
    RecordError::new(RecordErrorKind::Io, e.to_string()).in_source(&path.display().to_string())
}

/// Writes a match to `path` in `format`, through a temporary file renamed into place
/// when complete (replacing a file there).
pub fn save(path: &Path, record: &MatchRecord, format: Format) -> Result<(), RecordError> {
    save_with(path, record, format, fileio::Existing::Replace)
}

/// As [`save`], doing with a file at `path` what `existing` says (a tool's `--force`:
/// [`fileio::Existing::Keep`] leaves a file that appeared there while the games were
/// played, and fails).
pub fn save_with(
    path: &Path,
    record: &MatchRecord,
    format: Format,
    existing: fileio::Existing,
) -> Result<(), RecordError> {
    let name = path.display().to_string();
    let text = match format {
        Format::Sgf => write_sgf(record),
        Format::Mat => write_mat(record),
    }
    .map_err(|e| e.in_source(&name))?;
    fileio::write_atomic_with(path, text.as_bytes(), existing).map_err(|e| io_error(path, e))
}

/// Appends game `index` of `record` to the SGF collection at `path` (created if
/// missing) in one write. A collection of games from many matches reads back as
/// those matches (see [`sgf`]).
pub fn append_sgf_game(path: &Path, record: &MatchRecord, index: usize) -> Result<(), RecordError> {
    let text = write_sgf_game(record, index).map_err(|e| e.in_source(&path.display().to_string()))?;
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| io_error(path, e))?;
    f.write_all(text.as_bytes()).map_err(|e| io_error(path, e))
}

/// Reads the matches of a record file: SGF (every match of the collection) or `.mat`
/// (one match), by extension, else by content (`(;` starts SGF). Text that is not
/// UTF-8 is read as Latin-1, which older files use.
pub fn load(path: &Path) -> Result<Vec<MatchRecord>, RecordError> {
    let bytes = fs::read(path).map_err(|e| io_error(path, e))?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    };
    let name = path.display().to_string();
    let format = Format::from_path(path).unwrap_or(if text.trim_start().starts_with("(;") {
        Format::Sgf
    } else {
        Format::Mat
    });
    match format {
        Format::Sgf => read_sgf(&text, &name),
        Format::Mat => read_mat(&text, &name).map(|m| vec![m]),
    }
}

#[cfg(test)]
mod tests {
    use super::test_games::{crawford_match, money_session};
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("bgkit-records-unit-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn files_are_saved_appended_and_loaded() {
        let dir = scratch("files");
        let a = crawford_match(3);
        let b = money_session(5, false);
        for (name, format) in [("a.sgf", Format::Sgf), ("a.mat", Format::Mat)] {
            let path = dir.join(name);
            save(&path, &a, format).unwrap();
            // No temporary file is left beside it.
            let names: Vec<String> = fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
            assert_eq!(load(&path).unwrap(), vec![a.clone()]);
        }
        // Content decides when the extension does not.
        fs::copy(dir.join("a.sgf"), dir.join("a.record")).unwrap();
        assert_eq!(load(&dir.join("a.record")).unwrap(), vec![a.clone()]);
        let all = dir.join("all.sgf");
        for m in [&a, &b] {
            for i in 0..m.games.len() {
                append_sgf_game(&all, m, i).unwrap();
            }
        }
        assert_eq!(load(&all).unwrap(), vec![a.clone(), b.clone()]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn save_with_keep_leaves_a_file_that_is_there() {
        let dir = test_support::Scratch::new("board", "records-keep");
        let path = dir.join("duel.sgf");
        fs::write(&path, "mine").unwrap();
        let a = crawford_match(3);
        let e = save_with(&path, &a, Format::Sgf, fileio::Existing::Keep).unwrap_err();
        assert_eq!(e.kind, RecordErrorKind::Io);
        assert!(
            e.to_string()
                .starts_with(&format!("{}: appeared while", path.display())),
            "{e}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), "mine");
        save_with(&path, &a, Format::Sgf, fileio::Existing::Replace).unwrap();
        assert_eq!(load(&path).unwrap(), vec![a]);
        assert_eq!(test_support::dir_names(&dir), ["duel.sgf"]);
    }

    #[test]
    fn file_errors_name_the_file() {
        let dir = scratch("errors");
        let missing = dir.join("missing.sgf");
        let e = load(&missing).unwrap_err();
        assert_eq!(e.kind, RecordErrorKind::Io);
        assert!(e.to_string().starts_with(&missing.display().to_string()), "{e}");
        let bad = dir.join("bad.sgf");
        fs::write(&bad, "(;FF[4]GM[6];W[31hefe]").unwrap();
        let e = load(&bad).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{}: line 1: ", bad.display())), "{e}");
        // Latin-1 names (not UTF-8) are read byte for byte.
        let latin = dir.join("latin.sgf");
        fs::write(&latin, b"(;FF[4]GM[6]CA[ISO-8859-1]PW[Ren\xe9]PB[b];W[31hefe])").unwrap();
        assert_eq!(load(&latin).unwrap()[0].players[0], "Ren\u{e9}");
        let mut a = crawford_match(3);
        a.games[0].actions.pop();
        let e = save(&dir.join("x.mat"), &a, Format::Mat).unwrap_err().to_string();
        assert!(e.contains("x.mat: game 1: the record says"), "{e}");
        let _ = fs::remove_dir_all(&dir);
    }

    /// Cut, doubled and garbled files give errors (or, by luck, records), never a
    /// panic.
    #[test]
    fn mangled_files_never_panic() {
        let m = money_session(5, false);
        let texts = [write_sgf(&m).unwrap(), write_mat(&m).unwrap()];
        let junk: Vec<char> = "()[];:/*\\ 0123456789abcxyzWBR+-\n\u{e9}\u{feff}"
            .chars()
            .collect();
        let mut dice = crate::DiceStream::new(99);
        let mut parsed = 0;
        for k in 0..3000 {
            let text = &texts[k % 2];
            let mut chars: Vec<char> = text.chars().collect();
            for _ in 0..1 + dice.below(3) {
                let at = dice.below(chars.len() as u32) as usize;
                let len = (dice.below(40) as usize).min(chars.len() - at);
                match dice.below(4) {
                    0 => {
                        chars.drain(at..at + len);
                    }
                    1 => {
                        let copy: Vec<char> = chars[at..at + len].to_vec();
                        chars.splice(at..at, copy);
                    }
                    2 => chars[at] = junk[dice.below(junk.len() as u32) as usize],
                    _ => chars.truncate(at),
                }
                if chars.is_empty() {
                    break;
                }
            }
            let mangled: String = chars.into_iter().collect();
            let ok = if k % 2 == 0 {
                read_sgf(&mangled, "m.sgf").is_ok()
            } else {
                read_mat(&mangled, "m.mat").is_ok()
            };
            parsed += usize::from(ok);
        }
        // Most mangled files must be rejected.
        assert!(parsed < 1500, "{parsed} of 3000 mangled files were accepted");
        // Deep nesting is refused, not recursed into.
        let deep = format!("(;GM[6]{}", "(;W[31hefe]".repeat(100_000));
        assert!(read_sgf(&deep, "deep.sgf")
            .unwrap_err()
            .to_string()
            .contains("nested more than"));
    }
}

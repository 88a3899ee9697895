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
//! `m.sgf: game 2, action 17, line 20: B[61yg]: Black 61: 25/18 is not a legal move`.
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
    /// The format a file name's extension names (`.sgf`, `.mat`; any case).
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
/// when complete.
pub fn save(path: &Path, record: &MatchRecord, format: Format) -> Result<(), RecordError> {
    let name = path.display().to_string();
    let text = match format {
        Format::Sgf => write_sgf(record),
        Format::Mat => write_mat(record),
    }
    .map_err(|e| e.in_source(&name))?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = Path::new(&tmp);
    fs::write(tmp, text).map_err(|e| io_error(tmp, e))?;
    fs::rename(tmp, path).map_err(|e| io_error(path, e))
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

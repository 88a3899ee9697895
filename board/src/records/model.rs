//! The record model: a match of games, each a list of actions, independent of any file
//! format.

use std::fmt;

use crate::dice::Dice;
use crate::match_id::MAX_MATCH_LENGTH;
use crate::movegen::Move;
use crate::records::error::RecordError;
use crate::step::Step;
use crate::variant::Variant;

/// One of the two players of a record, by gnubg's numbering.
///
/// | seat | gnubg | board drawing | SGF | `.mat` |
/// |------|-------|---------------|-----|--------|
/// | `White` | player 0 | O | `W`, `PW` | left column, first name |
/// | `Black` | player 1 | X | `B`, `PB` | right column, second name |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// gnubg's player 0 (O), SGF White.
    White = 0,
    /// gnubg's player 1 (X), SGF Black.
    Black = 1,
}

impl Seat {
    /// Both seats, White first.
    pub const BOTH: [Seat; 2] = [Seat::White, Seat::Black];

    /// 0 for White, 1 for Black (an index into [`MatchRecord::players`] and scores).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with this index (0 or 1).
    pub const fn from_index(i: usize) -> Option<Seat> {
        match i {
            0 => Some(Seat::White),
            1 => Some(Seat::Black),
            _ => None,
        }
    }

    /// The other player.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::White => Seat::Black,
            Seat::Black => Seat::White,
        }
    }

    /// The SGF colour letter, `W` or `B`.
    pub const fn sgf_letter(self) -> char {
        match self {
            Seat::White => 'W',
            Seat::Black => 'B',
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::White => "White",
            Seat::Black => "Black",
        })
    }
}

/// Rules of a match or money session. `crawford` only matters in match play,
/// `jacoby` and `beavers` only in money play; the file readers set the ones that do
/// not matter to their defaults (`crawford` true, the others false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The doubling cube is in use.
    pub cube: bool,
    /// Match play: the Crawford rule (no doubling in the game after a player first
    /// reaches match point).
    pub crawford: bool,
    /// Money play: the Jacoby rule (gammons count single until the cube is turned).
    pub jacoby: bool,
    /// Money play: a player who is doubled may beaver (take and redouble at once,
    /// keeping the cube).
    pub beavers: bool,
}

impl Default for Rules {
    /// Cube in use, Crawford rule on, Jacoby and beavers off.
    fn default() -> Rules {
        Rules {
            cube: true,
            crawford: true,
            jacoby: false,
            beavers: false,
        }
    }
}

/// A calendar date, as SGF `DT` (`YYYY-MM-DD`) and `.mat` `EventDate` (`YYYY.MM.DD`)
/// write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    /// Year, e.g. 2025.
    pub year: u16,
    /// Month, 1..=12.
    pub month: u8,
    /// Day of the month, 1..=31.
    pub day: u8,
}

impl Date {
    /// Reads `YYYY-MM-DD` or `YYYY.MM.DD` (anything after the day is ignored).
    pub fn parse(text: &str) -> Option<Date> {
        let mut parts = text.trim().splitn(3, ['-', '.']);
        let year = parts.next()?.trim().parse().ok()?;
        let month = parts.next()?.trim().parse().ok()?;
        let rest = parts.next()?;
        let day_digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let day = day_digits.parse().ok()?;
        let date = Date { year, month, day };
        ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some(date)
    }
}

/// Descriptive data about a match: all optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MatchInfo {
    /// Event (SGF `EV`, `.mat` `Event`).
    pub event: Option<String>,
    /// Round (SGF `RO`, `.mat` `Round`).
    pub round: Option<String>,
    /// Place (SGF `PC`, `.mat` `Site`).
    pub place: Option<String>,
    /// Date (SGF `DT`, `.mat` `EventDate`).
    pub date: Option<Date>,
    /// Annotator (SGF `AN`, `.mat` `Transcriber`).
    pub annotator: Option<String>,
    /// Free comment (SGF `GC`, `.mat` comment lines).
    pub comment: Option<String>,
    /// The players' ratings, White's first (SGF `WR`, `BR`).
    pub ratings: [Option<String>; 2],
}

/// How much a resigning player offers to lose, in multiples of the cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resignation {
    /// A single game (1 × cube).
    Single = 1,
    /// A gammon (2 × cube).
    Gammon = 2,
    /// A backgammon (3 × cube).
    Backgammon = 3,
}

impl Resignation {
    /// 1, 2 or 3.
    pub const fn multiplier(self) -> u32 {
        self as u32
    }

    /// The level for a multiplier, clamped to 1..=3 as gnubg does.
    pub const fn from_multiplier(n: u32) -> Resignation {
        match n {
            0 | 1 => Resignation::Single,
            2 => Resignation::Gammon,
            _ => Resignation::Backgammon,
        }
    }
}

/// One thing a player did. `seat` is always the player who acted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Rolled `dice` and moved `steps` (in the mover's own point numbers, 25 = bar,
    /// 0 = off, in played order, with hits marked). No steps: the player danced (had
    /// no legal move).
    Move {
        /// Who moved.
        seat: Seat,
        /// The roll.
        dice: Dice,
        /// The checker movements, one per die used.
        steps: Vec<Step>,
    },
    /// Offered the cube at twice its value.
    Double {
        /// Who doubled.
        seat: Seat,
    },
    /// Accepted a double (or, after a beaver, the redouble).
    Take {
        /// Who took.
        seat: Seat,
    },
    /// Refused a double (or, after a beaver, the redouble) and lost the game.
    Drop {
        /// Who dropped.
        seat: Seat,
    },
    /// Took a double and at once redoubled, keeping the cube (money play with
    /// [`Rules::beavers`]); the original doubler then takes or drops.
    Beaver {
        /// Who beavered.
        seat: Seat,
    },
    /// Offered to resign, losing `level` times the cube.
    Resign {
        /// Who offered.
        seat: Seat,
        /// How much they offered to lose.
        level: Resignation,
    },
    /// Accepted the opponent's resignation, which ends the game.
    AcceptResignation {
        /// Who accepted.
        seat: Seat,
    },
    /// Declined the opponent's resignation; play goes on.
    RejectResignation {
        /// Who declined.
        seat: Seat,
    },
    /// The cube was set by hand (a board edit, as gnubg's SGF `CV`/`CP` nodes): its
    /// value and owner (`None` = centred).
    SetCube {
        /// Cube value, a power of two.
        value: u32,
        /// Owner, `None` for centred.
        owner: Option<Seat>,
    },
}

impl Action {
    /// A move action from a [`Move`] of the move generator (or
    /// [`crate::Position::parse_move`]).
    pub fn from_move(seat: Seat, dice: Dice, mv: &Move) -> Action {
        Action::Move {
            seat,
            dice,
            steps: mv.steps().to_vec(),
        }
    }

    /// A dance: the roll had no legal move.
    pub fn dance(seat: Seat, dice: Dice) -> Action {
        Action::Move {
            seat,
            dice,
            steps: Vec::new(),
        }
    }

    /// The player who acted (`None` for [`Action::SetCube`]).
    pub fn seat(&self) -> Option<Seat> {
        match *self {
            Action::Move { seat, .. }
            | Action::Double { seat }
            | Action::Take { seat }
            | Action::Drop { seat }
            | Action::Beaver { seat }
            | Action::Resign { seat, .. }
            | Action::AcceptResignation { seat }
            | Action::RejectResignation { seat } => Some(seat),
            Action::SetCube { .. } => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner.
    pub winner: Seat,
    /// Points won: cube value times 1, 2 or 3 (not capped at the match length, as
    /// gnubg records it).
    pub points: u32,
    /// The loser resigned (rather than being borne off against or dropping).
    pub resigned: bool,
}

/// One game of a match.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameRecord {
    /// The score before the game, White's first.
    pub score: [u32; 2],
    /// This is the Crawford game (match play: no doubling).
    pub crawford: bool,
    /// Everything that happened, in order.
    pub actions: Vec<Action>,
    /// How the game ended; `None` while unfinished. Replaying checks that the actions
    /// lead to exactly this.
    pub result: Option<GameResult>,
}

impl GameRecord {
    /// An empty game at this score.
    pub fn new(score: [u32; 2], crawford: bool) -> GameRecord {
        GameRecord {
            score,
            crawford,
            actions: Vec::new(),
            result: None,
        }
    }
}

/// A match (or money session) and its games.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MatchRecord {
    /// The players' names, White's (gnubg player 0) first.
    pub players: [String; 2],
    /// Points to win the match; 0 for money play.
    pub match_length: u32,
    /// The variant (starting position and checkers).
    pub variant: Variant,
    /// Cube rules.
    pub rules: Rules,
    /// Event, date and other descriptions.
    pub info: MatchInfo,
    /// The games, in order.
    pub games: Vec<GameRecord>,
}

impl MatchRecord {
    /// A match with no games yet, default rules (see [`Rules::default`]) and no
    /// descriptions.
    pub fn new(white: &str, black: &str, match_length: u32, variant: Variant) -> MatchRecord {
        MatchRecord {
            players: [white.to_string(), black.to_string()],
            match_length,
            variant,
            rules: Rules::default(),
            info: MatchInfo::default(),
            games: Vec::new(),
        }
    }

    /// Refuses a match length above gnubg's limit (64 points; 0 is money play): gnubg
    /// refuses such a match in either format, and a Match ID cannot carry it.
    pub(crate) fn check_length(length: u32) -> Result<(), RecordError> {
        if length > MAX_MATCH_LENGTH {
            return Err(Self::length_too_long(length));
        }
        Ok(())
    }

    /// The error for a match length above gnubg's limit, given as read (it may not fit
    /// any integer type).
    pub(crate) fn length_too_long(length: impl std::fmt::Display) -> RecordError {
        RecordError::unsupported(format!(
            "match length {length} exceeds {MAX_MATCH_LENGTH} (gnubg's limit)"
        ))
    }

    /// The score after the last finished game (White's first): the score the next
    /// game starts at.
    pub fn score_after(&self) -> [u32; 2] {
        let mut score = [0, 0];
        if let Some(last) = self.games.last() {
            score = last.score;
            if let Some(r) = last.result {
                let s = &mut score[r.winner.index()];
                *s = s.saturating_add(r.points);
            }
        }
        score
    }

    /// Whether a player has reached the match length (never in money play).
    pub fn is_over(&self) -> bool {
        let s = self.score_after();
        self.match_length > 0 && s.iter().any(|&p| p >= self.match_length)
    }

    /// Whether the game after `games[..n]` (starting at `score`) is the Crawford game:
    /// match play with the Crawford rule, exactly one player one point from winning,
    /// and no earlier game at such a score (or marked Crawford).
    pub(crate) fn crawford_due(&self, n: usize, score: [u32; 2]) -> bool {
        let len = self.match_length;
        if len == 0 || !self.rules.crawford {
            return false;
        }
        // Exactly one player at match point (at double match point the Crawford game
        // is over), as gnubg decides it.
        let one_away = |p: u32| p.checked_add(1) == Some(len);
        let at_match_point = |s: [u32; 2]| one_away(s[0]) != one_away(s[1]);
        if !at_match_point(score) || score.iter().any(|&p| p >= len) {
            return false;
        }
        // Post-Crawford if any earlier game already started at match point.
        !self.games[..n]
            .iter()
            .any(|g| at_match_point(g.score) || g.crawford)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_both_separators() {
        let d = Date {
            year: 2024,
            month: 3,
            day: 9,
        };
        assert_eq!(Date::parse("2024-03-09"), Some(d));
        assert_eq!(Date::parse("2024.03.09"), Some(d));
        assert_eq!(Date::parse("2024.3.9 extra"), Some(d));
        assert_eq!(Date::parse("2024-13-01"), None);
        assert_eq!(Date::parse("yesterday"), None);
    }

    #[test]
    fn seats_follow_gnubg_numbering() {
        assert_eq!(Seat::White.index(), 0);
        assert_eq!(Seat::Black.other(), Seat::White);
        assert_eq!(Seat::from_index(1), Some(Seat::Black));
        assert_eq!(Seat::from_index(2), None);
        assert_eq!(Resignation::from_multiplier(5), Resignation::Backgammon);
    }

    #[test]
    fn the_crawford_game_comes_once() {
        let mut m = MatchRecord::new("a", "b", 3, Variant::Backgammon);
        assert!(!m.crawford_due(0, [0, 0]));
        assert!(m.crawford_due(0, [2, 0]));
        m.games.push(GameRecord::new([2, 0], true));
        assert!(!m.crawford_due(1, [2, 1]));
        m.rules.crawford = false;
        assert!(!m.crawford_due(0, [2, 0]));
        let money = MatchRecord::new("a", "b", 0, Variant::Backgammon);
        assert!(!money.crawford_due(0, [2, 0]));
    }
}

//! eXtreme Gammon's XGID: a position and match state in one line.
//!
//! `XGID=<board>:<cube>:<cubepos>:<turn>:<dice>:<score1>:<score2>:<rules>:<length>:<maxcube>`
//!
//! * board: 26 characters. Character 0 is the lower-case player's bar, 1..=24 are the
//!   points 1..=24 counted from the upper-case player's side, 25 is the upper-case
//!   player's bar. `A`..`P` are 1..16 upper-case checkers, `a`..`p` lower-case, `-` empty.
//!   The upper-case player is gnubg's player 1 (X), the lower-case player is player 0.
//! * cube: log2 of the cube value; cubepos: 1 upper-case owns, 0 centred, -1 lower-case.
//! * turn: 1 upper-case player's turn, -1 lower-case.
//! * dice: `00` not rolled, `D` a double offered (the other player decides), else two digits.
//! * score1 / score2: upper-case / lower-case player's score.
//! * rules: in match play 1 = Crawford game; in money play bit 0 = Jacoby, bit 1 = beaver.
//! * length: match length, 0 = money; maxcube: XG's cube limit (0 = cubeless).

use crate::match_id::{CubeOwner, MatchState, MAX_MATCH_LENGTH};
use crate::position::{Position, PositionError, Side, BAR, SLOTS};

/// A decoded XGID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Xgid {
    /// The board with the player whose turn it is (`state.on_roll`) in `sides[1]`.
    pub position: Position,
    /// Cube, score, dice and rules, in gnubg's terms (player 1 = upper case).
    pub state: MatchState,
    /// Beavers allowed (money play, rules bit 1).
    pub beaver: bool,
    /// XG's maximum cube field (log2), kept for re-encoding.
    pub max_cube: u32,
}

/// Why an XGID could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum XgidError {
    /// A field is missing, malformed or out of range.
    #[error("XGID '{id}': {reason}")]
    Field {
        /// The text given.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// The board breaks the rules.
    #[error("XGID '{id}' has an invalid position: {source}")]
    Position {
        /// The text given.
        id: String,
        /// The rule it breaks.
        source: PositionError,
    },
}

/// `text` after its `XGID=` prefix (in any case), or `None` when it has none.
pub(crate) fn strip_prefix(text: &str) -> Option<&str> {
    let (head, body) = (text.get(..5)?, text.get(5..)?);
    head.eq_ignore_ascii_case("XGID=").then_some(body)
}

impl Xgid {
    /// Parses an XGID, with or without the `XGID=` prefix (in any case).
    pub fn parse(text: &str) -> Result<Xgid, XgidError> {
        let id = text.trim();
        let err = |reason: String| XgidError::Field {
            id: id.to_string(),
            reason,
        };
        let body = strip_prefix(id).unwrap_or(id);
        let fields: Vec<&str> = body.split(':').collect();
        if fields.len() != 10 {
            return Err(err(format!(
                "expected 10 ':'-separated fields, found {}",
                fields.len()
            )));
        }
        let board = fields[0].as_bytes();
        if board.len() != 26 {
            return Err(err(format!(
                "the board field has {} characters (expected 26)",
                board.len()
            )));
        }
        let int = |k: usize, name: &str| -> Result<i64, XgidError> {
            fields[k]
                .parse::<i64>()
                .map_err(|_| err(format!("{name} '{}' is not a number", fields[k])))
        };
        // upper[i]: upper-case player's own slots; lower[i]: lower-case player's own slots.
        let mut upper: Side = [0; SLOTS];
        let mut lower: Side = [0; SLOTS];
        for (k, &c) in board.iter().enumerate() {
            let (count, is_upper) = match c {
                b'-' => continue,
                b'A'..=b'P' => (c - b'A' + 1, true),
                b'a'..=b'p' => (c - b'a' + 1, false),
                _ => return Err(err(format!("invalid board character '{}' at {k}", c as char))),
            };
            match (k, is_upper) {
                (0, true) | (25, false) => {
                    return Err(err(format!(
                        "character {k} is a bar that belongs to the other player"
                    )));
                }
                (0, false) => lower[BAR] = count,
                (25, true) => upper[BAR] = count,
                (k, true) => upper[k - 1] = count,
                (k, false) => lower[24 - k] = count,
            }
        }
        let cube_log = int(1, "cube")?;
        if !(0..=15).contains(&cube_log) {
            return Err(err(format!("cube exponent {cube_log} is not 0-15")));
        }
        let cube_owner = match int(2, "cube position")? {
            1 => CubeOwner::Player1,
            0 => CubeOwner::Centred,
            -1 => CubeOwner::Player0,
            v => return Err(err(format!("cube position {v} is not -1, 0 or 1"))),
        };
        let on_roll: u8 = match int(3, "turn")? {
            1 => 1,
            -1 => 0,
            v => return Err(err(format!("turn {v} is not 1 or -1"))),
        };
        let (dice, double_offered) = match fields[4] {
            "00" => (None, false),
            "D" | "d" => (None, true),
            d if d.len() == 2 && d.bytes().all(|b| (b'1'..=b'6').contains(&b)) => {
                let b = d.as_bytes();
                (Some((b[0] - b'0', b[1] - b'0')), false)
            }
            d => return Err(err(format!("dice '{d}' are not 00, D or two digits 1-6"))),
        };
        // Every number is range-checked as given, before it is narrowed: a value that
        // does not fit is refused, never wrapped into another meaning.
        let ranged = |k: usize, name: &str, max: i64| -> Result<u32, XgidError> {
            let v = int(k, name)?;
            if !(0..=max).contains(&v) {
                return Err(err(format!("{name} {v} is not 0-{max}")));
            }
            Ok(v as u32)
        };
        let score1 = ranged(5, "score1", 0x7fff)?;
        let score2 = ranged(6, "score2", 0x7fff)?;
        let rules = ranged(7, "rules", 3)?;
        let length = ranged(8, "match length", i64::from(MAX_MATCH_LENGTH))?;
        let max_cube = ranged(9, "max cube", 15)?;
        let money = length == 0;
        let state = MatchState {
            cube: 1 << cube_log,
            cube_owner,
            on_roll,
            crawford: !money && rules & 1 == 1,
            turn: if double_offered { 1 - on_roll } else { on_roll },
            double_offered,
            dice,
            match_length: length,
            score: [score2, score1],
            jacoby: money && rules & 1 == 1,
            ..MatchState::default()
        };
        state.validate().map_err(err)?;
        let (opp, me) = if on_roll == 1 {
            (lower, upper)
        } else {
            (upper, lower)
        };
        let position = Position::new(opp, me).map_err(|source| XgidError::Position {
            id: id.to_string(),
            source,
        })?;
        Ok(Xgid {
            position,
            state,
            beaver: money && rules & 2 == 2,
            max_cube,
        })
    }

    /// Writes the XGID (with the `XGID=` prefix).
    pub fn to_xgid(&self) -> String {
        let [opp, me] = *self.position.sides();
        let (upper, lower) = if self.state.on_roll == 1 {
            (me, opp)
        } else {
            (opp, me)
        };
        let mut board = [b'-'; 26];
        let letter = |n: u8, base: u8| base + n - 1;
        if lower[BAR] > 0 {
            board[0] = letter(lower[BAR], b'a');
        }
        if upper[BAR] > 0 {
            board[25] = letter(upper[BAR], b'A');
        }
        for k in 1..=24 {
            if upper[k - 1] > 0 {
                board[k] = letter(upper[k - 1], b'A');
            } else if lower[24 - k] > 0 {
                board[k] = letter(lower[24 - k], b'a');
            }
        }
        let s = &self.state;
        let cubepos = match s.cube_owner {
            CubeOwner::Player1 => 1,
            CubeOwner::Centred => 0,
            CubeOwner::Player0 => -1,
        };
        let turn = if s.on_roll == 1 { 1 } else { -1 };
        let dice = match (s.double_offered, s.dice) {
            (true, _) => "D".to_string(),
            (false, None) => "00".to_string(),
            (false, Some((a, b))) => format!("{a}{b}"),
        };
        let rules = if s.match_length > 0 {
            u32::from(s.crawford)
        } else {
            u32::from(s.jacoby) | u32::from(self.beaver) << 1
        };
        format!(
            "XGID={}:{}:{}:{}:{}:{}:{}:{}:{}:{}",
            String::from_utf8_lossy(&board),
            s.cube.trailing_zeros(),
            cubepos,
            turn,
            dice,
            s.score[1],
            s.score[0],
            rules,
            s.match_length,
            self.max_cube
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn the_published_start_position_decodes() {
        let text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";
        let x = Xgid::parse(text).unwrap();
        assert_eq!(x.position, Variant::Backgammon.start());
        assert_eq!(
            (x.state.on_roll, x.state.dice, x.state.match_length),
            (1, None, 0)
        );
        assert_eq!(x.to_xgid(), text);
    }

    #[test]
    fn lower_case_to_move_puts_lower_case_on_roll() {
        // Upper case has moved 8/5 6/5 (31); lower case on roll with 52.
        // 6-1 in a 7-point match after the Crawford game (rules 0), cube 2 owned.
        let text = "XGID=-b---BD-B---eE---c-e----B-:1:-1:-1:52:6:1:0:7:10";
        let x = Xgid::parse(text).unwrap();
        let me = x.position.on_roll();
        assert_eq!(me[5], 5, "lower case still has five on its 6-point");
        let opp = x.position.opponent();
        assert_eq!((opp[4], opp[5], opp[7]), (2, 4, 2));
        assert_eq!(x.state.score, [1, 6]);
        assert_eq!((x.state.cube, x.state.cube_owner), (2, CubeOwner::Player0));
        assert!(!x.state.crawford);
        assert_eq!(x.to_xgid(), text);
        // The same as the Crawford game (rules 1): the cube stays at 1 in the middle
        // then; gnubg's `set xgid` resets such a cube ("The cube is disabled during the
        // Crawford game"), bgkit refuses it.
        let e = Xgid::parse("XGID=-b---BD-B---eE---c-e----B-:1:-1:-1:52:6:1:1:7:10").unwrap_err();
        assert!(
            e.to_string()
                .contains("the cube must be 1 and in the middle in the Crawford game"),
            "{e}"
        );
        let e = Xgid::parse("XGID=-b---BD-B---eE---c-e----B-:0:0:-1:D:6:1:1:7:10").unwrap_err();
        assert!(
            e.to_string().contains("a double is offered in the Crawford game"),
            "{e}"
        );
        let crawford = Xgid::parse("XGID=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10").unwrap();
        assert!(crawford.state.crawford);
        assert_eq!(
            (crawford.state.cube, crawford.state.cube_owner),
            (1, CubeOwner::Centred)
        );
    }

    #[test]
    fn malformed_xgids_name_the_problem() {
        let e = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0").unwrap_err();
        assert!(e.to_string().contains("10 ':'-separated fields"), "{e}");
        let e = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10").unwrap_err();
        assert!(e.to_string().contains("dice '77'"), "{e}");
        let e = Xgid::parse("XGID=-b----E-C---eE---c-e----B?:0:0:1:00:0:0:0:0:10").unwrap_err();
        assert!(e.to_string().contains("'?'"), "{e}");
    }

    /// Issue 19: "XGID fields are cast to u32 before validation: cube value 8589934592
    /// is shown as a money game". 8589934592 = 2^33 wrapped to 0 (money) when cast.
    #[test]
    fn xgid_fields_cast_to_u32_before_validation() {
        let start = "-b----E-C---eE---c-e----B-";
        for (fields, needle) in [
            (
                "0:0:1:00:0:0:0:8589934592:10",
                "match length 8589934592 is not 0-64",
            ),
            ("0:0:1:00:8589934592:0:0:9:10", "score1 8589934592 is not 0-32767"),
            ("0:0:1:00:0:4294967297:0:0:10", "score2 4294967297 is not 0-32767"),
            ("0:0:1:00:0:0:4294967297:9:10", "rules 4294967297 is not 0-3"),
            ("0:0:1:00:0:0:0:0:4294967306", "max cube 4294967306 is not 0-15"),
            ("8589934592:0:1:00:0:0:0:0:10", "cube exponent 8589934592"),
            ("0:0:1:00:0:0:0:65:10", "match length 65 is not 0-64"),
            ("0:0:1:00:0:0:0:99999999999999999999:10", "is not a number"),
        ] {
            let e = Xgid::parse(&format!("XGID={start}:{fields}")).unwrap_err();
            assert!(e.to_string().contains(needle), "{fields}: {e}");
        }
        let x = Xgid::parse(&format!("XGID={start}:0:0:1:00:0:0:0:64:10")).unwrap();
        assert_eq!(x.state.match_length, 64);
    }
}

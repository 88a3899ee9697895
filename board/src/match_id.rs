//! gnubg Match IDs: the 67-bit match and cube state written as 12 Base64 characters.
//!
//! Bits are packed least significant first into 9 bytes (offsets 0-based):
//!
//! | bits  | field |
//! |-------|-------|
//! | 0-3   | log2 of the cube value |
//! | 4-5   | cube owner: 0 player 0, 1 player 1, 3 centred |
//! | 6     | player on roll (`fMove`) |
//! | 7     | Crawford game |
//! | 8-10  | game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped |
//! | 11    | player to decide now (`fTurn`) |
//! | 12    | double offered |
//! | 13-14 | resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon |
//! | 15-20 | dice, larger first, 0 = not rolled |
//! | 21-35 | match length, 0 = money |
//! | 36-65 | scores of player 0 and player 1 |
//! | 66    | Jacoby rule **not** in use |

use crate::base64;

/// Characters in a Match ID.
pub const MATCH_ID_LEN: usize = 12;

/// The longest match gnubg accepts (its `MAXSCORE`); a Match ID's 15-bit length field
/// could say more, gnubg refuses it.
pub const MAX_MATCH_LENGTH: u32 = 64;

/// The largest cube gnubg plays (its `MAX_CUBE`, 2¹²); a Match ID's 4-bit cube field
/// could say 2¹⁵, gnubg refuses a cube above this one ("You must specify a legal cube
/// value") and refuses to double it.
pub const MAX_CUBE: u32 = 1 << 12;

/// Who owns the cube.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CubeOwner {
    /// Nobody: the cube is in the middle.
    #[default]
    Centred,
    /// Player 0 (gnubg's "O", SGF White).
    Player0,
    /// Player 1 (gnubg's "X", SGF Black).
    Player1,
}

/// gnubg's game states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameState {
    /// No game started.
    None = 0,
    /// A game is being played.
    #[default]
    Playing = 1,
    /// The game is over.
    Over = 2,
    /// The game ended by resignation.
    Resigned = 3,
    /// The game ended by a dropped double.
    Dropped = 4,
}

/// Everything a Match ID holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchState {
    /// Cube value (a power of two, 1..=[`MAX_CUBE`]).
    pub cube: u32,
    /// Cube owner.
    pub cube_owner: CubeOwner,
    /// The player on roll, 0 or 1 (gnubg's `fMove`).
    pub on_roll: u8,
    /// This is the Crawford game.
    pub crawford: bool,
    /// State of the game.
    pub game_state: GameState,
    /// The player who must decide now, 0 or 1 (gnubg's `fTurn`).
    pub turn: u8,
    /// A double has been offered.
    pub double_offered: bool,
    /// Resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon.
    pub resignation: u8,
    /// The dice rolled, or `None` before rolling.
    pub dice: Option<(u8, u8)>,
    /// Match length; 0 means money play.
    pub match_length: u32,
    /// Scores of player 0 and player 1.
    pub score: [u32; 2],
    /// The Jacoby rule is in use (money play).
    pub jacoby: bool,
}

impl Default for MatchState {
    /// A money game in progress, cube centred at 1, player 0 to roll, Jacoby off.
    fn default() -> MatchState {
        MatchState {
            cube: 1,
            cube_owner: CubeOwner::Centred,
            on_roll: 0,
            crawford: false,
            game_state: GameState::Playing,
            turn: 0,
            double_offered: false,
            resignation: 0,
            dice: None,
            match_length: 0,
            score: [0, 0],
            jacoby: false,
        }
    }
}

/// Why a Match ID (or a match state to encode) is invalid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MatchIdError {
    /// The ID is not 12 characters long.
    #[error("match ID '{id}' has {len} characters (expected 12)")]
    Length {
        /// The text given.
        id: String,
        /// Its length.
        len: usize,
    },
    /// A character outside the Base64 alphabet.
    #[error("match ID '{id}' has an invalid character '{ch}' at position {at}")]
    Character {
        /// The text given.
        id: String,
        /// The offending character.
        ch: char,
        /// Its index (0-based).
        at: usize,
    },
    /// A field holds a value gnubg would reject.
    #[error("match ID '{id}': {reason}")]
    Field {
        /// The text given (empty when encoding).
        id: String,
        /// Which field and why.
        reason: String,
    },
}

fn set_bits(key: &mut [u8; 9], at: usize, width: usize, value: u32) {
    for i in 0..width {
        if value >> i & 1 == 1 {
            key[(at + i) / 8] |= 1 << ((at + i) % 8);
        }
    }
}

fn get_bits(key: &[u8; 9], at: usize, width: usize) -> u32 {
    (0..width).fold(0, |v, i| {
        v | (u32::from(key[(at + i) / 8] >> ((at + i) % 8) & 1) << i)
    })
}

impl MatchState {
    /// Checks the fields against the ranges a Match ID can carry and gnubg's rules.
    pub fn validate(&self) -> Result<(), String> {
        if !self.cube.is_power_of_two() {
            return Err(format!("cube value {} is not a power of two", self.cube));
        }
        if self.cube > MAX_CUBE {
            return Err(format!(
                "cube value {} is above {MAX_CUBE}, gnubg's largest cube",
                self.cube
            ));
        }
        if self.double_offered && self.cube == MAX_CUBE {
            return Err(format!(
                "a double is offered with the cube at {MAX_CUBE}, gnubg's largest cube"
            ));
        }
        if self.on_roll > 1 || self.turn > 1 {
            return Err(format!(
                "players are 0 or 1 (on roll {}, turn {})",
                self.on_roll, self.turn
            ));
        }
        if self.resignation > 3 {
            return Err(format!("resignation level {} is not 0-3", self.resignation));
        }
        if let Some((a, b)) = self.dice {
            if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
                return Err(format!("dice {a} and {b} are not both 1-6"));
            }
        }
        if self.match_length > MAX_MATCH_LENGTH {
            return Err(format!(
                "match length {} exceeds {MAX_MATCH_LENGTH} (gnubg's limit)",
                self.match_length
            ));
        }
        if self.match_length > 0 {
            if let Some(s) = self.score.iter().find(|&&s| s > self.match_length) {
                return Err(format!(
                    "score {s} is above the match length {}",
                    self.match_length
                ));
            }
            let away = self.match_length - 1;
            let one_away = self.score.iter().filter(|&&s| s == away).count();
            if self.crawford && (one_away != 1 || self.score.iter().any(|&s| s > away)) {
                return Err(format!(
                    "the Crawford flag is set at {}-{} in a {}-point match (the Crawford \
                     game needs exactly one player 1-away)",
                    self.score[0], self.score[1], self.match_length
                ));
            }
            // No one may double in the Crawford game (gnubg's `set xgid` resets such a
            // cube to 1 with "The cube is disabled during the Crawford game").
            if self.crawford && (self.cube != 1 || self.cube_owner != CubeOwner::Centred) {
                return Err(format!(
                    "the cube must be 1 and in the middle in the Crawford game, where no one \
                     doubles (it is {}{})",
                    self.cube,
                    match self.cube_owner {
                        CubeOwner::Centred => ", in the middle",
                        _ => ", owned",
                    },
                ));
            }
            if self.crawford && self.double_offered {
                return Err("a double is offered in the Crawford game, where no one doubles".into());
            }
        } else {
            if self.crawford {
                return Err("a money game cannot be the Crawford game".into());
            }
            if self.score.iter().any(|&s| s > 0x7fff) {
                return Err("scores exceed 32767".into());
            }
        }
        Ok(())
    }

    /// The 9-byte key.
    pub fn key(&self) -> Result<[u8; 9], MatchIdError> {
        self.validate().map_err(|reason| MatchIdError::Field {
            id: String::new(),
            reason,
        })?;
        let mut key = [0u8; 9];
        set_bits(&mut key, 0, 4, self.cube.trailing_zeros());
        let owner = match self.cube_owner {
            CubeOwner::Player0 => 0,
            CubeOwner::Player1 => 1,
            CubeOwner::Centred => 3,
        };
        set_bits(&mut key, 4, 2, owner);
        set_bits(&mut key, 6, 1, self.on_roll.into());
        set_bits(&mut key, 7, 1, self.crawford.into());
        set_bits(&mut key, 8, 3, self.game_state as u32);
        set_bits(&mut key, 11, 1, self.turn.into());
        set_bits(&mut key, 12, 1, self.double_offered.into());
        set_bits(&mut key, 13, 2, self.resignation.into());
        let (hi, lo) = match self.dice {
            Some((a, b)) => (a.max(b), a.min(b)),
            None => (0, 0),
        };
        set_bits(&mut key, 15, 3, hi.into());
        set_bits(&mut key, 18, 3, lo.into());
        set_bits(&mut key, 21, 15, self.match_length);
        set_bits(&mut key, 36, 15, self.score[0]);
        set_bits(&mut key, 51, 15, self.score[1]);
        set_bits(&mut key, 66, 1, (!self.jacoby).into());
        Ok(key)
    }

    /// The gnubg Match ID (12 characters).
    pub fn match_id(&self) -> Result<String, MatchIdError> {
        Ok(base64::encode(&self.key()?, MATCH_ID_LEN))
    }

    /// Decodes a gnubg Match ID, with gnubg's checks (dice 0-6, match length at most
    /// 64, scores not above the match length, no Crawford game in money play) and a few
    /// more where gnubg silently changes or keeps an impossible state (one die rolled
    /// without the other, cube owner 2, game state above 4, a Crawford flag without
    /// exactly one player 1-away, which gnubg drops, a cube turned or offered in the
    /// Crawford game, which gnubg's `set xgid` resets to 1). Money sessions keep a running
    /// score in gnubg, so a money game with a score is accepted.
    pub fn from_id(id: &str) -> Result<MatchState, MatchIdError> {
        let text = id.trim();
        let len = text.chars().count();
        if len != MATCH_ID_LEN {
            return Err(MatchIdError::Length {
                id: text.to_string(),
                len,
            });
        }
        let key = base64::decode::<9>(text).map_err(|(at, ch)| MatchIdError::Character {
            id: text.to_string(),
            ch,
            at,
        })?;
        let field = |reason: String| MatchIdError::Field {
            id: text.to_string(),
            reason,
        };
        let cube_owner = match get_bits(&key, 4, 2) {
            0 => CubeOwner::Player0,
            1 => CubeOwner::Player1,
            3 => CubeOwner::Centred,
            _ => return Err(field("cube owner field is 2 (only 0, 1 and 3 are used)".into())),
        };
        let game_state = match get_bits(&key, 8, 3) {
            0 => GameState::None,
            1 => GameState::Playing,
            2 => GameState::Over,
            3 => GameState::Resigned,
            4 => GameState::Dropped,
            g => return Err(field(format!("game state {g} is not 0-4"))),
        };
        let (d0, d1) = (get_bits(&key, 15, 3) as u8, get_bits(&key, 18, 3) as u8);
        let dice = match (d0, d1) {
            (0, 0) => None,
            (a, b) if a == 0 || b == 0 => {
                return Err(field(format!(
                    "the dice fields say one die is rolled ({}) and the other is not",
                    a.max(b)
                )));
            }
            (a, b) if a > 6 || b > 6 => {
                return Err(field(format!(
                    "the dice fields hold {a} and {b}; each die is 1-6"
                )));
            }
            (a, b) => Some((a, b)),
        };
        let state = MatchState {
            cube: 1 << get_bits(&key, 0, 4),
            cube_owner,
            on_roll: get_bits(&key, 6, 1) as u8,
            crawford: get_bits(&key, 7, 1) == 1,
            game_state,
            turn: get_bits(&key, 11, 1) as u8,
            double_offered: get_bits(&key, 12, 1) == 1,
            resignation: get_bits(&key, 13, 2) as u8,
            dice,
            match_length: get_bits(&key, 21, 15),
            score: [get_bits(&key, 36, 15), get_bits(&key, 51, 15)],
            jacoby: get_bits(&key, 66, 1) == 0,
        };
        state.validate().map_err(field)?;
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex_key(id: &str) -> [u8; 9] {
        MatchState::from_id(id).unwrap().key().unwrap()
    }

    /// The verified examples of the reference (ids-notation-records.md §2).
    #[test]
    fn reference_examples_decode_to_their_meaning_and_key() {
        let m = MatchState::from_id("QYkqASAAIAAA").unwrap();
        assert_eq!(
            hex_key("QYkqASAAIAAA"),
            [0x41, 0x89, 0x2A, 0x01, 0x20, 0x00, 0x20, 0x00, 0x00]
        );
        assert_eq!((m.match_length, m.score), (9, [2, 4]));
        assert_eq!((m.cube, m.cube_owner), (2, CubeOwner::Player0));
        assert_eq!((m.on_roll, m.dice), (1, Some((5, 2))));
        assert!(m.jacoby, "bit 66 clear reads as Jacoby in use");

        let m = MatchState::from_id("MIEFAAAAAAAA").unwrap();
        assert_eq!(
            (m.match_length, m.cube_owner, m.on_roll, m.dice),
            (0, CubeOwner::Centred, 0, Some((3, 1)))
        );

        let m = MatchState::from_id("cAkAAAAAAAAA").unwrap();
        assert_eq!((m.on_roll, m.dice, m.jacoby), (1, None, true));

        let m = MatchState::from_id("cAkLAAAAAAAE").unwrap();
        assert_eq!((m.on_roll, m.dice, m.jacoby), (1, Some((6, 2)), false));

        let m = MatchState::from_id("cIkmAQAAAAAE").unwrap();
        assert_eq!(
            (m.match_length, m.score, m.dice, m.jacoby),
            (9, [0, 0], Some((5, 1)), false)
        );

        for id in [
            "QYkqASAAIAAA",
            "MIEFAAAAAAAA",
            "cAkAAAAAAAAA",
            "cAkLAAAAAAAE",
            "cIkmAQAAAAAE",
        ] {
            assert_eq!(MatchState::from_id(id).unwrap().match_id().unwrap(), id);
        }
    }

    #[test]
    fn dice_are_written_larger_first() {
        let m = MatchState {
            dice: Some((1, 3)),
            ..MatchState::default()
        };
        let back = MatchState::from_id(&m.match_id().unwrap()).unwrap();
        assert_eq!(back.dice, Some((3, 1)));
    }

    #[test]
    fn invalid_ids_are_rejected_with_reasons() {
        // Score 10 in a 9-point match.
        let bad = MatchState {
            match_length: 9,
            score: [10, 0],
            ..MatchState::default()
        };
        assert!(bad
            .match_id()
            .unwrap_err()
            .to_string()
            .contains("above the match length"));
        let mut key = MatchState::default().key().unwrap();
        key[1] |= 0x80; // die 1 = 1, die 2 = 0
        let id = base64::encode(&key, 12);
        // Issue 19: the dice named as what they are, not as a two-digit "01".
        let e = MatchState::from_id(&id).unwrap_err().to_string();
        assert!(
            e.ends_with("the dice fields say one die is rolled (1) and the other is not"),
            "{e}"
        );
        assert!(MatchState::from_id("QYkqASAAIAA").is_err());
        assert!(MatchState::from_id("QYkqASAAIA.A")
            .unwrap_err()
            .to_string()
            .contains("'.'"));
        let crawford_money = MatchState {
            crawford: true,
            ..MatchState::default()
        };
        assert!(crawford_money.match_id().is_err());
        // gnubg 1.07's `set matchid` takes cubes up to 4096 and answers "You must
        // specify a legal cube value" above (the field could say 32768).
        for (log, ok) in [(12, true), (13, false), (15, false)] {
            let mut key = MatchState::default().key().unwrap();
            key[0] = (key[0] & 0xf0) | log;
            let got = MatchState::from_id(&base64::encode(&key, 12));
            assert_eq!(got.is_ok(), ok, "cube 2^{log}: {got:?}");
            if let Err(e) = got {
                assert!(e.to_string().contains("above 4096, gnubg's largest cube"), "{e}");
            }
        }
        // ... and gnubg does not double a 4096 cube.
        let offered = MatchState {
            cube: MAX_CUBE,
            double_offered: true,
            turn: 1,
            ..MatchState::default()
        };
        let e = offered.match_id().unwrap_err().to_string();
        assert!(e.contains("a double is offered with the cube at 4096"), "{e}");
    }
}

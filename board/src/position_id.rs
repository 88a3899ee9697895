//! gnubg Position IDs: 80-bit keys written as 14 Base64 characters.
//!
//! The key lists, for the player **not on roll** and then for the player on roll, each
//! of its 25 slots (points 1..=24, then the bar) as one `1` bit per checker followed by
//! a `0` bit. Bits fill the 10 key bytes least significant bit first. The ID is the
//! Base64 text of the key without the `==` padding.
//!
//! The ID is also a [`Position`]'s text: its `Display` and `Debug` forms and `FromStr`.

use std::fmt;

use crate::base64;
use crate::position::{Position, PositionError, Side, SLOTS};

/// Characters in a Position ID.
pub const POSITION_ID_LEN: usize = 14;

/// Why a Position ID could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionIdError {
    /// The ID is not 14 characters long.
    #[error("position ID '{id}' has {len} characters (expected 14)")]
    Length {
        /// The text given.
        id: String,
        /// Its length in characters.
        len: usize,
    },
    /// A character outside the Base64 alphabet.
    #[error("position ID '{id}' has an invalid character '{ch}' at position {at}")]
    Character {
        /// The text given.
        id: String,
        /// The offending character.
        ch: char,
        /// Its index (0-based).
        at: usize,
    },
    /// The bits do not describe 50 slots (too many checkers, too few bits, or in a key,
    /// stray bits at the end).
    #[error("position ID '{id}' is not a valid key: {reason}")]
    Key {
        /// The text given.
        id: String,
        /// What is wrong with the bits.
        reason: &'static str,
    },
    /// The key decodes to a board that breaks the rules.
    #[error("position ID '{id}' decodes to an invalid position: {source}")]
    Position {
        /// The text given.
        id: String,
        /// The rule it breaks.
        source: PositionError,
    },
}

impl Position {
    /// The 10-byte gnubg position key: for each of the 50 slots (the side not on roll
    /// first), one bit per checker followed by a zero, from the lowest bit on.
    pub fn key(&self) -> [u8; 10] {
        // A run of n ones per slot shifted into place: no branch per checker (a
        // bit-by-bit loop mispredicted at the end of nearly every slot; the evaluation
        // cache computes this for every position). A side takes at most 15 + 25 bits:
        // built in 64-bit words, then joined.
        let [(low, len), (high, high_len)] = self.sides().map(|side| {
            let (mut bits, mut at) = (0u64, 0u32);
            for &n in &side {
                bits |= ((1u64 << n) - 1) << at;
                at += u32::from(n) + 1;
            }
            (bits, at)
        });
        // Only a position built unchecked can hold more than 30 checkers.
        assert!(len + high_len <= 80, "more than 30 checkers: no position key");
        let bits = u128::from(low) | (u128::from(high) << len);
        let mut key = [0u8; 10];
        key.copy_from_slice(&bits.to_le_bytes()[..10]);
        key
    }

    /// The gnubg Position ID (14 characters).
    pub fn position_id(&self) -> String {
        base64::encode(&self.key(), POSITION_ID_LEN)
    }

    /// Decodes a 10-byte key, checking that it describes exactly 50 slots and a valid
    /// position: one position has one key (bgkit's dataset files rely on it).
    pub fn from_key(key: &[u8; 10]) -> Result<Position, (&'static str, Option<PositionError>)> {
        Self::decode_key(key, true)
    }

    /// [`Position::from_key`], refusing set bits after the 50th slot when `strict`, else
    /// ignoring them (as gnubg's decoder does with a Position ID).
    fn decode_key(key: &[u8; 10], strict: bool) -> Result<Position, (&'static str, Option<PositionError>)> {
        let mut sides = [[0u8; SLOTS]; 2];
        let mut bit = 0usize;
        let mut ones = 0u32;
        for side in sides.iter_mut() {
            for slot in side.iter_mut() {
                loop {
                    if bit >= 80 {
                        return Err(("the bits run out before all 50 slots are described", None));
                    }
                    let set = key[bit / 8] >> (bit % 8) & 1 == 1;
                    bit += 1;
                    if !set {
                        break;
                    }
                    ones += 1;
                    if ones > 30 {
                        return Err(("more than 30 checkers in all", None));
                    }
                    *slot += 1;
                }
            }
        }
        if strict && (bit..80).any(|b| key[b / 8] >> (b % 8) & 1 == 1) {
            return Err(("stray bits after the 50th slot", None));
        }
        let [opp, me]: [Side; 2] = sides;
        Position::new(opp, me).map_err(|e| ("", Some(e)))
    }

    /// Decodes a gnubg Position ID. Accepts the 14-character form, optionally followed
    /// by the `==` Base64 padding, and surrounding whitespace. As in gnubg, the last
    /// character's 4 bits beyond the key are ignored, so `ABMB` ends the same ID as
    /// `ABMA` (and [`Position::position_id`] gives the latter), and so are set bits
    /// after the 50th slot (`AAAAAAAAAAQAAA` is the empty board, `AAAAAAAAAAAAAA`).
    pub fn from_id(id: &str) -> Result<Position, PositionIdError> {
        let text = id.trim();
        let core = text.strip_suffix("==").unwrap_or(text);
        let len = core.chars().count();
        if len != POSITION_ID_LEN {
            return Err(PositionIdError::Length {
                id: text.to_string(),
                len,
            });
        }
        // The 14th character's last 4 bits lie beyond the 80-bit key: ignored, as gnubg
        // ignores them (its `set board sGfwATDgc/ABMB` shows sGfwATDgc/ABMA).
        let bytes = base64::decode::<10>(core).map_err(|(at, ch)| PositionIdError::Character {
            id: text.to_string(),
            ch,
            at,
        })?;
        Position::decode_key(&bytes, false).map_err(|(reason, source)| match source {
            Some(source) => PositionIdError::Position {
                id: text.to_string(),
                source,
            },
            None => PositionIdError::Key {
                id: text.to_string(),
                reason,
            },
        })
    }
}

// A position's text forms are its Position ID.

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.position_id())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position_id())
    }
}

impl std::str::FromStr for Position {
    type Err = PositionIdError;

    fn from_str(s: &str) -> Result<Position, PositionIdError> {
        Position::from_id(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Player;

    use crate::position::side_of as side;

    /// The verified examples of the reference (ids-notation-records.md §1.3).
    #[test]
    fn reference_examples_encode_and_decode() {
        const START: &[(usize, u8)] = &[(6, 5), (8, 3), (13, 5), (24, 2)];
        let start = START;
        type Points = &'static [(usize, u8)];
        let cases: &[(&str, Points, Points)] = &[
            ("4HPwATDgc/ABMA", start, start),
            (
                "sGfwATDgc/ABMA",
                &[(5, 2), (6, 4), (8, 2), (13, 5), (24, 2)],
                start,
            ),
            (
                "4HPwATCwZ/ABMA",
                start,
                &[(5, 2), (6, 4), (8, 2), (13, 5), (24, 2)],
            ),
            (
                "0HPkATCwZ/ABMA",
                &[(5, 1), (6, 4), (8, 3), (11, 1), (13, 4), (24, 2)],
                &[(5, 2), (6, 4), (8, 2), (13, 5), (24, 2)],
            ),
            (
                "yOfgAyDgc/AAWA",
                &[(4, 1), (6, 5), (8, 3), (13, 5), (24, 1)],
                &[(6, 5), (8, 3), (13, 4), (24, 2), (25, 1)],
            ),
            ("fN8HAACwAwAAAA", &[(3, 5), (4, 5), (5, 5)], &[(5, 2), (6, 3)]),
            (
                "2x0AAOi2AQAAAA",
                &[(1, 2), (2, 2), (3, 3), (4, 3)],
                &[(1, 1), (2, 3), (3, 2), (4, 2), (5, 2)],
            ),
            ("CgAAEAEAAAAAAA", &[(2, 1), (3, 1)], &[(2, 1), (5, 1)]),
            (
                "ADAAAQAkIAAAAA",
                &[(13, 2), (23, 1)],
                &[(15, 1), (17, 1), (24, 1)],
            ),
            (
                "g9vBASSYZ8wBBg",
                &[(1, 2), (6, 3), (7, 2), (8, 3), (13, 3), (22, 1), (24, 1)],
                &[(4, 2), (6, 4), (8, 2), (11, 2), (13, 3), (21, 2)],
            ),
        ];
        for &(id, opp, me) in cases {
            let pos = Position::new(side(opp), side(me)).unwrap();
            assert_eq!(pos.position_id(), id);
            assert_eq!(Position::from_id(id).unwrap(), pos, "{id}");
        }
    }

    /// The key as the format describes it, one bit at a time.
    fn key_bit_by_bit(pos: &Position) -> [u8; 10] {
        let mut key = [0u8; 10];
        let mut bit = 0usize;
        for side in pos.sides() {
            for &n in side {
                for _ in 0..n {
                    key[bit / 8] |= 1 << (bit % 8);
                    bit += 1;
                }
                bit += 1;
            }
        }
        key
    }

    #[test]
    fn key_equals_the_bit_by_bit_encoding() {
        let mut gen = crate::MoveGen::new();
        let mut positions = vec![crate::Variant::Backgammon.start()];
        for _ply in 0..2 {
            let mut next = Vec::new();
            for p in &positions {
                for d in crate::Dice::all() {
                    next.extend(gen.positions(p, d).iter().map(|r| r.swapped()));
                }
            }
            positions.extend(next);
        }
        // Extremes: all fifteen on one slot, on the bar (both: all 80 bits), borne off.
        positions.push(Position::new(side(&[(25, 15)]), side(&[(1, 15)])).unwrap());
        positions.push(Position::new(side(&[(25, 15)]), side(&[(25, 15)])).unwrap());
        positions.push(Position::new(side(&[]), side(&[(24, 15)])).unwrap());
        assert!(positions.len() > 1000);
        for p in &positions {
            assert_eq!(p.key(), key_bit_by_bit(p), "{}", p.position_id());
            assert_eq!(Position::from_key(&p.key()).unwrap(), *p);
        }
    }

    #[test]
    fn start_key_bytes_match_the_reference() {
        let key = crate::Variant::Backgammon.start().key();
        assert_eq!(key, [0xE0, 0x73, 0xF0, 0x01, 0x30, 0xE0, 0x73, 0xF0, 0x01, 0x30]);
    }

    #[test]
    fn padding_and_whitespace_are_accepted() {
        let pos = Position::from_id(" 4HPwATDgc/ABMA== ").unwrap();
        assert_eq!(pos.checkers(Player::OnRoll), 15);
    }

    #[test]
    fn bits_beyond_the_key_are_ignored_as_gnubg_does() {
        // gnubg 1.07: `set board sGfwATDgc/ABMB`, then `show board` prints the
        // Position ID sGfwATDgc/ABMA.
        for last in ['B', 'C', 'D', 'P'] {
            let id = format!("sGfwATDgc/ABM{last}");
            let pos = Position::from_id(&id).unwrap();
            assert_eq!(pos.position_id(), "sGfwATDgc/ABMA", "{id}");
        }
        // Bits after the 50th slot: gnubg's `positionfromid` reads AAAAAAAAAAQAAA as the
        // empty board and +bZBCAQAAAACAA as +bZBCAQAAAAAAA.
        for (id, gnubg) in [
            ("AAAAAAAAAAQAAA", "AAAAAAAAAAAAAA"),
            ("+bZBCAQAAAACAA", "+bZBCAQAAAAAAA"),
        ] {
            assert_eq!(Position::from_id(id).unwrap().position_id(), gnubg, "{id}");
        }
        // The last character's first 2 bits are key bits, read: from the start
        // position's 30 checkers, setting one makes 31, refused.
        let e = Position::from_id("4HPwATDgc/ABMQ").unwrap_err();
        assert!(e.to_string().contains("more than 30 checkers"), "{e}");
        // A key (as dataset files store them) stays strict: one position, one key.
        let mut key = [0u8; 10];
        key[7] = 0x10;
        assert_eq!(
            Position::from_key(&key).unwrap_err().0,
            "stray bits after the 50th slot"
        );
        let id = base64::encode(&key, 14);
        assert_eq!(Position::from_id(&id).unwrap().position_id(), "AAAAAAAAAAAAAA");
    }

    #[test]
    fn bad_ids_give_clear_errors() {
        let e = Position::from_id("4HPwATDgc/ABM").unwrap_err();
        assert!(e.to_string().contains("13 characters"), "{e}");
        let e = Position::from_id("4HPwATDgc/AB#A").unwrap_err();
        assert!(
            e.to_string().contains("invalid character '#' at position 12"),
            "{e}"
        );
        // All ones: far too many checkers.
        let e = Position::from_id("//////////////").unwrap_err();
        assert!(matches!(e, PositionIdError::Key { .. }), "{e}");
        // 16 checkers on the opponent's ace point: 16 ones, then 49 zeros.
        let mut key = [0u8; 10];
        key[0] = 0xff;
        key[1] = 0xff;
        let id = base64::encode(&key, 14);
        let e = Position::from_id(&id).unwrap_err();
        assert!(e.to_string().contains("16 checkers"), "{e}");
    }
}

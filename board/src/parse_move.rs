//! Reading moves from text and matching them to a legal move.
//!
//! Accepted forms, alone or mixed, with moves separated by spaces and/or commas:
//! * standard and gnubg notation: `24/18 13/7(2)`, `bar/22* 13/11`, `6/off`, `24/18/13`,
//!   `13/7*/5`, `8/5, 6/5` (any white space, line breaks included, separates moves);
//! * the `from-to` pairs of old BSD backgammon: `8-5,6-5`, with `b` for the bar and `h`
//!   (home) for off;
//! * `bar`/`b`/`25` for the bar and `off`/`o`/`h`/`home`/`0` for off, in any case.
//!
//! A chain `a/b/c` moves one checker through `b` (stopping there, so it hits a blot on
//! `b`); `a/c` moves it straight from `a` to `c`. `(n)` repeats a chain `n` times. A
//! `*` is accepted anywhere a hit happens and otherwise ignored: hits follow from the
//! board. The text is matched by the position it leads to: it is accepted when a legal
//! move of the roll reaches exactly that position.

use crate::dice::Dice;
use crate::movegen::Move;
use crate::position::{Position, BAR};
use crate::step::Step;

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveParseError {
    /// The text is not move notation.
    #[error("cannot read move '{text}': {reason}")]
    Syntax {
        /// The text given.
        text: String,
        /// What could not be read.
        reason: String,
    },
    /// The text reads fine but is not a legal move here.
    #[error("'{text}' is not a legal move of {position_id} with {dice}: {reason}")]
    Illegal {
        /// The text given.
        text: String,
        /// The position, as a Position ID.
        position_id: String,
        /// The roll.
        dice: Dice,
        /// Why.
        reason: String,
    },
}

/// A chain of points for one checker, with its repeat count.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Path {
    points: Vec<u8>,
    hits: Vec<bool>,
    count: u8,
}

fn parse_point(tok: &str) -> Option<u8> {
    match tok.to_ascii_lowercase().as_str() {
        "bar" | "b" | "25" => Some(25),
        "off" | "o" | "h" | "home" | "0" => Some(0),
        t => t.parse::<u8>().ok().filter(|p| (1..=24).contains(p)),
    }
}

fn parse_paths(text: &str) -> Result<Vec<Path>, String> {
    let mut paths = Vec::new();
    for token in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
    {
        let (body, count) = match token.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
            Some((body, n)) => {
                let n: u8 = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| format!("bad repeat count '({n})' in '{token}'"))?;
                (body, n)
            }
            None => (token, 1),
        };
        let parts: Vec<&str> = if body.contains('/') {
            body.split('/').collect()
        } else {
            body.split('-').collect()
        };
        if parts.len() < 2 {
            return Err(format!("'{token}' is not a from/to move"));
        }
        let mut points = Vec::new();
        let mut hits = Vec::new();
        for (k, part) in parts.iter().enumerate() {
            let stars = part.len() - part.trim_end_matches('*').len();
            let name = part.trim_end_matches('*');
            let p = parse_point(name).ok_or_else(|| format!("'{name}' is not a point in '{token}'"))?;
            if k == 0 && stars > 0 {
                return Err(format!("'{token}' marks a hit on its starting point"));
            }
            if k > 0 {
                if p >= points[k - 1] {
                    return Err(format!("'{token}' moves backwards or stands still"));
                }
                if p == 0 && stars > 0 {
                    return Err(format!(
                        "'{token}' marks a hit on 'off' (nothing can be hit there)"
                    ));
                }
                hits.push(stars > 0);
            } else if p == 0 {
                return Err(format!("'{token}' starts from off"));
            }
            if k > 0 && k < parts.len() - 1 && p == 0 {
                return Err(format!("'{token}' continues after bearing off"));
            }
            points.push(p);
        }
        paths.push(Path { points, hits, count });
    }
    if paths.is_empty() {
        return Err("no moves given".into());
    }
    // One roll moves at most 4 x 6 = 24 pips (bearing off with a larger die uses fewer
    // pips than the die, never more), so `bar/off` (25 pips) can never be played.
    let pips: u32 = paths
        .iter()
        .map(|p| u32::from(p.points[0] - p.points[p.points.len() - 1]) * u32::from(p.count))
        .sum();
    if pips > 24 {
        return Err(format!("it moves {pips} pips (a roll moves at most 24)"));
    }
    Ok(paths)
}

/// Reads simple moves (`24/22`, `22/20*`, `8-5`, chains such as `24/20*/16`) into steps,
/// without a position: hits are taken from the `*` marks. Used to reformat a play given
/// as text.
pub fn parse_steps(text: &str) -> Result<Vec<Step>, MoveParseError> {
    let err = |reason: String| MoveParseError::Syntax {
        text: text.to_string(),
        reason,
    };
    let paths = parse_paths(text).map_err(err)?;
    let mut steps = Vec::new();
    // A point can be hit once in a play: the hitting checker then holds it, and the
    // opponent cannot come back during the roll. So `6/5*(4)` is four checkers to 5 with
    // one hit (standard notation writes a hit point's `*` once), never four hits.
    let mut hit = [false; 26];
    for path in &paths {
        for _ in 0..path.count {
            for (k, w) in path.points.windows(2).enumerate() {
                let to = usize::from(w[1]);
                let hits = path.hits[k] && !hit[to];
                hit[to] |= hits;
                steps.push(Step {
                    from: w[0],
                    to: w[1],
                    hit: hits,
                });
            }
        }
    }
    if steps.len() > 4 {
        return Err(err(format!("{} checker movements (at most 4)", steps.len())));
    }
    Ok(steps)
}

/// Moves one checker on a scratch board (mover in `sides[1]`), hitting a blot where it
/// stops. Returns an error text when there is no checker to move or the point is made.
fn step_on(board: &mut [[u8; 25]; 2], from: u8, to: u8) -> Result<(), String> {
    let [opp, me] = board;
    let src = from as usize - 1;
    if me[src] == 0 {
        let name = if from == 25 {
            "the bar".to_string()
        } else {
            format!("point {from}")
        };
        return Err(format!("no checker on {name}"));
    }
    me[src] -= 1;
    if to == 0 {
        return Ok(());
    }
    let dst = to as usize - 1;
    match opp[23 - dst] {
        0 => {}
        1 => {
            opp[23 - dst] = 0;
            opp[BAR] += 1;
        }
        _ => return Err(format!("point {to} is held by the opponent")),
    }
    me[dst] += 1;
    Ok(())
}

impl Position {
    /// Reads a move in any accepted notation (see [`crate::parse_move`]) and returns the
    /// legal move with these dice that it describes.
    pub fn parse_move(&self, dice: Dice, text: &str) -> Result<Move, MoveParseError> {
        let illegal = |reason: String| MoveParseError::Illegal {
            text: text.to_string(),
            position_id: self.position_id(),
            dice,
            reason,
        };
        let paths = parse_paths(text).map_err(|reason| MoveParseError::Syntax {
            text: text.to_string(),
            reason,
        })?;
        let mut board = *self.sides();
        for path in &paths {
            for _ in 0..path.count {
                for w in path.points.windows(2) {
                    step_on(&mut board, w[0], w[1]).map_err(illegal)?;
                }
            }
        }
        let target = Position::new_unchecked(board[0], board[1]);
        let moves = self.legal_moves(dice);
        if moves.is_empty() {
            return Err(illegal("no move is possible with this roll".into()));
        }
        if let Some(m) = moves.iter().find(|m| m.result == target) {
            return Ok(*m);
        }
        // The same checkers moved, but a blot hit on the way that the text leaves
        // out (gnubg refuses such a text too): name the move that hits.
        if let Some(m) = moves.iter().find(|m| m.result.sides()[1] == target.sides()[1]) {
            return Err(illegal(format!(
                "with these dice a checker stops on a blot on the way and must hit it: write {}",
                m.gnubg_notation()
            )));
        }
        Err(illegal(
            "it does not use the dice as the rules require (or cannot be played with them)".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn start() -> Position {
        Variant::Backgammon.start()
    }

    fn dice(a: u8, b: u8) -> Dice {
        Dice::new(a, b).unwrap()
    }

    #[test]
    fn every_spelling_of_the_31_point_play_is_the_same_move() {
        let want = start().parse_move(dice(3, 1), "8/5 6/5").unwrap();
        for text in ["8/5, 6/5", "8-5,6-5", "6/5 8/5", "8/5*,6/5", "8/5  6/5"] {
            assert_eq!(
                start().parse_move(dice(3, 1), text).unwrap().result,
                want.result,
                "{text}"
            );
        }
        // The position after 8/5 6/5, with the mover still in sides[1].
        assert_eq!(want.result.swapped().position_id(), "sGfwATDgc/ABMA");
    }

    /// Text pasted or read from a line keeps its line break: any white space (CR, LF,
    /// no-break space) separates moves.
    #[test]
    fn any_white_space_separates_moves() {
        let want = start().parse_move(dice(3, 1), "8/5 6/5").unwrap();
        for text in ["8/5 6/5\n", "8/5\r\n6/5\r\n", "8/5\u{a0}6/5", "\t8/5,\n6/5"] {
            assert_eq!(start().parse_move(dice(3, 1), text), Ok(want), "{text:?}");
        }
        assert_eq!(parse_steps("24/18\n").unwrap().len(), 1);
    }

    #[test]
    fn chains_repeats_bar_and_off_are_understood() {
        let m = start().parse_move(dice(6, 6), "24/18(2) 13/7(2)").unwrap();
        assert_eq!(m.steps().len(), 4);
        let m = start().parse_move(dice(6, 5), "24/18/13").unwrap();
        assert_eq!(m.result, start().parse_move(dice(6, 5), "24/13").unwrap().result);
        // Bar entry: opponent blot-free home board, X on the bar.
        let pos = Position::from_id("yOfgAyDgc/AAWA").unwrap();
        let m = pos.parse_move(dice(3, 1), "bar/22 24/23").unwrap();
        assert_eq!(m.steps()[0].from, 25);
        assert!(pos.parse_move(dice(3, 1), "b-22,24-23").is_ok());
        // Bearing off: 2 on the 5, 3 on the 6 against a closed-off opponent.
        let pos = Position::from_id("fN8HAACwAwAAAA").unwrap();
        assert!(pos.parse_move(dice(6, 5), "6/off 5/off").is_ok());
        assert!(pos.parse_move(dice(6, 5), "6-h,5-h").is_ok());
    }

    #[test]
    fn illegal_and_malformed_moves_are_explained() {
        let e = start().parse_move(dice(3, 1), "8/5").unwrap_err();
        assert!(
            e.to_string()
                .contains("not a legal move of 4HPwATDgc/ABMA with 31"),
            "{e}"
        );
        let e = start().parse_move(dice(3, 1), "7/4 6/5").unwrap_err();
        assert!(e.to_string().contains("no checker on point 7"), "{e}");
        let e = start().parse_move(dice(6, 5), "13/12").unwrap_err();
        assert!(e.to_string().contains("held by the opponent"), "{e}");
        let e = start().parse_move(dice(3, 1), "8/x").unwrap_err();
        assert!(matches!(e, MoveParseError::Syntax { .. }), "{e}");
        let e = start().parse_move(dice(3, 1), "5/8").unwrap_err();
        assert!(e.to_string().contains("backwards"), "{e}");
        // 44: the only way 24/8 goes hits a blot on 20 (gnubg 1.07's `move 24/8`
        // refuses the text too); the message names the move that hits.
        let pos = Position::from_id("EPj/AQDg/wcAIA").unwrap();
        let e = pos.parse_move(dice(4, 4), "24/8").unwrap_err();
        assert!(e.to_string().contains("must hit it: write 24/20*/8"), "{e}");
        assert!(pos.parse_move(dice(4, 4), "24/20*/8").is_ok());
    }

    #[test]
    fn simple_moves_read_into_steps() {
        let s = parse_steps("24/22, 22/20*, 20/18, 18/16").unwrap();
        assert_eq!(s.len(), 4);
        assert!(s[1].hit && !s[0].hit);
        assert!(parse_steps("24/22 22/20 20/18 18/16 16/14").is_err());
    }

    /// Issue 19: "`evaluator notation -- '3/off*'`, `bar/off`, `6/5*(4)` are accepted".
    #[test]
    fn notation_3_off_hit_bar_off_and_6_5_hit_4_are_refused_or_read_right() {
        for (text, needle) in [
            ("3/off*", "hit on 'off'"),
            ("bar/off", "25 pips"),
            ("bar-h", "25 pips"),
            ("bar/20/off", "25 pips"),
            ("6/off(4) 5/off", "29 pips"),
        ] {
            let e = parse_steps(text).unwrap_err();
            assert!(e.to_string().contains(needle), "{text}: {e}");
            let e = start().parse_move(dice(6, 6), text).unwrap_err();
            assert!(matches!(e, MoveParseError::Syntax { .. }), "{text}: {e}");
        }
        // Four checkers 6/5 with 11 hitting a blot on 5: one hit, not four.
        let s = parse_steps("6/5*(4)").unwrap();
        assert_eq!(s.iter().filter(|s| s.hit).count(), 1);
        assert_eq!(crate::notation::format_standard(&s), "6/5*(4)");
        let s = parse_steps("13/7*/5, 7/5*").unwrap();
        assert_eq!(s.iter().map(|s| s.hit).collect::<Vec<_>>(), [true, false, true]);
        // The 24 pips of 66 are still fine.
        assert_eq!(parse_steps("24/18(4)").unwrap().len(), 4);
    }
}

//! A position as users copy it from gnubg, eXtreme Gammon or a web site: a Position
//! ID, `PositionID:MatchID` (as gnubg shows them), or an XGID (`XGID=` optional).

use crate::{MatchIdError, MatchState, Position, PositionIdError, Xgid, XgidError};

/// A position read by [`parse_any_id`], with the match state its text carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyId {
    /// The board, `sides[1]` on roll (for an XGID, the player whose turn it is).
    pub position: Position,
    /// The Match ID's or the XGID's score, cube and dice; `None` for a bare Position ID.
    pub state: Option<MatchState>,
}

/// Why a text is none of the three forms (each reason names the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnyIdError {
    /// A bad Position ID (alone or before a Match ID).
    #[error(transparent)]
    Position(#[from] PositionIdError),
    /// A bad Match ID after a good Position ID.
    #[error(transparent)]
    Match(#[from] MatchIdError),
    /// A bad XGID.
    #[error(transparent)]
    Xgid(#[from] XgidError),
}

/// Reads a Position ID, `PositionID:MatchID` or an XGID (surrounding white space and a
/// byte-order mark ignored). A text is an XGID when it starts with `XGID=` (in any
/// case), when the part before its first colon has an XGID board's 26 characters, or
/// when it has more than one colon and that part is not a Position ID's 14 characters
/// (so that a malformed XGID gets the XGID's reason); else the first colon separates a
/// Position ID from a Match ID.
///
/// ```
/// let start = board::parse_any_id("4HPwATDgc/ABMA").unwrap();
/// let xgid = board::parse_any_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10").unwrap();
/// assert_eq!(xgid.position, start.position);
/// assert_eq!(xgid.state.unwrap().dice, Some((5, 2)));
/// assert!(start.state.is_none());
/// ```
pub fn parse_any_id(text: &str) -> Result<AnyId, AnyIdError> {
    // A byte-order mark is kept by a text read from a file saved by some editors.
    let t = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let prefixed = crate::xgid::strip_prefix(t).is_some();
    let head = t.split(':').next().unwrap_or("").chars().count();
    Ok(
        if prefixed || head == 26 || (head != 14 && t.matches(':').count() > 1) {
            let x = Xgid::parse(t)?;
            AnyId {
                position: x.position,
                state: Some(x.state),
            }
        } else if let Some((p, m)) = t.split_once(':') {
            AnyId {
                position: Position::from_id(p)?,
                state: Some(MatchState::from_id(m)?),
            }
        } else {
            AnyId {
                position: Position::from_id(t)?,
                state: None,
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_form_and_its_errors() {
        // gnubg 1.07: `set xgid` with this XGID, then `show board`: sGfwATDgc/ABMA.
        let x = parse_any_id(" XGID=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10\n").unwrap();
        assert_eq!(x.position.position_id(), "sGfwATDgc/ABMA");
        let bare = parse_any_id("-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10").unwrap();
        assert_eq!(bare, x);
        // gnubg 1.07, `set matchid cIkmAQAAAAAE`: a 9-point match, 0-0.
        let m = parse_any_id("4HPwATDgc/ABMA:cIkmAQAAAAAE").unwrap();
        assert_eq!(m.state.unwrap().match_length, 9);
        assert!(matches!(
            parse_any_id("4HPwATDgc/ABM"),
            Err(AnyIdError::Position(_))
        ));
        assert!(matches!(
            parse_any_id("4HPwATDgc/ABMA:cIkm"),
            Err(AnyIdError::Match(_))
        ));
        assert!(matches!(
            parse_any_id("4HPwATDgc/ABM:cIkmAQAAAAAE"),
            Err(AnyIdError::Position(_))
        ));
        assert!(matches!(
            parse_any_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10"),
            Err(AnyIdError::Xgid(_))
        ));
        let e = parse_any_id("4HPwATDgc/ABMA:cIkm").unwrap_err().to_string();
        assert!(e.contains("match ID 'cIkm'"), "{e}");
        // Malformed XGIDs get the XGID's reason, with or without a prefix in any case.
        let lower = parse_any_id("xgid=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10").unwrap();
        assert_eq!(lower, x);
        for short in [
            "-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7",
            "XGID=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7",
            "-b---BD-B---eE---c-e----B-",
        ] {
            let e = parse_any_id(short).unwrap_err().to_string();
            assert!(e.contains("10 ':'-separated fields"), "{short}: {e}");
        }
        // The reason quotes the text as given, prefix and all.
        let e = parse_any_id("XGID=foo:1:2").unwrap_err().to_string();
        assert!(e.contains("'XGID=foo:1:2'"), "{e}");
        assert_eq!(
            Xgid::parse("xgid=-b---BD-B---eE---c-e----B-:0:0:-1:52:6:1:1:7:10").map(|x| x.position),
            Ok(x.position)
        );
        // A Position ID's 14 characters before the first colon: a stray colon is the
        // Match ID's fault, not an XGID's.
        let e = parse_any_id("4HPwATDgc/ABMA:cIkmAQAAAAAE:")
            .unwrap_err()
            .to_string();
        assert!(e.contains("match ID 'cIkmAQAAAAAE:' has 13 characters"), "{e}");
        // A byte-order mark from a text file is not part of the ID.
        let bom = parse_any_id("\u{feff}4HPwATDgc/ABMA:cIkmAQAAAAAE\r\n").unwrap();
        assert_eq!(bom.position.position_id(), "4HPwATDgc/ABMA");
        assert_eq!(bom.state.map(|s| s.match_length), Some(9));
    }
}

//! Which header a database file gets: gnubg's (which gnubg 1.07 reads: at most 23
//! points, files under 2 GiB with 32-bit offsets), bgkit's wide one (64-bit offsets),
//! or none (gnubg's `-H` layout). The one rule behind the CLI's `--format` and
//! `--no-header`, for every database kind.

use crate::format::HeaderStyle;

/// The most points gnubg 1.07 reads in a bearoff header (it refuses 24 with "illegal
/// number of points").
pub const GNUBG_MAX_POINTS: u8 = 23;

/// gnubg's readers use 32-bit offsets and its manual limits files to 2 GB.
pub const GNUBG_MAX_FILE: u64 = (1 << 31) - 1;

/// The header asked for (the CLI's `--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StyleChoice {
    /// gnubg's header when gnubg can read the result (at most 23 points, under 2 GiB),
    /// else bgkit's wide one.
    #[default]
    Auto,
    /// Always gnubg's header (at most 23 points).
    Gnubg,
    /// Always bgkit's wide header.
    Wide,
}

/// Why a header cannot be chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StyleError {
    /// gnubg's header asked for a database gnubg cannot read for its number of points.
    #[error("gnubg reads bearoff files of at most {GNUBG_MAX_POINTS} points, not {points}; use the automatic or the wide header")]
    GnubgPoints {
        /// The database's points per side.
        points: u8,
    },
    /// No header and the wide header asked for together (the headerless layout is
    /// gnubg's).
    #[error("no header means gnubg's headerless layout; it cannot be combined with the wide header")]
    WideWithoutHeader,
}

/// Everything [`choose`] refuses that needs no file size, checked before any work:
/// the wide header without a header, and gnubg's header for a database gnubg cannot
/// read for its number of points (`no_header`: no header is written, so any size goes).
pub fn check_points(choice: StyleChoice, no_header: bool, points: u8) -> Result<(), StyleError> {
    if no_header && choice == StyleChoice::Wide {
        return Err(StyleError::WideWithoutHeader);
    }
    if choice == StyleChoice::Gnubg && !no_header && points > GNUBG_MAX_POINTS {
        return Err(StyleError::GnubgPoints { points });
    }
    Ok(())
}

/// The header style of a file of `size` bytes with `points` points per side.
pub fn choose(
    choice: StyleChoice,
    no_header: bool,
    points: u8,
    size: u64,
) -> Result<HeaderStyle, StyleError> {
    check_points(choice, no_header, points)?;
    Ok(match (no_header, choice) {
        (true, _) => HeaderStyle::None,
        (false, StyleChoice::Gnubg) => HeaderStyle::Gnubg,
        (false, StyleChoice::Wide) => HeaderStyle::Wide,
        (false, StyleChoice::Auto) if size <= GNUBG_MAX_FILE && points <= GNUBG_MAX_POINTS => {
            HeaderStyle::Gnubg
        }
        (false, StyleChoice::Auto) => HeaderStyle::Wide,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_is_gnubgs_header_while_gnubg_can_read_the_file() {
        assert_eq!(
            choose(StyleChoice::Auto, false, 23, GNUBG_MAX_FILE),
            Ok(HeaderStyle::Gnubg)
        );
        assert_eq!(choose(StyleChoice::Auto, false, 24, 100), Ok(HeaderStyle::Wide));
        assert_eq!(
            choose(StyleChoice::Auto, false, 6, GNUBG_MAX_FILE + 1),
            Ok(HeaderStyle::Wide)
        );
        assert_eq!(
            choose(StyleChoice::Auto, true, 24, u64::MAX),
            Ok(HeaderStyle::None)
        );
        assert_eq!(
            choose(StyleChoice::Gnubg, false, 6, u64::MAX),
            Ok(HeaderStyle::Gnubg)
        );
        assert_eq!(
            choose(StyleChoice::Gnubg, false, 24, 1),
            Err(StyleError::GnubgPoints { points: 24 })
        );
        assert_eq!(choose(StyleChoice::Gnubg, true, 24, 1), Ok(HeaderStyle::None));
        assert_eq!(choose(StyleChoice::Wide, false, 6, 1), Ok(HeaderStyle::Wide));
        assert_eq!(
            choose(StyleChoice::Wide, true, 6, 1),
            Err(StyleError::WideWithoutHeader)
        );
    }
}

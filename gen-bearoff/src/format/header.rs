//! The 40-byte ASCII header at the start of every database file.
//!
//! gnubg's headers (read by its `BearoffInit`, fields at fixed offsets):
//!
//! ```text
//! gnubg-OS-PP-CC-G-Z-N + 'x' padding + '\n'   one-sided: points, checkers, gammon,
//!                                              compressed, normal-distribution flags
//! gnubg-TS-PP-CC-F     + 'x' padding + '\n'   two-sided: points, checkers, cubeful flag
//! gnubg-H<C>           + 'x' padding + '\n'   hypergammon with C checkers
//! ```
//!
//! bgkit's wide variant keeps the same 40-byte size and field offsets but starts with
//! `bgkit` and carries a layout version after the flags (`-W1`):
//!
//! ```text
//! bgkit-OS-PP-CC-G-Z-N-W1 + 'x' padding + '\n'
//! bgkit-TS-PP-CC-F-W1     + 'x' padding + '\n'
//! ```
//!
//! gnubg's reader rejects it ("Unknown bearoff database") instead of misreading a file
//! that needs 64-bit offsets. See the crate README for the layouts.

use std::fmt;

/// [`HeaderError`] lives with the crate's other error types; this is its old path.
pub use crate::error::HeaderError;

/// Every header is exactly this long.
pub const HEADER_LEN: usize = 40;

/// Which header a file carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeaderStyle {
    /// gnubg's header (`gnubg-...`): the layout gnubg 1.07 reads, 32-bit offsets.
    Gnubg,
    /// bgkit's wide variant (`bgkit-...-W1`): 64-bit offsets where the layout has any.
    Wide,
    /// No header (gnubg's `-H`): the caller must know the parameters; classic layout.
    None,
}

impl HeaderStyle {
    /// Where the data starts: after the 40-byte header, or at 0 without one.
    pub fn data_offset(self) -> u64 {
        match self {
            HeaderStyle::None => 0,
            HeaderStyle::Gnubg | HeaderStyle::Wide => HEADER_LEN as u64,
        }
    }
}

/// Parameters of a one-sided database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OneSidedParams {
    /// Points (slots) per side, counted from the ace point.
    pub points: u8,
    /// Maximum checkers per side.
    pub checkers: u8,
    /// Whether the gammon ("first checker off") distributions are stored.
    pub gammon: bool,
    /// Compressed layout (index plus non-zero spans) rather than fixed 32-value arrays.
    pub compressed: bool,
    /// Normal-distribution approximation (four f32 per position); `gammon` and
    /// `compressed` are then irrelevant (gnubg writes them as 1 and 0).
    pub normal: bool,
}

/// Parameters of a two-sided database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TwoSidedParams {
    /// Points (slots) per side.
    pub points: u8,
    /// Maximum checkers per side.
    pub checkers: u8,
    /// Whether the three cubeful equities are stored after the cubeless one.
    pub cubeful: bool,
}

/// What a database file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// One-sided bearoff distributions.
    OneSided(OneSidedParams),
    /// Two-sided bearoff equities.
    TwoSided(TwoSidedParams),
    /// Hypergammon database with this many checkers per side (25 slots: 24 points + bar).
    Hypergammon {
        /// Checkers per side (1..=3 in gnubg).
        checkers: u8,
    },
}

/// A decoded header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// What the file holds.
    pub kind: Kind,
    /// Which header style it uses.
    pub style: HeaderStyle,
}

fn digits(h: &[u8], at: usize, len: usize) -> Option<u32> {
    let s = h.get(at..at + len)?;
    if !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0, |acc, &d| acc * 10 + u32::from(d - b'0')))
}

fn flag(h: &[u8], at: usize) -> Option<bool> {
    match digits(h, at, 1)? {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

impl Header {
    /// Parses the first 40 bytes of a file.
    pub fn parse(bytes: &[u8]) -> Result<Header, HeaderError> {
        if bytes.len() < HEADER_LEN {
            return Err(HeaderError::TooShort(bytes.len()));
        }
        let h = &bytes[..HEADER_LEN];
        let style = match &h[..6] {
            b"gnubg-" => HeaderStyle::Gnubg,
            b"bgkit-" => HeaderStyle::Wide,
            _ => return Err(HeaderError::UnknownMagic),
        };
        let bad = |why: &str| HeaderError::Malformed {
            text: String::from_utf8_lossy(h).trim_end().to_string(),
            why: why.to_string(),
        };
        let sep = |at: usize| h[at] == b'-';
        let (kind, used) = match &h[6..8] {
            b"OS" | b"TS" => {
                let points = digits(h, 9, 2).ok_or_else(|| bad("points field"))?;
                let checkers = digits(h, 12, 2).ok_or_else(|| bad("checkers field"))?;
                if !(sep(8) && sep(11) && sep(14)) {
                    return Err(bad("separators"));
                }
                if !(1..=24).contains(&points) {
                    return Err(bad(&format!("{points} points (1-24 supported)")));
                }
                if !(1..=15).contains(&checkers) {
                    return Err(bad(&format!("{checkers} checkers (1-15 supported)")));
                }
                if &h[6..8] == b"OS" {
                    let gammon = flag(h, 15).ok_or_else(|| bad("gammon flag"))?;
                    let compressed = flag(h, 17).ok_or_else(|| bad("compression flag"))?;
                    let normal = flag(h, 19).ok_or_else(|| bad("normal-distribution flag"))?;
                    if !(sep(16) && sep(18)) {
                        return Err(bad("separators"));
                    }
                    let params = OneSidedParams {
                        points: points as u8,
                        checkers: checkers as u8,
                        gammon,
                        compressed: compressed && !normal,
                        normal,
                    };
                    (Kind::OneSided(params), 20)
                } else {
                    let cubeful = flag(h, 15).ok_or_else(|| bad("cubeful flag"))?;
                    let params = TwoSidedParams {
                        points: points as u8,
                        checkers: checkers as u8,
                        cubeful,
                    };
                    (Kind::TwoSided(params), 16)
                }
            }
            [b'H', _] => {
                let checkers = digits(h, 7, 1).ok_or_else(|| bad("hypergammon checkers"))?;
                if !(1..=9).contains(&checkers) {
                    return Err(bad("hypergammon checkers"));
                }
                (
                    Kind::Hypergammon {
                        checkers: checkers as u8,
                    },
                    8,
                )
            }
            _ => return Err(bad("unknown database type (expected OS, TS or H)")),
        };
        let mut rest = used;
        if style == HeaderStyle::Wide {
            if h.get(used..used + 3) != Some(b"-W1") {
                return Err(bad("unsupported bgkit layout version (expected -W1)"));
            }
            rest += 3;
        }
        if h[HEADER_LEN - 1] != b'\n' || !h[rest..HEADER_LEN - 1].iter().all(|&c| c == b'x') {
            return Err(bad("padding"));
        }
        Ok(Header { kind, style })
    }

    /// The 40 header bytes, or `None` for [`HeaderStyle::None`].
    pub fn to_bytes(&self) -> Option<[u8; HEADER_LEN]> {
        let magic = match self.style {
            HeaderStyle::Gnubg => "gnubg",
            HeaderStyle::Wide => "bgkit",
            HeaderStyle::None => return None,
        };
        let mut text = match self.kind {
            Kind::OneSided(p) => {
                let (g, z, n) = if p.normal {
                    (1, 0, 1)
                } else {
                    (u8::from(p.gammon), u8::from(p.compressed), 0)
                };
                format!("{magic}-OS-{:02}-{:02}-{g}-{z}-{n}", p.points, p.checkers)
            }
            Kind::TwoSided(p) => format!(
                "{magic}-TS-{:02}-{:02}-{}",
                p.points,
                p.checkers,
                u8::from(p.cubeful)
            ),
            Kind::Hypergammon { checkers } => format!("{magic}-H{checkers}"),
        };
        if self.style == HeaderStyle::Wide {
            text.push_str("-W1");
        }
        while text.len() < HEADER_LEN - 1 {
            text.push('x');
        }
        text.push('\n');
        let mut out = [0u8; HEADER_LEN];
        out.copy_from_slice(text.as_bytes());
        Some(out)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::OneSided(p) => {
                write!(f, "one-sided {}x{}", p.points, p.checkers)?;
                if p.normal {
                    write!(f, ", normal-distribution approximation")
                } else {
                    write!(
                        f,
                        ", {}, {}",
                        if p.gammon {
                            "with gammon distributions"
                        } else {
                            "no gammon distributions"
                        },
                        if p.compressed {
                            "compressed"
                        } else {
                            "uncompressed"
                        }
                    )
                }
            }
            Kind::TwoSided(p) => write!(
                f,
                "two-sided {}x{}, {}",
                p.points,
                p.checkers,
                if p.cubeful { "cubeful" } else { "cubeless only" }
            ),
            Kind::Hypergammon { checkers } => write!(f, "hypergammon, {checkers} checkers"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnubg_headers_roundtrip() {
        // The headers gnubg 1.07's makebearoff writes (see the format reference).
        for text in [
            "gnubg-OS-06-15-1-1-0xxxxxxxxxxxxxxxxxxx\n",
            "gnubg-OS-04-15-1-0-1xxxxxxxxxxxxxxxxxxx\n",
            "gnubg-TS-06-06-1xxxxxxxxxxxxxxxxxxxxxxx\n",
            "gnubg-TS-06-03-0xxxxxxxxxxxxxxxxxxxxxxx\n",
            "gnubg-H3xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
        ] {
            assert_eq!(text.len(), HEADER_LEN);
            let h = Header::parse(text.as_bytes()).unwrap();
            assert_eq!(h.style, HeaderStyle::Gnubg);
            assert_eq!(&h.to_bytes().unwrap()[..], text.as_bytes(), "{text}");
        }
        let h = Header::parse(b"gnubg-OS-06-15-1-1-0xxxxxxxxxxxxxxxxxxx\n").unwrap();
        assert_eq!(
            h.kind,
            Kind::OneSided(OneSidedParams {
                points: 6,
                checkers: 15,
                gammon: true,
                compressed: true,
                normal: false
            })
        );
    }

    #[test]
    fn wide_headers_roundtrip_and_differ_from_gnubg() {
        let h = Header {
            kind: Kind::TwoSided(TwoSidedParams {
                points: 6,
                checkers: 15,
                cubeful: true,
            }),
            style: HeaderStyle::Wide,
        };
        let bytes = h.to_bytes().unwrap();
        assert_eq!(&bytes[..], b"bgkit-TS-06-15-1-W1xxxxxxxxxxxxxxxxxxxx\n");
        assert_eq!(Header::parse(&bytes).unwrap(), h);
        let h = Header {
            kind: Kind::OneSided(OneSidedParams {
                points: 18,
                checkers: 15,
                gammon: true,
                compressed: true,
                normal: false,
            }),
            style: HeaderStyle::Wide,
        };
        let bytes = h.to_bytes().unwrap();
        assert_eq!(&bytes[..], b"bgkit-OS-18-15-1-1-0-W1xxxxxxxxxxxxxxxx\n");
        assert_eq!(Header::parse(&bytes).unwrap(), h);
    }

    #[test]
    fn rejects_foreign_and_damaged_headers() {
        assert_eq!(Header::parse(b"gnubg"), Err(HeaderError::TooShort(5)));
        assert_eq!(Header::parse(&[0u8; 40]).unwrap_err(), HeaderError::UnknownMagic);
        for bad in [
            "gnubg-XS-06-15-1-1-0xxxxxxxxxxxxxxxxxxx\n",
            "gnubg-OS-0a-15-1-1-0xxxxxxxxxxxxxxxxxxx\n",
            "gnubg-OS-06-16-1-1-0xxxxxxxxxxxxxxxxxxx\n",
            "gnubg-OS-00-15-1-1-0xxxxxxxxxxxxxxxxxxx\n",
            "gnubg-OS-06-15-2-1-0xxxxxxxxxxxxxxxxxxx\n",
            "gnubg-OS-06-15-1-1-0xxxxxxxxxxxxxxxxxxxx",
            "bgkit-TS-06-15-1-W2xxxxxxxxxxxxxxxxxxxx\n",
            "bgkit-TS-06-15-1xxxxxxxxxxxxxxxxxxxxxxx\n",
        ] {
            assert!(
                matches!(Header::parse(bad.as_bytes()), Err(HeaderError::Malformed { .. })),
                "{bad:?}"
            );
        }
    }
}

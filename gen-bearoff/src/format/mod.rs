//! The file-format layer shared by every database kind (one-sided, two-sided and
//! hypergammon): position indexing, the 40-byte headers and which one a file gets
//! ([`style`]), value encodings,
//! bounds-checked access to memory-mapped files, and the square layout of two-sided
//! and hypergammon records.
//!
//! Nothing here knows how a database is generated; generators and readers build on it.

pub mod encoding;
pub mod header;
pub mod index;
pub mod mapped;
pub mod square;
pub mod style;

pub use header::{Header, HeaderStyle, Kind, OneSidedParams, TwoSidedParams, HEADER_LEN};
pub use index::PositionIndex;
pub use mapped::MappedFile;
pub use square::SquareFile;

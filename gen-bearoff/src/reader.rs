//! Opening any database file and finding out what it is.

use std::path::Path;

use crate::error::BearoffError;
use crate::format::header::{Header, Kind};
use crate::format::index::PositionIndex;
use crate::format::mapped::MappedFile;
use crate::hyper::HyperDb;
use crate::onesided::OneSidedDb;
use crate::twosided::TwoSidedDb;

/// Any bearoff database this crate reads.
#[derive(Debug)]
pub enum BearoffDb {
    /// One-sided distributions.
    OneSided(OneSidedDb),
    /// Two-sided equities.
    TwoSided(TwoSidedDb),
    /// Hypergammon probabilities and cubeful equities.
    Hypergammon(HyperDb),
}

impl BearoffDb {
    /// Opens a file with a header (gnubg's or bgkit's wide variant), validating its size.
    pub fn open(path: impl AsRef<Path>) -> Result<BearoffDb, BearoffError> {
        let path = path.as_ref();
        let (file, header) = MappedFile::open_with_header(path)?;
        BearoffDb::from_parts(file, header)
    }

    /// Opens a database as [`BearoffDb::open`] does and first checks it against its
    /// `FILE.sha256` sidecar when there is one (a mismatch is a corrupt file). This reads
    /// the whole file, so [`BearoffDb::open`] (which does not) stays the fast path.
    pub fn open_checked(path: impl AsRef<Path>) -> Result<BearoffDb, BearoffError> {
        let path = path.as_ref();
        check_sidecar(path)?;
        BearoffDb::open(path)
    }

    /// Opens a headerless file (gnubg's `-H`) with parameters the caller supplies.
    pub fn open_headerless(path: impl AsRef<Path>, kind: Kind) -> Result<BearoffDb, BearoffError> {
        let file = MappedFile::open(path.as_ref())?;
        BearoffDb::from_parts(
            file,
            Header {
                kind,
                style: crate::format::HeaderStyle::None,
            },
        )
    }

    fn from_parts(file: MappedFile, header: Header) -> Result<BearoffDb, BearoffError> {
        match header.kind {
            Kind::OneSided(p) => Ok(BearoffDb::OneSided(OneSidedDb::from_file(file, p, header.style)?)),
            Kind::TwoSided(p) => Ok(BearoffDb::TwoSided(TwoSidedDb::from_file(file, p, header.style)?)),
            Kind::Hypergammon { checkers } => Ok(BearoffDb::Hypergammon(HyperDb::from_file(
                file,
                checkers,
                header.style,
            )?)),
        }
    }

    /// What the file holds.
    pub fn kind(&self) -> Kind {
        match self {
            BearoffDb::OneSided(db) => Kind::OneSided(db.params()),
            BearoffDb::TwoSided(db) => Kind::TwoSided(db.params()),
            BearoffDb::Hypergammon(db) => Kind::Hypergammon {
                checkers: db.checkers(),
            },
        }
    }

    /// The ranking of one side's positions (one-sided records, or each side of a
    /// two-sided or hypergammon record).
    pub fn index(&self) -> &PositionIndex {
        match self {
            BearoffDb::OneSided(db) => db.index(),
            BearoffDb::TwoSided(db) => db.index(),
            BearoffDb::Hypergammon(db) => db.index(),
        }
    }

    /// One-sided positions per side (`index().count()`).
    pub fn positions_per_side(&self) -> u64 {
        self.index().count()
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        match self {
            BearoffDb::OneSided(db) => db.path(),
            BearoffDb::TwoSided(db) => db.path(),
            BearoffDb::Hypergammon(db) => db.path(),
        }
    }
}

/// Checks `path` against its `FILE.sha256` sidecar: `Ok(true)` when it matches,
/// `Ok(false)` when there is no sidecar, a corrupt-file error when they differ.
pub fn check_sidecar(path: &Path) -> Result<bool, BearoffError> {
    use fileio::checksum::Sidecar;
    match fileio::checksum::check_sidecar(path) {
        Ok(Sidecar::Matches) => Ok(true),
        Ok(Sidecar::Missing) => Ok(false),
        Ok(Sidecar::Mismatch(why)) => Err(BearoffError::corrupt(path, why)),
        // The sidecar or the database could not be read (the error says which way).
        Err(e) => Err(BearoffError::io(
            path,
            "cannot check it against its .sha256 sidecar",
            e,
        )),
    }
}

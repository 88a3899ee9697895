//! Memory-mapped files: a whole file mapped read-only ([`MappedFile`]), the checks of a
//! versioned binary header ([`HeaderSpec`], [`Header`]), and zeroed anonymous memory
//! ([`AnonMap`]) for large scratch tables. Every problem is one [`MapError`] that names
//! the file and says what is wrong.
//!
//! A mapped file is read-only. Another process truncating or rewriting it while it is
//! mapped could fault or change what is read; bgkit writes its files under a temporary
//! name and renames them ([`crate::write_atomic`]), so a file it replaces is never
//! changed underneath a reader (gnubg maps its databases the same way).

use std::fmt;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use memmap2::{Mmap, MmapMut, MmapOptions};

/// Why a mapped file cannot be used; [`MapError::path`] names the file.
#[derive(Debug)]
pub struct MapError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong.
    pub kind: MapErrorKind,
}

/// What is wrong with a mapped file.
#[derive(Debug)]
#[non_exhaustive]
pub enum MapErrorKind {
    /// The system refused to open, inspect or map it (`action`: "cannot open", …).
    Io {
        /// What was being done.
        action: &'static str,
        /// The system error.
        error: io::Error,
    },
    /// The file does not start with the format's magic bytes (or is shorter than its
    /// header).
    NotA {
        /// The format, e.g. "bgkit binary dataset".
        what: String,
        /// The magic bytes as text, e.g. "BGKITDS".
        magic: String,
    },
    /// A format version this program does not read.
    Version {
        /// The file's version.
        found: u32,
        /// The version this program reads.
        supported: u32,
    },
    /// A header field that must have one value has another.
    Field {
        /// The field, e.g. "record size".
        field: &'static str,
        /// Its value in the file.
        found: u64,
        /// The value it must have.
        expected: u64,
    },
    /// The file's length is not the one its header announces.
    Length {
        /// What the header announces, e.g. "12 records".
        announced: String,
        /// The length that implies (`None`: more than any file can hold).
        expected: Option<u64>,
        /// The file's length.
        found: u64,
    },
    /// A stored checksum does not match the contents.
    Checksum {
        /// The stored value.
        stored: u64,
        /// The value computed from the contents.
        computed: u64,
    },
    /// A read past the end of the file.
    Beyond {
        /// Start of the read.
        offset: u64,
        /// Its length.
        len: u64,
        /// The file's length.
        file_len: u64,
    },
}

impl fmt::Display for MapErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapErrorKind::Io { action, error } => write!(f, "{action}: {error}"),
            MapErrorKind::NotA { what, magic } => write!(f, "not a {what} (no {magic} header)"),
            MapErrorKind::Version { found, supported } => write!(
                f,
                "format version {found} is not supported (this program reads version {supported})"
            ),
            MapErrorKind::Field {
                field,
                found,
                expected,
            } => write!(f, "{field} {found} (expected {expected})"),
            MapErrorKind::Length {
                announced,
                expected: Some(expected),
                found,
            } => write!(
                f,
                "the header announces {announced} ({expected} bytes) but the file has {found} bytes \
                 (truncated or corrupt)"
            ),
            MapErrorKind::Length { announced, found, .. } => write!(
                f,
                "the header announces {announced}, more than any file holds (the file has {found} bytes): \
                 the file is corrupt"
            ),
            MapErrorKind::Checksum { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt"
            ),
            MapErrorKind::Beyond {
                offset,
                len,
                file_len,
            } => write!(
                f,
                "record at byte {offset} (+{len}) lies beyond the end of the {file_len}-byte file"
            ),
        }
    }
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.kind)
    }
}

// The system error is part of the message, not a `source`: reports that print the
// chain would otherwise show it twice.
impl std::error::Error for MapError {}

impl MapError {
    fn new(path: &Path, kind: MapErrorKind) -> MapError {
        MapError {
            path: path.to_path_buf(),
            kind,
        }
    }
}

/// A whole file mapped read-only. Every access through [`MappedFile::slice`] is
/// bounds-checked: a truncated file gives an error, never a panic.
#[derive(Debug)]
pub struct MappedFile {
    path: PathBuf,
    /// `None` for an empty file (which cannot be mapped on every platform).
    map: Option<Mmap>,
}

impl MappedFile {
    /// Maps `path` read-only.
    pub fn open(path: impl AsRef<Path>) -> Result<MappedFile, MapError> {
        let path = path.as_ref();
        let io = |action, error| MapError::new(path, MapErrorKind::Io { action, error });
        let file = File::open(path).map_err(|e| io("cannot open", e))?;
        let meta = file.metadata().map_err(|e| io("cannot stat", e))?;
        if !meta.is_file() {
            // A directory, pipe or device: say so instead of the system's "no such
            // device" from mmap.
            let error = match meta.is_dir() {
                true => io::Error::from(io::ErrorKind::IsADirectory),
                false => io::Error::other("not a regular file (only files can be mapped)"),
            };
            return Err(io("cannot map", error));
        }
        let len = meta.len();
        let map = if len == 0 {
            None
        } else {
            // SAFETY: the map is read-only; a file changed underneath by another
            // process is outside what bgkit guards against (see the module docs).
            Some(unsafe { Mmap::map(&file) }.map_err(|e| io("cannot map", e))?)
        };
        Ok(MappedFile {
            path: path.to_path_buf(),
            map,
        })
    }

    /// Maps `path` and checks its header against `spec` (magic, version, header size).
    pub fn open_with_header(path: impl AsRef<Path>, spec: &HeaderSpec<'_>) -> Result<MappedFile, MapError> {
        let file = MappedFile::open(path)?;
        file.header(spec)?;
        Ok(file)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Length in bytes.
    pub fn len(&self) -> u64 {
        self.map.as_ref().map_or(0, |m| m.len() as u64)
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// All bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// `len` bytes at `offset`, or an error naming the file.
    pub fn slice(&self, offset: u64, len: u64) -> Result<&[u8], MapError> {
        let bytes = self.bytes();
        match offset.checked_add(len) {
            Some(end) if end <= bytes.len() as u64 => Ok(&bytes[offset as usize..end as usize]),
            _ => Err(self.error(MapErrorKind::Beyond {
                offset,
                len,
                file_len: bytes.len() as u64,
            })),
        }
    }

    /// An error about this file.
    pub fn error(&self, kind: MapErrorKind) -> MapError {
        MapError::new(&self.path, kind)
    }

    /// The header, checked against `spec`: at least `spec.size` bytes, the magic, the
    /// version and (if the format stores it) the header size.
    pub fn header(&self, spec: &HeaderSpec<'_>) -> Result<Header<'_>, MapError> {
        let bytes = self.bytes();
        if bytes.len() < spec.size.max(spec.magic.len()) || !bytes.starts_with(spec.magic) {
            let magic = String::from_utf8_lossy(spec.magic);
            return Err(self.error(MapErrorKind::NotA {
                what: spec.what.to_string(),
                magic: magic.trim_end_matches('\0').to_string(),
            }));
        }
        let h = Header {
            file: self,
            bytes: &bytes[..spec.size],
        };
        let version = h.u32_at(spec.version_at);
        if version != spec.version {
            return Err(self.error(MapErrorKind::Version {
                found: version,
                supported: spec.version,
            }));
        }
        if let Some(at) = spec.header_size_at {
            h.expect_u32(at, "header size", spec.size as u32)?;
        }
        Ok(h)
    }

    /// Checks that the file is `header + count × record` bytes long, as a header that
    /// announces `announced` (e.g. "12 records") implies.
    pub fn expect_len(
        &self,
        header: u64,
        count: u64,
        record: u64,
        announced: impl Into<String>,
    ) -> Result<(), MapError> {
        let expected = count.checked_mul(record).and_then(|b| b.checked_add(header));
        if expected == Some(self.len()) {
            return Ok(());
        }
        Err(self.error(MapErrorKind::Length {
            announced: announced.into(),
            expected,
            found: self.len(),
        }))
    }
}

/// The fixed part of a versioned binary header: what [`MappedFile::header`] checks.
#[derive(Clone, Copy, Debug)]
pub struct HeaderSpec<'a> {
    /// The format's name in errors, e.g. "bgkit binary dataset".
    pub what: &'a str,
    /// The bytes every file starts with.
    pub magic: &'a [u8],
    /// Header size in bytes.
    pub size: usize,
    /// Offset of the format version (u32, little endian).
    pub version_at: usize,
    /// The version this program reads.
    pub version: u32,
    /// Offset of the stored header size (u32, little endian), if the format has one.
    pub header_size_at: Option<usize>,
}

/// A checked header: little-endian fields by offset, and checks that name the file.
#[derive(Clone, Copy, Debug)]
pub struct Header<'a> {
    file: &'a MappedFile,
    bytes: &'a [u8],
}

impl Header<'_> {
    /// The u32 at `at` (little endian; `at + 4` must lie within the header).
    pub fn u32_at(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("4 bytes"))
    }

    /// The u64 at `at` (little endian; `at + 8` must lie within the header).
    pub fn u64_at(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.bytes[at..at + 8].try_into().expect("8 bytes"))
    }

    /// Checks that the u32 `field` at `at` is `expected`.
    pub fn expect_u32(&self, at: usize, field: &'static str, expected: u32) -> Result<(), MapError> {
        let found = self.u32_at(at);
        if found == expected {
            return Ok(());
        }
        Err(self.file.error(MapErrorKind::Field {
            field,
            found: u64::from(found),
            expected: u64::from(expected),
        }))
    }

    /// Checks the checksum stored as a u64 at `at` against `computed`.
    pub fn expect_checksum(&self, at: usize, computed: u64) -> Result<(), MapError> {
        let stored = self.u64_at(at);
        if stored == computed {
            return Ok(());
        }
        Err(self.file.error(MapErrorKind::Checksum { stored, computed }))
    }
}

/// Zeroed anonymous memory (not backed by a file), its pages mapped in one call when
/// asked (cheaper than a page fault per page for a table that is filled at once).
#[derive(Debug)]
pub struct AnonMap(MmapMut);

impl AnonMap {
    /// `len` zeroed bytes (at least 1); `populate` maps all pages now.
    pub fn zeroed(len: usize, populate: bool) -> io::Result<AnonMap> {
        let mut options = MmapOptions::new();
        options.len(len.max(1));
        if populate {
            options.populate();
        }
        options.map_anon().map(AnonMap)
    }
}

impl std::ops::Deref for AnonMap {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::ops::DerefMut for AnonMap {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

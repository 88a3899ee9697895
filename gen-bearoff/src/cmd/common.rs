//! Options and helpers shared by the subcommands (threads, progress and notes come
//! from `cli_support`, as in bgkit's other tools).

use std::path::Path;

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
pub use cli_support::{global_threads, note, phase_bar};

use gen_bearoff::format::style::{self, StyleChoice, StyleError, GNUBG_MAX_POINTS};
use gen_bearoff::format::Header;
use gen_bearoff::{BearoffDb, HeaderStyle};

/// `--format`: which header to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatChoice {
    /// gnubg's header when gnubg can read the result (at most 23 points, under 2 GiB),
    /// else bgkit's wide one.
    Auto,
    /// Always gnubg's header (at most 23 points; where the layout has offsets, a
    /// compressed one-sided file, each must fit in 32 bits).
    Gnubg,
    /// Always bgkit's wide header (64-bit offsets where the layout has them, a
    /// compressed one-sided file; otherwise the records are laid out as gnubg's).
    Wide,
}

impl From<FormatChoice> for StyleChoice {
    fn from(c: FormatChoice) -> StyleChoice {
        match c {
            FormatChoice::Auto => StyleChoice::Auto,
            FormatChoice::Gnubg => StyleChoice::Gnubg,
            FormatChoice::Wide => StyleChoice::Wide,
        }
    }
}

/// The library's header rule ([`gen_bearoff::format::style`]) in the flags' words.
pub fn style_error(e: StyleError) -> anyhow::Error {
    match e {
        StyleError::GnubgPoints { points } => anyhow::anyhow!(
            "--format gnubg: gnubg reads bearoff files of at most {GNUBG_MAX_POINTS} points, not {points}; use --format auto or wide (bgkit's wide header)"
        ),
        StyleError::WideWithoutHeader => {
            anyhow::anyhow!("--no-header writes gnubg's headerless layout; it cannot be combined with --format wide")
        }
    }
}

/// The header style for a file of `size` bytes with `points` points per side.
pub fn choose_style(choice: FormatChoice, no_header: bool, points: u8, size: u64) -> Result<HeaderStyle> {
    style::choose(choice.into(), no_header, points, size).map_err(style_error)
}

/// Parses a byte size such as `8G`, `512M`, `1.5GiB`, `1000000`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num.parse().map_err(|_| format!("invalid size '{text}'"))?;
    let mult = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "kib" => 1024.0,
        "m" | "mb" => 1e6,
        "mib" => 1024.0 * 1024.0,
        "g" | "gb" => 1e9,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tb" => 1e12,
        _ => {
            return Err(format!(
                "invalid size unit in '{text}' (use K, M, G, MiB, GiB...)"
            ))
        }
    };
    Ok((value * mult) as u64)
}

/// Default memory limit: 80% of the memory available now (`MemAvailable`), or 4 GB.
pub fn default_memory_limit() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(4_000_000_000, |kb| kb * 1024 / 10 * 8)
}

/// Opens a database, with an assumed header for headerless files.
pub fn open_db(path: &Path, assume_header: Option<&str>) -> Result<BearoffDb> {
    match assume_header {
        None => Ok(BearoffDb::open(path)?),
        Some(text) => {
            let mut h = text.trim().as_bytes().to_vec();
            if h.len() > 39 {
                bail!("--assume-header '{text}' is longer than a header");
            }
            h.resize(39, b'x');
            h.push(b'\n');
            let header = Header::parse(&h).with_context(|| format!("--assume-header '{text}'"))?;
            refuse_a_header(path)?;
            Ok(BearoffDb::open_headerless(path, header.kind)?)
        }
    }
}

/// Refuses `--assume-header` for a file that starts with a header of its own (read as
/// headerless, its header would be taken for data). A file too short for a header, or
/// missing, is left to the reader to report.
fn refuse_a_header(path: &Path) -> Result<()> {
    use std::io::Read;
    let mut first = [0u8; 40];
    let Ok(mut f) = std::fs::File::open(path) else {
        return Ok(());
    };
    if f.read_exact(&mut first).is_err() {
        return Ok(());
    }
    if Header::parse(&first).is_ok() {
        let text = String::from_utf8_lossy(&first);
        bail!(
            "{}: the file has a header of its own ({}); --assume-header is for headerless files: leave it out",
            path.display(),
            text.trim_end_matches(['\n', 'x']),
        );
    }
    Ok(())
}

/// The output rule for a database ([`cli_support::outputs::check`]) and for its
/// checksum sidecar `<file>.sha256`, which the run writes too: a sidecar already there
/// is replaced only with `--force`, and one that cannot be written (a directory) is
/// refused before the build, not after the database is in place.
pub fn check_database_output(output: &Path, force: bool) -> Result<()> {
    cli_support::outputs::check(output, &[], force)?;
    cli_support::outputs::check(&fileio::checksum::sidecar_path(output), &[], force)
}

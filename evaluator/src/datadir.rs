//! Finding gnubg's weights and bearoff databases: explicit paths first, then the data
//! directory `$BGKIT_DATA`, then gnubg's Debian install locations.

use std::path::{Path, PathBuf};

/// Places searched for a file with one of these names, in order.
fn candidates(names: &[&str], system_dirs: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(dir) = std::env::var("BGKIT_DATA") {
        out.extend(names.iter().map(|n| Path::new(&dir).join(n)));
    }
    for dir in system_dirs {
        out.extend(names.iter().map(|n| Path::new(dir).join(n)));
    }
    out
}

/// Where weights are looked for.
pub fn weights_candidates() -> Vec<PathBuf> {
    candidates(
        &["gnubg.wd", "gnubg.weights"],
        &["/usr/lib/gnubg", "/usr/share/gnubg"],
    )
}

/// Where the one-sided bearoff database is looked for.
pub fn one_sided_candidates() -> Vec<PathBuf> {
    candidates(&["gnubg_os0.bd"], &["/usr/share/gnubg", "/var/lib/gnubg"])
}

/// Where the two-sided bearoff database is looked for.
pub fn two_sided_candidates() -> Vec<PathBuf> {
    candidates(&["gnubg_ts0.bd"], &["/var/lib/gnubg", "/usr/share/gnubg"])
}

/// The explicit path if given, else the first existing candidate; the error lists
/// every place searched.
pub fn locate(
    explicit: Option<&Path>,
    what: &str,
    flag: &str,
    candidates: &[PathBuf],
) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    candidates.iter().find(|p| p.is_file()).cloned().ok_or_else(|| {
        let list: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
        format!(
            "no {what} found (looked for {}); give {flag} FILE or set BGKIT_DATA to a directory holding it",
            list.join(", ")
        )
    })
}

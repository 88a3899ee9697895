//! Finding gnubg's weights and bearoff databases: explicit paths first, then the data
//! directory `$BGKIT_DATA`, then gnubg's Debian install locations.

use std::path::{Path, PathBuf};

/// Places searched for a file with one of these names, in order.
fn candidates(names: &[&str], system_dirs: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = std::env::var_os("BGKIT_DATA").filter(|d| !d.is_empty()) {
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
/// every place searched and says how to give the file (`flag`, e.g. `--weights FILE`).
pub fn locate(
    explicit: Option<&Path>,
    what: &str,
    flag: &str,
    candidates: &[PathBuf],
) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    // A data directory that is not there is a mistake to report, not a reason to go on
    // quietly with gnubg's install directories.
    if let Some(dir) = std::env::var_os("BGKIT_DATA").filter(|d| !d.is_empty()) {
        if !Path::new(&dir).is_dir() {
            return Err(format!(
                "BGKIT_DATA is '{}', which is not a directory (give {flag}, or unset \
                 BGKIT_DATA to use gnubg's install directories)",
                Path::new(&dir).display()
            ));
        }
    }
    candidates.iter().find(|p| p.is_file()).cloned().ok_or_else(|| {
        let list: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
        format!(
            "no {what} found (looked for {}); give {flag} or set BGKIT_DATA to a directory holding it",
            list.join(", ")
        )
    })
}

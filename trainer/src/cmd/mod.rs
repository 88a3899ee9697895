//! One module per subcommand, each with its `Args` and `run` (the options, progress and
//! threads they share come from `cli_support`).

pub mod benchmark;
pub mod curve;
pub mod duel;
pub mod supervised;
pub mod td;
pub mod tourney;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cli_support::BearoffArgs;
use trainer::player::DataPaths;

/// The files a `trainer td` or `trainer supervised` run writes in its directory (`*`:
/// any text). `--out DIR` is refused while any of them is there, unless `--force`.
pub const RUN_FILES: &[&str] = &[
    "net.wd",
    "net.weights",
    "net.json",
    "curve.csv",
    "curve.png",
    "state.json",
    "state-*.wd",
    "supervised.json",
    "checkpoint-*.wd",
    "optimizer-*.bin",
    "classes.json",
];

/// Checks a new run directory (`--out DIR`) by the output rule: no other run's files
/// unless `force`; then creates it, holds it for this command ([`lock_run_dir`]) and
/// removes those files, so that the new run starts clean.
pub fn prepare_run_dir(dir: &Path, inputs: &[&Path], force: bool) -> Result<RunDirLock> {
    let present = cli_support::outputs::check_run_dir(dir, inputs, RUN_FILES, force)?;
    let created = !dir.exists();
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut lock = lock_run_dir(dir)?;
    lock.created = created.then(|| dir.to_path_buf());
    for file in present {
        std::fs::remove_file(&file).with_context(|| format!("cannot remove {} (--force)", file.display()))?;
    }
    Ok(lock)
}

/// A run directory held by this command; released when dropped or when the process
/// ends (also when it is killed). A directory this command created is removed when
/// dropped if it is still empty: a run refused after its directory was made (its data
/// or start nets rejected) leaves nothing behind.
#[must_use = "the directory is held only while the lock lives"]
pub struct RunDirLock {
    _dir: Option<std::fs::File>,
    created: Option<PathBuf>,
}

impl Drop for RunDirLock {
    fn drop(&mut self) {
        if let Some(dir) = &self.created {
            // Fails, leaving it, unless it is empty.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Holds the run directory `dir` for this command: one trainer at a time per run (an
/// exclusive `flock` on the directory itself, where the filesystem allows), so that a
/// second `--resume DIR`, or a new run with `--out DIR --force` that would remove the
/// first one's files, is refused instead. A directory that does not exist is not held
/// (a resume then fails on its missing checkpoint).
pub fn lock_run_dir(dir: &Path) -> Result<RunDirLock> {
    if !dir.is_dir() {
        return Ok(RunDirLock {
            _dir: None,
            created: None,
        });
    }
    match fileio::lock::lock_dir(dir) {
        Ok(d) => Ok(RunDirLock {
            _dir: d,
            created: None,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => anyhow::bail!(
            "{}: another trainer run is using this directory (it is locked); wait for it to end, or use another directory",
            dir.display()
        ),
        Err(e) => Err(e).with_context(|| format!("cannot open {}", dir.display())),
    }
}

/// The threads of a resumed session of a run whose last session used `recorded`
/// threads (0: not recorded, a checkpoint older than the setting): `--threads` (`flag`)
/// if given, else the run's own count, else one per core. Returns the count and the
/// run's earlier one when this session changes it; the change is noted on stderr
/// unless `quiet`.
pub fn resume_threads(recorded: usize, flag: Option<usize>, quiet: bool) -> Result<(usize, Option<usize>)> {
    let threads = match (flag, recorded) {
        (None, t) if t > 0 => t,
        (flag, _) => cli_support::thread_count(flag)?,
    };
    let previous = (recorded > 0 && recorded != threads).then_some(recorded);
    if let (Some(before), false) = (previous, quiet) {
        cli_support::errln!("note: the run used {before} threads; this session uses {threads} (--threads)");
    }
    Ok((threads, previous))
}

/// The files that the players `specs` read (weights files, explicit or found where the
/// evaluator looks, their sidecars, and, where a net plays, the bearoff databases of
/// `data`, explicit or found): inputs that no output may replace, `--force` or not.
pub fn player_inputs<'a>(specs: impl IntoIterator<Item = &'a str>, data: &BearoffArgs) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = data.paths().into_iter().map(Path::to_path_buf).collect();
    let mut nets = false;
    for spec in specs {
        if let Some(weights) = trainer::player::spec_files(spec) {
            files.extend(weights);
            nets = true;
        }
    }
    // The databases are located once, whatever the number of net players.
    if nets {
        files.extend(data_paths(data).files());
    }
    files
}

/// The trainer's database paths from the bearoff flags.
pub fn data_paths(a: &BearoffArgs) -> DataPaths {
    DataPaths {
        bearoff_os: a.bearoff_os.clone(),
        bearoff_ts: a.bearoff_ts.clone(),
    }
}

/// `--init`'s weights file, refused with a hint when it names no file but reads like a
/// value another flag takes: `gnubg:` (a player: gnubg's nets in `duel` and
/// `benchmark`) or, for `supervised`, `xavier`/`gnubg` (`td`'s initialisation schemes).
/// `schemes`: whether the caller takes those schemes itself (`td`).
pub fn init_file(text: &str, schemes: bool) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    if text.is_empty() {
        return Err("expected a weights file".into());
    }
    if path.exists() {
        return Ok(path);
    }
    let gnubg = evaluator::datadir::weights_candidates()
        .into_iter()
        .find(|p| p.is_file())
        .map_or_else(|| "gnubg.wd".to_string(), |p| p.display().to_string());
    if let Some(file) = text.strip_prefix("gnubg:") {
        let file = if file.is_empty() { gnubg.as_str() } else { file };
        return Err(format!(
            "'{text}' is a player ('gnubg:' names gnubg's nets in duel and benchmark); --init takes the weights file itself: --init {file}"
        ));
    }
    if !schemes && matches!(text, "xavier" | "gnubg") {
        return Err(format!(
            "'{text}' is an initialisation of `trainer td`; supervised training starts from fresh nets without --init, or from a weights file (gnubg's: {gnubg})"
        ));
    }
    Ok(path)
}

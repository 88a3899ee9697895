//! The one rule for every command that writes a file or a directory: an output that
//! already exists is refused unless `--force` (or `--resume` where a command continues
//! its own earlier output), and an output that is also one of the command's inputs is
//! refused always, `--force` or not.
//!
//! Paths are compared after canonicalisation (symbolic links and `..` resolved); an
//! output that does not exist yet is compared by its canonical parent directory and its
//! name, so `out/../t.json` is recognised as `t.json`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// The path `p` stands for: canonical if it exists, else its canonical parent joined
/// with its name (or, when the parent is missing too, `p` made absolute).
pub fn canonical(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    match (p.file_name(), std::fs::canonicalize(directory_of(p))) {
        (Some(n), Ok(dir)) => dir.join(n),
        _ => std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()),
    }
}

/// The directory `p` is in (`.` for a bare name).
fn directory_of(p: &Path) -> &Path {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Refuses `output` when it is one of `inputs` (`-`, standard input, is never equal to
/// a file).
pub fn check_not_input(output: &Path, inputs: &[&Path]) -> Result<()> {
    let out = canonical(output);
    for input in inputs {
        if input.as_os_str() == "-" {
            continue;
        }
        if canonical(input) == out {
            bail!(
                "the output {} is also an input ({}); write the output elsewhere",
                output.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Refuses `-` as an output: it means standard input where a tool reads one, and the
/// outputs are files (a file called `-` is `./-`).
pub fn check_not_dash(output: &Path) -> Result<()> {
    if output.as_os_str() == "-" {
        bail!("'-' as an output: standard output is not written here, the output is a file (a file called '-' is ./-)");
    }
    Ok(())
}

/// The rule for one output file: refused when it is `-`, or one of `inputs` (always),
/// when it names a directory, a FIFO, a device or a socket, or its directory does not
/// exist (always: the job would run and then fail to put its file in place, or replace
/// what is not a file), or when it exists and `force` is not given.
pub fn check(output: &Path, inputs: &[&Path], force: bool) -> Result<()> {
    check_not_dash(output)?;
    check_not_input(output, inputs)?;
    if std::fs::metadata(output).is_ok_and(|m| m.is_dir()) {
        bail!(
            "{} is a directory (the output is a file: name one in it)",
            output.display()
        );
    }
    let parent = directory_of(output);
    match std::fs::metadata(parent) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!(
            "cannot write {}: {} is not a directory",
            output.display(),
            parent.display()
        ),
        Err(_) => bail!(
            "cannot write {}: the directory {} does not exist",
            output.display(),
            parent.display()
        ),
    }
    // A FIFO, a device or a socket (or a link to one) is never a file to replace
    // (fileio's rule, said here before any work).
    if fileio::is_special(output) {
        bail!(
            "{} is not a regular file (a FIFO, device or socket): name a file to write",
            output.display()
        );
    }
    if !force && std::fs::symlink_metadata(output).is_ok() {
        bail!("{} exists (use --force to replace it)", output.display());
    }
    Ok(())
}

/// The rule for a run directory whose files are named by `patterns` (`net.wd`, or with
/// one `*` for any text, `state-*.wd`): the directory must not be one of `inputs`, no
/// input may be one of its run files, and a run file already there is refused unless
/// `force`. Returns the run files present (those `--force` replaces).
pub fn check_run_dir(dir: &Path, inputs: &[&Path], patterns: &[&str], force: bool) -> Result<Vec<PathBuf>> {
    check_not_dash(dir)?;
    check_not_input(dir, inputs)?;
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        bail!("{} is not a directory (the run's output is one)", dir.display());
    }
    let mut present = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if patterns.iter().any(|p| matches(p, &name)) {
                present.push(e.path());
            }
        }
    }
    present.sort();
    for file in &present {
        check_not_input(file, inputs)?;
    }
    if let (false, Some(first)) = (force, present.first()) {
        bail!(
            "{} holds another run's files ({}{}); use --force to replace them, or another directory",
            dir.display(),
            first.file_name().unwrap_or_default().to_string_lossy(),
            match present.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            }
        );
    }
    Ok(present)
}

/// `name` matches `pattern` (at most one `*`, standing for any text).
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Dir(PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
    fn dir(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("bgkit-cli-support-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    #[test]
    fn an_existing_output_is_refused_unless_forced() {
        let d = dir("exists");
        let out = d.0.join("out.csv");
        check(&out, &[], false).unwrap();
        std::fs::write(&out, "x").unwrap();
        let e = check(&out, &[], false).unwrap_err().to_string();
        assert_eq!(e, format!("{} exists (use --force to replace it)", out.display()));
        check(&out, &[], true).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_is_refused_even_with_force() {
        let d = dir("special");
        // /dev/null itself, a link to it and a FIFO.
        let mut outs = vec![PathBuf::from("/dev/null")];
        outs.extend(test_support::special_files(&d.0, "bd"));
        for out in &outs {
            for force in [false, true] {
                let e = check(out, &[], force).unwrap_err().to_string();
                assert_eq!(
                    e,
                    format!(
                        "{} is not a regular file (a FIFO, device or socket): name a file to write",
                        out.display()
                    )
                );
            }
        }
        // A link to a regular file is a file that exists.
        let file = d.0.join("real.bd");
        std::fs::write(&file, "x").unwrap();
        let to_file = d.0.join("to-real.bd");
        std::os::unix::fs::symlink(&file, &to_file).unwrap();
        assert!(check(&to_file, &[], false)
            .unwrap_err()
            .to_string()
            .ends_with("exists (use --force to replace it)"));
        check(&to_file, &[], true).unwrap();
    }

    #[test]
    fn a_directory_or_a_missing_directory_is_refused_even_with_force() {
        let d = dir("place");
        let sub = d.0.join("sub");
        std::fs::create_dir(&sub).unwrap();
        let file = d.0.join("f.txt");
        std::fs::write(&file, "x").unwrap();
        for force in [false, true] {
            let e = check(&sub, &[], force).unwrap_err().to_string();
            assert_eq!(
                e,
                format!(
                    "{} is a directory (the output is a file: name one in it)",
                    sub.display()
                )
            );
            let missing = d.0.join("none/out.csv");
            let e = check(&missing, &[], force).unwrap_err().to_string();
            assert_eq!(
                e,
                format!(
                    "cannot write {}: the directory {} does not exist",
                    missing.display(),
                    d.0.join("none").display()
                )
            );
            let under_file = file.join("out.csv");
            let e = check(&under_file, &[], force).unwrap_err().to_string();
            assert_eq!(
                e,
                format!(
                    "cannot write {}: {} is not a directory",
                    under_file.display(),
                    file.display()
                )
            );
        }
        // A bare name is in the working directory, which exists.
        check(Path::new("bgkit-no-such-output.csv"), &[], false).unwrap();
    }

    #[test]
    fn a_dash_is_not_an_output_file_or_run_directory() {
        for force in [false, true] {
            let e = check(Path::new("-"), &[], force).unwrap_err().to_string();
            assert!(
                e.starts_with("'-' as an output: standard output is not written here"),
                "{e}"
            );
            let e = check_run_dir(Path::new("-"), &[], &["net.wd"], force)
                .unwrap_err()
                .to_string();
            assert!(e.contains("(a file called '-' is ./-)"), "{e}");
        }
        // The way to a file of that name, in the working directory.
        if !Path::new("-").exists() {
            check(Path::new("./-"), &[], false).unwrap();
        }
    }

    #[test]
    fn an_output_equal_to_an_input_is_refused_even_with_force() {
        let d = dir("same");
        let input = d.0.join("t.json");
        std::fs::write(&input, "{}").unwrap();
        std::fs::create_dir(d.0.join("sub")).unwrap();
        let other = d.0.join("sub/../t.json");
        for force in [false, true] {
            let e = check(&other, &[Path::new("-"), &input], force)
                .unwrap_err()
                .to_string();
            assert!(e.contains("is also an input"), "{e}");
        }
        // Not existing yet: compared by parent and name.
        let new = d.0.join("sub/../new.csv");
        check(&new, &[&d.0.join("new.csv")], true).unwrap_err();
        check(&new, &[&input], false).unwrap();
    }

    #[test]
    fn a_run_directory_with_another_runs_files_is_refused() {
        let d = dir("run");
        let pats = ["net.wd", "state-*.wd", "curve.*"];
        assert!(check_run_dir(&d.0, &[], &pats, false).unwrap().is_empty());
        std::fs::write(d.0.join("notes.txt"), "mine").unwrap();
        assert!(check_run_dir(&d.0, &[], &pats, false).unwrap().is_empty());
        std::fs::write(d.0.join("curve.csv"), "x").unwrap();
        std::fs::write(d.0.join("state-10.wd"), "x").unwrap();
        let e = check_run_dir(&d.0, &[], &pats, false).unwrap_err().to_string();
        assert!(e.contains("curve.csv and 1 more") && e.contains("--force"), "{e}");
        assert_eq!(check_run_dir(&d.0, &[], &pats, true).unwrap().len(), 2);
        let input = d.0.join("curve.csv");
        check_run_dir(&d.0, &[&input], &pats, true).unwrap_err();
        // A file where the directory should be, --force or not.
        for force in [false, true] {
            let e = check_run_dir(&input, &[], &pats, force).unwrap_err().to_string();
            assert!(
                e.ends_with("curve.csv is not a directory (the run's output is one)"),
                "{e}"
            );
        }
        assert!(matches("state-*.wd", "state-100.wd") && !matches("state-*.wd", "state.json"));
    }
}

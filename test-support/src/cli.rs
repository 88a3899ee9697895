//! The CLI table: what every subcommand of every bgkit tool must survive (issue 19,
//! "make the classes impossible"). Each package's `tests/cli_table.rs` lists its
//! subcommands and runs them through these cases; the binaries are built by cargo for
//! their own package's integration tests only, so the table is one test file per
//! package sharing these helpers.
//!
//! The cases: stdout to /dev/full, stdout a closed pipe, stderr to /dev/full, an output
//! equal to an input, an existing output, a missing input. Everywhere: no panic (exit
//! 101), nothing overwritten, and at most one `tool: ` error line.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// One run of a tool.
#[derive(Debug)]
pub struct Run {
    /// The exit status (None: killed by a signal).
    pub code: Option<i32>,
    /// What it wrote on stderr.
    pub stderr: String,
}

fn full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full")
}

fn finish(what: &str, args: &[&str], o: Output) -> Run {
    let run = Run {
        code: o.status.code(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert_ne!(run.code, Some(101), "{what} {args:?} panicked: {}", run.stderr);
    assert!(run.code.is_some(), "{what} {args:?} was killed: {}", run.stderr);
    run
}

/// Runs `bin args` with stdout to /dev/full.
pub fn stdout_full(bin: &str, args: &[&str]) -> Run {
    let o = Command::new(bin).args(args).stdout(full()).output().unwrap();
    finish("stdout to /dev/full:", args, o)
}

/// Runs `bin args` with stdout a pipe whose reading end is closed at once (as
/// `… | head -0`).
pub fn stdout_closed(bin: &str, args: &[&str]) -> Run {
    let mut child = Command::new(bin)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    let run = Run {
        code: status.code(),
        stderr: err,
    };
    assert_ne!(
        run.code,
        Some(101),
        "closed stdout: {args:?} panicked: {}",
        run.stderr
    );
    assert!(
        run.code.is_some(),
        "closed stdout: {args:?} was killed: {}",
        run.stderr
    );
    run
}

/// Runs `bin args` with stderr to /dev/full (stdout discarded).
pub fn stderr_full(bin: &str, args: &[&str]) -> Run {
    let o = Command::new(bin)
        .args(args)
        .stdout(Stdio::null())
        .stderr(full())
        .output()
        .unwrap();
    finish("stderr to /dev/full:", args, o)
}

/// Runs `bin args` normally.
pub fn run(bin: &str, args: &[&str]) -> Run {
    let o = Command::new(bin).args(args).output().unwrap();
    finish("", args, o)
}

/// Asserts that `r` is one error, exit 2, printed once as `tool: …` containing `needle`.
pub fn assert_error(tool: &str, r: &Run, needle: &str, args: &[&str]) {
    assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
    let prefix = format!("{tool}: ");
    assert!(
        r.stderr.starts_with(&prefix) && r.stderr.contains(needle),
        "{args:?}: wanted `{prefix}…{needle}…`, got {}",
        r.stderr
    );
    assert_eq!(
        r.stderr.matches(&prefix).count(),
        1,
        "{args:?}: printed once: {}",
        r.stderr
    );
    assert_eq!(
        r.stderr.trim_end().lines().count(),
        1,
        "{args:?}: one line: {}",
        r.stderr
    );
}

/// stdout to /dev/full: the command fails with one `tool: cannot write to standard
/// output` line, exit 2.
pub fn case_stdout_full(tool: &str, bin: &str, args: &[&str]) {
    let r = stdout_full(bin, args);
    assert_error(tool, &r, "cannot write to standard output", args);
}

/// stdout a closed pipe: the command ends quietly with status 0 (or the status of its
/// answer, `ok`), nothing on stderr about the pipe.
pub fn case_stdout_closed(bin: &str, args: &[&str], ok: i32) {
    let r = stdout_closed(bin, args);
    assert_eq!(r.code, Some(ok), "closed stdout: {args:?}: {}", r.stderr);
    assert!(
        !r.stderr.contains("Broken pipe"),
        "closed stdout: {args:?}: {}",
        r.stderr
    );
}

/// stderr to /dev/full: the job still finishes (status `ok`) and writes `output`, if
/// it has one.
pub fn case_stderr_full(bin: &str, args: &[&str], ok: i32, output: Option<&Path>) {
    let r = stderr_full(bin, args);
    assert_eq!(r.code, Some(ok), "stderr to /dev/full: {args:?}");
    if let Some(out) = output {
        assert!(
            out.exists(),
            "stderr to /dev/full: {args:?} wrote no {}",
            out.display()
        );
    }
}

/// An existing output: refused with `exists (use --force …)` (or `needle`), and the
/// file's bytes unchanged.
pub fn case_existing_output(tool: &str, bin: &str, args: &[&str], output: &Path, needle: &str) {
    let before = crate::md5_hex(&std::fs::read(output).expect("the existing output"));
    let r = run(bin, args);
    assert_error(tool, &r, needle, args);
    let after = crate::md5_hex(&std::fs::read(output).unwrap());
    assert_eq!(before, after, "{args:?} changed {}", output.display());
}

/// An output path that cannot take a file, refused before any work, `--force` or not
/// (`args` should carry it): `args` name `out`, made here a directory holding a file of
/// the user's, which stays as it was, with no temporary file left beside it;
/// `missing_args` name a file in `missing_dir`, which does not exist, and the error
/// names that directory.
pub fn case_output_place(
    tool: &str,
    bin: &str,
    args: &[&str],
    out: &Path,
    missing_args: &[&str],
    missing_dir: &Path,
) {
    std::fs::create_dir_all(out).unwrap();
    std::fs::write(out.join("mine.txt"), "the user's").unwrap();
    let parent = out.parent().unwrap();
    let before = crate::dir_names(parent);
    let r = run(bin, args);
    assert_error(
        tool,
        &r,
        "is a directory (the output is a file: name one in it)",
        args,
    );
    assert_eq!(crate::dir_names(out), ["mine.txt"], "{args:?}");
    assert_eq!(
        std::fs::read_to_string(out.join("mine.txt")).unwrap(),
        "the user's"
    );
    assert_eq!(
        crate::dir_names(parent),
        before,
        "{args:?} left files beside the output"
    );
    assert!(!missing_dir.exists());
    let r = run(bin, missing_args);
    let needle = format!("the directory {} does not exist", missing_dir.display());
    assert_error(tool, &r, &needle, missing_args);
    assert!(
        !missing_dir.exists(),
        "{missing_args:?} created {}",
        missing_dir.display()
    );
}

/// An output equal to an input: refused (even with `--force`, which `args` should
/// carry), the input unchanged.
pub fn case_output_is_input(tool: &str, bin: &str, args: &[&str], input: &Path) {
    case_existing_output(tool, bin, args, input, "is also an input");
}

/// A missing input: one error naming it, exit 2.
pub fn case_missing_input(tool: &str, bin: &str, args: &[&str], missing: &str) {
    let r = run(bin, args);
    assert_error(tool, &r, missing, args);
}

/// Runs `bin args` with a file-size limit of `kib` KiB (RLIMIT_FSIZE, set by the shell
/// with `ulimit -f`; SIGXFSZ ignored), so that a write past the limit fails with EFBIG
/// as a write on a full disk fails with ENOSPC: the same error path of every writer.
pub fn disk_full(bin: &str, args: &[&str], kib: u64) -> Run {
    // POSIX sh counts `ulimit -f` in 512-byte blocks.
    let script = format!("trap '' XFSZ; ulimit -f {}; exec \"$0\" \"$@\"", kib * 2);
    let o = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .args(args)
        .output()
        .unwrap();
    finish("disk full:", args, o)
}

/// A write fails for lack of space: one `tool: …` error naming `needle` (the file),
/// exit 2, and `dir` holds afterwards exactly the files `keep` (no temporary file left
/// behind, nothing the user had lost).
pub fn case_disk_full(
    tool: &str,
    bin: &str,
    args: &[&str],
    kib: u64,
    needle: &str,
    dir: &Path,
    keep: &[&str],
) {
    let r = disk_full(bin, args, kib);
    assert_error(tool, &r, needle, args);
    assert!(
        r.stderr.contains("File too large"),
        "{args:?}: the write error is reported: {}",
        r.stderr
    );
    let mut left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut want: Vec<String> = keep.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(left, want, "{args:?}: files left in {}", dir.display());
}

/// Shell completions and man pages (`TOOL completions SHELL`, `TOOL man -o DIR`): the
/// bash script registers the tool and offers every subcommand in `subcommands`, and
/// passes `bash -n`; zsh and fish scripts name the tool; the man pages are one per
/// subcommand (`TOOL-SUB.1`, nested ones too, listed in `pages`), each a roff page with
/// its title; a second `man` run without `--force` is refused and changes nothing.
pub fn case_shell_docs(tool: &str, bin: &str, subcommands: &[&str], pages: &[&str], dir: &Path) {
    let o = Command::new(bin).args(["completions", "bash"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let script = String::from_utf8(o.stdout).unwrap();
    let function = format!("_{}", tool.replace('-', "__"));
    assert!(
        script.contains(&format!("complete -F {function}"))
            || script.contains(&format!("-F {function} {tool}")),
        "bash registers {tool}: {}",
        &script[script.len().saturating_sub(300)..]
    );
    for sub in subcommands {
        assert!(script.contains(sub), "bash completes {sub}");
    }
    let file = dir.join("completion.bash");
    std::fs::write(&file, &script).unwrap();
    let syntax = Command::new("bash").arg("-n").arg(&file).status().unwrap();
    assert!(syntax.success(), "bash -n accepts the script");
    let registered = Command::new("bash")
        .arg("-c")
        .arg(format!("source {} && complete -p {tool}", file.display()))
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&registered.stdout).contains(tool),
        "sourcing the script registers {tool}"
    );
    for shell in ["zsh", "fish"] {
        let o = Command::new(bin).args(["completions", shell]).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{shell}");
        assert!(String::from_utf8_lossy(&o.stdout).contains(tool), "{shell}");
    }
    let man = dir.join("man1");
    let args = ["man", "-o", man.to_str().unwrap()];
    let r = run(bin, &args);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let mut written = crate::dir_names(&man);
    written.sort();
    let mut want: Vec<String> = std::iter::once(format!("{tool}.1"))
        .chain(pages.iter().map(|p| format!("{tool}-{p}.1")))
        .collect();
    want.sort();
    assert_eq!(written, want, "one page per subcommand");
    for page in &want {
        let text = std::fs::read_to_string(man.join(page)).unwrap();
        let title = page.trim_end_matches(".1");
        assert!(text.contains(&format!(".TH {title} 1")), "{page} has its title");
    }
    let before = std::fs::read(man.join(&want[0])).unwrap();
    let r = run(bin, &args);
    assert_error(tool, &r, "exists (use --force to replace it)", &args);
    assert_eq!(std::fs::read(man.join(&want[0])).unwrap(), before);
}

/// A usage error (an unknown flag) is one `tool: …` line pointing to the subcommand's
/// `--help`, exit 2, as every other error.
pub fn case_usage_error(tool: &str, bin: &str, sub: &[&str]) {
    let mut args: Vec<&str> = sub.to_vec();
    args.push("--no-such-flag");
    let r = run(bin, &args);
    let see = format!("(see '{} --help')", [&[tool], sub].concat().join(" "));
    assert_error(tool, &r, "unexpected argument '--no-such-flag' found", &args);
    assert!(r.stderr.trim_end().ends_with(&see), "{args:?}: {}", r.stderr);
    let r = run(bin, &[]);
    assert_error(
        tool,
        &r,
        &format!("a subcommand is required (see '{tool} --help')"),
        &[],
    );
}

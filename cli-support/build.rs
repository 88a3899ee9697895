//! Records the commit the binaries are built from (`BGKIT_GIT_COMMIT`, read by
//! `about::GIT_COMMIT`): `git rev-parse --short HEAD`, or "unknown" when git or the
//! repository is not there (a source tarball). The script runs again when HEAD or the
//! branch it names moves, so the value follows commits and checkouts.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let commit = git(&dir, &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=BGKIT_GIT_COMMIT={commit}");
    if commit == "unknown" {
        return;
    }
    // Watch HEAD, the branch it points to and the packed refs: only files that exist
    // (cargo reruns the script on every build for a missing one).
    let mut watch = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
        watch.push(branch);
    }
    for name in watch {
        if let Some(p) = git(&dir, &["rev-parse", "--git-path", &name]) {
            let p = dir.join(p);
            if p.is_file() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
}

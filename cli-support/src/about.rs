//! What a measurement ran on, for benchmark reports: the tool's version, the commit it
//! was built from, the CPU model and the operating-system kernel. Each value is
//! "unknown" where it cannot be found (no git at build time, no `/proc`).

use serde::Serialize;

/// The commit the binaries were built from (`git rev-parse --short HEAD` at build time;
/// "unknown" when built outside a git checkout).
pub const GIT_COMMIT: &str = env!("BGKIT_GIT_COMMIT");

/// The build and the machine, as benchmark reports print them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct About {
    /// The tool's version (its crate version).
    pub version: String,
    /// The commit it was built from ([`GIT_COMMIT`]).
    pub git_commit: String,
    /// The CPU model (`model name` in /proc/cpuinfo).
    pub cpu: String,
    /// The operating-system kernel release (`uname -r`).
    pub kernel: String,
}

impl About {
    /// The build (`version`: the caller's `CARGO_PKG_VERSION`) and this machine.
    pub fn collect(version: &str) -> About {
        About {
            version: version.to_string(),
            git_commit: GIT_COMMIT.to_string(),
            cpu: cpu_model(),
            kernel: os_kernel(),
        }
    }
}

/// The CPU model from /proc/cpuinfo, or "unknown".
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| cpu_model_in(&text))
        .unwrap_or_else(|| "unknown".to_string())
}

/// The first `model name` of a /proc/cpuinfo text (whitespace runs collapsed).
pub fn cpu_model_in(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        (key.trim() == "model name" && !value.is_empty()).then_some(value)
    })
}

/// The kernel release (as `uname -r` prints it), or "unknown".
pub fn os_kernel() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn run(cmd: &str, args: &[&str]) -> Option<String> {
        let out = Command::new(cmd).args(args).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    #[test]
    fn the_kernel_is_what_uname_says() {
        let Some(uname) = run("uname", &["-r"]) else {
            return;
        };
        assert_eq!(os_kernel(), uname);
    }

    #[test]
    fn the_cpu_model_is_what_lscpu_says() {
        let text = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 1\n\
                    model name\t: AMD EPYC  7B13 64-Core Processor\nflags\t\t: fpu\n\n\
                    processor\t: 1\nmodel name\t: other\n";
        assert_eq!(
            cpu_model_in(text).as_deref(),
            Some("AMD EPYC 7B13 64-Core Processor")
        );
        assert_eq!(cpu_model_in("processor\t: 0\n"), None);
        // This machine: the same name as lscpu's "Model name".
        let Some(lscpu) = run("lscpu", &[]) else { return };
        let Some(want) = lscpu.lines().find_map(|l| l.strip_prefix("Model name:")) else {
            return;
        };
        assert_eq!(cpu_model(), want.split_whitespace().collect::<Vec<_>>().join(" "));
    }

    #[test]
    fn the_commit_is_the_checkout_head() {
        let dir = env!("CARGO_MANIFEST_DIR");
        match run("git", &["-C", dir, "rev-parse", "--short", "HEAD"]) {
            Some(head) => assert_eq!(GIT_COMMIT, head),
            None => assert_eq!(GIT_COMMIT, "unknown"),
        }
        let a = About::collect("1.2.3");
        assert_eq!((a.version.as_str(), a.git_commit.as_str()), ("1.2.3", GIT_COMMIT));
    }
}

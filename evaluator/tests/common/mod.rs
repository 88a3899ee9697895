//! Helpers shared by the evaluator's integration tests: gnubg's files and driving gnubg
//! itself as a live oracle.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use evaluator::bearoff::BearoffDbs;
use evaluator::weights::Weights;
use evaluator::Evaluator;

pub const WD: &str = "/usr/lib/gnubg/gnubg.wd";
pub const OS: &str = "/usr/share/gnubg/gnubg_os0.bd";
pub const TS: &str = "/var/lib/gnubg/gnubg_ts0.bd";
pub const GNUBG: &str = "/usr/games/gnubg";

pub fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/gnubg")
        .join(name)
}

/// True when every path exists. Missing files fail the test under
/// `BGKIT_REQUIRE_GNUBG=1` (CI) and skip it otherwise.
pub fn have(paths: &[&str]) -> bool {
    let missing: Vec<&&str> = paths.iter().filter(|p| !Path::new(p).exists()).collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var("BGKIT_REQUIRE_GNUBG").as_deref() == Ok("1") {
        panic!("gnubg files missing: {missing:?} (BGKIT_REQUIRE_GNUBG=1)");
    }
    eprintln!("skipping: gnubg files missing: {missing:?}");
    false
}

/// An evaluator with Debian's gnubg weights and bearoff databases.
pub fn gnubg_evaluator() -> Option<Evaluator> {
    if !have(&[WD, OS, TS]) {
        return None;
    }
    let dbs = BearoffDbs::open(Some(Path::new(OS)), Some(Path::new(TS))).unwrap();
    Some(Evaluator::new(Weights::load(WD).unwrap(), dbs))
}

/// Runs `body` (Python, with `lines` = this worker's input lines and `out` = an open
/// output file) inside `workers` parallel `gnubg -t -q -r -p` processes over `inputs`,
/// and returns the output lines in input order. Each gnubg call idles ~10 ms, so the
/// work is split across processes.
pub fn gnubg_python(body: &str, inputs: &[String], workers: usize) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("bgkit-gnubg-{}-{}", std::process::id(), rand_tag()));
    std::fs::create_dir_all(&dir).unwrap();
    let chunk = inputs.len().div_ceil(workers.max(1)).max(1);
    let mut children = Vec::new();
    for (w, part) in inputs.chunks(chunk).enumerate() {
        let input = dir.join(format!("in{w}.txt"));
        let output = dir.join(format!("out{w}.txt"));
        std::fs::write(&input, part.join("\n")).unwrap();
        let script = dir.join(format!("s{w}.py"));
        let program = format!(
            "import gnubg\n\
             gnubg.command('set player 0 human')\n\
             gnubg.command('set player 1 human')\n\
             gnubg.command('new game')\n\
             gnubg.command('set jacoby off')\n\
             ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)\n\
             ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)\n\
             lines = [l for l in open({input:?}).read().split('\\n') if l]\n\
             out = open({output:?}, 'w')\n\
             {body}\n\
             out.close()\n",
            input = input.display().to_string(),
            output = output.display().to_string(),
        );
        std::fs::write(&script, program).unwrap();
        let child = Command::new(GNUBG)
            .args(["-t", "-q", "-r", "-p"])
            .arg(&script)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        children.push((child, output, part.len()));
    }
    let mut lines = Vec::new();
    for (mut child, output, n) in children {
        child.wait().unwrap();
        let text = std::fs::read_to_string(&output).unwrap_or_default();
        let got: Vec<String> = text.lines().map(str::to_string).collect();
        assert_eq!(
            got.len(),
            n,
            "gnubg wrote {} of {n} results to {}",
            got.len(),
            output.display()
        );
        lines.extend(got);
    }
    std::fs::remove_dir_all(&dir).ok();
    lines
}

fn rand_tag() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64
}

/// The CPU vendor string (x86-64), e.g. "GenuineIntel" or "AuthenticAMD".
pub fn cpu_vendor() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("vendor_id"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_default()
}

//! gnubg run as a live oracle, under a time limit: a gnubg 1.07 process has been seen
//! to write all its results and then never finish its own exit (asleep in a loop for
//! 15 minutes after 2-ply evaluations), which would hang the test run until CI's own
//! limit. A run past [`GNUBG_LIMIT`] is killed and started once more; a second
//! overrun fails the test with what gnubg had printed.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use crate::{gnubg_home, scratch, GNUBG};

/// How long one gnubg process of a test may run (the longest, 2-ply searches over a
/// few hundred positions, take well under a minute).
pub const GNUBG_LIMIT: Duration = Duration::from_secs(300);

/// Waits for `child` at most `limit`; kills it (and reaps it) when it runs longer.
/// `None` on a kill.
fn wait_bounded(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for gnubg") {
            return Some(status);
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `cmd` (gnubg) with `stdin` as its standard input (none: an empty one) and
/// returns its status and output, as [`Command::output`] does, but under
/// [`GNUBG_LIMIT`]: an overrun is killed and run once more, a second one panics.
pub fn gnubg_output(cmd: &mut Command, stdin: Option<&[u8]>) -> Output {
    gnubg_home();
    output_within(cmd, stdin, GNUBG_LIMIT)
}

/// [`gnubg_output`] with the time limit `limit`.
fn output_within(cmd: &mut Command, stdin: Option<&[u8]>, limit: Duration) -> Output {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut log = String::new();
    for attempt in 1..=2 {
        let mut child = cmd.spawn().expect("gnubg runs");
        // Fed and read by threads, so that no pipe fills while the other is waited on.
        let input = stdin.unwrap_or_default().to_vec();
        let mut pipe_in = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            let _ = pipe_in.write_all(&input);
        });
        let reader = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut v = Vec::new();
                let _ = pipe.read_to_end(&mut v);
                v
            })
        };
        let out = reader(Box::new(child.stdout.take().unwrap()));
        let err = reader(Box::new(child.stderr.take().unwrap()));
        let status = wait_bounded(&mut child, limit);
        let _ = feeder.join();
        let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
        match status {
            Some(status) => {
                return Output {
                    status,
                    stdout,
                    stderr,
                }
            }
            None => {
                log = format!(
                    "{}{}",
                    String::from_utf8_lossy(&stdout),
                    String::from_utf8_lossy(&stderr)
                );
                eprintln!(
                    "gnubg ran past {} s (run {attempt} of 2) and was killed: {cmd:?}",
                    limit.as_secs_f64()
                );
            }
        }
    }
    panic!(
        "gnubg ran past {} s twice: {cmd:?}; its output:\n{log}",
        limit.as_secs_f64()
    );
}

/// One worker of [`gnubg_python`]: its script, output and stderr files.
struct Worker {
    script: PathBuf,
    output: PathBuf,
    errors: PathBuf,
    lines: usize,
}

impl Worker {
    fn start(&self) -> Child {
        // Each run starts on empty files (a killed run may have left a part).
        let _ = std::fs::remove_file(&self.output);
        Command::new(GNUBG)
            .args(["-t", "-q", "-r", "-p"])
            .arg(&self.script)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&self.errors).unwrap())
            .spawn()
            .expect("gnubg runs")
    }
}

/// Runs `body` (Python, with `lines` = this worker's input lines, `out` = an open
/// output file, `ci` a money cube and `ec` a 0-ply cubeless context) inside `workers`
/// parallel `gnubg -t -q -r -p` processes over `inputs`, and returns the output lines
/// in input order. Each gnubg call idles a little, so the work is split across
/// processes. The script ends the process itself (`os._exit`) once its output is
/// closed, which skips gnubg's own exit (where it was once seen to hang); each process
/// also runs under [`GNUBG_LIMIT`], and one that overruns it is run once more.
pub fn gnubg_python(body: &str, inputs: &[String], workers: usize) -> Vec<String> {
    let dir = scratch("gnubg", "python");
    gnubg_home();
    let chunk = inputs.len().div_ceil(workers.max(1)).max(1);
    let mut running = Vec::new();
    for (w, part) in inputs.chunks(chunk).enumerate() {
        let input = dir.join(format!("in{w}.txt"));
        let worker = Worker {
            script: dir.join(format!("s{w}.py")),
            output: dir.join(format!("out{w}.txt")),
            errors: dir.join(format!("err{w}.txt")),
            lines: part.len(),
        };
        std::fs::write(&input, part.join("\n")).unwrap();
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
             out.close()\n\
             import os, sys\n\
             sys.stdout.flush()\n\
             sys.stderr.flush()\n\
             os._exit(0)\n",
            input = input.display().to_string(),
            output = worker.output.display().to_string(),
        );
        std::fs::write(&worker.script, program).unwrap();
        let child = worker.start();
        running.push((child, worker));
    }
    let mut lines = Vec::new();
    // The processes run side by side; each is waited for in turn, its limit counted
    // from when its wait begins (at least GNUBG_LIMIT from its start).
    for (mut child, worker) in running {
        let mut status = wait_bounded(&mut child, GNUBG_LIMIT);
        if status.is_none() {
            eprintln!(
                "gnubg ran past {} s on {} and was killed; running it once more",
                GNUBG_LIMIT.as_secs(),
                worker.script.display()
            );
            status = wait_bounded(&mut worker.start(), GNUBG_LIMIT);
        }
        let status = status.unwrap_or_else(|| {
            panic!(
                "gnubg ran past {} s twice on {}; its stderr:\n{}",
                GNUBG_LIMIT.as_secs(),
                worker.script.display(),
                std::fs::read_to_string(&worker.errors).unwrap_or_default()
            )
        });
        let text = std::fs::read_to_string(&worker.output).unwrap_or_default();
        let got: Vec<String> = text.lines().map(str::to_string).collect();
        // On a short answer, say how gnubg ended and what it printed on stderr.
        assert_eq!(
            got.len(),
            worker.lines,
            "gnubg ({status}) wrote {} of {} results to {}; its stderr:\n{}",
            got.len(),
            worker.lines,
            worker.output.display(),
            std::fs::read_to_string(&worker.errors).unwrap_or_default()
        );
        lines.extend(got);
    }
    std::fs::remove_dir_all(&dir).ok();
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overrun_is_killed_and_reaped() {
        let start = Instant::now();
        let mut child = Command::new("sleep").arg("30").spawn().unwrap();
        assert!(wait_bounded(&mut child, Duration::from_millis(200)).is_none());
        assert!(start.elapsed() < Duration::from_secs(10));
        // Reaped: the process is gone and its status was collected.
        assert!(child.try_wait().unwrap().is_some());
    }

    #[test]
    fn a_run_within_the_limit_keeps_its_status() {
        let mut ok = Command::new("true").spawn().unwrap();
        assert!(wait_bounded(&mut ok, Duration::from_secs(60)).unwrap().success());
        let mut bad = Command::new("false").spawn().unwrap();
        assert_eq!(
            wait_bounded(&mut bad, Duration::from_secs(60)).unwrap().code(),
            Some(1)
        );
    }

    /// A command that hangs on its first run only (it leaves a marker file).
    fn hangs_once(dir: &std::path::Path) -> Command {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg("if [ -e marker ]; then cat; echo again; else touch marker; echo first; exec sleep 30; fi")
            .current_dir(dir);
        cmd
    }

    #[test]
    fn an_overrun_runs_once_more() {
        let dir = scratch("test-support", "overrun");
        let out = output_within(&mut hangs_once(&dir), Some(b"fed\n"), Duration::from_millis(500));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout), "fed\nagain\n");
    }

    #[test]
    #[should_panic(expected = "twice")]
    fn a_second_overrun_fails() {
        let mut cmd = Command::new("sleep");
        cmd.arg("30");
        output_within(&mut cmd, None, Duration::from_millis(200));
    }
}

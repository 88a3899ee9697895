//! Inputs that can be read only once (`/dev/stdin`, a shell's `<(zcat f.csv.gz)`, a
//! FIFO): their format is recognised from the same bytes they are parsed from, so they
//! give what the file gives; a binary dataset, which is memory-mapped, is refused by
//! name.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use datasets::format::{self, Format, Input, Sample};

/// Labelled positions of seeded random games, with and without standard errors.
fn samples(with_se: bool) -> Vec<Sample> {
    common::random_game_positions(7, 3, 2)
        .into_iter()
        .take(40)
        .enumerate()
        .map(|(i, position)| {
            let p = (i % 9) as f32 / 10.0;
            Sample {
                position,
                probs: [p, p / 2.0, p / 8.0, (1.0 - p) / 3.0, 0.0],
                se: with_se.then_some([0.01, 0.005, 0.001, 0.004, 0.0]),
                trials: 0,
            }
        })
        .collect()
}

/// `datasets ARGS` with `stdin` as its standard input, through a pipe.
fn with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_datasets"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    // Written from a thread: the tool may read it only after it has started.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_text_format_reads_from_a_pipe_as_from_its_file() {
    let dir = common::scratch("pipes-lib");
    for (name, fmt, with_se) in [
        ("d.csv", Format::Csv, true),
        ("plain.csv", Format::Csv, false),
        ("d.nn", Format::GnubgNn, false),
    ] {
        let path = dir.join(name);
        let written = samples(with_se);
        format::write(&path, fmt, &written).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let Some(fifo) = fifo_with(&dir, &bytes) else {
            return;
        };
        let input = Input::open(&fifo.path).unwrap();
        assert!(input.is_stream());
        // The format is recognised and the samples parsed from the one reading.
        let recognised = input.format().unwrap();
        let from_pipe = input.samples(recognised).unwrap();
        fifo.finish();
        let expected = if fmt == Format::Csv {
            Format::Csv
        } else {
            Format::GnubgNn
        };
        assert_eq!(recognised, expected, "{name}");
        assert_eq!(from_pipe, format::read(&path, fmt).unwrap(), "{name}");
        assert_eq!(from_pipe.len(), written.len());
        // Positions only, the way rollouts and labels read their input.
        let fifo = fifo_with(&dir, &bytes).unwrap();
        let positions = Input::open(&fifo.path).unwrap().positions().unwrap();
        fifo.finish();
        let expected: Vec<_> = written.iter().map(|s| s.position).collect();
        assert_eq!(positions, expected, "{name}");
    }
    // A binary dataset cannot be mapped from a pipe: refused, naming the pipe.
    let bin = dir.join("d.bgds");
    format::write(&bin, Format::Binary, &samples(true)).unwrap();
    let fifo = fifo_with(&dir, &std::fs::read(&bin).unwrap()).unwrap();
    let input = Input::open(&fifo.path).unwrap();
    assert_eq!(input.format().unwrap(), Format::Binary);
    let e = input.samples(Format::Binary).unwrap_err().to_string();
    let named = e.contains(&fifo.path.display().to_string());
    fifo.finish();
    assert!(named && e.contains("must be a file, not a pipe"), "{e}");
}

#[test]
fn stats_convert_and_rollout_read_standard_input() {
    let dir = common::scratch("pipes-cli");
    let csv = dir.join("d.csv");
    format::write(&csv, Format::Csv, &samples(true)).unwrap();
    let bytes = std::fs::read(&csv).unwrap();

    // stats: the same table as for the file, under the name it was given.
    let of_file = common::ok(&["stats", common::s(&csv)]);
    let of_pipe = with_stdin(&["stats", "/dev/stdin"], &bytes);
    assert_eq!(of_pipe.status.code(), Some(0), "{}", text(&of_pipe.stderr));
    assert_eq!(
        text(&of_pipe.stdout).replace("/dev/stdin", "FILE"),
        text(&of_file.stdout).replace(common::s(&csv), "FILE")
    );
    let n = samples(true).len();
    assert!(text(&of_pipe.stdout).contains(&format!("{n} positions (csv)")));

    // convert: the same bytes out.
    let (from_file, from_pipe) = (dir.join("f.nn"), dir.join("p.nn"));
    common::ok(&["convert", common::s(&csv), common::s(&from_file), "-q"]);
    let r = with_stdin(&["convert", "/dev/stdin", common::s(&from_pipe), "-q"], &bytes);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(
        std::fs::read(&from_file).unwrap(),
        std::fs::read(&from_pipe).unwrap()
    );

    // A positions file: counts per class.
    let positions = b"position_id\n4HPwATDgc/ABMA\njGfwATDgc/ABMA\n";
    let r = with_stdin(&["stats", "/dev/stdin"], positions);
    assert!(
        text(&r.stdout).contains("2 positions (no targets)"),
        "{}",
        text(&r.stderr)
    );

    // A binary dataset: one message, exit 2.
    let bin = dir.join("d.bgds");
    format::write(&bin, Format::Binary, &samples(true)).unwrap();
    let r = with_stdin(&["stats", "/dev/stdin"], &std::fs::read(&bin).unwrap());
    assert_eq!(r.status.code(), Some(2));
    let e = text(&r.stderr);
    assert!(
        e.starts_with("datasets: /dev/stdin: a binary dataset is memory-mapped") && e.lines().count() == 1,
        "{e}"
    );

    // A rollout of positions from standard input: the numbers of the file's.
    if !common::have(&[common::WD, common::OS, common::TS]) {
        return;
    }
    let list = dir.join("positions.csv");
    std::fs::write(&list, positions).unwrap();
    let roll = ["--trials", "12", "--truncate", "4", "--no-vr", "-q"];
    let (out_file, out_pipe) = (dir.join("rf.csv"), dir.join("rp.csv"));
    let mut args = vec!["rollout", "--input", common::s(&list), "-o", common::s(&out_file)];
    args.extend(roll);
    common::ok(&args);
    let mut args = vec!["rollout", "--input", "/dev/stdin", "-o", common::s(&out_pipe)];
    args.extend(roll);
    let r = with_stdin(&args, positions);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(
        std::fs::read(&out_file).unwrap(),
        std::fs::read(&out_pipe).unwrap()
    );
}

/// A FIFO in `dir` with a thread writing `bytes` into it; `None` where mkfifo is
/// missing.
fn fifo_with(dir: &Path, bytes: &[u8]) -> Option<Fifo> {
    let path = dir.join("fifo");
    let _ = std::fs::remove_file(&path);
    let made = Command::new("mkfifo").arg(&path).status().map(|s| s.success());
    if !matches!(made, Ok(true)) {
        return None;
    }
    let (p, bytes) = (path.clone(), bytes.to_vec());
    let writer = std::thread::spawn(move || {
        // Opening blocks until the reader opens it.
        let mut f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
        let _ = f.write_all(&bytes);
    });
    Some(Fifo { path, writer })
}

struct Fifo {
    path: std::path::PathBuf,
    writer: std::thread::JoinHandle<()>,
}

impl Fifo {
    /// Waits for the writer (the reader has read everything) and removes the FIFO.
    fn finish(self) {
        self.writer.join().unwrap();
        std::fs::remove_file(&self.path).unwrap();
    }
}

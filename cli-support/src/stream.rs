//! Standard output and standard error that never panic.
//!
//! `println!` panics when stdout is closed (`… | head -1`) or full (`>/dev/full`). The
//! binaries write stdout through [`out!`](crate::out)/[`outln!`](crate::outln) or
//! [`Stdout`] instead, which return the error (naming standard output, and keeping its
//! kind) to the command, and `?` ends it: [`exit_status`](crate::exit_status) turns a
//! closed pipe into a quiet exit 0 and any other failure into `tool: cannot write to
//! standard output: …`, exit 2.
//!
//! Standard error carries progress, notes and logs: [`errln!`](crate::errln) writes
//! there best-effort, so that a closed or full stderr never stops a job.

use std::fmt::Arguments;
use std::io::{self, Write};

/// Standard output whose write errors name it (the error kind is kept, so a closed pipe
/// is still recognised as one). Wrap it in a `BufWriter` for many small writes.
#[derive(Debug)]
pub struct Stdout(io::Stdout);

/// Standard output, for writers; see [`Stdout`].
pub fn stdout() -> Stdout {
    Stdout(io::stdout())
}

fn named(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("cannot write to standard output: {e}"))
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(named)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(named)
    }
}

/// Writes formatted text to stdout and flushes it (what [`out!`](crate::out) calls).
pub fn write_out(args: Arguments) -> io::Result<()> {
    let mut o = stdout();
    o.write_fmt(args)?;
    o.flush()
}

/// Writes formatted text to stderr, ignoring errors (what [`errln!`](crate::errln)
/// calls).
pub fn write_err(args: Arguments) {
    let mut e = io::stderr().lock();
    let _ = e.write_fmt(args);
    let _ = e.flush();
}

/// `print!` that returns an `io::Result` instead of panicking: `out!("{x}")?`.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::stream::write_out(format_args!($($arg)*))
    };
}

/// `println!` that returns an `io::Result` instead of panicking: `outln!("{x}")?`.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::stream::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::stream::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that never fails nor panics: a line on stderr, best-effort.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::stream::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

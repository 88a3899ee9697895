//! The exit status of a command: 0 success, 1 a clean negative answer, 2 an error
//! printed once on stderr as `program: message`.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

/// The exit status of a bgkit command from its result: the command's own status, or
/// for an error its message (with causes) on stderr after `program: ` and status 2.
/// A closed output pipe (`… | head`) ends the command quietly with success (status 0,
/// the convention of `cat`, `seq` and friends run with SIGPIPE ignored: the reader has
/// what it wanted). The message itself is written best-effort: a failed stderr does not
/// turn an error into a panic.
pub fn exit_status(program: &str, result: Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) => {
            let broken_pipe = err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            let _ = std::io::stdout().flush();
            crate::errln!("{program}: {}", message(&err));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes joined by `: `, leaving out a cause whose text the message
/// already ends with (error types that print their source as part of themselves).
pub fn message(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Wraps(std::io::Error);

    impl std::fmt::Display for Wraps {
        fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "data.csv: {}", self.0)
        }
    }

    impl std::error::Error for Wraps {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_cause_is_printed_once() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = anyhow::Error::new(Wraps(io())).context("reading the input");
        assert_eq!(message(&e), "reading the input: data.csv: gone");
        let e = anyhow::Error::new(io()).context("cannot open x");
        assert_eq!(message(&e), "cannot open x: gone");
    }

    #[test]
    fn errors_exit_with_status_2_and_broken_pipes_with_0() {
        let e = anyhow::anyhow!("bad");
        assert_eq!(exit_status("t", Err(e)), ExitCode::from(2));
        let pipe = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "pipe");
        assert_eq!(exit_status("t", Err(pipe.into())), ExitCode::SUCCESS);
        assert_eq!(exit_status("t", Ok(ExitCode::from(1))), ExitCode::from(1));
    }
}

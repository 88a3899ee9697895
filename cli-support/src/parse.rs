//! Parsing the command line with clap, with clap's errors in every tool's one form: a
//! single line `tool: message (see 'tool sub --help')` and status 2, instead of clap's
//! own `error: …` block. `--help` and `--version` print on stdout as usual (status 0;
//! a full stdout is an error, a closed pipe is not), through the non-panicking
//! [`stdout`](crate::stdout).

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;

/// The parsed command line, or the status to exit with after help, the version or a
/// usage error has been printed.
///
/// A value that looks like a negative number (`--alpha -1`, `--seed -3`) is taken as the
/// option's value, so that the error says what is wrong with it instead of calling it an
/// unexpected argument.
pub fn parse<C: Parser>(program: &str) -> Result<C, ExitCode> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    parse_from(&args).map_err(|e| report(program, &command_path(&C::command(), &args), &e, &args))
}

/// [`parse`]'s parsing, of `args` (the program's name first).
pub fn parse_from<C: Parser>(args: &[std::ffi::OsString]) -> Result<C, clap::Error> {
    let mut cmd = negative_numbers(C::command());
    let mut matches = cmd.try_get_matches_from_mut(args)?;
    C::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut cmd))
}

fn negative_numbers(cmd: clap::Command) -> clap::Command {
    cmd.allow_negative_numbers(true).mut_subcommands(negative_numbers)
}

/// The subcommand the arguments name, as `tool sub subsub` (words that are a
/// subcommand's name, in order; options and values skipped).
pub fn command_path(cmd: &clap::Command, args: &[std::ffi::OsString]) -> String {
    let mut path = vec![cmd.get_name().to_string()];
    let mut cmd = cmd;
    for arg in args.iter().skip(1) {
        if arg == "--" {
            break;
        }
        if let Some(sub) = arg.to_str().and_then(|a| cmd.find_subcommand(a)) {
            path.push(sub.get_name().to_string());
            cmd = sub;
        }
    }
    path.join(" ")
}

/// Prints what clap has to say (help, version, or a usage error as one `tool:` line
/// pointing to `command --help`) and returns the exit status; `args` is the command
/// line that failed.
pub fn report(program: &str, command: &str, e: &clap::Error, args: &[std::ffi::OsString]) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let text = e.render().to_string();
            let written = (|| -> std::io::Result<()> {
                let mut out = crate::stdout();
                out.write_all(text.as_bytes())?;
                out.flush()
            })();
            crate::exit_status(program, written.map(|()| ExitCode::SUCCESS).map_err(Into::into))
        }
        _ => {
            crate::errln!("{program}: {}", usage_line(e, command, args));
            ExitCode::from(2)
        }
    }
}

/// The one line a usage error gets: [`message`], or for an XGID without its prefix that
/// clap took for options (it begins with `-`), how to give it.
pub fn usage_line(e: &clap::Error, command: &str, args: &[std::ffi::OsString]) -> String {
    let dashed_xgid = args
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .filter_map(|a| a.to_str())
        .find(|a| looks_like_dashed_xgid(a));
    match (e.kind(), dashed_xgid) {
        (ErrorKind::UnknownArgument, Some(xgid)) => format!(
            "'{xgid}' looks like an XGID that begins with '-', which reads as an option: \
             write it as 'XGID={xgid}' (see '{command} --help')"
        ),
        _ => message(&e.render().to_string(), command),
    }
}

/// An XGID's shape (a 26-character board of `-`, `a`–`p`, `A`–`P`, then `:` and the
/// rest) that starts with `-`: the board's first character is the lower-case player's
/// bar, empty in most positions, so most XGIDs without their prefix parse as options.
fn looks_like_dashed_xgid(arg: &str) -> bool {
    let Some((board, _)) = arg.split_once(':') else {
        return false;
    };
    board.len() == 26
        && board.starts_with('-')
        && board
            .bytes()
            .all(|b| b == b'-' || matches!(b.to_ascii_lowercase(), b'a'..=b'p'))
}

/// clap's rendered error as one line: the error, its tips, and where to read more
/// (`command --help`).
pub fn message(rendered: &str, command: &str) -> String {
    let mut text = String::new();
    for raw in rendered.lines() {
        let line = raw.trim();
        if let Some(first) = line.strip_prefix("error: ") {
            text = first.to_string();
        } else if let Some(tip) = line.strip_prefix("tip: ") {
            text.push_str("; ");
            text.push_str(tip);
        } else if raw.starts_with(' ') && !line.is_empty() && !text.is_empty() {
            // The error's own list (e.g. the missing arguments), one per line.
            if !text.ends_with(':') {
                text.push(',');
            }
            text.push(' ');
            text.push_str(line);
        } else if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
    }
    if text.is_empty() {
        // A kind without an `error:` line (help shown for a missing subcommand).
        text = "a subcommand is required".to_string();
    }
    format!("{text} (see '{command} --help')")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[derive(Parser, Debug)]
    #[command(name = "toy")]
    enum Toy {
        /// Play.
        Play {
            #[arg(long)]
            games: u64,
            #[arg(long, default_value_t = 0.0)]
            alpha: f64,
        },
    }

    fn os(args: &[&str]) -> Vec<std::ffi::OsString> {
        args.iter().map(Into::into).collect()
    }

    fn line(args: &[&str]) -> String {
        let e = parse_from::<Toy>(&os(args)).unwrap_err();
        usage_line(&e, &command_path(&Toy::command(), &os(args)), &os(args))
    }

    #[test]
    fn clap_errors_become_one_line() {
        assert_eq!(
            line(&["toy", "play", "--games", "x"]),
            "invalid value 'x' for '--games <GAMES>': invalid digit found in string (see 'toy play --help')"
        );
        assert_eq!(
            line(&["toy", "play", "--game", "3"]),
            "unexpected argument '--game' found; a similar argument exists: '--games' (see 'toy play --help')"
        );
        assert_eq!(
            line(&["toy", "play"]),
            "the following required arguments were not provided: --games <GAMES> (see 'toy play --help')"
        );
        let missing = line(&["toy"]);
        assert!(
            missing.contains("subcommand") && missing.ends_with("(see 'toy --help')"),
            "{missing}"
        );
        assert!(!line(&["toy", "play", "--games", "x"]).contains('\n'));
    }

    #[test]
    fn a_negative_number_is_a_value() {
        assert_eq!(
            line(&["toy", "play", "--games", "-3"]),
            "invalid value '-3' for '--games <GAMES>': invalid digit found in string (see 'toy play --help')"
        );
        let Toy::Play { games, alpha } =
            parse_from::<Toy>(&os(&["toy", "play", "--games", "2", "--alpha", "-0.5"])).unwrap();
        assert_eq!((games, alpha), (2, -0.5));
        // Anything else that starts with a dash is still an option.
        assert!(line(&["toy", "play", "--games", "-x"]).starts_with("unexpected argument '-x' found"));
    }

    #[test]
    fn an_xgid_taken_for_options_is_named() {
        // The opening position with 5-2 to play, as XG writes it without its prefix
        // (its first character, the lower-case player's bar, is empty).
        let xgid = "-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10";
        assert_eq!(
            line(&["toy", "play", xgid, "--games", "2"]),
            format!(
                "'{xgid}' looks like an XGID that begins with '-', which reads as an option: \
                 write it as 'XGID={xgid}' (see 'toy play --help')"
            )
        );
        // Other unknown options, and an XGID after `--` (where the toy takes no
        // argument), keep clap's message.
        assert!(line(&["toy", "play", "-bc:0", "--games", "2"]).starts_with("unexpected argument '-b'"));
        let after_dashes = line(&["toy", "play", "--games", "2", "--", xgid]);
        assert!(
            after_dashes.starts_with("unexpected argument '-b----E"),
            "{after_dashes}"
        );
    }

    #[test]
    fn help_and_version_are_not_errors() {
        let e = Toy::try_parse_from(["toy", "--help"]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DisplayHelp);
    }
}

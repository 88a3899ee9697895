//! Shell completions, man pages and usage errors of `trainer` (issue 19).

use test_support::cli::*;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_trainer");

const SUBCOMMANDS: &[&str] = &[
    "td",
    "duel",
    "tourney",
    "supervised",
    "benchmark",
    "curve",
    "completions",
    "man",
];

#[test]
fn completions_and_man_pages_cover_every_subcommand() {
    let dir = Scratch::new("trainer", "shell-docs");
    let tourney = ["new", "run", "standings", "upgrade", "replace", "export"];
    let mut pages: Vec<String> = SUBCOMMANDS.iter().map(|s| s.to_string()).collect();
    pages.extend(tourney.iter().map(|s| format!("tourney-{s}")));
    let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
    case_shell_docs("trainer", BIN, SUBCOMMANDS, &pages, &dir);
}

#[test]
fn usage_errors_are_one_line() {
    case_usage_error("trainer", BIN, &["td"]);
    case_usage_error("trainer", BIN, &["tourney", "run"]);
}

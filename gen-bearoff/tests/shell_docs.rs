//! Shell completions, man pages and usage errors of `gen-bearoff` (issue 19).

use test_support::cli::*;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_gen-bearoff");

const SUBCOMMANDS: &[&str] = &[
    "one-sided",
    "two-sided",
    "two-sided-plan",
    "hyper",
    "dump",
    "verify",
    "compare",
    "completions",
    "man",
];

#[test]
fn completions_and_man_pages_cover_every_subcommand() {
    let dir = Scratch::new("gen-bearoff", "shell-docs");
    case_shell_docs("gen-bearoff", BIN, SUBCOMMANDS, SUBCOMMANDS, &dir);
}

#[test]
fn usage_errors_are_one_line() {
    case_usage_error("gen-bearoff", BIN, &["one-sided"]);
    case_usage_error("gen-bearoff", BIN, &["verify"]);
}

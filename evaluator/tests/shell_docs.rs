//! Shell completions, man pages and usage errors of `evaluator` (issue 19).

use test_support::cli::*;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_evaluator");

const SUBCOMMANDS: &[&str] = &[
    "eval",
    "best-move",
    "moves",
    "notation",
    "show",
    "bench",
    "completions",
    "man",
];

#[test]
fn completions_and_man_pages_cover_every_subcommand() {
    let dir = Scratch::new("evaluator", "shell-docs");
    case_shell_docs("evaluator", BIN, SUBCOMMANDS, SUBCOMMANDS, &dir);
}

#[test]
fn usage_errors_are_one_line() {
    case_usage_error("evaluator", BIN, &["eval"]);
    case_usage_error("evaluator", BIN, &["bench"]);
}

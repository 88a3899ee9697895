//! Shell completions, man pages and usage errors of `datasets` (issue 19).

use test_support::cli::*;
use test_support::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_datasets");

const SUBCOMMANDS: &[&str] = &[
    "sample",
    "rollout",
    "label",
    "convert",
    "stats",
    "merge",
    "benchmark",
    "completions",
    "man",
];

#[test]
fn completions_and_man_pages_cover_every_subcommand() {
    let dir = Scratch::new("datasets", "shell-docs");
    let mut pages = SUBCOMMANDS.to_vec();
    pages.push("benchmark-build");
    case_shell_docs("datasets", BIN, SUBCOMMANDS, &pages, &dir);
}

#[test]
fn usage_errors_are_one_line() {
    case_usage_error("datasets", BIN, &["rollout"]);
    case_usage_error("datasets", BIN, &["label"]);
    case_usage_error("datasets", BIN, &["benchmark", "build"]);
}

//! `--json` output: `dump` and `verify` describe their documents as
//! `#[derive(serde::Serialize)]` structs (field order = declaration order, `Option` →
//! `null`) and print them here with serde_json's pretty printer, as the other tools do.
//! `f32` fields are serialised as `f32`, so each number is the shortest decimal that
//! reads back to the stored `f32` (0.3, not 0.30000001192092896); serde_json writes a
//! non-finite number as `null`.

use anyhow::Result;
use serde::Serialize;

/// Prints `doc` on stdout as pretty JSON (two-space indent), with a final newline.
pub fn print<T: Serialize>(doc: &T) -> Result<()> {
    cli_support::outln!("{}", serde_json::to_string_pretty(doc)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    /// What the `--json` documents rely on from serde_json, spelt out by hand: `f32`
    /// as the shortest `f32` decimal, `f64` likewise, non-finite and `None` as `null`.
    #[test]
    fn numbers_and_options_print_as_documented() {
        #[derive(serde::Serialize)]
        struct Doc {
            a: f32,
            b: [f32; 4],
            c: Option<f32>,
            d: f64,
            e: &'static str,
        }
        let doc = Doc {
            a: 0.3,
            b: [f32::NAN, f32::INFINITY, 1.0, 0.08332952],
            c: None,
            d: 0.1 + 0.2,
            e: "x\"y\n",
        };
        let want = "{\n  \"a\": 0.3,\n  \"b\": [\n    null,\n    null,\n    1.0,\n    0.08332952\n  ],\n  \"c\": null,\n  \"d\": 0.30000000000000004,\n  \"e\": \"x\\\"y\\n\"\n}";
        assert_eq!(serde_json::to_string_pretty(&doc).unwrap(), want);
    }
}

//! `datasets stats`: a dataset's summary.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use datasets::format::{Format, Input};

use super::FormatArg;
use datasets::stats::{count_classes, summarize};
use serde_json::json;

/// Summarise a dataset: positions per class (gnubg's classes under its default
/// bearoff databases), mean targets, mean standard errors, duplicates. A CSV file of
/// positions only (a `position_id` column) gets its counts per class.
#[derive(clap::Args)]
pub struct Args {
    /// Dataset to read (CSV, gnubg-nn text or binary).
    #[arg(value_parser = cli_support::args::input_file())]
    input: PathBuf,
    /// Input format (default: recognised).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let input = Input::open(&args.input)?;
    let fmt = match args.format {
        Some(f) => f.into(),
        None => input.format()?,
    };
    let mut out = cli_support::stdout();
    if fmt == Format::Csv && !input.has_targets()? {
        // A positions file (e.g. from `datasets sample`): counts only.
        let positions = input.position_ids()?;
        let counts = count_classes(&positions);
        if args.json {
            let classes: Vec<_> = counts
                .iter()
                .map(|(c, n)| json!({"class": c, "count": n}))
                .collect();
            let doc = json!({"all": {"count": positions.len()}, "classes": classes});
            writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        } else {
            writeln!(
                out,
                "{}: {} positions (no targets)",
                args.input.display(),
                positions.len()
            )?;
            for (c, n) in counts {
                writeln!(out, "{c:<10} {n:>9}")?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let samples = input.samples(fmt)?;
    let s = summarize(&samples);
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&s)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{}: {} positions ({}), {} duplicates",
        args.input.display(),
        s.all.count,
        fmt.name(),
        s.duplicates
    )?;
    writeln!(
        out,
        "{:<10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9}",
        "class", "count", "win", "win_g", "win_bg", "lose_g", "lose_bg", "equity", "win_se"
    )?;
    for c in s.classes.iter().chain(std::iter::once(&s.all)) {
        let m = c.mean;
        writeln!(
            out,
            "{:<10} {:>9} {:>8.4} {:>8.4} {:>8.4} {:>8.4} {:>8.4} {:>+8.4} {:>9}",
            c.class,
            c.count,
            m[0],
            m[1],
            m[2],
            m[3],
            m[4],
            c.mean_equity,
            c.mean_se.map_or("-".to_string(), |e| format!("{:.5}", e[0]))
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

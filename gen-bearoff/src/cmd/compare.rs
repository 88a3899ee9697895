//! `gen-bearoff compare`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Parser;

use gen_bearoff::hyper::verify::compare;
use gen_bearoff::BearoffDb;

/// Options of `compare`.
#[derive(Parser, Debug)]
pub struct Args {
    /// The first hypergammon database.
    pub a: PathBuf,
    /// The second one (same number of checkers).
    pub b: PathBuf,
    /// Exit with status 1 if any value differs by more than this.
    #[arg(long)]
    pub tolerance: Option<f64>,
}

/// Runs `compare`: prints the largest differences, one `key value` line each.
pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(t) = args.tolerance {
        // NaN would pass any difference (no comparison with it is true).
        if !(t >= 0.0 && t.is_finite()) {
            bail!("--tolerance must be a number of at least 0, got {t}");
        }
    }
    let open = |p: &PathBuf| -> Result<_> {
        match BearoffDb::open(p)? {
            BearoffDb::Hypergammon(db) => Ok(db),
            other => bail!(
                "{}: compare works on hypergammon databases, this is {} (compare bearoff files byte for byte, e.g. with cmp)",
                p.display(),
                other.kind()
            ),
        }
    };
    let (a, b) = (open(&args.a)?, open(&args.b)?);
    let c = compare(&a, &b)?;
    cli_support::outln!("records {}", c.records)?;
    cli_support::outln!(
        "max_probability_difference {:.3e} record {}",
        c.probabilities.0,
        c.probabilities.1
    )?;
    cli_support::outln!(
        "max_cubeless_difference {:.3e} record {}",
        c.cubeless.0,
        c.cubeless.1
    )?;
    cli_support::outln!(
        "max_cubeful_difference {:.3e} record {}",
        c.cubeful.0,
        c.cubeful.1
    )?;
    for (t, n) in ["1e-7", "1e-6", "1e-5", "1e-4", "1e-3"].iter().zip(c.beyond) {
        cli_support::outln!("records_differing_by_more_than_{t} {n}")?;
    }
    let worst = c.probabilities.0.max(c.cubeless.0).max(c.cubeful.0);
    Ok(match args.tolerance {
        Some(t) if worst > t => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

//! One module per subcommand, each with its `Args` and `run`.

pub mod bench;
pub mod best_move;
pub mod eval;
pub mod moves;
pub mod notation;
pub mod position;
pub mod show;

use anyhow::{Context, Result};
use board::{Dice, Position};
pub use cli_support::EngineArgs;
use evaluator::engine::EngineOptions;
use evaluator::Evaluator;

/// The evaluator library's engine options from the shared engine flags.
pub fn engine_options(a: &EngineArgs) -> EngineOptions {
    EngineOptions {
        weights: a.weights.clone(),
        bearoff_os: a.bearoff_os.clone(),
        bearoff_ts: a.bearoff_ts.clone(),
        no_bearoff: a.no_bearoff,
    }
}

/// One row of an input CSV: its Position ID as written, the position, and the dice
/// (`(die1, die2, roll)` as written) when the command reads dice.
pub struct Row {
    /// The `position_id` field, trimmed.
    pub id: String,
    /// The decoded position.
    pub pos: Position,
    /// `die1`, `die2` and the roll, for commands that read dice.
    pub dice: Option<(u8, u8, Dice)>,
}

/// How a command works through an input CSV: `-j/--threads` and `-q/--quiet`.
#[derive(clap::Args, Clone, Debug)]
pub struct BatchArgs {
    /// With --input: worker threads (default: one per core). The output is the same,
    /// byte for byte, for any number.
    #[arg(long, short = 'j', conflicts_with_all = ["position_id", "position"])]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The work of one command over the rows of a CSV: which columns it reads, its output
/// header, and how it turns a row into output lines.
pub struct RowJob<'a, I, F> {
    /// The input (a path, or "-" for stdin).
    pub path: &'a std::path::Path,
    /// Whether rows carry `die1`, `die2`.
    pub with_dice: bool,
    /// The output's header line.
    pub header: &'a str,
    /// What the progress bar counts.
    pub unit: &'a str,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// No progress bar.
    pub quiet: bool,
    /// A worker's scratch state (e.g. a move generator), made once per task.
    pub init: I,
    /// The output text of one row (with its newline).
    pub each: F,
}

/// Rows computed in parallel between two writes: enough to keep every thread busy, few
/// enough that a closed output stops the command soon.
const BLOCK_PER_THREAD: usize = 256;

/// Reads a CSV (a path, or stdin for "-") with a `position_id` column (and `die1`,
/// `die2` when `with_dice`), writes `header`, then the text `each` makes of every row,
/// in the input's order. Rows are computed on `threads` threads (a rayon pool) a block
/// at a time, so the output is the same for any number of threads. A row that cannot
/// be read, or for which `each` fails, is reported on stderr with its file and line
/// (in order, where its output would have been) and skipped; the exit status is then
/// 2. A failed write ends the command at once. A progress bar counts the rows unless
/// `quiet`.
pub fn process_rows<S, I, F>(
    job: RowJob<I, F>,
    out: &mut impl std::io::Write,
) -> Result<std::process::ExitCode>
where
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, &Row) -> Result<String> + Sync + Send,
{
    use rayon::prelude::*;

    let pool = cli_support::thread_pool(job.threads)?;
    let quiet = job.quiet;
    let name = job.path.display().to_string();
    let stdin = name == "-";
    // Standard input is read whole (it cannot be read twice: once to count the rows
    // for the progress bar, once to process them).
    let buffered = if stdin {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .context("cannot read standard input")?;
        Some(bytes)
    } else {
        None
    };
    let open = || -> Result<Box<dyn std::io::Read + '_>> {
        Ok(match &buffered {
            Some(bytes) => Box::new(bytes.as_slice()),
            None => Box::new(std::fs::File::open(job.path).with_context(|| format!("cannot open {name}"))?),
        })
    };
    let mut reader = csv::Reader::from_reader(open()?);
    let headers = reader
        .headers()
        .with_context(|| format!("{name}: cannot read the CSV header"))?
        .clone();
    let names: &[&str] = if job.with_dice {
        &["position_id", "die1", "die2"]
    } else {
        &["position_id"]
    };
    let columns = names
        .iter()
        .map(|want| {
            headers.iter().position(|h| h.trim() == *want).with_context(|| {
                format!(
                    "{name}: the header has no '{want}' column (need {})",
                    names.join(",")
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    writeln!(out, "{}", job.header)?;
    // The bar's total: the records, counted in a first pass (only when it is drawn).
    let total = if quiet {
        0
    } else {
        csv::Reader::from_reader(open()?).byte_records().count() as u64
    };
    let bar = cli_support::progress_bar(total, job.unit, quiet);
    let parse = |r: csv::StringRecord| -> Result<Row> {
        let field = |k: usize| r.get(columns[k]).unwrap_or("").trim().to_string();
        let id = field(0);
        let pos = board::parse_any_id(&id)?.position;
        let dice = if job.with_dice {
            let die = |k: usize| -> Result<u8> {
                let t = field(k);
                t.parse().with_context(|| format!("die '{t}' is not a number"))
            };
            let (d1, d2) = (die(1)?, die(2)?);
            Some((d1, d2, Dice::new(d1, d2)?))
        } else {
            None
        };
        Ok(Row { id, pos, dice })
    };
    let block = BLOCK_PER_THREAD * pool.current_num_threads();
    let mut records = reader.records().enumerate().peekable();
    let mut errors = 0usize;
    while records.peek().is_some() {
        let rows: Vec<(usize, Result<Row>)> = records
            .by_ref()
            .take(block)
            .map(|(n, record)| (n + 2, record.context("malformed CSV").and_then(&parse)))
            .collect();
        let done: Vec<(usize, Result<String>)> = pool.install(|| {
            rows.into_par_iter()
                .map_init(&job.init, |state, (line, row)| {
                    let text = row.and_then(|row| (job.each)(state, &row));
                    bar.inc(1);
                    (line, text)
                })
                .collect()
        });
        // In the input's order: a bad row is reported and skipped; a failed write (a
        // closed or full stdout) ends the command at once.
        for (line, text) in done {
            match text {
                Ok(text) => out.write_all(text.as_bytes())?,
                Err(e) => {
                    // The chain as the exit line shows it: a cause the message already
                    // ends with (an ID's error quoting its rule) is not repeated.
                    let e = cli_support::status::message(&e);
                    bar.suspend(|| cli_support::errln!("evaluator: {name}:{line}: {e}"));
                    errors += 1;
                }
            }
        }
    }
    out.flush()?;
    bar.finish_and_clear();
    if errors > 0 {
        cli_support::errln!("evaluator: {name}: {errors} bad row(s) skipped");
        return Ok(std::process::ExitCode::from(2));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Lookahead options shared by `eval` and `best-move`.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchArgs {
    /// Search depth: 0 (static, default) up to 4 plies of lookahead (gnubg's method).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=i64::from(evaluator::search::MAX_FILTER_PLIES)))]
    pub plies: u32,
    /// In lookahead, score every move fully instead of letting gnubg's pruning nets
    /// preselect candidates.
    #[arg(long)]
    pub no_prune: bool,
}

impl SearchArgs {
    /// The lookahead settings.
    pub fn lookahead(&self) -> evaluator::search::Lookahead {
        evaluator::search::Lookahead {
            prune: !self.no_prune,
        }
    }

    /// The evaluator from `engine`, with a cache when searching.
    pub fn evaluator(&self, engine: &EngineArgs) -> Result<Evaluator> {
        Ok(engine_options(engine)
            .evaluator()?
            .with_cache(if self.plies > 0 { 20 } else { 0 }))
    }
}

//! `gen-bearoff hyper`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Parser;
use indicatif::ProgressBar;

use gen_bearoff::hyper::{
    generate_hyper, DanceRule, HyperEvent, HyperMethod, HyperOptions, HyperPhase, EXACT_THRESHOLD,
    GNUBG_THRESHOLD,
};
use gen_bearoff::output::{partial_path, AtomicOutput};

use super::common::{global_threads, note, phase_bar};

/// Options of `hyper`.
#[derive(Parser, Debug)]
pub struct Args {
    /// Checkers per side: 1, 2 or 3.
    #[arg(long, short = 'c', value_parser = clap::value_parser!(u8).range(1..=3))]
    pub checkers: u8,
    /// Stop when an iteration changes no stored quantity by more than T (default 1e-9;
    /// with --gnubg-compat gnubg's 1e-5).
    #[arg(long, short = 't')]
    pub threshold: Option<f64>,
    /// Reproduce gnubg 1.07's `makehyper` exactly (its iteration, f32 arithmetic and its
    /// rule for rolls that cannot be played): byte-identical files, but slower.
    #[arg(long)]
    pub gnubg_compat: bool,
    /// Exact solver, but with gnubg's rule for rolls that cannot be played (to measure
    /// that rule's effect).
    #[arg(long)]
    pub gnubg_dance: bool,
    /// Continue an interrupted run from its checkpoint (FILE.ckpt).
    #[arg(long)]
    pub resume: bool,
    /// Write no checkpoint after each iteration.
    #[arg(long)]
    pub no_checkpoint: bool,
    /// Give up after this many iterations (the checkpoint is kept for --resume).
    #[arg(long)]
    pub max_iterations: Option<u32>,
    /// Output file (written as FILE.partial, renamed when complete).
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    /// No progress bar or messages.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The checkpoint written next to `output`.
pub fn checkpoint_path(output: &Path) -> PathBuf {
    let mut name = output.file_name().unwrap_or_default().to_os_string();
    name.push(".ckpt");
    output.with_file_name(name)
}

/// Iterations still expected after one with residual `r` that followed one with `prev`.
fn remaining_iterations(r: f64, prev: f64, threshold: f64) -> f64 {
    if r <= threshold {
        return 0.0;
    }
    let rate = if prev.is_finite() && prev > 0.0 {
        (r / prev).clamp(0.05, 0.98)
    } else {
        0.7
    };
    ((threshold.max(1e-300) / r).ln() / rate.ln()).ceil().max(1.0)
}

/// Relative cost of a record in a sweep of each phase (for the progress bar's ETA).
fn weight(phase: HyperPhase) -> u64 {
    match phase {
        HyperPhase::Equities => 3,
        _ => 1,
    }
}

/// Probability sweeps expected after the equities have converged (a guess for the ETA;
/// measured: 20-35).
const PROBABILITY_SWEEPS: u64 = 30;

struct Display {
    bar: ProgressBar,
    quiet: bool,
    threshold: f64,
    /// Records per iteration.
    per_pass: u64,
    /// Work units (records × weight) of the iterations finished.
    done: u64,
    /// The phase seen last and its residuals so far.
    phase: Option<HyperPhase>,
    residuals: Vec<f64>,
}

impl Display {
    /// A line above the bar (or plain on stderr when the bar is not drawn).
    fn say(&self, text: String) {
        if self.quiet {
        } else if self.bar.is_hidden() {
            cli_support::errln!("{text}");
        } else {
            self.bar.println(text);
        }
    }

    /// Work units still expected after the iterations so far.
    fn remaining(&self, phase: HyperPhase) -> u64 {
        let (r, prev) = match self.residuals.as_slice() {
            [.., p, r] => (*r, *p),
            [r] => (*r, f64::NAN),
            [] => (f64::INFINITY, f64::NAN),
        };
        let more = if r.is_finite() {
            remaining_iterations(r, prev, self.threshold) as u64
        } else {
            40
        };
        let later = if phase == HyperPhase::Equities {
            PROBABILITY_SWEEPS
        } else {
            0
        };
        (more * weight(phase) + later) * self.per_pass
    }

    fn event(&mut self, e: HyperEvent) {
        match e {
            HyperEvent::Ready {
                classes,
                paths,
                memory,
            } => {
                self.say(format!(
                    "positions: {} game over, {} no contact, {} contact, {} illegal; {paths} moves tabulated; about {} of memory",
                    classes[1],
                    classes[2],
                    classes[3],
                    classes[0],
                    gen_bearoff::byte_size::show(memory)
                ));
            }
            HyperEvent::Resumed { iteration, residual } => {
                self.say(format!(
                    "resuming after iteration {iteration} (residual {residual:.3e})"
                ));
            }
            HyperEvent::Pass {
                phase: HyperPhase::NoContact,
                done,
                total,
                ..
            } => {
                self.bar.set_message("no contact (exact)");
                self.bar.set_length(total as u64);
                self.bar.set_position(done as u64);
                if done == total {
                    self.bar.reset();
                }
            }
            HyperEvent::Pass {
                pass,
                phase,
                done,
                total,
            } => {
                if self.phase != Some(phase) {
                    self.phase = Some(phase);
                    self.residuals.clear();
                    self.per_pass = total as u64;
                    self.bar.set_length(self.done + self.remaining(phase));
                }
                let name = match phase {
                    HyperPhase::Equities => "equities",
                    HyperPhase::Probabilities => "probabilities",
                    _ => "sweep",
                };
                let last = self.residuals.last().copied().unwrap_or(f64::INFINITY);
                self.bar.set_message(if last.is_finite() {
                    format!("{name} {pass}, residual {last:.2e}")
                } else {
                    format!("{name} {pass}")
                });
                self.bar.set_position(self.done + done as u64 * weight(phase));
            }
            HyperEvent::Iteration {
                iteration,
                phase,
                residual,
                seconds,
            } => {
                self.residuals.push(residual);
                self.done += self.per_pass * weight(phase);
                self.bar.set_length(self.done + self.remaining(phase));
                let name = match phase {
                    HyperPhase::Equities => " (equities)",
                    HyperPhase::Probabilities => " (probabilities)",
                    _ => "",
                };
                self.say(format!(
                    "iteration {iteration:3}{name}: residual {residual:.3e} ({seconds:.2} s)"
                ));
            }
            HyperEvent::Writing => self.bar.set_message("writing"),
        }
    }
}

/// Runs `hyper`.
pub fn run(args: Args) -> Result<ExitCode> {
    global_threads(args.threads)?;
    super::common::check_database_output(&args.output, args.force)?;
    if args.gnubg_compat && args.gnubg_dance {
        bail!("--gnubg-compat already uses gnubg's rule for rolls that cannot be played; drop --gnubg-dance");
    }
    if args.resume && args.no_checkpoint {
        bail!("--resume continues from a checkpoint; it cannot be combined with --no-checkpoint");
    }
    let method = if args.gnubg_compat {
        HyperMethod::GnubgCompat
    } else if args.gnubg_dance {
        HyperMethod::Exact(DanceRule::Gnubg)
    } else {
        HyperMethod::Exact(DanceRule::Correct)
    };
    let threshold = args.threshold.unwrap_or(if args.gnubg_compat {
        GNUBG_THRESHOLD
    } else {
        EXACT_THRESHOLD
    });
    let ckpt = checkpoint_path(&args.output);
    // Taken first: the partial file's lock keeps a second run on this output (and on its
    // checkpoint) out for the whole run.
    let mut out = AtomicOutput::create(&args.output, args.force)?;
    if !args.no_checkpoint && !args.resume && ckpt.exists() {
        bail!(
            "{} is left from an interrupted run: pass --resume to continue it, or delete it",
            ckpt.display()
        );
    }
    if args.no_checkpoint {
        // A checkpoint half-written by a killed run (this run writes none that would
        // take its name over): nobody else writes it while this run holds the output.
        let stale = partial_path(&ckpt);
        match std::fs::remove_file(&stale) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                bail!(
                    "cannot remove {}, left by an interrupted run: {e}",
                    stale.display()
                )
            }
            _ => {}
        }
    }
    if args.resume && !ckpt.exists() {
        note(
            args.quiet,
            &format!(
                "no checkpoint {} found: starting from the beginning",
                ckpt.display()
            ),
        );
    }
    let opts = HyperOptions {
        checkers: usize::from(args.checkers),
        method,
        threshold,
        max_iterations: args.max_iterations,
        checkpoint: (!args.no_checkpoint).then(|| ckpt.clone()),
        resume: args.resume,
    };
    opts.check()?;
    let start = Instant::now();
    // The one bar style of bgkit's tools (cli_support::progress).
    let bar = phase_bar(1, "tabulating moves", args.quiet);
    let display = Mutex::new(Display {
        bar: bar.clone(),
        quiet: args.quiet,
        threshold,
        per_pass: 0,
        done: 0,
        phase: None,
        residuals: Vec::new(),
    });
    let result = generate_hyper(&opts, &mut out, &|e| {
        if let Ok(mut d) = display.lock() {
            d.event(e);
        }
    });
    bar.finish_and_clear();
    let summary = result?;
    out.commit()?;
    note(
        args.quiet,
        &format!(
            "wrote {}: {}-checker hypergammon, {}, {} iterations{}, residual {:.3e}, in {:.2} s",
            args.output.display(),
            args.checkers,
            match method {
                HyperMethod::GnubgCompat => "gnubg-compatible".to_string(),
                HyperMethod::Exact(DanceRule::Gnubg) => "exact with gnubg's dance rule".to_string(),
                HyperMethod::Exact(DanceRule::Correct) => "exact".to_string(),
            },
            summary.iterations,
            summary
                .resumed_from
                .map_or(String::new(), |k| format!(" ({k} before resuming)")),
            summary.residual,
            start.elapsed().as_secs_f64()
        ),
    );
    Ok(ExitCode::SUCCESS)
}

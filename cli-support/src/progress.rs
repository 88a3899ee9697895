//! Progress on stderr: bars (hidden with `--quiet`) and informational lines.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar hidden with `quiet`, else drawn on stderr with `template`.
fn bar(total: u64, quiet: bool, template: &str, tick: Duration) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(tick);
    bar
}

/// A progress bar on stderr (hidden with `quiet`) counting `unit` (games, positions),
/// with rate, ETA and a message.
pub fn progress_bar(total: u64, unit: &str, quiet: bool) -> ProgressBar {
    let template = format!(
        "[{{elapsed_precise}}] [{{wide_bar}}] {{pos}}/{{len}} {unit} ({{per_sec}}, ETA {{eta}}) {{msg}}"
    );
    bar(total, quiet, &template, Duration::from_millis(500))
}

/// A progress bar on stderr (hidden with `quiet`) for one phase of a computation,
/// labelled `what`, in percent.
pub fn phase_bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    let template = "{msg:>12} [{elapsed_precise}] [{wide_bar}] {percent:>3}% ETA {eta}";
    let b = bar(total, quiet, template, Duration::from_millis(250));
    b.set_message(what.to_string());
    b
}

/// Prints an informational line on stderr unless quiet (best-effort: a closed or full
/// stderr is ignored, so it never stops a job).
pub fn note(quiet: bool, text: &str) {
    if !quiet {
        crate::errln!("{text}");
    }
}

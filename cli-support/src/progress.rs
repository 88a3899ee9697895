//! Progress on stderr: bars (hidden with `--quiet`) and informational lines.

use std::time::{Duration, Instant};

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar hidden with `quiet`, else drawn on stderr with `template`; with a deadline,
/// `{eta}` is the time to whichever limit comes first, the count or the deadline.
fn bar(total: u64, quiet: bool, template: &str, tick: Duration, deadline: Option<Instant>) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let mut style = ProgressStyle::with_template(template)
        .expect("valid template")
        .progress_chars("=> ");
    if let Some(deadline) = deadline {
        style = style.with_key(
            "eta",
            move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let eta = binding_eta(state.eta(), deadline.saturating_duration_since(Instant::now()));
                let _ = write!(w, "{:#}", HumanDuration(eta));
            },
        );
    }
    bar.set_style(style);
    bar.enable_steady_tick(tick);
    bar
}

/// The time left when a job stops at whichever of two limits comes first: `by_count`
/// (the ETA of the remaining work at the current rate) or `by_clock` (the time to a
/// deadline).
pub fn binding_eta(by_count: Duration, by_clock: Duration) -> Duration {
    by_count.min(by_clock)
}

/// A progress bar on stderr (hidden with `quiet`) counting `unit` (games, positions),
/// with rate, ETA and a message.
pub fn progress_bar(total: u64, unit: &str, quiet: bool) -> ProgressBar {
    progress_bar_until(total, unit, quiet, None)
}

/// [`progress_bar`] for a job that also stops at `deadline` (e.g. `--minutes`): the ETA
/// is the time to whichever limit binds first.
pub fn progress_bar_until(total: u64, unit: &str, quiet: bool, deadline: Option<Instant>) -> ProgressBar {
    let template = format!(
        "[{{elapsed_precise}}] [{{wide_bar}}] {{pos}}/{{len}} {unit} ({{per_sec}}, ETA {{eta}}) {{msg}}"
    );
    bar(total, quiet, &template, Duration::from_millis(500), deadline)
}

/// A progress bar on stderr (hidden with `quiet`) for one phase of a computation,
/// labelled `what`, in percent.
pub fn phase_bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    let template = "{msg:>12} [{elapsed_precise}] [{wide_bar}] {percent:>3}% ETA {eta}";
    let b = bar(total, quiet, template, Duration::from_millis(250), None);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearer_limit_binds() {
        let s = Duration::from_secs;
        assert_eq!(binding_eta(s(600), s(60)), s(60));
        assert_eq!(binding_eta(s(30), s(60)), s(30));
        assert_eq!(binding_eta(s(30), Duration::ZERO), Duration::ZERO);
    }
}

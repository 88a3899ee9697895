//! Progress on stderr: bars (hidden with `--quiet`) and informational lines.
//!
//! Every bar of every tool comes from here, with one look: elapsed time, the bar, how
//! far (a count of units or a percentage), the rate and the ETA in parentheses, then
//! the message. [`progress_bar`] counts units (games, positions, records);
//! [`phase_bar`] shows a percentage of one phase of a computation.
//!
//! The rate and the ETA are steady: the units done since the bar started (or since its
//! resumed starting point, [`progress_bar_resumed`], or its last `reset()`) over the
//! time since then. indicatif's own estimate is an average over the last ~15 seconds
//! that decays between updates; a job whose units each take longer than that (a
//! rollout of 1296 trials, a hypergammon iteration) saw its ETA swing to weeks between
//! two units. Before the first unit is done the ETA is `?` (or the time to the deadline
//! when there is one).

use std::time::{Duration, Instant};

use indicatif::style::ProgressTracker;
use indicatif::{
    HumanDuration, HumanFloatCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle,
};

/// The one template of a bar counting `unit`.
fn count_template(unit: &str) -> String {
    format!("[{{elapsed_precise}}] [{{wide_bar}}] {{pos}}/{{len}} {unit} ({{per_sec}}, ETA {{eta}}) {{msg}}")
}

/// The one template of a phase bar (percent; the message names the phase).
const PHASE_TEMPLATE: &str = "[{elapsed_precise}] [{wide_bar}] {percent:>3}% (ETA {eta}) {msg}";

/// Where the steady rate is measured from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Origin {
    at: Instant,
    pos: u64,
}

/// The steady rate (units per second since `origin`) and what it gives for the time
/// left; `None` until a unit is done.
fn steady_rate(origin: Origin, pos: u64, now: Instant) -> Option<f64> {
    let secs = now.saturating_duration_since(origin.at).as_secs_f64();
    (pos > origin.pos && secs > 0.0).then(|| (pos - origin.pos) as f64 / secs)
}

/// The time left at a steady `rate` with `remaining` units to do.
fn steady_eta(rate: Option<f64>, remaining: u64) -> Option<Duration> {
    match rate {
        _ if remaining == 0 => Some(Duration::ZERO),
        Some(r) if r > 0.0 => Some(Duration::from_secs_f64((remaining as f64 / r).min(1e12))),
        _ => None,
    }
}

/// The ETA shown: the time to whichever limit comes first, the count (`by_count`, at
/// the steady rate; `None` before the first unit) or the deadline (`by_clock`).
fn shown_eta(by_count: Option<Duration>, by_clock: Option<Duration>) -> Option<Duration> {
    match (by_count, by_clock) {
        (Some(a), Some(b)) => Some(binding_eta(a, b)),
        (a, b) => a.or(b),
    }
}

/// The `{eta}` and `{per_sec}` keys: a steady rate from an origin (see the module
/// notes), and the deadline if any.
#[derive(Clone, Debug)]
struct Steady {
    origin: Origin,
    deadline: Option<Instant>,
    /// Which key this tracker draws.
    eta: bool,
}

impl Steady {
    fn pair(pos: u64, deadline: Option<Instant>) -> [Steady; 2] {
        let origin = Origin {
            at: Instant::now(),
            pos,
        };
        [true, false].map(|eta| Steady {
            origin,
            deadline,
            eta,
        })
    }
}

impl ProgressTracker for Steady {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, state: &ProgressState, now: Instant) {
        let pos = state.pos();
        // A position set back (a new pass), or moved by the caller and then discounted
        // with `reset_eta()` right after the bar was made (a resumed job's starting
        // point, which indicatif's own estimator then shows as no rate at all), is a
        // new origin rather than work done.
        let resumed =
            pos != self.origin.pos && state.per_sec() == 0.0 && state.elapsed() < Duration::from_secs(2);
        if pos < self.origin.pos || resumed {
            self.origin = Origin { at: now, pos };
        }
    }

    fn reset(&mut self, state: &ProgressState, now: Instant) {
        self.origin = Origin {
            at: now,
            pos: state.pos(),
        };
    }

    fn write(&self, state: &ProgressState, w: &mut dyn std::fmt::Write) {
        let now = Instant::now();
        let rate = steady_rate(self.origin, state.pos(), now);
        if !self.eta {
            let _ = write!(w, "{}/s", HumanFloatCount(rate.unwrap_or(0.0)));
            return;
        }
        if state.is_finished() {
            let _ = write!(w, "{:#}", HumanDuration(Duration::ZERO));
            return;
        }
        let remaining = state.len().map(|l| l.saturating_sub(state.pos()));
        let by_count = remaining.and_then(|r| steady_eta(rate, r));
        let by_clock = self.deadline.map(|d| d.saturating_duration_since(now));
        match shown_eta(by_count, by_clock) {
            Some(eta) => {
                let _ = write!(w, "{:#}", HumanDuration(eta));
            }
            None => {
                let _ = w.write_str("?");
            }
        }
    }
}

/// A bar hidden with `quiet`, else drawn on stderr with `template`, starting at `pos`
/// of `total`; `{eta}` is the time to whichever limit comes first, the count or the
/// deadline.
fn bar(
    total: u64,
    pos: u64,
    quiet: bool,
    template: &str,
    tick: Duration,
    deadline: Option<Instant>,
) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()).with_position(pos);
    let [eta, per_sec] = Steady::pair(pos, deadline);
    let style = ProgressStyle::with_template(template)
        .expect("valid template")
        .progress_chars("=> ")
        .with_key("eta", eta)
        .with_key("per_sec", per_sec);
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
    progress_bar_resumed(total, 0, unit, quiet, deadline)
}

/// [`progress_bar_until`] for a job resumed with `done` of its `total` units finished
/// by an earlier run: the bar starts at `done`, and the rate and ETA count this run's
/// units only.
pub fn progress_bar_resumed(
    total: u64,
    done: u64,
    unit: &str,
    quiet: bool,
    deadline: Option<Instant>,
) -> ProgressBar {
    bar(
        total,
        done,
        quiet,
        &count_template(unit),
        Duration::from_millis(500),
        deadline,
    )
}

/// A progress bar on stderr (hidden with `quiet`) for one phase of a computation,
/// labelled `what` (its message), in percent. A new phase on the same bar: `reset()`,
/// `set_length`, `set_message`.
pub fn phase_bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    let b = bar(total, 0, quiet, PHASE_TEMPLATE, Duration::from_millis(250), None);
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
        assert_eq!(shown_eta(Some(s(600)), Some(s(60))), Some(s(60)));
        assert_eq!(shown_eta(None, Some(s(60))), Some(s(60)));
        assert_eq!(shown_eta(Some(s(5)), None), Some(s(5)));
        assert_eq!(shown_eta(None, None), None);
    }

    #[test]
    fn the_rate_is_steady_and_counts_this_runs_units_only() {
        let t0 = Instant::now();
        // Resumed at 100: 1 unit in 57 s is 1/57 per second, whatever came before.
        let origin = Origin { at: t0, pos: 100 };
        let rate = steady_rate(origin, 101, t0 + Duration::from_secs(57)).unwrap();
        assert!((rate - 1.0 / 57.0).abs() < 1e-12);
        // 101,759 positions left at 57 s each: 5,800,263 s (about 9.6 weeks).
        let eta = steady_eta(Some(rate), 101_759).unwrap();
        assert!((eta.as_secs_f64() - 101_759.0 * 57.0).abs() < 1e-3);
        // No unit yet: no rate, no ETA from the count (not "0s").
        assert_eq!(steady_rate(origin, 100, t0 + Duration::from_secs(57)), None);
        assert_eq!(steady_eta(None, 5), None);
        // Nothing left: done.
        assert_eq!(steady_eta(None, 0), Some(Duration::ZERO));
    }
}

//! Progress on stderr: bars (hidden with `--quiet`) and informational lines.
//!
//! Every bar of every tool comes from here, with one look: elapsed time, the bar, how
//! far (a count of units or a percentage), the rate and the ETA in parentheses, then
//! the message. [`progress_bar`] counts units (games, positions, records);
//! [`phase_bar`] shows a percentage of one phase of a computation.
//!
//! The rate and the ETA are steady: the units done since the bar started over the time
//! since then. "Started" is the first redraw 0.2 s after the bar was made (so that a
//! position set right after making it, a resumed job's count, is not taken for work
//! done), or the count given to [`progress_bar_resumed`], or the last `reset()`. indicatif's own estimate is an average over the last ~15 seconds
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

/// How often a counting bar is redrawn.
const COUNT_TICK: Duration = Duration::from_millis(500);

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

/// How long after a bar is made its rate starts to be measured, when no starting point
/// was given: a caller that sets a resumed job's position right after making the bar
/// (`set_position(done)`, the pattern before [`progress_bar_resumed`]) has done so by
/// then, and a job loses at most a tick's worth of measurement.
const SETTLE: Duration = Duration::from_millis(200);

/// The `{eta}` and `{per_sec}` keys: a steady rate from an origin (see the module
/// notes), and the deadline if any.
#[derive(Clone, Debug)]
struct Steady {
    /// Where the rate is measured from; `None` until the bar has settled.
    origin: Option<Origin>,
    created: Instant,
    deadline: Option<Instant>,
    /// Which key this tracker draws.
    eta: bool,
}

impl Steady {
    /// The two keys' trackers, measuring from `start` (a resumed job's done count),
    /// or from the first tick after [`SETTLE`] without one.
    fn pair(start: Option<u64>, deadline: Option<Instant>) -> [Steady; 2] {
        let created = Instant::now();
        let origin = start.map(|pos| Origin { at: created, pos });
        [true, false].map(|eta| Steady {
            origin,
            created,
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
        match self.origin {
            None if now.saturating_duration_since(self.created) >= SETTLE => {
                self.origin = Some(Origin { at: now, pos });
            }
            // A position set back is a new pass, not work undone.
            Some(o) if pos < o.pos => self.origin = Some(Origin { at: now, pos }),
            _ => {}
        }
    }

    fn reset(&mut self, state: &ProgressState, now: Instant) {
        self.origin = Some(Origin {
            at: now,
            pos: state.pos(),
        });
    }

    fn write(&self, state: &ProgressState, w: &mut dyn std::fmt::Write) {
        let now = Instant::now();
        let rate = self.origin.and_then(|o| steady_rate(o, state.pos(), now));
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

/// A bar hidden with `quiet`, else drawn on stderr with `template`; see [`styled`].
fn bar(
    total: u64,
    start: Option<u64>,
    quiet: bool,
    template: &str,
    tick: Duration,
    deadline: Option<Instant>,
) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = styled(ProgressDrawTarget::stderr(), total, start, template, deadline);
    bar.enable_steady_tick(tick);
    bar
}

/// A bar of `total` drawn on `target` with `template`, starting at `start` (a resumed
/// job's done count, measured from) or 0; `{eta}` is the time to whichever limit comes
/// first, the count or the deadline, and `{per_sec}` the steady rate.
fn styled(
    target: ProgressDrawTarget,
    total: u64,
    start: Option<u64>,
    template: &str,
    deadline: Option<Instant>,
) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), target).with_position(start.unwrap_or(0));
    let [eta, per_sec] = Steady::pair(start, deadline);
    let style = ProgressStyle::with_template(template)
        .expect("valid template")
        .progress_chars("=> ")
        .with_key("eta", eta)
        .with_key("per_sec", per_sec);
    bar.set_style(style);
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
    bar(total, None, quiet, &count_template(unit), COUNT_TICK, deadline)
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
        Some(done),
        quiet,
        &count_template(unit),
        COUNT_TICK,
        deadline,
    )
}

/// A progress bar on stderr (hidden with `quiet`) for one phase of a computation,
/// labelled `what` (its message), in percent. A new phase on the same bar: `reset()`,
/// `set_length`, `set_message`.
pub fn phase_bar(total: u64, what: &str, quiet: bool) -> ProgressBar {
    let b = bar(
        total,
        None,
        quiet,
        PHASE_TEMPLATE,
        Duration::from_millis(250),
        None,
    );
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

    /// A terminal that keeps the last line drawn.
    #[derive(Clone, Debug, Default)]
    struct Screen(std::sync::Arc<std::sync::Mutex<String>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if !s.trim().is_empty() {
                *self.0.lock().unwrap() = s.to_string();
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The rate drawn in a line `... (R/s, ETA E)`.
    fn drawn_rate(line: &str) -> f64 {
        let r = line
            .split(" (")
            .nth(1)
            .and_then(|t| t.split("/s").next())
            .unwrap();
        r.parse().unwrap_or_else(|_| panic!("{line}"))
    }

    fn screen_bar(start: Option<u64>) -> (Screen, ProgressBar) {
        let screen = Screen::default();
        let target = ProgressDrawTarget::term_like(Box::new(screen.clone()));
        let bar = styled(target, 100, start, &count_template("u"), None);
        (screen, bar)
    }

    #[test]
    fn a_resumed_count_is_not_taken_for_work_done() {
        let ms = Duration::from_millis;
        // Before the first unit: no rate, ETA "?" (indicatif showed "0s").
        let (screen, bar) = screen_bar(Some(50));
        bar.tick();
        assert!(
            screen.0.lock().unwrap().contains("50/100 u (0/s, ETA ?)"),
            "{screen:?}"
        );
        // progress_bar_resumed: 2 units in 0.4 s = 5/s, not 52 / 0.4 s.
        std::thread::sleep(ms(400));
        bar.set_position(52);
        bar.tick();
        let line = screen.0.lock().unwrap().clone();
        let rate = drawn_rate(&line);
        assert!((2.0..5.1).contains(&rate), "{line}");
        // The earlier pattern: set_position(done) right after making the bar. The rate
        // counts from the first redraw after SETTLE, so 2 units in about 0.4 s again.
        let (screen, bar) = screen_bar(None);
        bar.set_position(50);
        bar.reset_eta();
        std::thread::sleep(SETTLE);
        bar.tick();
        std::thread::sleep(ms(400));
        bar.set_position(52);
        bar.tick();
        let line = screen.0.lock().unwrap().clone();
        let rate = drawn_rate(&line);
        assert!((2.0..5.1).contains(&rate), "{line}");
        // The ETA at that rate: 48 units at 5/s is about 10 s (more on a slow machine).
        let eta: u64 = line
            .split("ETA ")
            .nth(1)
            .and_then(|t| t.split("s)").next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!((9..=24).contains(&eta), "{line}");
    }
}

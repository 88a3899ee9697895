//! The learning curve: one row per benchmark, as CSV and as a PNG chart.
//!
//! CSV columns (header line first): `games` (self-play games trained), `elapsed_s`
//! (wall-clock seconds since the run began, benchmarks included, all sessions),
//! `games_per_s` (self-play games per second of training time since the previous row;
//! 0 for the first), `alpha` (learning rate at that point), `bench_games` (benchmark
//! games, duplicate dice), `ppg` and `se` (the net's points per game against pubeval
//! and its standard error), `win_rate`, `gammon_rate` and `gammon_loss_rate` (of the
//! net's games).

use std::path::Path;

use image::ImageEncoder;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::TrainerError;
use crate::model::write_atomic;

/// One benchmark point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurveRow {
    /// Games trained.
    pub games: u64,
    /// Wall-clock seconds since the start of the run.
    pub elapsed_s: f64,
    /// Training games per second since the previous row.
    pub games_per_s: f64,
    /// Learning rate.
    pub alpha: f32,
    /// Benchmark games played.
    pub bench_games: u64,
    /// Points per game against pubeval.
    pub ppg: f64,
    /// Standard error of `ppg`.
    pub se: f64,
    /// Fraction of benchmark games won.
    pub win_rate: f64,
    /// Fraction won with a gammon or backgammon.
    pub gammon_rate: f64,
    /// Fraction lost with a gammon or backgammon.
    pub gammon_loss_rate: f64,
}

/// Writes the curve as CSV (through a temporary file).
pub fn write_csv(path: &Path, rows: &[CurveRow]) -> Result<(), TrainerError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)
            .map_err(|e| TrainerError::format(path, e.to_string()))?;
    }
    if rows.is_empty() {
        w.write_record([
            "games",
            "elapsed_s",
            "games_per_s",
            "alpha",
            "bench_games",
            "ppg",
            "se",
            "win_rate",
            "gammon_rate",
            "gammon_loss_rate",
        ])
        .map_err(|e| TrainerError::format(path, e.to_string()))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| TrainerError::format(path, e.to_string()))?;
    write_atomic(path, &bytes)
}

/// Reads a curve CSV. Every number must be finite: an error names the file, the line
/// and the column (`v.csv:3: ppg inf is not a finite number`).
pub fn read_csv(path: &Path) -> Result<Vec<CurveRow>, TrainerError> {
    let rows = read_numbered_rows::<CurveRow>(path)?;
    for (line, r) in &rows {
        let values = [
            ("elapsed_s", r.elapsed_s),
            ("games_per_s", r.games_per_s),
            ("alpha", f64::from(r.alpha)),
            ("ppg", r.ppg),
            ("se", r.se),
            ("win_rate", r.win_rate),
            ("gammon_rate", r.gammon_rate),
            ("gammon_loss_rate", r.gammon_loss_rate),
        ];
        if let Some((name, v)) = values.iter().find(|(_, v)| !v.is_finite()) {
            return Err(TrainerError::Format {
                path: format!("{}:{line}", path.display()),
                reason: format!("{name} {v} is not a finite number"),
            });
        }
    }
    Ok(rows.into_iter().map(|(_, r)| r).collect())
}

/// Reads a CSV file (header line first) into rows.
pub(crate) fn read_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, TrainerError> {
    Ok(read_numbered_rows(path)?.into_iter().map(|(_, r)| r).collect())
}

/// [`read_rows`] with the line each row starts on.
fn read_numbered_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<(u64, T)>, TrainerError> {
    let mut r = csv::Reader::from_path(path).map_err(|e| TrainerError::format(path, e.to_string()))?;
    let headers = r
        .headers()
        .map_err(|e| TrainerError::format(path, e.to_string()))?
        .clone();
    let mut rows = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        match r.read_record(&mut record) {
            Ok(false) => return Ok(rows),
            Ok(true) => {}
            Err(e) => return Err(TrainerError::format(path, e.to_string())),
        }
        let line = record.position().map_or(0, csv::Position::line);
        let row = record
            .deserialize(Some(&headers))
            .map_err(|e| TrainerError::format(path, e.to_string()))?;
        rows.push((line, row));
    }
}

/// Draws a 900 × 560 PNG chart in memory and writes it to `path` (under a temporary
/// name, renamed when complete).
pub(crate) fn draw_png(
    path: &Path,
    draw: impl FnOnce(DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<(), TrainerError> {
    const SIZE: (u32, u32) = (900, 560);
    let mut rgb = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
    draw(BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area())
        .map_err(|e| TrainerError::format(path, format!("cannot draw the chart: {e}")))?;
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(&rgb, SIZE.0, SIZE.1, image::ColorType::Rgb8)
        .map_err(|e| TrainerError::format(path, format!("cannot encode the chart: {e}")))?;
    write_atomic(path, &png)
}

/// Registers a system font for chart text, once; false if none was found.
pub(crate) fn font_available() -> bool {
    use std::sync::OnceLock;
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        const CANDIDATES: [&str; 6] = [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/TTF/DejaVuSans.ttf",
            "/usr/share/fonts/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
            "/usr/share/gnubg/fonts/Vera.ttf",
            "/usr/share/fonts/truetype/ttf-bitstream-vera/Vera.ttf",
        ];
        for path in CANDIDATES {
            if let Ok(bytes) = std::fs::read(path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

/// gnubg 0-ply's level against pubeval: +0.63 ppg (compgammon, 40,000 games; bgkit's
/// own 2,000-game duel agrees, see the gnubg oracle tests).
pub const GNUBG_0PLY_VS_PUBEVAL: f64 = 0.63;

/// The ppg axis of the chart: from the rows' lowest to highest value (± 1 SE), the
/// reference levels (pubeval 0, gnubg 0-ply) included, padded, and clipped below at
/// −1 when only the untrained start lies further down (an untrained net loses about 2
/// ppg and would squeeze the curve that matters into a line). Returns the range and
/// whether a point was clipped.
///
/// Rows whose ppg or SE is not a finite number are left out, and the range always
/// holds both reference levels, so it is finite and at least 0.63 wide whatever the
/// rows (the same values, one row, none): the chart library never meets an empty or
/// infinite range.
pub fn ppg_axis(rows: &[CurveRow]) -> ((f64, f64), bool) {
    let low = |r: &CurveRow| r.ppg - r.se;
    let high = |r: &CurveRow| r.ppg + r.se;
    let finite = |r: &&CurveRow| low(r).is_finite() && high(r).is_finite();
    let later: Vec<&CurveRow> = rows.iter().filter(finite).filter(|r| r.games > 0).collect();
    let lo_later = later.iter().map(|r| low(r)).fold(0.0f64, f64::min);
    let lo_all = rows.iter().filter(finite).map(low).fold(0.0f64, f64::min);
    let hi = rows
        .iter()
        .filter(finite)
        .map(high)
        .fold(GNUBG_0PLY_VS_PUBEVAL, f64::max);
    let clip = later.len() >= 2 && lo_all < lo_later.min(-1.0);
    let lo = if clip { lo_later.min(-1.0) } else { lo_all };
    let pad = (hi - lo) * 0.05;
    ((lo - pad, hi + pad), clip)
}

/// What a chart's x axis counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XAxis {
    /// Self-play games trained (`games`).
    Games,
    /// Minutes since the run began (`elapsed_s` / 60): a whole pipeline, TD and the
    /// rounds after it, on one clock.
    Minutes,
}

impl XAxis {
    fn of(self, r: &CurveRow) -> f64 {
        match self {
            XAxis::Games => r.games as f64,
            XAxis::Minutes => r.elapsed_s / 60.0,
        }
    }
}

/// Draws ppg against pubeval (± 1 SE) over games trained as a PNG, written through a
/// temporary file, with pubeval's and gnubg 0-ply's levels as reference lines (see
/// [`ppg_axis`] for the axis). Without a usable system font the chart has no text.
pub fn plot(path: &Path, rows: &[CurveRow]) -> Result<(), TrainerError> {
    plot_by(path, rows, XAxis::Games)
}

/// [`plot`] over the x axis `x`.
pub fn plot_by(path: &Path, rows: &[CurveRow], x: XAxis) -> Result<(), TrainerError> {
    draw_png(path, |root| {
        let err = |e: String| e;
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        // Rows that cannot be placed (a value that is not finite) are left out; the
        // axes are finite and never empty (see [`ppg_axis`]).
        let placed =
            |r: &&CurveRow| x.of(r).is_finite() && (r.ppg - r.se).is_finite() && (r.ppg + r.se).is_finite();
        let max_games = rows
            .iter()
            .filter(placed)
            .map(|r| x.of(r))
            .fold(0.0, f64::max)
            .max(1.0);
        let ((lo, hi), clipped) = ppg_axis(rows);
        if !((hi - lo).is_finite() && (max_games * 1.02).is_finite()) {
            return Err("the values are too large to draw (an axis would be infinitely long)".into());
        }
        let text = font_available();
        let mut builder = ChartBuilder::on(&root);
        builder.margin(20);
        if text {
            let caption = if clipped {
                "ppg vs pubeval (duplicate dice, ± 1 SE; the untrained start, below, left out)"
            } else {
                "ppg vs pubeval (duplicate dice, ± 1 SE)"
            };
            builder
                .caption(caption, ("sans-serif", 22))
                .x_label_area_size(45)
                .y_label_area_size(60);
        }
        let x_end = max_games * 1.02;
        let mut chart = builder
            .build_cartesian_2d(0f64..x_end, lo..hi)
            .map_err(|e| err(e.to_string()))?;
        // Tenths of a minute on a short run's minutes axis, else whole numbers.
        let x_label = move |v: &f64| {
            if x == XAxis::Minutes && max_games < 10.0 {
                format!("{v:.1}")
            } else {
                format!("{}", v.round() as u64)
            }
        };
        let mut mesh = chart.configure_mesh();
        if text {
            mesh.x_desc(match x {
                XAxis::Games => "games trained",
                XAxis::Minutes => "minutes since the start",
            })
            .y_desc("ppg")
            .x_label_formatter(&x_label)
            .y_label_formatter(&|y| {
                if y.abs() < 0.005 {
                    "0".into()
                } else {
                    format!("{y:+.2}")
                }
            });
        } else {
            mesh.x_labels(0).y_labels(0);
        }
        mesh.draw().map_err(|e| err(e.to_string()))?;
        for (level, name, color) in [
            (0.0, "pubeval", BLACK.mix(0.9)),
            (GNUBG_0PLY_VS_PUBEVAL, "gnubg 0-ply (+0.63)", GREEN.mix(0.8)),
        ] {
            let s = chart
                .draw_series(LineSeries::new([(0.0, level), (x_end, level)], color))
                .map_err(|e| err(e.to_string()))?;
            if text {
                s.label(name)
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color));
            }
        }
        // Points below the axis are left out (the clipped start), not drawn outside.
        let shown = |r: &&CurveRow| placed(r) && r.ppg >= lo;
        let s = chart
            .draw_series(LineSeries::new(
                rows.iter().filter(shown).map(|r| (x.of(r), r.ppg)),
                BLUE,
            ))
            .map_err(|e| err(e.to_string()))?;
        if text {
            s.label("this net")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE));
        }
        chart
            .draw_series(rows.iter().filter(shown).map(|r| {
                ErrorBar::new_vertical(
                    x.of(r),
                    (r.ppg - r.se).max(lo),
                    r.ppg,
                    r.ppg + r.se,
                    BLUE.filled(),
                    6,
                )
            }))
            .map_err(|e| err(e.to_string()))?;
        if text {
            // The curve rises to the right: the lower right is clear of it.
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .draw()
                .map_err(|e| err(e.to_string()))?;
        }
        root.present().map_err(|e| err(e.to_string()))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(games: u64, ppg: f64) -> CurveRow {
        CurveRow {
            games,
            elapsed_s: games as f64 / 100.0,
            games_per_s: 100.0,
            alpha: 0.1,
            bench_games: 200,
            ppg,
            se: 0.05,
            win_rate: 0.5,
            gammon_rate: 0.1,
            gammon_loss_rate: 0.1,
        }
    }

    #[test]
    fn csv_round_trips_and_the_chart_is_a_png() {
        let dir = std::env::temp_dir().join(format!("bgkit-trainer-curve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rows = vec![row(0, -1.2), row(1000, -0.3), row(2000, 0.15)];
        let csv = dir.join("curve.csv");
        write_csv(&csv, &rows).unwrap();
        let text = std::fs::read_to_string(&csv).unwrap();
        assert!(
            text.starts_with("games,elapsed_s,games_per_s,alpha,bench_games,ppg,se,"),
            "{text}"
        );
        assert_eq!(read_csv(&csv).unwrap(), rows);
        for x in [XAxis::Games, XAxis::Minutes] {
            let png = dir.join("curve.png");
            plot_by(&png, &rows, x).unwrap();
            let bytes = std::fs::read(&png).unwrap();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Rows of one value, a single row, or rows with infinite values: the range is
    /// finite and holds both reference levels (0 and +0.63) padded by 5 % of the span.
    #[test]
    fn the_ppg_axis_is_finite_and_never_empty() {
        let span = |rows: &[CurveRow]| ppg_axis(rows).0;
        // 0 .. 0.63, padded by 0.0315 on each side.
        let reference = (-0.0315, 0.6615);
        for rows in [
            vec![],
            vec![row(0, 0.0)],
            vec![row(0, 0.3), row(1000, 0.3), row(2000, 0.3)],
        ] {
            let rows: Vec<CurveRow> = rows.into_iter().map(|r| CurveRow { se: 0.0, ..r }).collect();
            let (lo, hi) = span(&rows);
            assert!(
                (lo - reference.0).abs() < 1e-12 && (hi - reference.1).abs() < 1e-12,
                "{lo} {hi}"
            );
        }
        let mut bad = vec![row(0, -0.5), row(1000, f64::INFINITY), row(2000, f64::NAN)];
        bad[0].se = 0.0;
        bad.push(CurveRow {
            se: f64::INFINITY,
            ..row(3000, 0.1)
        });
        // Only the −0.5 row counts: −0.5 .. 0.63, padded by 0.0565.
        let (lo, hi) = span(&bad);
        assert!(
            (lo + 0.5565).abs() < 1e-12 && (hi - 0.6865).abs() < 1e-12,
            "{lo} {hi}"
        );
        // And such rows draw (left out) instead of handing the chart an infinite range.
        let dir = test_support::Scratch::new("trainer", "curve-bad");
        let png = dir.join("bad.png");
        plot_by(&png, &bad, XAxis::Minutes).unwrap();
        assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    }

    #[test]
    fn the_untrained_start_does_not_squeeze_the_ppg_axis() {
        // An untrained net at −2.4 ppg, then a curve between −0.6 and +0.3.
        let rows = [row(0, -2.4), row(1000, -0.6), row(2000, -0.1), row(3000, 0.3)];
        let ((lo, hi), clipped) = ppg_axis(&rows);
        assert!(clipped);
        // Clipped at −1 (the later points reach −0.65), padded by 5 % of the span.
        assert!(lo < -1.0 && lo > -1.2, "{lo}");
        // gnubg's level is always on the chart.
        assert!(hi > GNUBG_0PLY_VS_PUBEVAL, "{hi}");
        // Every later point stays on the axis; a lone start point is not clipped.
        let low = [row(0, -2.4), row(1000, -2.0), row(2000, -1.5)];
        assert!(!ppg_axis(&low).1 || ppg_axis(&low).0 .0 < -2.05);
        assert!(!ppg_axis(&[row(0, -2.4)]).1);
        assert!(ppg_axis(&[row(0, -2.4)]).0 .0 < -2.45);
    }
}

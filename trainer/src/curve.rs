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

/// Reads a curve CSV.
pub fn read_csv(path: &Path) -> Result<Vec<CurveRow>, TrainerError> {
    read_rows(path)
}

/// Reads a CSV file (header line first) into rows.
pub(crate) fn read_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, TrainerError> {
    let mut r = csv::Reader::from_path(path).map_err(|e| TrainerError::format(path, e.to_string()))?;
    r.deserialize()
        .map(|row| row.map_err(|e| TrainerError::format(path, e.to_string())))
        .collect()
}

/// Draws a 900 × 560 PNG chart at `path` through a temporary file (which keeps the
/// `.png` extension: the encoder picks the format from it), renamed when complete.
pub(crate) fn draw_png(
    path: &Path,
    draw: impl FnOnce(DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<(), TrainerError> {
    let stem = path
        .file_stem()
        .map_or("curve".into(), |s| s.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{stem}.tmp{}.png", std::process::id()));
    if let Err(e) = draw(BitMapBackend::new(&tmp, (900, 560)).into_drawing_area()) {
        let _ = std::fs::remove_file(&tmp);
        return Err(TrainerError::format(path, format!("cannot draw the chart: {e}")));
    }
    fileio::persist(&tmp, path).map_err(|e| TrainerError::io(path, e))
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

/// Draws ppg against pubeval (± 1 SE) over games trained as a PNG, written through a
/// temporary file. Without a usable system font the chart has no text.
pub fn plot(path: &Path, rows: &[CurveRow]) -> Result<(), TrainerError> {
    draw_png(path, |root| {
        let err = |e: String| e;
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        let max_games = rows.iter().map(|r| r.games).max().unwrap_or(1).max(1) as f64;
        let lo = rows.iter().map(|r| r.ppg - r.se).fold(-0.5f64, f64::min).floor();
        let hi = rows.iter().map(|r| r.ppg + r.se).fold(0.5f64, f64::max).ceil();
        let text = font_available();
        let mut builder = ChartBuilder::on(&root);
        builder.margin(20);
        if text {
            builder
                .caption("ppg vs pubeval (duplicate dice, ± 1 SE)", ("sans-serif", 22))
                .x_label_area_size(45)
                .y_label_area_size(60);
        }
        let mut chart = builder
            .build_cartesian_2d(0f64..max_games * 1.02, lo..hi)
            .map_err(|e| err(e.to_string()))?;
        let mut mesh = chart.configure_mesh();
        if text {
            mesh.x_desc("games trained").y_desc("ppg");
        } else {
            mesh.x_labels(0).y_labels(0);
        }
        mesh.draw().map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(LineSeries::new(
                [(0.0, 0.0), (max_games * 1.02, 0.0)],
                BLACK.mix(0.4),
            ))
            .map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(LineSeries::new(
                rows.iter().map(|r| (r.games as f64, r.ppg)),
                BLUE,
            ))
            .map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(rows.iter().map(|r| {
                ErrorBar::new_vertical(
                    r.games as f64,
                    r.ppg - r.se,
                    r.ppg,
                    r.ppg + r.se,
                    BLUE.filled(),
                    6,
                )
            }))
            .map_err(|e| err(e.to_string()))?;
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
        let png = dir.join("curve.png");
        plot(&png, &rows).unwrap();
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

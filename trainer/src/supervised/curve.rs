//! The learning curve of supervised training: one row per epoch, as CSV and PNG.
//!
//! CSV columns (header first): `epoch` (epochs completed; row 0 is the starting net,
//! measured on the whole training and validation sets before any step), `lr` (learning
//! rate of the epoch), `train_loss` and `train_mse` (means over the epoch's training
//! batches, each taken before the batch's step: loss per position, squared error per
//! output),
//! `val_loss`, `val_mse`, `val_equity_rmse` (on the held-out positions after the
//! epoch; empty without a validation split; the last is the RMS error of cubeless
//! money equity), `samples_per_s` (training positions per second of the epoch's
//! batches: forward, backward and step), `elapsed_s` (wall clock since the run began,
//! all sessions).

use std::path::Path;

use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use crate::curve::draw_png;
use crate::error::TrainerError;
use crate::model::write_atomic;

/// One epoch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochRow {
    /// Epochs completed.
    pub epoch: u32,
    /// Learning rate used.
    pub lr: f32,
    /// Mean training loss per position.
    pub train_loss: f64,
    /// Mean training squared error per output.
    pub train_mse: f64,
    /// Mean validation loss per position.
    pub val_loss: Option<f64>,
    /// Mean validation squared error per output.
    pub val_mse: Option<f64>,
    /// RMS validation error of cubeless money equity.
    pub val_equity_rmse: Option<f64>,
    /// Training positions per second.
    pub samples_per_s: f64,
    /// Seconds since the run began.
    pub elapsed_s: f64,
}

const COLUMNS: [&str; 9] = [
    "epoch",
    "lr",
    "train_loss",
    "train_mse",
    "val_loss",
    "val_mse",
    "val_equity_rmse",
    "samples_per_s",
    "elapsed_s",
];

/// Writes the curve as CSV (through a temporary file).
pub fn write_csv(path: &Path, rows: &[EpochRow]) -> Result<(), TrainerError> {
    let err = |e: csv::Error| TrainerError::format(path, e.to_string());
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(COLUMNS).map_err(err)?;
    for r in rows {
        w.serialize(r).map_err(err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| TrainerError::format(path, e.to_string()))?;
    write_atomic(path, &bytes)
}

/// Reads a curve CSV.
pub fn read_csv(path: &Path) -> Result<Vec<EpochRow>, TrainerError> {
    crate::curve::read_rows(path)
}

/// An epoch axis label: epochs are whole numbers, no labels between them.
fn whole_epoch(x: &f64) -> String {
    let r = x.round();
    if (x - r).abs() < 1e-9 && r >= 0.0 {
        format!("{}", r as u32)
    } else {
        String::new()
    }
}

/// The MSE axis of the chart: the rows' values, padded; when the starting net (epoch
/// 0) is more than twice as far off as anything after it, the axis ends above the
/// later epochs and the start is left out (it would squeeze the curve that matters
/// into a line). Returns the range and whether the start was clipped.
pub fn mse_axis(rows: &[EpochRow]) -> ((f64, f64), bool) {
    let values = |rs: &mut dyn Iterator<Item = &EpochRow>| -> Vec<f64> {
        rs.flat_map(|r| [Some(r.train_mse), r.val_mse])
            .flatten()
            .filter(|v| *v > 0.0 && v.is_finite())
            .collect()
    };
    let all = values(&mut rows.iter());
    let later = values(&mut rows.iter().filter(|r| r.epoch > 0));
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let clip = later.len() >= 2 && max(&all) > 2.0 * max(&later);
    let shown = if clip { &later } else { &all };
    if shown.is_empty() {
        return ((0.0, 1.0), false);
    }
    let lo = shown.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = max(shown);
    let pad = (hi - lo).max(hi * 0.05) * 0.1;
    (((lo - pad).max(0.0), hi + pad), clip)
}

/// Draws training and validation MSE per epoch, through a temporary file, with the
/// epoch of the saved net (`saved`: the best so far) marked by a vertical line.
pub fn plot(path: &Path, rows: &[EpochRow], title: &str, saved: Option<u32>) -> Result<(), TrainerError> {
    draw_png(path, |root| {
        let err = |e: String| e;
        root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
        let ((lo, hi), clipped) = mse_axis(rows);
        let max_epoch = rows.iter().map(|r| r.epoch).max().unwrap_or(1).max(1);
        let text = crate::curve::font_available();
        let mut builder = ChartBuilder::on(&root);
        builder.margin(20);
        if text {
            let caption = if clipped {
                format!("{title} (the starting net, above, left out)")
            } else {
                title.to_string()
            };
            builder
                .caption(caption, ("sans-serif", 22))
                .x_label_area_size(45)
                .y_label_area_size(70);
        }
        let mut chart = builder
            .build_cartesian_2d(-0.2f64..f64::from(max_epoch) + 0.5, lo..hi)
            .map_err(|e| err(e.to_string()))?;
        let mut mesh = chart.configure_mesh();
        if text {
            mesh.x_desc("epoch")
                .y_desc("mean squared error per output")
                .x_labels(max_epoch as usize + 2)
                .x_label_formatter(&whole_epoch)
                .y_label_formatter(&|v| format!("{v:.2e}"));
        } else {
            mesh.x_labels(0).y_labels(0);
        }
        mesh.draw().map_err(|e| err(e.to_string()))?;
        if let Some(e) = saved {
            let x = f64::from(e);
            let s = chart
                .draw_series(LineSeries::new(
                    [(x, lo), (x, hi)],
                    GREEN.mix(0.8).stroke_width(2),
                ))
                .map_err(|e| err(e.to_string()))?;
            if text {
                s.label(format!("saved net (epoch {e})"))
                    .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], GREEN.mix(0.8)));
            }
        }
        // Points above the axis (the clipped start) are left out, not drawn outside.
        let train: Vec<(f64, f64)> = rows
            .iter()
            .map(|r| (f64::from(r.epoch), r.train_mse))
            .filter(|p| p.1 <= hi)
            .collect();
        let val: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| r.val_mse.map(|v| (f64::from(r.epoch), v)))
            .filter(|p| p.1 <= hi)
            .collect();
        let s = chart
            .draw_series(LineSeries::new(train.clone(), BLUE))
            .map_err(|e| err(e.to_string()))?;
        if text {
            s.label("training")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE));
        }
        chart
            .draw_series(train.iter().map(|&p| Circle::new(p, 3, BLUE.filled())))
            .map_err(|e| err(e.to_string()))?;
        if !val.is_empty() {
            let s = chart
                .draw_series(LineSeries::new(val.clone(), RED))
                .map_err(|e| err(e.to_string()))?;
            if text {
                s.label("validation")
                    .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RED));
            }
            chart
                .draw_series(val.iter().map(|&p| Circle::new(p, 3, RED.filled())))
                .map_err(|e| err(e.to_string()))?;
        }
        if text {
            chart
                .configure_series_labels()
                // Errors fall to the right: the lower left is clear of them.
                .position(SeriesLabelPosition::LowerLeft)
                .background_style(WHITE.mix(0.8))
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

    #[test]
    fn csv_round_trips_with_and_without_validation_and_the_chart_is_a_png() {
        let dir = std::env::temp_dir().join(format!("bgkit-sup-curve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let row = |epoch: u32, val: Option<f64>| EpochRow {
            epoch,
            lr: 0.001,
            train_loss: 0.05 / f64::from(epoch),
            train_mse: 0.01 / f64::from(epoch),
            val_loss: val.map(|v| v * 5.0),
            val_mse: val,
            val_equity_rmse: val.map(f64::sqrt),
            samples_per_s: 1e5,
            elapsed_s: f64::from(epoch),
        };
        let rows = vec![row(1, Some(0.02)), row(2, Some(0.015)), row(3, None)];
        let csv = dir.join("curve.csv");
        write_csv(&csv, &rows).unwrap();
        let text = std::fs::read_to_string(&csv).unwrap();
        assert!(
            text.starts_with("epoch,lr,train_loss,train_mse,val_loss,val_mse,val_equity_rmse,"),
            "{text}"
        );
        assert_eq!(read_csv(&csv).unwrap(), rows);
        write_csv(&csv, &[]).unwrap();
        assert!(read_csv(&csv).unwrap().is_empty());
        let png = dir.join("curve.png");
        plot(&png, &rows, "test", Some(2)).unwrap();
        assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
        let _ = std::fs::remove_dir_all(&dir);
        // A fresh start far above the training curve is clipped off the axis.
        let mut start = row(1, Some(0.02));
        start.epoch = 0;
        start.train_mse = 0.2;
        start.val_mse = Some(0.21);
        let with_start = [start, row(1, Some(0.02)), row(2, Some(0.015))];
        let ((lo, hi), clipped) = mse_axis(&with_start);
        assert!(clipped);
        assert!(hi > 0.02 && hi < 0.03, "{hi}");
        assert!(lo < 0.005, "{lo}");
        // A start close to the rest stays on the axis.
        let mut near = with_start.clone();
        near[0].train_mse = 0.03;
        near[0].val_mse = Some(0.03);
        assert!(!mse_axis(&near).1);
    }
}

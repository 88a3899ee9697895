//! The last step of a sharded build: checks that every level is covered by exactly one
//! complete split into parts, checks the parts' checksums, and writes the database
//! (row-major, `us × n + them`) band by band from the mapped parts, the same bytes the
//! one-process generator writes.

use std::io::Write;
use std::path::Path;

use super::super::assembly::{rank_range, write_u16s};
use super::super::level_loop::LevelData;
use super::super::plan::{check_params, Layout};
use super::part::{level_split, list_parts, open_level, LevelParts};
use super::work::WorkPlan;
use crate::error::BearoffError;
use crate::format::encoding::equity_to_u16;

/// Checks that every level of `plan` has exactly one complete split in `dir`; the error
/// lists the first problems (missing shards, duplicated splits), one per level.
pub fn check_complete(dir: &Path, plan: &WorkPlan) -> Result<(), BearoffError> {
    let listing = list_parts(dir)?;
    let problems: Vec<String> = (0..plan.levels)
        .filter_map(|s| level_split(dir, &listing, s).err())
        .map(|e| e.to_string())
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    let more = if problems.len() > 5 {
        format!(" (and {} more levels)", problems.len() - 5)
    } else {
        String::new()
    };
    Err(BearoffError::InvalidParameters(format!(
        "cannot assemble: {}{more}",
        problems[..problems.len().min(5)].join("; ")
    )))
}

/// Writes the database of work directory `dir` to `out`, the file `out_name` (named in
/// a write error): `header` (if any), then the records, in bands of at most about
/// `memory_limit` bytes. `progress(step, steps)` counts the parts checked, then the
/// bands written.
pub fn assemble(
    dir: &Path,
    plan: &WorkPlan,
    header: Option<[u8; 40]>,
    memory_limit: u64,
    out: &mut dyn Write,
    out_name: &Path,
    progress: &dyn Fn(u64, u64),
) -> Result<(), BearoffError> {
    check_complete(dir, plan)?;
    let index = check_params(plan.params)?;
    let planes = if plan.params.cubeful { 4 } else { 1 };
    let layout = Layout::new(index, planes);
    let listing = list_parts(dir)?;
    let levels: Vec<LevelParts> = (0..plan.levels)
        .map(|s| open_level(&layout, plan, dir, &listing, s))
        .collect::<Result<_, _>>()?;
    let n = layout.index.count();
    let row_bytes = n * 2 * planes as u64;
    let rows_per_band = (memory_limit / row_bytes).max(1);
    let bands = n.div_ceil(rows_per_band);
    let parts: u64 = levels.iter().map(|l| l.parts().len() as u64).sum();
    let steps = parts + bands;
    let mut step = 0;
    for level in &levels {
        for part in level.parts() {
            part.verify()?;
            step += 1;
            progress(step, steps);
        }
    }
    let io_err = |e| BearoffError::io(out_name, "cannot write", e);
    if let Some(h) = header {
        out.write_all(&h).map_err(io_err)?;
    }
    for k in 0..bands {
        let (first, end) = (k * n / bands, (k + 1) * n / bands);
        let band = assemble_band(&layout, &levels, n, first, end);
        write_u16s(out, &band).map_err(io_err)?;
        step += 1;
        progress(step, steps);
    }
    Ok(())
}

/// The rows `first .. end` (roller positions) of the output, in stored form.
fn assemble_band(layout: &Layout, levels: &[LevelParts], n: u64, first: u64, end: u64) -> Vec<u16> {
    let planes = layout.planes;
    let pips = &layout.levels;
    let mut band = vec![0u16; ((end - first) * n) as usize * planes];
    for (s, level) in levels.iter().enumerate() {
        let (lo, hi) = Layout::x_range(layout.max_pip, s);
        for x in lo..=hi {
            let y = s - x;
            let (r0, r1) = rank_range(pips, x, first, end);
            if r0 == r1 || pips.len_of(y) == 0 {
                continue;
            }
            let (xs, ys) = (pips.level(x), pips.level(y));
            let nx = xs.len();
            let base = layout.block_start[s][x - lo] as usize * planes;
            for (ry, &b) in ys.iter().enumerate() {
                let row = level.values(base + ry * planes * nx, planes * nx);
                for (rx, &a) in xs.iter().enumerate().take(r1).skip(r0) {
                    let at = (((u64::from(a) - first) * n + u64::from(b)) as usize) * planes;
                    for q in 0..planes {
                        band[at + q] = equity_to_u16(row[q * nx + rx]);
                    }
                }
            }
        }
    }
    band
}

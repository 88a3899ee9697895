//! Where finished levels go and how the output is put together: scattered straight into
//! an in-memory output, or appended band by band to bucket files that are read back at
//! the end (and, when resuming, to restore the window).

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::plan::{Layout, TwoSidedPlan, TwoSidedRun, WINDOW};
use super::state::State;
use crate::error::BearoffError;
use crate::format::encoding::{equity_from_u16, equity_to_u16};
use crate::levels::PipLevels;

/// Where finished records go.
pub(super) enum Sink {
    /// The whole output in memory, stored form, row-major.
    Memory(Vec<u16>),
    /// One bucket file per band.
    Buckets(Vec<(PathBuf, BufWriter<File>)>),
}

/// Bucket mode: opens one bucket file per band, new, or (resuming) cut back to the
/// lengths `resumed` records and positioned at their ends.
pub(super) fn open_buckets(
    run: &TwoSidedRun,
    plan: &TwoSidedPlan,
    resumed: Option<&State>,
    state_path: &Path,
) -> Result<Vec<(PathBuf, BufWriter<File>)>, BearoffError> {
    let mut files = Vec::new();
    for k in 0..plan.bands.len() {
        let p = run.bucket_path(k);
        let f = match resumed {
            Some(state) => {
                let f = fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&p)
                    .map_err(|e| BearoffError::io(&p, "cannot open to resume", e))?;
                let len = f
                    .metadata()
                    .map_err(|e| BearoffError::io(&p, "cannot stat", e))?
                    .len();
                if len < state.buckets[k] {
                    return Err(BearoffError::corrupt(
                        &p,
                        format!(
                            "bucket is {len} bytes, the state file says {}; cannot resume (delete {} and start over)",
                            state.buckets[k],
                            state_path.display()
                        ),
                    ));
                }
                f.set_len(state.buckets[k])
                    .map_err(|e| BearoffError::io(&p, "cannot truncate", e))?;
                let mut f = f;
                io::Seek::seek(&mut f, io::SeekFrom::End(0))
                    .map_err(|e| BearoffError::io(&p, "cannot seek", e))?;
                f
            }
            None => File::create(&p).map_err(|e| BearoffError::io(&p, "cannot create", e))?,
        };
        files.push((p, BufWriter::with_capacity(1 << 20, f)));
    }
    Ok(files)
}

/// Writes the output: `header` (if any), then the rows, from memory or band by band from
/// the buckets; the temporary files go once all is written.
pub(super) fn write_output(
    layout: &Layout,
    plan: &TwoSidedPlan,
    sink: &mut Sink,
    header: Option<[u8; 40]>,
    out: &mut dyn Write,
    scratch: &Path,
    state_path: &Path,
) -> Result<(), BearoffError> {
    let io_err = |e: io::Error| BearoffError::io(scratch, "cannot write", e);
    if let Some(h) = header {
        out.write_all(&h).map_err(io_err)?;
    }
    match sink {
        Sink::Memory(buf) => write_u16s(out, buf).map_err(io_err)?,
        Sink::Buckets(files) => {
            let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
            for (p, w) in files.iter_mut() {
                w.flush().map_err(|e| BearoffError::io(p, "cannot write", e))?;
            }
            files.clear();
            for (k, p) in paths.iter().enumerate() {
                assemble_band(layout, plan, k, p, out)?;
            }
            // Done: the temporary files go (the caller commits the output).
            let _ = fs::remove_file(state_path);
            for p in &paths {
                let _ = fs::remove_file(p);
            }
        }
    }
    Ok(())
}

/// Single-band mode: writes a finished level into the row-major output buffer.
pub(super) fn scatter_level(layout: &Layout, s: usize, cur: &[i16], n: u64, buf: &mut [u16]) {
    let planes = layout.planes;
    let levels = &layout.levels;
    let (lo, hi) = Layout::x_range(layout.max_pip, s);
    for x in lo..=hi {
        let y = s - x;
        let (xs, ys) = (levels.level(x), levels.level(y));
        let base = layout.block_start[s][x - lo] as usize * planes;
        for (ry, &b) in ys.iter().enumerate() {
            for q in 0..planes {
                let row = &cur[base + (ry * planes + q) * xs.len()..][..xs.len()];
                for (rx, &a) in xs.iter().enumerate() {
                    buf[((u64::from(a) * n + u64::from(b)) as usize) * planes + q] = equity_to_u16(row[rx]);
                }
            }
        }
    }
}

/// Rank range of the positions of pip level `x` whose index lies in `[first, end)`.
pub(super) fn rank_range(levels: &PipLevels, x: usize, first: u64, end: u64) -> (usize, usize) {
    let xs = levels.level(x);
    (
        xs.partition_point(|&a| u64::from(a) < first),
        xs.partition_point(|&a| u64::from(a) < end),
    )
}

/// Bucket mode: appends each band's records of a finished level to its bucket, in the
/// order block, opponent rank, roller rank (values interleaved per record).
pub(super) fn append_level(
    layout: &Layout,
    plan: &TwoSidedPlan,
    s: usize,
    cur: &[i16],
    files: &mut [(PathBuf, BufWriter<File>)],
) -> Result<(), BearoffError> {
    let planes = layout.planes;
    let levels = &layout.levels;
    let (lo, hi) = Layout::x_range(layout.max_pip, s);
    let mut buf: Vec<u8> = Vec::new();
    for (k, &(first, end)) in plan.bands.iter().enumerate() {
        buf.clear();
        for x in lo..=hi {
            let y = s - x;
            let nx = levels.len_of(x);
            let (r0, r1) = rank_range(levels, x, first, end);
            if r0 == r1 {
                continue;
            }
            let base = layout.block_start[s][x - lo] as usize * planes;
            for ry in 0..levels.len_of(y) {
                for rx in r0..r1 {
                    for q in 0..planes {
                        let v = cur[base + (ry * planes + q) * nx + rx];
                        buf.extend_from_slice(&equity_to_u16(v).to_le_bytes());
                    }
                }
            }
        }
        let (p, w) = &mut files[k];
        w.write_all(&buf)
            .map_err(|e| BearoffError::io(p, "cannot write", e))?;
    }
    Ok(())
}

/// Records of band `k` in level `s`.
fn band_records(layout: &Layout, band: (u64, u64), s: usize) -> u64 {
    let (lo, hi) = Layout::x_range(layout.max_pip, s);
    (lo..=hi)
        .map(|x| {
            let (r0, r1) = rank_range(&layout.levels, x, band.0, band.1);
            ((r1 - r0) * layout.levels.len_of(s - x)) as u64
        })
        .sum()
}

/// Reads the last (up to) 24 levels up to `last` back from the buckets.
pub(super) fn read_window(
    layout: &Layout,
    plan: &TwoSidedPlan,
    run: &TwoSidedRun,
    last: usize,
) -> Result<VecDeque<Vec<i16>>, BearoffError> {
    let planes = layout.planes;
    let levels = &layout.levels;
    let first = (last + 1).saturating_sub(WINDOW);
    let mut window: VecDeque<Vec<i16>> = (first..=last)
        .map(|s| vec![0i16; layout.level_records[s] as usize * planes])
        .collect();
    for (k, &band) in plan.bands.iter().enumerate() {
        let p = run.bucket_path(k);
        let mut f = File::open(&p).map_err(|e| BearoffError::io(&p, "cannot open", e))?;
        let skip: u64 = (0..first).map(|s| band_records(layout, band, s)).sum::<u64>() * 2 * planes as u64;
        io::Seek::seek(&mut f, io::SeekFrom::Start(skip))
            .map_err(|e| BearoffError::io(&p, "cannot seek", e))?;
        let mut r = BufReader::with_capacity(1 << 20, f);
        let mut rec = vec![0u8; 2 * planes];
        for (cur, s) in window.iter_mut().zip(first..=last) {
            let (lo, hi) = Layout::x_range(layout.max_pip, s);
            for x in lo..=hi {
                let y = s - x;
                let nx = levels.len_of(x);
                let (r0, r1) = rank_range(levels, x, band.0, band.1);
                if r0 == r1 {
                    continue;
                }
                let base = layout.block_start[s][x - lo] as usize * planes;
                for ry in 0..levels.len_of(y) {
                    for rx in r0..r1 {
                        r.read_exact(&mut rec)
                            .map_err(|e| BearoffError::io(&p, "cannot read back", e))?;
                        for q in 0..planes {
                            let u = u16::from_le_bytes([rec[2 * q], rec[2 * q + 1]]);
                            cur[base + (ry * planes + q) * nx + rx] = equity_from_u16(u);
                        }
                    }
                }
            }
        }
    }
    Ok(window)
}

/// Bucket mode: rebuilds band `k` from its bucket and writes it.
fn assemble_band(
    layout: &Layout,
    plan: &TwoSidedPlan,
    k: usize,
    bucket: &Path,
    out: &mut dyn Write,
) -> Result<(), BearoffError> {
    let planes = layout.planes;
    let levels = &layout.levels;
    let n = plan.n;
    let (first, end) = plan.bands[k];
    let mut band = vec![0u16; ((end - first) * n) as usize * planes];
    let f = File::open(bucket).map_err(|e| BearoffError::io(bucket, "cannot open", e))?;
    let mut r = BufReader::with_capacity(1 << 20, f);
    let mut rec = vec![0u8; 2 * planes];
    for s in 0..=2 * layout.max_pip {
        let (lo, hi) = Layout::x_range(layout.max_pip, s);
        for x in lo..=hi {
            let y = s - x;
            let (r0, r1) = rank_range(levels, x, first, end);
            if r0 == r1 {
                continue;
            }
            let (xs, ys) = (levels.level(x), levels.level(y));
            for &b in ys {
                for &a in &xs[r0..r1] {
                    r.read_exact(&mut rec)
                        .map_err(|e| BearoffError::io(bucket, "cannot read", e))?;
                    let at = (((u64::from(a) - first) * n + u64::from(b)) as usize) * planes;
                    for q in 0..planes {
                        band[at + q] = u16::from_le_bytes([rec[2 * q], rec[2 * q + 1]]);
                    }
                }
            }
        }
    }
    write_u16s(out, &band).map_err(|e| BearoffError::io(bucket, "cannot write output", e))
}

pub(super) fn write_u16s(out: &mut dyn Write, data: &[u16]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 20);
    for chunk in data.chunks(1 << 19) {
        buf.clear();
        for &v in chunk {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        out.write_all(&buf)?;
    }
    Ok(())
}

//! Shard `K/N` of a level: which records of the level it computes. A level's records, in
//! the generator's level layout, form rows (one per block and opponent position, `planes
//! × roller positions` values); shard `K/N` takes the rows whose first record lies in
//! `[(K−1)·R/N, K·R/N)` (`R` records in the level), so the shards are contiguous runs of
//! whole rows that partition the level, of about `R/N` records each.

use super::super::plan::Layout;

pub use fileio::shard::Shard;

/// Rows `ry0 .. ry1` (opponent ranks) of block `(x, y)` of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BlockRows {
    pub(super) x: usize,
    pub(super) y: usize,
    pub(super) ry0: usize,
    pub(super) ry1: usize,
}

/// A shard's part of a level: records `first .. end` (level record offsets) and the rows
/// they are made of, in layout order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Slice {
    pub(super) first: u64,
    pub(super) end: u64,
    pub(super) rows: Vec<BlockRows>,
}

/// The records of level `s` that `shard` computes.
pub(super) fn slice_of(layout: &Layout, s: usize, shard: Shard) -> Slice {
    let total = layout.level_records[s];
    let block = shard.block(total);
    let (t0, t1) = (block.start, block.end);
    let levels = &layout.levels;
    let (lo, hi) = Layout::x_range(layout.max_pip, s);
    let mut rows = Vec::new();
    // The first row starting at or after t0 (the level's end if none).
    let mut first = None;
    let mut end = total;
    for x in lo..=hi {
        let y = s - x;
        let (nx, ny) = (levels.len_of(x) as u64, levels.len_of(y) as u64);
        if nx == 0 || ny == 0 {
            continue;
        }
        let base = layout.block_start[s][x - lo];
        // Rows whose start base + ry·nx lies in [t0, t1).
        let from = |t: u64| t.saturating_sub(base).div_ceil(nx).min(ny);
        let (ry0, ry1) = (from(t0), from(t1));
        if first.is_none() && ry0 < ny {
            first = Some(base + ry0 * nx);
            end = base + ry0 * nx;
        }
        if ry0 < ry1 {
            end = base + ry1 * nx;
            rows.push(BlockRows {
                x,
                y,
                ry0: ry0 as usize,
                ry1: ry1 as usize,
            });
        }
    }
    let first = first.unwrap_or(total);
    Slice { first, end, rows }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::index::PositionIndex;

    #[test]
    fn shards_split_every_level_into_contiguous_runs_of_whole_rows() {
        let layout = Layout::new(PositionIndex::new(6, 4).unwrap(), 1);
        for s in 0..layout.level_records.len() {
            let total = layout.level_records[s];
            for n in 1..=7u32 {
                let mut at = 0;
                for k in 1..=n {
                    let slice = slice_of(&layout, s, Shard { k, n });
                    assert_eq!(
                        slice.first,
                        at,
                        "level {s} shard {k}/{n} starts where {} ended",
                        k - 1
                    );
                    let rows: u64 = slice
                        .rows
                        .iter()
                        .map(|r| ((r.ry1 - r.ry0) * layout.levels.len_of(r.x)) as u64)
                        .sum();
                    assert_eq!(slice.end - slice.first, rows, "level {s} shard {k}/{n}");
                    // About R/N records: never more than one row past the even share.
                    let widest = (0..=layout.max_pip)
                        .map(|x| layout.levels.len_of(x) as u64)
                        .max()
                        .unwrap();
                    assert!(
                        rows <= total / u64::from(n) + widest + 1,
                        "level {s} shard {k}/{n}"
                    );
                    at = slice.end;
                }
                assert_eq!(at, total, "level {s} split {n} ways covers it");
            }
        }
    }
}

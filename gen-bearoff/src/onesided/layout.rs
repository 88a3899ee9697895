//! One-sided file layouts (after the optional 40-byte header):
//!
//! * **uncompressed**: record `i` at `i * 128` (gammon) or `i * 64`: 32 `u16` bear-off
//!   values, then 32 gammon values;
//! * **compressed**: `count` index entries, then the data area. A classic entry is 8 bytes
//!   (6 without gammon): `u32` offset in 16-bit words into the data area, then `nz`,
//!   `ioff`, `nzg`, `ioffg` (`u8` each): the number of stored values from the first
//!   non-zero slot to the last (interior zeros included) and that first slot. The wide
//!   (`-W1`) entry is the same with a `u64` offset: 12 bytes (10 without gammon);
//! * **normal distribution**: record `i` at `i * 16`: four little-endian `f32`.

use std::io::{self, Write};

use crate::format::encoding::ROLLS;
use crate::format::header::{HeaderStyle, OneSidedParams};
use crate::onesided::generate::ExactTable;
use crate::onesided::normal::NormalTable;

/// Bytes of one index entry of the compressed layout.
pub const fn index_entry_len(gammon: bool, wide: bool) -> u64 {
    (if wide { 8 } else { 4 }) + if gammon { 4 } else { 2 }
}

/// Bytes of one uncompressed record.
pub const fn record_len(gammon: bool) -> u64 {
    if gammon {
        128
    } else {
        64
    }
}

/// Bytes of one normal-distribution record.
pub const NORMAL_RECORD_LEN: u64 = 16;

/// gnubg's `CalcIndex`: first non-zero slot and the number of slots up to the last
/// non-zero one.
pub fn span(a: &[u16; ROLLS]) -> (u8, u8) {
    let last = a.iter().rposition(|&v| v != 0).unwrap_or(ROLLS);
    let first = a[..last.min(ROLLS - 1) + 1]
        .iter()
        .position(|&v| v != 0)
        .unwrap_or(0);
    (first as u8, (last - first + 1) as u8)
}

/// How to write a one-sided table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OneSidedWriteOptions {
    /// What goes in the file (gammon arrays, compression, normal approximation).
    pub params: OneSidedParams,
    /// Which header (and offset width) to use.
    pub style: HeaderStyle,
}

/// Size in 16-bit words of the compressed data area.
pub fn compressed_words(table: &ExactTable, gammon: bool) -> u64 {
    let mut words = 0u64;
    for (i, a) in table.bearoff.iter().enumerate() {
        words += u64::from(span(a).1);
        if gammon {
            words += u64::from(span(&table.gammons[i]).1);
        }
    }
    words
}

/// Size in bytes of the file these options produce for `table`.
pub fn exact_file_size(table: &ExactTable, opts: &OneSidedWriteOptions) -> u64 {
    let n = table.bearoff.len() as u64;
    let head = opts.style.data_offset();
    let g = opts.params.gammon;
    if opts.params.compressed {
        head + n * index_entry_len(g, opts.style == HeaderStyle::Wide) + 2 * compressed_words(table, g)
    } else {
        head + n * record_len(g)
    }
}

fn put_u16s(out: &mut Vec<u8>, a: &[u16]) {
    for &v in a {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// Writes an exact table (header, then the chosen layout). The table must have gammon
/// arrays if `opts.params.gammon` is set. Fails if a classic compressed offset would not
/// fit in 32 bits.
pub fn write_exact(
    table: &ExactTable,
    opts: &OneSidedWriteOptions,
    header: Option<[u8; 40]>,
    w: &mut impl Write,
) -> io::Result<()> {
    let g = opts.params.gammon;
    if g && table.gammons.len() != table.bearoff.len() {
        return Err(io::Error::other("table has no gammon arrays"));
    }
    if let Some(h) = header {
        w.write_all(&h)?;
    }
    let mut buf = Vec::with_capacity(1 << 16);
    let flush = |buf: &mut Vec<u8>, w: &mut dyn Write| -> io::Result<()> {
        w.write_all(buf)?;
        buf.clear();
        Ok(())
    };
    if !opts.params.compressed {
        for (i, a) in table.bearoff.iter().enumerate() {
            put_u16s(&mut buf, &a.0);
            if g {
                put_u16s(&mut buf, &table.gammons[i].0);
            }
            if buf.len() >= 1 << 16 {
                flush(&mut buf, w)?;
            }
        }
        return flush(&mut buf, w);
    }
    let wide = opts.style == HeaderStyle::Wide;
    let mut offset = 0u64;
    for (i, a) in table.bearoff.iter().enumerate() {
        if wide {
            buf.extend_from_slice(&offset.to_le_bytes());
        } else {
            let o = u32::try_from(offset).map_err(|_| {
                io::Error::other("compressed offsets exceed 32 bits: use the wide (bgkit) header")
            })?;
            buf.extend_from_slice(&o.to_le_bytes());
        }
        let (ioff, nz) = span(a);
        buf.extend_from_slice(&[nz, ioff]);
        offset += u64::from(nz);
        if g {
            let (ioffg, nzg) = span(&table.gammons[i]);
            buf.extend_from_slice(&[nzg, ioffg]);
            offset += u64::from(nzg);
        }
        if buf.len() >= 1 << 16 {
            flush(&mut buf, w)?;
        }
    }
    for (i, a) in table.bearoff.iter().enumerate() {
        let (ioff, nz) = span(a);
        put_u16s(&mut buf, &a[usize::from(ioff)..usize::from(ioff + nz)]);
        if g {
            let ga = &table.gammons[i];
            let (ioffg, nzg) = span(ga);
            put_u16s(&mut buf, &ga[usize::from(ioffg)..usize::from(ioffg + nzg)]);
        }
        if buf.len() >= 1 << 16 {
            flush(&mut buf, w)?;
        }
    }
    flush(&mut buf, w)
}

/// Writes a normal-distribution table.
pub fn write_normal(table: &NormalTable, header: Option<[u8; 40]>, w: &mut impl Write) -> io::Result<()> {
    if let Some(h) = header {
        w.write_all(&h)?;
    }
    let mut buf = Vec::with_capacity(1 << 16);
    for r in &table.records {
        for v in r {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        if buf.len() >= 1 << 16 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_matches_gnubg_calc_index() {
        let mut a = [0u16; ROLLS];
        a[3] = 5;
        a[7] = 9;
        assert_eq!(span(&a), (3, 5));
        let mut b = [0u16; ROLLS];
        b[0] = 0xFFFF;
        assert_eq!(span(&b), (0, 1));
        let mut c = [0u16; ROLLS];
        c[31] = 1;
        assert_eq!(span(&c), (31, 1));
    }
}

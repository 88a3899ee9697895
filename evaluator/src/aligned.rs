//! `f32` arrays that start on a 64-byte boundary (a cache line, one AVX-512 vector).
//!
//! The nets' weight rows are read with 64-byte loads. From a plain `Vec<f32>` (16-byte
//! aligned by the allocator) every such load may straddle two cache lines, which made
//! the hidden layer about a fifth slower depending on where the allocator happened to
//! put the weights (measured: one evaluation per call 1.30M/s unaligned, 1.63M/s
//! aligned, same bits).

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Sixteen floats on a 64-byte boundary: the unit of storage.
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Line([f32; 16]);

/// An `f32` array whose first element is 64-byte aligned; reads and writes as a
/// slice.
#[derive(Default)]
pub struct AlignedFloats {
    lines: Vec<Line>,
    len: usize,
}

impl Clone for AlignedFloats {
    fn clone(&self) -> AlignedFloats {
        AlignedFloats {
            lines: self.lines.clone(),
            len: self.len,
        }
    }

    /// Copies into the existing allocation where it is large enough (a trainer copies
    /// whole models once per game).
    fn clone_from(&mut self, source: &AlignedFloats) {
        self.lines.clone_from(&source.lines);
        self.len = source.len;
    }
}

impl AlignedFloats {
    /// `len` zeros.
    pub fn zeros(len: usize) -> AlignedFloats {
        AlignedFloats {
            lines: vec![Line([0.0; 16]); len.div_ceil(16)],
            len,
        }
    }

    /// The first `len` values, after growing (with zeros) if there are fewer: a
    /// scratch buffer reused for nets of different sizes.
    pub fn first(&mut self, len: usize) -> &mut [f32] {
        if self.len < len {
            self.lines.resize(len.div_ceil(16), Line([0.0; 16]));
            self.len = len;
        }
        &mut self[..len]
    }

    /// The values as a plain vector.
    pub fn to_vec(&self) -> Vec<f32> {
        self.deref().to_vec()
    }
}

impl Deref for AlignedFloats {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        &bytemuck::cast_slice(&self.lines)[..self.len]
    }
}

impl DerefMut for AlignedFloats {
    fn deref_mut(&mut self) -> &mut [f32] {
        &mut bytemuck::cast_slice_mut(&mut self.lines)[..self.len]
    }
}

impl From<&[f32]> for AlignedFloats {
    fn from(values: &[f32]) -> AlignedFloats {
        let mut a = AlignedFloats::zeros(values.len());
        a.copy_from_slice(values);
        a
    }
}

impl From<Vec<f32>> for AlignedFloats {
    fn from(values: Vec<f32>) -> AlignedFloats {
        AlignedFloats::from(values.as_slice())
    }
}

impl PartialEq for AlignedFloats {
    fn eq(&self, other: &AlignedFloats) -> bool {
        self.deref() == other.deref()
    }
}

impl fmt::Debug for AlignedFloats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.deref().fmt(f)
    }
}

impl<'a> IntoIterator for &'a AlignedFloats {
    type Item = &'a f32;
    type IntoIter = std::slice::Iter<'a, f32>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut AlignedFloats {
    type Item = &'a mut f32;
    type IntoIter = std::slice::IterMut<'a, f32>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_on_a_cache_line_and_keeps_its_length_and_values() {
        for len in [0, 1, 15, 16, 17, 128 * 250] {
            let values: Vec<f32> = (0..len).map(|i| i as f32 * 0.5 - 3.0).collect();
            let a = AlignedFloats::from(values.as_slice());
            assert_eq!(a.as_ptr() as usize % 64, 0, "len {len}");
            assert_eq!(a.len(), len);
            assert_eq!(a.to_vec(), values);
            let mut b = a.clone();
            assert_eq!(b.as_ptr() as usize % 64, 0);
            assert_eq!(a, b);
            if len > 0 {
                b[len - 1] += 1.0;
                assert_ne!(a, b);
            }
            let mut c = AlignedFloats::default();
            assert_eq!(c.first(len).len(), len);
            assert!(c.iter().all(|&v| v == 0.0));
            c.first(len).copy_from_slice(&values);
            assert_eq!(c.first(len / 2), &values[..len / 2], "keeps its values");
            assert_eq!(c.len(), len);
            assert_eq!(c.as_ptr() as usize % 64, 0);
            // Growing keeps the values and adds zeros, within a line and across lines.
            for more in [len + 1, len + 17] {
                let grown = c.first(more).to_vec();
                assert_eq!(&grown[..len], &values[..]);
                assert!(grown[len..].iter().all(|&v| v == 0.0));
                assert_eq!(c.as_ptr() as usize % 64, 0);
                c.first(more)[more - 1] = 7.0;
                c = AlignedFloats::from(values.as_slice());
            }
        }
    }
}

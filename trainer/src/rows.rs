//! Which hidden-weight rows of a model a game changed, and when each row last changed,
//! so that the ordered scheme ([`crate::ordered`]) copies and merges only those rows.
//!
//! A TD step changes a net's hidden weights only in the rows of its non-zero inputs
//! (with traces, in the rows of inputs seen earlier in the same game); thresholds and
//! output weights change at every step. A game of self-play trains about half of the
//! contact net's 250 rows and a sixth of the race and crashed nets' rows (measured
//! over 20,000 games from scratch), so most rows of a game's copy are still those of
//! the weights it started from.
//!
//! Row `i` of a net's hidden weights is `hidden_weights[i * hidden..(i + 1) * hidden]`.
//! Nets are numbered main nets first, then pruning nets (as `Model::all_nets` lists
//! them).

use crate::model::{for_small_arrays, Model};

/// A set of hidden-weight rows per net.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    /// One bit per row, 64 rows per word, per net.
    sets: Vec<Vec<u64>>,
}

impl Rows {
    /// The empty set for a model of `model`'s shape.
    pub fn empty(model: &Model) -> Rows {
        let mut r = Rows::default();
        r.clear_for(model);
        r
    }

    /// Empties the set, shaped for `model` (keeping the allocations).
    pub fn clear_for(&mut self, model: &Model) {
        self.sets.resize_with(model.all_nets().count(), Vec::new);
        for (set, net) in self.sets.iter_mut().zip(model.all_nets()) {
            set.clear();
            set.resize(net.inputs.div_ceil(64), 0);
        }
    }

    /// Net `net`'s words, at least enough for `rows` rows (growing the set if it was not
    /// shaped for that net).
    fn words_for(&mut self, net: usize, rows: usize) -> &mut Vec<u64> {
        if self.sets.len() <= net {
            self.sets.resize_with(net + 1, Vec::new);
        }
        let set = &mut self.sets[net];
        if set.len() < rows.div_ceil(64) {
            set.resize(rows.div_ceil(64), 0);
        }
        set
    }

    /// Adds the rows of net `net` whose input in `x` is non-zero.
    pub fn mark_nonzero(&mut self, net: usize, x: &[f32]) {
        evaluator::simd::or_nonzero_bits(x, self.words_for(net, x.len()));
    }

    /// Adds the rows of net `from` below `n` to net `to` (a net whose inputs are the first
    /// `n` inputs of the other's).
    pub fn mark_prefix(&mut self, to: usize, from: usize, n: usize) {
        self.words_for(to, n);
        self.words_for(from, 0);
        for k in 0..n.div_ceil(64).min(self.sets[from].len()) {
            let keep = if 64 * (k + 1) <= n {
                u64::MAX
            } else {
                (1u64 << (n % 64)) - 1
            };
            let w = self.sets[from][k] & keep;
            self.sets[to][k] |= w;
        }
    }

    /// Adds row `row` of net `net`.
    pub fn insert(&mut self, net: usize, row: usize) {
        self.sets[net][row / 64] |= 1 << (row % 64);
    }

    /// Whether row `row` of net `net` is in the set.
    pub fn contains(&self, net: usize, row: usize) -> bool {
        self.sets[net]
            .get(row / 64)
            .is_some_and(|w| w >> (row % 64) & 1 == 1)
    }

    /// The set's rows of net `net` as runs `[start, end)` of consecutive rows, in order.
    pub fn runs(&self, net: usize) -> Runs<'_> {
        Runs {
            words: self.sets.get(net).map_or(&[], |s| s.as_slice()),
            at: 0,
        }
    }

    /// How many rows the set holds.
    pub fn len(&self) -> usize {
        self.sets.iter().flatten().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set holds no row.
    pub fn is_empty(&self) -> bool {
        self.sets.iter().flatten().all(|&w| w == 0)
    }
}

/// Runs of consecutive rows of one net ([`Rows::runs`]).
pub struct Runs<'a> {
    words: &'a [u64],
    /// The next row to look at.
    at: usize,
}

impl Iterator for Runs<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let bit = |r: usize| self.words.get(r / 64).is_some_and(|w| w >> (r % 64) & 1 == 1);
        let end_of_words = 64 * self.words.len();
        // Skip to the next set bit, a word at a time where the rest of a word is empty.
        while self.at < end_of_words {
            let rest = self.words[self.at / 64] >> (self.at % 64);
            if rest == 0 {
                self.at = (self.at / 64 + 1) * 64;
                continue;
            }
            self.at += rest.trailing_zeros() as usize;
            let start = self.at;
            while self.at < end_of_words && bit(self.at) {
                self.at += 1;
            }
            return Some((start, self.at));
        }
        None
    }
}

/// When each row last changed: the number of games merged (the version of the shared
/// weights) right after the merge that changed it.
#[derive(Clone, Debug)]
pub struct RowClock {
    last: Vec<Vec<u64>>,
}

impl RowClock {
    /// A clock for `model`'s shape at version `now`: no row has changed since.
    pub fn new(model: &Model, now: u64) -> RowClock {
        RowClock {
            last: model.all_nets().map(|n| vec![now; n.inputs]).collect(),
        }
    }

    /// Records that the rows `rows` changed in the merge that made version `version`.
    pub fn stamp(&mut self, rows: &Rows, version: u64) {
        for (net, last) in self.last.iter_mut().enumerate() {
            for (a, b) in rows.runs(net) {
                last[a..b].fill(version);
            }
        }
    }

    /// Into `out`: the rows changed in a merge after version `since` (those in which
    /// the weights of version `since` may differ from any later version), shaped as
    /// `model`.
    pub fn changed_after(&self, since: u64, model: &Model, out: &mut Rows) {
        out.clear_for(model);
        for (set, last) in out.sets.iter_mut().zip(&self.last) {
            for (word, chunk) in set.iter_mut().zip(last.chunks(64)) {
                *word = later64(chunk, since);
            }
        }
    }
}

/// Bit `i` set where `v[i] > since` (at most 64 values), eight values at a time so that
/// the compiler turns each eight into a vector compare and a mask move.
#[inline]
fn later64(v: &[u64], since: u64) -> u64 {
    let mut bits = 0u64;
    let mut eights = v.chunks_exact(8);
    for (k, e) in eights.by_ref().enumerate() {
        let e: &[u64; 8] = e.try_into().expect("eight values");
        let mut b = 0u8;
        for (i, &x) in e.iter().enumerate() {
            b |= u8::from(x > since) << i;
        }
        bits |= u64::from(b) << (8 * k);
    }
    let done = v.len() - eights.remainder().len();
    for (i, &x) in eights.remainder().iter().enumerate() {
        bits |= u64::from(x > since) << (done + i);
    }
    bits
}

/// Copies into `to` the hidden-weight rows `rows` of `from` and every other weight
/// array in full (thresholds, output weights), net by net.
pub fn copy_rows(to: &mut Model, from: &Model, rows: &Rows) {
    to.config.clone_from(&from.config);
    for (net, (t, f)) in to.all_nets_mut().zip(from.all_nets()).enumerate() {
        let h = f.hidden;
        (t.trained, t.beta_hidden, t.beta_output) = (f.trained, f.beta_hidden, f.beta_output);
        for (a, b) in rows.runs(net) {
            t.hidden_weights[a * h..b * h].copy_from_slice(&f.hidden_weights[a * h..b * h]);
        }
        for_small_arrays(t, f, f, |t, f, _| t.copy_from_slice(f));
    }
}

/// The merge of [`Model::merge_onto`] for a copy `o` of `b` that changed only the rows
/// `learned` of its hidden weights: those rows and every other weight array become
/// `m + (o − b)`; the rows `moved` (in which `m` may differ from `b`) that `o` did not
/// change become `m`'s; every other row is the same in all three and stays. The same
/// bits as the full merge wherever every weight is finite and none is −0.0: where
/// `o == b` the full merge computes `m + 0.0`, which turns a −0.0 into +0.0 (training
/// from random weights never makes one; a loaded weights file could hold one), and
/// `m + (±∞ − ±∞)`, a NaN, where this keeps the infinity (only a diverged net has one).
pub fn merge_rows_onto(o: &mut Model, m: &Model, b: &Model, learned: &Rows, moved: &Rows) {
    o.each_net_with(m, b, |net, on, mn, bn| {
        let h = on.hidden;
        let add = evaluator::simd::add_difference_onto;
        for (a, z) in learned.runs(net) {
            let r = a * h..z * h;
            add(
                &mut on.hidden_weights[r.clone()],
                &mn.hidden_weights[r.clone()],
                &bn.hidden_weights[r],
            );
        }
        for (a, z) in moved.runs(net) {
            for row in a..z {
                if !learned.contains(net, row) {
                    let r = row * h..(row + 1) * h;
                    on.hidden_weights[r.clone()].copy_from_slice(&mn.hidden_weights[r]);
                }
            }
        }
        for_small_arrays(on, mn, bn, add);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ModelConfig;

    fn model(seed: u64) -> Model {
        Model::new(ModelConfig::gnubg(16, true), seed).unwrap()
    }

    #[test]
    fn runs_list_the_marked_rows_in_order() {
        let m = model(1);
        let mut r = Rows::empty(&m);
        let mut x = vec![0.0f32; m.nets[0].inputs];
        for i in [0, 1, 2, 63, 64, 65, 127, 128, 200, 249] {
            x[i] = 0.5;
        }
        x[100] = -0.0; // not an input that changes a weight
        r.mark_nonzero(0, &x);
        r.insert(1, 213);
        let runs: Vec<_> = r.runs(0).collect();
        assert_eq!(runs, [(0, 3), (63, 66), (127, 129), (200, 201), (249, 250)]);
        assert_eq!(r.runs(1).collect::<Vec<_>>(), [(213, 214)]);
        assert_eq!(r.runs(2).count(), 0);
        assert_eq!(r.len(), 11);
        assert!(r.contains(0, 64) && !r.contains(0, 66) && !r.contains(0, 100));
        // The first 200 rows of net 0 into pruning net 3.
        r.mark_prefix(3, 0, 200);
        assert_eq!(r.runs(3).collect::<Vec<_>>(), [(0, 3), (63, 66), (127, 129)]);
        r.clear_for(&m);
        assert!(r.is_empty());
    }

    #[test]
    fn the_clock_lists_rows_changed_after_a_version() {
        let m = model(1);
        let mut clock = RowClock::new(&m, 10);
        let mut a = Rows::empty(&m);
        a.insert(0, 5);
        a.insert(3, 7);
        clock.stamp(&a, 11);
        let mut b = Rows::empty(&m);
        b.insert(0, 9);
        clock.stamp(&b, 12);
        let mut out = Rows::default();
        clock.changed_after(10, &m, &mut out);
        assert_eq!(out.len(), 3);
        clock.changed_after(11, &m, &mut out);
        assert_eq!((out.len(), out.contains(0, 9)), (1, true));
        clock.changed_after(12, &m, &mut out);
        assert!(out.is_empty());
    }

    /// Changes the given rows of every net and all the small arrays, by `d`.
    fn learn(m: &mut Model, rows: &Rows, d: f32) {
        for (net, n) in m.all_nets_mut().enumerate() {
            let h = n.hidden;
            for (row, w) in n.hidden_weights.chunks_mut(h).enumerate() {
                if rows.contains(net, row) {
                    w.iter_mut().for_each(|v| *v += d * (1.0 + row as f32 / 7.0));
                }
            }
            n.output_weights.iter_mut().for_each(|v| *v -= d);
            n.hidden_thresholds.iter_mut().for_each(|v| *v += d);
            n.output_thresholds.iter_mut().for_each(|v| *v *= 1.0 + d);
        }
    }

    fn some_rows(m: &Model, picks: &[(usize, usize)]) -> Rows {
        let mut r = Rows::empty(m);
        for &(net, row) in picks {
            r.insert(net, row);
        }
        r
    }

    #[test]
    fn row_copies_and_merges_give_the_full_ones_bits() {
        // W_s, then a game merged before this one (rows `earlier`) makes W_k; this
        // game's copy of W_s learns rows `mine`.
        let ws = model(3);
        let earlier = some_rows(&ws, &[(0, 1), (0, 2), (1, 50), (4, 199)]);
        let mine = some_rows(&ws, &[(0, 2), (0, 3), (2, 249), (3, 0)]);
        let mut wk = ws.clone();
        learn(&mut wk, &earlier, 0.01);
        let mut copy = ws.clone();
        learn(&mut copy, &mine, -0.02);

        let mut full = copy.clone();
        full.merge_onto(&wk, &ws);
        let mut rows = copy.clone();
        merge_rows_onto(&mut rows, &wk, &ws, &mine, &earlier);
        assert_eq!(rows.weight_bits(), full.weight_bits());
        assert_ne!(rows.weight_bits(), copy.weight_bits());

        // A spare holding W_k becomes W_s by copying the rows changed after s.
        let mut spare = wk.clone();
        copy_rows(&mut spare, &ws, &earlier);
        assert_eq!(spare.weight_bits(), ws.weight_bits());
        // Leaving a changed row out is seen.
        let mut spare = wk.clone();
        copy_rows(&mut spare, &ws, &some_rows(&ws, &[(0, 1), (0, 2), (1, 50)]));
        assert_ne!(spare.weight_bits(), ws.weight_bits());
    }
}

//! gnubg 1.07's `makehyper` computation, reproduced operation for operation so that the
//! files are byte-identical (`--gnubg-compat`).
//!
//! gnubg's stored probabilities depend on its iteration, not only on the equations: where
//! two moves have (nearly) equal cubeless equity but different gammon chances, its `f32`
//! rounding at the last sweep decides which one's probabilities are kept (up to 2·10⁻⁵
//! apart for 2 checkers). Reproducing its values therefore means reproducing its
//! iteration:
//!
//! * `f32` state per record: five probabilities, five equities (cubeless, owned,
//!   centred, centred Jacoby, opponent owns);
//! * start guess: finished games exact (every equity slot the money utility, the Jacoby
//!   slot the Jacoby utility); every other legal record probabilities {1, 1, 0, 0, 0},
//!   cubeless equity their utility (2), cubeful slots 0; illegal records all 0;
//! * sweeps in place (Gauss–Seidel) over records in index order (side on roll outer,
//!   opponent inner), rolls in gnubg's order, moves in gnubg's order with ties on the
//!   cubeless equity going to the later move, gnubg's `f32` cube decision, sums in
//!   roll order, `× (1/36)` (its fast-math build multiplies by the reciprocal);
//! * a roll with no legal move copies the reverse record negated (gnubg's rule);
//! * stop after the first sweep whose largest change is at most the threshold.
//!
//! The state is stored opponent-major (record `(us, them)` at `them * n + us`), so the
//! records of a row read successors that lie next to each other.
//!
//! Records of one row (one side on roll) are independent of each other except where a
//! successor lies in the same row (the opponent's side after the move equals the mover's
//! side before it); those few are computed after the rest of the row, in index order,
//! reading the row's new values below them and old values above, exactly as the
//! sequential sweep would. The result is identical for any number of threads.

use rayon::prelude::*;

use super::moves::{MoveTable, Successors};
use super::space::{Class, HyperSpace};

/// One record's `f32` state: probabilities `[0..5]`, equities `[5..10]`.
pub type CompatRecord = [f32; 10];

#[inline(always)]
fn cube_equity(nd: f32, dt: f32, dp: f32) -> f32 {
    if 2.0f32 * dt >= nd && dp >= nd {
        if 2.0f32 * dt >= dp {
            dp
        } else {
            2.0f32 * dt
        }
    } else {
        nd
    }
}

#[inline(always)]
fn utility_f32(o: &[f32], gammons: bool) -> f32 {
    let price = if gammons { 1.0f32 } else { 0.0f32 };
    o[0] * 2.0f32 - 1.0f32 + (o[1] - o[3]) * price + (o[2] - o[4]) * price
}

/// The solver's fixed inputs.
#[derive(Clone, Copy, Debug)]
pub struct CompatSolver<'a> {
    /// The position space.
    pub space: &'a HyperSpace,
    /// The move table.
    pub table: &'a MoveTable,
}

impl CompatSolver<'_> {
    /// gnubg's start guess (stored opponent-major).
    pub fn start(&self) -> Vec<CompatRecord> {
        let n = self.space.n();
        let mut v = vec![[0f32; 10]; self.space.records()];
        v.par_iter_mut().enumerate().for_each(|(k, x)| {
            let r = (k % n) * n + k / n;
            self.start_record(r, x);
        });
        v
    }

    fn start_record(&self, r: usize, x: &mut CompatRecord) {
        match self.space.class(r) {
            Class::Over => {
                let o = self.space.over_outputs(r);
                for q in 0..5 {
                    x[q] = o[q] as f32;
                }
                let u = utility_f32(&x[..5], true);
                for q in 0..5 {
                    x[5 + q] = u;
                }
                x[8] = utility_f32(&x[..5], false);
            }
            Class::NoContact | Class::Contact => {
                x[0] = 1.0;
                x[1] = 1.0;
                x[5] = utility_f32(&x[..5], true);
            }
            Class::Illegal => {}
        }
    }

    /// Computes record `(i, j)`; `get(on, off)` supplies successor values (`None` defers
    /// the record). The dance successor `(j, i)` is read from `dance`.
    #[inline]
    fn record(
        &self,
        i: usize,
        j: usize,
        dance: &CompatRecord,
        get: impl Fn(usize, usize) -> Option<CompatRecord>,
    ) -> Option<CompatRecord> {
        let view = self.space.view(j);
        let block = usize::from(view.block);
        let mut acc = [0f32; 10];
        for (k, dice) in super::moves::rolls().into_iter().enumerate() {
            let paths = self.table.paths(i, k, block);
            let mut best = [0f32; 10];
            if paths.is_empty() {
                let x = dance;
                best[0] = 1.0f32 - x[0];
                best[1] = x[3];
                best[2] = x[4];
                best[3] = x[1];
                best[4] = x[2];
                for q in 5..10 {
                    best[q] = -x[q];
                }
            } else {
                for v in &mut best[5..] {
                    *v = -10000.0f32;
                }
                let succ = Successors { paths, view };
                let mut best_s = (usize::MAX, usize::MAX);
                for p in 0..paths.len() {
                    let s = succ.pair(p);
                    let x = get(s.0, s.1)?;
                    let r = -x[5];
                    if r > best[5] || (r == best[5] && (s == best_s || succ.first_occurrence(p))) {
                        best[0] = 1.0f32 - x[0];
                        best[1] = x[3];
                        best[2] = x[4];
                        best[3] = x[1];
                        best[4] = x[2];
                        best[5] = r;
                        best_s = s;
                    }
                    let r = -x[9];
                    if r >= best[6] {
                        best[6] = r;
                    }
                    let r = -cube_equity(x[7], x[9], 1.0);
                    if r >= best[7] {
                        best[7] = r;
                    }
                    let r = -cube_equity(x[8], x[9], 1.0);
                    if r >= best[8] {
                        best[8] = r;
                    }
                    let r = -cube_equity(x[6], x[9], 1.0);
                    if r >= best[9] {
                        best[9] = r;
                    }
                }
            }
            let double = dice.is_double();
            for q in 0..10 {
                acc[q] += if double { best[q] } else { 2.0f32 * best[q] };
            }
        }
        Some(acc.map(|x| x * (1.0f32 / 36.0f32)))
    }

    /// One sweep in place; returns gnubg's "norm of delta" (the largest change of any of
    /// the ten values). `progress(rows_done)` is called after each row.
    pub fn sweep(&self, values: &mut [CompatRecord], progress: &dyn Fn(usize)) -> f32 {
        let n = self.space.n();
        let mut norm = 0f32;
        let mut row: Vec<CompatRecord> = vec![[0f32; 10]; n];
        let mut deferred: Vec<bool> = vec![false; n];
        for i in 0..n {
            for (j, x) in row.iter_mut().enumerate() {
                *x = values[j * n + i];
            }
            let table = &*values;
            let live = |j: usize| matches!(self.space.class(i * n + j), Class::Contact | Class::NoContact);
            // Everything that reads no other record of this row.
            let change = row
                .par_iter_mut()
                .zip(deferred.par_iter_mut())
                .enumerate()
                .with_min_len(16)
                .map(|(j, (slot, def))| {
                    *def = false;
                    if !live(j) {
                        return 0f32;
                    }
                    let get = |on: usize, off: usize| (on != i).then(|| table[off * n + on]);
                    match self.record(i, j, &table[i * n + j], get) {
                        Some(v) => {
                            let d = delta(&v, slot);
                            *slot = v;
                            d
                        }
                        None => {
                            *def = true;
                            0f32
                        }
                    }
                })
                .reduce(|| 0f32, f32::max);
            norm = norm.max(change);
            // The rest in index order: the row's new values below, old ones above.
            for j in 0..n {
                if !deferred[j] {
                    continue;
                }
                let new_row = &row;
                let get = |on: usize, off: usize| {
                    Some(if on == i && off < j {
                        new_row[off]
                    } else {
                        table[off * n + on]
                    })
                };
                let v = self
                    .record(i, j, &table[i * n + j], get)
                    .expect("never deferred twice");
                norm = norm.max(delta(&v, &table[j * n + i]));
                row[j] = v;
            }
            for (j, x) in row.iter().enumerate() {
                values[j * n + i] = *x;
            }
            progress(i + 1);
        }
        norm
    }
}

fn delta(a: &CompatRecord, b: &CompatRecord) -> f32 {
    let mut d = 0f32;
    for q in 0..10 {
        let x = (a[q] - b[q]).abs();
        if x > d {
            d = x;
        }
    }
    d
}

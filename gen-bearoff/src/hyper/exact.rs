//! bgkit's hypergammon solver: the exact fixed point of the cubeless and cubeful money
//! equations, in `f64`, with the correct treatment of rolls that cannot be played.
//!
//! The equations (per record, the side on roll before rolling, all per unit cube and
//! "no double this turn", like gnubg's): for each of the 21 rolls take the best move for
//! each quantity separately, then average with weights 1/36 (doubles) and 2/36:
//!
//! * cubeless: the move maximising `−E₀(successor)`; the five probabilities are that
//!   move's successor's, inverted. Among moves of exactly equal cubeless equity the
//!   *last* in gnubg's move order is kept, as gnubg does;
//! * owned cube: `max −E_opp(successor)` (the opponent cannot double);
//! * centred: `max −CE(E_centred(s), E_opp(s))`, where `CE(ND, DT) = max(ND, min(2·DT, 1))`
//!   is the opponent's optimal double/take/pass choice before his roll (money, no
//!   beavers); centred with Jacoby: the same with the Jacoby values; opponent owns:
//!   `max −CE(E_owned(s), E_opp(s))`.
//! * A roll with no legal move passes the turn with the board unchanged: the successor
//!   is the same pair of sides with the opponent on roll, and the opponent's cube
//!   decision applies to it like any other successor. (gnubg's `makehyper` instead copies
//!   the reverse record's five equities negated, without exchanging the cube-ownership
//!   slots or applying the cube decision; [`DanceRule::Gnubg`] reproduces that.)
//!
//! How it is solved:
//!
//! 1. finished games get their exact values;
//! 2. positions without contact are solved exactly in one pass: every move lowers the
//!    pip total and none hits, so groups of equal pip total are computed in ascending
//!    order, each group in parallel;
//! 3. only contact positions are iterated: Gauss–Seidel sweeps over the same ascending
//!    pip-total groups, so every successor that lowers the pip total (all but hits and
//!    dances) already has this sweep's value. Within a group the records are computed
//!    in parallel from the values at the start of the group and stored together at its
//!    end, so the result does not depend on the number of threads. A sweep's residual
//!    is the largest change of any of the ten values; the iteration stops when it is at
//!    most the threshold.

use rayon::prelude::*;

/// The equations this solver iterates ([`super::equations`]), also at their old paths.
pub use super::equations::{bellman, DanceRule, Equities, WEIGHTS};
use super::kernel::{Choices, Column, Kernel, Loops};
use super::moves::MoveTable;
use super::space::{utility, Class, HyperSpace, Outputs};
use crate::prefetch::prefetch;

/// The values of every record (`us * n + them`).
#[derive(Clone, Debug)]
pub struct ExactState {
    /// Equities.
    pub eq: Vec<Equities>,
    /// Cubeless probabilities.
    pub out: Vec<Outputs>,
}

impl ExactState {
    /// Values of record `r`.
    pub fn get(&self, r: usize) -> (Equities, Outputs) {
        (self.eq[r], self.out[r])
    }
}

/// The solver's fixed inputs.
#[derive(Clone, Copy, Debug)]
pub struct ExactSolver<'a> {
    /// The position space.
    pub space: &'a HyperSpace,
    /// The move table.
    pub table: &'a MoveTable,
    /// Dance rule.
    pub dance: DanceRule,
}

impl ExactSolver<'_> {
    /// State with finished games set, everything else at the start guess (equities 0,
    /// even chances, no gammons).
    pub fn start(&self) -> ExactState {
        let records = self.space.records();
        let mut eq = vec![[0.0; 5]; records];
        let mut out = vec![[0.0; 5]; records];
        eq.par_iter_mut()
            .zip(out.par_iter_mut())
            .enumerate()
            .for_each(|(r, (e, o))| {
                match self.space.class(r) {
                    Class::Over => {
                        *o = self.space.over_outputs(r);
                        let u = utility(o);
                        // With a centred cube and the Jacoby rule gammons count single.
                        *e = [u, u, u, 2.0 * o[0] - 1.0, u];
                    }
                    Class::NoContact | Class::Contact => *o = [0.5, 0.0, 0.0, 0.0, 0.0],
                    Class::Illegal => {}
                }
            });
        ExactState { eq, out }
    }

    /// New values of record `r` from the current state.
    #[inline]
    pub fn record(&self, state: &ExactState, r: usize) -> (Equities, Outputs) {
        bellman(
            self.space,
            self.table,
            self.dance,
            r,
            |s| state.eq[s],
            |s| state.out[s],
        )
    }

    /// One pass over `records` grouped at `starts` (see [`HyperSpace::levels`]): each
    /// group computed in parallel from the state at its start, then stored. Returns the
    /// largest change of any value. `progress(done)` is called after each group.
    pub fn pass(
        &self,
        state: &mut ExactState,
        records: &[u32],
        starts: &[usize],
        progress: &dyn Fn(usize),
    ) -> f64 {
        let mut residual = 0.0f64;
        let largest = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let mut scratch: Vec<(Equities, Outputs)> = vec![([0.0; 5], [0.0; 5]); largest];
        for w in starts.windows(2) {
            let group = &records[w[0]..w[1]];
            let slots = &mut scratch[..group.len()];
            let st = &*state;
            let change = group
                .par_iter()
                .zip(slots.par_iter_mut())
                .with_min_len(64)
                .map(|(&r, slot)| {
                    let r = r as usize;
                    let (e, o) = self.record(st, r);
                    let mut d = 0.0f64;
                    for q in 0..5 {
                        d = d.max((e[q] - st.eq[r][q]).abs()).max((o[q] - st.out[r][q]).abs());
                    }
                    *slot = (e, o);
                    d
                })
                .reduce(|| 0.0, f64::max);
            residual = residual.max(change);
            for (&r, (e, o)) in group.iter().zip(slots.iter()) {
                state.eq[r as usize] = *e;
                state.out[r as usize] = *o;
            }
            progress(w[1]);
        }
        residual
    }

    /// One sweep of the equities alone over `records` grouped by columns (see
    /// [`HyperSpace::columns`]) with the column loops: each column computed in parallel
    /// from the state at its start, then stored. Returns the largest change. With
    /// `delta`, each record's change is kept (as `f32`) at its position in `records`, for
    /// [`extrapolate`]. The probabilities are left alone: they follow the cubeless
    /// choices of moves, which are settled only once the equities are (see
    /// [`ExactSolver::choices`]).
    pub fn sweep_equities(
        &self,
        state: &mut ExactState,
        records: &[u32],
        starts: &[usize],
        progress: &dyn Fn(usize),
        delta: Option<&mut [[f32; 5]]>,
    ) -> f64 {
        let loops = self.loops();
        let dance = self.dance;
        column_sweep(
            self.space,
            state,
            Target::Equities,
            records,
            starts,
            progress,
            delta,
            &|col, st, b| col.prepare_candidates(self.space, &st.eq, b),
            &|col, st, _, r| loops.equities(dance, &st.eq, col, r),
        )
    }

    /// The cubeless choice of move per roll of every record in `records` (grouped by
    /// columns), from the current equities.
    pub fn choices(&self, state: &ExactState, records: &[u32], starts: &[usize]) -> Vec<Choices> {
        let n = self.space.n();
        let loops = self.loops();
        let mut out = vec![[0u8; 21]; records.len()];
        let mut col = Column::default();
        for w in starts.windows(2) {
            col.prepare_candidates(self.space, &state.eq, records[w[0]] as usize % n);
            let col = &col;
            out[w[0]..w[1]]
                .par_iter_mut()
                .zip(&records[w[0]..w[1]])
                .with_min_len(64)
                .for_each(|(c, &r)| *c = loops.choices(col, r as usize));
        }
        out
    }

    /// One sweep of the probabilities for fixed `choices` (as from
    /// [`ExactSolver::choices`]), like [`ExactSolver::sweep_equities`].
    pub fn sweep_outputs(
        &self,
        state: &mut ExactState,
        records: &[u32],
        starts: &[usize],
        choices: &[Choices],
        progress: &dyn Fn(usize),
        delta: Option<&mut [[f32; 5]]>,
    ) -> f64 {
        let loops = self.loops();
        column_sweep(
            self.space,
            state,
            Target::Outputs,
            records,
            starts,
            progress,
            delta,
            &|col, st, b| col.prepare_outputs(self.space, &st.out, b),
            &|col, _, pos, r| loops.outputs(col, r, &choices[pos]),
        )
    }

    fn loops(&self) -> Loops<'_> {
        Loops {
            space: self.space,
            table: self.table,
            kernel: Kernel::detect(),
        }
    }
}

/// Which values a column sweep updates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Equities,
    Outputs,
}

/// Sweeps `records` column by column: `prepare` fills the column table from the state,
/// `compute(col, state, position, record)` gives a record's new values (in parallel),
/// then the column is stored in one sequential loop that fetches ahead (a column's
/// records lie `n` apart) and measures the change.
#[allow(clippy::too_many_arguments)]
fn column_sweep(
    space: &HyperSpace,
    state: &mut ExactState,
    target: Target,
    records: &[u32],
    starts: &[usize],
    progress: &dyn Fn(usize),
    mut delta: Option<&mut [[f32; 5]]>,
    prepare: &(dyn Fn(&mut Column, &ExactState, usize) + Sync),
    compute: &(dyn Fn(&Column, &ExactState, usize, usize) -> [f64; 5] + Sync),
) -> f64 {
    let n = space.n();
    let mut residual = 0.0f64;
    let largest = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
    let mut scratch: Vec<[f64; 5]> = vec![[0.0; 5]; largest];
    let mut col = Column::default();
    for w in starts.windows(2) {
        let group = &records[w[0]..w[1]];
        prepare(&mut col, state, group[0] as usize % n);
        let slots = &mut scratch[..group.len()];
        let (st, col) = (&*state, &col);
        slots
            .par_iter_mut()
            .zip(group)
            .enumerate()
            .with_min_len(64)
            .for_each(|(i, (slot, &r))| *slot = compute(col, st, w[0] + i, r as usize));
        let values = match target {
            Target::Equities => &mut state.eq,
            Target::Outputs => &mut state.out,
        };
        const AHEAD: usize = 16;
        for (i, (&r, new)) in group.iter().zip(slots.iter()).enumerate() {
            if let Some(&next) = group.get(i + AHEAD) {
                prefetch(&values[next as usize]);
            }
            let old = &mut values[r as usize];
            let mut d = [0f32; 5];
            for q in 0..5 {
                let change = new[q] - old[q];
                residual = residual.max(change.abs());
                d[q] = change as f32;
            }
            if let Some(delta) = delta.as_deref_mut() {
                delta[w[0] + i] = d;
            }
            *old = *new;
        }
        progress(w[1]);
    }
    residual
}

/// Residuals below which the iteration is taken to be in its linear regime, where the
/// error shrinks by a steady factor per sweep.
pub const TAIL: f64 = 1e-2;

/// Whether to extrapolate after the latest sweep, given the residuals so far (latest
/// last) and the sweeps since the last extrapolation: in the linear regime, with the
/// ratio of the last two residuals steady (within 3 %) and below 0.95, and at least
/// three sweeps after the previous extrapolation. Returns the extrapolation factor
/// `λ / (1 − λ)`, `λ` the latest ratio.
pub fn extrapolation(residuals: &[f64], since: u32) -> Option<f64> {
    let [.., r2, r1, r0] = residuals else {
        return None;
    };
    let (l0, l1) = (r0 / r1, r1 / r2);
    (since >= 3 && *r0 < TAIL && (l0 - l1).abs() < 0.03 * l0 && l0 < 0.95).then(|| l0 / (1.0 - l0))
}

/// Jumps ahead along the last sweep's changes: in the linear regime the remaining error
/// is dominated by one mode that shrinks by the steady factor `λ` per sweep, so adding
/// `λ / (1 − λ)` times the last change removes most of it (Aitken-style
/// extrapolation). The next sweeps correct whatever it gets wrong; the stopping test is
/// always an ordinary sweep.
pub fn extrapolate(values: &mut [[f64; 5]], records: &[u32], delta: &[[f32; 5]], factor: f64) {
    for (&r, d) in records.iter().zip(delta) {
        let v = &mut values[r as usize];
        for q in 0..5 {
            v[q] += factor * f64::from(d[q]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hyper::kernel::{Column, Kernel, Loops};

    /// The column loops (portable and, where available, BMI2) give bit-identical results
    /// to the general equations, on a state that is not a fixed point.
    #[test]
    fn kernels_match_the_general_equations() {
        let space = HyperSpace::new(2).unwrap();
        let table = MoveTable::new(&space);
        let mut kernels = vec![Kernel::Scalar];
        if Kernel::detect() != Kernel::Scalar {
            kernels.push(Kernel::detect());
        }
        for dance in [DanceRule::Correct, DanceRule::Gnubg] {
            let solver = ExactSolver {
                space: &space,
                table: &table,
                dance,
            };
            let mut state = solver.start();
            // Some sweeps of the general equations for varied values (start guesses are
            // full of ties).
            let (records, starts) = space.columns(Class::Contact);
            for _ in 0..3 {
                solver.pass(&mut state, &records, &starts, &|_| {});
            }
            let (mut cands, mut outs) = (Column::default(), Column::default());
            let mut checked = 0;
            for w in starts.windows(2) {
                let b = records[w[0]] as usize % space.n();
                cands.prepare_candidates(&space, &state.eq, b);
                outs.prepare_outputs(&space, &state.out, b);
                for &r in &records[w[0]..w[1]] {
                    let r = r as usize;
                    let (want_e, want_o) = solver.record(&state, r);
                    for &kernel in &kernels {
                        let loops = Loops {
                            space: &space,
                            table: &table,
                            kernel,
                        };
                        let e = loops.equities(dance, &state.eq, &cands, r);
                        let choices = loops.choices(&cands, r);
                        let o = loops.outputs(&outs, r, &choices);
                        assert_eq!(
                            e.map(f64::to_bits),
                            want_e.map(f64::to_bits),
                            "record {r}, {kernel:?}"
                        );
                        assert_eq!(
                            o.map(f64::to_bits),
                            want_o.map(f64::to_bits),
                            "record {r}, {kernel:?}"
                        );
                    }
                    checked += 1;
                }
            }
            assert_eq!(checked, space.class_counts()[3]);
        }
    }
}

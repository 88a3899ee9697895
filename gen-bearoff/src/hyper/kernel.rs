//! The inner loops of the exact solver's contact sweeps, specialised for one column (all
//! records against one opponent).
//!
//! A column's records read successors from at most eight rows: the opponent on roll
//! against the mover's new side, with none, some or all of its blots on the bar. Before
//! a column is computed, what each of those successors is worth to a mover
//! (`candidate`: its equities negated, the cube decisions applied), or its
//! probabilities, are copied into a small table that stays in cache; the loop over a
//! record's moves then only looks values up and takes maxima. Which row a move leads to
//! is the set of blots it lands on, read with `pext` where the processor has BMI2
//! (detected at run time) and with shifts otherwise; both give identical results
//! (tested in [`super::exact`], against [`super::equations::bellman`]).
//!
//! Three loops: the equities (all five maxima), the cubeless choice of move per roll
//! (gnubg's tie rule), and the probabilities for given choices.

use super::equations::{candidate, fmax, DanceRule, Equities, WEIGHTS};
use super::moves::{MoveTable, Path};
use super::space::{invert, HyperSpace, Outputs};

/// [`prefetch`]'s path from before it became a module of its own.
pub use crate::prefetch::prefetch;

/// Marks a roll without a legal move in a [`Choices`] entry.
pub const DANCE: u8 = u8::MAX;

/// The cubeless choice of move for each roll: an index into the roll's move list, or
/// [`DANCE`].
pub type Choices = [u8; 21];

/// The candidate values or probabilities of the rows one column reads.
#[derive(Clone, Debug, Default)]
pub struct Column {
    /// Opponent of the column.
    b: usize,
    /// `rows × n` values: row `k` is the opponent with blot subset `k` hit.
    values: Vec<[f64; 5]>,
}

impl Column {
    /// Fills the table for opponent `b` with the candidate values of `eq`'s rows.
    pub fn prepare_candidates(&mut self, space: &HyperSpace, eq: &[Equities], b: usize) {
        self.prepare(space, eq, b, candidate);
    }

    /// Fills the table for opponent `b` with `out`'s rows.
    pub fn prepare_outputs(&mut self, space: &HyperSpace, out: &[Outputs], b: usize) {
        self.prepare(space, out, b, |o| *o);
    }

    fn prepare(&mut self, space: &HyperSpace, src: &[[f64; 5]], b: usize, f: impl Fn(&[f64; 5]) -> [f64; 5]) {
        let n = space.n();
        let view = space.view(b);
        let count = 1usize << view.blot_bits.iter().filter(|&&p| p < 24).count();
        self.b = b;
        self.values.resize(count * n, [0.0; 5]);
        for k in 0..count {
            let row = view.hit[k] as usize * n;
            for (c, e) in self.values[k * n..(k + 1) * n].iter_mut().zip(&src[row..row + n]) {
                *c = f(e);
            }
        }
    }
}

/// Which implementation of the loops to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Portable shifts.
    Scalar,
    /// BMI2 `pext` (x86-64 only); the portable loops where the processor lacks it.
    Bmi2,
}

/// The fixed inputs of the loops.
#[derive(Clone, Copy, Debug)]
pub struct Loops<'a> {
    /// The position space.
    pub space: &'a HyperSpace,
    /// The move table.
    pub table: &'a MoveTable,
    /// Which implementation.
    pub kernel: Kernel,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("bmi2") {
                return Kernel::Bmi2;
            }
        }
        Kernel::Scalar
    }
}

macro_rules! dispatch {
    ($self:ident, $bmi2:ident, $generic:ident, $($arg:expr),*) => {
        match $self.kernel {
            // The check is std's cached atomic load: `Kernel::Bmi2` is a public value
            // that any caller may name, not proof that the processor has BMI2.
            #[cfg(target_arch = "x86_64")]
            Kernel::Bmi2 if std::arch::is_x86_feature_detected!("bmi2") => {
                // SAFETY: BMI2 was detected just above.
                unsafe { $bmi2($self.space, $self.table, $($arg),*) }
            }
            _ => $generic::<false>($self.space, $self.table, $($arg),*),
        }
    };
}

impl Loops<'_> {
    /// The five equities of record `r` (opponent of `col`, filled with candidates);
    /// `eq` supplies the reverse record for gnubg's dance rule.
    #[inline]
    pub fn equities(&self, dance: DanceRule, eq: &[Equities], col: &Column, r: usize) -> Equities {
        dispatch!(self, equities_bmi2, equities_impl, dance, eq, col, r)
    }

    /// The cubeless choices of record `r` (`col` filled with candidates).
    #[inline]
    pub fn choices(&self, col: &Column, r: usize) -> Choices {
        dispatch!(self, choices_bmi2, choices_impl, col, r)
    }

    /// The probabilities of record `r` for `choices` (`col` filled with probabilities).
    #[inline]
    pub fn outputs(&self, col: &Column, r: usize, choices: &Choices) -> Outputs {
        dispatch!(self, outputs_bmi2, outputs_impl, col, r, choices)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn equities_bmi2(
    space: &HyperSpace,
    table: &MoveTable,
    dance: DanceRule,
    eq: &[Equities],
    col: &Column,
    r: usize,
) -> Equities {
    equities_impl::<true>(space, table, dance, eq, col, r)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn choices_bmi2(space: &HyperSpace, table: &MoveTable, col: &Column, r: usize) -> Choices {
    choices_impl::<true>(space, table, col, r)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn outputs_bmi2(
    space: &HyperSpace,
    table: &MoveTable,
    col: &Column,
    r: usize,
    choices: &Choices,
) -> Outputs {
    outputs_impl::<true>(space, table, col, r, choices)
}

/// The blot subset a landing set hits: bit `t` set if the `t`-th lowest blot is landed on.
#[inline(always)]
fn subset<const BMI2: bool>(lands: u32, blots: u32, bits: &[u32; 3]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if BMI2 {
            // SAFETY: only instantiated with BMI2 = true inside the `*_bmi2` functions,
            // which are compiled with and called only on processors that have BMI2.
            return unsafe { std::arch::x86_64::_pext_u32(lands, blots) } as usize;
        }
    }
    let h = lands & blots;
    (((h >> bits[0]) & 1) | ((h >> bits[1]) & 1) << 1 | ((h >> bits[2]) & 1) << 2) as usize
}

/// Record `r`'s sides, the blocked point and the column index of a path's successor.
#[inline(always)]
fn setup<'a, const BMI2: bool>(
    space: &'a HyperSpace,
    col: &Column,
    r: usize,
) -> (usize, usize, usize, impl Fn(&Path) -> usize + 'a) {
    let n = space.n();
    let (a, b) = (r / n, r % n);
    debug_assert_eq!(b, col.b);
    let view = space.view(b);
    let blots = view.blots;
    let bits = view.blot_bits.map(u32::from);
    let local = move |p: &Path| subset::<BMI2>(p.lands, blots, &bits) * n + p.to as usize;
    (a, b, usize::from(view.block), local)
}

#[inline(always)]
fn equities_impl<const BMI2: bool>(
    space: &HyperSpace,
    table: &MoveTable,
    dance: DanceRule,
    eq: &[Equities],
    col: &Column,
    r: usize,
) -> Equities {
    let (a, b, block, local) = setup::<BMI2>(space, col, r);
    let cand = &col.values[..];
    let mut acc = [0.0; 5];
    for (k, &w) in WEIGHTS.iter().enumerate() {
        let paths = table.paths(a, k, block);
        let best = if paths.is_empty() {
            // The turn passes: the same sides with the opponent on roll (row 0).
            match dance {
                DanceRule::Correct => cand[a],
                DanceRule::Gnubg => eq[b * space.n() + a].map(|x| -x),
            }
        } else {
            let mut best = [f64::NEG_INFINITY; 5];
            for path in paths {
                let c = &cand[local(path)];
                for q in 0..5 {
                    best[q] = fmax(best[q], c[q]);
                }
            }
            best
        };
        for q in 0..5 {
            acc[q] += w * best[q];
        }
    }
    acc.map(|x| x / 36.0)
}

#[inline(always)]
fn choices_impl<const BMI2: bool>(space: &HyperSpace, table: &MoveTable, col: &Column, r: usize) -> Choices {
    let (a, _, block, local) = setup::<BMI2>(space, col, r);
    let cand = &col.values[..];
    let mut choices = [DANCE; 21];
    for (k, choice) in choices.iter_mut().enumerate() {
        let paths = table.paths(a, k, block);
        let mut best = f64::NEG_INFINITY;
        let mut best_local = usize::MAX;
        for (p, path) in paths.iter().enumerate() {
            let s = local(path);
            let c = cand[s][0];
            // Exact ties keep the later move, as gnubg does, unless it only repeats a
            // position already listed (gnubg lists each position once).
            let take = c > best
                || (c == best
                    && s != best_local
                    && (path.lands & Path::REPEATS == 0 || paths[..p].iter().all(|q| local(q) != s)));
            if take {
                best = c;
                best_local = s;
                *choice = p as u8;
            }
        }
    }
    choices
}

#[inline(always)]
fn outputs_impl<const BMI2: bool>(
    space: &HyperSpace,
    table: &MoveTable,
    col: &Column,
    r: usize,
    choices: &Choices,
) -> Outputs {
    let (a, _, block, local) = setup::<BMI2>(space, col, r);
    let mut acc = [0.0; 5];
    for (k, &w) in WEIGHTS.iter().enumerate() {
        let s = match choices[k] {
            DANCE => a,
            p => local(&table.paths(a, k, block)[usize::from(p)]),
        };
        let o = invert(&col.values[s]);
        for q in 0..5 {
            acc[q] += w * o[q];
        }
    }
    acc.map(|x| x / 36.0)
}

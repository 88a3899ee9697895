//! The 0-ply evaluator: classify a position, evaluate it with the matching net or
//! bearoff database, and apply gnubg's corrections.
//!
//! The nets come through the [`NetSource`] seam: gnubg's ([`GnubgNets`], the default)
//! or a trainer's model; everything else (classes, game over, bearoff lookups, race
//! backgammons, sanity checks, move choice) is this module's, whatever the nets.

use std::cell::RefCell;
use std::sync::Arc;

use board::{Dice, Move, MoveGen, Position, Variant};
use gen_bearoff::BearoffError;

use crate::aligned::AlignedFloats;
use crate::bearoff::BearoffDbs;
use crate::choice::{best_index, best_of_values};
use crate::class::{classify_shape, PositionClass};
use crate::inputs;
use crate::net;
use crate::nets::{GnubgNets, NetSource};
use crate::race_bg::race_backgammon;
use crate::sanity::{max_turns_of, sanity_check};
use crate::simd::FUSED_GROUP;
use crate::weights::Weights;

pub use crate::choice::{move_shape, sorts_before};
pub use crate::probabilities::{invert, money_equity, mover_equity, of_finish, Probabilities};

/// The deepest best-move search gnubg's filters cover (`search::FILTERS_NORMAL` has a
/// row for each of 1 to 4 plies); evaluations searched `plies` deep have no limit.
pub const MAX_FILTER_PLIES: u32 = 4;

/// Why an evaluation failed: a bearoff database could not be read, or a search was
/// asked for more plies than its move filters cover.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// Reading a bearoff database failed.
    #[error(transparent)]
    Bearoff(#[from] BearoffError),
    /// A move search deeper than [`MAX_FILTER_PLIES`] (gnubg's move filters have rows
    /// for 1 to 4 plies).
    #[error("a best move {plies} plies deep: gnubg's move filters go at most {MAX_FILTER_PLIES} plies deep")]
    TooDeep {
        /// The plies asked for.
        plies: u32,
    },
}

/// gnubg's 0-ply evaluator: the nets of a [`NetSource`] (gnubg's weights file by
/// default) and the bearoff databases.
pub struct Evaluator<N: NetSource = GnubgNets> {
    nets: N,
    bearoff: Arc<BearoffDbs>,
    /// log2 of the per-thread cache size, or 0 for no cache.
    cache_bits: u32,
    owner: u64,
    /// Each net's output weights laid out for the AVX-512 output kernel (empty: not
    /// laid out, the kernels read the net's own weights; same results).
    interleaved: Vec<AlignedFloats>,
    /// [`Evaluator::with_incremental`].
    pub(crate) incremental: bool,
    /// [`Evaluator::with_fused`].
    pub(crate) fused: bool,
}

/// Per-thread buffers for inputs and hidden units (cache-line aligned, as the kernels
/// read and write them 64 bytes at a time).
struct Scratch {
    inputs: [AlignedFloats; FUSED_GROUP],
    hidden: [AlignedFloats; FUSED_GROUP],
    base: Base,
}

/// The base of incremental evaluation ([`Evaluator::with_incremental`]): a position's
/// net, inputs and hidden sums, and room for another's input differences from it.
#[derive(Default)]
struct Base {
    net: Option<usize>,
    inputs: AlignedFloats,
    sums: AlignedFloats,
    delta: [AlignedFloats; 2],
}

impl Base {
    /// The base's hidden sums and the differences of `inputs` (the second may be empty)
    /// from the base, which becomes the first of them if it is not of net `k` yet.
    fn deltas(&mut self, k: usize, net: &crate::weights::Net, inputs: [&[f32]; 2]) -> [&[f32]; 3] {
        let (n, h) = (net.inputs, net.hidden);
        if self.net != Some(k) {
            self.inputs.first(n).copy_from_slice(inputs[0]);
            let start = &net.hidden_thresholds;
            crate::simd::hidden_layer_from(net, start, inputs[0], self.sums.first(h), false);
            self.net = Some(k);
        }
        let [da, db] = &mut self.delta;
        for (d, x) in [(&mut *da, inputs[0]), (&mut *db, inputs[1])] {
            let d = d.first(x.len());
            for ((d, &x), &b) in d.iter_mut().zip(x).zip(&self.inputs[..n]) {
                *d = x - b;
            }
        }
        [&self.sums[..h], &da[..n], &db[..inputs[1].len()]]
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        inputs: std::array::from_fn(|_| AlignedFloats::zeros(250)),
        hidden: std::array::from_fn(|_| AlignedFloats::zeros(128)),
        base: Base::default(),
    });
}

impl Evaluator {
    /// An evaluator with gnubg's nets from these weights and these databases. The
    /// PIPLOSS input follows the weights' version (see [`Weights::fixed_pip_loss`]).
    pub fn new(weights: Weights, bearoff: BearoffDbs) -> Evaluator {
        Evaluator::with_nets(GnubgNets::new(weights), Arc::new(bearoff)).with_laid_out_outputs()
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        self.nets.weights()
    }
}

impl<N: NetSource> Evaluator<N> {
    /// An evaluator with these nets and databases (shared: building one is cheap, so a
    /// trainer can wrap a model it is changing for each decision). The databases decide
    /// the bearoff classes: empty ones ([`BearoffDbs::default`]) leave every race to
    /// the race net.
    pub fn with_nets(nets: N, bearoff: Arc<BearoffDbs>) -> Evaluator<N> {
        Evaluator {
            nets,
            bearoff,
            cache_bits: 0,
            owner: crate::cache::new_owner_id(),
            interleaved: Vec::new(),
            incremental: false,
            fused: false,
        }
    }

    /// Lays out the nets' output weights for the AVX-512 output kernel (faster there;
    /// the same results). [`Evaluator::new`] does it; nets that change after this must
    /// not be evaluated through this evaluator.
    pub fn with_laid_out_outputs(mut self) -> Evaluator<N> {
        self.interleaved = (0..self.nets.net_count())
            .map(|k| crate::simd::interleave_outputs(self.nets.net(k)).into())
            .collect();
        self
    }

    /// The nets in use.
    pub fn nets(&self) -> &N {
        &self.nets
    }

    /// Net `k`'s output weights as laid out for the AVX-512 kernel, if they are.
    #[inline]
    fn laid_out(&self, k: usize) -> Option<&[f32]> {
        self.interleaved.get(k).map(|v| &v[..])
    }

    /// Turns on incremental evaluation of position lists ([`Evaluator::evaluate_all`]
    /// and what is built on it: [`Evaluator::with_values_after`], the 0-ply
    /// [`Evaluator::best_move`], unpruned lookahead; not [`Evaluator::evaluate`] or the
    /// pruned search, which evaluate one position at a time): the first net position of
    /// a list is evaluated in full and its hidden sums kept (the base restarts when the
    /// net changes); each following one adds only the weight rows of the inputs in which
    /// it differs (about 25 of 51 for a move list), as gnubg does when it scores moves
    /// "from base". The sums are added in another order, and a change in their last bits
    /// can move a hidden unit's approximate reciprocal to its next step, so values differ
    /// from gnubg's 0-ply ones by up to about 1e-4 on the fixture move lists (7.2e-5
    /// observed; tests allow 5e-4) and up to a few 1e-3 in equity over self-play
    /// decisions (2.2e-3 observed over 1,712, trainer/tests/td_fast.rs).
    /// The cache is neither read nor written on this path (it holds exact values), so
    /// the results depend on the list alone, whatever the threads. Off by default.
    pub fn with_incremental(mut self, on: bool) -> Evaluator<N> {
        self.incremental = on;
        self
    }

    /// Turns on the fused evaluation of position lists ([`Evaluator::evaluate_all`] and
    /// what is built on it: [`Evaluator::with_values_after`], the 0-ply
    /// [`Evaluator::best_move`], unpruned lookahead, the finalists of the pruned search; not
    /// [`Evaluator::evaluate`]; it takes precedence over [`Evaluator::with_incremental`]):
    /// up to [`FUSED_GROUP`] net positions of one class at a time (in list order, table
    /// positions between them left out) through [`crate::simd::hidden_layer_fused`] and
    /// [`crate::simd::output_layer_fused`], whose fused multiply-adds round once per
    /// input where gnubg rounds twice. Each position is evaluated in full, so its values
    /// depend on the position alone (not on the list or the threads), and they are the
    /// same on every kernel; they are not gnubg's bits (outputs within 5e-5 of them
    /// over gnubg's move-list corpus, evaluator/tests/gnubg_eval.rs), so the cache is
    /// neither read nor written. Off by default: training's fast mode.
    pub fn with_fused(mut self, on: bool) -> Evaluator<N> {
        self.fused = on;
        self
    }

    /// Whether fused evaluation is on ([`Evaluator::with_fused`]).
    pub fn is_fused(&self) -> bool {
        self.fused
    }

    /// Turns on a per-thread cache of 2^`bits` 0-ply results (0 turns it off). It only
    /// saves time: cached results are the same numbers.
    pub fn with_cache(mut self, bits: u32) -> Evaluator<N> {
        self.cache_bits = bits.min(28);
        self
    }

    /// Evaluates every position (in parallel for large batches); results in input
    /// order.
    pub fn evaluate_batch(
        &self,
        positions: &[Position],
    ) -> Result<Vec<(Probabilities, PositionClass)>, EvalError> {
        use rayon::prelude::*;
        if positions.len() < 256 {
            positions.iter().map(|p| self.evaluate(p)).collect()
        } else {
            positions.par_iter().map(|p| self.evaluate(p)).collect()
        }
    }

    /// The bearoff databases in use.
    pub fn bearoff(&self) -> &BearoffDbs {
        &self.bearoff
    }

    /// The bearoff databases in use, shared (another evaluator or a player built from
    /// them maps nothing again).
    pub fn bearoff_shared(&self) -> Arc<BearoffDbs> {
        Arc::clone(&self.bearoff)
    }

    /// gnubg's class of a position, given the databases this evaluator has.
    pub fn classify(&self, pos: &Position) -> PositionClass {
        match classify_shape(pos) {
            PositionClass::Race if self.bearoff.two_sided_covers(pos) => PositionClass::Bearoff2,
            PositionClass::Race if self.bearoff.one_sided_covers(pos) => PositionClass::Bearoff1,
            c => c,
        }
    }

    /// 0-ply cubeless evaluation of `pos` (side on roll's view) and its class.
    pub fn evaluate(&self, pos: &Position) -> Result<(Probabilities, PositionClass), EvalError> {
        if self.cache_bits > 0 {
            if let Some(hit) = crate::cache::get(self.owner, self.cache_bits, pos) {
                return Ok(hit);
            }
            let fresh = self.evaluate_uncached(pos)?;
            self.remember(pos, fresh);
            return Ok(fresh);
        }
        self.evaluate_uncached(pos)
    }

    fn evaluate_uncached(&self, pos: &Position) -> Result<(Probabilities, PositionClass), EvalError> {
        let class = self.classify(pos);
        let mut out = [0f32; 5];
        if class.uses_net() {
            self.run_net(pos, class, &mut out);
            self.finish_net(pos, class, &mut out)?;
        } else {
            out = self.evaluate_table(pos, class)?;
        }
        Ok((out, class))
    }

    /// Evaluates every position as [`Evaluator::evaluate`] does (same numbers, same
    /// cache; with [`Evaluator::with_incremental`] from the list's base instead, without
    /// the cache), into `results` in input order; positions needing the same net are run
    /// through it two at a time, which shares the weight loads between them.
    pub fn evaluate_all(
        &self,
        positions: &[Position],
        results: &mut Vec<(Probabilities, PositionClass)>,
    ) -> Result<(), EvalError> {
        results.clear();
        if self.fused {
            return self.evaluate_all_fused(positions, results);
        }
        if self.incremental {
            // Each list starts its own base.
            SCRATCH.with(|s| s.borrow_mut().base.net = None);
        }
        // A net position waiting for a partner: its index and class.
        let mut waiting: Option<(usize, PositionClass)> = None;
        for (i, pos) in positions.iter().enumerate() {
            if self.uses_cache() {
                if let Some(hit) = crate::cache::get(self.owner, self.cache_bits, pos) {
                    results.push(hit);
                    continue;
                }
            }
            let class = self.classify(pos);
            if !class.uses_net() {
                results.push((self.evaluate_table(pos, class)?, class));
                self.remember_listed(pos, results[i]);
                continue;
            }
            results.push(([0.0; 5], class));
            match waiting.take() {
                Some((j, c)) if c == class => {
                    let (mut a, mut b) = ([0f32; 5], [0f32; 5]);
                    let pair = [&positions[j], pos];
                    if self.incremental {
                        self.run_pair_from_base(pair, class, [&mut a, &mut b]);
                    } else {
                        self.run_net_pair(pair, class, [&mut a, &mut b]);
                    }
                    for (k, mut out) in [(j, a), (i, b)] {
                        self.finish_net(&positions[k], class, &mut out)?;
                        results[k].0 = out;
                        self.remember_listed(&positions[k], results[k]);
                    }
                }
                other => {
                    if let Some(j) = other.map(|(j, _)| j) {
                        self.finish_single(&positions[j], &mut results[j])?;
                    }
                    waiting = Some((i, class));
                }
            }
        }
        if let Some((j, _)) = waiting {
            self.finish_single(&positions[j], &mut results[j])?;
        }
        Ok(())
    }

    /// [`Evaluator::evaluate_all`] in fused mode ([`Evaluator::with_fused`]): net
    /// positions run in groups of up to [`FUSED_GROUP`] of one class, in list order.
    fn evaluate_all_fused(
        &self,
        positions: &[Position],
        results: &mut Vec<(Probabilities, PositionClass)>,
    ) -> Result<(), EvalError> {
        let mut group = [0usize; FUSED_GROUP];
        let mut len = 0;
        for (i, pos) in positions.iter().enumerate() {
            let class = self.classify(pos);
            if !class.uses_net() {
                results.push((self.evaluate_table(pos, class)?, class));
                continue;
            }
            if len > 0 && results[group[0]].1 != class {
                self.run_group(positions, &group[..len], results)?;
                len = 0;
            }
            results.push(([0.0; 5], class));
            group[len] = i;
            len += 1;
            if len == FUSED_GROUP {
                self.run_group(positions, &group, results)?;
                len = 0;
            }
        }
        if len > 0 {
            self.run_group(positions, &group[..len], results)?;
        }
        Ok(())
    }

    /// Runs the net positions `group` (indices into `positions`, one class) through the
    /// fused kernel and finishes their results.
    fn run_group(
        &self,
        positions: &[Position],
        group: &[usize],
        results: &mut [(Probabilities, PositionClass)],
    ) -> Result<(), EvalError> {
        let class = results[group[0]].1;
        let mut out = [[0f32; 5]; FUSED_GROUP];
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let mut k = 0;
            for (&i, x) in group.iter().zip(&mut s.inputs) {
                k = self.net_inputs(&positions[i], class, x);
            }
            let net = self.nets.net(k);
            let (n, h) = (net.inputs, net.hidden);
            let inputs: [&[f32]; FUSED_GROUP] = std::array::from_fn(|p| &s.inputs[p][..n]);
            let [h0, h1, h2, h3] = &mut s.hidden;
            let mut act = [h0.first(h), h1.first(h), h2.first(h), h3.first(h)];
            let p = group.len();
            crate::simd::hidden_layer_fused(net, &inputs[..p], &mut act[..p]);
            let act = act.map(|a| &*a);
            crate::simd::output_layer_fused(net, &act[..p], &mut out[..p]);
        });
        for (&i, mut o) in group.iter().zip(out) {
            self.finish_net(&positions[i], class, &mut o)?;
            results[i].0 = o;
        }
        Ok(())
    }

    /// Evaluates the position after each move result (opponent on roll, as
    /// [`Evaluator::evaluate_all`] does) and hands the values, in order and from the
    /// opponent's view, to `f`. Buffers are reused per thread.
    pub fn with_values_after<R>(
        &self,
        results: impl IntoIterator<Item = Position>,
        f: impl FnOnce(&[(Probabilities, PositionClass)]) -> R,
    ) -> Result<R, EvalError> {
        type Buffers = (Vec<Position>, Vec<(Probabilities, PositionClass)>);
        thread_local! {
            static BUFFERS: RefCell<Buffers> = const { RefCell::new((Vec::new(), Vec::new())) };
        }
        let run = |(after, values): &mut Buffers| {
            after.clear();
            Position::extend_swapped(after, results);
            self.evaluate_all(after, values)?;
            Ok(f(values))
        };
        BUFFERS.with(|b| match b.try_borrow_mut() {
            Ok(mut buffers) => run(&mut buffers),
            // Called from inside `f`: use fresh buffers.
            Err(_) => run(&mut Default::default()),
        })
    }

    /// [`Evaluator::run_net_pair`] from the list's base ([`Evaluator::with_incremental`]),
    /// which the first of them becomes if the base is not of their net yet.
    fn run_pair_from_base(&self, pos: [&Position; 2], class: PositionClass, out: [&mut [f32; 5]; 2]) {
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let [ia, ib, ..] = &mut s.inputs;
            let k = self.net_inputs(pos[0], class, ia);
            self.net_inputs(pos[1], class, ib);
            let net = self.nets.net(k);
            let (n, h) = (net.inputs, net.hidden);
            let [sums, da, db] = s.base.deltas(k, net, [&ia[..n], &ib[..n]]);
            let [ha, hb, ..] = &mut s.hidden;
            let (ha, hb) = (ha.first(h), hb.first(h));
            crate::simd::hidden_layer_pair_from(net, sums, [da, db], [&mut *ha, &mut *hb]);
            crate::simd::output_layer_pair(net, self.laid_out(k), [ha, hb], out);
        });
    }

    /// [`Evaluator::run_net`] from the list's base, which the position becomes if the
    /// base is not of its net yet.
    fn run_from_base(&self, pos: &Position, class: PositionClass, out: &mut [f32; 5]) {
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let k = self.net_inputs(pos, class, &mut s.inputs[0]);
            let net = self.nets.net(k);
            let (n, h) = (net.inputs, net.hidden);
            let [sums, delta, _] = s.base.deltas(k, net, [&s.inputs[0][..n], &[]]);
            let act = s.hidden[0].first(h);
            crate::simd::hidden_layer_from(net, sums, delta, act, true);
            crate::simd::output_layer(net, self.laid_out(k), act, out);
        });
    }

    /// Runs one waiting net position on its own.
    fn finish_single(
        &self,
        pos: &Position,
        slot: &mut (Probabilities, PositionClass),
    ) -> Result<(), EvalError> {
        let class = slot.1;
        if self.incremental {
            self.run_from_base(pos, class, &mut slot.0);
        } else {
            self.run_net(pos, class, &mut slot.0);
        }
        self.finish_net(pos, class, &mut slot.0)?;
        self.remember_listed(pos, *slot);
        Ok(())
    }

    /// Whether `evaluate_all` reads and writes the cache: not in incremental mode (the
    /// cache holds exact values, and a hit would also change which position becomes the
    /// base, making results depend on what the thread evaluated before).
    fn uses_cache(&self) -> bool {
        self.cache_bits > 0 && !self.incremental
    }

    /// Stores a fresh result of `evaluate_all` in the cache, if it uses one.
    fn remember_listed(&self, pos: &Position, result: (Probabilities, PositionClass)) {
        if self.uses_cache() {
            self.remember(pos, result);
        }
    }

    /// Stores a fresh result in the cache, if there is one.
    fn remember(&self, pos: &Position, result: (Probabilities, PositionClass)) {
        if self.cache_bits > 0 {
            crate::cache::put(self.owner, self.cache_bits, pos, result.0, result.1);
        }
    }

    /// Over and bearoff positions: exact values, no net.
    fn evaluate_table(&self, pos: &Position, class: PositionClass) -> Result<Probabilities, EvalError> {
        Ok(match class {
            PositionClass::Over => pos.finish(Variant::Backgammon).map_or([0.0; 5], of_finish),
            PositionClass::Bearoff2 => self.bearoff.eval_two_sided(pos)?,
            PositionClass::Bearoff1 => self.bearoff.eval_one_sided(pos)?,
            _ => unreachable!("hypergammon classes are not produced for standard positions"),
        })
    }

    /// gnubg's corrections after a net: race backgammons (where the one-sided
    /// database is there to compute them from), then the sanity checks.
    fn finish_net(&self, pos: &Position, class: PositionClass, out: &mut [f32; 5]) -> Result<(), EvalError> {
        if class == PositionClass::Race && self.bearoff.one_sided.is_some() {
            race_backgammon(pos, out, &self.bearoff)?;
        }
        self.sanity(pos, out);
        Ok(())
    }

    /// gnubg's pruning-net evaluation (used to preselect moves inside lookahead): the
    /// class's small net on the 200 base inputs, race backgammons, sanity checks.
    /// `class` must be race, crashed or contact; `None` if the nets have no pruning
    /// net for it.
    pub fn evaluate_pruning(
        &self,
        pos: &Position,
        class: PositionClass,
    ) -> Result<Option<Probabilities>, EvalError> {
        let Some(index) = self.nets.pruning_net(class) else {
            return Ok(None);
        };
        let mut out = [0f32; 5];
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            inputs::base_inputs(pos, &mut s.inputs[0][..inputs::BASE_INPUTS]);
            let net = self.nets.net(index);
            net::evaluate_with(
                net,
                None,
                &s.inputs[0][..inputs::BASE_INPUTS],
                s.hidden[0].first(net.hidden),
                &mut out,
            );
        });
        self.finish_net(pos, class, &mut out)?;
        Ok(Some(out))
    }

    /// [`Evaluator::evaluate_pruning`] of two positions of one class at once: the same
    /// values, each weight row of the pruning net loaded once for both.
    pub fn evaluate_pruning_pair(
        &self,
        pos: [&Position; 2],
        class: PositionClass,
    ) -> Result<Option<[Probabilities; 2]>, EvalError> {
        let Some(index) = self.nets.pruning_net(class) else {
            return Ok(None);
        };
        let (mut a, mut b) = ([0f32; 5], [0f32; 5]);
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let n = inputs::BASE_INPUTS;
            let [ia, ib, ..] = &mut s.inputs;
            inputs::base_inputs(pos[0], &mut ia[..n]);
            inputs::base_inputs(pos[1], &mut ib[..n]);
            let net = self.nets.net(index);
            let [ha, hb, ..] = &mut s.hidden;
            let (ha, hb) = (ha.first(net.hidden), hb.first(net.hidden));
            net::evaluate_pair(net, None, [&ia[..n], &ib[..n]], [ha, hb], [&mut a, &mut b]);
        });
        self.finish_net(pos[0], class, &mut a)?;
        self.finish_net(pos[1], class, &mut b)?;
        Ok(Some([a, b]))
    }

    fn sanity(&self, pos: &Position, out: &mut [f32; 5]) {
        let dbs = &self.bearoff;
        sanity_check(pos, out, |side| {
            dbs.distribution(side).ok().flatten().map(|d| max_turns_of(&d))
        });
    }

    /// The index of a class's net, with the position's inputs written to `inputs`.
    #[inline]
    fn net_inputs(&self, pos: &Position, class: PositionClass, inputs: &mut [f32]) -> usize {
        self.nets.write_inputs(class, pos, inputs)
    }

    fn run_net(&self, pos: &Position, class: PositionClass, out: &mut [f32; 5]) {
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let k = self.net_inputs(pos, class, &mut s.inputs[0]);
            let net = self.nets.net(k);
            net::evaluate_with(
                net,
                self.laid_out(k),
                &s.inputs[0][..net.inputs],
                s.hidden[0].first(net.hidden),
                out,
            );
        });
    }

    /// [`Evaluator::run_net`] for two positions of the same class.
    fn run_net_pair(&self, pos: [&Position; 2], class: PositionClass, out: [&mut [f32; 5]; 2]) {
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let [ia, ib, ..] = &mut s.inputs;
            let k = self.net_inputs(pos[0], class, ia);
            self.net_inputs(pos[1], class, ib);
            let net = self.nets.net(k);
            let [ha, hb, ..] = &mut s.hidden;
            let (ha, hb) = (ha.first(net.hidden), hb.first(net.hidden));
            let inputs = [&ia[..net.inputs], &ib[..net.inputs]];
            net::evaluate_pair(net, self.laid_out(k), inputs, [ha, hb], out);
        });
    }

    /// The best move at 0 ply ([`Evaluator::best_of`] over the legal moves): the move
    /// and its equity for the mover, or `None` when no move is legal.
    pub fn best_move(
        &self,
        gen: &mut MoveGen,
        pos: &Position,
        dice: Dice,
    ) -> Result<Option<(Move, f32)>, EvalError> {
        let moves = gen.moves(pos, dice);
        self.with_values_after(moves.iter().map(|m| m.result), |values| {
            let best = best_index(
                moves.iter().map(|m| &m.result),
                values.iter().map(|(p, _)| mover_equity(p)),
            );
            best.map(|k| (moves[k], mover_equity(&values[k].0)))
        })
    }

    /// The 0-ply choice among `results` (the positions the legal moves lead to, mover
    /// still in `sides()[1]`), as gnubg 1.07 ranks its move list
    /// ([`crate::choice::best_index`]): each is evaluated with the opponent on roll
    /// ([`Evaluator::evaluate_all`]) and scored by the mover's cubeless money equity.
    /// Returns the chosen index and its probabilities from the mover's view; `None`
    /// for an empty list. Every 0-ply move decision in bgkit is this function or
    /// [`crate::choice::best_index`] on values computed the same way.
    pub fn best_of(&self, results: &[Position]) -> Result<Option<(usize, Probabilities)>, EvalError> {
        self.with_values_after(results.iter().copied(), |values| best_of_values(results, values))
    }
}

//! The 0-ply evaluator: classify a position, evaluate it with the matching net or
//! bearoff database, and apply gnubg's corrections.

use std::cell::RefCell;

use board::{Dice, Move, MoveGen, Position};
use gen_bearoff::BearoffError;

use crate::aligned::AlignedFloats;
use crate::bearoff::BearoffDbs;
use crate::class::{classify_shape, PositionClass};
use crate::inputs;
use crate::net;
use crate::race_bg::race_backgammon;
use crate::sanity::{max_turns_of, sanity_check};
use crate::weights::Weights;

pub use crate::probabilities::{invert, money_equity, Probabilities};

/// Index of the contact, race and crashed nets in a weights file.
const CONTACT: usize = 0;
const RACE: usize = 1;
const CRASHED: usize = 2;
const PRUNE_CONTACT: usize = 3;
const PRUNE_CRASHED: usize = 4;
const PRUNE_RACE: usize = 5;

/// Why an evaluation failed (a bearoff database could not be read).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// Reading a bearoff database failed.
    #[error(transparent)]
    Bearoff(#[from] BearoffError),
}

/// gnubg's 0-ply evaluator: nets from a weights file and the bearoff databases.
pub struct Evaluator {
    weights: Weights,
    fixed_pip_loss: bool,
    bearoff: BearoffDbs,
    /// log2 of the per-thread cache size, or 0 for no cache.
    cache_bits: u32,
    owner: u64,
    /// Each net's output weights laid out for the AVX-512 output kernel.
    interleaved: Vec<AlignedFloats>,
    /// [`Evaluator::with_incremental`].
    incremental: bool,
}

/// Per-thread buffers for inputs and hidden units (cache-line aligned, as the kernels
/// read and write them 64 bytes at a time).
struct Scratch {
    inputs: [AlignedFloats; 2],
    hidden: [AlignedFloats; 2],
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
        inputs: [AlignedFloats::zeros(250), AlignedFloats::zeros(250)],
        hidden: [AlignedFloats::zeros(128), AlignedFloats::zeros(128)],
        base: Base::default(),
    });
}

impl Evaluator {
    /// An evaluator with these weights and databases. The PIPLOSS input follows the
    /// weights' version (see [`Weights::fixed_pip_loss`]).
    pub fn new(weights: Weights, bearoff: BearoffDbs) -> Evaluator {
        let fixed_pip_loss = weights.fixed_pip_loss();
        let interleaved = weights
            .nets
            .iter()
            .map(|n| crate::simd::interleave_outputs(n).into())
            .collect();
        Evaluator {
            weights,
            fixed_pip_loss,
            bearoff,
            cache_bits: 0,
            owner: crate::cache::new_owner_id(),
            interleaved,
            incremental: false,
        }
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
    /// from gnubg's 0-ply ones by up to about 1e-4 (7.2e-5 observed; tests allow 5e-4).
    /// The cache is neither read nor written on this path (it holds exact values), so
    /// the results depend on the list alone, whatever the threads. Off by default.
    pub fn with_incremental(mut self, on: bool) -> Evaluator {
        self.incremental = on;
        self
    }

    /// Turns on a per-thread cache of 2^`bits` 0-ply results (0 turns it off). It only
    /// saves time: cached results are the same numbers.
    pub fn with_cache(mut self, bits: u32) -> Evaluator {
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

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The bearoff databases in use.
    pub fn bearoff(&self) -> &BearoffDbs {
        &self.bearoff
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
        if is_net(class) {
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
            if !is_net(class) {
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
            after.extend(results.into_iter().map(|r| r.swapped()));
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
            let [ia, ib] = &mut s.inputs;
            let k = self.net_inputs(pos[0], class, ia);
            self.net_inputs(pos[1], class, ib);
            let net = &self.weights.nets[k];
            let (n, h) = (net.inputs, net.hidden);
            let [sums, da, db] = s.base.deltas(k, net, [&ia[..n], &ib[..n]]);
            let [ha, hb] = &mut s.hidden;
            let (ha, hb) = (ha.first(h), hb.first(h));
            crate::simd::hidden_layer_pair_from(net, sums, [da, db], [&mut *ha, &mut *hb]);
            let interleaved = Some(&self.interleaved[k][..]);
            crate::simd::output_layer_pair(net, interleaved, [ha, hb], out);
        });
    }

    /// [`Evaluator::run_net`] from the list's base, which the position becomes if the
    /// base is not of its net yet.
    fn run_from_base(&self, pos: &Position, class: PositionClass, out: &mut [f32; 5]) {
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let k = self.net_inputs(pos, class, &mut s.inputs[0]);
            let net = &self.weights.nets[k];
            let (n, h) = (net.inputs, net.hidden);
            let [sums, delta, _] = s.base.deltas(k, net, [&s.inputs[0][..n], &[]]);
            let act = s.hidden[0].first(h);
            crate::simd::hidden_layer_from(net, sums, delta, act, true);
            crate::simd::output_layer(net, Some(&self.interleaved[k]), act, out);
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
            PositionClass::Over => evaluate_over(pos),
            PositionClass::Bearoff2 => self.bearoff.eval_two_sided(pos)?,
            PositionClass::Bearoff1 => self.bearoff.eval_one_sided(pos)?,
            _ => unreachable!("hypergammon classes are not produced for standard positions"),
        })
    }

    /// gnubg's corrections after a net: race backgammons, then the sanity checks.
    fn finish_net(&self, pos: &Position, class: PositionClass, out: &mut [f32; 5]) -> Result<(), EvalError> {
        if class == PositionClass::Race {
            race_backgammon(pos, out, &self.bearoff)?;
        }
        self.sanity(pos, out);
        Ok(())
    }

    /// gnubg's pruning-net evaluation (used to preselect moves inside lookahead): the
    /// class's small net on the 200 base inputs, race backgammons, sanity checks.
    /// `class` must be race, crashed or contact.
    pub fn evaluate_pruning(&self, pos: &Position, class: PositionClass) -> Result<Probabilities, EvalError> {
        let index = match class {
            PositionClass::Race => PRUNE_RACE,
            PositionClass::Crashed => PRUNE_CRASHED,
            _ => PRUNE_CONTACT,
        };
        let mut out = [0f32; 5];
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            inputs::base_inputs(pos, &mut s.inputs[0][..inputs::BASE_INPUTS]);
            let net = &self.weights.nets[index];
            net::evaluate_with(
                net,
                None,
                &s.inputs[0][..inputs::BASE_INPUTS],
                s.hidden[0].first(net.hidden),
                &mut out,
            );
        });
        if class == PositionClass::Race {
            race_backgammon(pos, &mut out, &self.bearoff)?;
        }
        self.sanity(pos, &mut out);
        Ok(out)
    }

    fn sanity(&self, pos: &Position, out: &mut [f32; 5]) {
        let dbs = &self.bearoff;
        sanity_check(pos, out, |side| {
            dbs.distribution(side).ok().flatten().map(|d| max_turns_of(&d))
        });
    }

    /// The index of a class's net in the weights, with the position's inputs written to
    /// `inputs`.
    fn net_inputs(&self, pos: &Position, class: PositionClass, inputs: &mut [f32]) -> usize {
        match class {
            PositionClass::Race => inputs::race_inputs(pos, &mut inputs[..inputs::RACE_INPUTS]),
            PositionClass::Crashed => inputs::crashed_inputs(pos, self.fixed_pip_loss, inputs),
            _ => inputs::contact_inputs(pos, self.fixed_pip_loss, inputs),
        }
        net_index(class)
    }

    fn run_net(&self, pos: &Position, class: PositionClass, out: &mut [f32; 5]) {
        SCRATCH.with(|s| {
            let s = &mut *s.borrow_mut();
            let k = self.net_inputs(pos, class, &mut s.inputs[0]);
            let net = &self.weights.nets[k];
            let interleaved = Some(&self.interleaved[k][..]);
            net::evaluate_with(
                net,
                interleaved,
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
            let [ia, ib] = &mut s.inputs;
            let k = self.net_inputs(pos[0], class, ia);
            self.net_inputs(pos[1], class, ib);
            let net = &self.weights.nets[k];
            let [ha, hb] = &mut s.hidden;
            let (ha, hb) = (ha.first(net.hidden), hb.first(net.hidden));
            let inputs = [&ia[..net.inputs], &ib[..net.inputs]];
            net::evaluate_pair(net, Some(&self.interleaved[k][..]), inputs, [ha, hb], out);
        });
    }

    /// The best move at 0 ply, as gnubg 1.07 ranks its move list: each resulting
    /// position is evaluated with the opponent on roll and scored by the mover's
    /// cubeless money equity. A move that bears off the last checker comes first; then
    /// higher equity; then fewer of the mover's checkers left; then the lower rearmost
    /// checker; then gnubg's generation order. Returns the move and its equity, or
    /// `None` when no move is legal.
    pub fn best_move(
        &self,
        gen: &mut MoveGen,
        pos: &Position,
        dice: Dice,
    ) -> Result<Option<(Move, f32)>, EvalError> {
        let moves = gen.moves(pos, dice);
        self.with_values_after(moves.iter().map(|m| m.result), |values| {
            let mut best: Option<(usize, f32, (i32, u32))> = None;
            for (k, (m, (p, _))) in moves.iter().zip(values).enumerate() {
                let (eq, shape) = (money_equity(&invert(p)), move_shape(&m.result));
                if best.is_none_or(|(_, e, s)| sorts_before(eq, shape, e, s)) {
                    best = Some((k, eq, shape));
                }
            }
            best.map(|(k, eq, _)| (moves[k], eq))
        })
    }
}

/// What gnubg compares, besides equity, when it sorts a move list: the mover's rearmost
/// checker after the move (−1 once all are off) and the mover's checkers left.
pub fn move_shape(result: &Position) -> (i32, u32) {
    let me = result.on_roll();
    (
        crate::simd::slot_masks(me).rearmost(),
        me.iter().map(|&n| u32::from(n)).sum(),
    )
}

/// Whether a move with (equity, [`move_shape`]) sorts strictly before the current best
/// in gnubg's order: bearing off the last checker first, then higher equity, then fewer
/// checkers left, then the lower rearmost checker; otherwise the earlier move stays.
pub fn sorts_before(eq: f32, shape: (i32, u32), best_eq: f32, best_shape: (i32, u32)) -> bool {
    if best_shape.0 == -1 {
        return false;
    }
    if shape.0 == -1 {
        return true;
    }
    if eq != best_eq {
        return eq > best_eq;
    }
    if shape.1 != best_shape.1 {
        return shape.1 < best_shape.1;
    }
    shape.0 < best_shape.0
}

/// The index of a net class's net in the weights.
fn net_index(class: PositionClass) -> usize {
    match class {
        PositionClass::Race => RACE,
        PositionClass::Crashed => CRASHED,
        _ => CONTACT,
    }
}

/// Whether a class is evaluated by a net (rather than a table or the game's end).
fn is_net(class: PositionClass) -> bool {
    matches!(
        class,
        PositionClass::Race | PositionClass::Crashed | PositionClass::Contact
    )
}

/// gnubg's `EvalOver` for the standard variant.
fn evaluate_over(pos: &Position) -> Probabilities {
    let [opp, me] = pos.sides();
    let total = |s: &[u8; 25]| s.iter().map(|&n| u32::from(n)).sum::<u32>();
    let in_home_or_bar = |s: &[u8; 25]| s[18..25].iter().any(|&n| n > 0);
    let mut out = [0f32; 5];
    if total(opp) == 0 {
        if total(me) == 15 {
            out[3] = 1.0;
            out[4] = if in_home_or_bar(me) { 1.0 } else { 0.0 };
        }
    } else if total(me) == 0 {
        out[0] = 1.0;
        if total(opp) == 15 {
            out[1] = 1.0;
            out[2] = if in_home_or_bar(opp) { 1.0 } else { 0.0 };
        }
    }
    out
}

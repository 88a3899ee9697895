//! Legal move generation.
//!
//! The rules: a player must use as many dice as possible (up to four with doubles); if
//! only one die of a non-double can be used, it must be the larger one when either could
//! be; checkers on the bar enter before anything else moves; a checker may bear off only
//! when all the player's checkers are home, with the exact number or, from the highest
//! occupied point, with a larger one; landing on a single opposing checker hits it.
//! Plays that reach the same position are one move.
//!
//! The search visits sub-moves in the order gnubg's `GenerateMoves` does (larger die
//! first, then the other order for non-doubles; source points from the back; with
//! doubles each further sub-move starts no higher than the one before), and keeps the
//! first sequence that reaches each position. The list therefore comes out in gnubg's
//! order, which matters where gnubg breaks ties between equal moves by list order.
//! Duplicate positions are found with an incrementally updated hash and a full
//! comparison.

use crate::dice::Dice;
use crate::position::{Position, BAR};
use crate::step::Step;

/// A legal move: its checker movements, in the order played, and the position it
/// leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    steps: [Step; 4],
    len: u8,
    /// The position right after the move, still from the mover's side: the mover is
    /// `sides[1]` (call [`Position::swapped`] to give the opponent the roll).
    pub result: Position,
}

impl Move {
    /// A move from its steps and result (as recorded by the generator or a parser).
    pub fn new(steps: &[Step], result: Position) -> Move {
        let mut s = [Step::default(); 4];
        s[..steps.len()].copy_from_slice(steps);
        Move {
            steps: s,
            len: steps.len() as u8,
            result,
        }
    }

    /// The checker movements, one per die used, in the order played.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// How many opposing checkers this move hits.
    pub fn hits(&self) -> usize {
        self.steps().iter().filter(|s| s.hit).count()
    }

    /// The move in standard notation (see [`crate::notation`]).
    pub fn notation(&self) -> String {
        crate::notation::format_standard(self.steps())
    }

    /// The move as gnubg writes it (see [`crate::notation`]).
    pub fn gnubg_notation(&self) -> String {
        crate::notation::format_gnubg(self.steps())
    }
}

/// Random values for the additive position hash, one per (side, slot).
const HASH_KEYS: [[u64; 25]; 2] = {
    let mut keys = [[0u64; 25]; 2];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut s = 0;
    while s < 2 {
        let mut i = 0;
        while i < 25 {
            // SplitMix64's sequence (see crate::seed).
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            keys[s][i] = crate::seed::mix64(state);
            i += 1;
        }
        s += 1;
    }
    keys
};

/// What the generator stores per distinct result: only positions, or full moves.
trait Output {
    const RECORD: bool;
    fn position(&self, i: usize) -> &Position;
    fn push(&mut self, steps: &[Step], result: &Position);
    fn clear(&mut self);
}

impl Output for Vec<Position> {
    const RECORD: bool = false;
    fn position(&self, i: usize) -> &Position {
        &self[i]
    }
    fn push(&mut self, _: &[Step], result: &Position) {
        Vec::push(self, *result);
    }
    fn clear(&mut self) {
        Vec::clear(self);
    }
}

impl Output for Vec<Move> {
    const RECORD: bool = true;
    fn position(&self, i: usize) -> &Position {
        &self[i].result
    }
    fn push(&mut self, steps: &[Step], result: &Position) {
        Vec::push(self, Move::new(steps, *result));
    }
    fn clear(&mut self) {
        Vec::clear(self);
    }
}

/// Open-addressing set of result hashes; entries carry a stamp so that clearing is O(1).
#[derive(Clone, Debug)]
struct Seen {
    /// (stamp, index into the output) per slot.
    slots: Vec<(u32, u32)>,
    hashes: Vec<u64>,
    stamp: u32,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            slots: vec![(0, 0); 256],
            hashes: Vec::new(),
            stamp: 0,
        }
    }

    fn clear(&mut self) {
        self.hashes.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0));
            self.stamp = 1;
        }
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![(0, 0); size];
        self.stamp = 1;
        let mask = size - 1;
        for (k, &h) in self.hashes.iter().enumerate() {
            let mut j = h as usize & mask;
            while self.slots[j].0 == self.stamp {
                j = (j + 1) & mask;
            }
            self.slots[j] = (self.stamp, k as u32);
        }
    }

    /// Inserts `pos` unless an equal position is already in `out`; returns whether it
    /// was new.
    #[inline]
    fn insert<O: Output>(&mut self, hash: u64, pos: &Position, steps: &[Step], out: &mut O) -> bool {
        let mask = self.slots.len() - 1;
        let mut j = hash as usize & mask;
        while self.slots[j].0 == self.stamp {
            let k = self.slots[j].1 as usize;
            if self.hashes[k] == hash && out.position(k) == pos {
                return false;
            }
            j = (j + 1) & mask;
        }
        let k = self.hashes.len();
        self.slots[j] = (self.stamp, k as u32);
        self.hashes.push(hash);
        out.push(steps, pos);
        if 2 * self.hashes.len() > self.slots.len() {
            self.grow();
        }
        true
    }
}

/// Reusable move generator: keeps its buffers between calls, so generating moves in a
/// loop allocates nothing once warmed up.
#[derive(Clone, Debug)]
pub struct MoveGen {
    positions: Vec<Position>,
    moves: Vec<Move>,
    seen: Seen,
}

impl Default for MoveGen {
    fn default() -> MoveGen {
        MoveGen::new()
    }
}

impl MoveGen {
    /// A generator with empty buffers.
    pub fn new() -> MoveGen {
        MoveGen {
            positions: Vec::new(),
            moves: Vec::new(),
            seen: Seen::new(),
        }
    }

    /// Every legal move of the player on roll with these dice, one per distinct
    /// resulting position, in gnubg's order. Empty when no move is possible (the turn
    /// passes with the board unchanged).
    pub fn moves(&mut self, pos: &Position, dice: Dice) -> &[Move] {
        generate(pos, dice, &mut self.seen, &mut self.moves);
        &self.moves
    }

    /// The distinct positions the legal moves lead to (mover still in `sides[1]`), in
    /// the same order as [`MoveGen::moves`]. Faster: no move records are kept.
    pub fn positions(&mut self, pos: &Position, dice: Dice) -> &[Position] {
        generate(pos, dice, &mut self.seen, &mut self.positions);
        &self.positions
    }
}

impl Position {
    /// Every legal move with these dice (see [`MoveGen::moves`]). For loops, keep a
    /// [`MoveGen`] instead.
    pub fn legal_moves(&self, dice: Dice) -> Vec<Move> {
        let mut out = Vec::new();
        generate(self, dice, &mut Seen::new(), &mut out);
        out
    }
}

struct Search<'a, O: Output> {
    board: Position,
    /// Bit i set: the mover has checkers on slot i (bit 24: the bar).
    occupied: u32,
    /// Bit j set: the opponent holds the mover's point j + 1 with two or more checkers.
    /// Constant during a search: the opponent's points only lose blots.
    blocked: u32,
    dice: [u8; 4],
    n_dice: usize,
    doubles: bool,
    /// In the second pass of a non-double (smaller die first), only follow-ups that the
    /// first pass cannot have produced are searched (see `sub`).
    second_pass: bool,
    steps: [Step; 4],
    hash: u64,
    best: (usize, u32),
    seen: &'a mut Seen,
    out: &'a mut O,
}

fn generate<O: Output>(pos: &Position, dice: Dice, seen: &mut Seen, out: &mut O) {
    out.clear();
    seen.clear();
    let (hi, lo) = (dice.high(), dice.low());
    let doubles = hi == lo;
    let (opp, me) = (pos.opponent(), pos.on_roll());
    let occupied = (0..25).filter(|&i| me[i] > 0).fold(0u32, |m, i| m | 1 << i);
    let blocked = (0..24)
        .filter(|&j| opp[23 - j] >= 2)
        .fold(0u32, |m, j| m | 1 << j);
    let mut search = Search {
        board: *pos,
        occupied,
        blocked,
        dice: if doubles { [hi; 4] } else { [hi, lo, 0, 0] },
        n_dice: if doubles { 4 } else { 2 },
        doubles,
        second_pass: false,
        steps: [Step::default(); 4],
        hash: 0,
        best: (0, 0),
        seen,
        out,
    };
    search.sub(0, 23, 0);
    if !doubles {
        search.dice = [lo, hi, 0, 0];
        search.second_pass = true;
        search.sub(0, 23, 0);
    }
}

/// Index of the highest set bit (the mover's rearmost checker); 0 for an empty mask.
#[inline(always)]
fn highest(mask: u32) -> usize {
    31usize.saturating_sub(mask.leading_zeros() as usize)
}

impl<O: Output> Search<'_, O> {
    /// Moves one checker of the side on roll from index `from` to `to` (negative = off);
    /// returns whether it hit.
    #[inline(always)]
    fn apply(&mut self, from: usize, to: isize) -> bool {
        let [opp, me] = self.board.sides_mut();
        me[from] -= 1;
        if me[from] == 0 {
            self.occupied &= !(1 << from);
        }
        self.hash = self.hash.wrapping_sub(HASH_KEYS[1][from]);
        if to < 0 {
            return false;
        }
        let to = to as usize;
        me[to] += 1;
        self.occupied |= 1 << to;
        self.hash = self.hash.wrapping_add(HASH_KEYS[1][to]);
        let there = 23 - to;
        if opp[there] == 1 {
            opp[there] = 0;
            opp[BAR] += 1;
            self.hash = self
                .hash
                .wrapping_add(HASH_KEYS[0][BAR].wrapping_sub(HASH_KEYS[0][there]));
            true
        } else {
            false
        }
    }

    #[inline(always)]
    fn undo(&mut self, from: usize, to: isize, hit: bool) {
        let [opp, me] = self.board.sides_mut();
        me[from] += 1;
        self.occupied |= 1 << from;
        self.hash = self.hash.wrapping_add(HASH_KEYS[1][from]);
        if to < 0 {
            return;
        }
        let to = to as usize;
        me[to] -= 1;
        if me[to] == 0 {
            self.occupied &= !(1 << to);
        }
        self.hash = self.hash.wrapping_sub(HASH_KEYS[1][to]);
        if hit {
            let there = 23 - to;
            opp[there] = 1;
            opp[BAR] -= 1;
            self.hash = self
                .hash
                .wrapping_sub(HASH_KEYS[0][BAR].wrapping_sub(HASH_KEYS[0][there]));
        }
    }

    /// Records the current board as the result of `n_used` dice totalling `pips`, under
    /// gnubg's rule: fewer dice or pips than the best so far is not legal; more makes
    /// every earlier result illegal.
    #[inline]
    fn save(&mut self, n_used: usize, pips: u32) {
        let (best_n, best_pips) = self.best;
        if n_used < best_n || pips < best_pips {
            return;
        }
        if n_used > best_n || pips > best_pips {
            self.out.clear();
            self.seen.clear();
            self.best = (n_used, pips);
        }
        self.seen
            .insert(self.hash, &self.board, &self.steps[..n_used], self.out);
    }

    /// Makes (`n_used`, `pips`), the most any play can use, the class of the results
    /// kept; earlier results of a smaller class become illegal.
    #[inline(always)]
    fn enter_class(&mut self, n_used: usize, pips: u32) {
        if self.best != (n_used, pips) {
            self.out.clear();
            self.seen.clear();
            self.best = (n_used, pips);
        }
    }

    /// Records the play made of the current steps plus one last checker movement from
    /// slot `from` to `to` (negative = off), without touching the working board.
    #[inline(always)]
    fn emit(&mut self, depth: usize, from: usize, to: isize) {
        let mut result = self.board;
        let [opp, me] = result.sides_mut();
        let mut hash = self.hash.wrapping_sub(HASH_KEYS[1][from]);
        me[from] -= 1;
        let mut hit = false;
        if to >= 0 {
            let t = to as usize;
            me[t] += 1;
            hash = hash.wrapping_add(HASH_KEYS[1][t]);
            let there = 23 - t;
            if opp[there] == 1 {
                opp[there] = 0;
                opp[BAR] += 1;
                hash = hash.wrapping_add(HASH_KEYS[0][BAR].wrapping_sub(HASH_KEYS[0][there]));
                hit = true;
            }
        }
        if O::RECORD {
            self.steps[depth] = Step {
                from: from as u8 + 1,
                to: (to + 1).max(0) as u8,
                hit,
            };
        }
        self.seen
            .insert(hash, &result, &self.steps[..depth + 1], self.out);
    }

    /// The slots (at most `top`) from which a checker may move `die` pips: the landing
    /// point is not held by the opponent, or it bears off legally (all checkers home,
    /// and the exact number or from the rearmost point).
    #[inline(always)]
    fn sources(&self, die: usize, top: usize) -> u32 {
        let below_top = (2u32 << top) - 1;
        let mut from = self.occupied & !(self.blocked << die) & !((1u32 << die) - 1);
        let back = highest(self.occupied);
        if back <= 5 && self.occupied != 0 {
            // Exact bear-off from slot die-1, or from the rearmost slot with a larger die.
            from |= self.occupied & (1 << (die - 1));
            if back < die {
                from |= 1 << back;
            }
        }
        from & below_top
    }

    /// Plays die number `depth` in every legal way and recurses. Returns true when no
    /// checker could use this die (the caller then records its own board).
    fn sub(&mut self, depth: usize, top: usize, pips: u32) -> bool {
        if depth == self.n_dice {
            return true;
        }
        let die = self.dice[depth] as usize;
        let pips = pips + die as u32;
        if self.occupied & 1 << BAR != 0 {
            if self.blocked & 1 << (BAR - die) != 0 {
                return true;
            }
            let to = (BAR - die) as isize;
            if depth + 1 == self.n_dice {
                self.enter_class(depth + 1, pips);
                self.emit(depth, BAR, to);
                return false;
            }
            let hit = self.apply(BAR, to);
            if O::RECORD {
                self.steps[depth] = Step {
                    from: 25,
                    to: (to + 1) as u8,
                    hit,
                };
            }
            if self.sub(depth + 1, 23, pips) {
                self.save(depth + 1, pips);
            }
            self.undo(BAR, to, hit);
            return false;
        }
        let mut sources = self.sources(die, top);
        if sources == 0 {
            return true;
        }
        if depth + 1 == self.n_dice {
            self.enter_class(depth + 1, pips);
            while sources != 0 {
                let i = highest(sources);
                sources &= !(1 << i);
                self.emit(depth, i, i as isize - die as isize);
            }
            return false;
        }
        while sources != 0 {
            let i = highest(sources);
            sources &= !(1 << i);
            let to = i as isize - die as isize;
            let back_before = highest(self.occupied);
            let hit = self.apply(i, to);
            if O::RECORD {
                self.steps[depth] = Step {
                    from: i as u8 + 1,
                    to: (to + 1).max(0) as u8,
                    hit,
                };
            }
            let next_top = if self.doubles { i } else { 23 };
            let done = if self.second_pass && depth == 0 && highest(self.occupied) == back_before {
                // Smaller die first, from a board without bar checkers, and the rearmost
                // checker did not move: the larger die's legal sources are those it had
                // before, plus the landing point. Every other follow-up reached a
                // position the first pass (larger die first) already produced.
                self.second_die_from_landing(to, pips)
            } else {
                self.sub(depth + 1, next_top, pips)
            };
            if done {
                self.save(depth + 1, pips);
            }
            self.undo(i, to, hit);
        }
        false
    }

    /// Second pass, second die: plays the larger die only with a checker on the point
    /// the smaller die just reached. Returns true when the larger die cannot be played
    /// at all (as [`Search::sub`] would).
    fn second_die_from_landing(&mut self, landed: isize, pips: u32) -> bool {
        let die = self.dice[1] as usize;
        let sources = self.sources(die, 23);
        if sources == 0 {
            return true;
        }
        if landed >= 0 && sources & 1 << landed != 0 {
            self.enter_class(2, pips + die as u32);
            self.emit(1, landed as usize, landed - die as isize);
        }
        false
    }
}

/// Counts the leaves of the game tree from `pos` to `depth` plies: at every ply each
/// of the 21 rolls, each distinct resulting position (or the unchanged board when a
/// roll has no move), then the other side on roll. Unweighted, like the published
/// perft figures.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    fn walk(pos: &Position, depth: u32, gens: &mut [MoveGen]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (gen, rest) = gens.split_first_mut().expect("one generator per ply");
        let mut total = 0;
        for dice in Dice::all() {
            let children = gen.positions(pos, dice);
            if depth == 1 {
                total += children.len().max(1) as u64;
                continue;
            }
            if children.is_empty() {
                total += walk(&pos.swapped(), depth - 1, rest);
            } else {
                let owned: Vec<Position> = children.to_vec();
                for child in owned {
                    total += walk(&child.swapped(), depth - 1, rest);
                }
            }
        }
        total
    }
    let mut gens = vec![MoveGen::new(); depth as usize];
    walk(pos, depth, &mut gens)
}

//! Move enumeration for one side bearing off with no opponent on the board, in exactly
//! the order of gnubg's `GenerateMoves`.
//!
//! The one-sided generator keeps the *first* best successor, so the order matters. The
//! rules reproduced here (see the format reference, "Successor order"):
//!
//! * the larger die is played first; for non-doubles a second pass plays the smaller die
//!   first; both passes feed one list;
//! * each pass is a depth-first search; sources are tried from the highest point down;
//!   for doubles the next checker's source is at most the current one's, for non-doubles
//!   the search restarts from the top;
//! * bearing off needs every checker in the home board (highest index <= 5) and either an
//!   exact die or a move from the highest point;
//! * a finished sequence is offered with its number of sub-moves and its pip total (the
//!   dice used); gnubg keeps only sequences matching the largest of both seen so far.
//!
//! With no opponent every die can be played while checkers remain, so short sequences
//! only occur when the last checker leaves.

use crate::format::index::PositionIndex;

/// Largest number of points a side may use here (the bar is never occupied).
pub const MAX_POINTS: usize = 24;

/// A side's checkers: `counts[i]` on point `i + 1`. Points at or beyond the database's
/// point count are always empty.
pub type Counts = [u8; MAX_POINTS];

/// The 21 distinct rolls in gnubg's loop order (`d0 = 1..=6`, `d1 = 1..=d0`), larger die
/// first, with their weight out of 36.
pub const ROLLS: [(u8, u8, u32); 21] = {
    let mut out = [(0u8, 0u8, 0u32); 21];
    let mut k = 0;
    let mut d0 = 1;
    while d0 <= 6 {
        let mut d1 = 1;
        while d1 <= d0 {
            out[k] = (d0, d1, if d0 == d1 { 1 } else { 2 });
            k += 1;
            d1 += 1;
        }
        d0 += 1;
    }
    out
};

/// Per-slot index deltas: moving one checker off slot `k` (with `m` checkers on slots
/// `k..`) lowers the rank by `delta[k][m] = binom(P - 2 - k + m, P - 1 - k)`.
#[derive(Clone, Debug)]
pub struct Ranker {
    points: usize,
    delta: [[u64; 16]; 32],
}

impl Ranker {
    /// Rank drop for slot `k` holding `m` checkers on slots `k..` (see the type).
    #[inline]
    pub fn delta_at(&self, k: usize, m: u8) -> u64 {
        self.delta[k & 31][usize::from(m & 15)]
    }

    /// Tables for `index`.
    pub fn new(index: &PositionIndex) -> Ranker {
        let p = index.points();
        let mut delta = [[0u64; 16]; 32];
        for (k, row) in delta.iter_mut().enumerate().take(p) {
            for (m, d) in row.iter_mut().enumerate().skip(1) {
                *d = crate::format::index::binom(m + p - 1 - k - 1, p - 1 - k);
            }
        }
        Ranker { points: p, delta }
    }
}

struct Search<'a, F: FnMut(u8, u8, u64)> {
    board: Counts,
    /// Bit `i` set iff `board[i] > 0`.
    occupied: u32,
    /// `suffix[k]`: checkers on slots `k..points`.
    suffix: [u8; 32],
    index: u64,
    ranker: &'a Ranker,
    dice: [u8; 4],
    /// Depth of the last die (1 for non-doubles, 3 for doubles).
    last: usize,
    doubles: bool,
    /// Second pass of a non-double: skip sequences without a bear-off (see
    /// [`for_each_sequence`]).
    prune: bool,
    /// Scratch for the rank changes at the last die (prefix sums over the slots).
    prefix: [u64; 33],
    leaf: &'a mut F,
}

impl<F: FnMut(u8, u8, u64)> Search<'_, F> {
    /// Rank change of moving a checker from `src` to `dest` (below 0 = off).
    #[inline(always)]
    fn delta(&self, src: usize, dest: isize) -> u64 {
        let lo = (dest.max(-1) + 1) as usize;
        let mut d = 0;
        for k in lo..=src {
            d += self.ranker.delta[k & 31][usize::from(self.suffix[k & 31] & 15)];
        }
        d
    }

    #[inline(always)]
    fn apply(&mut self, src: usize, dest: isize) {
        self.index -= self.delta(src, dest);
        let lo = (dest.max(-1) + 1) as usize;
        for k in lo..=src {
            self.suffix[k & 31] -= 1;
        }
        self.board[src] -= 1;
        if self.board[src] == 0 {
            self.occupied &= !(1 << src);
        }
        if dest >= 0 {
            self.board[dest as usize] += 1;
            self.occupied |= 1 << dest;
        }
    }

    #[inline(always)]
    fn undo(&mut self, src: usize, dest: isize) {
        let lo = (dest.max(-1) + 1) as usize;
        for k in lo..=src {
            self.suffix[k & 31] += 1;
        }
        self.index += self.delta(src, dest);
        if dest >= 0 {
            self.board[dest as usize] -= 1;
            if self.board[dest as usize] == 0 {
                self.occupied &= !(1 << dest);
            }
        }
        self.board[src] += 1;
        self.occupied |= 1 << src;
    }

    /// gnubg's `GenerateMovesSub`: returns whether a checker could be moved at `depth`.
    fn sub(&mut self, depth: usize, start: usize, pips: u8, bore_off: bool) -> bool {
        if depth > self.last {
            return false;
        }
        if self.occupied == 0 {
            return false;
        }
        let die = usize::from(self.dice[depth]);
        let top = 31 - self.occupied.leading_zeros() as usize;
        let bear_ok = top <= 5;
        let mut sources = self.occupied & (u32::MAX >> (31 - start.min(MAX_POINTS - 1)));
        let mut used = false;
        let pips = pips + die as u8;
        let at_last = depth == self.last;
        // At the last die, rank changes come from prefix sums over the slots.
        if at_last {
            let hi = (top + 1).min(32);
            self.prefix[0] = 0;
            for k in 0..hi {
                self.prefix[k + 1] = self.prefix[k] + self.ranker.delta[k][usize::from(self.suffix[k] & 15)];
            }
        }
        while sources != 0 {
            let src = 31 - sources.leading_zeros() as usize;
            sources &= !(1 << src);
            let dest = src as isize - die as isize;
            if !(dest >= 0 || (bear_ok && (src == top || dest == -1))) {
                continue;
            }
            used = true;
            if at_last {
                if !(self.prune && !bore_off && dest >= 0) {
                    let lo = (dest.max(-1) + 1) as usize;
                    let j = self.index - (self.prefix[(src + 1) & 31] - self.prefix[lo & 31]);
                    (self.leaf)(depth as u8 + 1, pips, j);
                }
                continue;
            }
            self.apply(src, dest);
            let next = if self.doubles { src } else { MAX_POINTS - 1 };
            if !self.sub(depth + 1, next, pips, bore_off || dest < 0) {
                (self.leaf)(depth as u8 + 1, pips, self.index);
            }
            self.undo(src, dest);
        }
        used
    }
}

/// Calls `f(src, dest, successor_index, successor_board)` for every single-checker move
/// with `die` from `board` (rank `index`), sources from the highest point down, as the
/// second die of a non-double is searched. `dest < 0` means borne off.
pub fn for_each_single_move<F: FnMut(usize, isize, u64, &Counts)>(
    ranker: &Ranker,
    board: &Counts,
    index: u64,
    die: u8,
    f: &mut F,
) {
    let points = ranker.points;
    let Some(top) = board[..points].iter().rposition(|&c| c > 0) else {
        return;
    };
    let mut suffix = [0u8; 32];
    for k in (0..points).rev() {
        suffix[k] = suffix[k + 1] + board[k];
    }
    let die = usize::from(die);
    for src in (0..=top).rev() {
        if board[src] == 0 {
            continue;
        }
        let dest = src as isize - die as isize;
        if !(dest >= 0 || (top <= 5 && (src == top || dest == -1))) {
            continue;
        }
        let lo = (dest.max(-1) + 1) as usize;
        let mut d = 0;
        for k in lo..=src {
            d += ranker.delta[k & 31][usize::from(suffix[k & 31] & 15)];
        }
        let mut after = *board;
        after[src] -= 1;
        if dest >= 0 {
            after[dest as usize] += 1;
        }
        f(src, dest, index - d, &after);
    }
}

/// Calls `leaf(sub_moves, pips, successor_index)` for every finished move sequence, in
/// gnubg's order, before gnubg's filtering (see [`SaveFilter`]). `d0 >= d1`; `index` is
/// the rank of `board`. With no checkers at all, reports the unchanged board once with 0
/// sub-moves.
///
/// With `prune`, second-pass sequences of a non-double that bear nothing off are not
/// reported: with no opponent on the board, each of them has a twin in the first pass
/// (same result, same sub-move and pip counts) that comes earlier, so they cannot change
/// a "first best successor" choice. The distinct results are the same either way.
pub fn for_each_sequence<F: FnMut(u8, u8, u64)>(
    ranker: &Ranker,
    board: &Counts,
    index: u64,
    d0: u8,
    d1: u8,
    prune: bool,
    leaf: &mut F,
) {
    let points = ranker.points;
    debug_assert!(d0 >= d1 && (1..=MAX_POINTS).contains(&points));
    let doubles = d0 == d1;
    let mut suffix = [0u8; 32];
    for k in (0..points).rev() {
        suffix[k] = suffix[k + 1] + board[k];
    }
    let mut occupied = 0u32;
    for (k, &c) in board.iter().enumerate().take(points) {
        if c > 0 {
            occupied |= 1 << k;
        }
    }
    let mut search = Search {
        board: *board,
        occupied,
        suffix,
        index,
        ranker,
        dice: if doubles { [d0; 4] } else { [d0, d1, 0, 0] },
        last: if doubles { 3 } else { 1 },
        doubles,
        prune: false,
        prefix: [0; 33],
        leaf,
    };
    if !search.sub(0, MAX_POINTS - 1, 0, false) {
        (search.leaf)(0, 0, index);
    }
    if !doubles {
        search.dice = [d1, d0, 0, 0];
        search.prune = prune;
        if !search.sub(0, MAX_POINTS - 1, 0, false) {
            (search.leaf)(0, 0, index);
        }
    }
}

/// gnubg's `SaveMoves` rule: a sequence is dropped if it uses fewer sub-moves or fewer
/// pips than the largest seen so far; one that uses more empties the list first.
#[derive(Clone, Copy, Debug, Default)]
pub struct SaveFilter {
    moves: u8,
    pips: u8,
}

/// What [`SaveFilter::offer`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    /// Dropped.
    Discard,
    /// Appended to the current list.
    Keep,
    /// The list was emptied, then this was appended.
    Restart,
}

impl SaveFilter {
    /// Offers a finished sequence.
    #[inline]
    pub fn offer(&mut self, moves: u8, pips: u8) -> Saved {
        if moves < self.moves || pips < self.pips {
            return Saved::Discard;
        }
        let restart = moves > self.moves || pips > self.pips;
        self.moves = moves;
        self.pips = pips;
        if restart {
            Saved::Restart
        } else {
            Saved::Keep
        }
    }
}

/// The distinct successor indices gnubg's `GenerateMoves` lists for this roll, in its
/// order (first occurrence of each resulting position). `index` is the rank of `board`.
pub fn successors(ranker: &Ranker, board: &Counts, index: u64, d0: u8, d1: u8, out: &mut Vec<u64>) {
    out.clear();
    let mut filter = SaveFilter::default();
    for_each_sequence(ranker, board, index, d0, d1, false, &mut |m, p, j| {
        match filter.offer(m, p) {
            Saved::Discard => return,
            Saved::Restart => out.clear(),
            Saved::Keep => {}
        }
        if !out.contains(&j) {
            out.push(j);
        }
    });
}

/// Board of a side from its index, as [`Counts`].
pub fn counts_of(index: &PositionIndex, i: u64) -> Option<Counts> {
    let mut c = [0u8; MAX_POINTS];
    index.unrank_into(i, &mut c).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Dice, MoveGen, Position};

    /// Compares the successor lists (order included) with board's gnubg-exact move
    /// generator, the mover alone on the board.
    fn check_against_board(points: usize, checkers: usize, step: u64) {
        let ix = PositionIndex::new(points, checkers).unwrap();
        let ranker = Ranker::new(&ix);
        let mut gen = MoveGen::new();
        let mut ours = Vec::new();
        let mut i = 1;
        while i < ix.count() {
            let c = counts_of(&ix, i).unwrap();
            let mut me = [0u8; 25];
            me[..MAX_POINTS].copy_from_slice(&c);
            let pos = Position::new([0; 25], me).unwrap();
            for &(d0, d1, _) in &ROLLS {
                successors(&ranker, &c, i, d0, d1, &mut ours);
                let theirs: Vec<u64> = gen
                    .positions(&pos, Dice::new(d0, d1).unwrap())
                    .iter()
                    .map(|p| ix.rank(p.on_roll()).unwrap())
                    .collect();
                assert_eq!(ours, theirs, "index {i} roll {d0}{d1}");
            }
            i += step;
        }
    }

    #[test]
    fn order_matches_board_movegen_small() {
        check_against_board(3, 15, 1);
        check_against_board(6, 4, 1);
    }

    #[test]
    fn order_matches_board_movegen_sampled() {
        check_against_board(6, 15, 97);
        check_against_board(9, 15, 10_007);
    }

    #[test]
    fn one_checker_on_six_point() {
        let ix = PositionIndex::new(6, 15).unwrap();
        let c = counts_of(&ix, 6).unwrap();
        let r = Ranker::new(&ix);
        let mut out = Vec::new();
        successors(&r, &c, 6, 6, 5, &mut out);
        assert_eq!(out, vec![0]);
        successors(&r, &c, 6, 2, 1, &mut out);
        // 6 -> 4 -> 3 or 6 -> 5 -> 3: one result, the checker on the 3-point.
        assert_eq!(out, vec![3]);
    }
}

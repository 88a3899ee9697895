//! Every legal move of every hypergammon side, tabulated once so that the solvers never
//! search for moves.
//!
//! What a side can play with a roll depends on the opponent only through the points the
//! opponent blocks (two or more checkers; with at most three checkers there is at most
//! one such point). Which opposing checkers a move hits depends on the opponent's blots
//! and on the points the move lands on, intermediate landings included. So for each side
//! on roll `a`, roll and blocked point the table lists the distinct *paths*: the mover's
//! new index and the set of points landed on (with no opposing checker on them initially;
//! the mover's own points can never hold one). A concrete opponent turns a path into a
//! successor by sending the blots on the landed points to the bar
//! ([`OpponentView::after`]).
//!
//! The paths are found with [`board::MoveGen`] against an opponent that blocks the given
//! point and has a blot on every other point the mover does not occupy: every landing is
//! then a hit, so distinct results are exactly distinct paths, and they come in gnubg's
//! generation order. Mapping them to a real opponent and keeping first occurrences gives
//! gnubg's move list for that opponent, in gnubg's order (tested against
//! [`board::MoveGen`] on real positions).

use board::{Dice, MoveGen, Position};
use rayon::prelude::*;

use super::space::{HyperSpace, OpponentView, NO_BLOCK, SLOTS};

/// The 21 rolls in gnubg's order (larger die 1..=6, smaller die 1..=larger).
pub fn rolls() -> [Dice; 21] {
    let mut out = [Dice::new(1, 1).expect("valid"); 21];
    for (o, d) in out.iter_mut().zip(Dice::all()) {
        *o = d;
    }
    out
}

/// One tabulated move: the mover's new one-sided index and the points it landed on (bit
/// `i` = the mover's point index `i`; only points that could hold an opposing blot).
/// Bit [`Path::REPEATS`] of `lands` marks a path with the same `to` as an earlier one in
/// its list, the only kind that can reach an already listed position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    /// The mover's index after the move.
    pub to: u32,
    /// Points landed on, plus the [`Path::REPEATS`] flag.
    pub lands: u32,
}

impl Path {
    /// Flag bit in `lands`: an earlier path of the list has the same `to`.
    pub const REPEATS: u32 = 1 << 31;
}

/// The move paths of every (blocked point, side on roll, roll), stored in that order:
/// the solvers visit many sides on roll against opponents with the same blocked point,
/// and then read the table front to back.
#[derive(Clone, Debug)]
pub struct MoveTable {
    n: usize,
    offsets: Vec<u32>,
    paths: Vec<Path>,
}

impl MoveTable {
    /// Tabulates the moves of every side of `space` (parallel over sides).
    pub fn new(space: &HyperSpace) -> MoveTable {
        let n = space.n();
        let with_block = space.checkers() >= 2;
        // Per side: list lengths [block][roll] and the paths in that order.
        let per_side: Vec<(Vec<u32>, Vec<Path>)> = (0..n)
            .into_par_iter()
            .map_init(MoveGen::new, |gen, a| {
                let me = *space.side(a);
                let mut lens = vec![0u32; 21 * (NO_BLOCK + 1)];
                let mut paths = Vec::new();
                for block in 0..=NO_BLOCK {
                    if block < NO_BLOCK && (!with_block || me[block] > 0) {
                        continue;
                    }
                    let mut opp = [0u8; SLOTS];
                    for p in 0..24 {
                        if me[p] == 0 {
                            opp[23 - p] = if p == block { 2 } else { 1 };
                        }
                    }
                    let pos = Position::new_unchecked(opp, me);
                    for (k, dice) in rolls().into_iter().enumerate() {
                        let moves = gen.moves(&pos, dice);
                        lens[block * 21 + k] = moves.len() as u32;
                        let first = paths.len();
                        for m in moves {
                            let lands = m
                                .steps()
                                .iter()
                                .filter(|s| s.hit)
                                .fold(0u32, |acc, s| acc | 1 << (s.to - 1));
                            let to = space
                                .index()
                                .rank(m.result.on_roll())
                                .expect("a move keeps the checker count")
                                as u32;
                            let repeats = paths[first..].iter().any(|p: &Path| p.to == to);
                            let flag = if repeats { Path::REPEATS } else { 0 };
                            paths.push(Path {
                                to,
                                lands: lands | flag,
                            });
                        }
                    }
                }
                (lens, paths)
            })
            .collect();
        // Where each side's paths of each block start.
        let side_starts: Vec<Vec<usize>> = per_side
            .iter()
            .map(|(lens, _)| {
                let mut at = 0;
                (0..=NO_BLOCK)
                    .map(|block| {
                        let start = at;
                        at += lens[block * 21..block * 21 + 21]
                            .iter()
                            .map(|&l| l as usize)
                            .sum::<usize>();
                        start
                    })
                    .collect()
            })
            .collect();
        let total: usize = per_side.iter().map(|(_, p)| p.len()).sum();
        let mut offsets = Vec::with_capacity((NO_BLOCK + 1) * n * 21 + 1);
        let mut paths = Vec::with_capacity(total);
        offsets.push(0u32);
        for block in 0..=NO_BLOCK {
            for (a, (lens, p)) in per_side.iter().enumerate() {
                let mut at = side_starts[a][block];
                for &len in &lens[block * 21..block * 21 + 21] {
                    paths.extend_from_slice(&p[at..at + len as usize]);
                    at += len as usize;
                    offsets.push(paths.len() as u32);
                }
            }
        }
        MoveTable { n, offsets, paths }
    }

    /// The paths of side `a` with roll number `roll` (in [`rolls`] order) against an
    /// opponent blocking `block` (or [`NO_BLOCK`]). Empty: no legal move.
    #[inline(always)]
    pub fn paths(&self, a: usize, roll: usize, block: usize) -> &[Path] {
        let key = (block * self.n + a) * 21 + roll;
        &self.paths[self.offsets[key] as usize..self.offsets[key + 1] as usize]
    }

    /// Total number of paths stored.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Whether the table is empty (never for a real space).
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Bytes of memory the table uses.
    pub fn bytes(&self) -> usize {
        self.offsets.len() * 4 + self.paths.len() * std::mem::size_of::<Path>()
    }
}

/// The successors of record `(a, b)` for one roll, in gnubg's order, with repeats: two
/// paths may reach the same position. [`Successors::first_occurrence`] tells whether a
/// path is the first to reach its position.
#[derive(Clone, Copy, Debug)]
pub struct Successors<'a> {
    /// The paths.
    pub paths: &'a [Path],
    /// The opponent as the mover sees it.
    pub view: &'a OpponentView,
}

impl Successors<'_> {
    /// The successor of path `k` as (side on roll, opponent): the opponent, after any
    /// hits, is on roll against the mover's new side.
    #[inline(always)]
    pub fn pair(&self, k: usize) -> (usize, usize) {
        let p = self.paths[k];
        (self.view.after(p.lands) as usize, p.to as usize)
    }

    /// Whether no earlier path reaches the same position as path `k`.
    #[inline]
    pub fn first_occurrence(&self, k: usize) -> bool {
        if self.paths[k].lands & Path::REPEATS == 0 {
            return true;
        }
        let r = self.pair(k);
        (0..k).all(|j| self.pair(j) != r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hyper::space::Class;

    /// The table, mapped to a real opponent with first occurrences kept, must give
    /// exactly the board crate's move list (gnubg's order) for every roll.
    fn check_all(c: usize, stride: usize) {
        let space = HyperSpace::new(c).unwrap();
        let table = MoveTable::new(&space);
        let n = space.n();
        let mut gen = MoveGen::new();
        let mut checked = 0;
        for r in (0..space.records()).step_by(stride) {
            if !matches!(space.class(r), Class::Contact | Class::NoContact) {
                continue;
            }
            let (a, b) = (r / n, r % n);
            let pos = space.position(r);
            let view = space.view(b);
            for (k, dice) in rolls().into_iter().enumerate() {
                let succ = Successors {
                    paths: table.paths(a, k, usize::from(view.block)),
                    view,
                };
                let ours: Vec<usize> = (0..succ.paths.len())
                    .filter(|&j| succ.first_occurrence(j))
                    .map(|j| succ.pair(j))
                    .map(|(on, off)| on * n + off)
                    .collect();
                let theirs: Vec<usize> = gen
                    .positions(&pos, dice)
                    .iter()
                    .map(|p| {
                        let to = space.index().rank(p.on_roll()).unwrap() as usize;
                        let them = space.index().rank(p.opponent()).unwrap() as usize;
                        them * n + to
                    })
                    .collect();
                assert_eq!(ours, theirs, "record {r} ({a}, {b}), roll {dice}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn table_reproduces_gnubg_move_lists_1_and_2_checkers() {
        check_all(1, 1);
        check_all(2, 1);
    }

    #[test]
    fn table_reproduces_gnubg_move_lists_3_checkers_sample() {
        check_all(3, 997);
    }
}

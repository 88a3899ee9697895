//! Pairing schemes with a fixed plan: which participants meet in each round of a
//! round-robin cycle (by the circle method) or a gauntlet cycle (packed into rounds),
//! and [`RoundPlan`], the pairs and byes of one round, which Swiss pairing
//! ([`super::swiss`]) produces too.

use crate::tourney::tournament::Kind;

/// The pairs and byes of one round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundPlan {
    /// Who meets whom (the first of each pair is White in game records).
    pub pairs: Vec<[usize; 2]>,
    /// Who sits the round out.
    pub byes: Vec<usize>,
}

/// A round-robin of `p` participants by the circle method: `p − 1` rounds (`p` when
/// `p` is odd, each participant sitting out one of them), everyone meeting everyone
/// once.
pub fn round_robin(p: usize) -> Vec<RoundPlan> {
    // With an odd count a phantom participant `p` joins; meeting it is a bye.
    let n = p + p % 2;
    let turning = n - 1;
    (0..turning)
        .map(|r| {
            let mut plan = RoundPlan::default();
            let mut add = |a: usize, b: usize| {
                if a == p {
                    plan.byes.push(b);
                } else if b == p {
                    plan.byes.push(a);
                } else {
                    plan.pairs.push([a, b]);
                }
            };
            // The fixed participant n−1 meets r, alternately first and second.
            if r % 2 == 0 {
                add(r, n - 1);
            } else {
                add(n - 1, r);
            }
            for k in 1..n / 2 {
                add((r + k) % turning, (r + turning - k) % turning);
            }
            plan
        })
        .collect()
}

/// A gauntlet: each of the first `n` participants meets every other participant once.
/// When the others are at least as many as the gauntlet (`p − n ≥ n`), round `r`
/// pairs gauntlet participant `i` with other `n + (i + r) mod (p − n)`, then a
/// round-robin among the gauntlet follows: `p − 1` rounds (`p` for an odd gauntlet),
/// the fewest possible. Otherwise the pairs are packed into rounds first fit.
pub fn gauntlet(p: usize, n: usize) -> Vec<RoundPlan> {
    let n = n.min(p);
    let others = p - n;
    if n <= others {
        let mut rounds: Vec<RoundPlan> = (0..others)
            .map(|r| RoundPlan {
                pairs: (0..n).map(|i| [i, n + (i + r) % others]).collect(),
                byes: Vec::new(),
            })
            .collect();
        if n >= 2 {
            rounds.extend(round_robin(n).into_iter().map(|r| RoundPlan {
                pairs: r.pairs,
                byes: Vec::new(),
            }));
        }
        return rounds;
    }
    let mut left: Vec<[usize; 2]> = (0..n).flat_map(|i| (i + 1..p).map(move |j| [i, j])).collect();
    let mut rounds = Vec::new();
    while !left.is_empty() {
        let mut busy = vec![false; p];
        let mut plan = RoundPlan::default();
        left.retain(|&[a, b]| {
            if busy[a] || busy[b] {
                return true;
            }
            busy[a] = true;
            busy[b] = true;
            plan.pairs.push([a, b]);
            false
        });
        rounds.push(plan);
    }
    rounds
}

/// The rounds of cycle `cycle` of a round-robin or gauntlet (odd cycles exchange the
/// players of each pair). Swiss rounds depend on results: see [`super::swiss`].
pub fn cycle_plan(kind: Kind, p: usize, cycle: usize) -> Vec<RoundPlan> {
    let mut plan = match kind {
        Kind::RoundRobin => round_robin(p),
        Kind::Gauntlet(n) => gauntlet(p, n),
        Kind::Swiss(_) => Vec::new(),
    };
    if cycle % 2 == 1 {
        for round in &mut plan {
            for pair in &mut round.pairs {
                pair.swap(0, 1);
            }
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Meetings between each two participants; everyone plays at most once a round
    /// (exactly once, counting byes, when `full`).
    fn meetings(p: usize, plan: &[RoundPlan], full: bool) -> Vec<Vec<u32>> {
        let mut m = vec![vec![0; p]; p];
        for round in plan {
            let mut seen = vec![0; p];
            for &[a, b] in &round.pairs {
                m[a][b] += 1;
                m[b][a] += 1;
                seen[a] += 1;
                seen[b] += 1;
            }
            for &b in &round.byes {
                seen[b] += 1;
            }
            assert!(
                seen.iter().all(|&s| s == 1 || (!full && s == 0)),
                "once per round: {round:?}"
            );
        }
        m
    }

    #[test]
    fn round_robin_meets_everyone_once() {
        for p in 2..=9 {
            let plan = round_robin(p);
            assert_eq!(plan.len(), p - 1 + p % 2);
            let m = meetings(p, &plan, true);
            for (a, row) in m.iter().enumerate() {
                for (b, &n) in row.iter().enumerate() {
                    assert_eq!(n, u32::from(a != b), "p={p}: {a} and {b}");
                }
            }
            let byes: usize = plan.iter().map(|r| r.byes.len()).sum();
            assert_eq!(byes, if p % 2 == 1 { p } else { 0 });
        }
    }

    #[test]
    fn gauntlet_pairs_the_first_n_with_all_others() {
        // 5 participants, gauntlet of 2: 0-1..0-4 and 1-2..1-4: 7 pairs.
        let plan = gauntlet(5, 2);
        let m = meetings(5, &plan, false);
        let pairs: usize = plan.iter().map(|r| r.pairs.len()).sum();
        assert_eq!(pairs, 4 + 3);
        for (a, row) in m.iter().enumerate() {
            for (b, &n) in row.iter().enumerate() {
                assert_eq!(n, u32::from(a != b && a.min(b) < 2), "{a} and {b}");
            }
        }
        // Nobody plays twice in a round; each of the gauntlet plays 4 games, in 4 rounds.
        assert_eq!(plan.len(), 4);
        assert_eq!(gauntlet(4, 1).len(), 3);
        // A gauntlet larger than the rest is packed first fit: 4 of 5 against 1.
        let plan = gauntlet(5, 4);
        let m = meetings(5, &plan, false);
        assert!((0..5).all(|a| (0..5).all(|b| m[a][b] == u32::from(a != b))));
    }
}

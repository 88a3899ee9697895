//! Swiss pairing, built in: each round pairs participants of similar scores who have
//! met least often, once the previous round is finished.
//!
//! Participants are ranked by score (net points: points won minus points lost over
//! all finished games), ties broken by a key drawn from the tournament seed and the
//! round number. With an odd count the lowest-ranked of those with the fewest byes
//! sits out (a bye scores nothing). The rest are paired top down: the best-ranked
//! unpaired participant meets the best-ranked one it has not met, backtracking when
//! that leaves others unpairable; when no pairing avoids repeats, the fewest repeats
//! allowed are used (at most one more meeting of any two than before, then two…).

use crate::tourney::pairing::RoundPlan;
use crate::tourney::tournament::{Kind, Tournament};

/// Seed tag of the tie-break keys.
const TIE_BREAK: u64 = 0x5377_6973_7354_6965; // "SwissTie"

/// Search steps tried at one repeat allowance before allowing more repeats.
const MAX_STEPS: u64 = 200_000;

/// The next round of a Swiss tournament (its cycle and plan), if one is due: every
/// round so far is finished and the tournament has rounds left.
pub fn next_round(t: &Tournament) -> Option<(usize, RoundPlan)> {
    let Kind::Swiss(per_cycle) = t.settings.kind else {
        return None;
    };
    let per_cycle = per_cycle as usize;
    let done: usize = t.schedule.iter().map(|c| c.rounds.len()).sum();
    if done >= per_cycle * t.settings.cycles as usize {
        return None;
    }
    if t.games().any(|(_, _, g)| g.result.is_none()) {
        return None;
    }
    let p = t.participants.len();
    let mut scores = vec![0i64; p];
    let mut meetings = vec![vec![0u32; p]; p];
    let mut byes = vec![0u32; p];
    for cycle in &t.schedule {
        for round in &cycle.rounds {
            for &b in &round.byes {
                byes[b] += 1;
            }
            for pairing in &round.pairings {
                let [a, b] = pairing.players;
                meetings[a][b] += 1;
                meetings[b][a] += 1;
                for g in &pairing.games {
                    if let Some(r) = g.result {
                        let w = pairing.players[usize::from(r.winner)];
                        let l = pairing.players[1 - usize::from(r.winner)];
                        scores[w] += i64::from(r.points);
                        scores[l] -= i64::from(r.points);
                    }
                }
            }
        }
    }
    let tiebreak: Vec<u64> = (0..p as u64)
        .map(|i| {
            t.rule()
                .derive(t.settings.seed, TIE_BREAK, (done as u64) << 32 | i)
        })
        .collect();
    Some((done / per_cycle, pair(&scores, &meetings, &byes, &tiebreak)))
}

/// Pairs one round: `scores` rank the participants (ties by ascending `tiebreak`),
/// `meetings[a][b]` counts earlier meetings, `byes[a]` earlier byes.
pub fn pair(scores: &[i64], meetings: &[Vec<u32>], byes: &[u32], tiebreak: &[u64]) -> RoundPlan {
    let p = scores.len();
    let mut ranked: Vec<usize> = (0..p).collect();
    ranked.sort_by_key(|&i| (std::cmp::Reverse(scores[i]), tiebreak[i], i));
    let mut plan = RoundPlan::default();
    if p % 2 == 1 {
        let fewest = ranked.iter().map(|&i| byes[i]).min().unwrap_or(0);
        let k = ranked
            .iter()
            .rposition(|&i| byes[i] == fewest)
            .expect("someone has the fewest");
        plan.byes.push(ranked.remove(k));
    }
    let most = meetings.iter().flatten().copied().max().unwrap_or(0);
    for allowed in 0..=most {
        let mut steps = 0;
        let mut pairs = Vec::new();
        let exhaustive = allowed == most;
        if search(
            &mut ranked.clone(),
            allowed,
            meetings,
            &mut pairs,
            &mut steps,
            exhaustive,
        ) {
            plan.pairs = pairs;
            return plan;
        }
    }
    unreachable!("with every repeat allowed the first candidate always fits")
}

/// Pairs `rest` (in rank order) with at most `allowed` earlier meetings per pair.
fn search(
    rest: &mut Vec<usize>,
    allowed: u32,
    meetings: &[Vec<u32>],
    pairs: &mut Vec<[usize; 2]>,
    steps: &mut u64,
    exhaustive: bool,
) -> bool {
    if rest.is_empty() {
        return true;
    }
    let a = rest.remove(0);
    for k in 0..rest.len() {
        let b = rest[k];
        if meetings[a][b] > allowed {
            continue;
        }
        *steps += 1;
        if *steps > MAX_STEPS && !exhaustive {
            break;
        }
        rest.remove(k);
        pairs.push([a, b]);
        if search(rest, allowed, meetings, pairs, steps, exhaustive) {
            return true;
        }
        pairs.pop();
        rest.insert(k, b);
    }
    rest.insert(0, a);
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(p: usize) -> Vec<Vec<u32>> {
        vec![vec![0; p]; p]
    }

    #[test]
    fn pairs_by_score_with_ties_by_key() {
        // Scores 5, 9, -1, 9: ranking 1, 3 (tie broken by key), 0, 2.
        let plan = pair(&[5, 9, -1, 9], &none(4), &[0; 4], &[0, 7, 0, 3]);
        assert_eq!(plan.pairs, vec![[3, 1], [0, 2]]);
        assert!(plan.byes.is_empty());
    }

    #[test]
    fn avoids_repeats_by_backtracking() {
        // Ranking 0, 1, 2, 3; 0-1 and 2-3 met before, so 0-2 and 1-3.
        let mut m = none(4);
        for (a, b) in [(0, 1), (2, 3)] {
            m[a][b] = 1;
            m[b][a] = 1;
        }
        let plan = pair(&[4, 3, 2, 1], &m, &[0; 4], &[0; 4]);
        assert_eq!(plan.pairs, vec![[0, 2], [1, 3]]);
        // 0 met 1 and 2, and 1-3 met: the only repeat-free pairing is 0-3, 1-2.
        m[0][2] = 1;
        m[2][0] = 1;
        m[1][3] = 1;
        m[3][1] = 1;
        let plan = pair(&[4, 3, 2, 1], &m, &[0; 4], &[0; 4]);
        assert_eq!(plan.pairs, vec![[0, 3], [1, 2]]);
        // Everyone met everyone: repeats allowed, top down.
        let all = vec![vec![1; 4]; 4];
        assert_eq!(
            pair(&[4, 3, 2, 1], &all, &[0; 4], &[0; 4]).pairs,
            vec![[0, 1], [2, 3]]
        );
    }

    #[test]
    fn the_bye_goes_to_the_lowest_ranked_without_one() {
        // Ranking 0, 1, 2; 2 had a bye already, so 1 sits out.
        let plan = pair(&[3, 2, 1], &none(3), &[0, 0, 1], &[0; 3]);
        assert_eq!(plan.byes, vec![1]);
        assert_eq!(plan.pairs, vec![[0, 2]]);
    }
}

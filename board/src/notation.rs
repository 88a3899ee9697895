//! Writing moves as text: the standard notation and gnubg's own style.
//!
//! Both start from a move's steps (one per die: from-point, to-point and whether it
//! hit), in the mover's point numbers: 25 is the bar and 0 is off.
//!
//! **Standard notation** (Tom Keith's 2014 proposal, as bgkit applies it):
//! 1. sort the steps by from-point, highest first, then by to-point, highest first;
//! 2. join the steps of one checker into a chain (`24/18`, `18/13` → `24/18/13`); where
//!    several checkers arrive at a point and one of them goes on, the one that did not
//!    hit goes on, so that the hit stays visible on a short chain;
//! 3. drop the intermediate points of a chain except those where it hit
//!    (`24/18/13` → `24/13`, but `13/7*/5` stays);
//! 4. sort the chains again the same way and write identical ones once with a count
//!    (`24/18(2)`); chains are separated by `, `; `bar`, `off` and `*` as usual.
//!
//! **gnubg style** (what gnubg prints in hint lists and `show board`): the steps are
//! sorted once as above and never again; each step takes in the first later step that
//! starts where it ends; an intermediate point is kept, with `*`, when the opponent had
//! a checker there before the move; a destination gets `*` when the opponent had a
//! checker there and the point has not been marked yet; identical chains get `(n)`;
//! chains are separated by a single space.

use std::fmt::Write;

use crate::movegen::Step;

/// One checker's path after joining steps: its points (first = start, last = end) and
/// which of them (after the first) were hits.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Chain {
    points: Vec<u8>,
    hits: Vec<bool>,
}

fn point_name(out: &mut String, p: u8) {
    match p {
        0 => out.push_str("off"),
        25 => out.push_str("bar"),
        p => {
            let _ = write!(out, "{p}");
        }
    }
}

/// Sorted copy of the steps: from-point descending, then to-point descending; among
/// equal steps the non-hitting ones first (standard notation only uses that).
fn sorted(steps: &[Step]) -> Vec<Step> {
    let mut s = steps.to_vec();
    s.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)).then(a.hit.cmp(&b.hit)));
    s
}

/// Formats steps in standard notation (see the module documentation).
pub fn format_standard(steps: &[Step]) -> String {
    let steps = sorted(steps);
    let mut used = vec![false; steps.len()];
    let mut chains: Vec<Chain> = Vec::new();
    for i in 0..steps.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let mut chain = Chain {
            points: vec![steps[i].from, steps[i].to],
            hits: vec![steps[i].hit],
        };
        let mut end = steps[i].to;
        while end != 0 {
            // The first unused step leaving `end` continues this chain, unless another
            // arrival at `end` that did not hit could take it instead (keeps hits short).
            let Some(j) = (0..steps.len()).find(|&j| !used[j] && steps[j].from == end) else {
                break;
            };
            if *chain.hits.last().unwrap() && has_quiet_arrival(&steps, &used, end) {
                break;
            }
            used[j] = true;
            chain.points.push(steps[j].to);
            chain.hits.push(steps[j].hit);
            end = steps[j].to;
        }
        // Keep only the start, the end and the hit intermediates.
        let n = chain.points.len();
        let mut kept = Chain {
            points: vec![chain.points[0]],
            hits: Vec::new(),
        };
        for k in 1..n {
            if k == n - 1 || chain.hits[k - 1] {
                kept.points.push(chain.points[k]);
                kept.hits.push(chain.hits[k - 1]);
            }
        }
        chains.push(kept);
    }
    chains.sort_by(|a, b| {
        b.points[0]
            .cmp(&a.points[0])
            .then(b.points.last().cmp(&a.points.last()))
            .then(b.hits.cmp(&a.hits))
    });
    let mut out = String::new();
    let mut k = 0;
    while k < chains.len() {
        let count = chains[k..].iter().take_while(|c| **c == chains[k]).count();
        if k > 0 {
            out.push_str(", ");
        }
        write_chain(&mut out, &chains[k], |_, hit| hit);
        if count > 1 {
            let _ = write!(out, "({count})");
        }
        k += count;
    }
    out
}

/// Whether some unused step arrives at `point` without hitting: that checker can be
/// the one that continues, leaving the hitting checker where it hit.
fn has_quiet_arrival(steps: &[Step], used: &[bool], point: u8) -> bool {
    steps
        .iter()
        .zip(used)
        .any(|(s, &u)| !u && s.to == point && !s.hit)
}

fn write_chain(out: &mut String, chain: &Chain, mut star: impl FnMut(u8, bool) -> bool) {
    point_name(out, chain.points[0]);
    for (k, &p) in chain.points.iter().enumerate().skip(1) {
        out.push('/');
        point_name(out, p);
        if star(p, chain.hits[k - 1]) {
            out.push('*');
        }
    }
}

/// Formats steps the way gnubg's `FormatMove` does (see the module documentation).
///
/// `hit_points` tells which points held an opposing checker before the move; gnubg
/// judges hits by that. It is derived from the steps' hit flags: the first step to
/// land on a point held by a blot is the one that hits.
pub fn format_gnubg(steps: &[Step]) -> String {
    let mut held = [false; 26];
    for s in steps.iter().filter(|s| s.hit) {
        held[s.to as usize] = true;
    }
    let mut s = steps.to_vec();
    s.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
    let mut used = vec![false; s.len()];
    let mut chains: Vec<Chain> = Vec::new();
    for i in 0..s.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let mut points = vec![s[i].from, s[i].to];
        for j in i + 1..s.len() {
            let end = *points.last().unwrap();
            if !used[j] && s[j].from == end && end != 0 {
                used[j] = true;
                if !held[end as usize] {
                    points.pop();
                }
                points.push(s[j].to);
            }
        }
        let hits = vec![true; points.len() - 1];
        chains.push(Chain { points, hits });
    }
    let mut out = String::new();
    let mut marked = [false; 26];
    let mut done = vec![false; chains.len()];
    for i in 0..chains.len() {
        if done[i] {
            continue;
        }
        let mut count = 1;
        for j in i + 1..chains.len() {
            if !done[j] && chains[j].points == chains[i].points {
                done[j] = true;
                count += 1;
            }
        }
        if !out.is_empty() {
            out.push(' ');
        }
        let last = chains[i].points.len() - 1;
        let mut k = 0;
        write_chain(&mut out, &chains[i], |p, _| {
            k += 1;
            let p = p as usize;
            // Intermediates are kept only where a blot stood, and always starred.
            let star = if k < last {
                true
            } else {
                p != 0 && held[p] && !marked[p]
            };
            if held[p] {
                marked[p] = true;
            }
            star
        });
        if count > 1 {
            let _ = write!(out, "({count})");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps from text like "24/22 22/20* 20/18" (simple moves only).
    fn steps(text: &str) -> Vec<Step> {
        text.split([',', ' '])
            .filter(|t| !t.is_empty())
            .map(|t| {
                let hit = t.ends_with('*');
                let (a, b) = t.trim_end_matches('*').split_once('/').unwrap();
                let p = |x: &str| match x {
                    "bar" => 25,
                    "off" => 0,
                    n => n.parse().unwrap(),
                };
                Step {
                    from: p(a),
                    to: p(b),
                    hit,
                }
            })
            .collect()
    }

    /// The examples of the reference (ids-notation-records.md §4.1).
    #[test]
    fn standard_notation_reference_examples() {
        let cases = [
            ("24/18 18/13", "24/13"),
            ("13/7* 7/5", "13/7*/5"),
            ("24/18 24/18 13/7 13/7", "24/18(2), 13/7(2)"),
            ("2/off 2/off 2/off 1/off", "2/off(3), 1/off"),
            ("20/18 bar/20", "bar/18"),
            ("6/5* 6/5 5/3", "6/5*, 6/3"),
            ("24/22 22/20* 20/18 18/16", "24/20*/16"),
            ("8/5 6/5", "8/5, 6/5"),
            ("bar/22* 13/11", "bar/22*, 13/11"),
        ];
        for (input, want) in cases {
            assert_eq!(format_standard(&steps(input)), want, "{input}");
        }
    }

    /// gnubg's style, checked against strings gnubg 1.07 printed (fixture best moves
    /// and the reference's `6/5*/3 6/5`).
    #[test]
    fn gnubg_style_examples() {
        let cases = [
            ("24/18 24/18 13/7 13/7", "24/18(2) 13/7(2)"),
            ("6/5* 6/5 5/3", "6/5*/3 6/5"),
            ("bar/22* 13/11", "bar/22* 13/11"),
            ("8/5 6/5", "8/5 6/5"),
            ("24/18 18/13", "24/13"),
            ("6/off", "6/off"),
            ("13/7* 7/5", "13/7*/5"),
        ];
        for (input, want) in cases {
            assert_eq!(format_gnubg(&steps(input)), want, "{input}");
        }
    }
}

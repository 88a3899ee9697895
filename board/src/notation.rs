//! Writing moves as text: the standard notation and gnubg's own style.
//!
//! Both start from a move's steps (one per die: from-point, to-point and whether it
//! hit), in the mover's point numbers: 25 is the bar and 0 is off.
//!
//! **Standard notation** (Tom Keith's revised proposal of September 2014, as its table
//! of test plays applies it). A hit belongs to a point, not to a step: the play is read
//! as its steps plus the set of points where a blot was hit.
//! 1. Sort the steps by from-point, highest first, then by to-point, highest first.
//! 2. Chain them without looking at hits: each step, in that order, takes in the first
//!    later unused step that starts where it ends, again and again
//!    (`24/18`, `18/13` → `24/18/13`).
//! 3. Sort the chains the same way (start, then end, both highest first; ties keep their
//!    order) and write identical chains once with a count (`24/18(2)`).
//! 4. Mark each hit point with `*` once, at its first appearance in the written play,
//!    whether it is a destination or an intermediate point there; drop every
//!    intermediate point without a mark (`24/18/13` → `24/13`, `13/7/5` → `13/7*/5` when
//!    7 was hit, `6/5, 6/5/3` → `6/5*, 6/3` when 5 was hit).
//!
//! Chains are separated by `, `; the bar and off are written `bar` and `off`.
//!
//! **gnubg style** (what gnubg prints in hint lists and `show board`): the steps are
//! sorted once as above and never again; each step takes in the first later step that
//! starts where it ends; an intermediate point is kept, with `*`, when the opponent had
//! a checker there before the move; a destination gets `*` when the opponent had a
//! checker there and the point has not been marked yet; identical chains get `(n)`;
//! chains are separated by a single space.

use std::fmt::Write;

use crate::step::Step;

/// One checker's path after joining steps: its points (first = start, last = end) and
/// which of them (after the first) are written with `*`.
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

/// Sorted copy of the steps: from-point descending, then to-point descending.
fn sorted(steps: &[Step]) -> Vec<Step> {
    let mut s = steps.to_vec();
    s.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
    s
}

/// Formats steps in standard notation (see the module documentation).
pub fn format_standard(steps: &[Step]) -> String {
    let mut hit_point = [false; 26];
    for s in steps.iter().filter(|s| s.hit) {
        hit_point[s.to as usize] = true;
    }
    // 2. Chains of points, built from the sorted steps.
    let steps = sorted(steps);
    let mut used = vec![false; steps.len()];
    let mut chains: Vec<Vec<u8>> = Vec::new();
    for i in 0..steps.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let mut points = vec![steps[i].from, steps[i].to];
        let mut end = steps[i].to;
        // Every step leaving `end` sorts after the steps already in this chain, so the
        // first unused one is the first later one.
        while let Some(j) = (0..steps.len()).find(|&j| !used[j] && steps[j].from == end) {
            used[j] = true;
            end = steps[j].to;
            points.push(end);
        }
        chains.push(points);
    }
    // 3. Sorted by start, then end (a stable sort keeps ties in order); identical
    // chains are counted at their first place.
    chains.sort_by(|a, b| b[0].cmp(&a[0]).then(b.last().cmp(&a.last())));
    let mut groups: Vec<(Vec<u8>, usize)> = Vec::new();
    for c in chains {
        match groups.iter_mut().find(|(g, _)| *g == c) {
            Some((_, n)) => *n += 1,
            None => groups.push((c, 1)),
        }
    }
    // 4. Hit points marked at their first appearance; unmarked intermediates dropped.
    let mut marked = [false; 26];
    let mut out = String::new();
    for (points, count) in &groups {
        let last = points.len() - 1;
        let mut kept = Chain {
            points: vec![points[0]],
            hits: Vec::new(),
        };
        for (k, &p) in points.iter().enumerate().skip(1) {
            let star = hit_point[p as usize] && !marked[p as usize];
            marked[p as usize] |= star;
            if star || k == last {
                kept.points.push(p);
                kept.hits.push(star);
            }
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        write_chain(&mut out, &kept, |_, hit| hit);
        if *count > 1 {
            let _ = write!(out, "({count})");
        }
    }
    out
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
    let s = sorted(steps);
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

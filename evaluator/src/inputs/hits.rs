//! Shots: the ways each roll can hit a blot, for the PIPLOSS, P1 and P2 features.
//!
//! A *way* is one use of a roll that covers a distance: a single die (shared by every
//! roll showing that number), both dice of a non-double (either order, so either
//! intermediate point may be used), or 2, 3 or 4 steps of a double (all intermediate
//! points needed). Each roll lists its ways in a fixed order: for a non-double the
//! smaller die, the larger die, then both; for a double one step, two, three, four.

use std::sync::OnceLock;

/// One way to travel a distance with (part of) a roll.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Way {
    /// Every intermediate point is needed (doubles); otherwise one of two suffices.
    pub all: bool,
    /// Intermediate distances (0-terminated).
    pub inter: [u8; 3],
    /// The intermediate distances as a bit mask (bit d for distance d).
    pub inter_mask: u32,
    /// Dice used.
    pub faces: u8,
    /// Distance covered.
    pub pips: u8,
}

/// Ways per distance and per roll, in fixed arrays.
pub(crate) struct Shots {
    pub ways: [Way; 39],
    /// Ways covering each distance 1..=24 (index distance - 1): ids and count.
    pub by_distance: [([u8; 5], u8); 24],
    /// The 21 rolls in gnubg's order (11, 22, .. 66, 21, 31, 32, .. 65): their ways and
    /// count.
    pub by_roll: [([u8; 4], u8); 21],
}

impl Shots {
    pub fn is_double(&self, roll: usize) -> bool {
        roll < 6
    }
}

pub(crate) fn shots() -> &'static Shots {
    static SHOTS: OnceLock<Shots> = OnceLock::new();
    SHOTS.get_or_init(|| {
        let mut ways: Vec<Way> = (1..=6u8)
            .map(|d| Way {
                all: true,
                faces: 1,
                pips: d,
                ..Way::default()
            })
            .collect();
        let mut by_roll = Vec::new();
        for d in 1..=6u8 {
            let mut list = vec![usize::from(d) - 1];
            for steps in 2..=4u8 {
                let mut inter = [0u8; 3];
                for k in 1..steps {
                    inter[usize::from(k) - 1] = d * k;
                }
                list.push(ways.len());
                ways.push(Way {
                    all: true,
                    inter,
                    inter_mask: 0,
                    faces: steps,
                    pips: d * steps,
                });
            }
            by_roll.push(list);
        }
        for big in 2..=6u8 {
            for small in 1..big {
                by_roll.push(vec![usize::from(small) - 1, usize::from(big) - 1, ways.len()]);
                ways.push(Way {
                    all: false,
                    inter: [small, big, 0],
                    inter_mask: 0,
                    faces: 2,
                    pips: small + big,
                });
            }
        }
        for w in &mut ways {
            w.inter_mask = w.inter.iter().filter(|&&d| d > 0).fold(0, |m, &d| m | 1 << d);
        }
        let mut shots = Shots {
            ways: ways.clone().try_into().expect("39 ways"),
            by_distance: [([0; 5], 0); 24],
            by_roll: [([0; 4], 0); 21],
        };
        for (k, w) in ways.iter().enumerate() {
            let (ids, n) = &mut shots.by_distance[usize::from(w.pips) - 1];
            ids[usize::from(*n)] = k as u8;
            *n += 1;
        }
        for (r, list) in by_roll.iter().enumerate() {
            for (i, &w) in list.iter().enumerate() {
                shots.by_roll[r].0[i] = w as u8;
            }
            shots.by_roll[r].1 = list.len() as u8;
        }
        shots
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_roll_and_distance_is_covered_as_dice_allow() {
        let s = shots();
        // Distances no roll can cover.
        for d in [13, 14, 17, 19, 21, 22, 23] {
            assert_eq!(s.by_distance[d - 1].1, 0, "{d}");
        }
        // 6 is covered by 6x, 5-1, 4-2, 3-3 and 2-2 (three steps).
        assert_eq!(s.by_distance[5].1, 5);
        assert_eq!(s.by_distance[23].1, 1);
        assert_eq!(
            s.by_roll.iter().map(|r| usize::from(r.1)).sum::<usize>(),
            6 * 4 + 15 * 3
        );
    }
}

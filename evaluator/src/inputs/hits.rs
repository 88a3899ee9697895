//! Shots: the ways each roll can hit a blot, for the PIPLOSS, P1 and P2 features.
//!
//! A *way* is one use of a roll that covers a distance: a single die (shared by every
//! roll showing that number), both dice of a non-double (either order, so either
//! intermediate point may be used), or 2, 3 or 4 steps of a double (all intermediate
//! points needed). Each roll lists its ways in a fixed order: for a non-double the
//! smaller die, the larger die, then both; for a double one step, two, three, four.

use std::sync::OnceLock;

/// One way to travel a distance with (part of) a roll.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Way {
    /// Every intermediate point is needed (doubles); otherwise one of two suffices.
    pub all: bool,
    /// Intermediate distances (0-terminated).
    pub inter: [u8; 3],
    /// Dice used.
    pub faces: u8,
    /// Distance covered.
    pub pips: u8,
}

pub(crate) struct Shots {
    pub ways: Vec<Way>,
    /// Ways covering each distance 1..=24 (index distance - 1).
    pub by_distance: Vec<Vec<usize>>,
    /// The 21 rolls in gnubg's order (11, 22, .. 66, 21, 31, 32, .. 65): their ways.
    pub by_roll: Vec<Vec<usize>>,
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
                inter: [0; 3],
                faces: 1,
                pips: d,
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
                    faces: 2,
                    pips: small + big,
                });
            }
        }
        let mut by_distance = vec![Vec::new(); 24];
        for (k, w) in ways.iter().enumerate() {
            by_distance[usize::from(w.pips) - 1].push(k);
        }
        Shots {
            ways,
            by_distance,
            by_roll,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_roll_and_distance_is_covered_as_dice_allow() {
        let s = shots();
        assert_eq!(s.ways.len(), 39);
        assert_eq!(s.by_roll.len(), 21);
        // Distances no roll can cover.
        for d in [13, 14, 17, 19, 21, 22, 23] {
            assert!(s.by_distance[d - 1].is_empty(), "{d}");
        }
        // 6 is covered by 6x, 5-1, 4-2, 3-3 and 2-2 (three steps).
        assert_eq!(s.by_distance[5].len(), 5);
        assert_eq!(s.by_distance[23].len(), 1);
    }
}

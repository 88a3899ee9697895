//! Which positions a run trains and validates on, and in what order: the validation
//! split and each epoch's order, both drawn from the run's seed (Fisher–Yates with
//! SplitMix64), so that a run and its resumption see the same positions in the same
//! order.

use board::seed::SplitMix;

use crate::seed;

/// Seed tag of the validation split.
const SPLIT: u64 = 101;
/// Seed tag of the epochs' orders.
const EPOCH: u64 = 102;

/// Fisher–Yates with SplitMix64.
pub fn shuffle(v: &mut [u32], seed: u64) {
    let mut rng = SplitMix::new(seed);
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// The validation and training positions of `n`, by the seed.
pub fn split(n: usize, fraction: f64, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut order: Vec<u32> = (0..n as u32).collect();
    shuffle(&mut order, seed::derive(seed, SPLIT, 0));
    let mut k = (n as f64 * fraction).round() as usize;
    if fraction > 0.0 && n >= 2 {
        k = k.clamp(1, n - 1);
    }
    let mut val = order[..k].to_vec();
    let mut train = order[k..].to_vec();
    val.sort_unstable();
    train.sort_unstable();
    (val, train)
}

/// The training positions `train` in the order of epoch `epoch` (0-based).
pub fn epoch(train: &[u32], seed: u64, epoch: u32) -> Vec<u32> {
    let mut order = train.to_vec();
    shuffle(&mut order, seed::derive(seed, EPOCH, u64::from(epoch)));
    order
}

//! An optional evaluation cache: a direct-mapped table per thread, keyed by the
//! position and the evaluator, holding 0-ply results. Results are deterministic, so
//! the cache changes speed only, never numbers.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use board::Position;

use crate::class::PositionClass;
use crate::probabilities::Probabilities;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh identifier for an evaluator (so that two evaluators never share entries).
pub(crate) fn new_owner_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

#[derive(Clone, Copy)]
struct Entry {
    tag: u128,
    value: Probabilities,
    class: PositionClass,
}

thread_local! {
    static TABLE: RefCell<Vec<Option<Entry>>> = const { RefCell::new(Vec::new()) };
}

fn tag(owner: u64, pos: &Position) -> u128 {
    let mut k = [0u8; 16];
    k[..10].copy_from_slice(&pos.key());
    u128::from_le_bytes(k) | (u128::from(owner) << 80)
}

fn slot(tag: u128, bits: u32) -> usize {
    let h = (tag as u64) ^ ((tag >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> (64 - bits)) as usize
}

/// Looks up a cached 0-ply result.
pub(crate) fn get(owner: u64, bits: u32, pos: &Position) -> Option<(Probabilities, PositionClass)> {
    let t = tag(owner, pos);
    TABLE.with(|table| {
        let table = table.borrow();
        let e = table.get(slot(t, bits)).copied().flatten()?;
        (e.tag == t).then_some((e.value, e.class))
    })
}

/// Stores a 0-ply result (replacing whatever occupied the slot).
pub(crate) fn put(owner: u64, bits: u32, pos: &Position, value: Probabilities, class: PositionClass) {
    let t = tag(owner, pos);
    TABLE.with(|table| {
        let mut table = table.borrow_mut();
        if table.len() != 1 << bits {
            *table = vec![None; 1 << bits];
        }
        let s = slot(t, bits);
        table[s] = Some(Entry { tag: t, value, class });
    });
}

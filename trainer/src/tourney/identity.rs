//! Whether a tourney worker's claim is abandoned (the process identity itself,
//! [`WorkerId`], is fileio's, shared with the other claim files of bgkit).

use crate::tourney::tournament::Claim;

pub use fileio::identity::{hostname, now, WorkerId};

/// Whether `claim` belongs to a worker that is gone, seen from process `me` at time
/// `now`: a process of this host that has exited at once, one of another host when its
/// claim is older than `stale_after_s`.
pub fn is_abandoned(me: &WorkerId, claim: &Claim, now: u64, stale_after_s: u64) -> bool {
    match me.is_gone(&claim.host, claim.pid, claim.start) {
        Some(gone) => gone,
        None => now.saturating_sub(claim.since) > stale_after_s,
    }
}

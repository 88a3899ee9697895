//! The 25 hand-crafted features per side of gnubg's contact and crashed nets
//! (indices 3..25 here; 0..3, the borne-off inputs, are written by the caller).

use super::escapes::tables;
use super::hits::shots;
use super::FEATURES;
use crate::simd::{beyond, side_sums, slot_masks, SideSums, SlotMasks};
use crate::simd::{EscapeSums, ShotMasks};

const BREAK_CONTACT: usize = 3;
const BACK_CHEQUER: usize = 4;
const BACK_ANCHOR: usize = 5;
const FORWARD_ANCHOR: usize = 6;
const PIPLOSS: usize = 7;
const P1: usize = 8;
const P2: usize = 9;
const BACKESCAPES: usize = 10;
const ACONTAIN: usize = 11;
const ACONTAIN2: usize = 12;
const CONTAIN: usize = 13;
const CONTAIN2: usize = 14;
const MOBILITY: usize = 15;
const MOMENT2: usize = 16;
const ENTER: usize = 17;
const ENTER2: usize = 18;
const TIMING: usize = 19;
const BACKBONE: usize = 20;
const BACKG: usize = 21;
const BACKG1: usize = 22;
const FREEPIP: usize = 23;
const BACKRESCAPES: usize = 24;

/// `n / divisor` as gnubg's `-ffast-math` build computes it: `n` times the `f32`
/// reciprocal of the divisor (GCC's reciprocal-math), which can differ from a true
/// division in the last bit.
#[inline]
fn scaled(n: i32, divisor: f32) -> f32 {
    n as f32 * (1.0 / divisor)
}

/// Computes features 3..25 of `me` measured against `opp` (both in their own
/// numbering) into `out[3..25]`.
///
/// Positions: `opp_back` is the opponent's rearmost checker converted to our numbering
/// (23 − its index; −1 when it is on the bar). The features are, in order:
/// pips needed to break contact; our rearmost checker; our rearmost anchor; our most
/// advanced anchor in the opponent's home (or outfield); the pips the opponent loses
/// to our shots, and the rolls hitting one and two checkers; escape numbers of the
/// opponent's back checker past our points; containment; our mobility; the second
/// moment of our checkers beyond their mean; our entering losses from the bar and the
/// chance of dancing; timing; how well our points connect (backbone); back-game
/// structure; pips of checkers already past all opposition; and an escape variant.
///
/// `fixed_pip_loss`: weights 1.01 count a home point as "made" for the hitting
/// heuristic only with two or more checkers; weights up to 1.00 with any checker.
pub fn contact_features(me: &[u8; 25], opp: &[u8; 25], fixed_pip_loss: bool, out: &mut [f32]) {
    let out = (&mut out[..FEATURES]).try_into().expect("25 features");
    features(me, opp, &slot_masks(me), &slot_masks(opp), fixed_pip_loss, out);
}

/// The features of both sides: `out[..25]` for `me` against `opp`, `out[25..50]` for
/// `opp` against `me` (each side's slot masks computed once).
pub fn contact_feature_pair(me: &[u8; 25], opp: &[u8; 25], fixed_pip_loss: bool, out: &mut [f32]) {
    let (mm, om) = (slot_masks(me), slot_masks(opp));
    let (mine, theirs) = out[..2 * FEATURES].split_at_mut(FEATURES);
    let (mine, theirs) = (mine.try_into().expect("25"), theirs.try_into().expect("25"));
    features(me, opp, &mm, &om, fixed_pip_loss, mine);
    features(opp, me, &om, &mm, fixed_pip_loss, theirs);
}

/// Highest set bit, or -1 for none.
#[inline]
fn msb(x: u32) -> i32 {
    31 - x.leading_zeros() as i32
}

/// Bits lo..=hi (none when hi < lo).
#[inline]
fn bits(lo: i32, hi: i32) -> u32 {
    if hi < lo {
        0
    } else {
        ((1u64 << (hi + 1)) - (1u64 << lo)) as u32
    }
}

/// Slot masks of the opponent seen from our side: bit x is its slot 23 − x (x < 24).
#[inline]
fn reversed(x: u32) -> u32 {
    (x & 0xff_ffff).reverse_bits() >> 8
}

/// [`contact_features`] given both sides' slot masks.
fn features(
    me: &[u8; 25],
    opp: &[u8; 25],
    mm: &SlotMasks,
    om: &SlotMasks,
    fixed_pip_loss: bool,
    out: &mut [f32; FEATURES],
) {
    // The opponent's rearmost checker in our numbering (24 if it has none).
    let opp_back = 23 - om.rearmost();

    // Pips to break contact (checkers beyond the opponent's rearmost, measured from it)
    // and pips of checkers already past it; timing.
    let sums = side_sums(me, opp_back, opp_back.max(11));
    out[BREAK_CONTACT] = scaled(sums.contact, 15.0 + 152.0);
    out[FREEPIP] = scaled(sums.free, 100.0);
    out[TIMING] = scaled(timing(me, &sums), 100.0);

    // Mobility and containment, from the escape counts of our checkers' slots.
    let (my_made, opp_made) = (mm.made, om.made);
    let esc = tables();
    let near_end = (24 - opp_back).min(25);
    let e = crate::simd::escape_sums(esc.escape_table(), me, my_made, opp_made, near_end)
        .unwrap_or_else(|| escape_sums_scalar(me, mm, opp_made, near_end));

    // Features of our checkers alone (the same for every move of the other side).
    let own = own_features(me, mm, &sums, e.worst_all);
    for (k, v) in OWN.iter().zip(own) {
        out[*k] = v;
    }

    let (pips, one, two) = shot_counts(me, opp, mm, om, fixed_pip_loss);
    out[PIPLOSS] = scaled(pips, 12.0 * 36.0);
    out[P1] = scaled(one, 36.0);
    out[P2] = scaled(two, 36.0);

    out[BACKESCAPES] = scaled(esc.escapes(my_made, 23 - opp_back), 36.0);
    out[BACKRESCAPES] = scaled(esc.escapes_past_first(my_made, 23 - opp_back), 36.0);

    // Containment up to the opponent's rearmost checker (up to the bar when it is
    // there): the fewest escaping rolls for a checker on our 9-point or further.
    out[ACONTAIN] = scaled(36 - e.worst_near, 36.0);
    out[ACONTAIN2] = out[ACONTAIN] * out[ACONTAIN];
    let mobility = e.mobility;
    out[MOBILITY] = scaled(mobility, 3600.0);

    out[ENTER] = if me[24] > 0 {
        let home = (om.made & 0x3f) as usize;
        scaled(ENTER_LOSS[usize::from(me[24] > 1)][home], 36.0 * (49.0 / 6.0))
    } else {
        0.0
    };
    let closed = (om.made & 0x3f).count_ones() as i32;
    out[ENTER2] = scaled(36 - (closed - 6) * (closed - 6), 36.0);
}

/// Mobility and containment in portable code (see [`crate::simd::EscapeSums`]):
/// mobility weighs our checkers beyond our 6-point by distance and by the rolls
/// escaping the opponent's points in front of them; containment is the fewest rolls
/// escaping our points from our 9-point on, up to `near_end` and over 15..=23.
fn escape_sums_scalar(me: &[u8; 25], mm: &SlotMasks, opp_made: u32, near_end: i32) -> EscapeSums {
    let esc = tables();
    let mut mobility = 0;
    let mut rest = mm.any & !0x3f;
    while rest != 0 {
        let i = rest.trailing_zeros() as i32;
        rest &= rest - 1;
        mobility += (i - 5) * i32::from(me[i as usize]) * esc.escapes(opp_made, i);
    }
    let worst = |end: i32| (15..end).map(|i| esc.escapes(mm.made, i)).min().unwrap_or(36);
    EscapeSums {
        mobility,
        worst_near: worst(near_end),
        worst_all: worst(24),
    }
}

/// Pips lost entering from the bar, summed over the 36 rolls, by the opponent's made
/// home points (bit i: its slot i) and whether we have two or more on the bar: a roll
/// whose die i + 1 is blocked loses 4·(i + 1) pips for a double, and for a non-double
/// with a die j + 1 the pips of both dice if both are blocked, else (with two on the
/// bar) those of the blocked one.
const ENTER_LOSS: [[i32; 64]; 2] = {
    let mut t = [[0i32; 64]; 2];
    let mut two = 0;
    while two < 2 {
        let mut made = 0;
        while made < 64 {
            let mut loss = 0i32;
            let mut i: i32 = 0;
            while i < 6 {
                let mut j = i + 1;
                if made & (1 << i) != 0 {
                    loss += 4 * (i + 1);
                    while j < 6 {
                        if made & (1 << j) != 0 {
                            loss += 2 * (i + j + 2);
                        } else if two == 1 {
                            loss += 2 * (i + 1);
                        }
                        j += 1;
                    }
                } else if two == 1 {
                    while j < 6 {
                        if made & (1 << j) != 0 {
                            loss += 2 * (j + 1);
                        }
                        j += 1;
                    }
                }
                i += 1;
            }
            t[two][made] = loss;
            made += 1;
        }
        two += 1;
    }
    t
};

/// The features that depend on our checkers alone, in the order of [`OWN`].
const OWN: [usize; 9] = [
    BACK_CHEQUER,
    BACK_ANCHOR,
    FORWARD_ANCHOR,
    MOMENT2,
    BACKBONE,
    BACKG,
    BACKG1,
    CONTAIN,
    CONTAIN2,
];

/// [`OWN`] features of a side, remembered for the last two sides seen on this thread:
/// evaluating the moves of one side meets the other side's unchanged checkers again
/// and again.
fn own_features(me: &[u8; 25], mm: &SlotMasks, sums: &SideSums, worst_all: i32) -> [f32; 9] {
    /// Two sides and their values, and which entry to replace next (the one used less
    /// recently). Checked and updated in place: copying the whole memo in and out made
    /// the next lookup wait on those stores.
    struct Seen {
        sides: [[u8; 25]; 2],
        values: [[f32; 9]; 2],
        older: usize,
    }
    thread_local! {
        // Initially the empty side with its own (correct) values (no made point:
        // every roll escapes, 36).
        static SEEN: std::cell::RefCell<Seen> = std::cell::RefCell::new(Seen {
            sides: [[0; 25]; 2],
            values: [own_uncached(&[0; 25], &slot_masks(&[0; 25]), 0, 0, 36); 2],
            older: 0,
        });
    }
    SEEN.with_borrow_mut(|seen| match seen.sides.iter().position(|s| s == me) {
        Some(k) => {
            seen.older = 1 - k;
            seen.values[k]
        }
        None => {
            // The fresh values are returned as computed: read back from the memo just
            // written, their loads spanned the stores and waited on them.
            let k = seen.older;
            let values = own_uncached(me, mm, sums.total, sums.moment1, worst_all);
            seen.sides[k] = *me;
            seen.values[k] = values;
            seen.older = 1 - k;
            values
        }
    })
}

/// [`own_features`] computed.
fn own_uncached(me: &[u8; 25], mm: &SlotMasks, total: i32, moment1: i32, worst_all: i32) -> [f32; 9] {
    let back = mm.rearmost();
    let anchor_top = if back == 24 { 23 } else { back };
    let anchor = msb(mm.made & bits(0, anchor_top));
    let deep = mm.made & bits(18, anchor);
    let outfield = mm.made & bits(12, 17);
    let forward = if deep != 0 {
        24 - deep.trailing_zeros() as i32
    } else if outfield != 0 {
        24 - msb(outfield)
    } else {
        0
    };

    // Second moment of the checkers beyond their (rounded-up) mean.
    let mut mean = moment1;
    if total > 0 {
        mean = (mean + total - 1) / total;
    }
    let (count, mut moment) = beyond(me, mean);
    if count > 0 {
        moment = (moment + count - 1) / count;
    }

    let anchors = (mm.made & bits(18, 23)).count_ones();
    let (mut backg, mut backg1) = (0.0, 0.0);
    if anchors >= 1 {
        let tot: u32 = (18..25).map(|i| u32::from(me[i])).sum();
        if anchors > 1 {
            backg = tot.wrapping_sub(3) as f32 / 4.0;
        } else {
            backg1 = scaled(tot as i32, 8.0);
        }
    }

    // Containment over the whole stretch 15..=23 (from our 9-point to the ace point).
    let contain = scaled(36 - worst_all, 36.0);

    [
        scaled(back, 24.0),
        scaled(anchor, 24.0),
        if forward == 0 { 2.0 } else { scaled(forward, 6.0) },
        scaled(moment, 400.0),
        backbone(me, mm.made),
        backg,
        backg1,
        contain,
        contain * contain,
    ]
}

/// gnubg's timing count: pips that can be played before the home board breaks. The
/// sums beyond the home board come from [`side_sums`]; home points then take spare
/// checkers (from the highest point down) to keep two each.
fn timing(me: &[u8; 25], sums: &SideSums) -> i32 {
    let m = |i: usize| i32::from(me[i]);
    let (mut t, mut spare) = (sums.timing, sums.spare);
    // Without branches (the counts make them unpredictable): a point gives its checkers
    // beyond two, or takes what it lacks if the spares cover it (a point holding two
    // or more lacks nothing, so that step changes nothing there).
    for i in (0..6).rev() {
        let c = m(i as usize);
        let (extra, need) = ((c - 2).max(0), (2 - c).max(0));
        t += i * extra;
        spare += extra;
        let taken = need * i32::from(spare >= need);
        t -= i * taken;
        spare -= taken;
    }
    t.max(0)
}

/// How well our made points connect: gaps from the rearmost made point (slots 1..=23)
/// to each other one, weighted by the checkers on the rearmost.
fn backbone(me: &[u8; 25], made: u32) -> f32 {
    let points = made & bits(1, 23);
    if points == 0 {
        return 0.0;
    }
    let a = msb(points);
    let rest = points & !(1 << a);
    // A point d pips in front of the rearmost counts 11 up to 6 pips, 13 − d from 7 to
    // 11, nothing beyond. Bit j of `window` is slot a − 11 + j (d = 11 − j; no slot
    // below 0 since the shift brings in zeros): two table lookups, no branches.
    let window = ((u64::from(rest) << 11) >> a) & 0x7ff;
    let gaps = BACKBONE_FAR[(window & 0x1f) as usize] + 11 * (window >> 5).count_ones() as i32;
    let others = rest.count_ones() as i32;
    let (w, tot) = (
        gaps * i32::from(me[a as usize]),
        others * i32::from(me[a as usize]),
    );
    if tot > 0 {
        // gnubg writes 1 − w / (11·tot); its reciprocal-math build computes
        // (w · f32(1/11)) / tot, which differs from the written form in the last bit for
        // about a quarter of the (w, tot) pairs (read off its compiled code).
        1.0 - scaled(w, 11.0) / tot as f32
    } else {
        0.0
    }
}

/// [`backbone`]'s weights of the points 7..=11 pips in front of the rearmost made
/// point, summed for each set of them (bit j: d = 11 − j, weight 13 − d).
const BACKBONE_FAR: [i32; 32] = {
    let mut t = [0i32; 32];
    let mut set = 0;
    while set < 32 {
        let mut j = 0;
        while j < 5 {
            if set & (1 << j) != 0 {
                t[set] += 2 + j;
            }
            j += 1;
        }
        set += 1;
    }
    t
};

/// Shots at the opponent's blots: (pips lost summed over the 36 rolls, rolls hitting
/// at least one checker, rolls hitting two).
fn shot_counts(
    me: &[u8; 25],
    opp: &[u8; 25],
    mm: &SlotMasks,
    om: &SlotMasks,
    fixed_pip_loss: bool,
) -> (i32, i32, i32) {
    let masks = shot_masks(me, mm, om, fixed_pip_loss);
    if masks.targets == 0 {
        // No blot to hit: common in games between good players.
        return (0, 0, 0);
    }
    if let Some(counts) = crate::simd::shot_count(masks) {
        return counts;
    }
    shot_counts_scalar(&masks, me, opp)
}

/// The bit masks (our numbering, bit x: our slot x) the shot count works on.
fn shot_masks(me: &[u8; 25], mm: &SlotMasks, om: &SlotMasks, fixed_pip_loss: bool) -> ShotMasks {
    let home = if fixed_pip_loss { mm.made } else { mm.any } & 0x3f;
    // The opponent's blots we would consider hitting: on a weak board not those on our
    // ace and deuce points.
    let lowest = if home.count_ones() > 2 { 0 } else { 2 };
    let blots = reversed(om.one);
    ShotMasks {
        // Our checkers that may hit: not a home point with exactly two (never broken).
        hitters: mm.any & !(mm.two & 0x3f),
        targets: blots & !((1u32 << lowest) - 1),
        blots,
        blocks: reversed(om.made),
        spares: mm.made,
        bar: u32::from(me[24]),
        entry_blocks: om.made & 0xff_ffff,
        entry_blots: om.one & 0xff_ffff,
    }
}

/// The shot count in portable code (any checkers on the bar).
fn shot_counts_scalar(m: &ShotMasks, me: &[u8; 25], opp: &[u8; 25]) -> (i32, i32, i32) {
    let s = shots();
    // hit_from[way]: our points from which that way hits some blot: a hitter `pips`
    // ahead of a blot, with the intermediate points open (all of them, or one of the
    // two for a non-double).
    let hit_from = hit_masks(s, m.hitters, m.targets, m.blocks);
    if hit_from.iter().all(|&m| m == 0) {
        return (0, 0, 0);
    }
    roll_shots(s, &hit_from, me, opp)
}

/// Per way of travelling, the bit mask of our points from which it hits a blot.
fn hit_masks(s: &super::hits::Shots, hitters: u32, blots: u32, made: u32) -> [u32; 39] {
    let mut hit_from = [0u32; 39];
    for (w, way) in s.ways.iter().enumerate() {
        let d = u32::from(way.pips);
        let mut from = hitters & (blots << d) & 0x1ff_ffff;
        if from == 0 || way.faces == 1 {
            hit_from[w] = from;
            continue;
        }
        let blocked = |m: u8| made << (d - u32::from(m));
        if way.all {
            for &m in way.inter.iter().take_while(|&&m| m > 0) {
                from &= !blocked(m);
            }
        } else {
            from &= !(blocked(way.inter[0]) & blocked(way.inter[1]));
        }
        hit_from[w] = from;
    }
    hit_from
}

/// Checkers hit and pips lost with roll `r` when we have no checker on the bar, written
/// without data-dependent branches (the shots of random positions defeat branch
/// prediction). Same rules as gnubg: a direct shot counts one checker (again if another
/// hitter than the previous one, or the same point holding spares), a double's direct
/// shot from two points counts two, and a combined shot counts one more when it hits a
/// blot on the way.
#[inline]
fn roll_off_bar(
    s: &super::hits::Shots,
    r: usize,
    hit_from: &[u32; 39],
    me: &[u8; 25],
    blots_any: u32,
) -> (i32, i32) {
    let (ids, count) = &s.by_roll[r];
    let mut chequers = 0i32;
    let mut pips = 0i32;
    let mut last = -1i32;
    for (j, &w) in ids[..usize::from(*count)].iter().enumerate() {
        let mask = hit_from[usize::from(w)];
        let live = i32::from(mask != 0);
        let way = &s.ways[usize::from(w)];
        let k = 31 - (mask | 1).leading_zeros() as i32;
        pips = pips.max(live * (k - i32::from(way.pips) + 1));
        if way.faces == 1 {
            // Direct shots come first in each roll's list (j = 0, and j = 1 for
            // non-doubles).
            let spare = i32::from(me[k as usize] > 1);
            let new_hitter = i32::from(last != k) | spare;
            chequers += live * new_hitter;
            last = if live == 1 { k } else { last };
            let another = i32::from(s.is_double(r) && mask & !(1 << k) != 0);
            chequers += live * another;
            debug_assert!(j < 2);
        } else {
            // Intermediate distances d: blots at our slot k - d.
            let mut hit_on_way = 0i32;
            let mut m = way.inter_mask;
            while m != 0 {
                let d = m.trailing_zeros() as i32;
                m &= m - 1;
                hit_on_way |= i32::from(k >= d && blots_any >> (k - d) as u32 & 1 == 1);
            }
            chequers = if live == 1 {
                chequers.max(1) + hit_on_way
            } else {
                chequers
            };
        }
    }
    (chequers, pips)
}

/// Per roll: checkers hit and pips lost; summed over the 36 rolls.
fn roll_shots(
    s: &super::hits::Shots,
    hit_from: &[u32; 39],
    me: &[u8; 25],
    opp: &[u8; 25],
) -> (i32, i32, i32) {
    let msb = |m: u32| 31 - m.leading_zeros() as i32;
    // Every opposing blot, in our numbering (for blots hit on the way).
    let blots_any = (0..24).fold(0u32, |m, x| m | (u32::from(opp[23 - x] == 1) << x));
    let (mut total, mut one, mut two) = (0, 0, 0);
    for (r, (ids, count)) in s.by_roll.iter().enumerate() {
        let ways = &ids[..usize::from(*count)];
        let (mut chequers, mut pips) = (0i32, 0i32);
        match me[24] {
            0 => (chequers, pips) = roll_off_bar(s, r, hit_from, me, blots_any),
            1 => {
                let mut entered = false;
                for (jw, &w) in ways.iter().enumerate() {
                    let mask = hit_from[usize::from(w)];
                    if mask == 0 {
                        continue;
                    }
                    let way = &s.ways[usize::from(w)];
                    if way.faces == 1 {
                        // Hitters from the highest down (slot 0 never hits).
                        let mut rest = mask & !1;
                        while rest != 0 {
                            let k = msb(rest);
                            rest &= !(1 << k);
                            if entered && k != 24 {
                                break;
                            }
                            if k != 24 {
                                // The other die must bring the checker in first.
                                let other = s.ways[usize::from(ways[1 - jw])].pips;
                                if opp[usize::from(other) - 1] > 1 {
                                    break;
                                }
                                entered = true;
                            }
                            chequers += 1;
                            pips = pips.max(k - i32::from(way.pips) + 1);
                        }
                    } else {
                        if mask & (1 << 24) == 0 {
                            continue;
                        }
                        if chequers == 0 {
                            chequers = 1;
                        }
                        pips = pips.max(25 - i32::from(way.pips));
                        let on_way = way.inter.iter().take_while(|&&d| d > 0);
                        if on_way.clone().any(|&d| opp[usize::from(d) + 1] == 1) {
                            chequers += 1;
                        }
                    }
                }
            }
            _ => {
                for &w in &ways[..2] {
                    let way = &s.ways[usize::from(w)];
                    if hit_from[usize::from(w)] & (1 << 24) == 0 || way.faces != 1 {
                        continue;
                    }
                    chequers += 1;
                    pips = pips.max(25 - i32::from(way.pips));
                }
            }
        }
        let w = if s.is_double(r) { 1 } else { 2 };
        total += pips * w;
        if chequers > 0 {
            one += w;
            if chequers > 1 {
                two += w;
            }
        }
    }
    (total, one, two)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(points: &[(usize, u8)]) -> [u8; 25] {
        let mut s = [0u8; 25];
        for &(p, n) in points {
            s[p - 1] = n;
        }
        s
    }

    /// Weights up to 1.00 count a home point with a single checker as "made" when
    /// judging board strength; 1.01 needs two (reference nets-inputs-weights.md §3.3).
    /// With three single home checkers, the old rule considers hitting the opponent's
    /// blot on our 2-point, the new one does not.
    #[test]
    fn pip_loss_follows_the_weights_version() {
        // Us: singles on our 1-, 3-, 5-points and a hitter on our 4-point, plus checkers
        // far back; opponent: a blot on our 2-point (its 23-point), and the rest home.
        let me = side(&[(1, 1), (3, 1), (4, 1), (5, 1), (13, 5), (24, 2)]);
        let opp = side(&[(23, 1), (6, 5), (8, 3), (13, 3)]);
        let mut old = [0f32; 25];
        let mut new = [0f32; 25];
        contact_features(&me, &opp, false, &mut old);
        contact_features(&me, &opp, true, &mut new);
        assert!(
            old[PIPLOSS] > 0.0 && old[P1] > 0.0,
            "old rule sees the shot: {old:?}"
        );
        assert_eq!((new[PIPLOSS], new[P1]), (0.0, 0.0), "new rule ignores it");
        // Everything else is the same.
        for k in (3..25).filter(|&k| ![PIPLOSS, P1, P2].contains(&k)) {
            assert_eq!(old[k], new[k], "feature {k}");
        }
    }

    /// Sides from random games and random scatterings of 1..=15 checkers (now and then
    /// on the bar).
    fn test_sides() -> Vec<[u8; 25]> {
        let mut sides: Vec<[u8; 25]> = crate::corpus::random_game_corpus(7, 300)
            .iter()
            .flat_map(|(p, _)| *p.sides())
            .collect();
        let mut stream = board::DiceStream::new(11);
        for _ in 0..20_000 {
            let mut side = [0u8; 25];
            let n = 1 + stream.below(15);
            for _ in 0..n {
                side[stream.below(26).min(24) as usize] += 1;
            }
            sides.push(side);
        }
        sides
    }

    /// gnubg's entering loss, counted roll by roll: each of the 36 rolls loses the pips
    /// of the dice that cannot enter (a double's four steps when its point is made;
    /// with one checker on the bar a non-double loses only when both points are made).
    #[test]
    fn entering_loss_table_counts_the_blocked_rolls() {
        for (two, table) in [false, true].into_iter().zip(&ENTER_LOSS) {
            for (made, &want) in table.iter().enumerate() {
                let blocked = |d: usize| made & (1 << (d - 1)) != 0;
                let mut loss = 0;
                for d1 in 1..=6 {
                    for d2 in 1..=6 {
                        loss += match (blocked(d1), blocked(d2)) {
                            _ if d1 == d2 => 4 * d1 * usize::from(blocked(d1)),
                            (true, true) => d1 + d2,
                            (true, false) if two => d1,
                            (false, true) if two => d2,
                            _ => 0,
                        };
                    }
                }
                assert_eq!(want, loss as i32, "{made:06b} {two}");
            }
        }
    }

    #[test]
    fn vector_mobility_and_containment_equal_the_scalar_ones() {
        let sides = test_sides();
        let table = tables().escape_table();
        let (mut compared, mut mobile, mut near, mut all) = (0, 0, 0, 0);
        for (k, pair) in sides.chunks_exact(2).enumerate() {
            for (me, opp) in [(&pair[0], &pair[1]), (&pair[1], &pair[0])] {
                let (mm, om) = (slot_masks(me), slot_masks(opp));
                // Every end of the near stretch, in turn (and the one the position has).
                let ends = [(k % 26) as i32, (24 - (23 - om.rearmost())).min(25)];
                for near_end in ends {
                    let want = escape_sums_scalar(me, &mm, om.made, near_end);
                    let (wide, avx2) = (crate::simd::escape_sums_avx512, crate::simd::escape_sums_avx2);
                    for got in [wide, avx2].map(|f| f(table, me, mm.made, om.made, near_end)) {
                        assert_eq!(
                            got.unwrap_or(want),
                            want,
                            "{me:?} vs {opp:?}, near end {near_end}"
                        );
                    }
                    let got = want;
                    compared += 1;
                    mobile += usize::from(got.mobility > 0);
                    near += usize::from(got.worst_near < 30);
                    all += usize::from(got.worst_all < 30);
                }
            }
        }
        assert!(compared > 40_000, "{compared}");
        assert!(
            mobile > 10_000 && near > 1000 && all > 1000,
            "{mobile} {near} {all}"
        );
    }

    /// The vector shot counts (each kernel the CPU has) equal the portable one on every side of the positions
    /// met in random games and on blot-heavy random boards (some with checkers on the
    /// bar).
    #[test]
    fn vector_shot_count_equals_the_scalar_one() {
        let sides = test_sides();
        let mut compared = 0;
        // Sides with shots, by checkers on the bar (0, 1, 2+).
        let mut with_shots = [0; 3];
        for pair in sides.chunks_exact(2) {
            for (me, opp) in [(&pair[0], &pair[1]), (&pair[1], &pair[0])] {
                for fixed in [false, true] {
                    let m = shot_masks(me, &slot_masks(me), &slot_masks(opp), fixed);
                    let got = shot_counts_scalar(&m, me, opp);
                    for kernel in [crate::simd::shot_count_avx512, crate::simd::shot_count_avx2] {
                        assert_eq!(kernel(m).unwrap_or(got), got, "{me:?} vs {opp:?}");
                    }
                    compared += 1;
                    with_shots[usize::from(me[24].min(2))] += usize::from(got.1 > 0);
                }
            }
        }
        assert!(compared > 80_000, "{compared}");
        assert!(with_shots.iter().all(|&n| n > 1000), "{with_shots:?}");
    }

    /// Features of the opening position that follow directly from their definitions.
    #[test]
    fn opening_position_features_follow_their_definitions() {
        let start = side(&[(6, 5), (8, 3), (13, 5), (24, 2)]);
        let mut f = [0f32; 25];
        contact_features(&start, &start, false, &mut f);
        assert_eq!(f[BACK_CHEQUER], 23.0 * (1.0 / 24.0)); // rearmost checker on slot 23
        assert_eq!(f[BACK_ANCHOR], 23.0 * (1.0 / 24.0)); // the 24-point anchor
        assert_eq!(f[FORWARD_ANCHOR], 1.0 * (1.0 / 6.0)); // anchor 1 point into their home
        assert_eq!((f[PIPLOSS], f[P1], f[P2]), (0.0, 0.0, 0.0)); // no blots to hit
        assert_eq!(f[ENTER], 0.0); // nobody on the bar
                                   // One of their home points (the 6-point) is made: (36 - (1 - 6)²) / 36.
        assert_eq!(f[ENTER2], 11.0 * (1.0 / 36.0));
    }
}

//! Tournament standings and ratings on hand-made results, against values worked out
//! by hand: points, points per game, standard errors over dice streams, and
//! Bradley–Terry ratings with their standard errors.

use trainer::tourney::elo::fit;
use trainer::tourney::file::{Kind, Outcome, Settings, Sync};
use trainer::tourney::schedule::new_tournament;
use trainer::tourney::standings::standings;
use trainer::tourney::{participants, Tournament};

/// Elo points per natural-log unit.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() < 1e-9 * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

fn wins(p: usize, list: &[(usize, usize, f64)]) -> Vec<Vec<f64>> {
    let mut w = vec![vec![0.0; p]; p];
    for &(a, b, n) in list {
        w[a][b] = n;
    }
    w
}

#[test]
fn two_players_rating_is_the_logit_of_the_score() {
    // A wins 7 of 10: R_A − R_B = 400·log10(7/3), centred; information n·p·q gives
    // SE(R_A − R_B) = SCALE/√(n p q), and each centred rating half of it.
    let f = fit(&wins(2, &[(0, 1, 7.0), (1, 0, 3.0)]));
    let d = 400.0 * (7.0f64 / 3.0).log10();
    close(f.ratings[0], d / 2.0, "R_A");
    close(f.ratings[1], -d / 2.0, "R_B");
    let se = SCALE / (10.0f64 * 0.7 * 0.3).sqrt() / 2.0;
    close(f.se[0].unwrap(), se, "SE_A");
    close(f.se[1].unwrap(), se, "SE_B");
    assert!(!f.virtual_draws());
}

#[test]
fn a_cycle_of_equal_scores_rates_everyone_zero() {
    // A beats B, B beats C, C beats A, each 2-1. By symmetry all ratings are 0;
    // information = (3/4)·L(K3), whose pseudo-inverse has diagonal (4/3)·(2/9) = 8/27.
    let f = fit(&wins(
        3,
        &[
            (0, 1, 2.0),
            (1, 0, 1.0),
            (1, 2, 2.0),
            (2, 1, 1.0),
            (2, 0, 2.0),
            (0, 2, 1.0),
        ],
    ));
    for i in 0..3 {
        close(f.ratings[i], 0.0, "rating");
        close(f.se[i].unwrap(), SCALE * (8.0f64 / 27.0).sqrt(), "SE");
    }
}

#[test]
fn a_chain_adds_up_its_links() {
    // A beats B 3-1 and B beats C 3-1; A and C never met. Each link is ln 3 apart,
    // so the centred strengths are ln 3, 0, −ln 3.
    let f = fit(&wins(3, &[(0, 1, 3.0), (1, 0, 1.0), (1, 2, 3.0), (2, 1, 1.0)]));
    close(f.ratings[0], SCALE * 3f64.ln(), "R_A");
    close(f.ratings[1], 0.0, "R_B");
    close(f.ratings[2], -SCALE * 3f64.ln(), "R_C");
}

#[test]
fn a_perfect_score_gets_virtual_draws_and_separate_groups_centre_separately() {
    // A beat B twice: no maximum; with one virtual draw A has 2.5 wins of 3, so
    // R_A − R_B = 400·log10(5). C and D (3-1) form their own group, unaffected.
    let f = fit(&wins(4, &[(0, 1, 2.0), (2, 3, 3.0), (3, 2, 1.0)]));
    assert!(f.virtual_draws());
    close(f.ratings[0], 200.0 * 5f64.log10(), "R_A");
    close(f.ratings[1], -200.0 * 5f64.log10(), "R_B");
    close(f.ratings[2], 200.0 * 3f64.log10(), "R_C");
    close(f.ratings[3], -200.0 * 3f64.log10(), "R_D");
    assert_ne!(f.group[0], f.group[2]);
    assert_eq!(f.group[0], f.group[1]);
}

/// A round-robin of three participants, four games per pairing, with results set by
/// hand: `(game id, winner's participant index, points)`.
fn hand_made() -> Tournament {
    let settings = Settings {
        kind: Kind::RoundRobin,
        games_per_pairing: 4,
        cycles: 1,
        seed: 1,
        sync: Sync::None,
        stale_after_s: 60,
    };
    let parts = participants(&["a=pubeval".into(), "b=random".into(), "c=random".into()]).unwrap();
    let mut t = new_tournament(settings, parts).unwrap();
    // The circle method puts b-c in round 1 (ids 0-3), c-a in round 2 (4-7), a-b in
    // round 3 (8-11).
    let results = [
        (0, 1, 1),
        (1, 2, 2),
        (2, 1, 1),
        (3, 1, 3),
        (4, 0, 1),
        (5, 0, 2),
        (6, 2, 1),
        (7, 0, 1),
        (8, 0, 1),
        (9, 1, 1),
        (10, 0, 2),
        (11, 0, 1),
    ];
    let slots: Vec<_> = t.games().map(|(s, p, g)| (s, p.players, g.id)).collect();
    for (id, winner, points) in results {
        let &(slot, players, _) = slots.iter().find(|x| x.2 == id).unwrap();
        t.game_mut(slot).result = Some(Outcome {
            winner: players.iter().position(|&x| x == winner).unwrap() as u8,
            points,
            turns: 50,
            versions: [0, 0],
        });
    }
    let players = |id: u64| slots.iter().find(|x| x.2 == id).unwrap().1;
    assert_eq!([players(0), players(4), players(8)], [[1, 2], [2, 0], [0, 1]]);
    t
}

#[test]
fn standings_of_a_hand_made_record() {
    let t = hand_made();
    let s = standings(&t);
    assert_eq!((s.games_played, s.games_total), (12, 12));
    let [a, b, c] = [&s.participants[0], &s.participants[1], &s.participants[2]];
    // a: +1 +2 −1 +1 (vs c) +1 −1 +2 +1 (vs b) = +6 in 8 games, 6 wins.
    assert_eq!((a.games, a.wins, a.points, a.gammons), (8, 6, 6, 2));
    close(a.ppg, 0.75, "ppg a");
    // Streams (pairs of games) of a: +3, 0, 0, +3; mean per pair 1.5, 0, 0, 1.5;
    // sample variance 0.75, over 4 streams: SE² = 0.1875.
    close(a.se.unwrap(), 0.1875f64.sqrt(), "se a");
    // b: +1 −2 +1 +3 −1 +1 −2 −1 = 0; streams −1, +4, 0, −3: SE² = 4/3 · 26 / 64.
    assert_eq!((b.games, b.wins, b.points), (8, 4, 0));
    close(b.se.unwrap(), (4.0 / 3.0 * 26.0 / 64.0f64).sqrt(), "se b");
    // c: −6; streams +1, −4, −3, 0 around −1.5: squares 6.25, 6.25, 2.25, 2.25.
    assert_eq!((c.games, c.wins, c.points), (8, 2, -6));
    close(c.ppg, -0.75, "ppg c");
    close(c.se.unwrap(), (4.0 / 3.0 * 17.0 / 64.0f64).sqrt(), "se c");
    // The b-c cell: b scores −1 and +4 in its two streams: ppg 0.75,
    // SE² = 2/1 · (2.5² + 2.5²) / 16.
    let bc = s.pairings.iter().find(|x| x.players == [2, 3]).unwrap();
    assert_eq!((bc.games, bc.wins, bc.points), (4, 3, 3));
    close(bc.ppg, 0.75, "ppg b-c");
    close(bc.se.unwrap(), 1.25, "se b-c");
    // Ratings: a beat b 3-1, a beat c 3-1, b beat c 3-1. By symmetry R_a − R_b =
    // R_b − R_c = d, and a's likelihood equation 4σ(d) + 4σ(2d) = 6 becomes, with
    // x = e^d, x³ − x² − x − 3 = 0: solve it by bisection.
    let (mut lo, mut hi) = (1.0f64, 3.0f64);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if mid * mid * mid - mid * mid - mid - 3.0 < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let d = SCALE * lo.ln();
    close(a.elo, d, "elo a");
    close(b.elo, 0.0, "elo b");
    close(c.elo, -d, "elo c");
    assert!(!s.elo_virtual_draws);
    let text = s.to_text();
    assert!(
        text.contains("+0.75 ± 1.25") && text.contains("-0.75 ± 1.25"),
        "{text}"
    );
}

#[test]
fn groups_that_never_met_are_rated_and_shown_apart() {
    // Four participants, two games per pairing; only a-b (a wins both) and c-d (one
    // each) have been played, so {a, b} and {c, d} are rated apart. a-b needs a
    // virtual draw (R_a − R_b = 400·log10(5)); c-d does not (both 0).
    let settings = Settings {
        kind: Kind::RoundRobin,
        games_per_pairing: 2,
        cycles: 1,
        seed: 1,
        sync: Sync::None,
        stale_after_s: 60,
    };
    let names = ["a=pubeval", "b=random", "c=random", "d=random"].map(String::from);
    let mut t = new_tournament(settings, participants(&names).unwrap()).unwrap();
    let slots: Vec<_> = t.games().map(|(s, p, _)| (s, p.players)).collect();
    let mut set = |pair: [usize; 2], winners: [usize; 2]| {
        let mine: Vec<_> = slots
            .iter()
            .filter(|(_, p)| p.contains(&pair[0]) && p.contains(&pair[1]))
            .collect();
        assert_eq!(mine.len(), 2);
        for (&(slot, players), winner) in mine.into_iter().zip(winners) {
            t.game_mut(slot).result = Some(Outcome {
                winner: players.iter().position(|&x| x == winner).unwrap() as u8,
                points: 1,
                turns: 50,
                versions: [0, 0],
            });
        }
    };
    set([0, 1], [0, 0]);
    set([2, 3], [2, 3]);
    let s = standings(&t);
    let groups: Vec<_> = s.participants.iter().map(|e| e.elo_group).collect();
    assert_eq!(groups, [Some(1), Some(1), Some(2), Some(2)]);
    assert_eq!(s.elo_groups, 2);
    assert!(s.elo_virtual_draws);
    assert_eq!(s.elo_draw_groups, [1]);
    close(s.participants[0].elo, 200.0 * 5f64.log10(), "R_a");
    close(s.participants[1].elo, -200.0 * 5f64.log10(), "R_b");
    close(s.participants[2].elo, 0.0, "R_c");
    let text = s.to_text();
    assert!(
        text.contains("Elo compares only within a group: 2 groups"),
        "{text}"
    );
    assert!(
        text.contains("(group 1's ratings include one virtual draw for every pair that met"),
        "{text}"
    );
    // Group 1 first, by rating within it: a, b, then c and d (tied, by number).
    let rows: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .filter(|n| ["a", "b", "c", "d"].contains(n))
        .take(4)
        .collect();
    assert_eq!(rows, ["a", "b", "c", "d"], "{text}");
}

//! Standard notation (Tom Keith's proposal) against the examples Keith published, and
//! property tests that what it writes reads back to the same legal move.
//!
//! Plays are read the way `evaluator notation PLAY` reads them: without a position
//! through `parse_steps` (hits from the `*` marks), with one through
//! `Position::parse_move` (hits from the board).

use board::notation::format_standard;
use board::parse_move::parse_steps;
use board::{Dice, DiceStream, MoveGen, Position, Side, Variant, BAR};
use proptest::prelude::*;

/// `evaluator notation PLAY` without a position.
fn rewrite(play: &str) -> String {
    format_standard(&parse_steps(play).unwrap_or_else(|e| panic!("{play}: {e}")))
}

fn check_rows(rows: &[(&str, &str)]) {
    for (play, want) in rows {
        assert_eq!(rewrite(play), *want, "{play}");
    }
}

/// The examples that ../shared/reference/ids-notation-records.md §4.1 quotes from
/// Keith's revised proposal (September 2014).
#[test]
fn examples_of_the_revised_proposal() {
    check_rows(&[
        ("24/18, 18/13", "24/13"),
        ("13/7*, 7/5", "13/7*/5"),
        ("24/18, 24/18, 13/7, 13/7", "24/18(2), 13/7(2)"),
        ("2/off, 2/off, 2/off, 1/off", "2/off(3), 1/off"),
        ("20/18, bar/20", "bar/18"),
        // Its rule 3: a hit already marked earlier is not marked again.
        ("6/5, 6/5*/3", "6/5*, 6/3"),
        ("6/5*, 6/5, 5/3", "6/5*, 6/3"),
    ]);
}

/// Tom Keith, "Standard notation for plays", BGonline.org, 23 May 2014
/// (https://www.bgonline.org/forums/webbbs_config.pl?noframes;read=161165), the first
/// version of the proposal, and his reply to Timothy Chow of 30 May 2014
/// (https://www.bgonline.org/forums/webbbs_config.pl?noframes;read=161653).
#[test]
fn examples_of_the_2014_forum_posts() {
    check_rows(&[
        // 23 May: from-points descending.
        ("6/5, 8/5", "8/5, 6/5"),
        // 23 May: on a tie of start and end, the multipart move first.
        ("13/7, 13/10*/7", "13/10*/7, 13/7"),
        // 23 May: parallel hitting moves, `a/b*, a/b* → a/b*(2)` with a = 11, b = 5.
        ("11/5*, 11/5*", "11/5*(2)"),
        // 23 May: 25 is written `bar`.
        ("25/24*, 25/23", "bar/24*, bar/23"),
        // 30 May: one asterisk per blot, as early in the play as possible.
        ("6/5, 6/5*/3", "6/5*, 6/3"),
        // 30 May: combining starts with the move from the highest point.
        ("7/6, 6/5, 6/5, 5/4", "7/4, 6/5"),
    ]);
    // The 23 May draft sorted equal from-points by ascending to-point (`24/20, 24/22`);
    // the revised proposal (§4.1 rule 1) sorts them descending.
    check_rows(&[("24/22, 24/20", "24/22, 24/20"), ("24/20, 24/22", "24/22, 24/20")]);
}

/// The examples of issue 15, which the proposal's table implies: a hit belongs to a
/// point, chains are built without looking at hits, and each hit point is marked once.
#[test]
fn a_hit_belongs_to_a_point_not_to_a_move() {
    check_rows(&[
        ("22/18*, bar/18", "bar/18*, 22/18"),
        ("8/7, 7/6*, 7/6, 6/5", "8/6*/5, 7/6"),
        ("11/5*, 11/5", "11/5*(2)"),
        ("5/4*, 5/4, 4/3, 3/2", "5/4*, 5/2"),
        // The same plays with the `*` on the other checker read the same.
        ("22/18, bar/18*", "bar/18*, 22/18"),
        ("8/7, 7/6, 7/6*, 6/5", "8/6*/5, 7/6"),
        ("11/5, 11/5*", "11/5*(2)"),
        ("5/4, 5/4*, 4/3, 3/2", "5/4*, 5/2"),
    ]);
}

/// Plays bgkit documents elsewhere: the example of the README and the CLI tests, and
/// best moves gnubg printed for its fixtures (`bar/22* 13/11`, `8/5 6/5`, `6/off`), on
/// which gnubg's style and the standard one differ only in the separator.
#[test]
fn documented_examples() {
    check_rows(&[
        ("24/22, 22/20*, 20/18, 18/16", "24/20*/16"),
        ("bar/22*, 13/11", "bar/22*, 13/11"),
        ("8/5, 6/5", "8/5, 6/5"),
        ("6/off", "6/off"),
    ]);
}

/// Builds a position from (point, checkers) lists in each side's own numbering (25 is
/// the bar), the side on roll second.
fn position(opponent: &[(usize, u8)], on_roll: &[(usize, u8)]) -> Position {
    let side = |list: &[(usize, u8)]| {
        let mut s: Side = [0; 25];
        for &(p, n) in list {
            s[p - 1] = n;
        }
        s
    };
    Position::new(side(opponent), side(on_roll)).unwrap()
}

/// The examples played on a board, where hits are judged from the position:
/// whichever step the generator flags as the hit, the notation is the same.
#[test]
fn hits_judged_from_the_board() {
    let dice = |a, b| Dice::new(a, b).unwrap();
    // O's blot on X's 6-point (O's 19); X has one checker on 8 and two on 7.
    let pos = position(&[(19, 1), (1, 2)], &[(8, 1), (7, 2)]);
    let m = pos.parse_move(dice(1, 1), "8/7 7/6 7/6 6/5").unwrap();
    assert_eq!(m.hits(), 1);
    assert_eq!(m.notation(), "8/6*/5, 7/6");
    // O's blot on X's 4-point (O's 21); X has two checkers on 5.
    let pos = position(&[(21, 1), (12, 2)], &[(5, 2)]);
    let m = pos.parse_move(dice(1, 1), "5/4 5/4 4/3 3/2").unwrap();
    assert_eq!(m.notation(), "5/4*, 5/2");
    // O's blot on X's 5-point (O's 20) and O's point on X's 18 (O's 7), which blocks
    // X's checker on 24: 66 can only be played 11/5 twice.
    let pos = position(&[(20, 1), (7, 2)], &[(11, 2), (24, 1)]);
    let m = pos.parse_move(dice(6, 6), "11/5 11/5").unwrap();
    assert_eq!(m.steps().len(), 2);
    assert_eq!(m.notation(), "11/5*(2)");
    // X on the bar and on 22, O's blot on X's 18 (O's 7): with 43, entering and hitting
    // with either checker reaches the same position, written as one chain.
    let pos = position(&[(7, 1), (1, 2)], &[(25, 1), (22, 1), (13, 2)]);
    let m = pos.parse_move(dice(4, 3), "bar/22 22/18").unwrap();
    assert_eq!(m.notation(), "bar/18*");
    assert_eq!(m.result, pos.parse_move(dice(4, 3), "bar/21/18*").unwrap().result);
}

/// A random valid layout: each side gets up to 15 checkers on random free slots
/// (`style` 0 keeps them home, 1 puts some on the bar, 2 anywhere).
fn random_layout(rng: &mut DiceStream, style: u32) -> Position {
    let mut sides = [[0u8; 25]; 2];
    for s in 0..2 {
        for _ in 0..1 + rng.below(15) {
            let slot = match style {
                0 => rng.below(6) as usize,
                1 if rng.below(4) == 0 => BAR,
                _ => rng.below(25) as usize,
            };
            if slot != BAR && sides[1 - s][23 - slot] > 0 {
                continue;
            }
            sides[s][slot] += 1;
        }
    }
    Position::new(sides[0], sides[1]).unwrap_or(Variant::Backgammon.start())
}

/// A position reached by `plies` random legal moves from a variant's start.
fn random_game_position(rng: &mut DiceStream, variant: Variant, plies: u32) -> Position {
    let mut gen = MoveGen::new();
    let mut pos = variant.start();
    for _ in 0..plies {
        let children = gen.positions(&pos, rng.roll()).to_vec();
        if let Some(&next) = children.get(rng.below(children.len().max(1) as u32) as usize) {
            if next.on_roll().iter().all(|&n| n == 0) {
                break;
            }
            pos = next;
        }
        pos = pos.swapped();
    }
    pos
}

/// Every legal move of `pos` with `dice`: its standard notation reads back (as
/// `evaluator notation --position-id --dice` reads it) to the same move, has one `*` per
/// blot hit, and rewrites to itself when read as simple moves without the board.
fn check_moves(pos: &Position, dice: Dice) -> Result<(), TestCaseError> {
    for m in pos.legal_moves(dice) {
        let text = m.notation();
        let key = format!("{} {dice} '{text}'", pos.position_id());
        let back = pos
            .parse_move(dice, &text)
            .map_err(|e| TestCaseError::fail(format!("{key}: {e}")))?;
        prop_assert_eq!(back.result, m.result, "{} reads back as another move", key);
        prop_assert_eq!(text.matches('*').count(), m.hits(), "{}: marks", key);
        prop_assert_eq!(rewrite(&text), text.clone(), "{}: not stable", key);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn standard_notation_reads_back_on_random_layouts(seed in any::<u32>(), style in 0u32..3) {
        let mut rng = DiceStream::new(seed);
        let pos = random_layout(&mut rng, style);
        for dice in [rng.roll(), rng.roll(), rng.roll()] {
            check_moves(&pos, dice)?;
            check_moves(&pos.swapped(), dice)?;
        }
    }

    #[test]
    fn standard_notation_reads_back_in_random_games(
        seed in any::<u32>(),
        variant in 0usize..Variant::ALL.len(),
        plies in 0u32..80,
    ) {
        let mut rng = DiceStream::new(seed);
        let pos = random_game_position(&mut rng, Variant::ALL[variant], plies);
        for dice in [rng.roll(), rng.roll(), rng.roll()] {
            check_moves(&pos, dice)?;
        }
    }
}

//! Drawing a position as text.

use crate::position::{Player, Position, BAR};
use crate::variant::Variant;

/// Draws the board seen by the player on roll (X, moving from the top right around to
/// the bottom right and bearing off there); O is the opponent. Points are numbered
/// from X's side. Shows bars, borne-off checkers, pip counts and the Position ID.
pub fn render(pos: &Position, variant: Variant) -> String {
    let me = pos.on_roll();
    let opp = pos.opponent();
    // Checkers on X's point p (1..=24): positive X, negative O.
    let at = |p: usize| -> i32 { i32::from(me[p - 1]) - i32::from(opp[24 - p]) };
    let cell = |p: usize, row: usize| -> String {
        let n = at(p);
        let (count, mark) = if n > 0 { (n, 'X') } else { (-n, 'O') };
        let count = count as usize;
        if count == 0 || row >= count.min(5) {
            return "   ".into();
        }
        if row == 4 && count > 5 {
            return format!("{count:>2} ");
        }
        format!(" {mark} ")
    };
    let bar_cell = |n: u8, mark: char, row: usize| -> String {
        let n = usize::from(n);
        match () {
            _ if row >= n.min(5) => "   ".into(),
            _ if row == 4 && n > 5 => format!("{n:>2} "),
            _ => format!(" {mark} "),
        }
    };
    let mut out = String::new();
    out.push_str(&format!(" Position ID: {}   X on roll\n", pos.position_id()));
    out.push_str(" +13-14-15-16-17-18-+---+19-20-21-22-23-24-+\n");
    for row in 0..5 {
        let left: String = (13..=18).map(|p| cell(p, row)).collect();
        let right: String = (19..=24).map(|p| cell(p, row)).collect();
        out.push_str(&format!(" |{left}|{}|{right}|\n", bar_cell(opp[BAR], 'O', row)));
    }
    out.push_str(" |                  |BAR|                  |\n");
    for row in (0..5).rev() {
        let left: String = (7..=12).rev().map(|p| cell(p, row)).collect();
        let right: String = (1..=6).rev().map(|p| cell(p, row)).collect();
        out.push_str(&format!(" |{left}|{}|{right}|\n", bar_cell(me[BAR], 'X', row)));
    }
    out.push_str(" +12-11-10--9--8--7-+---+-6--5--4--3--2--1-+\n");
    let total = variant.checkers();
    for (name, player) in [("X", Player::OnRoll), ("O", Player::Opponent)] {
        let on_board = pos.checkers(player);
        out.push_str(&format!(
            " {name}: pips {:>3}, on bar {}, borne off {}\n",
            pos.pips(player),
            pos.side(player)[BAR],
            total.saturating_sub(on_board)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_drawn_with_both_armies() {
        let text = render(&Variant::Backgammon.start(), Variant::Backgammon);
        let lines: Vec<&str> = text.lines().collect();
        // Top row: X's 13-point has 5 X, 17-point 3 O (O's 8), 19-point 5 O, 24-point 2 X.
        assert_eq!(lines[2], " | X           O    |   | O              X |");
        assert_eq!(lines[7], " |                  |BAR|                  |");
        assert!(text.contains("X: pips 167, on bar 0, borne off 0"));
        assert!(text.contains("4HPwATDgc/ABMA"));
    }
}

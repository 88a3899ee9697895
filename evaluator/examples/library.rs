//! The evaluator README's library example, compiled by `cargo test` so that it stays
//! true: gnubg's nets and databases, a 0-ply, 1-ply and batched evaluation, and a best
//! move two plies deep. Run with `cargo run -p evaluator --example library` (needs
//! gnubg's files: gnubg-data).

use evaluator::{
    bearoff::BearoffDbs,
    search::{Lookahead, FILTERS_NORMAL},
    weights::Weights,
    Evaluator,
};
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ev = Evaluator::new(
        Weights::load("/usr/lib/gnubg/gnubg.wd")?,
        BearoffDbs::open(
            Some("/usr/share/gnubg/gnubg_os0.bd".as_ref()),
            Some("/var/lib/gnubg/gnubg_ts0.bd".as_ref()),
        )?,
    )
    .with_cache(20);
    let pos = board::Position::from_id("4HPwATDgc/ABMA")?;
    let (p, class) = ev.evaluate(&pos)?; // 0-ply, gnubg-exact
    let p1 = ev.evaluate_plied(&pos, 1, Lookahead::default())?; // 1-ply with pruning nets
    let mut all = Vec::new();
    ev.evaluate_all(&[pos, pos.swapped()], &mut all)?; // batched, same numbers
    let dice = board::Dice::new(2, 1)?;
    let mut gen = board::MoveGen::new();
    let best = ev.best_move_plied(&mut gen, &pos, dice, 2, &FILTERS_NORMAL, Lookahead::default())?;
    // plies 0 to 4 (search::MAX_FILTER_PLIES); None when no move is legal
    println!(
        "0-ply {p:?} ({class:?}), 1-ply {p1:?}, batch of {}, best 21: {best:?}",
        all.len()
    );
    Ok(())
}

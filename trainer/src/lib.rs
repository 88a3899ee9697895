/*!
The bgkit trainer: TD(λ) self-play and supervised training of gnubg-compatible nets,
the move-error benchmark, pubeval, duplicate-dice duels and tournaments between
players, behind the `trainer` command.

# Overview

* [`model`]: net configuration (gnubg or Tesauro inputs, hidden units, one net per
  class), initialisation, gnubg weights files plus a JSON sidecar.
* [`engine`]: a model as the evaluator's [`evaluator::NetSource`]: the evaluator
  evaluates and chooses moves for it (bearoff databases, gnubg's corrections, gnubg's
  move ranking), and [`model::Model::forward`] gives training its activations.
* [`td`]: one self-play game of TD(λ) learning; [`train`]: a whole run on several
  threads with checkpoints, resumption and benchmarks ([`ordered`]: its reproducible
  parallel scheme, whose waiting threads help the others score their move lists;
  [`rows`]: the weight rows a game changed, so that it copies and merges only those);
  [`curve`]: the learning curve.
* [`player`]: the [`player::Player`] abstraction and its implementations (trained
  nets, gnubg's nets, pubeval, random); [`game`]: one game; [`duel`]: duplicate-dice
  duels.
* [`pubeval`]: Tesauro's public linear evaluator.
* [`supervised`]: supervised training of a class's net on rollout datasets
  (settings, checkpoint, starting weights, the training loop, the throughput bench);
  [`benchmark`]: the move-error benchmark (ER).
* [`tourney`]: tournaments in a shared file (round-robin, gauntlet, Swiss), several
  workers, standings with Elo, game records.
* [`encoding`]: the nets' input encodings (gnubg's, Tesauro's); [`seed`]: every
  random stream derived from a run's seed; [`error`]: the library's error type.
*/
#![deny(missing_docs)]

pub mod benchmark;
pub mod curve;
pub mod duel;
pub mod encoding;
pub mod engine;
pub mod error;
pub mod game;
mod help;
pub mod model;
pub mod ordered;
pub mod player;
pub mod pubeval;
pub mod rows;
pub mod seed;
pub mod supervised;
pub mod td;
pub mod tourney;
pub mod train;

pub use error::TrainerError;

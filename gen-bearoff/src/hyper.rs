//! Hypergammon databases (1 to 3 checkers per side), in gnubg's file format.
//!
//! * [`space`]: positions, classes, finished games, what hits do;
//! * [`moves`]: every legal move of every side, tabulated once (gnubg's order);
//! * [`equations`]: the money equations of one record, as every solver and check
//!   evaluates them (roll weights, cube decisions, the rule for dances);
//! * [`exact`], [`kernel`]: bgkit's solver — exact fixed point, correct handling of
//!   dances; `kernel` holds its inner loops for one column;
//! * [`compat`]: gnubg 1.07's `makehyper` computation, byte-identical files;
//! * [`generate`]: solving with checkpoints and resume, writing the file;
//! * [`record`], [`reader`]: the 28-byte record and the memory-mapped reader;
//! * [`opening`](mod@opening): start-of-game values read from a file (published checks);
//! * [`verify`]: structure and equations of a file (`gen-bearoff verify`).

pub mod checkpoint;
pub mod compat;
pub mod equations;
pub mod exact;
pub mod generate;
pub mod kernel;
pub mod moves;
pub mod opening;
pub mod reader;
pub mod record;
pub mod space;
pub mod verify;

pub use equations::DanceRule;
pub use generate::{
    generate_hyper, solve, HyperEvent, HyperMethod, HyperOptions, HyperPhase, HyperSolution, HyperSummary,
    EXACT_THRESHOLD, EXACT_THRESHOLD_MIN, GNUBG_THRESHOLD,
};
pub use opening::{opening, Opening};
pub use reader::HyperDb;
pub use record::{CubeState, HyperRecord};
pub use space::{Class, HyperSpace};

//! One module per subcommand, plus shared option handling.

pub mod common;
pub mod compare;
pub mod dump;
pub mod hyper;
pub mod json;
pub mod one_sided;
pub mod two_sided;
pub mod two_sided_sharded;
pub mod verify;

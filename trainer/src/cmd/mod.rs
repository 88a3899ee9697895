//! One module per subcommand, each with its `Args` and `run` (the options, progress and
//! threads they share come from `cli_support`).

pub mod benchmark;
pub mod duel;
pub mod supervised;
pub mod td;
pub mod tourney;

use cli_support::BearoffArgs;
use trainer::player::DataPaths;

/// The trainer's database paths from the bearoff flags.
pub fn data_paths(a: &BearoffArgs) -> DataPaths {
    DataPaths {
        bearoff_os: a.bearoff_os.clone(),
        bearoff_ts: a.bearoff_ts.clone(),
    }
}

//! Players: anything that chooses a move for a position and a roll. Duels, training
//! benchmarks and tournaments drive players only through [`Player`].
//!
//! Players are shared between threads (`Send + Sync`) and keep no state between calls:
//! whatever a decision needs to mutate (move generator, buffers, random numbers) is in
//! the [`PlayContext`] the caller owns, one per thread or game.

use std::path::Path;
use std::sync::Arc;

use board::{Dice, DiceStream, Move, MoveGen, Position};
use evaluator::bearoff::BearoffDbs;
use evaluator::weights::Weights;
use evaluator::Evaluator;

use crate::engine::databases_for;
use crate::error::TrainerError;
use crate::model::{self, Model};
use crate::pubeval;

/// What a player may change while deciding: a move generator and a stream of random
/// numbers (for players that choose at random).
pub struct PlayContext {
    /// Move generator.
    pub gen: MoveGen,
    /// Random numbers for the player's own choices.
    pub rng: DiceStream,
}

impl PlayContext {
    /// A context whose random choices follow `seed`.
    pub fn new(seed: u32) -> PlayContext {
        PlayContext {
            gen: MoveGen::new(),
            rng: DiceStream::new(seed),
        }
    }
}

/// A backgammon player for cubeless play.
pub trait Player: Send + Sync {
    /// A short name for reports and game records.
    fn name(&self) -> String;

    /// The move to play in `pos` (the player to move is `sides()[1]`) with `dice`, or
    /// `None` when no move is legal. The move must be one of `ctx.gen`'s legal moves.
    fn choose(&self, ctx: &mut PlayContext, pos: &Position, dice: Dice)
        -> Result<Option<Move>, TrainerError>;
}

/// Tesauro's pubeval.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pubeval;

impl Player for Pubeval {
    fn name(&self) -> String {
        "pubeval".into()
    }

    fn choose(
        &self,
        ctx: &mut PlayContext,
        pos: &Position,
        dice: Dice,
    ) -> Result<Option<Move>, TrainerError> {
        Ok(pubeval::best_move(&mut ctx.gen, pos, dice))
    }
}

/// Plays a uniformly random legal move (one per distinct resulting position).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(
        &self,
        ctx: &mut PlayContext,
        pos: &Position,
        dice: Dice,
    ) -> Result<Option<Move>, TrainerError> {
        let moves = ctx.gen.moves(pos, dice);
        if moves.is_empty() {
            return Ok(None);
        }
        let k = ctx.rng.below(moves.len() as u32) as usize;
        Ok(Some(moves[k]))
    }
}

/// A trainer model at 0 ply, played by the evaluator (see [`crate::engine`]).
pub struct NetPlayer {
    name: String,
    engine: Evaluator<Model>,
}

impl NetPlayer {
    /// A player for `model`, with the bearoff databases it uses (not used, and may be
    /// empty, if the model is configured without them).
    pub fn new(name: impl Into<String>, model: Model, dbs: Arc<BearoffDbs>) -> NetPlayer {
        let dbs = databases_for(&model, &dbs);
        NetPlayer {
            name: name.into(),
            engine: Evaluator::with_nets(model, dbs).with_laid_out_outputs(),
        }
    }

    /// The model.
    pub fn model(&self) -> &Model {
        self.engine.nets()
    }
}

impl Player for NetPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &self,
        ctx: &mut PlayContext,
        pos: &Position,
        dice: Dice,
    ) -> Result<Option<Move>, TrainerError> {
        Ok(self.engine.best_move(&mut ctx.gen, pos, dice)?.map(|(m, _)| m))
    }
}

/// gnubg's nets and bearoff databases at 0 ply, through bgkit's gnubg-exact evaluator.
pub struct GnubgPlayer {
    name: String,
    evaluator: Evaluator,
}

impl GnubgPlayer {
    /// A player for an evaluator.
    pub fn new(name: impl Into<String>, evaluator: Evaluator) -> GnubgPlayer {
        GnubgPlayer {
            name: name.into(),
            evaluator,
        }
    }
}

impl Player for GnubgPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &self,
        ctx: &mut PlayContext,
        pos: &Position,
        dice: Dice,
    ) -> Result<Option<Move>, TrainerError> {
        Ok(self.evaluator.best_move(&mut ctx.gen, pos, dice)?.map(|(m, _)| m))
    }
}

/// Where to find bearoff databases for players that need them.
#[derive(Clone, Debug, Default)]
pub struct DataPaths {
    /// One-sided database (gnubg_os0.bd); default: the evaluator's search path.
    pub bearoff_os: Option<std::path::PathBuf>,
    /// Two-sided database (gnubg_ts0.bd); default: the evaluator's search path.
    pub bearoff_ts: Option<std::path::PathBuf>,
}

impl DataPaths {
    /// Opens both databases (searching the default places for those not given).
    pub fn open(&self) -> Result<BearoffDbs, TrainerError> {
        use evaluator::datadir;
        let os = datadir::locate(
            self.bearoff_os.as_deref(),
            "one-sided bearoff database (gnubg_os0.bd)",
            "--bearoff-os",
            &datadir::one_sided_candidates(),
        )
        .map_err(TrainerError::Invalid)?;
        let ts = datadir::locate(
            self.bearoff_ts.as_deref(),
            "two-sided bearoff database (gnubg_ts0.bd)",
            "--bearoff-ts",
            &datadir::two_sided_candidates(),
        )
        .map_err(TrainerError::Invalid)?;
        Ok(BearoffDbs::open(Some(&os), Some(&ts))?)
    }
}

/// Builds a player from its description:
///
/// * `pubeval`, `random`;
/// * `gnubg:PATH`: gnubg's weights file PATH in bgkit's evaluator, with gnubg's bearoff
///   databases (`gnubg:` alone finds gnubg.wd where the evaluator looks for it);
/// * any other text: a weights file written by `trainer td` (its `.json` sidecar must
///   sit beside it), or, without a sidecar, a gnubg weights file as with `gnubg:`.
///
/// `dbs` opens the bearoff databases on first need (they are shared between players).
pub fn from_spec(
    spec: &str,
    paths: &DataPaths,
    dbs: &mut Option<Arc<BearoffDbs>>,
) -> Result<Box<dyn Player>, TrainerError> {
    let mut shared = || -> Result<Arc<BearoffDbs>, TrainerError> {
        if dbs.is_none() {
            *dbs = Some(Arc::new(paths.open()?));
        }
        Ok(dbs.clone().expect("opened just above"))
    };
    match spec {
        "pubeval" => return Ok(Box::new(Pubeval)),
        "random" => return Ok(Box::new(RandomPlayer)),
        "" => return Err(TrainerError::Invalid("empty player description".into())),
        _ => {}
    }
    if let Some(path) = spec.strip_prefix("gnubg:") {
        return gnubg_player(spec, path, paths);
    }
    let path = Path::new(spec);
    if !path.exists() {
        return Err(TrainerError::Invalid(format!(
            "player '{spec}': no such file (a player is pubeval, random, gnubg:PATH or a weights file)"
        )));
    }
    if model::sidecar_path(path).exists() {
        let (m, _) = model::load(path)?;
        let dbs = if m.config.bearoff {
            shared()?
        } else {
            Arc::new(BearoffDbs::default())
        };
        let name = path
            .file_stem()
            .map_or(spec.to_string(), |s| s.to_string_lossy().into_owned());
        return Ok(Box::new(NetPlayer::new(name, m, dbs)));
    }
    gnubg_player(spec, spec, paths)
}

fn gnubg_player(spec: &str, path: &str, paths: &DataPaths) -> Result<Box<dyn Player>, TrainerError> {
    use evaluator::datadir;
    let explicit = (!path.is_empty()).then(|| Path::new(path));
    let wpath = datadir::locate(
        explicit,
        "weights file",
        "gnubg:PATH",
        &datadir::weights_candidates(),
    )
    .map_err(TrainerError::Invalid)?;
    let weights = Weights::load(&wpath)?;
    let ev = Evaluator::new(weights, paths.open()?);
    let name = if path.is_empty() {
        "gnubg".to_string()
    } else {
        spec.to_string()
    };
    Ok(Box::new(GnubgPlayer::new(name, ev)))
}

//! Players: anything that chooses a move for a position and a roll. Duels, training
//! benchmarks and tournaments drive players only through [`Player`].
//!
//! Players are shared between threads (`Send + Sync`) and keep no state between calls:
//! whatever a decision needs to mutate (move generator, buffers, random numbers) is in
//! the [`PlayContext`] the caller owns, one per thread or game.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use board::{Dice, DiceStream, Move, MoveGen, Position};
use evaluator::bearoff::BearoffDbs;
use evaluator::engine::OptionNames;
use evaluator::nets::GnubgNets;
use evaluator::search::{Lookahead, FILTERS_NORMAL};
use evaluator::weights::Weights;
use evaluator::{Evaluator, NetSource};

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

/// The most plies a player may look ahead (the depth of gnubg's move filters).
pub const MAX_PLIES: u32 = evaluator::search::MAX_FILTER_PLIES;

/// A player that is an evaluator: it chooses at `plies` plies, 0-ply by
/// [`Evaluator::best_move`], deeper by gnubg's `FindnSaveBestMoves` with its normal move
/// filters and pruning. [`NetPlayer`] runs a trainer model, [`GnubgPlayer`] gnubg's nets.
pub struct EnginePlayer<N: NetSource> {
    name: String,
    engine: Evaluator<N>,
    plies: u32,
}

/// A trainer model, played by the evaluator (see [`crate::engine`]) at 0 ply or, with
/// [`EnginePlayer::with_plies`], deeper.
pub type NetPlayer = EnginePlayer<Model>;

/// gnubg's nets and bearoff databases through bgkit's gnubg-exact evaluator, at 0 ply
/// or, with [`EnginePlayer::with_plies`], deeper (gnubg's normal move filters).
pub type GnubgPlayer = EnginePlayer<GnubgNets>;

impl<N: NetSource> EnginePlayer<N> {
    /// The same player choosing its moves `plies` deep (at most [`MAX_PLIES`]).
    pub fn with_plies(mut self, plies: u32) -> EnginePlayer<N> {
        self.plies = plies.min(MAX_PLIES);
        self
    }
}

impl NetPlayer {
    /// A player for `model`, with the bearoff databases it uses (not used, and may be
    /// empty, if the model is configured without them).
    pub fn new(name: impl Into<String>, model: Model, dbs: Arc<BearoffDbs>) -> NetPlayer {
        let dbs = databases_for(&model, &dbs);
        EnginePlayer {
            name: name.into(),
            engine: Evaluator::with_nets(model, dbs).with_laid_out_outputs(),
            plies: 0,
        }
    }

    /// The model.
    pub fn model(&self) -> &Model {
        self.engine.nets()
    }
}

impl GnubgPlayer {
    /// A 0-ply player for an evaluator.
    pub fn new(name: impl Into<String>, evaluator: Evaluator) -> GnubgPlayer {
        EnginePlayer {
            name: name.into(),
            engine: evaluator,
            plies: 0,
        }
    }
}

impl<N: NetSource> Player for EnginePlayer<N> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &self,
        ctx: &mut PlayContext,
        pos: &Position,
        dice: Dice,
    ) -> Result<Option<Move>, TrainerError> {
        let (ev, plies) = (&self.engine, self.plies);
        let best = if plies == 0 {
            ev.best_move(&mut ctx.gen, pos, dice)?
        } else {
            ev.best_move_plied(
                &mut ctx.gen,
                pos,
                dice,
                plies,
                &FILTERS_NORMAL,
                Lookahead::default(),
            )?
        };
        Ok(best.map(|(m, _)| m))
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
            OptionNames::FLAGS.bearoff_os,
            &datadir::one_sided_candidates(),
        )
        .map_err(TrainerError::Invalid)?;
        let ts = datadir::locate(
            self.bearoff_ts.as_deref(),
            "two-sided bearoff database (gnubg_ts0.bd)",
            OptionNames::FLAGS.bearoff_ts,
            &datadir::two_sided_candidates(),
        )
        .map_err(TrainerError::Invalid)?;
        Ok(BearoffDbs::open(Some(&os), Some(&ts))?)
    }

    /// The database files [`DataPaths::open`] reads: each explicit path, else the first
    /// one found in the default places (none where none is found). Outputs must not
    /// replace them.
    pub fn files(&self) -> Vec<PathBuf> {
        use evaluator::datadir;
        [
            (self.bearoff_os.as_deref(), datadir::one_sided_candidates()),
            (self.bearoff_ts.as_deref(), datadir::two_sided_candidates()),
        ]
        .into_iter()
        .filter_map(|(explicit, candidates)| datadir::locate(explicit, "", "", &candidates).ok())
        .collect()
    }
}

/// The weights files that loading the player `spec` reads ([`from_spec`]'s
/// description): its weights file (the explicit path, or for `gnubg:` the gnubg.wd found
/// where the evaluator looks; none where none is found) and the trainer sidecar beside
/// it ([`crate::model::weights_files`]). `None` for `pubeval` and `random`, which read
/// no file; a net player reads the bearoff databases too ([`DataPaths::files`]).
/// Commands that write files count these as inputs, which no output may replace.
pub fn spec_files(spec: &str) -> Option<Vec<PathBuf>> {
    let (_, spec) = participant_arg(spec);
    let base = split_plies(&spec).map_or(spec.as_str(), |(b, _)| b);
    if matches!(base, "" | "pubeval" | "random") {
        return None;
    }
    let weights = match base.strip_prefix("gnubg:") {
        Some(p) => evaluator::datadir::locate(
            (!p.is_empty()).then(|| Path::new(p)),
            "",
            "",
            &evaluator::datadir::weights_candidates(),
        )
        .ok(),
        None => Some(PathBuf::from(base)),
    };
    Some(weights.map_or_else(Vec::new, |w| crate::model::weights_files(&w)))
}

/// Builds a player from its description:
///
/// * `pubeval`, `random`;
/// * `gnubg:PATH`: gnubg's weights file PATH in bgkit's evaluator, with gnubg's bearoff
///   databases (`gnubg:` alone finds gnubg.wd where the evaluator looks for it);
/// * any other text: a weights file written by `trainer td` (its `.json` trainer sidecar
///   must sit beside it), or, without one, a gnubg weights file as with `gnubg:` (a
///   `.json` of another format, such as the metadata of the nets in `nets/`, is not a
///   trainer sidecar).
///
/// A net player (`gnubg:…` or a weights file) may end in `@N`: it then chooses its
/// moves N plies deep (0 to [`MAX_PLIES`]; gnubg's normal move filters and pruning),
/// e.g. `gnubg:@2`, gnubg's usual yardstick. `NAME=DESCRIPTION` names the player
/// (a name holds no `/` or `:`); otherwise its name is the description as given.
///
/// `dbs` opens the bearoff databases on first need (they are shared between players).
pub fn from_spec(
    spec: &str,
    paths: &DataPaths,
    dbs: &mut Option<Arc<BearoffDbs>>,
) -> Result<Box<dyn Player>, TrainerError> {
    let (name, spec) = participant_arg(spec);
    let (base, plies) = split_plies(&spec)?;
    let name = name.unwrap_or_else(|| match (base, plies) {
        ("gnubg:", None) => "gnubg".into(),
        ("gnubg:", Some(n)) => format!("gnubg@{n}"),
        _ => spec.clone(),
    });
    let spec = base;
    let mut shared = || -> Result<Arc<BearoffDbs>, TrainerError> {
        if dbs.is_none() {
            *dbs = Some(Arc::new(paths.open()?));
        }
        Ok(dbs.clone().expect("opened just above"))
    };
    let named = |inner: Box<dyn Player>| -> Box<dyn Player> {
        if inner.name() == name {
            inner
        } else {
            Box::new(Named {
                name: name.clone(),
                inner,
            })
        }
    };
    match (spec, plies) {
        ("pubeval", None) => return Ok(named(Box::new(Pubeval))),
        ("random", None) => return Ok(named(Box::new(RandomPlayer))),
        ("pubeval" | "random", Some(_)) => {
            return Err(TrainerError::Invalid(format!(
                "player '{spec}' has no lookahead (@N is for gnubg:PATH and weights files)"
            )))
        }
        ("", _) => return Err(TrainerError::Invalid("empty player description".into())),
        _ => {}
    }
    let plies = plies.unwrap_or(0);
    if let Some(path) = spec.strip_prefix("gnubg:") {
        return Ok(Box::new(gnubg_player(name, path, paths)?.with_plies(plies)));
    }
    let path = Path::new(spec);
    if !path.exists() {
        return Err(TrainerError::Invalid(format!(
            "player '{spec}': no such file (a player is pubeval, random, gnubg:PATH or a weights file)"
        )));
    }
    if let Some((m, _)) = model::load_if_trainer(path)? {
        let dbs = if m.config.bearoff {
            shared()?
        } else {
            Arc::new(BearoffDbs::default())
        };
        return Ok(Box::new(NetPlayer::new(name, m, dbs).with_plies(plies)));
    }
    Ok(Box::new(gnubg_player(name, spec, paths)?.with_plies(plies)))
}

/// A player under another name.
struct Named {
    name: String,
    inner: Box<dyn Player>,
}

impl Player for Named {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &self,
        ctx: &mut PlayContext,
        pos: &Position,
        dice: Dice,
    ) -> Result<Option<Move>, TrainerError> {
        self.inner.choose(ctx, pos, dice)
    }
}

/// Reads a player argument: `NAME=SPEC`, or a bare SPEC (a tournament names it with
/// [`crate::tourney::default_name`]). A name holds no `/` or `:`.
pub fn participant_arg(arg: &str) -> (Option<String>, String) {
    if let Some((name, spec)) = arg.split_once('=') {
        if !name.is_empty() && !name.contains(['/', ':']) {
            return (Some(name.to_string()), spec.to_string());
        }
    }
    (None, arg.to_string())
}

/// A description's `@N` lookahead suffix, as text: (the rest, the digits), if it ends
/// in `@` and one or more digits.
pub(crate) fn plies_suffix(spec: &str) -> Option<(&str, &str)> {
    spec.rsplit_once('@')
        .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A description without its `@N` lookahead suffix, and N. A description that is an
/// existing file keeps an `@` that is part of its name. A suffix that is not 0 to
/// [`MAX_PLIES`] digits (`@5`, `@-1`, `@x`) after a net player (`gnubg:`, `gnubg:PATH` or
/// a weights file that exists) is an error saying what a lookahead is, not a file name.
fn split_plies(spec: &str) -> Result<(&str, Option<u32>), TrainerError> {
    let Some((base, n)) = spec.rsplit_once('@').filter(|(_, n)| !n.contains('/')) else {
        return Ok((spec, None));
    };
    if Path::new(spec).exists() {
        return Ok((spec, None));
    }
    let digits = !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let net = base == "gnubg:" || Path::new(base.strip_prefix("gnubg:").unwrap_or(base)).is_file();
    if !digits && !net {
        return Ok((spec, None));
    }
    match n.parse::<u32>() {
        Ok(p) if digits && p <= MAX_PLIES => Ok((base, Some(p))),
        _ => Err(TrainerError::Invalid(format!(
            "player '{spec}': lookahead @{n} is out of range (a lookahead is @0 to @{MAX_PLIES}: the plies a net player looks ahead)"
        ))),
    }
}

fn gnubg_player(name: String, path: &str, paths: &DataPaths) -> Result<GnubgPlayer, TrainerError> {
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
    Ok(GnubgPlayer::new(name, ev))
}

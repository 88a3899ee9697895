//! The trainer's nets: their configuration, initialisation, and files (gnubg's weights
//! formats plus a JSON sidecar).
//!
//! A model has one net per position class that nets evaluate (contact, race, crashed;
//! or a single net for all three) and, with gnubg's encoding, the three pruning nets
//! gnubg needs to load a weights file. Bearoff positions are never given to the nets
//! when the model is configured with bearoff databases.
//!
//! Files: `NAME.wd` (gnubg binary), `NAME.weights` (gnubg text) and `NAME.json` (the
//! sidecar: configuration and training metadata). With gnubg's encoding and layout
//! the weights files hold gnubg's six nets in gnubg's order (contact, race, crashed,
//! prune contact, prune crashed, prune race) and load in gnubg itself; the Tesauro
//! encoding writes its nets in the same formats with 198 inputs (contact, race,
//! crashed, or one net), which only bgkit reads.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use board::Mt19937;
use evaluator::weights::{Net, Weights, WeightsFormat};
use evaluator::PositionClass;
use serde::{Deserialize, Serialize};

use crate::encoding::Encoding;
use crate::error::TrainerError;
use crate::seed;

/// Hidden units of gnubg's pruning nets (contact, crashed, race), multiples of 4 as
/// gnubg's SIMD code requires.
pub const PRUNE_HIDDEN: [usize; 3] = [16, 16, 8];

/// The sidecar's format tag.
pub const SIDECAR_FORMAT: &str = "bgkit-trainer-net";

/// Which nets a model has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// One net each for contact, race and crashed positions (as gnubg).
    Split,
    /// One net for every position a net evaluates (as TD-Gammon); Tesauro encoding only.
    Single,
}

/// How weights start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Init {
    /// Glorot and Bengio's uniform initialisation: ±√(6 / (fan-in + fan-out)) for the
    /// effective (slope-scaled) weights; thresholds 0.
    Xavier,
    /// gnubg's: every weight and threshold uniform in [−0.25, 0.25).
    Gnubg,
}

macro_rules! text_enum {
    ($t:ty, $what:literal, $($name:literal => $v:expr),+) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                $(if *self == $v { return f.write_str($name); })+
                unreachable!()
            }
        }
        impl FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<$t, String> {
                $(if s == $name { return Ok($v); })+
                Err(format!(concat!("unknown ", $what, " '{}' (expected {})"), s, [$($name),+].join(" or ")))
            }
        }
    };
}
text_enum!(Layout, "net layout", "split" => Layout::Split, "single" => Layout::Single);
text_enum!(Init, "initialisation", "xavier" => Init::Xavier, "gnubg" => Init::Gnubg);

/// What a model is: everything needed to rebuild and use its nets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelConfig {
    /// Input encoding.
    pub encoding: Encoding,
    /// Which nets.
    pub layout: Layout,
    /// Hidden units of each main net.
    pub hidden: usize,
    /// Initialisation.
    pub init: Init,
    /// Version written into the weights files ("1.00" loads in Debian's gnubg 1.07;
    /// ≥ 1.01 also selects the fixed PIPLOSS input rule).
    pub weights_version: String,
    /// Whether bearoff databases evaluate the positions they cover (the nets are then
    /// neither trained nor used there).
    pub bearoff: bool,
}

impl ModelConfig {
    /// gnubg's encoding, one net per class, Xavier initialisation and weights version
    /// 1.00 (the defaults of `trainer td`), with `hidden` units and bearoff databases
    /// as `bearoff` says.
    pub fn gnubg(hidden: usize, bearoff: bool) -> ModelConfig {
        ModelConfig {
            encoding: Encoding::Gnubg,
            layout: Layout::Split,
            hidden,
            init: Init::Xavier,
            weights_version: "1.00".into(),
            bearoff,
        }
    }

    /// Checks the combination of settings.
    pub fn validate(&self) -> Result<(), TrainerError> {
        if self.hidden == 0 || self.hidden > 4096 {
            return Err(TrainerError::Invalid(format!(
                "hidden units must be 1..=4096, got {}",
                self.hidden
            )));
        }
        if self.encoding == Encoding::Gnubg && !self.hidden.is_multiple_of(4) {
            return Err(TrainerError::Invalid(format!(
                "with the gnubg encoding the hidden units must be a multiple of 4 (gnubg's SIMD \
                 evaluation needs it; gnubg 1.07 crashes on other sizes), got {}",
                self.hidden
            )));
        }
        if self.encoding == Encoding::Gnubg && self.layout == Layout::Single {
            return Err(TrainerError::Invalid(
                "the gnubg encoding needs the split layout (its race and contact inputs differ)".into(),
            ));
        }
        match self.weights_version.parse::<f32>() {
            Ok(v) if v > 0.0 && self.weights_version.len() <= 15 => Ok(()),
            _ => Err(TrainerError::Invalid(format!(
                "weights version '{}' is not a number like 1.00",
                self.weights_version
            ))),
        }
    }

    /// Whether the PIPLOSS input follows weights 1.01's rule.
    pub fn fixed_pip_loss(&self) -> bool {
        // Asked for every position evaluated: the two usual versions without parsing.
        match self.weights_version.as_str() {
            "1.00" => false,
            "1.01" => true,
            v => v.parse::<f32>().is_ok_and(|v| v >= 1.005),
        }
    }

    /// Number of main nets.
    pub fn main_nets(&self) -> usize {
        match self.layout {
            Layout::Split => 3,
            Layout::Single => 1,
        }
    }

    /// Whether the model carries gnubg's pruning nets.
    pub fn has_prune_nets(&self) -> bool {
        self.encoding == Encoding::Gnubg
    }
}

/// Index of the main net (in file order: contact, race, crashed) for a net class.
pub fn main_slot(layout: Layout, class: PositionClass) -> usize {
    match (layout, class) {
        (Layout::Single, _) => 0,
        (_, PositionClass::Race) => 1,
        (_, PositionClass::Crashed) => 2,
        _ => 0,
    }
}

/// Index of the pruning net (prune contact, prune crashed, prune race) for a class.
pub fn prune_slot(class: PositionClass) -> usize {
    match class {
        PositionClass::Crashed => 1,
        PositionClass::Race => 2,
        _ => 0,
    }
}

/// Classes in main-net file order.
const MAIN_CLASSES: [PositionClass; 3] = [
    PositionClass::Contact,
    PositionClass::Race,
    PositionClass::Crashed,
];

/// A set of nets with its configuration.
#[derive(Debug, PartialEq)]
pub struct Model {
    /// The configuration.
    pub config: ModelConfig,
    /// Main nets (contact, race, crashed; or one).
    pub nets: Vec<Net>,
    /// Pruning nets (contact, crashed, race) with the gnubg encoding, else empty.
    pub prune: Vec<Net>,
}

impl Clone for Model {
    fn clone(&self) -> Model {
        Model {
            config: self.config.clone(),
            nets: self.nets.clone(),
            prune: self.prune.clone(),
        }
    }

    /// Copies into the existing weight arrays (training copies whole models per game).
    fn clone_from(&mut self, source: &Model) {
        self.config.clone_from(&source.config);
        self.nets.clone_from(&source.nets);
        self.prune.clone_from(&source.prune);
    }
}

impl Model {
    /// A freshly initialised model; `seed` makes the weights reproducible.
    pub fn new(config: ModelConfig, seed: u64) -> Result<Model, TrainerError> {
        config.validate()?;
        let mut rng = Mt19937::new(seed::derive32(seed, seed::INIT, 0));
        let nets = (0..config.main_nets())
            .map(|n| {
                let inputs = config.encoding.inputs(MAIN_CLASSES[n]);
                init_net(Net::zeros(inputs, config.hidden, 5), config.init, &mut rng)
            })
            .collect();
        let prune = if config.has_prune_nets() {
            PRUNE_HIDDEN
                .iter()
                .map(|&h| {
                    init_net(
                        Net::zeros(evaluator::inputs::BASE_INPUTS, h, 5),
                        config.init,
                        &mut rng,
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(Model { config, nets, prune })
    }

    /// The main net for a net class.
    pub fn net(&self, class: PositionClass) -> &Net {
        &self.nets[main_slot(self.config.layout, class)]
    }

    /// The weights file contents; `trained` goes into each net's training counter.
    pub fn to_weights(&self, trained: u64) -> Weights {
        let mut nets: Vec<Net> = self.all_nets().cloned().collect();
        for n in &mut nets {
            n.trained = trained.min(i32::MAX as u64) as i64;
        }
        Weights {
            version: self.config.weights_version.clone(),
            nets,
        }
    }

    /// Rebuilds a model from a weights file's nets, checking them against `config`.
    pub fn from_weights(config: ModelConfig, weights: Weights, name: &Path) -> Result<Model, TrainerError> {
        config.validate()?;
        let want_prune = if config.has_prune_nets() { 3 } else { 0 };
        let want = config.main_nets() + want_prune;
        if weights.nets.len() != want {
            return Err(TrainerError::format(
                name,
                format!(
                    "holds {} nets; its configuration ({} encoding, {} layout) needs {want}",
                    weights.nets.len(),
                    config.encoding,
                    config.layout
                ),
            ));
        }
        let mut nets = weights.nets;
        // The training counter lives in the sidecar; in memory it is always 0.
        nets.iter_mut().for_each(|n| n.trained = 0);
        let prune = nets.split_off(config.main_nets());
        for (n, net) in nets.iter().enumerate() {
            let inputs = config.encoding.inputs(MAIN_CLASSES[n]);
            if net.inputs != inputs || net.hidden != config.hidden || net.outputs != 5 {
                return Err(TrainerError::format(
                    name,
                    format!(
                        "net {} is {}-{}-{}, the configuration says {inputs}-{}-5",
                        n + 1,
                        net.inputs,
                        net.hidden,
                        net.outputs,
                        config.hidden
                    ),
                ));
            }
        }
        if prune.iter().any(|n| n.inputs != evaluator::inputs::BASE_INPUTS) {
            return Err(TrainerError::format(
                name,
                "a pruning net does not have 200 inputs",
            ));
        }
        Ok(Model { config, nets, prune })
    }

    /// The bits of every weight and threshold, net by net (main nets, then pruning
    /// nets): what a bit-for-bit comparison compares (`==` on the weights would take
    /// −0.0 for +0.0).
    pub fn weight_bits(&self) -> Vec<u32> {
        self.all_nets()
            .flat_map(|n| n.arrays().into_iter().flatten().map(|v| v.to_bits()))
            .collect()
    }

    /// Adds `other − base` to every weight: merges what a copy of `base` learned.
    pub fn add_difference(&mut self, other: &Model, base: &Model) {
        self.each_net_with(other, base, |_, m, o, b| {
            for_weight_arrays(m, o, b, evaluator::simd::add_difference);
        });
    }

    /// Makes this copy of `base`, which has learned since, the merge of what it learned
    /// into `model`: every weight becomes `model + (self − base)`, the bits
    /// [`Model::add_difference`] would give `model`, without writing to `model`.
    pub fn merge_onto(&mut self, model: &Model, base: &Model) {
        self.each_net_with(model, base, |_, o, m, b| {
            for_weight_arrays(o, m, b, evaluator::simd::add_difference_onto);
        });
    }

    /// The nets, main nets first, then pruning nets: the numbering of
    /// [`crate::rows::Rows`].
    pub(crate) fn all_nets(&self) -> impl Iterator<Item = &Net> {
        self.nets.iter().chain(&self.prune)
    }

    /// [`Model::all_nets`], to change them.
    pub(crate) fn all_nets_mut(&mut self) -> impl Iterator<Item = &mut Net> {
        self.nets.iter_mut().chain(self.prune.iter_mut())
    }

    /// Calls `f` with each net's number ([`Model::all_nets`]), the net, and the same net
    /// of `a` and `b`.
    pub(crate) fn each_net_with(
        &mut self,
        a: &Model,
        b: &Model,
        mut f: impl FnMut(usize, &mut Net, &Net, &Net),
    ) {
        let theirs = a.all_nets().zip(b.all_nets());
        for (k, (mine, (x, y))) in self.all_nets_mut().zip(theirs).enumerate() {
            f(k, mine, x, y);
        }
    }
}

/// Applies `f` to the four weight arrays of `first` with those of `second` and `third`.
fn for_weight_arrays(first: &mut Net, second: &Net, third: &Net, f: fn(&mut [f32], &[f32], &[f32])) {
    f(
        &mut first.hidden_weights,
        &second.hidden_weights,
        &third.hidden_weights,
    );
    for_small_arrays(first, second, third, f);
}

/// Applies `f` to the weight arrays of `first` other than its hidden weights (output
/// weights and both thresholds), with those of `second` and `third`.
pub(crate) fn for_small_arrays(
    first: &mut Net,
    second: &Net,
    third: &Net,
    f: fn(&mut [f32], &[f32], &[f32]),
) {
    f(
        &mut first.output_weights,
        &second.output_weights,
        &third.output_weights,
    );
    f(
        &mut first.hidden_thresholds,
        &second.hidden_thresholds,
        &third.hidden_thresholds,
    );
    f(
        &mut first.output_thresholds,
        &second.output_thresholds,
        &third.output_thresholds,
    );
}

/// A uniform `f32` in [−r, r).
fn uniform(rng: &mut Mt19937, r: f32) -> f32 {
    let u = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
    (2.0 * u - 1.0) * r
}

fn init_net(mut net: Net, init: Init, rng: &mut Mt19937) -> Net {
    match init {
        Init::Gnubg => {
            for v in net
                .hidden_weights
                .iter_mut()
                .chain(net.output_weights.iter_mut())
                .chain(net.hidden_thresholds.iter_mut())
                .chain(net.output_thresholds.iter_mut())
            {
                *v = uniform(rng, 0.25);
            }
        }
        Init::Xavier => {
            // Effective weights are slope × stored weight.
            let rh = (6.0 / (net.inputs + net.hidden) as f32).sqrt() / net.beta_hidden;
            let ro = (6.0 / (net.hidden + net.outputs) as f32).sqrt() / net.beta_output;
            net.hidden_weights.iter_mut().for_each(|v| *v = uniform(rng, rh));
            net.output_weights.iter_mut().for_each(|v| *v = uniform(rng, ro));
        }
    }
    net
}

/// Training metadata kept in the sidecar.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainingInfo {
    /// Self-play games trained.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// TD λ.
    pub lambda: f32,
    /// Initial learning rate.
    pub alpha: f32,
    /// Annealing exponent of the learning-rate schedule.
    pub anneal: f32,
    /// Learning rate after the last game.
    pub alpha_now: f32,
    /// Parallel scheme (`ordered`, `async` or `sync`).
    pub parallel: String,
    /// Games per synchronous round or ordered block.
    pub batch: u64,
    /// Games the snapshots of the ordered scheme lag behind.
    pub lag: u64,
    /// Threads of the last session.
    pub threads: usize,
    /// The weights file the run started from (`trainer td --init FILE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub init_file: Option<String>,
    /// Wall-clock seconds spent, all sessions together.
    pub elapsed_seconds: f64,
    /// Positions trained (net updates), all sessions together.
    pub positions: u64,
    /// Self-play moves were preselected with the pruning nets.
    pub prune_moves: bool,
    /// How self-play scored its move lists: `fused`, `exact` or `incremental` (`trainer
    /// td --eval`; `fast` in sidecars written before the fused mode, for incremental;
    /// empty in sidecars written before the setting, whose runs were exact).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub eval: String,
}

/// The JSON sidecar of a weights file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sidecar {
    /// Always [`SIDECAR_FORMAT`].
    pub format: String,
    /// Sidecar format version (1).
    pub format_version: u32,
    /// The model's configuration.
    pub config: ModelConfig,
    /// How it was trained, if by `trainer td`.
    pub training: Option<TrainingInfo>,
}

/// The sidecar path of a weights file: the same name with extension `.json`.
pub fn sidecar_path(weights: &Path) -> PathBuf {
    weights.with_extension("json")
}

/// The files that loading `weights` reads: the file, and its sidecar when there is one
/// ([`find_sidecar`] reads it). Commands that write files count these as inputs.
pub fn weights_files(weights: &Path) -> Vec<PathBuf> {
    let sidecar = sidecar_path(weights);
    let mut files = vec![weights.to_path_buf()];
    if sidecar != weights && sidecar.is_file() {
        files.push(sidecar);
    }
    files
}

/// Writes `NAME.wd`, `NAME.weights` and `NAME.json` for `stem` = `DIR/NAME`, each
/// through a temporary file renamed into place.
pub fn save(stem: &Path, model: &Model, training: Option<TrainingInfo>) -> Result<(), TrainerError> {
    let games = training.as_ref().map_or(0, |t| t.games);
    let weights = model.to_weights(games);
    weights.save(stem.with_extension("wd"), WeightsFormat::Binary)?;
    weights.save(stem.with_extension("weights"), WeightsFormat::Text)?;
    let sidecar = Sidecar {
        format: SIDECAR_FORMAT.into(),
        format_version: 1,
        config: model.config.clone(),
        training,
    };
    let json = serde_json::to_string_pretty(&sidecar).expect("sidecar serialises");
    let path = stem.with_extension("json");
    write_atomic(&path, format!("{json}\n").as_bytes())
}

/// Writes a file through a temporary name renamed into place.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TrainerError> {
    fileio::write_atomic(path, bytes).map_err(|e| TrainerError::io(path, e))
}

/// Reads a sidecar.
pub fn load_sidecar(path: &Path) -> Result<Sidecar, TrainerError> {
    let text = std::fs::read_to_string(path).map_err(|e| TrainerError::io(path, e))?;
    parse_sidecar(path, &text)
}

fn parse_sidecar(path: &Path, text: &str) -> Result<Sidecar, TrainerError> {
    let s: Sidecar = serde_json::from_str(text)
        .map_err(|e| TrainerError::format(path, format!("not a valid trainer sidecar: {e}")))?;
    if s.format != SIDECAR_FORMAT {
        return Err(TrainerError::format(
            path,
            format!("format is '{}', expected '{SIDECAR_FORMAT}'", s.format),
        ));
    }
    Ok(s)
}

/// The trainer sidecar beside a weights file, if it has one. `None` when there is no
/// `NAME.json`, or when that file is another tool's metadata: a JSON value whose
/// `format` is not [`SIDECAR_FORMAT`] (the metadata of the nets shipped in `nets/`, say),
/// so the weights are gnubg's six nets. A file that names the trainer's format but
/// does not hold a valid sidecar, or that is not JSON at all, is an error.
pub fn find_sidecar(weights: &Path) -> Result<Option<Sidecar>, TrainerError> {
    let path = sidecar_path(weights);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(TrainerError::io(&path, e)),
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        TrainerError::format(
            &path,
            format!("not JSON ({e}); expected a trainer sidecar or other metadata"),
        )
    })?;
    if value.get("format").and_then(|f| f.as_str()) != Some(SIDECAR_FORMAT) {
        return Ok(None);
    }
    parse_sidecar(&path, &text).map(Some)
}

/// Loads a model from a weights file (text or binary) and its sidecar.
pub fn load(weights_path: &Path) -> Result<(Model, Sidecar), TrainerError> {
    let sidecar = load_sidecar(&sidecar_path(weights_path))?;
    with_sidecar(weights_path, sidecar)
}

/// Loads a trainer model when the weights file has a trainer sidecar ([`find_sidecar`]);
/// `None` for gnubg's nets.
pub fn load_if_trainer(weights_path: &Path) -> Result<Option<(Model, Sidecar)>, TrainerError> {
    find_sidecar(weights_path)?
        .map(|sidecar| with_sidecar(weights_path, sidecar))
        .transpose()
}

fn with_sidecar(weights_path: &Path, sidecar: Sidecar) -> Result<(Model, Sidecar), TrainerError> {
    let weights = Weights::load_any(weights_path)?;
    let model = Model::from_weights(sidecar.config.clone(), weights, weights_path)?;
    Ok((model, sidecar))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(encoding: Encoding, layout: Layout) -> ModelConfig {
        ModelConfig {
            encoding,
            layout,
            hidden: 8,
            init: Init::Xavier,
            weights_version: "1.00".into(),
            bearoff: true,
        }
    }

    #[test]
    fn pip_loss_rule_switches_at_weights_1_01() {
        // gnubg 1.07 switches to the fixed PIPLOSS input from weights version 1.01 on.
        for (version, fixed) in [
            ("1.00", false),
            ("1.0", false),
            ("1.01", true),
            ("1.010", true),
            ("2.5", true),
        ] {
            let c = ModelConfig {
                weights_version: version.into(),
                ..config(Encoding::Gnubg, Layout::Split)
            };
            assert_eq!(c.fixed_pip_loss(), fixed, "{version}");
        }
    }

    #[test]
    fn gnubg_encoding_gives_gnubgs_six_net_shapes() {
        let m = Model::new(config(Encoding::Gnubg, Layout::Split), 1).unwrap();
        let w = m.to_weights(5);
        let inputs: Vec<usize> = w.nets.iter().map(|n| n.inputs).collect();
        assert_eq!(inputs, evaluator::weights::NET_INPUTS);
        // gnubg's loader accepts it.
        assert!(Weights::from_bytes(&w.to_binary(), "x").is_ok());
        let t = Model::new(config(Encoding::Tesauro, Layout::Single), 1).unwrap();
        assert_eq!(t.nets.len(), 1);
        assert!(t.prune.is_empty());
        assert!(Model::new(config(Encoding::Gnubg, Layout::Single), 1).is_err());
        let odd = ModelConfig {
            hidden: 10,
            ..config(Encoding::Gnubg, Layout::Split)
        };
        assert!(Model::new(odd, 1)
            .unwrap_err()
            .to_string()
            .contains("multiple of 4"));
        let odd_tesauro = ModelConfig {
            hidden: 10,
            ..config(Encoding::Tesauro, Layout::Single)
        };
        assert!(Model::new(odd_tesauro, 1).is_ok());
    }

    #[test]
    fn init_is_seeded_and_in_range() {
        let c = config(Encoding::Tesauro, Layout::Split);
        let a = Model::new(c.clone(), 7).unwrap();
        assert_eq!(a, Model::new(c.clone(), 7).unwrap());
        assert_ne!(a, Model::new(c.clone(), 8).unwrap());
        let r = (6.0f32 / (198.0 + 8.0)).sqrt() / 0.1;
        let hw = &a.nets[0].hidden_weights;
        assert!(hw.iter().all(|v| v.abs() <= r));
        // Spread over the range, not constant.
        assert!(hw.iter().any(|v| v.abs() > r * 0.9));
        let g = Model::new(
            ModelConfig {
                init: Init::Gnubg,
                ..c
            },
            7,
        )
        .unwrap();
        assert!(g.nets[1]
            .hidden_thresholds
            .iter()
            .all(|v| (-0.25..0.25).contains(v)));
    }
}

//! gnubg's neural-net weight files: the text format (`gnubg.weights`) and the binary
//! format (`gnubg.wd`), read and written.
//!
//! Both hold six nets in a fixed order: contact, race, crashed, and the pruning nets
//! for contact, crashed and race. Each net stores its shape (inputs, hidden units,
//! outputs), a training counter, the two sigmoid slopes (hidden, output) and four
//! arrays of `f32`: the hidden weights input-major (the `hidden` weights of input 0,
//! then of input 1, ...), the output weights output-major, the hidden thresholds and
//! the output thresholds.
//!
//! * **Text**: a first line `GNU Backgammon <version>`; per net a line
//!   `<inputs> <hidden> <outputs> <trained> <beta hidden> <beta output>` and then one
//!   number per line. gnubg writes numbers with 7 decimals; bgkit does too whenever
//!   that reads back to the same `f32`, and otherwise uses as many decimals as needed,
//!   so that text → binary conversion is always exact.
//! * **Binary**: little-endian `f32` magic 472.3782 and `f32` version (1.00 or 1.01),
//!   then per net `u32` inputs, hidden, outputs, `i32` trained, `f32` beta hidden,
//!   beta output, and the four arrays. No checksum.

use crate::aligned::AlignedFloats;
use std::fmt::Write as _;
use std::path::Path;

/// The binary file's magic number.
pub const BINARY_MAGIC: f32 = 472.3782;

/// The nets of a weights file, in file order.
pub const NET_NAMES: [&str; 6] = [
    "contact",
    "race",
    "crashed",
    "prune contact",
    "prune crashed",
    "prune race",
];

/// Expected input and output counts per net, as gnubg checks them.
pub const NET_INPUTS: [usize; 6] = [250, 214, 250, 200, 200, 200];

/// One fully connected net with one hidden layer.
#[derive(Debug, PartialEq)]
pub struct Net {
    /// Number of inputs.
    pub inputs: usize,
    /// Number of hidden units.
    pub hidden: usize,
    /// Number of outputs (5 for gnubg's nets).
    pub outputs: usize,
    /// The training counter field (gnubg writes 1 in binary files).
    pub trained: i64,
    /// Slope of the hidden sigmoid (0.1 in gnubg's nets).
    pub beta_hidden: f32,
    /// Slope of the output sigmoid (1.0 in gnubg's nets).
    pub beta_output: f32,
    /// `inputs * hidden` weights, input-major: `hidden_weights[i * hidden + j]` links
    /// input `i` to hidden unit `j`. (All four arrays start on a cache line: the
    /// kernels read them 64 bytes at a time.)
    pub hidden_weights: AlignedFloats,
    /// `outputs * hidden` weights, output-major: `output_weights[k * hidden + j]`.
    pub output_weights: AlignedFloats,
    /// One threshold (bias) per hidden unit.
    pub hidden_thresholds: AlignedFloats,
    /// One threshold (bias) per output.
    pub output_thresholds: AlignedFloats,
}

impl Clone for Net {
    fn clone(&self) -> Net {
        let mut n = Net::zeros(0, 0, 0);
        n.clone_from(self);
        n
    }

    /// Copies into the existing weight arrays where they are large enough.
    fn clone_from(&mut self, source: &Net) {
        let Net {
            inputs,
            hidden,
            outputs,
            trained,
            beta_hidden,
            beta_output,
            hidden_weights,
            output_weights,
            hidden_thresholds,
            output_thresholds,
        } = source;
        (self.inputs, self.hidden, self.outputs, self.trained) = (*inputs, *hidden, *outputs, *trained);
        (self.beta_hidden, self.beta_output) = (*beta_hidden, *beta_output);
        self.hidden_weights.clone_from(hidden_weights);
        self.output_weights.clone_from(output_weights);
        self.hidden_thresholds.clone_from(hidden_thresholds);
        self.output_thresholds.clone_from(output_thresholds);
    }
}

impl Net {
    /// A net of the given shape with all weights zero (slopes 0.1 and 1.0).
    pub fn zeros(inputs: usize, hidden: usize, outputs: usize) -> Net {
        Net {
            inputs,
            hidden,
            outputs,
            trained: 0,
            beta_hidden: 0.1,
            beta_output: 1.0,
            hidden_weights: AlignedFloats::zeros(inputs * hidden),
            output_weights: AlignedFloats::zeros(outputs * hidden),
            hidden_thresholds: AlignedFloats::zeros(hidden),
            output_thresholds: AlignedFloats::zeros(outputs),
        }
    }

    fn float_count(&self) -> usize {
        self.inputs * self.hidden + self.outputs * self.hidden + self.hidden + self.outputs
    }

    /// Whether every weight and threshold is a finite number (training that diverged
    /// leaves infinities and NaNs).
    pub fn is_finite(&self) -> bool {
        self.arrays().iter().all(|a| a.iter().all(|v| v.is_finite()))
    }

    /// Checks a net by the rules every net of a weights file meets: 5 outputs, 1 to
    /// 4096 hidden units, positive sigmoid slopes, finite values. `Err` says what is
    /// wrong ("the net has ...").
    pub fn check(&self) -> Result<(), String> {
        let (bh, bo) = (self.beta_hidden, self.beta_output);
        check_shape("", None, self.inputs, self.hidden, self.outputs, bh, bo)?;
        check_finite(self, "")
    }

    /// The four weight arrays in file order: hidden weights, output weights, hidden
    /// thresholds, output thresholds.
    pub fn arrays(&self) -> [&[f32]; 4] {
        [
            &self.hidden_weights,
            &self.output_weights,
            &self.hidden_thresholds,
            &self.output_thresholds,
        ]
    }
}

/// A complete weights file: its version and the six nets.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The version text, e.g. `1.00` (Debian's gnubg 1.07) or `1.01` (gnubg ≥ 1.08).
    pub version: String,
    /// contact, race, crashed, prune contact, prune crashed, prune race.
    pub nets: Vec<Net>,
}

/// Why a weights file could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system error.
        source: std::io::Error,
    },
    /// The contents are not a valid weights file.
    #[error("{path}: {reason}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong, and where.
        reason: String,
    },
}

/// Which of the two file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightsFormat {
    /// `gnubg.weights`.
    Text,
    /// `gnubg.wd`.
    Binary,
}

impl Weights {
    /// The version as a number (1.00, 1.01, ...), or `None` if it is not numeric.
    pub fn version_number(&self) -> Option<f32> {
        self.version.trim().parse().ok()
    }

    /// Whether the PIPLOSS input follows the fixed rule of weights 1.01 and later (a home
    /// point counts only with two or more checkers) rather than the old one.
    pub fn fixed_pip_loss(&self) -> bool {
        self.version_number().is_some_and(|v| v >= 1.005)
    }

    /// Reads a gnubg weights file (six nets with gnubg's input counts), telling text
    /// from binary by its first bytes.
    pub fn load(path: impl AsRef<Path>) -> Result<Weights, WeightsError> {
        Weights::load_with(path, Shapes::Gnubg)
    }

    /// Reads a weights file in gnubg's formats whose nets may have any shape and any
    /// number (at least one), as bgkit's trainer writes for its own input encodings.
    pub fn load_any(path: impl AsRef<Path>) -> Result<Weights, WeightsError> {
        Weights::load_with(path, Shapes::Any)
    }

    /// Checks weights built in memory by the rules a file must meet to load with
    /// `shapes`: the count of nets (six for [`Shapes::Gnubg`], with gnubg's input counts),
    /// each net's shape and sigmoid slopes, finite values and a version both formats
    /// can carry. `Err` says what is wrong, naming the net.
    pub fn check(&self, shapes: Shapes) -> Result<(), String> {
        let count = self.nets.len();
        if count == 0 || (shapes == Shapes::Gnubg && count != NET_INPUTS.len()) {
            return Err(format!("{}; {}", net_count(count), shapes.wants()));
        }
        let numeric = self.version.trim().parse::<f32>().is_ok_and(version_ok);
        if !numeric || self.version.trim().len() > 15 {
            return Err(format!(
                "bad version '{}' (expected a number such as 1.00)",
                self.version
            ));
        }
        for (n, net) in self.nets.iter().enumerate() {
            let (bh, bo) = (net.beta_hidden, net.beta_output);
            check_shape(
                &net_name(n),
                shapes.inputs(n),
                net.inputs,
                net.hidden,
                net.outputs,
                bh,
                bo,
            )?;
            check_finite(net, &net_name(n))?;
        }
        Ok(())
    }

    fn load_with(path: impl AsRef<Path>, shapes: Shapes) -> Result<Weights, WeightsError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| WeightsError::Io {
            path: name.clone(),
            source,
        })?;
        Weights::parse(&bytes, &name, shapes)
    }

    /// Parses a gnubg weights file held in memory; `name` is used in error messages.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Weights, WeightsError> {
        Weights::parse(bytes, name, Shapes::Gnubg)
    }

    /// Parses a weights file held in memory, with the given shape rules.
    pub fn parse(bytes: &[u8], name: &str, shapes: Shapes) -> Result<Weights, WeightsError> {
        if bytes.starts_with(b"GNU Backgammon ") {
            Weights::from_text(bytes, name, shapes)
        } else if bytes.len() >= 4 && f32::from_le_bytes(bytes[..4].try_into().unwrap()) == BINARY_MAGIC {
            Weights::from_binary(bytes, name, shapes)
        } else {
            Err(WeightsError::Format {
                path: name.into(),
                reason: "not a gnubg weights file (neither the text header 'GNU Backgammon' nor the \
                         binary magic 472.3782)"
                    .into(),
            })
        }
    }

    fn from_binary(bytes: &[u8], name: &str, shapes: Shapes) -> Result<Weights, WeightsError> {
        let err = |reason: String| WeightsError::Format {
            path: name.into(),
            reason,
        };
        let mut cur = Cursor { bytes, at: 0 };
        cur.word("the magic number").map_err(err)?;
        let version = f32::from_le_bytes(cur.word("the version").map_err(err)?);
        if !version_ok(version) {
            return Err(err(format!("bad version number {version} (expected e.g. 1.00)")));
        }
        let mut nets = Vec::with_capacity(6);
        for n in 0.. {
            if !shapes.more(n, cur.at == bytes.len()) {
                break;
            }
            if let Some(short) = shapes.short(n, cur.at == bytes.len()) {
                return Err(err(short));
            }
            let net_name = net_name(n);
            let mut head = [[0u8; 4]; 6];
            for h in head.iter_mut() {
                *h = cur.word("a net header").map_err(err)?;
            }
            let count = |w: [u8; 4]| u32::from_le_bytes(w) as usize;
            let (inputs, hidden, outputs) = (count(head[0]), count(head[1]), count(head[2]));
            let (beta_hidden, beta_output) = (f32::from_le_bytes(head[4]), f32::from_le_bytes(head[5]));
            check_shape(
                &net_name,
                shapes.inputs(n),
                inputs,
                hidden,
                outputs,
                beta_hidden,
                beta_output,
            )
            .map_err(err)?;
            let mut net = Net::zeros(inputs, hidden, outputs);
            net.trained = i64::from(i32::from_le_bytes(head[3]));
            net.beta_hidden = beta_hidden;
            net.beta_output = beta_output;
            let need = net.float_count() * 4;
            let body = cur.take(need).ok_or_else(|| {
                err(format!(
                    "truncated in the {net_name} net: it needs {need} bytes of weights from byte {}, \
                     the file has {}",
                    cur.at,
                    bytes.len()
                ))
            })?;
            let mut values = body
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap()));
            for array in [
                &mut net.hidden_weights,
                &mut net.output_weights,
                &mut net.hidden_thresholds,
                &mut net.output_thresholds,
            ] {
                array.iter_mut().for_each(|v| *v = values.next().unwrap());
            }
            check_finite(&net, &net_name).map_err(err)?;
            nets.push(net);
        }
        if cur.at != bytes.len() {
            return Err(err(format!(
                "{} unexpected bytes after the six nets",
                bytes.len() - cur.at
            )));
        }
        Ok(Weights {
            version: format!("{version:.2}"),
            nets,
        })
    }

    fn from_text(bytes: &[u8], name: &str, shapes: Shapes) -> Result<Weights, WeightsError> {
        // Line 0: the problem is not on one line (the file is not text, or ends early).
        let err = |line: usize, reason: String| WeightsError::Format {
            path: name.into(),
            reason: if line == 0 {
                reason
            } else {
                format!("line {line}: {reason}")
            },
        };
        let text = std::str::from_utf8(bytes).map_err(|e| err(0, format!("not UTF-8 text ({e})")))?;
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let (_, first) = lines.next().unwrap_or((1, ""));
        let version = first
            .strip_prefix("GNU Backgammon")
            .unwrap_or("")
            .trim()
            .to_string();
        let numeric = version.parse::<f32>().is_ok_and(version_ok);
        if version.is_empty() || version.len() > 15 || !numeric {
            return Err(err(
                1,
                format!("bad version in '{first}' (expected a number such as 1.00)"),
            ));
        }
        let mut nets = Vec::with_capacity(6);
        let mut lines = lines.filter(|(_, l)| !l.is_empty()).peekable();
        for n in 0.. {
            if !shapes.more(n, lines.peek().is_none()) {
                break;
            }
            if let Some(short) = shapes.short(n, lines.peek().is_none()) {
                return Err(err(0, short));
            }
            let net_name = net_name(n);
            let (ln, header) = lines
                .next()
                .ok_or_else(|| err(0, format!("file ends before the {net_name} net (truncated?)")))?;
            let f: Vec<&str> = header.split_whitespace().collect();
            if f.len() != 6 {
                return Err(err(
                    ln,
                    format!("the {net_name} net header '{header}' needs 6 fields"),
                ));
            }
            let num = |s: &str| {
                s.parse::<usize>()
                    .map_err(|_| err(ln, format!("'{s}' is not a count")))
            };
            let real = |s: &str| {
                s.parse::<f32>()
                    .map_err(|_| err(ln, format!("'{s}' is not a number")))
            };
            let (inputs, hidden, outputs) = (num(f[0])?, num(f[1])?, num(f[2])?);
            // The binary format keeps the count as an i32.
            let trained = f[3]
                .parse::<i32>()
                .map(i64::from)
                .map_err(|_| err(ln, format!("'{}' is not a count of trained positions", f[3])))?;
            let (beta_hidden, beta_output) = (real(f[4])?, real(f[5])?);
            check_shape(
                &net_name,
                shapes.inputs(n),
                inputs,
                hidden,
                outputs,
                beta_hidden,
                beta_output,
            )
            .map_err(|r| err(ln, r))?;
            let mut net = Net::zeros(inputs, hidden, outputs);
            net.trained = trained;
            net.beta_hidden = beta_hidden;
            net.beta_output = beta_output;
            for array in [
                &mut net.hidden_weights,
                &mut net.output_weights,
                &mut net.hidden_thresholds,
                &mut net.output_thresholds,
            ] {
                for v in array.iter_mut() {
                    let (ln, t) = lines
                        .next()
                        .ok_or_else(|| err(0, format!("file ends inside the {net_name} net (truncated?)")))?;
                    *v = t
                        .parse::<f32>()
                        .map_err(|_| err(ln, format!("'{t}' is not a number")))?;
                    if !v.is_finite() {
                        return Err(err(
                            ln,
                            format!("'{t}' in the {net_name} net is not a finite number"),
                        ));
                    }
                }
            }
            check_finite(&net, &net_name).map_err(|r| err(0, r))?;
            nets.push(net);
        }
        if let Some((ln, extra)) = lines.next() {
            return Err(err(ln, format!("unexpected text after the six nets: '{extra}'")));
        }
        Ok(Weights { version, nets })
    }

    /// The file in the binary format.
    pub fn to_binary(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&BINARY_MAGIC.to_le_bytes());
        out.extend_from_slice(&self.version_number().unwrap_or(1.0).to_le_bytes());
        for net in &self.nets {
            for v in [net.inputs, net.hidden, net.outputs] {
                out.extend_from_slice(&(v as u32).to_le_bytes());
            }
            out.extend_from_slice(&(net.trained as i32).to_le_bytes());
            out.extend_from_slice(&net.beta_hidden.to_le_bytes());
            out.extend_from_slice(&net.beta_output.to_le_bytes());
            for array in net.arrays() {
                for v in array {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        out
    }

    /// The file in the text format.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(1 << 20);
        let _ = writeln!(out, "GNU Backgammon {}", self.version);
        for net in &self.nets {
            let _ = writeln!(
                out,
                "{} {} {} {} {} {}",
                net.inputs,
                net.hidden,
                net.outputs,
                net.trained,
                decimal(net.beta_hidden),
                decimal(net.beta_output)
            );
            for array in net.arrays() {
                for &v in array {
                    out.push_str(&decimal(v));
                    out.push('\n');
                }
            }
        }
        out
    }

    /// The bytes of a weights file in `format` (what [`Weights::save`] writes).
    pub fn to_bytes(&self, format: WeightsFormat) -> Vec<u8> {
        match format {
            WeightsFormat::Text => self.to_text().into_bytes(),
            WeightsFormat::Binary => self.to_binary(),
        }
    }

    /// Writes the weights to `path` in the given format, through a temporary file that
    /// is renamed into place when complete (replacing a file there).
    pub fn save(&self, path: impl AsRef<Path>, format: WeightsFormat) -> Result<(), WeightsError> {
        self.save_with(path, format, fileio::Existing::Replace)
    }

    /// As [`Weights::save`], doing with a file at `path` what `existing` says
    /// ([`fileio::Existing::Keep`]: leave it and fail, with an I/O error of kind
    /// `AlreadyExists`).
    pub fn save_with(
        &self,
        path: impl AsRef<Path>,
        format: WeightsFormat,
        existing: fileio::Existing,
    ) -> Result<(), WeightsError> {
        fileio::write_atomic_with(path.as_ref(), &self.to_bytes(format), existing).map_err(|source| {
            WeightsError::Io {
                path: path.as_ref().display().to_string(),
                source,
            }
        })
    }
}

/// Reads little-endian words from a byte slice, with the position for error messages.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at + n)?;
        self.at += n;
        Some(s)
    }

    fn word(&mut self, what: &str) -> Result<[u8; 4], String> {
        let at = self.at;
        let len = self.bytes.len();
        self.take(4)
            .map(|w| w.try_into().unwrap())
            .ok_or_else(|| format!("truncated at byte {at} (file has {len} bytes) while reading {what}"))
    }
}

/// `x` with 7 decimals as gnubg writes it, or with the fewest decimals beyond 7 that
/// read back to exactly `x`.
fn decimal(x: f32) -> String {
    for places in 7..=60 {
        let s = format!("{x:.places$}");
        if s.parse::<f32>() == Ok(x) {
            return s;
        }
    }
    format!("{x:e}")
}

/// Which net shapes a file may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shapes {
    /// gnubg's: exactly six nets with 250, 214, 250, 200, 200, 200 inputs and 5 outputs.
    Gnubg,
    /// Any number of nets (at least one), any input counts, 5 outputs.
    Any,
}

impl Shapes {
    /// Whether net number `n` is expected (`at_end`: the input is exhausted).
    fn more(self, n: usize, at_end: bool) -> bool {
        match self {
            Shapes::Gnubg => n < 6,
            Shapes::Any => n == 0 || !at_end,
        }
    }

    /// The input count net number `n` must have, where these rules fix one.
    fn inputs(self, n: usize) -> Option<usize> {
        (self == Shapes::Gnubg).then(|| NET_INPUTS[n])
    }

    /// What these rules ask of the count of nets, for an error message.
    fn wants(self) -> &'static str {
        match self {
            Shapes::Gnubg => "gnubg's weights have six (contact, race, crashed and the three pruning nets)",
            Shapes::Any => "a weights file holds at least one net",
        }
    }

    /// The error for a file that ends after `n` nets where these rules want more
    /// (`Some`), or `None` where it ends inside a net.
    fn short(self, n: usize, at_end: bool) -> Option<String> {
        (self == Shapes::Gnubg && at_end && n > 0).then(|| format!("{}; {}", net_count(n), self.wants()))
    }
}

/// "the contact net", or "the net" for a net of no name.
fn the_net(name: &str) -> String {
    if name.is_empty() {
        "the net".to_string()
    } else {
        format!("the {name} net")
    }
}

fn net_count(n: usize) -> String {
    match n {
        1 => "holds 1 net".to_string(),
        n => format!("holds {n} nets"),
    }
}

fn net_name(n: usize) -> String {
    NET_NAMES
        .get(n)
        .map_or_else(|| format!("net #{}", n + 1), |s| s.to_string())
}

/// A version number both formats can carry: finite, below 1000 and not 0 with two
/// decimals (the binary format's `f32` is written back as text with two).
fn version_ok(v: f32) -> bool {
    v.is_finite() && v < 1000.0 && format!("{v:.2}").parse::<f32>().is_ok_and(|r| r > 0.0)
}

/// Every weight and threshold of a net must be a finite number: a NaN or infinity
/// would poison every evaluation (issue 19: such files loaded and gave an opening
/// equity of -2.9998). Names the net and the value's place in the file's order.
fn check_finite(net: &Net, name: &str) -> Result<(), String> {
    let names = [
        "hidden weight",
        "output weight",
        "hidden threshold",
        "output threshold",
    ];
    let mut offset = 0;
    for (array, what) in net.arrays().into_iter().zip(names) {
        if let Some(i) = array.iter().position(|v| !v.is_finite()) {
            return Err(format!(
                "{}'s value #{} ({what} {i}) is {}, not a finite number",
                the_net(name),
                offset + i,
                array[i]
            ));
        }
        offset += array.len();
    }
    Ok(())
}

fn check_shape(
    name: &str,
    expected: Option<usize>,
    inputs: usize,
    hidden: usize,
    outputs: usize,
    bh: f32,
    bo: f32,
) -> Result<(), String> {
    let expected = expected.unwrap_or(inputs);
    if inputs == 0 || inputs > 100_000 || inputs != expected || outputs != 5 {
        return Err(format!(
            "{} has {inputs} inputs and {outputs} outputs (expected {expected} and 5)",
            the_net(name)
        ));
    }
    if hidden == 0 || hidden > 4096 {
        return Err(format!("{} has {hidden} hidden units (1 to 4096)", the_net(name)));
    }
    if !(bh > 0.0 && bo > 0.0 && bh.is_finite() && bo.is_finite()) {
        return Err(format!(
            "{} has invalid sigmoid slopes {bh} and {bo}",
            the_net(name)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;

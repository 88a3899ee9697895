//! Two-sided generation, reproducing gnubg's `makebearoff -t` value for value, in
//! bounded memory.
//!
//! # Values
//! A record `(us, them)` (the side on roll first) holds four signed 16-bit equities, all
//! "no double this turn" money equities per unit cube: cubeless, cube owned by the roller,
//! centred, owned by the opponent. For each roll and each cube state the roller takes the
//! best successor `(them, j)` (seen from the opponent, so negated with bitwise NOT), with
//! the opponent's cube decision applied in integers; the 36-weighted sum is divided by 36
//! with truncation toward zero.
//!
//! # Order and memory
//! Every move lowers the mover's pip count, so a record whose two sides have pip counts
//! summing to `s` depends only on records with sums `s - 24 .. s - 1`. Records are
//! computed one pip-sum *level* at a time (in parallel within a level), and only the last
//! 24 levels stay in memory: the **window**. Inside a level, records are stored in blocks
//! by the pair of pip counts, so a record's successors for a run of consecutive opponent
//! positions are contiguous.
//!
//! The output is row-major (`us * n + them`). Finished levels are scattered straight into
//! an in-memory output buffer when it fits the memory limit; otherwise the rows are cut
//! into **bands**, each level's records are appended to one temporary bucket file per
//! band, and at the end each band is assembled in memory and written in order. Memory is
//! then bounded by `window + one band + tables`, and temporary disk by the database size.
//! Long runs ([`LONG_RUN`] records and more) use bucket files even when everything would
//! fit in memory, because they make the run resumable.
//!
//! # Resuming
//! With bucket files, after every level the buckets are flushed and a small state file
//! (`FILE.state`, next to the buckets `FILE.bucketK`) records the last finished level and
//! the buckets' lengths. An interrupted run continues with `resume`: the buckets are cut
//! back to the recorded lengths, the window (the last 24 levels) is read back from them,
//! and generation goes on from the next level. The result is the same file as an
//! uninterrupted run's (tested).

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::error::BearoffError;
use crate::format::encoding::{equity_from_u16, equity_to_u16};
use crate::format::header::TwoSidedParams;
use crate::format::index::PositionIndex;
use crate::levels::PipLevels;
use crate::movegen::{counts_of, successors, Ranker, ROLLS};

/// +1 as a stored signed equity.
pub const EQUITY_P1: i16 = 0x7FFF;
/// -1 as a stored signed equity (bitwise NOT of +1).
pub const EQUITY_M1: i16 = !EQUITY_P1;

/// The opponent's cube decision (gnubg's `CubeEquity` with DP = +1): no double, double
/// and take (twice the take equity) or double and pass (+1), in integers.
#[inline(always)]
fn cube_equity(nd: i32, dt: i32) -> i32 {
    if dt >= nd / 2 {
        if dt >= i32::from(EQUITY_P1) / 2 {
            i32::from(EQUITY_P1)
        } else {
            2 * dt
        }
    } else {
        nd
    }
}

/// A single record computed straight from the rules, reading successor records through
/// `get(roller, other)`. Used by `verify` and as the reference for the fast generator.
pub fn compute_record(
    index: &PositionIndex,
    us: u64,
    them: u64,
    cubeful: bool,
    get: &dyn Fn(u64, u64) -> [i16; 4],
) -> [i16; 4] {
    if us == 0 {
        return [EQUITY_P1; 4];
    }
    if them == 0 {
        return [EQUITY_M1; 4];
    }
    let board = counts_of(index, us).expect("index in range");
    let ranker = Ranker::new(index);
    let mut succ = Vec::new();
    let mut total = [0i32; 4];
    for &(d0, d1, w) in &ROLLS {
        successors(&ranker, &board, us, d0, d1, &mut succ);
        let mut best = [i32::MIN; 4];
        for &j in &succ {
            let ps = get(them, j).map(i32::from);
            best[0] = best[0].max(!ps[0]);
            if cubeful {
                best[1] = best[1].max(!ps[3]);
                best[2] = best[2].max(!cube_equity(ps[2], ps[3]));
                best[3] = best[3].max(!cube_equity(ps[1], ps[3]));
            }
        }
        let used = if cubeful { 4 } else { 1 };
        for k in 0..used {
            total[k] += w as i32 * best[k];
        }
    }
    let mut out = [0i16; 4];
    for k in 0..if cubeful { 4 } else { 1 } {
        out[k] = (total[k] / 36) as i16;
    }
    out
}

/// Successor lists of every one-sided position, per roll: packed `(pip drop << 24) |
/// rank of the successor within its pip level`.
struct Successors {
    /// `start[a * 21 + r] .. start[a * 21 + r + 1]` index `entries`.
    start: Vec<u32>,
    entries: Vec<u32>,
}

impl Successors {
    fn build(index: &PositionIndex, levels: &PipLevels) -> Result<Successors, BearoffError> {
        let n = index.count() as usize;
        let ranker = Ranker::new(index);
        if (0..=levels.max_pip()).any(|p| levels.len_of(p) >= 1 << 24) {
            return Err(BearoffError::InvalidParameters(
                "a pip level has more than 2^24 positions".into(),
            ));
        }
        let per_pos: Vec<Vec<u32>> = (0..n)
            .into_par_iter()
            .with_min_len(64)
            .map(|a| {
                let mut lens = Vec::with_capacity(21 * 16 + 21);
                if a == 0 {
                    lens.extend([0u32; 21]);
                    return lens;
                }
                let board = counts_of(index, a as u64).expect("in range");
                let pa = u32::from(levels.pip[a]);
                let mut succ = Vec::new();
                let mut entries = Vec::new();
                for &(d0, d1, _) in &ROLLS {
                    successors(&ranker, &board, a as u64, d0, d1, &mut succ);
                    lens.push(succ.len() as u32);
                    for &j in &succ {
                        let dp = pa - u32::from(levels.pip[j as usize]);
                        entries.push(dp << 24 | levels.rank[j as usize]);
                    }
                }
                lens.extend(entries);
                lens
            })
            .collect();
        let total: usize = per_pos.iter().map(|v| v.len() - 21).sum();
        if total >= u32::MAX as usize {
            return Err(BearoffError::InvalidParameters("too many successors".into()));
        }
        let mut start = Vec::with_capacity(n * 21 + 1);
        let mut entries = Vec::with_capacity(total);
        let mut at = 0u32;
        for v in &per_pos {
            let (lens, ents) = v.split_at(21);
            for &l in lens {
                start.push(at);
                at += l;
            }
            entries.extend_from_slice(ents);
        }
        start.push(at);
        Ok(Successors { start, entries })
    }

    #[inline]
    fn of(&self, a: usize, roll: usize) -> &[u32] {
        let k = a * 21 + roll;
        &self.entries[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

/// Sizes and memory plan of a two-sided generation, computed before any work.
#[derive(Clone, Debug)]
pub struct TwoSidedPlan {
    /// What is generated.
    pub params: TwoSidedParams,
    /// One-sided positions per side.
    pub n: u64,
    /// Values per record (4 cubeful, 1 cubeless).
    pub planes: usize,
    /// Records per pip-sum level.
    pub level_records: Vec<u64>,
    /// Peak bytes of the window (24 finished levels plus the one being computed).
    pub window_bytes: u64,
    /// Bytes of the output data (without header).
    pub output_bytes: u64,
    /// Row ranges `[first, end)` of the bands.
    pub bands: Vec<(u64, u64)>,
    /// Whether the whole output is kept in memory during generation (no bucket files).
    pub in_memory: bool,
    /// Bytes of the largest band buffer (the whole output with a single band, held during
    /// generation; otherwise allocated after generation, when the window is freed).
    pub band_bytes: u64,
    /// Estimated bytes of the other tables (successor lists, pip levels).
    pub table_bytes: u64,
}

impl TwoSidedPlan {
    /// Peak memory estimate: window + output + tables with a single band; otherwise the
    /// larger of window + tables (generation) and band + tables (assembly).
    pub fn peak_bytes(&self) -> u64 {
        if self.in_memory {
            self.window_bytes + self.band_bytes + self.table_bytes
        } else {
            self.window_bytes.max(self.band_bytes) + self.table_bytes
        }
    }
}

/// Window depth: a move lowers the pip count by at most 24.
const WINDOW: usize = 24;

/// Runs with at least this many records use bucket files (and so can be resumed) even
/// when the output would fit in memory: about a minute of work on two cores.
pub const LONG_RUN: u64 = 1 << 28;

struct Layout {
    index: PositionIndex,
    levels: PipLevels,
    planes: usize,
    max_pip: usize,
    /// `block_start[s][x - lo(s)]`: record offset of block (x, s - x) inside level s.
    block_start: Vec<Vec<u64>>,
    level_records: Vec<u64>,
}

impl Layout {
    fn new(index: PositionIndex, planes: usize) -> Layout {
        let levels = PipLevels::new(&index);
        let max_pip = levels.max_pip();
        let mut block_start = Vec::with_capacity(2 * max_pip + 1);
        let mut level_records = Vec::with_capacity(2 * max_pip + 1);
        for s in 0..=2 * max_pip {
            let (lo, hi) = Layout::x_range(max_pip, s);
            let mut starts = Vec::with_capacity(hi + 1 - lo);
            let mut at = 0u64;
            for x in lo..=hi {
                starts.push(at);
                at += (levels.len_of(x) * levels.len_of(s - x)) as u64;
            }
            block_start.push(starts);
            level_records.push(at);
        }
        Layout {
            index,
            levels,
            planes,
            max_pip,
            block_start,
            level_records,
        }
    }

    fn x_range(max_pip: usize, s: usize) -> (usize, usize) {
        (s.saturating_sub(max_pip), s.min(max_pip))
    }

    fn window_records(&self) -> u64 {
        let mut best = 0;
        for s in 0..self.level_records.len() {
            let lo = s.saturating_sub(WINDOW);
            best = best.max(self.level_records[lo..=s].iter().sum::<u64>());
        }
        best
    }
}

fn plan_bands(n: u64, planes: usize, band_budget: u64) -> Vec<(u64, u64)> {
    let row_bytes = n * 2 * planes as u64;
    let rows_per_band = (band_budget / row_bytes).max(1);
    let count = n.div_ceil(rows_per_band);
    // Even split of rows.
    (0..count).map(|k| (k * n / count, (k + 1) * n / count)).collect()
}

/// Plans a generation under `memory_limit` bytes, with bands of at most `band_limit`
/// bytes if given (forcing bucket files). Fails if the window does not fit.
pub fn plan(
    params: TwoSidedParams,
    memory_limit: u64,
    band_limit: Option<u64>,
) -> Result<TwoSidedPlan, BearoffError> {
    let index = check_params(params)?;
    let planes = if params.cubeful { 4 } else { 1 };
    let layout = Layout::new(index, planes);
    plan_for(&layout, params, memory_limit, band_limit)
}

fn check_params(params: TwoSidedParams) -> Result<PositionIndex, BearoffError> {
    if !(1..=24).contains(&params.points) || !(1..=15).contains(&params.checkers) {
        return Err(BearoffError::InvalidParameters(format!(
            "two-sided databases need 1-24 points and 1-15 checkers, got {}x{}",
            params.points, params.checkers
        )));
    }
    let index =
        PositionIndex::new(usize::from(params.points), usize::from(params.checkers)).expect("checked");
    if index.count() > u64::from(u32::MAX) {
        return Err(BearoffError::InvalidParameters(
            "too many positions per side".into(),
        ));
    }
    Ok(index)
}

fn plan_for(
    layout: &Layout,
    params: TwoSidedParams,
    memory_limit: u64,
    band_limit: Option<u64>,
) -> Result<TwoSidedPlan, BearoffError> {
    let n = layout.index.count();
    let planes = layout.planes;
    let window_bytes = layout.window_records() * 2 * planes as u64;
    let output_bytes = n * n * 2 * planes as u64;
    // Successor lists: about 21 * 20 entries of 4 bytes for 15 checkers; pip levels 10 B.
    let table_bytes = n * (21 * 4 + 10) + n * 21 * 4 * (2 + u64::from(params.checkers));
    let fixed = window_bytes + table_bytes;
    let row_bytes = n * 2 * planes as u64;
    if fixed + (1 << 20) > memory_limit || table_bytes + row_bytes > memory_limit {
        return Err(BearoffError::Memory(format!(
            "two-sided {}x{} needs at least {:.2} GB of memory (window {:.2} GB, tables {:.2} GB); the limit is {:.2} GB (see --memory-limit)",
            params.points,
            params.checkers,
            (fixed + (1 << 20)) as f64 / 1e9,
            window_bytes as f64 / 1e9,
            table_bytes as f64 / 1e9,
            memory_limit as f64 / 1e9
        )));
    }
    // Everything in memory if it fits; otherwise bands, assembled after the window is
    // freed, so a band may use all memory but the tables.
    let in_memory = fixed + output_bytes <= memory_limit && band_limit.is_none() && n * n < LONG_RUN;
    let bands = if in_memory {
        vec![(0, n)]
    } else {
        let budget = (memory_limit - table_bytes).min(band_limit.unwrap_or(u64::MAX));
        plan_bands(n, planes, budget)
    };
    let band_bytes = bands.iter().map(|&(a, b)| (b - a) * row_bytes).max().unwrap_or(0);
    Ok(TwoSidedPlan {
        params,
        n,
        planes,
        level_records: layout.level_records.clone(),
        window_bytes,
        output_bytes,
        bands,
        in_memory,
        band_bytes,
        table_bytes,
    })
}

/// Where finished records go.
enum Sink {
    /// The whole output in memory, stored form, row-major.
    Memory(Vec<u16>),
    /// One bucket file per band.
    Buckets(Vec<(PathBuf, BufWriter<File>)>),
}

/// How to run a two-sided generation.
#[derive(Clone, Debug)]
pub struct TwoSidedRun {
    /// Memory to plan for, bytes.
    pub memory_limit: u64,
    /// Cap on a band's bytes (forces bucket files).
    pub band_limit: Option<u64>,
    /// Path prefix of the temporary files: `<scratch>.bucketK`, `<scratch>.state` (the
    /// extension of `scratch` is replaced).
    pub scratch: PathBuf,
    /// Continue an interrupted run from its state file, if there is one.
    pub resume: bool,
    /// For tests: stop with an error after this level, as if interrupted.
    pub stop_after_level: Option<usize>,
}

impl TwoSidedRun {
    /// The state file of a run writing to `scratch`.
    pub fn state_path(scratch: &Path) -> PathBuf {
        scratch.with_extension("state")
    }

    fn bucket_path(&self, k: usize) -> PathBuf {
        self.scratch.with_extension(format!("bucket{k}"))
    }
}

/// Generates a two-sided database and writes its data (after `header`, if any) to `out`.
/// `progress(done_records)`.
pub fn generate_two_sided(
    params: TwoSidedParams,
    run: &TwoSidedRun,
    header: Option<[u8; 40]>,
    out: &mut dyn Write,
    on_plan: &dyn Fn(&TwoSidedPlan),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<TwoSidedPlan, BearoffError> {
    let index = check_params(params)?;
    let planes = if params.cubeful { 4 } else { 1 };
    let layout = Layout::new(index, planes);
    let mut plan = plan_for(&layout, params, run.memory_limit, run.band_limit)?;
    let state_path = TwoSidedRun::state_path(&run.scratch);
    let resumed = if plan.in_memory {
        None
    } else if state_path.exists() {
        if !run.resume {
            return Err(BearoffError::InvalidParameters(format!(
                "{} is left from an interrupted run: pass --resume to continue it, or delete it and the bucket files next to it",
                state_path.display()
            )));
        }
        let state = State::read(&state_path)?;
        state.check(&state_path, &plan)?;
        // Keep the interrupted run's bands.
        let row_bytes = plan.n * 2 * planes as u64;
        plan.bands = state.bands.clone();
        plan.band_bytes = plan
            .bands
            .iter()
            .map(|&(a, b)| (b - a) * row_bytes)
            .max()
            .unwrap_or(0);
        Some(state)
    } else {
        None
    };
    on_plan(&plan);
    let succ = Successors::build(&index, &layout.levels)?;
    let n = plan.n;
    let mut first_level = 0;
    let mut window: VecDeque<Vec<i16>> = VecDeque::new();
    let mut sink = if plan.in_memory {
        Sink::Memory(vec![0u16; (n * n) as usize * planes])
    } else {
        let mut files = Vec::new();
        for k in 0..plan.bands.len() {
            let p = run.bucket_path(k);
            let f = match &resumed {
                Some(state) => {
                    let f = fs::OpenOptions::new()
                        .read(true)
                        .write(true)
                        .open(&p)
                        .map_err(|e| BearoffError::io(&p, "cannot open to resume", e))?;
                    let len = f
                        .metadata()
                        .map_err(|e| BearoffError::io(&p, "cannot stat", e))?
                        .len();
                    if len < state.buckets[k] {
                        return Err(BearoffError::corrupt(
                            &p,
                            format!(
                                "bucket is {len} bytes, the state file says {}; cannot resume (delete {} and start over)",
                                state.buckets[k],
                                state_path.display()
                            ),
                        ));
                    }
                    f.set_len(state.buckets[k])
                        .map_err(|e| BearoffError::io(&p, "cannot truncate", e))?;
                    let mut f = f;
                    io::Seek::seek(&mut f, io::SeekFrom::End(0))
                        .map_err(|e| BearoffError::io(&p, "cannot seek", e))?;
                    f
                }
                None => File::create(&p).map_err(|e| BearoffError::io(&p, "cannot create", e))?,
            };
            files.push((p, BufWriter::with_capacity(1 << 20, f)));
        }
        if let Some(state) = &resumed {
            first_level = state.level + 1;
            window = read_window(&layout, &plan, run, state.level)?;
            progress(layout.level_records[..first_level].iter().sum());
        }
        Sink::Buckets(files)
    };
    run_levels(
        &layout,
        &succ,
        &plan,
        run,
        &mut sink,
        first_level,
        window,
        progress,
    )?;
    let io_err = |e: io::Error| BearoffError::io(&run.scratch, "cannot write", e);
    if let Some(h) = header {
        out.write_all(&h).map_err(io_err)?;
    }
    match &mut sink {
        Sink::Memory(buf) => write_u16s(out, buf).map_err(io_err)?,
        Sink::Buckets(files) => {
            let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
            for (p, w) in files.iter_mut() {
                w.flush().map_err(|e| BearoffError::io(p, "cannot write", e))?;
            }
            files.clear();
            for (k, p) in paths.iter().enumerate() {
                assemble_band(&layout, &plan, k, p, out)?;
            }
            // Done: the temporary files go (the caller commits the output).
            let _ = fs::remove_file(&state_path);
            for p in &paths {
                let _ = fs::remove_file(p);
            }
        }
    }
    Ok(plan)
}

/// What the state file of a bucket-mode run records.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    points: u8,
    checkers: u8,
    cubeful: bool,
    bands: Vec<(u64, u64)>,
    /// Last level completely appended to the buckets.
    level: usize,
    /// Bucket lengths after that level.
    buckets: Vec<u64>,
}

const STATE_MAGIC: &str = "bgkit-two-sided-state 1";

impl State {
    fn write(&self, path: &Path) -> Result<(), BearoffError> {
        let bands: Vec<String> = self.bands.iter().map(|(a, b)| format!("{a}-{b}")).collect();
        let buckets: Vec<String> = self.buckets.iter().map(u64::to_string).collect();
        let text = format!(
            "{STATE_MAGIC}\npoints {}\ncheckers {}\ncubeful {}\nbands {}\nlevel {}\nbuckets {}\n",
            self.points,
            self.checkers,
            u8::from(self.cubeful),
            bands.join(" "),
            self.level,
            buckets.join(" ")
        );
        let tmp = path.with_extension("state-new");
        fs::write(&tmp, text).map_err(|e| BearoffError::io(&tmp, "cannot write", e))?;
        fs::rename(&tmp, path).map_err(|e| BearoffError::io(path, "cannot write", e))
    }

    fn read(path: &Path) -> Result<State, BearoffError> {
        let text = fs::read_to_string(path).map_err(|e| BearoffError::io(path, "cannot read", e))?;
        let bad = |why: &str| BearoffError::corrupt(path, format!("bad state file: {why}"));
        let mut lines = text.lines();
        if lines.next() != Some(STATE_MAGIC) {
            return Err(bad("unknown format"));
        }
        let mut field = |name: &str| -> Result<Vec<String>, BearoffError> {
            let line = lines.next().ok_or_else(|| bad("too short"))?;
            let mut words = line.split(' ');
            if words.next() != Some(name) {
                return Err(bad(&format!("expected '{name}'")));
            }
            Ok(words.map(str::to_string).collect())
        };
        let num = |v: &[String]| -> Result<u64, BearoffError> {
            match v {
                [x] => x.parse().map_err(|_| bad("not a number")),
                _ => Err(bad("expected one number")),
            }
        };
        let points = num(&field("points")?)?;
        let checkers = num(&field("checkers")?)?;
        let cubeful = num(&field("cubeful")?)?;
        let bands = field("bands")?
            .iter()
            .map(|b| {
                let (a, c) = b.split_once('-').ok_or_else(|| bad("band"))?;
                Ok((
                    a.parse().map_err(|_| bad("band"))?,
                    c.parse().map_err(|_| bad("band"))?,
                ))
            })
            .collect::<Result<Vec<(u64, u64)>, BearoffError>>()?;
        let level = num(&field("level")?)? as usize;
        let buckets = field("buckets")?
            .iter()
            .map(|b| b.parse().map_err(|_| bad("bucket length")))
            .collect::<Result<Vec<u64>, BearoffError>>()?;
        if bands.is_empty() || buckets.len() != bands.len() || cubeful > 1 || points > 24 || checkers > 15 {
            return Err(bad("inconsistent fields"));
        }
        Ok(State {
            points: points as u8,
            checkers: checkers as u8,
            cubeful: cubeful == 1,
            bands,
            level,
            buckets,
        })
    }

    /// Whether this state belongs to `plan`'s database.
    fn check(&self, path: &Path, plan: &TwoSidedPlan) -> Result<(), BearoffError> {
        let p = plan.params;
        if (self.points, self.checkers, self.cubeful) != (p.points, p.checkers, p.cubeful) {
            return Err(BearoffError::WrongKind {
                path: path.to_path_buf(),
                why: format!(
                    "the interrupted run built {}x{} ({}), this one asks for {}x{} ({})",
                    self.points,
                    self.checkers,
                    if self.cubeful { "cubeful" } else { "cubeless" },
                    p.points,
                    p.checkers,
                    if p.cubeful { "cubeful" } else { "cubeless" }
                ),
            });
        }
        let covers = self.bands.first().map(|b| b.0) == Some(0)
            && self.bands.last().map(|b| b.1) == Some(plan.n)
            && self.bands.windows(2).all(|w| w[0].1 == w[1].0 && w[0].0 < w[0].1);
        if !covers || self.level >= plan.level_records.len() {
            return Err(BearoffError::corrupt(
                path,
                "bad state file: bands or level out of range",
            ));
        }
        Ok(())
    }
}

/// Records of band `k` in level `s`.
fn band_records(layout: &Layout, band: (u64, u64), s: usize) -> u64 {
    let (lo, hi) = Layout::x_range(layout.max_pip, s);
    (lo..=hi)
        .map(|x| {
            let (r0, r1) = rank_range(&layout.levels, x, band.0, band.1);
            ((r1 - r0) * layout.levels.len_of(s - x)) as u64
        })
        .sum()
}

/// Reads the last (up to) 24 levels up to `last` back from the buckets.
fn read_window(
    layout: &Layout,
    plan: &TwoSidedPlan,
    run: &TwoSidedRun,
    last: usize,
) -> Result<VecDeque<Vec<i16>>, BearoffError> {
    let planes = layout.planes;
    let levels = &layout.levels;
    let first = (last + 1).saturating_sub(WINDOW);
    let mut window: VecDeque<Vec<i16>> = (first..=last)
        .map(|s| vec![0i16; layout.level_records[s] as usize * planes])
        .collect();
    for (k, &band) in plan.bands.iter().enumerate() {
        let p = run.bucket_path(k);
        let mut f = File::open(&p).map_err(|e| BearoffError::io(&p, "cannot open", e))?;
        let skip: u64 = (0..first).map(|s| band_records(layout, band, s)).sum::<u64>() * 2 * planes as u64;
        io::Seek::seek(&mut f, io::SeekFrom::Start(skip))
            .map_err(|e| BearoffError::io(&p, "cannot seek", e))?;
        let mut r = BufReader::with_capacity(1 << 20, f);
        let mut rec = vec![0u8; 2 * planes];
        for (cur, s) in window.iter_mut().zip(first..=last) {
            let (lo, hi) = Layout::x_range(layout.max_pip, s);
            for x in lo..=hi {
                let y = s - x;
                let nx = levels.len_of(x);
                let (r0, r1) = rank_range(levels, x, band.0, band.1);
                if r0 == r1 {
                    continue;
                }
                let base = layout.block_start[s][x - lo] as usize * planes;
                for ry in 0..levels.len_of(y) {
                    for rx in r0..r1 {
                        r.read_exact(&mut rec)
                            .map_err(|e| BearoffError::io(&p, "cannot read back", e))?;
                        for q in 0..planes {
                            let u = u16::from_le_bytes([rec[2 * q], rec[2 * q + 1]]);
                            cur[base + (ry * planes + q) * nx + rx] = equity_from_u16(u);
                        }
                    }
                }
            }
        }
    }
    Ok(window)
}

fn write_u16s(out: &mut dyn Write, data: &[u16]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 20);
    for chunk in data.chunks(1 << 19) {
        buf.clear();
        for &v in chunk {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        out.write_all(&buf)?;
    }
    Ok(())
}

/// Chunk of consecutive opponent positions computed together.
const CHUNK: usize = 64;

#[allow(clippy::too_many_arguments)]
fn run_levels(
    layout: &Layout,
    succ: &Successors,
    plan: &TwoSidedPlan,
    run: &TwoSidedRun,
    sink: &mut Sink,
    first_level: usize,
    mut window: VecDeque<Vec<i16>>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(), BearoffError> {
    let planes = layout.planes;
    let max_pip = layout.max_pip;
    let levels = &layout.levels;
    let mut done: u64 = layout.level_records[..first_level].iter().sum();
    let state_path = TwoSidedRun::state_path(&run.scratch);
    for s in first_level..=2 * max_pip {
        let (lo, hi) = Layout::x_range(max_pip, s);
        let mut cur = vec![0i16; layout.level_records[s] as usize * planes];
        {
            // Split the level into (block, row chunk) tasks.
            let mut tasks = Vec::new();
            let mut rest: &mut [i16] = &mut cur;
            for x in lo..=hi {
                let y = s - x;
                let (nx, ny) = (levels.len_of(x), levels.len_of(y));
                let (block, tail) = rest.split_at_mut(nx * ny * planes);
                rest = tail;
                if nx == 0 || ny == 0 {
                    continue;
                }
                for (c, chunk) in block.chunks_mut(CHUNK * nx * planes).enumerate() {
                    tasks.push((x, y, c * CHUNK, chunk));
                }
            }
            let win = &window;
            tasks.into_par_iter().for_each(|(x, y, y0, chunk)| {
                compute_chunk(layout, succ, win, s, x, y, y0, chunk);
            });
        }
        match sink {
            Sink::Memory(buf) => scatter_level(layout, s, &cur, plan.n, buf),
            Sink::Buckets(files) => {
                append_level(layout, plan, s, &cur, files)?;
                let mut lengths = Vec::with_capacity(files.len());
                for (p, w) in files.iter_mut() {
                    w.flush().map_err(|e| BearoffError::io(p, "cannot write", e))?;
                    let len = w
                        .get_ref()
                        .metadata()
                        .map_err(|e| BearoffError::io(p, "cannot stat", e))?
                        .len();
                    lengths.push(len);
                }
                let p = plan.params;
                State {
                    points: p.points,
                    checkers: p.checkers,
                    cubeful: p.cubeful,
                    bands: plan.bands.clone(),
                    level: s,
                    buckets: lengths,
                }
                .write(&state_path)?;
            }
        }
        done += layout.level_records[s];
        progress(done);
        window.push_back(cur);
        if window.len() > WINDOW {
            window.pop_front();
        }
        if run.stop_after_level == Some(s) {
            return Err(BearoffError::InvalidParameters(format!(
                "stopped after level {s} as asked (continue with --resume)"
            )));
        }
    }
    Ok(())
}

/// Computes rows `y0 ..` (opponent ranks) of block (x, y) of level s.
#[allow(clippy::too_many_arguments)]
fn compute_chunk(
    layout: &Layout,
    succ: &Successors,
    window: &VecDeque<Vec<i16>>,
    s: usize,
    x: usize,
    y: usize,
    y0: usize,
    out: &mut [i16],
) {
    let planes = layout.planes;
    let levels = &layout.levels;
    let nx = levels.len_of(x);
    let ny = levels.len_of(y);
    let rows = out.len() / (nx * planes);
    let xs = levels.level(x);
    // out[(row * planes + q) * nx + rx]
    if x == 0 {
        out.fill(EQUITY_P1);
        return;
    }
    if y == 0 {
        out.fill(EQUITY_M1);
        return;
    }
    // Level holding successor records (b, j) with pip(b) = y, pip(j) = x - dp:
    // level y + x - dp = s - dp, which is window[len - dp].
    let wlen = window.len();
    // For each pip drop dp: the level s - dp (window[len - dp]) and the start of its
    // block (y, x - dp), whose rows (by successor rank) hold `planes` runs of ny values.
    let mut bases: [(&[i16], usize); WINDOW + 1] = [(&[], 0); WINDOW + 1];
    for (dp, base) in bases.iter_mut().enumerate().take(WINDOW.min(x) + 1).skip(1) {
        let lvl = s - dp;
        let (lo, _) = Layout::x_range(layout.max_pip, lvl);
        *base = (
            &window[wlen - dp][..],
            layout.block_start[lvl][y - lo] as usize * planes,
        );
    }
    let stride = ny;
    let mut best = [[0i32; CHUNK]; 4];
    let mut total = [[0i32; CHUNK]; 4];
    let cubeful = planes == 4;
    for (rx, &a) in xs.iter().enumerate() {
        for t in total.iter_mut() {
            t[..rows].fill(0);
        }
        for (r, &(_, _, w)) in ROLLS.iter().enumerate() {
            for b in best.iter_mut() {
                b[..rows].fill(i32::MIN);
            }
            for &e in succ.of(a as usize, r) {
                let dp = (e >> 24) as usize;
                let rj = (e & 0xFF_FFFF) as usize;
                let (data, start) = bases[dp];
                let row = start + rj * planes * stride + y0;
                let p0 = &data[row..row + rows];
                if cubeful {
                    let p1 = &data[row + stride..row + stride + rows];
                    let p2 = &data[row + 2 * stride..row + 2 * stride + rows];
                    let p3 = &data[row + 3 * stride..row + 3 * stride + rows];
                    let [b0, b1, b2, b3] = &mut best;
                    for k in 0..rows {
                        let (v0, v1, v2, v3) = (
                            i32::from(p0[k]),
                            i32::from(p1[k]),
                            i32::from(p2[k]),
                            i32::from(p3[k]),
                        );
                        b0[k] = b0[k].max(!v0);
                        b1[k] = b1[k].max(!v3);
                        b2[k] = b2[k].max(!cube_equity(v2, v3));
                        b3[k] = b3[k].max(!cube_equity(v1, v3));
                    }
                } else {
                    let b0 = &mut best[0];
                    for k in 0..rows {
                        b0[k] = b0[k].max(!i32::from(p0[k]));
                    }
                }
            }
            for q in 0..planes {
                for k in 0..rows {
                    total[q][k] += w as i32 * best[q][k];
                }
            }
        }
        for q in 0..planes {
            for k in 0..rows {
                out[(k * planes + q) * nx + rx] = (total[q][k] / 36) as i16;
            }
        }
    }
}

/// Single-band mode: writes a finished level into the row-major output buffer.
fn scatter_level(layout: &Layout, s: usize, cur: &[i16], n: u64, buf: &mut [u16]) {
    let planes = layout.planes;
    let levels = &layout.levels;
    let (lo, hi) = Layout::x_range(layout.max_pip, s);
    for x in lo..=hi {
        let y = s - x;
        let (xs, ys) = (levels.level(x), levels.level(y));
        let base = layout.block_start[s][x - lo] as usize * planes;
        for (ry, &b) in ys.iter().enumerate() {
            for q in 0..planes {
                let row = &cur[base + (ry * planes + q) * xs.len()..][..xs.len()];
                for (rx, &a) in xs.iter().enumerate() {
                    buf[((u64::from(a) * n + u64::from(b)) as usize) * planes + q] = equity_to_u16(row[rx]);
                }
            }
        }
    }
}

/// Rank range of the positions of pip level `x` whose index lies in `[first, end)`.
fn rank_range(levels: &PipLevels, x: usize, first: u64, end: u64) -> (usize, usize) {
    let xs = levels.level(x);
    (
        xs.partition_point(|&a| u64::from(a) < first),
        xs.partition_point(|&a| u64::from(a) < end),
    )
}

/// Bucket mode: appends each band's records of a finished level to its bucket, in the
/// order block, opponent rank, roller rank (values interleaved per record).
fn append_level(
    layout: &Layout,
    plan: &TwoSidedPlan,
    s: usize,
    cur: &[i16],
    files: &mut [(PathBuf, BufWriter<File>)],
) -> Result<(), BearoffError> {
    let planes = layout.planes;
    let levels = &layout.levels;
    let (lo, hi) = Layout::x_range(layout.max_pip, s);
    let mut buf: Vec<u8> = Vec::new();
    for (k, &(first, end)) in plan.bands.iter().enumerate() {
        buf.clear();
        for x in lo..=hi {
            let y = s - x;
            let nx = levels.len_of(x);
            let (r0, r1) = rank_range(levels, x, first, end);
            if r0 == r1 {
                continue;
            }
            let base = layout.block_start[s][x - lo] as usize * planes;
            for ry in 0..levels.len_of(y) {
                for rx in r0..r1 {
                    for q in 0..planes {
                        let v = cur[base + (ry * planes + q) * nx + rx];
                        buf.extend_from_slice(&equity_to_u16(v).to_le_bytes());
                    }
                }
            }
        }
        let (p, w) = &mut files[k];
        w.write_all(&buf)
            .map_err(|e| BearoffError::io(p, "cannot write", e))?;
    }
    Ok(())
}

/// Bucket mode: rebuilds band `k` from its bucket and writes it.
fn assemble_band(
    layout: &Layout,
    plan: &TwoSidedPlan,
    k: usize,
    bucket: &Path,
    out: &mut dyn Write,
) -> Result<(), BearoffError> {
    let planes = layout.planes;
    let levels = &layout.levels;
    let n = plan.n;
    let (first, end) = plan.bands[k];
    let mut band = vec![0u16; ((end - first) * n) as usize * planes];
    let f = File::open(bucket).map_err(|e| BearoffError::io(bucket, "cannot open", e))?;
    let mut r = BufReader::with_capacity(1 << 20, f);
    let mut rec = vec![0u8; 2 * planes];
    for s in 0..=2 * layout.max_pip {
        let (lo, hi) = Layout::x_range(layout.max_pip, s);
        for x in lo..=hi {
            let y = s - x;
            let (r0, r1) = rank_range(levels, x, first, end);
            if r0 == r1 {
                continue;
            }
            let (xs, ys) = (levels.level(x), levels.level(y));
            for &b in ys {
                for &a in &xs[r0..r1] {
                    r.read_exact(&mut rec)
                        .map_err(|e| BearoffError::io(bucket, "cannot read", e))?;
                    let at = (((u64::from(a) - first) * n + u64::from(b)) as usize) * planes;
                    for q in 0..planes {
                        band[at + q] = u16::from_le_bytes([rec[2 * q], rec[2 * q + 1]]);
                    }
                }
            }
        }
    }
    write_u16s(out, &band).map_err(|e| BearoffError::io(bucket, "cannot write output", e))
}

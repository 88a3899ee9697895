//! Results appended as they are computed, so that a long job resumes where it stopped.
//!
//! A job writing `OUT` keeps two files beside it until it finishes:
//!
//! * `OUT.partial.json`: what the job is (its settings and a digest of its input), so
//!   that a resumed job can refuse partial results of a different one;
//! * `OUT.partial`: the results so far, one complete line per result, appended and
//!   flushed to the operating system as each is made (synced to disk every few
//!   seconds). A `kill -9` loses only the work in flight; a torn last line is dropped
//!   when the job resumes.
//!
//! When the job completes it writes `OUT` (temporary name, then rename) and removes
//! both files.
//!
//! One run at a time: `OUT.partial` is locked ([`fileio::lock`]) from before the job
//! reads or writes either file until they are removed, so a second run on the same
//! output (the same command twice, or another seed with `--fresh --force`) is refused
//! instead of truncating the first one's journal and putting its results in place.
//!
//! [`RolloutJournal`] holds rollout results keyed by input row; [`ChunkJournal`] holds
//! the lines of a job that advances in chunks (sampling), with the chunk count and
//! file length recorded after each chunk.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use board::Position;
use serde_json::{json, Value};

use crate::error::DatasetError;
use crate::format::{fmt_f32, parse_value, Sample, OUTPUT_NAMES, SE_NAMES};
use crate::job::identity;

const SYNC_EVERY: Duration = Duration::from_secs(5);

/// `OUT.partial` and `OUT.partial.json`.
pub fn partial_paths(out: &Path) -> (PathBuf, PathBuf) {
    let name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    let mut p = name.clone();
    p.push(".partial");
    let mut m = name;
    m.push(".partial.json");
    (out.with_file_name(p), out.with_file_name(m))
}

/// The error of a job whose output appeared while it ran (see [`fileio::Existing::Keep`]):
/// the results stay in the journal, and a rerun with `--force` puts them in place
/// without redoing them. Other errors pass unchanged.
pub fn kept_in_journal(out: &Path, e: DatasetError) -> DatasetError {
    match e {
        DatasetError::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists => {
            DatasetError::file(
                out,
                format!(
                    "appeared while this job was writing it and was left as it is; the results are kept in {}: rerun the same command with --force to put them in its place",
                    partial_paths(out).0.display()
                ),
            )
        }
        e => e,
    }
}

fn write_json(path: &Path, v: &Value) -> Result<(), DatasetError> {
    let text = serde_json::to_string_pretty(v).expect("json");
    fileio::write_atomic(path, text.as_bytes()).map_err(|e| DatasetError::io(path, e))
}

fn read_json(path: &Path) -> Result<Value, DatasetError> {
    let text = std::fs::read_to_string(path).map_err(|e| DatasetError::io(path, e))?;
    serde_json::from_str(&text)
        .map_err(|e| DatasetError::file(path, format!("unreadable job description: {e}")))
}

/// Names every top-level setting that differs between two job descriptions, joined by
/// `; ` (all of them: a changed `--max-positions` shows as the input's digest and its
/// row count together, which says what changed better than the digest alone).
fn differences(a: &Value, b: &Value) -> String {
    let mut found = Vec::new();
    if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
        for (k, v) in a {
            if b.get(k) != Some(v) {
                found.push(format!(
                    "'{k}' was {} and is now {}",
                    v,
                    b.get(k).unwrap_or(&Value::Null)
                ));
            }
        }
        for k in b.keys() {
            if !a.contains_key(k) {
                found.push(format!("'{k}' is new"));
            }
        }
    }
    if found.is_empty() {
        "the job description differs".into()
    } else {
        found.join("; ")
    }
}

/// The kind of job a description is of, for messages ("a rollout's"), or `None` for a
/// description of no kind the jobs write.
fn job_kind(description: &Value) -> Option<&'static str> {
    let has = |k: &str| description.get(k).is_some();
    if has("search") {
        Some("a label job's")
    } else if has("build") {
        Some("a benchmark build's")
    } else if has("games") {
        Some("a sample's")
    } else if has("settings") && has("input_digest") {
        Some("a rollout's")
    } else {
        None
    }
}

/// Checks a stored job description against this job's, or explains the refusal. Jobs
/// are compared by their [`identity`] (the files' digests, not their paths), so that
/// journals written before paths stopped counting resume too.
fn check_same_job(partial: &Path, meta_path: &Path, stored: &Value, job: &Value) -> Result<(), DatasetError> {
    let stored_job = identity(stored.get("job").unwrap_or(&Value::Null));
    let job = identity(job);
    if stored_job == job {
        return Ok(());
    }
    if let (Some(was), Some(now)) = (job_kind(&stored_job), job_kind(&job)) {
        if was != now {
            return Err(DatasetError::Invalid(format!(
                "{} holds {was} results, not {now}; delete it and {}, pass --fresh to start over, or write the output elsewhere",
                partial.display(),
                meta_path.display()
            )));
        }
    }
    Err(DatasetError::file(
        meta_path,
        format!(
            "partial results of a different job ({}); delete it and its .partial file, or pass --fresh to start over",
            differences(&stored_job, &job)
        ),
    ))
}

/// Takes the journal `path` of the job writing `out` for this run: the lock, held until
/// the journal is dropped (`None` where the filesystem cannot lock), and whether an
/// earlier run's journal was found (not when the lock made the file, nor for an empty
/// one without a job description, left by a run killed before it wrote anything).
fn take(out: &Path, path: &Path, meta: &Path) -> Result<(Option<File>, bool), DatasetError> {
    use fileio::lock::{LockError, OtherNames};
    let existed = std::fs::symlink_metadata(path).is_ok();
    let lock = fileio::lock::lock_partial(path, OtherNames::Copy).map_err(|e| match e {
        LockError::Refused(r) => DatasetError::Invalid(r.message(out, path, "journal")),
        LockError::Io(_, e) => DatasetError::io(path, e),
    })?;
    let len = std::fs::metadata(path)
        .map_err(|e| DatasetError::io(path, e))?
        .len();
    Ok((lock, existed && (len > 0 || meta.exists())))
}

/// Opens `path` for appending after cutting it to `len` bytes.
fn append_at(path: &Path, len: u64) -> Result<File, DatasetError> {
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| DatasetError::io(path, e))?;
    f.set_len(len).map_err(|e| DatasetError::io(path, e))?;
    f.seek(SeekFrom::Start(len))
        .map_err(|e| DatasetError::io(path, e))?;
    Ok(f)
}

fn create_with(path: &Path, first: &str) -> Result<File, DatasetError> {
    let mut f = File::create(path).map_err(|e| DatasetError::io(path, e))?;
    f.write_all(first.as_bytes())
        .map_err(|e| DatasetError::io(path, e))?;
    Ok(f)
}

/// The complete lines of a file (each with its end offset); a torn last line (no
/// newline) is left out.
fn complete_lines(path: &Path) -> Result<Vec<(String, u64)>, DatasetError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| DatasetError::io(path, e))?;
    let mut out = Vec::new();
    let mut start = 0usize;
    while let Some(nl) = bytes[start..].iter().position(|&b| b == b'\n') {
        let end = start + nl + 1;
        let text = String::from_utf8_lossy(&bytes[start..start + nl]).into_owned();
        out.push((text, end as u64));
        start = end;
    }
    Ok(out)
}

/// Rollout results so far, keyed by input row.
pub struct RolloutJournal {
    path: PathBuf,
    meta: PathBuf,
    file: File,
    synced: Instant,
    /// The lock on `path`, released after the journal's files are removed.
    _lock: Option<File>,
}

const ROLLOUT_HEADER: &str = "index,position_id,win,win_g,win_bg,lose_g,lose_bg,\
win_se,win_g_se,win_bg_se,lose_g_se,lose_bg_se,trials\n";

impl RolloutJournal {
    /// Opens the journal of the job writing `out`, described by `job`, over `input`.
    /// Returns it with the results already there (by input row); with `fresh`, any
    /// earlier partial results are discarded.
    pub fn open(
        out: &Path,
        job: &Value,
        input: &[Position],
        fresh: bool,
    ) -> Result<(RolloutJournal, Vec<Option<Sample>>), DatasetError> {
        let (path, meta) = partial_paths(out);
        let (lock, found) = take(out, &path, &meta)?;
        let mut done = vec![None; input.len()];
        let resuming = !fresh && found;
        let file = if resuming {
            if !meta.exists() {
                return Err(DatasetError::file(
                    &path,
                    format!(
                        "found without its job description {}; delete it or pass --fresh",
                        meta.display()
                    ),
                ));
            }
            check_same_job(&path, &meta, &read_json(&meta)?, job)?;
            let lines = complete_lines(&path)?;
            let mut keep = 0u64;
            for (i, (text, end)) in lines.iter().enumerate() {
                if i == 0 {
                    if format!("{text}\n") != ROLLOUT_HEADER {
                        return Err(DatasetError::parse(&path, 1, "not a rollout journal header"));
                    }
                    keep = *end;
                    continue;
                }
                let (index, sample) =
                    parse_rollout_line(text).map_err(|m| DatasetError::parse(&path, i as u64 + 1, m))?;
                if index >= input.len() || input[index] != sample.position {
                    return Err(DatasetError::parse(
                        &path,
                        i as u64 + 1,
                        format!("row {index} does not match the input (was the input changed?)"),
                    ));
                }
                done[index] = Some(sample);
                keep = *end;
            }
            if keep == 0 {
                // Not even a header survived: start the file again.
                create_with(&path, ROLLOUT_HEADER)?
            } else {
                append_at(&path, keep)?
            }
        } else {
            write_json(
                &meta,
                &json!({ "kind": "bgkit-datasets rollout journal", "version": 1, "job": job }),
            )?;
            create_with(&path, ROLLOUT_HEADER)?
        };
        Ok((
            RolloutJournal {
                path,
                meta,
                file,
                synced: Instant::now(),
                _lock: lock,
            },
            done,
        ))
    }

    /// Appends one result (a single write, flushed to the operating system).
    pub fn append(&mut self, index: usize, s: &Sample) -> Result<(), DatasetError> {
        let mut line = format!("{index},{}", s.position.position_id());
        for v in s.probs.iter().chain(s.se.as_ref().unwrap_or(&[0.0; 5])) {
            line.push(',');
            line.push_str(&fmt_f32(*v));
        }
        line.push_str(&format!(",{}\n", s.trials));
        self.file
            .write_all(line.as_bytes())
            .map_err(|e| DatasetError::io(&self.path, e))?;
        if self.synced.elapsed() >= SYNC_EVERY {
            self.file
                .sync_data()
                .map_err(|e| DatasetError::io(&self.path, e))?;
            self.synced = Instant::now();
        }
        Ok(())
    }

    /// Removes the journal once the output is safely written.
    pub fn remove(self) -> Result<(), DatasetError> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(|e| DatasetError::io(&self.path, e))?;
        std::fs::remove_file(&self.meta).map_err(|e| DatasetError::io(&self.meta, e))
    }
}

fn parse_rollout_line(text: &str) -> Result<(usize, Sample), String> {
    let f: Vec<&str> = text.split(',').collect();
    if f.len() != 13 {
        return Err(format!("expected 13 fields, found {}", f.len()));
    }
    let index: usize = f[0].parse().map_err(|_| format!("bad row index '{}'", f[0]))?;
    let position = Position::from_id(f[1]).map_err(|e| e.to_string())?;
    let mut probs = [0f32; 5];
    let mut se = [0f32; 5];
    for k in 0..5 {
        probs[k] = parse_value(f[2 + k], OUTPUT_NAMES[k], 0.0, 1.0)?;
        se[k] = parse_value(f[7 + k], SE_NAMES[k], 0.0, f32::MAX)?;
    }
    let trials = f[12]
        .parse()
        .map_err(|_| format!("bad trial count '{}'", f[12]))?;
    Ok((
        index,
        Sample {
            position,
            probs,
            // Search labels have no trials and no standard errors.
            se: (trials > 0).then_some(se),
            trials,
        },
    ))
}

/// The lines of a job that advances in chunks, with a checkpoint after each chunk.
pub struct ChunkJournal {
    path: PathBuf,
    meta: PathBuf,
    job: Value,
    file: File,
    chunks: u64,
    /// The lock on `path`, released after the journal's files are removed.
    _lock: Option<File>,
}

impl ChunkJournal {
    /// Opens the journal of the job writing `out`, described by `job`. Returns it with
    /// the lines written up to the last checkpoint and the number of chunks done.
    pub fn open(
        out: &Path,
        job: &Value,
        fresh: bool,
    ) -> Result<(ChunkJournal, Vec<String>, u64), DatasetError> {
        let (path, meta) = partial_paths(out);
        let (lock, found) = take(out, &path, &meta)?;
        if !fresh && found && meta.exists() {
            let stored = read_json(&meta)?;
            check_same_job(&path, &meta, &stored, job)?;
            let chunks = stored.get("chunks").and_then(Value::as_u64).unwrap_or(0);
            let bytes = stored.get("bytes").and_then(Value::as_u64).unwrap_or(0);
            let len = std::fs::metadata(&path)
                .map_err(|e| DatasetError::io(&path, e))?
                .len();
            if len < bytes {
                return Err(DatasetError::file(
                    &path,
                    format!(
                        "shorter ({len} bytes) than its checkpoint says ({bytes}); delete it or pass --fresh"
                    ),
                ));
            }
            let lines: Vec<String> = complete_lines(&path)?
                .into_iter()
                .take_while(|(_, end)| *end <= bytes)
                .map(|(t, _)| t)
                .collect();
            let file = append_at(&path, bytes)?;
            let j = ChunkJournal {
                path,
                meta,
                job: job.clone(),
                file,
                chunks,
                _lock: lock,
            };
            return Ok((j, lines, chunks));
        }
        if !fresh && found {
            return Err(DatasetError::file(
                &path,
                format!(
                    "found without its job description {}; delete it or pass --fresh",
                    meta.display()
                ),
            ));
        }
        let file = create_with(&path, "")?;
        let mut j = ChunkJournal {
            path,
            meta,
            job: job.clone(),
            file,
            chunks: 0,
            _lock: lock,
        };
        j.checkpoint(0)?;
        Ok((j, Vec::new(), 0))
    }

    /// Appends the lines of one chunk and records the checkpoint after it.
    pub fn append_chunk(&mut self, lines: &[String]) -> Result<(), DatasetError> {
        let mut text = String::new();
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| DatasetError::io(&self.path, e))?;
        self.file
            .sync_data()
            .map_err(|e| DatasetError::io(&self.path, e))?;
        let len = self
            .file
            .stream_position()
            .map_err(|e| DatasetError::io(&self.path, e))?;
        self.chunks += 1;
        self.checkpoint(len)
    }

    fn checkpoint(&mut self, bytes: u64) -> Result<(), DatasetError> {
        write_json(
            &self.meta,
            &json!({
                "kind": "bgkit-datasets chunk journal",
                "version": 1,
                "job": self.job,
                "chunks": self.chunks,
                "bytes": bytes,
            }),
        )
    }

    /// Removes the journal once the output is safely written.
    pub fn remove(self) -> Result<(), DatasetError> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(|e| DatasetError::io(&self.path, e))?;
        std::fs::remove_file(&self.meta).map_err(|e| DatasetError::io(&self.meta, e))
    }
}

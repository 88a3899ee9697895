//! The state file of a bucket-mode run (`FILE.state`): after every level it records the
//! last finished level and the buckets' lengths, so that an interrupted run can resume
//! (see [`super::generate`]).

use std::fs;
use std::path::Path;

use super::plan::TwoSidedPlan;
use crate::error::BearoffError;

/// What the state file of a bucket-mode run records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct State {
    pub(super) points: u8,
    pub(super) checkers: u8,
    pub(super) cubeful: bool,
    pub(super) bands: Vec<(u64, u64)>,
    /// Last level completely appended to the buckets.
    pub(super) level: usize,
    /// Bucket lengths after that level.
    pub(super) buckets: Vec<u64>,
}

const STATE_MAGIC: &str = "bgkit-two-sided-state 1";

impl State {
    pub(super) fn write(&self, path: &Path) -> Result<(), BearoffError> {
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
        fileio::write_atomic(path, text.as_bytes()).map_err(|e| BearoffError::io(path, "cannot write", e))
    }

    pub(super) fn read(path: &Path) -> Result<State, BearoffError> {
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
    pub(super) fn check(&self, path: &Path, plan: &TwoSidedPlan) -> Result<(), BearoffError> {
        self.check_params(path, plan)?;
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

    /// Whether this state was written for the same points, checkers and cube setting.
    pub(super) fn check_params(&self, path: &Path, plan: &TwoSidedPlan) -> Result<(), BearoffError> {
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
        Ok(())
    }
}

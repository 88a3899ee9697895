//! The work directory of a sharded build and its plan file (`DIR/plan`): what is built
//! (points, checkers, cube setting, header style) and how many levels it has. Every
//! task and the assembly read it, so they all build the same database.

use std::fs;
use std::path::{Path, PathBuf};

use super::super::plan::check_params;
use crate::error::BearoffError;
use crate::format::header::{HeaderStyle, TwoSidedParams};
use crate::levels::PipLevels;

const PLAN_MAGIC: &str = "bgkit-two-sided-work 1";

/// What a sharded build makes, as recorded in its work directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkPlan {
    /// The database.
    pub params: TwoSidedParams,
    /// The header the assembled file gets.
    pub style: HeaderStyle,
    /// Pip-sum levels (numbered `0 .. levels`); each is one round of tasks.
    pub levels: usize,
}

impl WorkPlan {
    /// The plan of `params` written with `style`.
    pub fn new(params: TwoSidedParams, style: HeaderStyle) -> Result<WorkPlan, BearoffError> {
        let index = check_params(params)?;
        let max_pip = PipLevels::new(&index).max_pip();
        Ok(WorkPlan {
            params,
            style,
            levels: 2 * max_pip + 1,
        })
    }

    /// The plan file of work directory `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join("plan")
    }

    /// Creates `dir` (if needed) and its plan file; a directory that already holds the
    /// same plan is accepted as it is (so a submission can be repeated), one that holds
    /// another is refused.
    pub fn create(dir: &Path, plan: WorkPlan) -> Result<WorkPlan, BearoffError> {
        fs::create_dir_all(dir).map_err(|e| BearoffError::io(dir, "cannot create the work directory", e))?;
        let path = WorkPlan::path(dir);
        if path.exists() {
            let old = WorkPlan::open(dir)?;
            if old != plan {
                return Err(BearoffError::WrongKind {
                    path,
                    why: format!(
                        "this work directory is planned for {}; asked for {} (use another --work directory)",
                        old.describe(),
                        plan.describe()
                    ),
                });
            }
            return Ok(old);
        }
        let p = plan.params;
        let text = format!(
            "{PLAN_MAGIC}\npoints {}\ncheckers {}\ncubeful {}\nheader {}\nlevels {}\n",
            p.points,
            p.checkers,
            u8::from(p.cubeful),
            style_name(plan.style),
            plan.levels
        );
        fileio::write_atomic(&path, text.as_bytes())
            .map_err(|e| BearoffError::io(&path, "cannot write", e))?;
        Ok(plan)
    }

    /// Reads the plan of work directory `dir`.
    pub fn open(dir: &Path) -> Result<WorkPlan, BearoffError> {
        let path = WorkPlan::path(dir);
        let text = fs::read_to_string(&path).map_err(|e| {
            BearoffError::io(
                &path,
                "cannot read the plan (run `gen-bearoff two-sided-plan` first)",
                e,
            )
        })?;
        let bad = |why: &str| BearoffError::corrupt(&path, format!("bad plan file: {why}"));
        let mut lines = text.lines();
        if lines.next() != Some(PLAN_MAGIC) {
            return Err(bad("unknown format"));
        }
        let mut field = |name: &str| -> Result<String, BearoffError> {
            let line = lines.next().ok_or_else(|| bad("too short"))?;
            match line.split_once(' ') {
                Some((k, v)) if k == name => Ok(v.to_string()),
                _ => Err(bad(&format!("expected '{name}'"))),
            }
        };
        let num = |v: String| -> Result<u64, BearoffError> { v.parse().map_err(|_| bad("not a number")) };
        let points = num(field("points")?)?;
        let checkers = num(field("checkers")?)?;
        let cubeful = num(field("cubeful")?)?;
        let style = match field("header")?.as_str() {
            "gnubg" => HeaderStyle::Gnubg,
            "wide" => HeaderStyle::Wide,
            "none" => HeaderStyle::None,
            _ => return Err(bad("unknown header style")),
        };
        let levels = num(field("levels")?)?;
        if points > 24 || checkers > 15 || cubeful > 1 {
            return Err(bad("fields out of range"));
        }
        let params = TwoSidedParams {
            points: points as u8,
            checkers: checkers as u8,
            cubeful: cubeful == 1,
        };
        let plan = WorkPlan::new(params, style).map_err(|e| bad(&e.to_string()))?;
        if plan.levels as u64 != levels {
            return Err(bad("level count does not match the database"));
        }
        Ok(plan)
    }

    /// E.g. `6x8 cubeful, gnubg header`.
    pub fn describe(&self) -> String {
        let p = self.params;
        format!(
            "{}x{} {}, {} header",
            p.points,
            p.checkers,
            if p.cubeful { "cubeful" } else { "cubeless" },
            style_name(self.style)
        )
    }
}

fn style_name(style: HeaderStyle) -> &'static str {
    match style {
        HeaderStyle::Gnubg => "gnubg",
        HeaderStyle::Wide => "wide",
        HeaderStyle::None => "none",
    }
}

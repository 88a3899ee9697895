//! `gen-bearoff dump`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{ArgGroup, Parser};
use serde::Serialize;

use gen_bearoff::dump::{dump, locate, DumpTarget};
use gen_bearoff::{BearoffDb, BearoffError, OneSidedDb};

use super::common::open_db;

/// Options of `dump`.
#[derive(Parser, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["position_id", "index"])))]
pub struct Args {
    /// The database file.
    pub file: PathBuf,
    /// Dump this position: a gnubg Position ID, PositionID:MatchID, or an XGID (`XGID=`
    /// optional).
    #[arg(long, short = 'p', value_name = "POSITION")]
    pub position_id: Option<String>,
    /// Dump this index (gnubg's convention: index / n is the player on roll, index % n
    /// the opponent, n = positions per side).
    #[arg(long, short = 'n')]
    pub index: Option<u64>,
    /// For a headerless file: its header text, e.g. "gnubg-TS-06-06-1".
    #[arg(long)]
    pub assume_header: Option<String>,
    /// Print the record as one JSON object instead of gnubg's text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `dump`.
pub fn run(args: Args) -> Result<ExitCode> {
    // A badly written position is the argument's fault, not the file's: said first.
    let target = match (&args.position_id, args.index) {
        (Some(text), _) => DumpTarget::position(text).context("bad --position-id")?,
        (None, Some(i)) => DumpTarget::Index(i),
        (None, None) => unreachable!("clap requires one"),
    };
    let db = open_db(&args.file, args.assume_header.as_deref())?;
    let name = args.file.display().to_string();
    if args.json {
        let doc = json(&db, &target, &name).with_context(|| name.clone())?;
        super::json::print(&doc)?;
        return Ok(ExitCode::SUCCESS);
    }
    let text = dump(&db, &target, &name).with_context(|| name.clone())?;
    cli_support::out!("{text}")?;
    Ok(ExitCode::SUCCESS)
}

/// `dump --json`: the values `dump` prints, unrounded (fields as in the README).
#[derive(Serialize)]
struct Doc {
    file: String,
    kind: String,
    index: u64,
    position_id: String,
    #[serde(flatten)]
    record: Record,
}

/// The fields that depend on the kind of database.
#[derive(Serialize)]
#[serde(untagged)]
enum Record {
    /// Boxed: a side holds two 32-entry distributions.
    OneSided { player: Box<Side>, opponent: Box<Side> },
    TwoSided {
        player: u64,
        opponent: u64,
        cubeless: f32,
        owned: Option<f32>,
        centred: Option<f32>,
        opponent_owns: Option<f32>,
    },
    Hypergammon {
        player: u64,
        opponent: u64,
        owned: f32,
        centred: f32,
        centred_jacoby: f32,
        opponent_owns: f32,
        cubeless: f32,
        probabilities: [f64; 5],
    },
}

/// One side of a one-sided record: its distributions and the figures `dump` prints;
/// the gammon fields are `None` when the file has no gammon distributions.
#[derive(Serialize)]
struct Side {
    index: u64,
    pips: u32,
    bearoff: [f32; 32],
    gammon: Option<[f32; 32]>,
    mean: f32,
    std_dev: f32,
    gammon_mean: Option<f32>,
    gammon_std_dev: Option<f32>,
    epc: f32,
    wastage: f32,
}

/// The record `target` names, as the `--json` document.
fn json(db: &BearoffDb, target: &DumpTarget, name: &str) -> Result<Doc, BearoffError> {
    let (pos, us, them) = locate(db, target)?;
    let per_side = db.positions_per_side();
    let record = match db {
        BearoffDb::OneSided(d) => Record::OneSided {
            player: Box::new(one_side(d, us, pos.on_roll())?),
            opponent: Box::new(one_side(d, them, pos.opponent())?),
        },
        BearoffDb::TwoSided(d) => {
            let e = d.equities(d.record_index(us, them)?)?;
            Record::TwoSided {
                player: us,
                opponent: them,
                cubeless: e.cubeless(),
                owned: e.owned(),
                centred: e.centred(),
                opponent_owns: e.opponent_owns(),
            }
        }
        BearoffDb::Hypergammon(d) => {
            let r = d.record(d.record_index(us, them)?)?;
            let e = r.cubeful();
            Record::Hypergammon {
                player: us,
                opponent: them,
                owned: e[0],
                centred: e[1],
                centred_jacoby: e[2],
                opponent_owns: e[3],
                cubeless: r.cubeless_equity(),
                probabilities: r.exact_probabilities(),
            }
        }
    };
    Ok(Doc {
        file: name.to_string(),
        kind: db.kind().to_string(),
        index: us * per_side + them,
        position_id: pos.position_id(),
        record,
    })
}

/// One side of a one-sided record.
fn one_side(db: &OneSidedDb, index: u64, side: &[u8; 25]) -> Result<Side, BearoffError> {
    let p = db.probabilities(index)?;
    let gammon = db.params().gammon || db.params().normal;
    let m = p.moments;
    // gnubg's effective pip count: average rolls x 294/36 (in f32, as dump prints it).
    let epc = m[0] * (294.0f32 / 36.0f32);
    let pips = board::pip_count(side);
    Ok(Side {
        index,
        pips,
        bearoff: p.bearoff,
        gammon: gammon.then_some(p.gammon),
        mean: m[0],
        std_dev: m[1],
        gammon_mean: gammon.then_some(m[2]),
        gammon_std_dev: gammon.then_some(m[3]),
        epc,
        wastage: epc - pips as f32,
    })
}

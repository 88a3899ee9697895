//! `gen-bearoff dump`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{ArgGroup, Parser};

use gen_bearoff::dump::{dump, locate, DumpTarget};
use gen_bearoff::{BearoffDb, BearoffError, OneSidedDb};

use super::common::open_db;
use super::json::Json;

/// Options of `dump`.
#[derive(Parser, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["position_id", "index"])))]
pub struct Args {
    /// The database file.
    pub file: PathBuf,
    /// Dump the position with this gnubg Position ID.
    #[arg(long, short = 'p')]
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
    let db = open_db(&args.file, args.assume_header.as_deref())?;
    let target = match (args.position_id, args.index) {
        (Some(id), _) => DumpTarget::PositionId(id),
        (None, Some(i)) => DumpTarget::Index(i),
        (None, None) => unreachable!("clap requires one"),
    };
    let name = args.file.display().to_string();
    if args.json {
        let doc = json(&db, &target, &name).with_context(|| name.clone())?;
        cli_support::outln!("{}", doc.pretty())?;
        return Ok(ExitCode::SUCCESS);
    }
    let text = dump(&db, &target, &name).with_context(|| name.clone())?;
    cli_support::out!("{text}")?;
    Ok(ExitCode::SUCCESS)
}

/// The record `target` names, as JSON: the values `dump` prints, unrounded.
fn json(db: &BearoffDb, target: &DumpTarget, name: &str) -> Result<Json, BearoffError> {
    let (pos, us, them) = locate(db, target)?;
    let per_side = match db {
        BearoffDb::OneSided(d) => d.count(),
        BearoffDb::TwoSided(d) => d.positions_per_side(),
        BearoffDb::Hypergammon(d) => d.positions_per_side(),
    };
    let mut doc = vec![
        ("file", Json::str(name)),
        ("kind", Json::str(db.kind().to_string())),
        ("index", Json::uint(us * per_side + them)),
        ("position_id", Json::str(pos.position_id())),
    ];
    match db {
        BearoffDb::OneSided(d) => {
            doc.push(("player", one_side(d, us, pos.on_roll())?));
            doc.push(("opponent", one_side(d, them, pos.opponent())?));
        }
        BearoffDb::TwoSided(d) => {
            let e = d.equities(d.record_index(us, them)?)?;
            let opt = |v: Option<f32>| v.map_or(Json::Null, Json::f32);
            doc.extend([
                ("player", Json::uint(us)),
                ("opponent", Json::uint(them)),
                ("cubeless", Json::f32(e.cubeless())),
                ("owned", opt(e.owned())),
                ("centred", opt(e.centred())),
                ("opponent_owns", opt(e.opponent_owns())),
            ]);
        }
        BearoffDb::Hypergammon(d) => {
            let r = d.record(d.record_index(us, them)?)?;
            let e = r.cubeful();
            doc.extend([
                ("player", Json::uint(us)),
                ("opponent", Json::uint(them)),
                ("owned", Json::f32(e[0])),
                ("centred", Json::f32(e[1])),
                ("centred_jacoby", Json::f32(e[2])),
                ("opponent_owns", Json::f32(e[3])),
                ("cubeless", Json::f32(r.cubeless_equity())),
                (
                    "probabilities",
                    Json::Arr(r.exact_probabilities().iter().map(|&p| Json::f64(p)).collect()),
                ),
            ]);
        }
    }
    Ok(Json::Obj(doc))
}

/// One side of a one-sided record: its distributions and the figures `dump` prints.
fn one_side(db: &OneSidedDb, index: u64, side: &[u8; 25]) -> Result<Json, BearoffError> {
    let p = db.probabilities(index)?;
    let gammon = db.params().gammon || db.params().normal;
    let m = p.moments;
    // gnubg's effective pip count: average rolls x 294/36 (in f32, as dump prints it).
    let epc = m[0] * (294.0f32 / 36.0f32);
    let pips = board::pip_count(side);
    let if_gammon = |j: Json| if gammon { j } else { Json::Null };
    Ok(Json::Obj(vec![
        ("index", Json::uint(index)),
        ("pips", Json::uint(u64::from(pips))),
        ("bearoff", Json::f32s(&p.bearoff)),
        ("gammon", if_gammon(Json::f32s(&p.gammon))),
        ("mean", Json::f32(m[0])),
        ("std_dev", Json::f32(m[1])),
        ("gammon_mean", if_gammon(Json::f32(m[2]))),
        ("gammon_std_dev", if_gammon(Json::f32(m[3]))),
        ("epc", Json::f32(epc)),
        ("wastage", Json::f32(epc - pips as f32)),
    ]))
}

//! Standings: points, points per game with standard errors (per participant and per
//! pair of participants, the cross table) and Elo-style ratings.
//!
//! A game gives its winner +1, +2 or +3 points (single game, gammon, backgammon) and
//! the loser as many minus. A participant's `points` are its net points, `ppg` their
//! mean over its games. Standard errors treat each dice stream (the two games of a
//! duplicate pair) as one sample, since its two games are correlated: with `N` games
//! in `C` streams, stream sums `S_c` over `n_c` games,
//! `SE² = C / (C − 1) · Σ_c (S_c − n_c · ppg)² / N²`. When every stream is complete
//! this is the sample variance of the pair means over `C`, as in `trainer duel`.

use serde::Serialize;

use crate::tourney::elo;
use crate::tourney::tournament::Tournament;

/// One participant's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// 1-based number (as `upgrade` and `replace` take it).
    pub number: usize,
    /// Name.
    pub name: String,
    /// Current player description.
    pub spec: String,
    /// Current version (0 for the original player).
    pub version: usize,
    /// Finished games.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games won with a gammon or backgammon.
    pub gammons: u64,
    /// Games won with a backgammon.
    pub backgammons: u64,
    /// Net points.
    pub points: i64,
    /// Points per game.
    pub ppg: f64,
    /// Standard error of `ppg` (`None` with fewer than two dice streams).
    pub se: Option<f64>,
    /// Elo-style rating.
    pub elo: f64,
    /// Its standard error (`None` without games).
    pub elo_se: Option<f64>,
    /// Its rating group (1-based; `None` without games): participants connected by
    /// games, directly or through others. Ratings average 0 within each group and
    /// compare only within it.
    pub elo_group: Option<usize>,
}

/// Two participants' games against each other (all cycles together).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// The two participants' numbers (1-based), lower first; figures are the first's.
    pub players: [usize; 2],
    /// Finished games.
    pub games: u64,
    /// Games the first won.
    pub wins: u64,
    /// The first's net points.
    pub points: i64,
    /// The first's points per game.
    pub ppg: f64,
    /// Standard error of `ppg` over dice streams.
    pub se: Option<f64>,
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    /// Tournament type (`round-robin`, `gauntlet:N`, `swiss:R`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Cycles.
    pub cycles: u32,
    /// Games per pairing.
    pub games_per_pairing: u32,
    /// Finished games.
    pub games_played: u64,
    /// All games of the tournament.
    pub games_total: u64,
    /// Games being played now.
    pub games_running: u64,
    /// One entry per participant, in the file's order.
    pub participants: Vec<Entry>,
    /// One cell per pair of participants that played.
    pub pairings: Vec<Cell>,
    /// How ratings were fitted.
    pub elo_method: String,
    /// Whether virtual draws were needed (see [`elo`]), in any group.
    pub elo_virtual_draws: bool,
    /// The rating groups that got virtual draws (1-based, as `Entry::elo_group`).
    pub elo_draw_groups: Vec<usize>,
    /// Rating groups among the participants with games.
    pub elo_groups: usize,
}

/// Net points and their standard error over dice streams.
#[derive(Clone, Debug, Default)]
struct Sample {
    games: u64,
    wins: u64,
    gammons: u64,
    backgammons: u64,
    points: i64,
    /// (stream, games, net points) in stream order.
    streams: Vec<(u64, u64, i64)>,
}

impl Sample {
    fn add(&mut self, stream: u64, points: i64) {
        self.games += 1;
        self.points += points;
        if points > 0 {
            self.wins += 1;
            self.gammons += u64::from(points >= 2);
            self.backgammons += u64::from(points == 3);
        }
        match self.streams.last_mut() {
            Some(last) if last.0 == stream => {
                last.1 += 1;
                last.2 += points;
            }
            _ => self.streams.push((stream, 1, points)),
        }
    }

    fn ppg(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.points as f64 / self.games as f64
        }
    }

    fn se(&self) -> Option<f64> {
        let c = self.streams.len() as f64;
        if self.streams.len() < 2 {
            return None;
        }
        let mean = self.ppg();
        let n = self.games as f64;
        let ss: f64 = self
            .streams
            .iter()
            .map(|&(_, k, s)| (s as f64 - k as f64 * mean).powi(2))
            .sum();
        Some((c / (c - 1.0) * ss).sqrt() / n)
    }
}

/// Computes the standings of a tournament.
pub fn standings(t: &Tournament) -> Standings {
    let p = t.participants.len();
    let mut each = vec![Sample::default(); p];
    let mut pairs = vec![vec![Sample::default(); p]; p];
    let mut wins = vec![vec![0.0; p]; p];
    let mut running = 0;
    for (_, pairing, game) in t.games() {
        running += u64::from(game.running.is_some());
        let Some(r) = game.result else { continue };
        let w = pairing.players[usize::from(r.winner)];
        let l = pairing.players[1 - usize::from(r.winner)];
        let pts = i64::from(r.points);
        let stream = game.id / 2;
        each[w].add(stream, pts);
        each[l].add(stream, -pts);
        let (a, b) = (w.min(l), w.max(l));
        pairs[a][b].add(stream, if a == w { pts } else { -pts });
        wins[w][l] += 1.0;
    }
    let fit = elo::fit(&wins);
    // Groups of participants with games, numbered from 1 in participant order.
    let mut numbers: Vec<usize> = Vec::new();
    let group_of: Vec<Option<usize>> = (0..p)
        .map(|i| {
            (each[i].games > 0).then(|| {
                let g = fit.group[i];
                match numbers.iter().position(|&x| x == g) {
                    Some(k) => k + 1,
                    None => {
                        numbers.push(g);
                        numbers.len()
                    }
                }
            })
        })
        .collect();
    let draw_groups: Vec<usize> = numbers
        .iter()
        .enumerate()
        .filter(|(_, &g)| fit.draws_in[g])
        .map(|(k, _)| k + 1)
        .collect();
    let participants = t
        .participants
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let s = &each[i];
            Entry {
                number: i + 1,
                name: part.name.clone(),
                spec: part.spec().to_string(),
                version: part.version(),
                games: s.games,
                wins: s.wins,
                gammons: s.gammons,
                backgammons: s.backgammons,
                points: s.points,
                ppg: s.ppg(),
                se: s.se(),
                elo: fit.ratings[i],
                elo_se: if s.games > 0 { fit.se[i] } else { None },
                elo_group: group_of[i],
            }
        })
        .collect();
    let mut cells = Vec::new();
    for (a, row) in pairs.iter().enumerate() {
        for (b, s) in row.iter().enumerate().skip(a + 1) {
            if s.games > 0 {
                cells.push(Cell {
                    players: [a + 1, b + 1],
                    games: s.games,
                    wins: s.wins,
                    points: s.points,
                    ppg: s.ppg(),
                    se: s.se(),
                });
            }
        }
    }
    let groups = numbers.len();
    Standings {
        kind: t.settings.kind.to_string(),
        cycles: t.settings.cycles,
        games_per_pairing: t.settings.games_per_pairing,
        games_played: t.games_played(),
        games_total: t.games_total(),
        games_running: running,
        participants,
        pairings: cells,
        elo_method: format!(
            "Bradley-Terry maximum likelihood on game wins, mean 0{}",
            if groups > 1 {
                " within each group of participants connected by games"
            } else {
                ""
            }
        ),
        elo_virtual_draws: fit.virtual_draws(),
        elo_draw_groups: draw_groups,
        elo_groups: groups,
    }
}

impl Standings {
    /// The table as text: participants by rating, then the cross table.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}, {} cycle(s), {} games per pairing: {} of {} games played{}",
            self.kind,
            self.cycles,
            self.games_per_pairing,
            self.games_played,
            self.games_total,
            if self.games_running > 0 {
                format!(", {} in progress", self.games_running)
            } else {
                String::new()
            }
        );
        let width = self
            .participants
            .iter()
            .map(|e| e.name.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        // Ratings of different groups are not on one scale: with several, a column says
        // which group each participant is in, and the table is sorted group by group.
        let grouped = self.elo_groups > 1;
        let _ = writeln!(
            out,
            "\n{:>3}  {:<width$}  {:>6}  {:>6}  {:>7}  {:>7}  {:>6}  {:>7}  {:>6}{}",
            "#",
            "name",
            "games",
            "wins",
            "points",
            "ppg",
            "± SE",
            "Elo",
            "± SE",
            if grouped { "  group" } else { "" }
        );
        let mut order: Vec<&Entry> = self.participants.iter().collect();
        let group = |e: &Entry| {
            if grouped {
                e.elo_group.unwrap_or(usize::MAX)
            } else {
                0
            }
        };
        order.sort_by(|a, b| {
            group(a)
                .cmp(&group(b))
                .then(b.elo.total_cmp(&a.elo))
                .then(a.number.cmp(&b.number))
        });
        let opt = |x: Option<f64>, prec: usize| x.map_or("-".to_string(), |v| format!("{v:.prec$}"));
        for e in order {
            let _ = writeln!(
                out,
                "{:>3}  {:<width$}  {:>6}  {:>6}  {:>+7}  {:>+7.3}  {:>6}  {:>+7.1}  {:>6}{}",
                e.number,
                e.name,
                e.games,
                e.wins,
                e.points,
                e.ppg,
                opt(e.se, 3),
                e.elo,
                opt(e.elo_se, 1),
                match (grouped, e.elo_group) {
                    (false, _) => String::new(),
                    (true, g) => format!("  {:>5}", g.map_or("-".to_string(), |g| g.to_string())),
                }
            );
        }
        if grouped {
            let _ = writeln!(
                out,
                "(Elo compares only within a group: {} groups of participants connected by games, each averaging 0)",
                self.elo_groups
            );
        }
        if self.elo_virtual_draws {
            let whom = match self.elo_draw_groups.as_slice() {
                _ if !grouped => "ratings".to_string(),
                [g] => format!("group {g}'s ratings"),
                [rest @ .., last] => {
                    let rest: Vec<String> = rest.iter().map(|g| g.to_string()).collect();
                    format!("groups {} and {last}'s ratings", rest.join(", "))
                }
                [] => "ratings".to_string(),
            };
            let _ = writeln!(
                out,
                "({whom} include one virtual draw for every pair that met: some players won every game \
                 against the rest, and without the draws no rating would fit)"
            );
        }
        let _ = writeln!(
            out,
            "\nCross table: points per game of the row against the column, ± SE over dice pairs"
        );
        let n = self.participants.len();
        let cell_w = 15;
        let _ = write!(out, "{:>3}  {:<width$}", "", "");
        for j in 1..=n {
            let _ = write!(out, "  {j:>cell_w$}");
        }
        out.push('\n');
        for (i, e) in self.participants.iter().enumerate() {
            let _ = write!(out, "{:>3}  {:<width$}", i + 1, e.name);
            for j in 0..n {
                let text = if i == j {
                    ".".to_string()
                } else {
                    let (a, b, sign) = if i < j { (i, j, 1.0) } else { (j, i, -1.0) };
                    match self.pairings.iter().find(|c| c.players == [a + 1, b + 1]) {
                        Some(c) => match c.se {
                            Some(se) => format!("{:+.2} ± {:.2}", sign * c.ppg + 0.0, se),
                            None => format!("{:+.2}", sign * c.ppg + 0.0),
                        },
                        None => "-".to_string(),
                    }
                };
                let _ = write!(out, "  {text:>cell_w$}");
            }
            out.push('\n');
        }
        out
    }
}

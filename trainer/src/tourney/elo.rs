//! Elo-style ratings fitted to game results by maximum likelihood (the
//! Bradley–Terry model), with standard errors.
//!
//! Each game counts as a win for one participant (gammons count like single games
//! here; points per game cover them). The model: participant `i` beats `j` with
//! probability `1 / (1 + 10^((R_j − R_i) / 400))`. The ratings maximise the
//! likelihood of all results, found by Newton's method on the concave
//! log-likelihood with step halving. Only differences are determined: the ratings of
//! each group of participants connected by games average 0.
//!
//! Standard errors come from the observed information `H` (minus the Hessian of the
//! log-likelihood, in natural-log units `θ = R · ln 10 / 400`): the covariance of the
//! mean-centred ratings is the pseudo-inverse `H⁺ = (H + J/m)⁻¹ − J/m` (`J` all
//! ones, `m` participants in the group), and `SE_i = √H⁺_ii · 400 / ln 10`.
//!
//! The maximum does not exist when the participants of a group can be split in two so
//! that one side won every game between them (someone won or lost everything, say).
//! Then each pair of that group that met gets one virtual draw — half a win each, as
//! BayesElo's prior does — and [`EloFit::draws_in`] says so for the group. A group
//! whose maximum exists gets none.

// Matrix code reads best with indices.
#![allow(clippy::needless_range_loop)]

/// Ratings and their standard errors.
#[derive(Clone, Debug, PartialEq)]
pub struct EloFit {
    /// Ratings, averaging 0 within each group connected by games.
    pub ratings: Vec<f64>,
    /// Standard errors; `None` for a participant without games.
    pub se: Vec<Option<f64>>,
    /// Group of each participant (participants connected by games share one).
    pub group: Vec<usize>,
    /// For each group (indexed as `group`), whether its pairs got virtual draws.
    pub draws_in: Vec<bool>,
}

impl EloFit {
    /// Whether virtual draws were added to make the maximum exist (in any group).
    pub fn virtual_draws(&self) -> bool {
        self.draws_in.iter().any(|&d| d)
    }
}

/// Elo points per natural-log unit of strength.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// Fits ratings to `wins[i][j]`, the games `i` won against `j`.
pub fn fit(wins: &[Vec<f64>]) -> EloFit {
    let p = wins.len();
    let games = |i: usize, j: usize| wins[i][j] + wins[j][i];
    // Groups: connected components of "played each other".
    let mut group = vec![usize::MAX; p];
    let mut groups = 0;
    for s in 0..p {
        if group[s] != usize::MAX {
            continue;
        }
        let mut stack = vec![s];
        group[s] = groups;
        while let Some(i) = stack.pop() {
            for j in 0..p {
                if group[j] == usize::MAX && games(i, j) > 0.0 {
                    group[j] = groups;
                    stack.push(j);
                }
            }
        }
        groups += 1;
    }
    let mut fit = EloFit {
        ratings: vec![0.0; p],
        se: vec![None; p],
        group: group.clone(),
        draws_in: vec![false; groups],
    };
    for g in 0..groups {
        let members: Vec<usize> = (0..p).filter(|&i| group[i] == g).collect();
        if members.len() < 2 {
            continue;
        }
        let mut w: Vec<Vec<f64>> = members
            .iter()
            .map(|&i| members.iter().map(|&j| wins[i][j]).collect())
            .collect();
        if !strongly_connected(&w) {
            fit.draws_in[g] = true;
            let m = members.len();
            for a in 0..m {
                for b in 0..m {
                    if a != b && w[a][b] + w[b][a] > 0.0 {
                        w[a][b] += 0.5;
                    }
                }
            }
        }
        let (theta, se) = solve(&w);
        for (k, &i) in members.iter().enumerate() {
            fit.ratings[i] = theta[k] * SCALE;
            fit.se[i] = Some(se[k] * SCALE);
        }
    }
    fit
}

/// Whether every participant can be reached from every other along "beat" edges.
fn strongly_connected(w: &[Vec<f64>]) -> bool {
    let m = w.len();
    let reach = |forward: bool| {
        let mut seen = vec![false; m];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in 0..m {
                let edge = if forward { w[i][j] } else { w[j][i] };
                if !seen[j] && edge > 0.0 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.iter().all(|&s| s)
    };
    reach(true) && reach(false)
}

/// Maximum-likelihood strengths (natural-log units, mean 0) of a connected group whose
/// maximum exists, and their standard errors.
fn solve(w: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let m = w.len();
    let n: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|j| w[i][j] + w[j][i]).collect())
        .collect();
    let loglik = |t: &[f64]| {
        let mut l = 0.0;
        for i in 0..m {
            for j in 0..m {
                if w[i][j] > 0.0 {
                    // log σ(t_i − t_j), computed stably.
                    let d = t[i] - t[j];
                    l -= w[i][j]
                        * if d > 0.0 {
                            (-d).exp().ln_1p()
                        } else {
                            d.exp().ln_1p() - d
                        };
                }
            }
        }
        l
    };
    let info = |t: &[f64]| {
        let mut h = vec![vec![0.0; m]; m];
        let mut g = vec![0.0; m];
        for i in 0..m {
            for j in 0..m {
                if i == j || n[i][j] == 0.0 {
                    continue;
                }
                let p = 1.0 / (1.0 + (t[j] - t[i]).exp());
                g[i] += w[i][j] - n[i][j] * p;
                let v = n[i][j] * p * (1.0 - p);
                h[i][i] += v;
                h[i][j] -= v;
            }
        }
        (g, h)
    };
    let mut t = vec![0.0; m];
    let mut l = loglik(&t);
    for _ in 0..500 {
        let (g, h) = info(&t);
        let step = solve_centred(&h, &g);
        let mut scale = 1.0;
        let mut moved = false;
        while scale > 1e-12 {
            let cand: Vec<f64> = t.iter().zip(&step).map(|(a, d)| a + scale * d).collect();
            let lc = loglik(&cand);
            if lc >= l - 1e-12 * l.abs().max(1.0) {
                t = cand;
                l = lc;
                moved = true;
                break;
            }
            scale /= 2.0;
        }
        let size = step.iter().fold(0.0f64, |a, d| a.max(d.abs())) * scale;
        if !moved || size < 1e-13 {
            break;
        }
    }
    let mean = t.iter().sum::<f64>() / m as f64;
    for x in &mut t {
        *x -= mean;
    }
    let (_, h) = info(&t);
    let cov = pseudo_inverse(&h);
    let se = (0..m).map(|i| cov[i][i].max(0.0).sqrt()).collect();
    (t, se)
}

/// `(H + J/m)⁻¹` applied to `g`: the minimum-norm solution of `H x = g` when `g`
/// sums to 0 and `H` is a connected Laplacian-like matrix.
fn solve_centred(h: &[Vec<f64>], g: &[f64]) -> Vec<f64> {
    let inv = regularised_inverse(h);
    (0..g.len())
        .map(|i| (0..g.len()).map(|j| inv[i][j] * g[j]).sum())
        .collect()
}

/// `(H + J/m)⁻¹`.
fn regularised_inverse(h: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let m = h.len();
    let shift = 1.0 / m as f64;
    let a: Vec<Vec<f64>> = h
        .iter()
        .map(|row| row.iter().map(|x| x + shift).collect())
        .collect();
    invert(a)
}

/// The pseudo-inverse of a connected information matrix: `(H + J/m)⁻¹ − J/m`.
fn pseudo_inverse(h: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let shift = 1.0 / h.len() as f64;
    regularised_inverse(h)
        .into_iter()
        .map(|row| row.into_iter().map(|x| x - shift).collect())
        .collect()
}

/// Gauss–Jordan inversion with partial pivoting (the matrices here are symmetric
/// positive definite).
fn invert(mut a: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let m = a.len();
    let mut inv: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..m {
        let pivot = (col..m)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        if d == 0.0 {
            continue;
        }
        for k in 0..m {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for r in 0..m {
            if r != col && a[r][col] != 0.0 {
                let f = a[r][col];
                for k in 0..m {
                    a[r][k] -= f * a[col][k];
                    inv[r][k] -= f * inv[col][k];
                }
            }
        }
    }
    inv
}

//! The Skillings-Mack test (Skillings & Mack 1981): Friedman's test for a data sets x learners
//! table with missing cells, and the declared policy for missing or failed results that the
//! across-data-set analysis applies before its complete-table tests.
//!
//! Within each data set the observed values are ranked (ties averaged) and standardised as
//! sqrt(12 / (s + 1)) (r - (s + 1) / 2), s the number observed there; a missing cell counts 0.
//! With w the learners' totals and Sigma the Laplacian of the graph "learners i and j are both
//! observed on lambda_ij data sets", SM = w' Sigma^+ w, chi-square with rank(Sigma) df (k - 1
//! when every learner is connected to every other through shared data sets). On a complete
//! table without ties SM equals Friedman's chi-square.

use serde::{Deserialize, Serialize};

use crate::distributions::chi_square_sf;
use crate::error::{check_alpha, StatsError};
use crate::summary::midranks;

/// Result of the Skillings-Mack test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkillingsMackResult {
    /// Data sets used (those with at least two observed learners).
    pub n_datasets: usize,
    /// Indices of data sets left out because fewer than two learners have a value there.
    pub skipped_datasets: Vec<usize>,
    /// Number of learners, k.
    pub n_learners: usize,
    /// Number of missing cells in the data sets used.
    pub n_missing: usize,
    /// Each learner's total of standardised ranks (positive = larger values).
    pub adjusted_rank_sums: Vec<f64>,
    /// The statistic w' Sigma^+ w.
    pub statistic: f64,
    /// Degrees of freedom: the rank of Sigma (k minus the number of connected groups of
    /// learners).
    pub df: usize,
    /// Upper-tail chi-square p-value (1 when df = 0).
    pub pvalue: f64,
    /// Significance level.
    pub alpha: f64,
    /// True when the p-value is <= alpha.
    pub reject: bool,
}

/// Skillings-Mack test on `table[dataset][learner]`, `None` for a missing cell (as R's
/// `Skillings.Mack` and autorank's experimental `skillings_mack`). Data sets with fewer than
/// two values are left out and listed (R refuses them).
///
/// Errors: no learners or fewer than 2 -> `TooFew`; ragged rows -> `LengthMismatch`; a NaN or
/// infinite value -> `NonFinite`; fewer than 2 usable data sets -> `TooFew`.
pub fn skillings_mack(
    table: &[Vec<Option<f64>>],
    alpha: f64,
) -> Result<SkillingsMackResult, StatsError> {
    check_alpha(alpha)?;
    let k = check_table(table)?;
    let mut totals = vec![0.0; k];
    let mut together = vec![vec![0.0; k]; k];
    let mut skipped_datasets = Vec::new();
    let mut n_missing = 0;
    for (index, row) in table.iter().enumerate() {
        let observed: Vec<usize> = (0..k).filter(|&j| row[j].is_some()).collect();
        if observed.len() < 2 {
            skipped_datasets.push(index);
            continue;
        }
        n_missing += k - observed.len();
        let values: Vec<f64> = observed.iter().filter_map(|&j| row[j]).collect();
        let s = observed.len() as f64;
        let scale = (12.0 / (s + 1.0)).sqrt();
        for (&j, rank) in observed.iter().zip(midranks(&values)) {
            totals[j] += scale * (rank - (s + 1.0) / 2.0);
        }
        for &a in &observed {
            for &b in &observed {
                if a != b {
                    together[a][b] += 1.0;
                }
            }
        }
    }
    let n_datasets = table.len() - skipped_datasets.len();
    if n_datasets < 2 {
        return Err(StatsError::TooFew {
            name: "data sets with at least two observed learners",
            got: n_datasets,
            needed: 2,
        });
    }
    let (statistic, df) = laplacian_quadratic_form(&together, &totals);
    let pvalue = if df == 0 {
        1.0
    } else {
        chi_square_sf(statistic, df as f64)
    };
    Ok(SkillingsMackResult {
        n_datasets,
        skipped_datasets,
        n_learners: k,
        n_missing,
        adjusted_rank_sums: totals,
        statistic,
        df,
        pvalue,
        alpha,
        reject: pvalue <= alpha,
    })
}

/// Checks the table's shape and values; returns k.
fn check_table(table: &[Vec<Option<f64>>]) -> Result<usize, StatsError> {
    let k = table.first().map_or(0, Vec::len);
    if k < 2 {
        return Err(StatsError::TooFew {
            name: "learners (columns of the table)",
            got: k,
            needed: 2,
        });
    }
    for (i, row) in table.iter().enumerate() {
        if row.len() != k {
            return Err(StatsError::LengthMismatch {
                first: "table row 0",
                first_len: k,
                second: "another table row",
                second_len: row.len(),
            });
        }
        if let Some(j) = row.iter().position(|v| v.is_some_and(|v| !v.is_finite())) {
            return Err(StatsError::NonFinite {
                name: "table (row-major)",
                index: i * k + j,
                value: row[j].unwrap_or(f64::NAN),
            });
        }
    }
    Ok(k)
}

/// w' L^+ w and rank(L) for the Laplacian L of the weighted graph `weights` (zero diagonal),
/// where w sums to 0 over each connected component: on a component C,
/// L^+ = (L_C + J/|C|)^-1 - J/|C| and J w_C = 0, so the form is w_C' (L_C + J/|C|)^-1 w_C.
fn laplacian_quadratic_form(weights: &[Vec<f64>], w: &[f64]) -> (f64, usize) {
    let k = w.len();
    let mut component = vec![usize::MAX; k];
    let mut total = 0.0;
    let mut rank = 0;
    for seed in 0..k {
        if component[seed] != usize::MAX {
            continue;
        }
        let mut members = vec![seed];
        component[seed] = seed;
        let mut cursor = 0;
        while cursor < members.len() {
            let a = members[cursor];
            cursor += 1;
            for b in 0..k {
                if weights[a][b] > 0.0 && component[b] == usize::MAX {
                    component[b] = seed;
                    members.push(b);
                }
            }
        }
        let size = members.len();
        if size < 2 {
            continue;
        }
        rank += size - 1;
        let share = 1.0 / size as f64;
        let matrix: Vec<Vec<f64>> = members
            .iter()
            .map(|&a| {
                members
                    .iter()
                    .map(|&b| {
                        let laplacian = if a == b {
                            weights[a].iter().sum::<f64>()
                        } else {
                            -weights[a][b]
                        };
                        laplacian + share
                    })
                    .collect()
            })
            .collect();
        let vector: Vec<f64> = members.iter().map(|&a| w[a]).collect();
        let solution = solve(matrix, vector.clone());
        total += vector
            .iter()
            .zip(&solution)
            .map(|(a, b)| a * b)
            .sum::<f64>();
    }
    (total.max(0.0), rank)
}

/// Solves A x = b for a symmetric positive definite A by Gaussian elimination with partial
/// pivoting (A is small: one row per learner).
pub(crate) fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&i, &j| a[i][column].abs().total_cmp(&a[j][column].abs()))
            .unwrap_or(column);
        a.swap(column, pivot);
        b.swap(column, pivot);
        let diagonal = a[column][column];
        if diagonal == 0.0 {
            continue;
        }
        let pivot_row = a[column].clone();
        for row in (column + 1)..n {
            let factor = a[row][column] / diagonal;
            if factor != 0.0 {
                for (target, source) in a[row].iter_mut().zip(&pivot_row).skip(column) {
                    *target -= factor * source;
                }
                b[row] -= factor * b[column];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = ((row + 1)..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = if a[row][row] == 0.0 {
            0.0
        } else {
            (b[row] - rest) / a[row][row]
        };
    }
    x
}

/// What the across-data-set analysis does with missing or failed results (a cell with no
/// value), declared before it looks at them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingPolicy {
    /// Drop every data set on which some learner has no value (named in the report).
    DropDatasets,
    /// Drop every learner that lacks a value on some data set (named in the report).
    DropLearners,
    /// Keep every cell: the complete-table tests run on the complete data sets, and the
    /// Skillings-Mack test on the whole table replaces Friedman's as the omnibus test.
    #[default]
    SkillingsMack,
}

/// The complete table left after a [`MissingPolicy`], with what was dropped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MissingOutcome {
    /// The policy applied.
    pub policy: MissingPolicy,
    /// Indices of the data sets kept (rows of the complete table).
    pub kept_datasets: Vec<usize>,
    /// Indices of the learners kept (columns of the complete table).
    pub kept_learners: Vec<usize>,
    /// Indices of the data sets dropped, each with its missing learners' indices.
    pub dropped_datasets: Vec<(usize, Vec<usize>)>,
    /// Indices of the learners dropped, each with the data sets it lacks.
    pub dropped_learners: Vec<(usize, Vec<usize>)>,
    /// The complete table `[kept dataset][kept learner]`.
    pub complete: Vec<Vec<f64>>,
}

/// Applies `policy` to `table[dataset][learner]` (`None` = missing): `DropDatasets` and
/// `SkillingsMack` keep the complete rows, `DropLearners` the complete columns. Errors as
/// [`skillings_mack`]'s shape and value checks.
pub fn apply_missing_policy(
    table: &[Vec<Option<f64>>],
    policy: MissingPolicy,
) -> Result<MissingOutcome, StatsError> {
    let k = check_table(table)?;
    let missing_in_row =
        |row: &Vec<Option<f64>>| -> Vec<usize> { (0..k).filter(|&j| row[j].is_none()).collect() };
    let (kept_datasets, kept_learners, dropped_datasets, dropped_learners) = match policy {
        MissingPolicy::DropDatasets | MissingPolicy::SkillingsMack => {
            let mut kept = Vec::new();
            let mut dropped = Vec::new();
            for (i, row) in table.iter().enumerate() {
                let missing = missing_in_row(row);
                if missing.is_empty() {
                    kept.push(i);
                } else {
                    dropped.push((i, missing));
                }
            }
            (kept, (0..k).collect(), dropped, Vec::new())
        }
        MissingPolicy::DropLearners => {
            let mut kept = Vec::new();
            let mut dropped = Vec::new();
            for j in 0..k {
                let lacking: Vec<usize> = (0..table.len())
                    .filter(|&i| table[i][j].is_none())
                    .collect();
                if lacking.is_empty() {
                    kept.push(j);
                } else {
                    dropped.push((j, lacking));
                }
            }
            ((0..table.len()).collect(), kept, Vec::new(), dropped)
        }
    };
    let complete = kept_datasets
        .iter()
        .map(|&i| kept_learners.iter().filter_map(|&j| table[i][j]).collect())
        .collect();
    Ok(MissingOutcome {
        policy,
        kept_datasets,
        kept_learners,
        dropped_datasets,
        dropped_learners,
        complete,
    })
}

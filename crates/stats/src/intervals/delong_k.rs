//! DeLong, DeLong & Clarke-Pearson (1988) for k correlated AUCs at once: the covariance matrix
//! of the AUCs from the structural components (O(n log n) per model, Sun & Xu 2014) and the
//! chi-square test of any contrast L theta = 0, by default equality of all k AUCs (k - 1 df).

use crate::distributions::chi_square_sf;
use crate::error::{check_alpha, StatsError};
use crate::intervals::auc::{covariance, structural_components};

/// The AUCs of k models on the same rows and their DeLong covariance matrix.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeLongCovariance {
    /// AUC of each model (ties 1/2).
    pub aucs: Vec<f64>,
    /// k x k covariance S = S10 / m + S01 / n (sample covariances, ddof 1, of the placement values).
    pub covariance: Vec<Vec<f64>>,
}

/// Result of DeLong's chi-square test of a contrast of k AUCs.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeLongContrastResult {
    /// AUCs and their covariance.
    pub estimates: DeLongCovariance,
    /// The contrast matrix L (r rows of k coefficients).
    pub contrast: Vec<Vec<f64>>,
    /// L theta.
    pub contrast_values: Vec<f64>,
    /// chi2 = (L theta)' (L S L')^+ (L theta) (Moore-Penrose inverse).
    pub chi_square: f64,
    /// Degrees of freedom: the rank of L S L'.
    pub df: usize,
    /// Upper-tail chi-square p-value (1 when df = 0).
    pub pvalue: f64,
    /// Significance level of the decision.
    pub alpha: f64,
    /// True when p <= alpha.
    pub reject: bool,
}

/// AUCs and DeLong covariance matrix of k >= 1 models' `scores` on the same `labels`.
/// Needs >= 2 positives and >= 2 negatives (`TooFew`), finite scores, equal lengths.
pub fn delong_covariance(
    labels: &[bool],
    scores: &[&[f64]],
) -> Result<DeLongCovariance, StatsError> {
    if scores.is_empty() {
        return Err(StatsError::TooFew {
            name: "models",
            got: 0,
            needed: 1,
        });
    }
    let components = scores
        .iter()
        .map(|s| structural_components(labels, s))
        .collect::<Result<Vec<_>, _>>()?;
    let (m, n) = (components[0].v10.len(), components[0].v01.len());
    for (name, got) in [("positive instances", m), ("negative instances", n)] {
        if got < 2 {
            return Err(StatsError::TooFew {
                name,
                got,
                needed: 2,
            });
        }
    }
    let k = components.len();
    let mut matrix = vec![vec![0.0; k]; k];
    for i in 0..k {
        for j in i..k {
            let value = covariance(&components[i].v10, &components[j].v10) / m as f64
                + covariance(&components[i].v01, &components[j].v01) / n as f64;
            matrix[i][j] = value;
            matrix[j][i] = value;
        }
    }
    Ok(DeLongCovariance {
        aucs: components.iter().map(|c| c.auc).collect(),
        covariance: matrix,
    })
}

/// The (k - 1) x k contrast of consecutive differences theta_i - theta_(i+1): L theta = 0 iff
/// all k AUCs are equal.
pub fn equality_contrast(k: usize) -> Vec<Vec<f64>> {
    (0..k.saturating_sub(1))
        .map(|i| {
            let mut row = vec![0.0; k];
            row[i] = 1.0;
            row[i + 1] = -1.0;
            row
        })
        .collect()
}

/// Eigenvalues and eigenvectors (columns) of a symmetric matrix by cyclic Jacobi rotations.
fn symmetric_eigen(matrix: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let r = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix.to_vec();
    let mut v: Vec<Vec<f64>> = (0..r)
        .map(|i| (0..r).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for _sweep in 0..100 {
        let off: f64 = (0..r)
            .flat_map(|i| (0..r).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum();
        if off == 0.0 || !off.is_finite() {
            break;
        }
        for p in 0..r {
            for q in p + 1..r {
                if a[p][q] == 0.0 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in a.iter_mut() {
                    let (x, y) = (row[p], row[q]);
                    row[p] = c * x - s * y;
                    row[q] = s * x + c * y;
                }
                let (row_p, row_q) = (a[p].clone(), a[q].clone());
                for (j, (x, y)) in row_p.into_iter().zip(row_q).enumerate() {
                    a[p][j] = c * x - s * y;
                    a[q][j] = s * x + c * y;
                }
                for row in v.iter_mut() {
                    let (x, y) = (row[p], row[q]);
                    row[p] = c * x - s * y;
                    row[q] = s * x + c * y;
                }
            }
        }
    }
    ((0..r).map(|i| a[i][i]).collect(), v)
}

/// x' A^+ x and rank(A) for symmetric positive semi-definite A: eigenvalues at most
/// max eigenvalue * r * machine epsilon count as 0 (numpy's `matrix_rank` tolerance).
fn pseudo_quadratic_form(matrix: &[Vec<f64>], x: &[f64]) -> (f64, usize) {
    let (values, vectors) = symmetric_eigen(matrix);
    let largest = values.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let tolerance = largest * matrix.len() as f64 * f64::EPSILON;
    let (mut form, mut rank) = (0.0, 0usize);
    for (index, &value) in values.iter().enumerate() {
        if value.abs() > tolerance && largest > 0.0 {
            let projection: f64 = (0..x.len()).map(|i| vectors[i][index] * x[i]).sum();
            form += projection * projection / value;
            rank += 1;
        }
    }
    (form, rank)
}

fn check_contrast(contrast: &[Vec<f64>], k: usize) -> Result<(), StatsError> {
    if contrast.is_empty() {
        return Err(StatsError::TooFew {
            name: "contrast rows",
            got: 0,
            needed: 1,
        });
    }
    for row in contrast {
        if row.len() != k {
            return Err(StatsError::LengthMismatch {
                first: "contrast row",
                first_len: row.len(),
                second: "models",
                second_len: k,
            });
        }
        crate::error::check_finite("contrast", row)?;
    }
    Ok(())
}

/// DeLong's chi-square test of L theta = 0 for the AUCs theta of k models on the same rows;
/// `contrast` None tests the equality of all k AUCs ([`equality_contrast`], k >= 2).
/// chi2 = (L theta)' (L S L')^+ (L theta) with df = rank(L S L'); for one row this is z^2 of
/// the paired DeLong z. A zero-rank L S L' (e.g. identical models) gives chi2 = 0, df = 0, p = 1.
pub fn delong_contrast_test(
    labels: &[bool],
    scores: &[&[f64]],
    contrast: Option<&[Vec<f64>]>,
    alpha: f64,
) -> Result<DeLongContrastResult, StatsError> {
    check_alpha(alpha)?;
    let estimates = delong_covariance(labels, scores)?;
    let k = estimates.aucs.len();
    let contrast = match contrast {
        Some(rows) => rows.to_vec(),
        None if k >= 2 => equality_contrast(k),
        None => {
            return Err(StatsError::TooFew {
                name: "models",
                got: k,
                needed: 2,
            })
        }
    };
    check_contrast(&contrast, k)?;
    let dot = |row: &[f64], column: &[f64]| row.iter().zip(column).map(|(a, b)| a * b).sum::<f64>();
    let contrast_values: Vec<f64> = contrast
        .iter()
        .map(|row| dot(row, &estimates.aucs))
        .collect();
    // L S, then (L S) L'
    let ls: Vec<Vec<f64>> = contrast
        .iter()
        .map(|row| (0..k).map(|j| dot(row, &estimates.covariance[j])).collect())
        .collect();
    let lsl: Vec<Vec<f64>> = ls
        .iter()
        .map(|row| contrast.iter().map(|other| dot(row, other)).collect())
        .collect();
    let (chi_square, df) = pseudo_quadratic_form(&lsl, &contrast_values);
    let pvalue = if df == 0 {
        1.0
    } else {
        chi_square_sf(chi_square, df as f64)
    };
    Ok(DeLongContrastResult {
        estimates,
        contrast,
        contrast_values,
        chi_square,
        df,
        pvalue,
        alpha,
        reject: pvalue <= alpha,
    })
}

//! Dietterich's 5x2cv paired t-test and Alpaydin's combined 5x2cv F-test.

use crate::distributions::{f_sf, student_t_two_sided_pvalue};
use crate::error::{check_alpha, StatsError};

/// Result of a 5x2cv test.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Cv5x2Result {
    /// t (Dietterich) or F (Alpaydin) statistic; see the degenerate-input policy.
    #[serde(serialize_with = "crate::json::float")]
    pub statistic: f64,
    /// Degrees of freedom of the t (5) or of the F numerator (10).
    pub df: f64,
    /// Degrees of freedom of the F denominator (5); `None` for the t-test.
    pub df_denominator: Option<f64>,
    /// p-value: two-sided for t, upper tail for F.
    pub pvalue: f64,
    /// Mean of the ten differences (the effect).
    pub mean_difference: f64,
    /// Per-replication variance estimates s_i^2 = sum_j (p_ij - pbar_i)^2 (not divided).
    pub replication_variances: [f64; 5],
    /// Significance level used for the decision.
    pub alpha: f64,
    /// True when p <= alpha.
    pub reject: bool,
}

fn check_matrix(differences: &[[f64; 2]; 5]) -> Result<(), StatsError> {
    for (i, row) in differences.iter().enumerate() {
        for (j, value) in row.iter().enumerate() {
            if !value.is_finite() {
                return Err(StatsError::NonFinite {
                    name: "differences (5x2, row-major)",
                    index: 2 * i + j,
                    value: *value,
                });
            }
        }
    }
    Ok(())
}

/// s_i^2 = (p_i1 - pbar_i)^2 + (p_i2 - pbar_i)^2 for each replication.
fn replication_variances(differences: &[[f64; 2]; 5]) -> [f64; 5] {
    let mut s2 = [0.0; 5];
    for (slot, row) in s2.iter_mut().zip(differences) {
        let center = (row[0] + row[1]) / 2.0;
        *slot = (row[0] - center) * (row[0] - center) + (row[1] - center) * (row[1] - center);
    }
    s2
}

fn mean_of(differences: &[[f64; 2]; 5]) -> f64 {
    differences.iter().flatten().sum::<f64>() / 10.0
}

/// Dietterich (1998) 5x2cv paired t-test: t = p_11 / sqrt(sum s_i^2 / 5), 5 df, two-sided.
/// `differences[i][j]` is the difference (a - b) on fold j of replication i.
///
/// Degenerate input: when every s_i^2 is 0, t = +-inf with p = 0 if p_11 != 0, and
/// t = 0, p = 1 if p_11 = 0 (no evidence; IEEE would give NaN). NaN/inf -> `NonFinite`.
pub fn cv5x2_t_test(differences: &[[f64; 2]; 5], alpha: f64) -> Result<Cv5x2Result, StatsError> {
    check_alpha(alpha)?;
    check_matrix(differences)?;
    let s2 = replication_variances(differences);
    let sum_s2: f64 = s2.iter().sum();
    let numerator = differences[0][0];
    let (statistic, pvalue) = if sum_s2 > 0.0 {
        let t = numerator / (sum_s2 / 5.0).sqrt();
        (t, student_t_two_sided_pvalue(t, 5.0))
    } else if numerator == 0.0 {
        (0.0, 1.0)
    } else {
        (f64::INFINITY.copysign(numerator), 0.0)
    };
    Ok(Cv5x2Result {
        statistic,
        df: 5.0,
        df_denominator: None,
        pvalue,
        mean_difference: mean_of(differences),
        replication_variances: s2,
        alpha,
        reject: pvalue <= alpha,
    })
}

/// Alpaydin (1999) combined 5x2cv F-test: F = sum p_ij^2 / (2 sum s_i^2), df (10, 5), upper tail.
///
/// Degenerate input: when every s_i^2 is 0, F = inf with p = 0 if some p_ij != 0, and
/// F = 0, p = 1 if every difference is 0. NaN/inf -> `NonFinite`.
pub fn cv5x2_f_test(differences: &[[f64; 2]; 5], alpha: f64) -> Result<Cv5x2Result, StatsError> {
    check_alpha(alpha)?;
    check_matrix(differences)?;
    let s2 = replication_variances(differences);
    let sum_s2: f64 = s2.iter().sum();
    let sum_squares: f64 = differences.iter().flatten().map(|p| p * p).sum();
    let (statistic, pvalue) = if sum_s2 > 0.0 {
        let f = sum_squares / (2.0 * sum_s2);
        (f, f_sf(f, 10.0, 5.0))
    } else if sum_squares == 0.0 {
        (0.0, 1.0)
    } else {
        (f64::INFINITY, 0.0)
    };
    Ok(Cv5x2Result {
        statistic,
        df: 10.0,
        df_denominator: Some(5.0),
        pvalue,
        mean_difference: mean_of(differences),
        replication_variances: s2,
        alpha,
        reject: pvalue <= alpha,
    })
}

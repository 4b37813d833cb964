//! Multiple-comparison corrections: Bonferroni and Holm (statsmodels `multipletests`).

use crate::error::{check_alpha, StatsError};

/// Corrected p-values and rejection decisions, in input order.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CorrectionResult {
    /// Adjusted p-values, capped at 1.
    pub corrected_pvalues: Vec<f64>,
    /// True where the hypothesis is rejected at family-wise level alpha (corrected p <= alpha).
    pub reject: Vec<bool>,
    /// Family-wise significance level.
    pub alpha: f64,
}

pub(crate) fn check_pvalues(pvalues: &[f64]) -> Result<(), StatsError> {
    if pvalues.is_empty() {
        return Err(StatsError::TooFew {
            name: "pvalues",
            got: 0,
            needed: 1,
        });
    }
    if let Some(index) = pvalues.iter().position(|p| !(0.0..=1.0).contains(p)) {
        return Err(StatsError::OutOfRange {
            name: "pvalues",
            value: pvalues[index],
            allowed: "each in [0, 1] (NaN is not allowed)",
        });
    }
    Ok(())
}

/// Bonferroni: p_i * m capped at 1; reject when p_i <= alpha / m.
/// Empty input -> `TooFew`; a p-value outside [0, 1] or NaN -> `OutOfRange`.
pub fn bonferroni(pvalues: &[f64], alpha: f64) -> Result<CorrectionResult, StatsError> {
    check_alpha(alpha)?;
    check_pvalues(pvalues)?;
    let m = pvalues.len() as f64;
    let corrected_pvalues: Vec<f64> = pvalues.iter().map(|p| (p * m).min(1.0)).collect();
    let reject = pvalues.iter().map(|p| *p <= alpha / m).collect();
    Ok(CorrectionResult {
        corrected_pvalues,
        reject,
        alpha,
    })
}

/// Holm's step-down method: sorted p_(i) times (m - i + 1), running maximum, capped at 1;
/// reject when the corrected p-value <= alpha. Same input checks as [`bonferroni`].
pub fn holm(pvalues: &[f64], alpha: f64) -> Result<CorrectionResult, StatsError> {
    check_alpha(alpha)?;
    check_pvalues(pvalues)?;
    let m = pvalues.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| pvalues[i].total_cmp(&pvalues[j]));
    let mut corrected_pvalues = vec![0.0; m];
    let mut running_max: f64 = 0.0;
    for (position, &index) in order.iter().enumerate() {
        let scaled = ((m - position) as f64 * pvalues[index]).min(1.0);
        running_max = running_max.max(scaled);
        corrected_pvalues[index] = running_max;
    }
    let reject = corrected_pvalues.iter().map(|p| *p <= alpha).collect();
    Ok(CorrectionResult {
        corrected_pvalues,
        reject,
        alpha,
    })
}

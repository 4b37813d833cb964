//! Wilcoxon signed-rank test for paired samples.

use crate::distributions::normal_two_sided_pvalue;
use crate::error::{check_alpha, StatsError};
use crate::paired::ttest::paired_differences;
use crate::summary::{midranks, tie_group_sizes};

/// What to do with zero differences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZeroMethod {
    /// Drop zero differences before ranking (Wilcoxon's original).
    Wilcox,
    /// Rank |d| including the zeros, then drop the zeros' ranks (Pratt), with Cureton's
    /// adjustment of the normal approximation.
    Pratt,
}

/// How the p-value is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WilcoxonMethod {
    /// Exact when at most 50 differences are non-zero; normal approximation otherwise.
    Auto,
    /// Exact permutation distribution of R+: every non-zero difference's sign flipped
    /// independently, keeping the observed (mid)ranks. Without ties or zeros this is the classic
    /// exact table; with them it is the exact conditional test (what scipy computes with
    /// `PermutationMethod` for tied data). Refused (`Undefined`) above 1000 non-zero pairs.
    Exact,
    /// Normal approximation with the tie (and Pratt) corrections of the variance.
    Normal,
}

/// Result of a Wilcoxon signed-rank test on d = x - y.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WilcoxonResult {
    /// Sum of the ranks of the positive differences.
    pub r_plus: f64,
    /// Sum of the ranks of the negative differences.
    pub r_minus: f64,
    /// Statistic min(R+, R-).
    pub statistic: f64,
    /// Number of differences ranked: the non-zero ones for `Wilcox`, all (zeros included) for
    /// `Pratt` (scipy's convention).
    pub n_used: usize,
    /// Number of zero differences in the input.
    pub n_zero: usize,
    /// z of the normal approximation (signed: positive when R+ is above its mean); `None`
    /// for the exact test.
    pub z: Option<f64>,
    /// Two-sided p-value.
    pub pvalue: f64,
    /// Whether the exact distribution was used.
    pub exact: bool,
    /// Mean of the differences x - y (direction and size of the effect).
    pub mean_difference: f64,
    /// Significance level used for the decision.
    pub alpha: f64,
    /// True when p <= alpha.
    pub reject: bool,
}

/// Largest number of non-zero pairs for which `Auto` uses the exact distribution (as scipy).
pub const EXACT_LIMIT: usize = 50;

/// Wilcoxon signed-rank test of x against y (scipy `wilcoxon(x, y, zero_method, correction, method)`).
///
/// `continuity_correction` applies to the normal approximation only (|z| reduced by 0.5/se).
/// Degenerate input: no pair -> `TooFew`; different lengths -> `LengthMismatch`; NaN/inf ->
/// `NonFinite`; no
/// non-zero difference (all pairs tied) -> p = 1, statistic 0, `z` = Some(0) (no evidence,
/// as Weka's all-zero convention); `Exact` with more than 1000 non-zero pairs -> `Undefined`.
/// scipy's `method='exact'` with ties or zeros (tie-free table at a rounded statistic) is not
/// reproduced: it is a convention, not an exact test.
pub fn wilcoxon_signed_rank(
    x: &[f64],
    y: &[f64],
    zero_method: ZeroMethod,
    continuity_correction: bool,
    method: WilcoxonMethod,
    alpha: f64,
) -> Result<WilcoxonResult, StatsError> {
    check_alpha(alpha)?;
    let differences = paired_differences(x, y)?;
    if differences.is_empty() {
        return Err(StatsError::TooFew {
            name: "pairs",
            got: 0,
            needed: 1,
        });
    }
    let mean_difference = differences.iter().sum::<f64>() / differences.len() as f64;
    let n_zero = differences.iter().filter(|d| **d == 0.0).count();
    let ranked: Vec<f64> = match zero_method {
        ZeroMethod::Wilcox => differences.iter().copied().filter(|d| *d != 0.0).collect(),
        ZeroMethod::Pratt => differences.clone(),
    };
    let magnitudes: Vec<f64> = ranked.iter().map(|d| d.abs()).collect();
    let ranks = midranks(&magnitudes);
    let (r_plus, r_minus) = signed_rank_sums(&ranked, &ranks);
    let n_nonzero = differences.len() - n_zero;
    let n_used = ranked.len();
    let statistic = r_plus.min(r_minus);
    let finish = |z: Option<f64>, pvalue: f64, exact: bool| WilcoxonResult {
        r_plus,
        r_minus,
        statistic,
        n_used,
        n_zero,
        z,
        pvalue,
        exact,
        mean_difference,
        alpha,
        reject: pvalue <= alpha,
    };
    if n_nonzero == 0 {
        return Ok(finish(Some(0.0), 1.0, false));
    }
    if uses_exact(method, n_nonzero)? {
        let pvalue = exact_two_sided_pvalue(r_plus, &nonzero_ranks(&ranked, &ranks));
        return Ok(finish(None, pvalue, true));
    }
    match normal_z(
        r_plus,
        &magnitudes,
        n_zero,
        zero_method,
        continuity_correction,
    ) {
        Some(z) => Ok(finish(Some(z), normal_two_sided_pvalue(z), false)),
        None => Ok(finish(Some(0.0), 1.0, false)),
    }
}

/// Whether `method` computes the p-value exactly with `n_nonzero` non-zero differences;
/// `Exact` above 1000 is refused.
fn uses_exact(method: WilcoxonMethod, n_nonzero: usize) -> Result<bool, StatsError> {
    match method {
        WilcoxonMethod::Exact if n_nonzero > 1000 => Err(StatsError::Undefined {
            test: "exact Wilcoxon signed-rank test",
            reason: "more than 1000 non-zero pairs: use WilcoxonMethod::Normal or Auto",
        }),
        WilcoxonMethod::Exact => Ok(true),
        WilcoxonMethod::Auto => Ok(n_nonzero <= EXACT_LIMIT),
        WilcoxonMethod::Normal => Ok(false),
    }
}

/// The ranks of the non-zero differences (the ones whose signs the exact test flips).
fn nonzero_ranks(differences: &[f64], ranks: &[f64]) -> Vec<f64> {
    differences
        .iter()
        .zip(ranks)
        .filter(|(d, _)| **d != 0.0)
        .map(|(_, rank)| *rank)
        .collect()
}

/// Sums of the ranks of the positive and of the negative differences (R+, R-).
fn signed_rank_sums(differences: &[f64], ranks: &[f64]) -> (f64, f64) {
    let mut r_plus = 0.0;
    let mut r_minus = 0.0;
    for (d, rank) in differences.iter().zip(ranks) {
        if *d > 0.0 {
            r_plus += rank;
        } else if *d < 0.0 {
            r_minus += rank;
        }
    }
    (r_plus, r_minus)
}

/// z of the normal approximation of R+ = `r_plus` over the ranked differences' `magnitudes`
/// (`n_zero` of them zero for Pratt, Cureton's adjustment), the variance corrected for ties
/// among the non-zero magnitudes; `None` when the variance is not positive and finite.
fn normal_z(
    r_plus: f64,
    magnitudes: &[f64],
    n_zero: usize,
    zero_method: ZeroMethod,
    continuity_correction: bool,
) -> Option<f64> {
    let nonzero_magnitudes: Vec<f64> = magnitudes.iter().copied().filter(|m| *m != 0.0).collect();
    let tie_sizes = tie_group_sizes(&nonzero_magnitudes);
    // n counts the zeros for Pratt (Cureton's adjustment).
    let n = magnitudes.len() as f64;
    let mut expected = n * (n + 1.0) / 4.0;
    let mut variance = n * (n + 1.0) * (2.0 * n + 1.0) / 24.0;
    if zero_method == ZeroMethod::Pratt && n_zero > 0 {
        let zeros = n_zero as f64;
        expected -= zeros * (zeros + 1.0) / 4.0;
        variance -= zeros * (zeros + 1.0) * (2.0 * zeros + 1.0) / 24.0;
    }
    let tie_term: f64 = tie_sizes
        .iter()
        .map(|&t| {
            let t = t as f64;
            t * t * t - t
        })
        .sum();
    variance -= tie_term / 48.0;
    let se = variance.sqrt();
    if se <= 0.0 || !se.is_finite() {
        return None;
    }
    let mut z = (r_plus - expected) / se;
    if continuity_correction && z != 0.0 {
        // scipy: z -= sign(z) 0.5 / se (may cross zero when |z| < 0.5 / se).
        z -= z.signum() * 0.5 / se;
    }
    Some(z)
}

/// Exact two-sided p-value of R+ = `r_plus` under independent sign flips of the given
/// (mid)ranks: min(1, 2 min(P(R+ <= r), P(R+ >= r))). Midranks are multiples of 1/2, so the
/// distribution is built over doubled ranks (integers) by dynamic programming, as
/// probabilities (halved at each step) so nothing overflows.
fn exact_two_sided_pvalue(r_plus: f64, ranks: &[f64]) -> f64 {
    let doubled: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
    let max_sum: usize = doubled.iter().sum();
    let mut probabilities = vec![0.0_f64; max_sum + 1];
    probabilities[0] = 1.0;
    let mut reached = 0;
    for &rank in &doubled {
        reached += rank;
        for s in (0..=reached).rev() {
            let with = if s >= rank {
                probabilities[s - rank]
            } else {
                0.0
            };
            probabilities[s] = 0.5 * (probabilities[s] + with);
        }
    }
    let observed = (2.0 * r_plus).round() as usize;
    let lower: f64 = probabilities[..=observed.min(max_sum)].iter().sum();
    let upper: f64 = probabilities[observed.min(max_sum)..].iter().sum();
    (2.0 * lower.min(upper)).min(1.0)
}

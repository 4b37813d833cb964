//! Quade's test for a complete block design (Quade 1979; Conover 1999, section 5.8), which
//! weights each data set's ranking by the rank of its range, and its two post-hoc tests:
//! Conover's t-test on the weighted rank sums and the normal z-test of Garcia et al. (2010).

use serde::Serialize;

use crate::across::friedman::check_scores;
use crate::across::posthoc::{PairwiseComparisons, Reference};
use crate::distributions::{f_sf, ln_gamma};
use crate::error::{check_alpha, StatsError};
use crate::summary::midranks;

/// Result of Quade's test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuadeResult {
    /// Number of data sets (blocks), b.
    pub n_datasets: usize,
    /// Number of learners, k.
    pub n_learners: usize,
    /// Rank of each data set's range (max - min) among the data sets, ties averaged.
    pub dataset_weights: Vec<f64>,
    /// S_j = sum over data sets of weight x (rank - (k+1)/2), ranks ascending within a data
    /// set (so a positive S_j means larger values).
    pub weighted_rank_sums: Vec<f64>,
    /// Garcia et al.'s T_j = sum of weight x rank / (b(b+1)/2), ranks descending (1 = the
    /// largest value in the data set, i.e. the best when higher is better).
    pub average_weighted_ranks: Vec<f64>,
    /// A = sum of the squared weighted centred ranks.
    pub a: f64,
    /// B = sum_j S_j^2 / b.
    pub b: f64,
    /// Quade's F = (b - 1) B / (A - B); infinite when A = B > 0 (every data set ranks the
    /// learners alike), 0 when A = 0 (every data set fully tied).
    #[serde(serialize_with = "crate::json::float")]
    pub statistic: f64,
    /// Degrees of freedom of the F: (k - 1, (b - 1)(k - 1)).
    pub df: (f64, f64),
    /// Upper-tail p-value; when A = B > 0 the exact (k!)^(1 - b) of a perfect agreement (as R's
    /// `quade.test`); 1 when A = 0.
    pub pvalue: f64,
    /// Significance level.
    pub alpha: f64,
    /// True when the p-value is <= alpha.
    pub reject: bool,
}

/// Quade's test on `scores[dataset][learner]` (R `quade.test`, Conover 1999).
///
/// Errors: fewer than 2 data sets or learners -> `TooFew`; ragged rows -> `LengthMismatch`;
/// NaN/inf -> `NonFinite`; alpha outside (0, 1) -> `OutOfRange`.
pub fn quade_test<R: AsRef<[f64]>>(scores: &[R], alpha: f64) -> Result<QuadeResult, StatsError> {
    check_alpha(alpha)?;
    let (n, k) = check_scores(scores)?;
    let ranges: Vec<f64> = scores
        .iter()
        .map(|row| {
            let row = row.as_ref();
            let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let min = row.iter().copied().fold(f64::INFINITY, f64::min);
            max - min
        })
        .collect();
    let weights = midranks(&ranges);
    let center = (k as f64 + 1.0) / 2.0;
    let mut sums = vec![0.0; k];
    let mut descending_sums = vec![0.0; k];
    let mut a = 0.0;
    for (row, weight) in scores.iter().zip(&weights) {
        let ranks = midranks(row.as_ref());
        for (j, rank) in ranks.iter().enumerate() {
            let score = weight * (rank - center);
            sums[j] += score;
            a += score * score;
            descending_sums[j] += weight * (k as f64 + 1.0 - rank);
        }
    }
    let (nf, kf) = (n as f64, k as f64);
    let b = sums.iter().map(|s| s * s).sum::<f64>() / nf;
    let df = (kf - 1.0, (nf - 1.0) * (kf - 1.0));
    let (statistic, pvalue) = if a == 0.0 {
        (0.0, 1.0)
    } else if a - b <= a * 1e-14 {
        // Perfect agreement: the exact probability (k!)^(1 - b) of every data set ranking alike.
        (
            f64::INFINITY,
            (-(nf - 1.0) * ln_gamma(k as f64 + 1.0)).exp(),
        )
    } else {
        let f = (nf - 1.0) * b / (a - b);
        (f, f_sf(f, df.0, df.1))
    };
    let normaliser = nf * (nf + 1.0) / 2.0;
    Ok(QuadeResult {
        n_datasets: n,
        n_learners: k,
        dataset_weights: weights,
        weighted_rank_sums: sums,
        average_weighted_ranks: descending_sums.iter().map(|s| s / normaliser).collect(),
        a,
        b,
        statistic,
        df,
        pvalue,
        alpha,
        reject: pvalue <= alpha,
    })
}

/// Conover's (1999) post-hoc t-test after Quade's test: t = |S_i - S_j| /
/// sqrt(2b(A - B) / ((b - 1)(k - 1))) with (b - 1)(k - 1) df (scikit-posthocs
/// `posthoc_quade(dist="t")`). When A = B every nonzero difference is infinite (p = 0).
pub fn quade_posthoc_t(result: &QuadeResult) -> PairwiseComparisons {
    let (nf, kf) = (result.n_datasets as f64, result.n_learners as f64);
    let denominator =
        (2.0 * nf * (result.a - result.b).max(0.0) / ((nf - 1.0) * (kf - 1.0))).sqrt();
    let sums = &result.weighted_rank_sums;
    PairwiseComparisons::from_statistic(
        "quade_t",
        result.n_learners,
        Reference::StudentT,
        Some(result.df.1),
        |i, j| safe_ratio((sums[i] - sums[j]).abs(), denominator),
    )
}

/// Garcia et al.'s (2010) normal post-hoc test after Quade's test: z = |T_i - T_j| /
/// sqrt(k(k+1)(2b+1)(k-1) / (18 b (b+1))) with T_j the average weighted ranks (scmamp
/// `quadePost`).
pub fn quade_posthoc_z(result: &QuadeResult) -> PairwiseComparisons {
    let (nf, kf) = (result.n_datasets as f64, result.n_learners as f64);
    let scale = (kf * (kf + 1.0) * (2.0 * nf + 1.0) * (kf - 1.0) / (18.0 * nf * (nf + 1.0))).sqrt();
    let t = &result.average_weighted_ranks;
    PairwiseComparisons::from_statistic(
        "quade_z",
        result.n_learners,
        Reference::Normal,
        None,
        |i, j| (t[i] - t[j]).abs() / scale,
    )
}

/// |difference| / scale, with 0/0 = 0 and x/0 = inf.
pub(crate) fn safe_ratio(difference: f64, scale: f64) -> f64 {
    if difference == 0.0 {
        0.0
    } else if scale > 0.0 {
        difference / scale
    } else {
        f64::INFINITY
    }
}

//! The Friedman aligned-ranks test (Hodges & Lehmann 1962; Garcia et al. 2010): each value
//! minus its data set's mean, all n k aligned values ranked together, so that data sets are
//! compared with each other as well as within; and its normal post-hoc test.

use serde::Serialize;

use crate::across::friedman::check_scores;
use crate::across::posthoc::{PairwiseComparisons, Reference};
use crate::distributions::chi_square_sf;
use crate::error::{check_alpha, StatsError};
use crate::summary::midranks;

/// Result of the Friedman aligned-ranks test.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignedRanksResult {
    /// Number of data sets, n.
    pub n_datasets: usize,
    /// Number of learners, k.
    pub n_learners: usize,
    /// Rank of each aligned value among all n k, `[dataset][learner]`, 1 = the largest
    /// (best when higher is better), ties averaged.
    pub aligned_ranks: Vec<Vec<f64>>,
    /// Average aligned rank of each learner.
    pub average_aligned_ranks: Vec<f64>,
    /// T = (k-1)[sum_j R_j^2 - (k n^2/4)(kn+1)^2] / ([kn(kn+1)(2kn+1)/6] - sum_i R_i^2 / k),
    /// R_j the column and R_i the row totals of the aligned ranks.
    pub statistic: f64,
    /// Degrees of freedom of the chi-square, k - 1.
    pub df: f64,
    /// Upper-tail chi-square p-value.
    pub pvalue: f64,
    /// Significance level.
    pub alpha: f64,
    /// True when the p-value is <= alpha.
    pub reject: bool,
}

/// Friedman aligned-ranks test on `scores[dataset][learner]`, higher = better (scmamp
/// `friedmanAlignedRanksTest`).
///
/// Errors: as [`crate::across::friedman::friedman_test`].
pub fn friedman_aligned_ranks_test<R: AsRef<[f64]>>(
    scores: &[R],
    alpha: f64,
) -> Result<AlignedRanksResult, StatsError> {
    check_alpha(alpha)?;
    let (n, k) = check_scores(scores)?;
    let mut negated_aligned = Vec::with_capacity(n * k);
    for row in scores {
        let row = row.as_ref();
        // sum / k as numpy computes it (ties among aligned values depend on the rounding);
        // sum of v / k when the plain sum overflows near f64::MAX.
        let sum = row.iter().sum::<f64>();
        let mean = if sum.is_finite() {
            sum / k as f64
        } else {
            row.iter().map(|v| v / k as f64).sum::<f64>()
        };
        negated_aligned.extend(row.iter().map(|v| mean - v));
    }
    let flat = midranks(&negated_aligned);
    let aligned_ranks: Vec<Vec<f64>> = flat.chunks(k).map(<[f64]>::to_vec).collect();
    let (nf, kf) = (n as f64, k as f64);
    let column_totals: Vec<f64> = (0..k)
        .map(|j| aligned_ranks.iter().map(|row| row[j]).sum())
        .collect();
    let row_square_sum: f64 = aligned_ranks
        .iter()
        .map(|row| row.iter().sum::<f64>().powi(2))
        .sum();
    let kn = kf * nf;
    let numerator = (kf - 1.0)
        * (column_totals.iter().map(|r| r * r).sum::<f64>()
            - (kn * nf / 4.0) * (kn + 1.0) * (kn + 1.0));
    let denominator = kn * (kn + 1.0) * (2.0 * kn + 1.0) / 6.0 - row_square_sum / kf;
    if denominator <= 0.0 {
        return Err(StatsError::Undefined {
            test: "Friedman aligned-ranks test",
            reason: "the aligned ranks have no spread beyond the data sets' totals",
        });
    }
    // Rounding can leave -1e-13 for identical columns; the statistic is a sum of squares.
    let statistic = (numerator / denominator).max(0.0);
    let df = kf - 1.0;
    let pvalue = chi_square_sf(statistic, df);
    Ok(AlignedRanksResult {
        n_datasets: n,
        n_learners: k,
        average_aligned_ranks: column_totals.iter().map(|t| t / nf).collect(),
        aligned_ranks,
        statistic,
        df,
        pvalue,
        alpha,
        reject: pvalue <= alpha,
    })
}

/// The aligned-ranks post-hoc z-test: z = |R_i - R_j| / sqrt(k(nk + 1)/6) on average aligned
/// ranks (Garcia et al. 2010; scmamp `friedmanAlignedRanksPost`).
pub fn friedman_aligned_ranks_posthoc(result: &AlignedRanksResult) -> PairwiseComparisons {
    let (nf, kf) = (result.n_datasets as f64, result.n_learners as f64);
    let scale = (kf * (nf * kf + 1.0) / 6.0).sqrt();
    let ranks = &result.average_aligned_ranks;
    PairwiseComparisons::from_statistic(
        "aligned_ranks_z",
        result.n_learners,
        Reference::Normal,
        None,
        |i, j| (ranks[i] - ranks[j]).abs() / scale,
    )
}

//! Friedman test over a data sets x learners matrix, the Iman-Davenport F, and the
//! Nemenyi post-hoc test (critical difference and pairwise p-values), after Demsar (2006).

use crate::distributions::{
    chi_square_sf, f_sf, studentized_range_sf, studentized_range_upper_quantile,
};
use crate::error::{check_alpha, StatsError};
use crate::summary::{midranks, tie_group_sizes};

/// Result of the Friedman test and the Iman-Davenport correction.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FriedmanResult {
    /// Number of data sets (rows), N.
    pub n_datasets: usize,
    /// Number of learners (columns), k.
    pub n_learners: usize,
    /// Average rank of each learner (rank 1 = highest score; ties get average ranks).
    pub average_ranks: Vec<f64>,
    /// Friedman chi-square divided by the tie correction (scipy `friedmanchisquare`).
    pub chi_square: f64,
    /// Upper-tail p-value of `chi_square` with k - 1 df.
    pub pvalue: f64,
    /// Demsar's chi-square 12N/(k(k+1)) [sum R_j^2 - k(k+1)^2/4], without the tie term.
    pub chi_square_uncorrected: f64,
    /// Upper-tail p-value of `chi_square_uncorrected`.
    pub pvalue_uncorrected: f64,
    /// Tie correction factor 1 - sum(t^3 - t) / (N k (k^2 - 1)).
    pub tie_correction_factor: f64,
    /// Degrees of freedom of the chi-square, k - 1.
    pub df: f64,
    /// Iman-Davenport F = (N-1) chi2 / (N(k-1) - chi2) from the tie-corrected chi-square.
    #[serde(serialize_with = "crate::json::float")]
    pub iman_davenport_f: f64,
    /// Upper-tail p-value of `iman_davenport_f`.
    pub iman_davenport_pvalue: f64,
    /// Iman-Davenport F from the uncorrected chi-square.
    #[serde(serialize_with = "crate::json::float")]
    pub iman_davenport_f_uncorrected: f64,
    /// Upper-tail p-value of `iman_davenport_f_uncorrected`.
    pub iman_davenport_pvalue_uncorrected: f64,
    /// Degrees of freedom of the F: (k - 1, (k - 1)(N - 1)).
    pub iman_davenport_df: (f64, f64),
    /// Significance level used for the decision.
    pub alpha: f64,
    /// True when the Iman-Davenport p-value (tie-corrected) is <= alpha.
    pub reject: bool,
}

/// Ranks each row so that the highest score gets rank 1, ties averaged.
pub fn rank_rows_descending<R: AsRef<[f64]>>(scores: &[R]) -> Vec<Vec<f64>> {
    scores
        .iter()
        .map(|row| {
            let negated: Vec<f64> = row.as_ref().iter().map(|v| -v).collect();
            midranks(&negated)
        })
        .collect()
}

/// Checks a complete data sets x learners matrix: at least 2 x 2, rectangular, finite.
pub(crate) fn check_scores<R: AsRef<[f64]>>(scores: &[R]) -> Result<(usize, usize), StatsError> {
    let n = scores.len();
    if n < 2 {
        return Err(StatsError::TooFew {
            name: "data sets (rows of scores)",
            got: n,
            needed: 2,
        });
    }
    let k = scores[0].as_ref().len();
    if k < 2 {
        return Err(StatsError::TooFew {
            name: "learners (columns of scores)",
            got: k,
            needed: 2,
        });
    }
    for (i, row) in scores.iter().enumerate() {
        let row = row.as_ref();
        if row.len() != k {
            return Err(StatsError::LengthMismatch {
                first: "scores row 0",
                first_len: k,
                second: "another scores row",
                second_len: row.len(),
            });
        }
        if let Some(j) = row.iter().position(|v| !v.is_finite()) {
            return Err(StatsError::NonFinite {
                name: "scores (row-major)",
                index: i * k + j,
                value: row[j],
            });
        }
    }
    Ok((n, k))
}

/// Demsar's uncorrected Friedman chi-square from average ranks.
fn chi_square_from_average_ranks(average_ranks: &[f64], n: usize) -> f64 {
    let k = average_ranks.len() as f64;
    let n = n as f64;
    let sum_squares: f64 = average_ranks.iter().map(|r| r * r).sum();
    12.0 * n / (k * (k + 1.0)) * (sum_squares - k * (k + 1.0) * (k + 1.0) / 4.0)
}

/// Iman-Davenport F and its p-value from a chi-square (inf, p = 0 when chi2 = N(k-1)).
fn iman_davenport(chi_square: f64, n: usize, k: usize) -> (f64, f64) {
    let (nf, kf) = (n as f64, k as f64);
    let denominator = nf * (kf - 1.0) - chi_square;
    let f = if denominator > 0.0 {
        (nf - 1.0) * chi_square / denominator
    } else {
        f64::INFINITY
    };
    (f, f_sf(f, kf - 1.0, (kf - 1.0) * (nf - 1.0)))
}

/// Friedman test on `scores[dataset][learner]` (higher = better).
///
/// Degenerate input: fewer than 2 rows or columns -> `TooFew`; ragged rows -> `LengthMismatch`;
/// NaN/inf -> `NonFinite`. Every row fully tied (tie correction 0) -> chi2 = 0, p = 1 for the
/// corrected statistic. Identical rankings in every row -> Iman-Davenport F = inf, p = 0.
pub fn friedman_test<R: AsRef<[f64]>>(
    scores: &[R],
    alpha: f64,
) -> Result<FriedmanResult, StatsError> {
    check_alpha(alpha)?;
    let (n, k) = check_scores(scores)?;
    let ranks = rank_rows_descending(scores);
    let mut rank_sums = vec![0.0; k];
    for row in &ranks {
        for (total, rank) in rank_sums.iter_mut().zip(row) {
            *total += rank;
        }
    }
    let average_ranks: Vec<f64> = rank_sums.iter().map(|sum| sum / n as f64).collect();
    let (nf, kf) = (n as f64, k as f64);
    let tie_sum: f64 = scores
        .iter()
        .flat_map(|row| tie_group_sizes(row.as_ref()))
        .map(|t| {
            let t = t as f64;
            t * t * t - t
        })
        .sum();
    let tie_correction_factor = 1.0 - tie_sum / (nf * kf * (kf * kf - 1.0));
    let chi_square_uncorrected = chi_square_from_average_ranks(&average_ranks, n);
    let chi_square = if tie_correction_factor > 0.0 {
        // scipy: 12 / (N k (k+1)) sum (sum of ranks)^2 - 3 N (k+1), divided by the factor.
        let sum_rank_squares: f64 = rank_sums.iter().map(|r| r * r).sum();
        let raw = 12.0 / (nf * kf * (kf + 1.0)) * sum_rank_squares - 3.0 * nf * (kf + 1.0);
        raw / tie_correction_factor
    } else {
        0.0
    };
    let df = kf - 1.0;
    let (iman_davenport_f, iman_davenport_pvalue) = iman_davenport(chi_square, n, k);
    let (iman_davenport_f_uncorrected, iman_davenport_pvalue_uncorrected) =
        iman_davenport(chi_square_uncorrected, n, k);
    Ok(FriedmanResult {
        n_datasets: n,
        n_learners: k,
        average_ranks,
        chi_square,
        pvalue: chi_square_sf(chi_square, df),
        chi_square_uncorrected,
        pvalue_uncorrected: chi_square_sf(chi_square_uncorrected, df),
        tie_correction_factor,
        df,
        iman_davenport_f,
        iman_davenport_pvalue,
        iman_davenport_f_uncorrected,
        iman_davenport_pvalue_uncorrected,
        iman_davenport_df: (df, df * (nf - 1.0)),
        alpha,
        reject: iman_davenport_pvalue <= alpha,
    })
}

/// Friedman test from published average ranks (no tie term is possible): fills the
/// uncorrected fields; the tie-corrected fields equal them (factor 1).
pub fn friedman_from_average_ranks(
    average_ranks: &[f64],
    n_datasets: usize,
    alpha: f64,
) -> Result<FriedmanResult, StatsError> {
    check_alpha(alpha)?;
    let k = average_ranks.len();
    if k < 2 {
        return Err(StatsError::TooFew {
            name: "learners (average ranks)",
            got: k,
            needed: 2,
        });
    }
    if n_datasets < 2 {
        return Err(StatsError::TooFew {
            name: "n_datasets",
            got: n_datasets,
            needed: 2,
        });
    }
    crate::error::check_finite("average_ranks", average_ranks)?;
    check_average_ranks(average_ranks, n_datasets)?;
    let chi_square = chi_square_from_average_ranks(average_ranks, n_datasets);
    let df = (k - 1) as f64;
    let (f, p) = iman_davenport(chi_square, n_datasets, k);
    let pvalue = chi_square_sf(chi_square, df);
    Ok(FriedmanResult {
        n_datasets,
        n_learners: k,
        average_ranks: average_ranks.to_vec(),
        chi_square,
        pvalue,
        chi_square_uncorrected: chi_square,
        pvalue_uncorrected: pvalue,
        tie_correction_factor: 1.0,
        df,
        iman_davenport_f: f,
        iman_davenport_pvalue: p,
        iman_davenport_f_uncorrected: f,
        iman_davenport_pvalue_uncorrected: p,
        iman_davenport_df: (df, df * (n_datasets - 1) as f64),
        alpha,
        reject: p <= alpha,
    })
}

/// q_0.05 of Demsar (2006) Table 5(a) for k = 2..10 (studentized range / sqrt 2, 3 decimals).
const DEMSAR_Q_005: [f64; 9] = [
    1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164,
];
/// q_0.10 of Demsar (2006) Table 5(a) for k = 2..10.
const DEMSAR_Q_010: [f64; 9] = [
    1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920,
];

/// Nemenyi q_alpha = studentized range quantile (k, infinite df) / sqrt(2), computed exactly.
pub fn nemenyi_q(k: usize, alpha: f64) -> Result<f64, StatsError> {
    check_alpha(alpha)?;
    check_learner_count(k)?;
    Ok(studentized_range_upper_quantile(alpha, k) / std::f64::consts::SQRT_2)
}

/// Nemenyi q_alpha as printed in Demsar (2006) Table 5(a): alpha 0.05 or 0.10, k = 2..10.
pub fn nemenyi_q_demsar_table(k: usize, alpha: f64) -> Result<f64, StatsError> {
    if !(2..=10).contains(&k) {
        return Err(StatsError::OutOfRange {
            name: "k",
            value: k as f64,
            allowed: "2..=10 for Demsar's table (use nemenyi_q for other k)",
        });
    }
    let table = if alpha == 0.05 {
        &DEMSAR_Q_005
    } else if alpha == 0.10 {
        &DEMSAR_Q_010
    } else {
        return Err(StatsError::OutOfRange {
            name: "alpha",
            value: alpha,
            allowed: "0.05 or 0.10 for Demsar's table (use nemenyi_q for others)",
        });
    };
    Ok(table[k - 2])
}

/// The most learners [`friedman_from_average_ranks`] accepts: Nemenyi's pairwise p-values
/// integrate the studentized range once per pair (100 learners take seconds).
pub const MAX_RANKED_LEARNERS: usize = 100;

/// The most datasets [`friedman_from_average_ranks`] accepts (the F distribution's degrees of
/// freedom grow with it).
pub const MAX_RANKED_DATASETS: usize = 1_000_000;

/// Published average ranks that data could have given: k of them, at most
/// [`MAX_RANKED_LEARNERS`], over at most [`MAX_RANKED_DATASETS`] datasets, each in [1, k], and
/// summing to k(k+1)/2 (within 0.01 k, for ranks rounded to two decimals).
fn check_average_ranks(ranks: &[f64], n_datasets: usize) -> Result<(), StatsError> {
    let k = ranks.len();
    if k > MAX_RANKED_LEARNERS {
        return Err(StatsError::OutOfRange {
            name: "learners (average ranks)",
            value: k as f64,
            allowed: "at most 100 (Nemenyi's pairwise p-values take time growing with k^2)",
        });
    }
    if n_datasets > MAX_RANKED_DATASETS {
        return Err(StatsError::OutOfRange {
            name: "n_datasets",
            value: n_datasets as f64,
            allowed: "at most 1,000,000",
        });
    }
    let kf = k as f64;
    if let Some(index) = ranks.iter().position(|&rank| !(1.0..=kf).contains(&rank)) {
        return Err(StatsError::Impossible {
            name: "average_ranks",
            reason: format!(
                "rank {} (learner {}) is outside 1..{k}: with {k} learners every rank, and so \
                 every average rank, is between 1 and {k}",
                ranks[index],
                index + 1
            ),
        });
    }
    let (sum, expected) = (ranks.iter().sum::<f64>(), kf * (kf + 1.0) / 2.0);
    if (sum - expected).abs() > 0.01 * kf {
        return Err(StatsError::Impossible {
            name: "average_ranks",
            reason: format!(
                "the ranks sum to {sum}; the average ranks of {k} learners sum to k(k+1)/2 = \
                 {expected} (within 0.01 k = {} for rounding)",
                0.01 * kf
            ),
        });
    }
    Ok(())
}

fn check_learner_count(k: usize) -> Result<(), StatsError> {
    if k < 2 {
        return Err(StatsError::TooFew {
            name: "learners (k)",
            got: k,
            needed: 2,
        });
    }
    Ok(())
}

fn check_dataset_count(n_datasets: usize) -> Result<(), StatsError> {
    if n_datasets < 1 {
        return Err(StatsError::TooFew {
            name: "n_datasets",
            got: n_datasets,
            needed: 1,
        });
    }
    Ok(())
}

/// Standard error of a difference of two average ranks, sqrt(k(k+1)/(6N)) (Demsar 2006,
/// section 3.2.2): the scale of the critical differences and of the z-tests on average ranks.
pub fn rank_standard_error(k: usize, n_datasets: usize) -> Result<f64, StatsError> {
    check_learner_count(k)?;
    check_dataset_count(n_datasets)?;
    let kf = k as f64;
    Ok((kf * (kf + 1.0) / (6.0 * n_datasets as f64)).sqrt())
}

/// Nemenyi critical difference q sqrt(k(k+1)/(6N)) for a given q.
pub fn critical_difference(q: f64, k: usize, n_datasets: usize) -> Result<f64, StatsError> {
    Ok(q * rank_standard_error(k, n_datasets)?)
}

/// Nemenyi critical difference with the exact studentized-range quantile.
pub fn nemenyi_critical_difference(
    k: usize,
    n_datasets: usize,
    alpha: f64,
) -> Result<f64, StatsError> {
    critical_difference(nemenyi_q(k, alpha)?, k, n_datasets)
}

/// Nemenyi critical difference with Demsar's printed q (as most software reports it).
pub fn nemenyi_critical_difference_demsar_table(
    k: usize,
    n_datasets: usize,
    alpha: f64,
) -> Result<f64, StatsError> {
    critical_difference(nemenyi_q_demsar_table(k, alpha)?, k, n_datasets)
}

/// Nemenyi pairwise p-values from average ranks (scikit-posthocs `posthoc_nemenyi_friedman`):
/// p_ij = P(Q_{k,inf} > sqrt(2) |R_i - R_j| / sqrt(k(k+1)/(6N))); diagonal 1.
pub fn nemenyi_pvalues(
    average_ranks: &[f64],
    n_datasets: usize,
) -> Result<Vec<Vec<f64>>, StatsError> {
    let k = average_ranks.len();
    check_learner_count(k)?;
    check_dataset_count(n_datasets)?;
    crate::error::check_finite("average_ranks", average_ranks)?;
    let scale = rank_standard_error(k, n_datasets)?;
    let mut pvalues = vec![vec![1.0; k]; k];
    for i in 0..k {
        for j in (i + 1)..k {
            let q = (average_ranks[i] - average_ranks[j]).abs() / scale * std::f64::consts::SQRT_2;
            let p = studentized_range_sf(q, k);
            pvalues[i][j] = p;
            pvalues[j][i] = p;
        }
    }
    Ok(pvalues)
}

/// One learner compared with a control learner by the z-test on average ranks (Demsar 2006,
/// Section 3.2.2): z = (R_learner - R_control) / sqrt(k(k+1)/(6N)).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ControlComparison {
    /// The learner's index (column of the scores).
    pub learner: usize,
    /// Its average rank minus the control's (positive: the control ranks better).
    pub rank_difference: f64,
    /// The z statistic.
    pub z: f64,
    /// Two-sided p-value 2 P(Z > |z|), capped at 1 (scikit-posthocs `posthoc_siegel_friedman`).
    pub pvalue: f64,
    /// Holm's step-down adjusted p-value over the k - 1 comparisons with the control.
    pub holm_pvalue: f64,
    /// True when Holm's procedure rejects equality with the control at alpha.
    pub holm_reject: bool,
    /// Bonferroni-Dunn adjusted p-value, min(1, (k - 1) p).
    pub bonferroni_dunn_pvalue: f64,
    /// True when the Bonferroni-Dunn test rejects equality with the control at alpha (the rank
    /// difference is at least [`bonferroni_dunn_critical_difference`]).
    pub bonferroni_dunn_reject: bool,
}

/// Every other learner compared with `control` by the z-test on average ranks, with Holm's and
/// the Bonferroni-Dunn corrections over the k - 1 comparisons (Demsar 2006; Garcia & Herrera
/// 2008), in learner order without the control.
///
/// Degenerate input: k < 2 or N < 1 -> `TooFew`; control >= k -> `OutOfRange`; NaN ranks ->
/// `NonFinite`.
pub fn compare_with_control(
    average_ranks: &[f64],
    n_datasets: usize,
    control: usize,
    alpha: f64,
) -> Result<Vec<ControlComparison>, StatsError> {
    check_alpha(alpha)?;
    let k = average_ranks.len();
    check_learner_count(k)?;
    check_dataset_count(n_datasets)?;
    crate::error::check_finite("average_ranks", average_ranks)?;
    if control >= k {
        return Err(StatsError::OutOfRange {
            name: "control",
            value: control as f64,
            allowed: "the index of a learner (0 to k - 1)",
        });
    }
    let scale = rank_standard_error(k, n_datasets)?;
    let others: Vec<usize> = (0..k).filter(|&learner| learner != control).collect();
    let differences: Vec<f64> = others
        .iter()
        .map(|&learner| average_ranks[learner] - average_ranks[control])
        .collect();
    let z: Vec<f64> = differences.iter().map(|d| d / scale).collect();
    let pvalues: Vec<f64> = z
        .iter()
        .map(|&z| crate::distributions::normal_two_sided_pvalue(z))
        .collect();
    let holm = crate::corrections::multitest::holm(&pvalues, alpha)?;
    let bonferroni = crate::corrections::multitest::bonferroni(&pvalues, alpha)?;
    Ok(others
        .into_iter()
        .enumerate()
        .map(|(position, learner)| ControlComparison {
            learner,
            rank_difference: differences[position],
            z: z[position],
            pvalue: pvalues[position],
            holm_pvalue: holm.corrected_pvalues[position],
            holm_reject: holm.reject[position],
            bonferroni_dunn_pvalue: bonferroni.corrected_pvalues[position],
            bonferroni_dunn_reject: bonferroni.reject[position],
        })
        .collect())
}

/// Bonferroni-Dunn critical difference of average ranks against a control (Demsar 2006,
/// Table 5(b) and eq. for CD): q sqrt(k(k+1)/(6N)) with q the standard normal quantile at
/// 1 - alpha / (2 (k - 1)), computed exactly (Demsar prints it to 3 decimals).
pub fn bonferroni_dunn_critical_difference(
    k: usize,
    n_datasets: usize,
    alpha: f64,
) -> Result<f64, StatsError> {
    critical_difference(bonferroni_dunn_q(k, alpha)?, k, n_datasets)
}

/// Bonferroni-Dunn q_alpha = z_{1 - alpha/(2(k-1))}, the standard normal quantile of Demsar's
/// (2006) Table 5(b), computed exactly.
pub fn bonferroni_dunn_q(k: usize, alpha: f64) -> Result<f64, StatsError> {
    check_alpha(alpha)?;
    check_learner_count(k)?;
    Ok(crate::distributions::normal_quantile(
        1.0 - alpha / (2.0 * (k - 1) as f64),
    ))
}

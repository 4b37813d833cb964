//! AUC of one scorer, DeLong's test for two correlated AUCs in O(n log n)
//! (Sun & Xu 2014), Hanley & McNeil's standard error, and confidence intervals for one AUC.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::distributions::{normal_quantile, normal_two_sided_pvalue};
use crate::error::{check_alpha, check_finite, StatsError};
use crate::intervals::proportion::Interval;

/// Placement values of one scorer (DeLong's structural components) and its AUC.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StructuralComponents {
    /// AUC = mean of `v10` = mean of `v01` (tied pairs count 1/2).
    pub auc: f64,
    /// V10 per positive (input order): share of negatives it beats, ties 1/2.
    pub v10: Vec<f64>,
    /// V01 per negative (input order): share of positives that beat it, ties 1/2.
    pub v01: Vec<f64>,
}

/// Result of DeLong's test for AUC(score1) = AUC(score2) on the same instances.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeLongResult {
    /// AUC of the first scorer.
    pub auc1: f64,
    /// AUC of the second scorer.
    pub auc2: f64,
    /// DeLong variance of auc1.
    pub variance1: f64,
    /// DeLong variance of auc2.
    pub variance2: f64,
    /// DeLong covariance of auc1 and auc2.
    pub covariance: f64,
    /// Variance of auc1 - auc2: var1 + var2 - 2 cov.
    pub variance_difference: f64,
    /// z = (auc1 - auc2) / sqrt(variance_difference) (signed); see the degenerate policy.
    pub z: f64,
    /// Two-sided normal p-value.
    pub pvalue: f64,
    /// Significance level used for the decision.
    pub alpha: f64,
    /// True when p <= alpha.
    pub reject: bool,
}

fn check_labels_scores(
    labels: &[bool],
    scores: &[f64],
    name: &'static str,
) -> Result<(usize, usize), StatsError> {
    if labels.len() != scores.len() {
        return Err(StatsError::LengthMismatch {
            first: "labels",
            first_len: labels.len(),
            second: name,
            second_len: scores.len(),
        });
    }
    check_finite(name, scores)?;
    let positives = labels.iter().filter(|l| **l).count();
    let negatives = labels.len() - positives;
    if positives == 0 {
        return Err(StatsError::TooFew {
            name: "positive instances",
            got: 0,
            needed: 1,
        });
    }
    if negatives == 0 {
        return Err(StatsError::TooFew {
            name: "negative instances",
            got: 0,
            needed: 1,
        });
    }
    Ok((positives, negatives))
}

/// DeLong structural components (placement values) in O(n log n), after Sun & Xu (2014).
///
/// Sun & Xu obtain V10_i = (tz_i - tx_i) / n_neg and V01_j = 1 - (tz_j - ty_j) / n_pos from
/// midranks among all instances (tz), the positives (tx) and the negatives (ty). The same
/// numbers come from one sort: walking the groups of tied scores upwards, a positive in a
/// group beats every negative below it and half of the negatives tied with it, so
/// V10 = (negatives below + tied negatives / 2) / n_neg, and symmetrically
/// V01 = (positives above + tied positives / 2) / n_pos.
/// Needs at least one positive and one negative (`TooFew`), finite scores (`NonFinite`).
pub fn structural_components(
    labels: &[bool],
    scores: &[f64],
) -> Result<StructuralComponents, StatsError> {
    let (m, n) = check_labels_scores(labels, scores, "scores")?;
    // Sort (score, label, position) records: contiguous keys keep the sort cache-friendly.
    let mut order: Vec<(f64, bool, usize)> = scores
        .iter()
        .zip(labels)
        .enumerate()
        .map(|(i, (s, l))| (*s, *l, i))
        .collect();
    order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
    let (mf, nf) = (m as f64, n as f64);
    // Placement value of each instance, by input position.
    let mut placement = vec![0.0; scores.len()];
    let (mut positives_below, mut negatives_below) = (0usize, 0usize);
    // Twice the Mann-Whitney U, counted exactly in integers.
    let mut twice_u: u128 = 0;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && order[end].0 == order[start].0 {
            end += 1;
        }
        let group = &order[start..end];
        let tied_positives = group.iter().filter(|record| record.1).count();
        let tied_negatives = group.len() - tied_positives;
        let positive_value = (negatives_below as f64 + tied_negatives as f64 / 2.0) / nf;
        let positives_above = m - positives_below - tied_positives;
        let negative_value = (positives_above as f64 + tied_positives as f64 / 2.0) / mf;
        for &(_, label, i) in group {
            placement[i] = if label {
                positive_value
            } else {
                negative_value
            };
        }
        twice_u += tied_positives as u128 * (2 * negatives_below + tied_negatives) as u128;
        positives_below += tied_positives;
        negatives_below += tied_negatives;
        start = end;
    }
    let v10: Vec<f64> = placement
        .iter()
        .zip(labels)
        .filter(|(_, l)| **l)
        .map(|(v, _)| *v)
        .collect();
    let v01: Vec<f64> = placement
        .iter()
        .zip(labels)
        .filter(|(_, l)| !**l)
        .map(|(v, _)| *v)
        .collect();
    let auc = twice_u as f64 / (2.0 * mf * nf);
    Ok(StructuralComponents { auc, v10, v01 })
}

/// AUC of `scores` for `labels` (true = positive), tied pairs counted 1/2 (= U / (P N)).
pub fn auc(labels: &[bool], scores: &[f64]) -> Result<f64, StatsError> {
    Ok(structural_components(labels, scores)?.auc)
}

/// Sample covariance (ddof 1) of two equally long slices.
pub(crate) fn covariance(x: &[f64], y: &[f64]) -> f64 {
    let k = x.len() as f64;
    let mx = x.iter().sum::<f64>() / k;
    let my = y.iter().sum::<f64>() / k;
    x.iter()
        .zip(y)
        .map(|(a, b)| (a - mx) * (b - my))
        .sum::<f64>()
        / (k - 1.0)
}

/// DeLong, DeLong & Clarke-Pearson (1988) test of two correlated AUCs, with the fast
/// midrank algorithm of Sun & Xu (2014).
///
/// Degenerate input: fewer than 2 positives or 2 negatives -> `TooFew` (the sample
/// covariances need ddof 1); length mismatch, NaN -> typed errors. When var(auc1 - auc2) = 0
/// (e.g. identical or monotonically related scores): equal AUCs give z = 0, p = 1; different
/// AUCs give `Undefined`.
pub fn delong_test(
    labels: &[bool],
    score1: &[f64],
    score2: &[f64],
    alpha: f64,
) -> Result<DeLongResult, StatsError> {
    check_alpha(alpha)?;
    let (m, n) = check_labels_scores(labels, score1, "score1")?;
    check_labels_scores(labels, score2, "score2")?;
    if m < 2 {
        return Err(StatsError::TooFew {
            name: "positive instances",
            got: m,
            needed: 2,
        });
    }
    if n < 2 {
        return Err(StatsError::TooFew {
            name: "negative instances",
            got: n,
            needed: 2,
        });
    }
    let first = structural_components(labels, score1)?;
    let second = structural_components(labels, score2)?;
    let (mf, nf) = (m as f64, n as f64);
    let variance1 =
        covariance(&first.v10, &first.v10) / mf + covariance(&first.v01, &first.v01) / nf;
    let variance2 =
        covariance(&second.v10, &second.v10) / mf + covariance(&second.v01, &second.v01) / nf;
    let cov = covariance(&first.v10, &second.v10) / mf + covariance(&first.v01, &second.v01) / nf;
    let variance_difference = variance1 + variance2 - 2.0 * cov;
    let difference = first.auc - second.auc;
    let (z, pvalue) = if variance_difference > 0.0 {
        let z = difference / variance_difference.sqrt();
        (z, normal_two_sided_pvalue(z))
    } else if difference == 0.0 {
        (0.0, 1.0)
    } else {
        return Err(StatsError::Undefined {
            test: "DeLong test",
            reason: "the AUCs differ but the variance of their difference is 0",
        });
    };
    Ok(DeLongResult {
        auc1: first.auc,
        auc2: second.auc,
        variance1,
        variance2,
        covariance: cov,
        variance_difference,
        z,
        pvalue,
        alpha,
        reject: pvalue <= alpha,
    })
}

/// Hanley & McNeil (1982) standard error of an AUC and its parts.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct HanleyMcNeil {
    /// Standard error sqrt(variance).
    pub se: f64,
    /// (A(1-A) + (nP-1)(Q1-A^2) + (nN-1)(Q2-A^2)) / (nP nN).
    pub variance: f64,
    /// Q1 = A / (2 - A).
    pub q1: f64,
    /// Q2 = 2 A^2 / (1 + A).
    pub q2: f64,
}

fn check_auc_and_counts(auc: f64, n_pos: usize, n_neg: usize) -> Result<(), StatsError> {
    if !(0.0..=1.0).contains(&auc) {
        return Err(StatsError::OutOfRange {
            name: "auc",
            value: auc,
            allowed: "in [0, 1]",
        });
    }
    if n_pos == 0 {
        return Err(StatsError::TooFew {
            name: "n_pos",
            got: 0,
            needed: 1,
        });
    }
    if n_neg == 0 {
        return Err(StatsError::TooFew {
            name: "n_neg",
            got: 0,
            needed: 1,
        });
    }
    Ok(())
}

/// Hanley & McNeil standard error of an AUC from the AUC and the class sizes.
/// AUC outside [0, 1] or NaN -> `OutOfRange`; an empty class -> `TooFew`.
pub fn hanley_mcneil(auc: f64, n_pos: usize, n_neg: usize) -> Result<HanleyMcNeil, StatsError> {
    check_auc_and_counts(auc, n_pos, n_neg)?;
    let (p, n) = (n_pos as f64, n_neg as f64);
    let q1 = auc / (2.0 - auc);
    let q2 = 2.0 * auc * auc / (1.0 + auc);
    let a2 = auc * auc;
    let variance =
        ((auc * (1.0 - auc) + (p - 1.0) * (q1 - a2) + (n - 1.0) * (q2 - a2)) / (p * n)).max(0.0);
    Ok(HanleyMcNeil {
        se: variance.sqrt(),
        variance,
        q1,
        q2,
    })
}

/// Normal interval AUC +- z SE (Hanley & McNeil SE), clipped to [0, 1].
pub fn hanley_mcneil_interval(
    auc: f64,
    n_pos: usize,
    n_neg: usize,
    alpha: f64,
) -> Result<Interval, StatsError> {
    check_alpha(alpha)?;
    let se = hanley_mcneil(auc, n_pos, n_neg)?.se;
    let z = -normal_quantile(alpha / 2.0);
    Ok(Interval {
        low: (auc - z * se).clamp(0.0, 1.0),
        high: (auc + z * se).clamp(0.0, 1.0),
    })
}

/// Half-width of the distribution-free large-deviation bound of Agarwal et al. (JMLR 2005):
/// P(|AUC_hat - AUC| >= eps) <= 2 exp(-2 m n eps^2 / (m + n)), so with confidence 1 - alpha,
/// eps = sqrt((m + n) ln(2 / alpha) / (2 m n)).
pub fn agarwal_half_width(n_pos: usize, n_neg: usize, alpha: f64) -> Result<f64, StatsError> {
    check_alpha(alpha)?;
    check_auc_and_counts(0.5, n_pos, n_neg)?;
    let (m, n) = (n_pos as f64, n_neg as f64);
    Ok(((m + n) * (2.0 / alpha).ln() / (2.0 * m * n)).sqrt())
}

/// Agarwal et al. (2005) interval AUC +- eps, clipped to [0, 1].
pub fn agarwal_interval(
    auc: f64,
    n_pos: usize,
    n_neg: usize,
    alpha: f64,
) -> Result<Interval, StatsError> {
    check_auc_and_counts(auc, n_pos, n_neg)?;
    let eps = agarwal_half_width(n_pos, n_neg, alpha)?;
    Ok(Interval {
        low: (auc - eps).max(0.0),
        high: (auc + eps).min(1.0),
    })
}

/// Percentile bootstrap interval of the AUC with `resamples` stratified resamples (positives
/// and negatives resampled separately, so every resample has both classes), drawn from
/// `ChaCha8Rng::seed_from_u64(seed)`. Quantiles use linear interpolation between order statistics
/// (numpy's default). `resamples` must be >= 1; other checks as [`auc`].
pub fn bootstrap_auc_interval(
    labels: &[bool],
    scores: &[f64],
    resamples: usize,
    alpha: f64,
    seed: u64,
) -> Result<Interval, StatsError> {
    check_alpha(alpha)?;
    check_labels_scores(labels, scores, "scores")?;
    if resamples == 0 {
        return Err(StatsError::OutOfRange {
            name: "resamples",
            value: 0.0,
            allowed: ">= 1",
        });
    }
    let positives: Vec<f64> = scores
        .iter()
        .zip(labels)
        .filter(|(_, l)| **l)
        .map(|(s, _)| *s)
        .collect();
    let negatives: Vec<f64> = scores
        .iter()
        .zip(labels)
        .filter(|(_, l)| !**l)
        .map(|(s, _)| *s)
        .collect();
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let mut values = Vec::with_capacity(resamples);
    let mut sample_scores = Vec::with_capacity(scores.len());
    let mut sample_labels = Vec::with_capacity(scores.len());
    for _ in 0..resamples {
        sample_scores.clear();
        sample_labels.clear();
        for _ in 0..positives.len() {
            sample_scores.push(positives[generator.random_range(0..positives.len())]);
            sample_labels.push(true);
        }
        for _ in 0..negatives.len() {
            sample_scores.push(negatives[generator.random_range(0..negatives.len())]);
            sample_labels.push(false);
        }
        values.push(auc(&sample_labels, &sample_scores)?);
    }
    values.sort_by(f64::total_cmp);
    Ok(Interval {
        low: quantile_sorted(&values, alpha / 2.0),
        high: quantile_sorted(&values, 1.0 - alpha / 2.0),
    })
}

/// Linear-interpolation quantile of sorted values (numpy `quantile`, method 'linear').
pub(crate) fn quantile_sorted(sorted: &[f64], probability: f64) -> f64 {
    let position = probability * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    let fraction = position - below as f64;
    sorted[below] + fraction * (sorted[above] - sorted[below])
}

/// The most instances (positives plus negatives) [`cortes_mohri_moments`] and the intervals
/// built on it accept: their exact sums over error splits take time growing with the square of
/// it (10,000 instances take seconds).
pub const MAX_CORTES_MOHRI_INSTANCES: usize = 10_000;

/// Mean and variance of the AUC over all classifications with a fixed number of errors.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FixedErrorAucMoments {
    /// Expected AUC.
    pub mean: f64,
    /// Variance of the AUC.
    pub variance: f64,
}

/// Expected value and variance of the AUC of a classifier that makes `errors` errors on
/// `n_pos` positives and `n_neg` negatives, when every ranking with a threshold making exactly
/// that many errors is equally likely (Cortes & Mohri, NIPS 2003; the model behind their NIPS
/// 2004 confidence intervals).
///
/// Computed exactly as a weighted sum over the number x of false negatives: the ranking splits
/// at the threshold into a top block (n_pos - x positives, errors - x negatives) and a bottom
/// block (x positives, n_neg - errors + x negatives), ordered uniformly at random inside each
/// block, so U = (top positives)(bottom negatives) + U_top + U_bottom with the Mann-Whitney
/// null moments for U_top, U_bottom. Weight of x: C(top size, errors - x) C(bottom size, x).
/// Checked against brute-force enumeration, the closed-form mean (2003) and, for
/// errors <= min(n_pos, n_neg), the closed-form variance of Cortes & Mohri 2004 (Corollary 1).
///
/// An empty class -> `TooFew`; errors > n_pos + n_neg, or n_pos + n_neg beyond
/// [`MAX_CORTES_MOHRI_INSTANCES`] -> `OutOfRange`.
pub fn cortes_mohri_moments(
    n_pos: usize,
    n_neg: usize,
    errors: usize,
) -> Result<FixedErrorAucMoments, StatsError> {
    check_auc_and_counts(0.5, n_pos, n_neg)?;
    if n_pos.saturating_add(n_neg) > MAX_CORTES_MOHRI_INSTANCES {
        return Err(StatsError::OutOfRange {
            name: "n_pos + n_neg",
            value: n_pos as f64 + n_neg as f64,
            allowed: "at most 10,000 (the exact sums take time growing with the square of it)",
        });
    }
    if errors > n_pos + n_neg {
        return Err(StatsError::OutOfRange {
            name: "errors",
            value: errors as f64,
            allowed: "at most n_pos + n_neg",
        });
    }
    use statrs::function::factorial::ln_binomial;
    let (m, n, k) = (n_pos as u64, n_neg as u64, errors as u64);
    // (log weight, mean of U, variance of U) for each feasible x.
    let mut parts = Vec::new();
    for x in 0..=k {
        let false_positives = k - x;
        if x > m || false_positives > n {
            continue;
        }
        let log_weight = ln_binomial(m - x + false_positives, false_positives)
            + ln_binomial(x + n - false_positives, x);
        let (mean_u, variance_u) = split_moments_of_u(m, n, x, false_positives);
        parts.push((log_weight, mean_u, variance_u));
    }
    let largest = parts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = parts.iter().map(|p| (p.0 - largest).exp()).collect();
    let total: f64 = weights.iter().sum();
    let mean_u: f64 = weights
        .iter()
        .zip(&parts)
        .map(|(w, p)| w * p.1)
        .sum::<f64>()
        / total;
    let variance_u: f64 = weights
        .iter()
        .zip(&parts)
        .map(|(w, p)| w * (p.2 + (p.1 - mean_u) * (p.1 - mean_u)))
        .sum::<f64>()
        / total;
    let pairs = m as f64 * n as f64;
    Ok(FixedErrorAucMoments {
        mean: mean_u / pairs,
        variance: variance_u / (pairs * pairs),
    })
}

/// Mean and variance of the Mann-Whitney U when the threshold splits the ranking into a top
/// block (m - fn positives, fp negatives) and a bottom block (fn positives, n - fp negatives),
/// each ordered uniformly at random.
fn split_moments_of_u(m: u64, n: u64, false_negatives: u64, false_positives: u64) -> (f64, f64) {
    let (top_pos, top_neg) = ((m - false_negatives) as f64, false_positives as f64);
    let (bottom_pos, bottom_neg) = (false_negatives as f64, (n - false_positives) as f64);
    let mean_u = top_pos * bottom_neg + top_pos * top_neg / 2.0 + bottom_pos * bottom_neg / 2.0;
    let variance_u = top_pos * top_neg * (top_pos + top_neg + 1.0) / 12.0
        + bottom_pos * bottom_neg * (bottom_pos + bottom_neg + 1.0) / 12.0;
    (mean_u, variance_u)
}

/// Mean and variance of the AUC over all rankings consistent with a known confusion matrix
/// (`false_negatives` of the positives and `false_positives` of the negatives misclassified at
/// the threshold), each equally likely: the [`cortes_mohri_moments`] model conditioned on how
/// the errors split between the classes. Checked against brute-force enumeration.
///
/// An empty class -> `TooFew`; false_negatives > n_pos or false_positives > n_neg -> `OutOfRange`.
pub fn cortes_mohri_moments_given_split(
    n_pos: usize,
    n_neg: usize,
    false_negatives: usize,
    false_positives: usize,
) -> Result<FixedErrorAucMoments, StatsError> {
    check_auc_and_counts(0.5, n_pos, n_neg)?;
    if false_negatives > n_pos {
        return Err(StatsError::OutOfRange {
            name: "false_negatives",
            value: false_negatives as f64,
            allowed: "at most n_pos",
        });
    }
    if false_positives > n_neg {
        return Err(StatsError::OutOfRange {
            name: "false_positives",
            value: false_positives as f64,
            allowed: "at most n_neg",
        });
    }
    let (m, n) = (n_pos as u64, n_neg as u64);
    let (mean_u, variance_u) =
        split_moments_of_u(m, n, false_negatives as u64, false_positives as u64);
    let pairs = m as f64 * n as f64;
    Ok(FixedErrorAucMoments {
        mean: mean_u / pairs,
        variance: variance_u / (pairs * pairs),
    })
}

/// Cortes & Mohri style interval from the error count alone: mean +- z sd of the AUC over all
/// classifications with `errors` errors ([`cortes_mohri_moments`]), z = Phi^-1(1 - alpha/2),
/// clipped to [0, 1]. Note it is centred on the expected AUC for that error rate, not on an
/// observed AUC. The NIPS 2004 paper widens this for the uncertainty of the error rate:
/// [`crate::cortes_mohri_full_interval`].
pub fn cortes_mohri_interval(
    n_pos: usize,
    n_neg: usize,
    errors: usize,
    alpha: f64,
) -> Result<Interval, StatsError> {
    check_alpha(alpha)?;
    let moments = cortes_mohri_moments(n_pos, n_neg, errors)?;
    let half = -normal_quantile(alpha / 2.0) * moments.variance.sqrt();
    Ok(Interval {
        low: (moments.mean - half).max(0.0),
        high: (moments.mean + half).min(1.0),
    })
}

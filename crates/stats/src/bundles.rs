//! The tests and intervals of one input computed together, as `experiments compare TEST`
//! prints them: a binomial proportion's intervals and test, the sign test with its critical
//! values, one AUC's intervals, Friedman and Nemenyi from published average ranks, the
//! corrections of a family of p-values, and DeLong's test with each AUC's intervals. An error
//! says which of the bundle's tests refused the input ([`StatsError::In`]).

use serde::Serialize;

use crate::across::friedman::{
    critical_difference, friedman_from_average_ranks, nemenyi_pvalues, nemenyi_q,
    nemenyi_q_demsar_table, FriedmanResult,
};
use crate::corrections::multitest::{bonferroni, holm, CorrectionResult};
use crate::error::StatsError;
use crate::intervals::auc::{
    agarwal_half_width, agarwal_interval, auc, bootstrap_auc_interval, cortes_mohri_interval,
    cortes_mohri_moments, cortes_mohri_moments_given_split, delong_test, hanley_mcneil,
    hanley_mcneil_interval, DeLongResult, FixedErrorAucMoments, HanleyMcNeil,
};
use crate::intervals::cortes_mohri::{
    cortes_mohri_full_interval, CortesMohriInterval, ErrorRateBound,
};
use crate::intervals::proportion::{normal_interval, wilson_interval, Interval};
use crate::paired::sign_test::{
    sign_test, sign_test_critical_losses, sign_test_max_losses, sign_test_min_wins, sign_test_with,
    SignAlternative, SignMethod, SignTestResult, Tails,
};

/// A result, or its error marked with the test that gave it.
fn within<T>(test: &'static str, result: Result<T, StatsError>) -> Result<T, StatsError> {
    result.map_err(|error| StatsError::In {
        test,
        error: Box::new(error),
    })
}

/// k successes in n trials: the proportion, Wilson's and Wald's intervals, and the exact test
/// of p = 1/2.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BinomialSummary {
    /// k.
    pub successes: u64,
    /// n.
    pub trials: u64,
    /// k / n.
    pub proportion: f64,
    /// Wilson's score interval at level 1 - alpha.
    pub wilson_interval: Interval,
    /// The normal (Wald) interval, clipped to [0, 1].
    pub wald_interval: Interval,
    /// The exact two-sided test of p = 1/2 (a sign test of k wins and n - k losses).
    pub test_of_one_half: SignTestResult,
}

/// [`BinomialSummary`] of `successes` in `trials` (successes <= trials, trials >= 1).
pub fn binomial_summary(
    successes: u64,
    trials: u64,
    alpha: f64,
) -> Result<BinomialSummary, StatsError> {
    let (k, n) = (successes as f64, trials as f64);
    Ok(BinomialSummary {
        successes,
        trials,
        proportion: k / n,
        wilson_interval: within("Wilson interval", wilson_interval(k, n, alpha))?,
        wald_interval: within("Wald interval", normal_interval(k, n, alpha))?,
        test_of_one_half: within(
            "binomial test",
            sign_test(successes, trials.saturating_sub(successes), 0, alpha),
        )?,
    })
}

/// The sign test of wins and losses with its critical values for the untied count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignSummary {
    /// The test with the chosen alternative and method.
    pub result: SignTestResult,
    /// The most losses that still reject equality, two-tailed (`None`: no count does).
    pub critical_max_losses: Option<u64>,
    /// The fewest wins that reject equality, two-tailed.
    pub critical_min_wins: Option<u64>,
    /// The most losses that still reject equality, one-tailed.
    pub critical_max_losses_one_tailed: Option<u64>,
}

/// [`SignSummary`] of `wins` and `losses` (`ties` dropped from the test, reported).
pub fn sign_summary(
    wins: u64,
    losses: u64,
    ties: u64,
    alpha: f64,
    alternative: SignAlternative,
    method: SignMethod,
) -> Result<SignSummary, StatsError> {
    let n = wins + losses;
    let test = "sign test";
    Ok(SignSummary {
        result: within(
            test,
            sign_test_with(wins, losses, ties, alpha, alternative, method),
        )?,
        critical_max_losses: within(test, sign_test_max_losses(n, alpha))?,
        critical_min_wins: within(test, sign_test_min_wins(n, alpha))?,
        critical_max_losses_one_tailed: within(
            test,
            sign_test_critical_losses(n, alpha, Tails::One),
        )?,
    })
}

/// One AUC's intervals from its value and class counts; the Cortes & Mohri ones need the
/// number of errors at the threshold (and the moments given the split, the false negatives).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AucIntervals {
    /// The AUC.
    pub auc: f64,
    /// Positive instances.
    pub positives: usize,
    /// Negative instances.
    pub negatives: usize,
    /// Hanley & McNeil's standard error and its parts.
    pub hanley_mcneil: HanleyMcNeil,
    /// AUC +- z SE (Hanley & McNeil), clipped to [0, 1].
    pub hanley_mcneil_interval: Interval,
    /// Agarwal et al.'s distribution-free half-width.
    pub agarwal_half_width: f64,
    /// AUC +- that half-width, clipped to [0, 1].
    pub agarwal_interval: Interval,
    /// Cortes & Mohri's moments of the AUC given the error count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cortes_mohri_moments: Option<FixedErrorAucMoments>,
    /// The interval of those moments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cortes_mohri_interval: Option<Interval>,
    /// The full 2004 construction with a Chebyshev bound on the error rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cortes_mohri_full_interval_chebyshev: Option<CortesMohriInterval>,
    /// The full 2004 construction with a normal bound on the error rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cortes_mohri_full_interval_normal: Option<CortesMohriInterval>,
    /// The moments given how the errors split into false negatives and false positives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cortes_mohri_moments_given_split: Option<FixedErrorAucMoments>,
}

/// [`AucIntervals`] of `auc` with `positives` and `negatives`; `errors` adds Cortes & Mohri's,
/// and `false_negatives` (of the errors, at most `errors`) their moments given the split.
pub fn auc_intervals(
    auc: f64,
    positives: usize,
    negatives: usize,
    errors: Option<usize>,
    false_negatives: Option<usize>,
    alpha: f64,
) -> Result<AucIntervals, StatsError> {
    let (m, n) = (positives, negatives);
    let (hm, ag, cm) = ("Hanley-McNeil", "Agarwal", "Cortes-Mohri");
    let mut intervals = AucIntervals {
        auc,
        positives,
        negatives,
        hanley_mcneil: within(hm, hanley_mcneil(auc, m, n))?,
        hanley_mcneil_interval: within(hm, hanley_mcneil_interval(auc, m, n, alpha))?,
        agarwal_half_width: within(ag, agarwal_half_width(m, n, alpha))?,
        agarwal_interval: within(ag, agarwal_interval(auc, m, n, alpha))?,
        cortes_mohri_moments: None,
        cortes_mohri_interval: None,
        cortes_mohri_full_interval_chebyshev: None,
        cortes_mohri_full_interval_normal: None,
        cortes_mohri_moments_given_split: None,
    };
    let Some(errors) = errors else {
        return Ok(intervals);
    };
    let full = |bound| within(cm, cortes_mohri_full_interval(m, n, errors, alpha, bound));
    intervals.cortes_mohri_moments = Some(within(cm, cortes_mohri_moments(m, n, errors))?);
    intervals.cortes_mohri_interval = Some(within(cm, cortes_mohri_interval(m, n, errors, alpha))?);
    intervals.cortes_mohri_full_interval_chebyshev = Some(full(ErrorRateBound::Chebyshev)?);
    intervals.cortes_mohri_full_interval_normal = Some(full(ErrorRateBound::Normal)?);
    if let Some(false_negatives) = false_negatives {
        let false_positives = errors.saturating_sub(false_negatives);
        intervals.cortes_mohri_moments_given_split = Some(within(
            cm,
            cortes_mohri_moments_given_split(m, n, false_negatives, false_positives),
        )?);
    }
    Ok(intervals)
}

/// Friedman and Iman-Davenport from published average ranks, with Nemenyi's q, critical
/// difference (also with Demsar's Table 5(a) q, where it has k) and pairwise p-values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RanksSummary {
    /// Number of datasets the ranks were averaged over.
    pub n_datasets: usize,
    /// Friedman's and Iman-Davenport's tests.
    pub friedman: FriedmanResult,
    /// Nemenyi's q at alpha, computed.
    pub nemenyi_q: f64,
    /// Nemenyi's critical difference with that q.
    pub nemenyi_critical_difference: f64,
    /// Demsar's (2006) Table 5(a) q, when the table has k learners and alpha.
    pub nemenyi_q_demsar_table: Option<f64>,
    /// The critical difference with the table's q.
    pub nemenyi_critical_difference_demsar_table: Option<f64>,
    /// Nemenyi's pairwise p-values (diagonal 1).
    pub nemenyi_pvalues: Vec<Vec<f64>>,
}

/// [`RanksSummary`] of `average_ranks` over `n_datasets` datasets.
pub fn ranks_summary(
    average_ranks: &[f64],
    n_datasets: usize,
    alpha: f64,
) -> Result<RanksSummary, StatsError> {
    let k = average_ranks.len();
    let nemenyi = "Nemenyi";
    let friedman = within(
        "Friedman",
        friedman_from_average_ranks(average_ranks, n_datasets, alpha),
    )?;
    let q = within(nemenyi, nemenyi_q(k, alpha))?;
    let table_q = nemenyi_q_demsar_table(k, alpha).ok();
    Ok(RanksSummary {
        n_datasets,
        friedman,
        nemenyi_q: q,
        nemenyi_critical_difference: within(nemenyi, critical_difference(q, k, n_datasets))?,
        nemenyi_q_demsar_table: table_q,
        nemenyi_critical_difference_demsar_table: table_q
            .map(|q| within(nemenyi, critical_difference(q, k, n_datasets)))
            .transpose()?,
        nemenyi_pvalues: within(nemenyi, nemenyi_pvalues(average_ranks, n_datasets))?,
    })
}

/// Holm's and Bonferroni's corrections of a family of p-values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Corrections {
    /// The p-values as given.
    pub pvalues: Vec<f64>,
    /// Holm's step-down procedure.
    pub holm: CorrectionResult,
    /// Bonferroni's correction.
    pub bonferroni: CorrectionResult,
}

/// [`Corrections`] of `pvalues` at family-wise level `alpha`.
pub fn corrections(pvalues: &[f64], alpha: f64) -> Result<Corrections, StatsError> {
    Ok(Corrections {
        pvalues: pvalues.to_vec(),
        holm: within("Holm", holm(pvalues, alpha))?,
        bonferroni: within("Bonferroni", bonferroni(pvalues, alpha))?,
    })
}

/// One model's AUC on two-class scores with its intervals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoredAucIntervals {
    /// The AUC (ties count 1/2).
    pub auc: f64,
    /// Hanley & McNeil's standard error and its parts.
    pub hanley_mcneil: HanleyMcNeil,
    /// AUC +- z SE (Hanley & McNeil).
    pub hanley_mcneil_interval: Interval,
    /// Agarwal et al.'s distribution-free interval.
    pub agarwal_interval: Interval,
    /// The stratified percentile bootstrap interval.
    pub bootstrap_interval: Interval,
}

/// DeLong's test of two correlated AUCs, with each AUC's intervals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DelongSummary {
    /// Positive instances.
    pub positives: usize,
    /// Negative instances.
    pub negatives: usize,
    /// DeLong's test of the first AUC against the second.
    pub result: DeLongResult,
    /// The first model's AUC and intervals.
    pub first: ScoredAucIntervals,
    /// The second model's.
    pub second: ScoredAucIntervals,
}

/// [`DelongSummary`] of two score columns against `labels` (true = positive); the bootstrap
/// draws `resamples` stratified resamples from `seed`.
pub fn delong_summary(
    labels: &[bool],
    first: &[f64],
    second: &[f64],
    alpha: f64,
    (resamples, seed): (usize, u64),
) -> Result<DelongSummary, StatsError> {
    let positives = labels.iter().filter(|label| **label).count();
    let negatives = labels.len() - positives;
    let intervals = |scores: &[f64]| -> Result<ScoredAucIntervals, StatsError> {
        let value = within("AUC", auc(labels, scores))?;
        let hm = "Hanley-McNeil";
        Ok(ScoredAucIntervals {
            auc: value,
            hanley_mcneil: within(hm, hanley_mcneil(value, positives, negatives))?,
            hanley_mcneil_interval: within(
                hm,
                hanley_mcneil_interval(value, positives, negatives, alpha),
            )?,
            agarwal_interval: within(
                "Agarwal",
                agarwal_interval(value, positives, negatives, alpha),
            )?,
            bootstrap_interval: within(
                "bootstrap",
                bootstrap_auc_interval(labels, scores, resamples, alpha, seed),
            )?,
        })
    };
    let first_intervals = intervals(first)?;
    let second_intervals = intervals(second)?;
    Ok(DelongSummary {
        positives,
        negatives,
        result: within("DeLong", delong_test(labels, first, second, alpha))?,
        first: first_intervals,
        second: second_intervals,
    })
}

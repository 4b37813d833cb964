//! Every across-data-set comparison of k learners on N data sets, from one N x k matrix of a
//! measure (Demsar 2006; Garcia & Herrera 2008; Benavoli et al. 2017): average ranks, Friedman
//! with Iman-Davenport, the Nemenyi critical difference and its groups, Holm and
//! Bonferroni-Dunn against a control learner, and for every pair of learners win/tie/loss with
//! the sign test, Wilcoxon signed-rank over data sets (Holm-corrected over the pairs), Nemenyi's
//! pairwise p-value and the Bayesian signed-rank test with a region of practical equivalence.
//!
//! [`compare`] is the one function that computes all of them: the `compare` command of the
//! `experiments` tool and the across-data-set analysis of a run (crates/comparison) both call
//! it, so the two print the same numbers for the same matrix, options and seed;
//! [`bayesian_posterior`] gives the posterior samples of one pair (the dots of a simplex plot)
//! exactly as [`compare`] drew them.

use serde::{Deserialize, Serialize};

use crate::across::friedman::{
    bonferroni_dunn_q, compare_with_control, critical_difference, friedman_test,
    nemenyi_critical_difference_demsar_table, nemenyi_pvalues, nemenyi_q, rank_rows_descending,
    rank_standard_error, ControlComparison, FriedmanResult,
};
use crate::bayes::bayesian::{
    bayesian_signed_rank_posterior, bayesian_signed_rank_test, RegionProbabilities,
    SignedRankResult,
};
use crate::corrections::multitest::holm;
use crate::error::{check_alpha, StatsError};
use crate::paired::sign_test::{
    sign_test, sign_test_min_wins, win_tie_loss, SignTestResult, WinTieLoss,
};
use crate::paired::wilcoxon::{wilcoxon_signed_rank, WilcoxonMethod, WilcoxonResult, ZeroMethod};

/// Settings of [`compare`]; `Default` gives alpha 0.05, rope 0.01, higher values better,
/// the first learner as control, no continuity correction in Wilcoxon's normal approximation
/// (as scipy), baycomp's prior (0.5) and sample count (50,000), seed 0 and no measure name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AcrossDatasetsOptions {
    /// Learner the others are compared against by Holm and Bonferroni-Dunn; `None` takes the
    /// first learner (as a run's `control` key: a control is chosen before seeing the results,
    /// not as the best-ranked learner, which would make the tests against it optimistic).
    pub control: Option<String>,
    /// Family-wise significance level of every test and correction.
    pub alpha: f64,
    /// Half-width of the region of practical equivalence of the Bayesian signed-rank test, in
    /// the units of the measure.
    pub rope: f64,
    /// True when a higher value of the measure is better (AUC, accuracy), false when lower is
    /// better (error rate).
    pub higher_is_better: bool,
    /// Weight of the Bayesian signed-rank test's pseudo-observation at zero difference.
    pub bayesian_prior: f64,
    /// Monte Carlo samples of the Bayesian signed-rank test.
    pub bayesian_samples: usize,
    /// Continuity correction in the Wilcoxon test's normal approximation (used above 50
    /// non-zero differences).
    pub wilcoxon_correction: bool,
    /// Seed from which each pair's Bayesian Monte Carlo seed is derived (see [`pair_seed`]).
    pub seed: u64,
    /// Name of the measure (e.g. `auc`); part of the label each pair's seed is derived from.
    pub measure: String,
}

impl Default for AcrossDatasetsOptions {
    fn default() -> Self {
        Self {
            control: None,
            alpha: 0.05,
            rope: 0.01,
            higher_is_better: true,
            bayesian_prior: 0.5,
            bayesian_samples: 50_000,
            wilcoxon_correction: false,
            seed: 0,
            measure: String::new(),
        }
    }
}

/// Nemenyi's critical difference, its pairwise p-values and the groups a CD diagram joins.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NemenyiSummary {
    /// q_alpha: the studentized range quantile (k, infinite df) / sqrt(2), computed exactly.
    pub q: f64,
    /// Critical difference q sqrt(k(k+1)/(6N)) with the exact q.
    pub critical_difference: f64,
    /// q_alpha as printed in Demsar's Table 5(a) (alpha 0.05 or 0.10, k = 2..10), else `None`.
    pub q_demsar_table: Option<f64>,
    /// Critical difference with Demsar's printed q, when it exists.
    pub critical_difference_demsar_table: Option<f64>,
    /// Pairwise p-values, `[learner][learner]` in input order, diagonal 1.
    pub pvalues: Vec<Vec<f64>>,
    /// Maximal groups of at least two learners, consecutive in average rank, whose average ranks
    /// differ by less than the (exact) critical difference: the bars of a CD diagram. Each group
    /// lists learner names from the best average rank to the worst.
    pub groups: Vec<Vec<String>>,
}

/// How the control learner was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlChoice {
    /// Named in the options.
    Named,
    /// The first learner (no control was named).
    FirstLearner,
}

/// Every learner against the control learner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ControlSummary {
    /// Name of the control learner.
    pub control: String,
    /// Its index among the learners (column of the matrix).
    pub control_index: usize,
    /// Whether it was named or is the first learner (the default).
    pub chosen: ControlChoice,
    /// Standard error of a difference of average ranks, sqrt(k(k+1)/(6N)).
    pub standard_error: f64,
    /// Bonferroni-Dunn q_alpha = z_{1 - alpha/(2(k-1))} (Demsar's Table 5(b)).
    pub bonferroni_dunn_q: f64,
    /// Bonferroni-Dunn critical difference q sqrt(k(k+1)/(6N)).
    pub bonferroni_dunn_critical_difference: f64,
    /// One entry per other learner, in input order (`learner` is its index among the
    /// learners).
    pub comparisons: Vec<ControlComparison>,
}

/// One pair of learners over the data sets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairSummary {
    /// First learner of the pair (earlier in input order).
    pub first: String,
    /// Second learner of the pair.
    pub second: String,
    /// Mean over data sets of first - second, in the units of the measure.
    pub mean_difference: f64,
    /// Data sets where the first is better / equal (exactly) / worse.
    pub win_tie_loss: WinTieLoss,
    /// Exact two-sided sign test, ties dropped (wins = first better).
    pub sign_test: SignTestResult,
    /// Demsar's critical value for this pair: the fewest wins out of the N data sets, less one
    /// when the number of ties is odd, that make the sign test significant at alpha; `None`
    /// when no count does.
    pub sign_test_critical_wins: Option<u64>,
    /// Demsar's sign test: significant when either learner's wins plus half the ties (an odd
    /// tie dropped) reach this pair's `sign_test_critical_wins`.
    pub sign_test_demsar_reject: bool,
    /// Wilcoxon signed-rank test on first - second over data sets (zero differences dropped;
    /// exact up to 50 non-zero differences, else the normal approximation without continuity
    /// correction). `r_plus` sums the ranks of data sets where first's value is larger.
    pub wilcoxon: WilcoxonResult,
    /// Holm-corrected Wilcoxon p-value over the k(k-1)/2 pairs.
    pub wilcoxon_holm_pvalue: f64,
    /// True when the Holm-corrected Wilcoxon p-value is <= alpha.
    pub wilcoxon_holm_reject: bool,
    /// Nemenyi's pairwise p-value (already family-wise).
    pub nemenyi_pvalue: f64,
    /// Bayesian signed-rank test: `left` = the second is better by more than the rope, `rope`
    /// = practically equivalent, `right` = the first is better by more than the rope.
    pub bayesian_signed_rank: SignedRankResult,
    /// Seed of its Monte Carlo draws ([`pair_seed`] of the options' seed and names).
    pub bayesian_seed: u64,
}

/// Every across-data-set statistic of one measure; see the module documentation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcrossDatasetsResult {
    /// Learner names, in input order (the columns of the matrix).
    pub learners: Vec<String>,
    /// Number of data sets N (the rows of the matrix).
    pub n_datasets: usize,
    /// The options the statistics were computed with (control as given).
    pub options: AcrossDatasetsOptions,
    /// Rank of each learner on each data set, `[dataset][learner]`, 1 = best, ties averaged.
    pub ranks: Vec<Vec<f64>>,
    /// Average rank of each learner over the data sets.
    pub average_ranks: Vec<f64>,
    /// Mean of the measure of each learner over the data sets.
    pub means: Vec<f64>,
    /// Friedman test (with and without the tie correction) and Iman-Davenport's F.
    pub friedman: FriedmanResult,
    /// Nemenyi critical difference, p-values and CD-diagram groups.
    pub nemenyi: NemenyiSummary,
    /// Holm and Bonferroni-Dunn against the control.
    pub control: ControlSummary,
    /// Fewest wins out of N data sets that make the two-sided sign test significant at alpha
    /// (Demsar's Table 3, no ties); `None` when no count does (N < 6 at 0.05). A pair with an
    /// odd number of ties uses its own `sign_test_critical_wins` (one data set fewer).
    pub sign_test_critical_wins: Option<u64>,
    /// Every pair of learners, in the order (0,1), (0,2), ..., (1,2), ...
    pub pairs: Vec<PairSummary>,
}

/// Groups of learners (names, best first) whose average ranks span less than `difference`:
/// for each learner in rank order, the run of learners after it within the difference, kept
/// when it has at least two members and is not inside the previous run.
fn critical_difference_groups(
    average_ranks: &[f64],
    learners: &[String],
    difference: f64,
) -> Vec<Vec<String>> {
    let mut order: Vec<usize> = (0..average_ranks.len()).collect();
    order.sort_by(|&i, &j| average_ranks[i].total_cmp(&average_ranks[j]));
    let mut groups = Vec::new();
    let mut last_end = 0;
    for start in 0..order.len() {
        let mut end = start;
        while end + 1 < order.len()
            && average_ranks[order[end + 1]] - average_ranks[order[start]] < difference
        {
            end += 1;
        }
        if end > start && end > last_end {
            groups.push(
                order[start..=end]
                    .iter()
                    .map(|&i| learners[i].clone())
                    .collect(),
            );
            last_end = end;
        }
    }
    groups
}

/// Seed of the Bayesian signed-rank test of the pair (`first`, `second`) of `measure`: derived
/// from `seed` and the label `across_datasets/bayesian_signed_rank/<measure>/<first>/<second>`,
/// so a pair's draws do not depend on which other learners are compared.
pub fn pair_seed(seed: u64, measure: &str, first: &str, second: &str) -> u64 {
    seeds::derive_seed_from_label(
        seed,
        &format!("across_datasets/bayesian_signed_rank/{measure}/{first}/{second}"),
    )
}

/// Two learners' columns oriented for the Bayesian signed-rank test, whose differences are
/// `x - y`: first - second when higher is better, second - first otherwise, so that `right`
/// is always "the first is better".
fn oriented_columns<R: AsRef<[f64]>>(
    scores: &[R],
    first: usize,
    second: usize,
    higher_is_better: bool,
) -> (Vec<f64>, Vec<f64>) {
    let column = |j: usize| -> Vec<f64> { scores.iter().map(|row| row.as_ref()[j]).collect() };
    let (a, b) = (column(first), column(second));
    if higher_is_better {
        (a, b)
    } else {
        (b, a)
    }
}

/// The Bayesian signed-rank posterior samples of the pair (`first`, `second`) (learner indices,
/// first < second) of `result`, computed from the same `scores` with the result's options and
/// the pair's seed: the draws whose shares are the pair's `bayesian_signed_rank` (the dots of
/// a simplex plot; `right` = the first is better).
///
/// Errors: indices that are not a pair of `result` -> `OutOfRange`.
pub fn bayesian_posterior<R: AsRef<[f64]>>(
    scores: &[R],
    result: &AcrossDatasetsResult,
    first: usize,
    second: usize,
) -> Result<Vec<RegionProbabilities>, StatsError> {
    let k = result.learners.len();
    if !(first < second && second < k) {
        return Err(StatsError::OutOfRange {
            name: "pair of learners",
            value: second as f64,
            allowed: "two learner indices first < second < k",
        });
    }
    let options = &result.options;
    let (x, y) = oriented_columns(scores, first, second, options.higher_is_better);
    bayesian_signed_rank_posterior(
        &x,
        &y,
        options.rope,
        options.bayesian_prior,
        options.bayesian_samples,
        pair_seed(
            options.seed,
            &options.measure,
            &result.learners[first],
            &result.learners[second],
        ),
    )
}

/// Computes every across-data-set statistic of `scores[dataset][learner]` (one measure, one
/// value per data set and learner) for the learners named `learners` (one per column).
///
/// Errors: fewer than 2 data sets or learners -> `TooFew`; ragged rows or a name count other
/// than the column count -> `LengthMismatch`; NaN/inf -> `NonFinite`; duplicate learner names
/// or a control that is not a learner -> `UnknownName`; alpha outside (0, 1), rope < 0,
/// prior <= 0 or 0 samples -> `OutOfRange`.
pub fn compare<R: AsRef<[f64]>, S: AsRef<str>>(
    scores: &[R],
    learners: &[S],
    options: &AcrossDatasetsOptions,
) -> Result<AcrossDatasetsResult, StatsError> {
    check_alpha(options.alpha)?;
    let names: Vec<String> = learners.iter().map(|s| s.as_ref().to_string()).collect();
    check_learners(scores, &names)?;
    let n = scores.len();
    let k = names.len();
    // Oriented so that larger is better: ranks, the control and win/tie/loss use these.
    let goodness: Vec<Vec<f64>> = scores
        .iter()
        .map(|row| {
            row.as_ref()
                .iter()
                .map(|&v| if options.higher_is_better { v } else { -v })
                .collect()
        })
        .collect();
    let friedman = friedman_test(&goodness, options.alpha)?;
    let ranks = rank_rows_descending(&goodness);
    let average_ranks = friedman.average_ranks.clone();
    let means: Vec<f64> = (0..k)
        .map(|j| scores.iter().map(|row| row.as_ref()[j]).sum::<f64>() / n as f64)
        .collect();
    let nemenyi = nemenyi_summary(&average_ranks, &names, n, options.alpha)?;
    let control = control_summary(&average_ranks, &names, n, options)?;
    let sign_test_critical_wins = sign_test_min_wins(n as u64, options.alpha)?;
    let pairs = PairInputs {
        scores,
        goodness: &goodness,
        names: &names,
        means: &means,
        nemenyi_pvalues: &nemenyi.pvalues,
        options,
    }
    .summaries()?;
    Ok(AcrossDatasetsResult {
        learners: names,
        n_datasets: n,
        options: options.clone(),
        ranks,
        average_ranks,
        means,
        friedman,
        nemenyi,
        control,
        sign_test_critical_wins,
        pairs,
    })
}

/// Checks that there is one learner name per column of `scores` and that no name appears twice.
fn check_learners<R: AsRef<[f64]>>(scores: &[R], names: &[String]) -> Result<(), StatsError> {
    let k = names.len();
    if let Some(row) = scores.first() {
        if row.as_ref().len() != k {
            return Err(StatsError::LengthMismatch {
                first: "learner names",
                first_len: k,
                second: "columns of scores",
                second_len: row.as_ref().len(),
            });
        }
    }
    for (index, name) in names.iter().enumerate() {
        if names[..index].contains(name) {
            return Err(StatsError::UnknownName {
                what: "learner",
                name: name.clone(),
                reason: "appears twice among the learners".to_string(),
            });
        }
    }
    Ok(())
}

/// Nemenyi's q, critical difference (exact and with Demsar's table), pairwise p-values and
/// CD-diagram groups of `n` data sets with these average ranks.
fn nemenyi_summary(
    average_ranks: &[f64],
    names: &[String],
    n: usize,
    alpha: f64,
) -> Result<NemenyiSummary, StatsError> {
    let k = names.len();
    let q = nemenyi_q(k, alpha)?;
    let nemenyi_difference = critical_difference(q, k, n)?;
    let q_demsar_table = crate::across::friedman::nemenyi_q_demsar_table(k, alpha).ok();
    let critical_difference_demsar_table = q_demsar_table
        .map(|_| nemenyi_critical_difference_demsar_table(k, n, alpha))
        .transpose()?;
    let pvalues = nemenyi_pvalues(average_ranks, n)?;
    Ok(NemenyiSummary {
        q,
        critical_difference: nemenyi_difference,
        q_demsar_table,
        critical_difference_demsar_table,
        groups: critical_difference_groups(average_ranks, names, nemenyi_difference),
        pvalues,
    })
}

/// Holm and Bonferroni-Dunn of every learner against the control (the options' named learner,
/// else the first) over `n` data sets with these average ranks.
fn control_summary(
    average_ranks: &[f64],
    names: &[String],
    n: usize,
    options: &AcrossDatasetsOptions,
) -> Result<ControlSummary, StatsError> {
    let k = names.len();
    let (control_index, chosen) = match &options.control {
        Some(control) => match names.iter().position(|name| name == control) {
            Some(index) => (index, ControlChoice::Named),
            None => {
                return Err(StatsError::UnknownName {
                    what: "control learner",
                    name: control.clone(),
                    reason: format!("is not a learner (learners: {})", names.join(", ")),
                })
            }
        },
        None => (0, ControlChoice::FirstLearner),
    };
    let standard_error = rank_standard_error(k, n)?;
    let bonferroni_dunn_q = bonferroni_dunn_q(k, options.alpha)?;
    Ok(ControlSummary {
        control: names[control_index].clone(),
        control_index,
        chosen,
        standard_error,
        bonferroni_dunn_q,
        bonferroni_dunn_critical_difference: critical_difference(bonferroni_dunn_q, k, n)?,
        comparisons: compare_with_control(average_ranks, n, control_index, options.alpha)?,
    })
}

/// What the statistics of every pair of learners are computed from.
struct PairInputs<'a, R> {
    /// The measure, `[dataset][learner]`.
    scores: &'a [R],
    /// The measure oriented so that larger is better.
    goodness: &'a [Vec<f64>],
    /// Learner names.
    names: &'a [String],
    /// Mean of the measure of each learner.
    means: &'a [f64],
    /// Nemenyi's pairwise p-values.
    nemenyi_pvalues: &'a [Vec<f64>],
    options: &'a AcrossDatasetsOptions,
}

impl<R: AsRef<[f64]>> PairInputs<'_, R> {
    /// Every pair's statistics, in the order (0,1), (0,2), ..., (1,2), ..., with the Wilcoxon
    /// p-values Holm-corrected over the pairs.
    fn summaries(&self) -> Result<Vec<PairSummary>, StatsError> {
        let k = self.names.len();
        let mut pairs = Vec::with_capacity(k * (k - 1) / 2);
        for first in 0..k {
            for second in (first + 1)..k {
                pairs.push(self.pair(first, second)?);
            }
        }
        let wilcoxon_pvalues: Vec<f64> = pairs.iter().map(|pair| pair.wilcoxon.pvalue).collect();
        let wilcoxon_holm = holm(&wilcoxon_pvalues, self.options.alpha)?;
        for (position, pair) in pairs.iter_mut().enumerate() {
            pair.wilcoxon_holm_pvalue = wilcoxon_holm.corrected_pvalues[position];
            pair.wilcoxon_holm_reject = wilcoxon_holm.reject[position];
        }
        Ok(pairs)
    }

    /// The statistics of the pair (`first`, `second`), first < second, before Holm's correction
    /// (its fields are NaN and false).
    fn pair(&self, first: usize, second: usize) -> Result<PairSummary, StatsError> {
        let (options, names) = (self.options, self.names);
        let n = self.scores.len();
        let column =
            |j: usize| -> Vec<f64> { self.scores.iter().map(|row| row.as_ref()[j]).collect() };
        let goodness_column =
            |j: usize| -> Vec<f64> { self.goodness.iter().map(|row| row[j]).collect() };
        let (a, b) = (column(first), column(second));
        let counts = win_tie_loss(&goodness_column(first), &goodness_column(second))?;
        let sign = sign_test(counts.wins, counts.losses, counts.ties, options.alpha)?;
        // Demsar: ties are split evenly between the two, one dropped when they are odd.
        let half_ties = counts.ties / 2;
        let pair_critical_wins = sign_test_min_wins(n as u64 - counts.ties % 2, options.alpha)?;
        let sign_test_demsar_reject = pair_critical_wins.is_some_and(|critical| {
            counts.wins + half_ties >= critical || counts.losses + half_ties >= critical
        });
        let wilcoxon = wilcoxon_signed_rank(
            &a,
            &b,
            ZeroMethod::Wilcox,
            options.wilcoxon_correction,
            WilcoxonMethod::Auto,
            options.alpha,
        )?;
        let (x, y) = oriented_columns(self.scores, first, second, options.higher_is_better);
        let bayesian_seed = pair_seed(
            options.seed,
            &options.measure,
            &names[first],
            &names[second],
        );
        let bayesian_signed_rank = bayesian_signed_rank_test(
            &x,
            &y,
            options.rope,
            options.bayesian_prior,
            options.bayesian_samples,
            bayesian_seed,
        )?;
        Ok(PairSummary {
            first: names[first].clone(),
            second: names[second].clone(),
            mean_difference: self.means[first] - self.means[second],
            win_tie_loss: counts,
            sign_test: sign,
            sign_test_critical_wins: pair_critical_wins,
            sign_test_demsar_reject,
            wilcoxon,
            wilcoxon_holm_pvalue: f64::NAN,
            wilcoxon_holm_reject: false,
            nemenyi_pvalue: self.nemenyi_pvalues[first][second],
            bayesian_signed_rank,
            bayesian_seed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_maximal_runs_within_the_difference() {
        let names: Vec<String> = ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect();
        // Sorted ranks 1.0 (a), 1.5 (b), 2.4 (c), 3.0 (d); difference 1.0.
        let groups = critical_difference_groups(&[1.0, 1.5, 2.4, 3.0], &names, 1.0);
        assert_eq!(groups, vec![vec!["a", "b"], vec!["b", "c"], vec!["c", "d"]]);
        let one = critical_difference_groups(&[1.0, 1.5, 2.4, 3.0], &names, 5.0);
        assert_eq!(one, vec![vec!["a", "b", "c", "d"]]);
        assert!(critical_difference_groups(&[1.0, 2.0, 3.0, 4.0], &names, 0.5).is_empty());
        // Input order need not be rank order: ranks b 1.0, a 1.5, d 2.6, c 3.9 with CD 1.2
        // give {b, a} (2.6 - 1.0 > 1.2), {a, d} (2.6 - 1.5 = 1.1), and c alone (3.9 - 2.6).
        let unordered = critical_difference_groups(&[1.5, 1.0, 3.9, 2.6], &names, 1.2);
        assert_eq!(unordered, vec![vec!["b", "a"], vec!["a", "d"]]);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let scores = [[0.8, 0.7], [0.6, 0.9], [0.5, 0.4]];
        let options = AcrossDatasetsOptions::default();
        assert!(matches!(
            compare(&scores, &["a", "a"], &options),
            Err(StatsError::UnknownName { .. })
        ));
        assert!(matches!(
            compare(&scores, &["a", "b", "c"], &options),
            Err(StatsError::LengthMismatch { .. })
        ));
        let named = AcrossDatasetsOptions {
            control: Some("z".into()),
            ..AcrossDatasetsOptions::default()
        };
        assert!(matches!(
            compare(&scores, &["a", "b"], &named),
            Err(StatsError::UnknownName { .. })
        ));
        assert!(matches!(
            compare(&scores[..1], &["a", "b"], &options),
            Err(StatsError::TooFew { .. })
        ));
        let not_finite = [[0.1, 0.2], [0.3, f64::NAN]];
        assert!(matches!(
            compare(&not_finite, &["a", "b"], &options),
            Err(StatsError::NonFinite { .. })
        ));
        let ragged: Vec<Vec<f64>> = vec![vec![0.1, 0.2], vec![0.3]];
        assert!(matches!(
            compare(&ragged, &["a", "b"], &options),
            Err(StatsError::LengthMismatch { .. })
        ));
    }
}

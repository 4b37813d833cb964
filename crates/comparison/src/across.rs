//! Every across-dataset statistic of one measure, from a datasets x learners table.
//!
//! Orientation: each value is first turned into a score where higher is better (negated when
//! the measure's lower values are better), so that rank 1 is the best learner on a dataset,
//! and in every pair (a, b) "a better" means a's score is higher. Pairs are every two learners
//! in table order, a before b.

use serde::Serialize;

use engine::{PairedTest, TestOptions};

/// One measure's values on several datasets for several learners (e.g. the means over a
/// run's folds, or a published table).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreTable {
    /// The measure's name.
    pub measure: String,
    /// True when lower values are better (error, Brier score, log-loss).
    pub lower_is_better: bool,
    /// The datasets (rows).
    pub datasets: Vec<String>,
    /// The learners (columns).
    pub learners: Vec<String>,
    /// `values[dataset][learner]`, all finite.
    pub values: Vec<Vec<f64>>,
}

/// The settings of the comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompareOptions {
    /// Significance level of every test and of the critical differences.
    pub alpha: f64,
    /// The control learner (index into the table's learners) of Holm's and the
    /// Bonferroni-Dunn tests and of the Bayesian simplexes.
    pub control: usize,
    /// Half-width of the region of practical equivalence of the Bayesian signed-rank test, in
    /// the units of the measure.
    pub rope: f64,
    /// Continuity correction in the Wilcoxon normal approximation (used above 50 datasets).
    pub wilcoxon_correction: bool,
    /// Monte Carlo samples of the Bayesian signed-rank posterior.
    pub samples: usize,
    /// The seed from which each pair's Monte Carlo seed is derived.
    pub seed: u64,
}

impl CompareOptions {
    /// baycomp's default number of posterior samples.
    pub const DEFAULT_SAMPLES: usize = 50_000;
    /// baycomp's default weight of the prior pseudo-observation at 0.
    pub const PRIOR: f64 = 0.5;
}

/// The Friedman test with the Iman-Davenport correction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FriedmanSummary {
    /// Friedman's chi-square with the tie correction (scipy `friedmanchisquare`).
    pub chi_square: f64,
    /// Its degrees of freedom, k - 1.
    pub df: f64,
    /// Its p-value.
    pub pvalue: f64,
    /// The Iman-Davenport F from the tie-corrected chi-square.
    pub iman_davenport_f: f64,
    /// Its degrees of freedom, (k - 1, (k - 1)(N - 1)).
    pub iman_davenport_df: (f64, f64),
    /// Its p-value.
    pub iman_davenport_pvalue: f64,
    /// True when the Iman-Davenport p-value is at most alpha.
    pub reject: bool,
}

/// The Nemenyi post-hoc test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NemenyiSummary {
    /// q_alpha: the studentized range quantile (k, infinite df) over sqrt 2.
    pub q: f64,
    /// The critical difference of average ranks, q sqrt(k(k+1)/(6N)).
    pub critical_difference: f64,
    /// Pairwise p-values, `[learner][learner]` (diagonal 1).
    pub pvalues: Vec<Vec<f64>>,
    /// Groups of learners whose average ranks all differ by less than the critical
    /// difference (maximal runs in rank order, as joined in the CD diagram).
    pub groups: Vec<Vec<usize>>,
}

/// The comparisons with the control learner.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ControlSummary {
    /// The control's index.
    pub learner: usize,
    /// The Bonferroni-Dunn critical difference of average ranks.
    pub bonferroni_dunn_critical_difference: f64,
    /// Every other learner, in table order.
    pub rows: Vec<stats::ControlComparison>,
}

/// The posterior probabilities of the Bayesian signed-rank test for a pair (a, b): the share
/// of posterior samples in which each region is the most probable, as baycomp reports them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BayesianSummary {
    /// P(b better by more than the rope).
    pub b_better: f64,
    /// P(practically equivalent).
    pub equivalent: f64,
    /// P(a better by more than the rope).
    pub a_better: f64,
}

/// Two learners compared over the datasets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairSummary {
    /// The first learner's index.
    pub a: usize,
    /// The second learner's index.
    pub b: usize,
    /// Datasets on which a is better.
    pub wins: u64,
    /// Datasets on which they are equal.
    pub ties: u64,
    /// Datasets on which b is better.
    pub losses: u64,
    /// The exact two-sided sign test with ties dropped (scipy `binomtest(wins, wins +
    /// losses)`).
    pub sign_pvalue: f64,
    /// Demšar's (2006) sign-test critical value: the wins needed out of the datasets for
    /// significance at alpha, ties split evenly between the two (one dropped when their
    /// number is odd); `None` when no count is significant.
    pub sign_wins_needed: Option<u64>,
    /// Demšar's decision: a or b has at least `sign_wins_needed` wins, ties split evenly.
    pub sign_reject: bool,
    /// Wilcoxon signed-rank statistic min(R+, R-) over the datasets (zero differences
    /// dropped).
    pub wilcoxon_statistic: f64,
    /// Its two-sided p-value (exact up to 50 datasets, the exact conditional test when there
    /// are ties).
    pub wilcoxon_pvalue: f64,
    /// Holm's adjusted p-value over the family of every pair's Wilcoxon test.
    pub wilcoxon_holm_pvalue: f64,
    /// Holm's decision at alpha.
    pub wilcoxon_holm_reject: bool,
    /// The Nemenyi p-value of the pair.
    pub nemenyi_pvalue: f64,
    /// The Bayesian signed-rank test on the differences a - b.
    pub bayesian: BayesianSummary,
    /// The seed of its Monte Carlo draws.
    pub bayesian_seed: u64,
}

/// Everything computed for one measure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AcrossDatasetsResult {
    /// The table the statistics were computed from.
    pub table: ScoreTable,
    /// Significance level.
    pub alpha: f64,
    /// The rope of the Bayesian test.
    pub rope: f64,
    /// Monte Carlo samples of the Bayesian test.
    pub samples: usize,
    /// `ranks[dataset][learner]`: 1 = best, ties averaged.
    pub ranks: Vec<Vec<f64>>,
    /// Average rank of each learner.
    pub average_ranks: Vec<f64>,
    /// The Friedman and Iman-Davenport tests.
    pub friedman: FriedmanSummary,
    /// The Nemenyi test.
    pub nemenyi: NemenyiSummary,
    /// Holm and Bonferroni-Dunn against the control.
    pub control: ControlSummary,
    /// Every pair of learners.
    pub pairs: Vec<PairSummary>,
}

/// Why a table cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// The table's shape or values do not allow the tests.
    #[error("measure '{measure}': {problem}")]
    BadTable {
        /// The measure.
        measure: String,
        /// What is wrong.
        problem: String,
    },
    /// A test could not be computed.
    #[error("measure '{measure}': {source}")]
    Stats {
        /// The measure.
        measure: String,
        /// The cause.
        source: stats::StatsError,
    },
}

impl ScoreTable {
    /// The values as scores where higher is better.
    pub fn scores(&self) -> Vec<Vec<f64>> {
        let sign = if self.lower_is_better { -1.0 } else { 1.0 };
        self.values
            .iter()
            .map(|row| row.iter().map(|value| sign * value).collect())
            .collect()
    }

    /// One learner's scores over the datasets.
    pub fn column(&self, learner: usize) -> Vec<f64> {
        self.scores().iter().map(|row| row[learner]).collect()
    }

    fn check(&self) -> Result<(), CompareError> {
        let bad = |problem: String| CompareError::BadTable {
            measure: self.measure.clone(),
            problem,
        };
        if self.datasets.len() < 2 || self.learners.len() < 2 {
            return Err(bad(format!(
                "needs at least 2 datasets and 2 learners, got {} and {}",
                self.datasets.len(),
                self.learners.len()
            )));
        }
        if self.values.len() != self.datasets.len()
            || self
                .values
                .iter()
                .any(|row| row.len() != self.learners.len())
        {
            return Err(bad(
                "the values are not one row per dataset and one column per learner".into(),
            ));
        }
        for (row, values) in self.values.iter().enumerate() {
            if let Some(column) = values.iter().position(|value| !value.is_finite()) {
                return Err(bad(format!(
                    "the value of '{}' on '{}' is not finite",
                    self.learners[column], self.datasets[row]
                )));
            }
        }
        Ok(())
    }
}

/// The seed of the Bayesian signed-rank test of a pair, derived from the options' seed and
/// the measure and learners' names.
pub fn bayesian_seed(seed: u64, table: &ScoreTable, a: usize, b: usize) -> u64 {
    seeds::derive_seed_from_label(
        seed,
        &format!(
            "across_datasets/bayesian_signed_rank/{}/{}/{}",
            table.measure, table.learners[a], table.learners[b]
        ),
    )
}

/// The Bayesian signed-rank posterior samples of a pair (the points of its simplex plot), drawn
/// with the pair's seed as [`compare`] draws them.
pub fn bayesian_posterior(
    table: &ScoreTable,
    options: &CompareOptions,
    a: usize,
    b: usize,
) -> Result<Vec<stats::RegionProbabilities>, CompareError> {
    stats::bayesian_signed_rank_posterior(
        &table.column(a),
        &table.column(b),
        options.rope,
        CompareOptions::PRIOR,
        options.samples,
        bayesian_seed(options.seed, table, a, b),
    )
    .map_err(|source| CompareError::Stats {
        measure: table.measure.clone(),
        source,
    })
}

/// The Nemenyi groups: in rank order, each maximal run of learners whose first and last
/// average ranks differ by less than the critical difference.
pub fn nemenyi_groups(average_ranks: &[f64], critical_difference: f64) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..average_ranks.len()).collect();
    order.sort_by(|&a, &b| {
        average_ranks[a]
            .total_cmp(&average_ranks[b])
            .then(a.cmp(&b))
    });
    let mut groups = Vec::new();
    let mut last_end = 0;
    for start in 0..order.len() {
        let mut end = start;
        while end + 1 < order.len()
            && average_ranks[order[end + 1]] - average_ranks[order[start]] < critical_difference
        {
            end += 1;
        }
        if end > start && end > last_end {
            groups.push(order[start..=end].to_vec());
            last_end = end;
        }
    }
    groups
}

/// Every across-dataset statistic of one table (see the module's orientation rules).
pub fn compare(
    table: &ScoreTable,
    options: &CompareOptions,
) -> Result<AcrossDatasetsResult, CompareError> {
    table.check()?;
    let failed = |source| CompareError::Stats {
        measure: table.measure.clone(),
        source,
    };
    let (n, k) = (table.datasets.len(), table.learners.len());
    if options.control >= k {
        return Err(CompareError::BadTable {
            measure: table.measure.clone(),
            problem: format!(
                "control {} is not a learner index (0 to {})",
                options.control,
                k - 1
            ),
        });
    }
    let scores = table.scores();
    let friedman = stats::friedman_test(&scores, options.alpha).map_err(failed)?;
    let ranks = stats::rank_rows_descending(&scores);
    let q = stats::nemenyi_q(k, options.alpha).map_err(failed)?;
    let critical_difference = stats::critical_difference(q, k, n).map_err(failed)?;
    let nemenyi_pvalues = stats::nemenyi_pvalues(&friedman.average_ranks, n).map_err(failed)?;
    let comparisons =
        stats::compare_with_control(&friedman.average_ranks, n, options.control, options.alpha)
            .map_err(failed)?;
    let control = ControlSummary {
        learner: options.control,
        bonferroni_dunn_critical_difference: stats::bonferroni_dunn_critical_difference(
            k,
            n,
            options.alpha,
        )
        .map_err(failed)?,
        rows: comparisons,
    };
    let test_options = TestOptions {
        alpha: options.alpha,
        sizes: None,
        wilcoxon_correction: options.wilcoxon_correction,
    };
    let mut pairs = Vec::new();
    let every_pair: Vec<(usize, usize)> = (0..k)
        .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
        .collect();
    for (a, b) in every_pair {
        let (x, y) = (table.column(a), table.column(b));
        let count = stats::win_tie_loss(&x, &y).map_err(failed)?;
        let sign = stats::sign_test(count.wins, count.losses, count.ties, options.alpha)
            .map_err(failed)?;
        let split = count.ties / 2;
        let counted = n as u64 - count.ties % 2;
        let needed = stats::sign_test_min_wins(counted, options.alpha).map_err(failed)?;
        let sign_reject =
            needed.is_some_and(|needed| (count.wins + split).max(count.losses + split) >= needed);
        let wilcoxon = PairedTest::Wilcoxon
            .run(&x, &y, &test_options)
            .map_err(|problem| CompareError::BadTable {
                measure: table.measure.clone(),
                problem: format!(
                    "Wilcoxon test of '{}' and '{}': {problem}",
                    table.learners[a], table.learners[b]
                ),
            })?;
        let seed = bayesian_seed(options.seed, table, a, b);
        let bayesian = stats::bayesian_signed_rank_test(
            &x,
            &y,
            options.rope,
            CompareOptions::PRIOR,
            options.samples,
            seed,
        )
        .map_err(failed)?;
        pairs.push(PairSummary {
            a,
            b,
            wins: count.wins,
            ties: count.ties,
            losses: count.losses,
            sign_pvalue: sign.pvalue,
            sign_wins_needed: needed,
            sign_reject,
            wilcoxon_statistic: wilcoxon.statistic(),
            wilcoxon_pvalue: wilcoxon.pvalue(),
            wilcoxon_holm_pvalue: f64::NAN,
            wilcoxon_holm_reject: false,
            nemenyi_pvalue: nemenyi_pvalues[a][b],
            bayesian: BayesianSummary {
                b_better: bayesian.probabilities.left,
                equivalent: bayesian.probabilities.rope,
                a_better: bayesian.probabilities.right,
            },
            bayesian_seed: seed,
        });
    }
    let wilcoxon_pvalues: Vec<f64> = pairs.iter().map(|pair| pair.wilcoxon_pvalue).collect();
    let holm = stats::holm(&wilcoxon_pvalues, options.alpha).map_err(failed)?;
    for (pair, (pvalue, reject)) in pairs
        .iter_mut()
        .zip(holm.corrected_pvalues.into_iter().zip(holm.reject))
    {
        pair.wilcoxon_holm_pvalue = pvalue;
        pair.wilcoxon_holm_reject = reject;
    }
    Ok(AcrossDatasetsResult {
        table: table.clone(),
        alpha: options.alpha,
        rope: options.rope,
        samples: options.samples,
        ranks,
        nemenyi: NemenyiSummary {
            q,
            critical_difference,
            pvalues: nemenyi_pvalues,
            groups: nemenyi_groups(&friedman.average_ranks, critical_difference),
        },
        average_ranks: friedman.average_ranks.clone(),
        friedman: FriedmanSummary {
            chi_square: friedman.chi_square,
            df: friedman.df,
            pvalue: friedman.pvalue,
            iman_davenport_f: friedman.iman_davenport_f,
            iman_davenport_df: friedman.iman_davenport_df,
            iman_davenport_pvalue: friedman.iman_davenport_pvalue,
            reject: friedman.reject,
        },
        control,
        pairs,
    })
}

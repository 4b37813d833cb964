//! The automatic choice of tests that autorank 1.3 makes (Herbold 2020), frequentist branch:
//! Shapiro-Wilk on every learner at alpha / k; Bartlett's test of equal variances when all
//! look normal, Levene's otherwise; then for two learners the paired t-test (all normal) or
//! the one-sided Wilcoxon signed-rank test, and for more the repeated-measures ANOVA with
//! Tukey's HSD (all normal and equal variances) or Friedman's test with Nemenyi's critical
//! difference. Effect sizes (Cohen's d when the parametric branch is taken or all are normal,
//! Akinshin's gamma otherwise, or as chosen), their magnitudes, each learner's centre, spread,
//! mean rank and confidence interval (at alpha / k) are computed for every learner and pair.
//!
//! Differences from autorank, all documented on the fields: learners are listed best first
//! (autorank 1.3 lists its table worst first when `order = "descending"`); effect sizes are
//! given for every pair, not only against the first and the previous row; the Wilcoxon test
//! uses the crate's exact distribution with ties (scipy's default falls back to the normal
//! approximation there); the Nemenyi and Tukey quantiles are computed exactly (autorank uses
//! statsmodels' `qsturng` table interpolation, within about 1e-3).

use serde::{Deserialize, Serialize};

use crate::across::anova::{repeated_measures_anova, tukey_hsd, TukeyHsd};
use crate::across::effect_size::{effect_size, median, EffectSize, EffectSizeKind};
use crate::across::friedman::{
    check_scores, friedman_test, nemenyi_critical_difference, rank_rows_descending,
};
use crate::across::normality::{bartlett, levene, shapiro_wilk, TestResult};
use crate::corrections::cliques::{cliques, Clique};
use crate::distributions::normal_quantile;
use crate::error::{check_alpha, StatsError};
use crate::paired::ttest::{paired_t_test, t_critical_value};
use crate::paired::wilcoxon::{wilcoxon_signed_rank, WilcoxonMethod, ZeroMethod};
use crate::summary::{mean, sample_variance};

/// Forces the parametric or the non-parametric branch (autorank's `force_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Force {
    /// t-test / repeated-measures ANOVA with Tukey's HSD.
    Parametric,
    /// Wilcoxon / Friedman with Nemenyi.
    Nonparametric,
}

/// Settings of [`autorank`]; `Default`: alpha 0.05, higher is better, automatic effect size and
/// branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AutoRankOptions {
    /// Family-wise significance level.
    pub alpha: f64,
    /// True when larger values are better (autorank's `order = "descending"`).
    pub higher_is_better: bool,
    /// Effect size to report; `None` chooses as autorank.
    pub effect_size: Option<EffectSizeKind>,
    /// Forces a branch; `None` chooses from the normality and variance tests.
    pub force: Option<Force>,
}

impl Default for AutoRankOptions {
    fn default() -> Self {
        Self {
            alpha: 0.05,
            higher_is_better: true,
            effect_size: None,
            force: None,
        }
    }
}

/// The omnibus test chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Omnibus {
    /// Paired t-test (two learners, two-sided).
    PairedTTest,
    /// Wilcoxon signed-rank test (two learners, one-sided: the learner with the larger median
    /// greater than the other). The one-sided p-value is half the two-sided one when the rank
    /// sums lean that way, else 1 minus that half (approximate for the exact distribution).
    Wilcoxon,
    /// Repeated-measures ANOVA (more than two learners).
    RepeatedMeasuresAnova,
    /// Friedman's test (more than two learners).
    Friedman,
}

/// The post-hoc procedure chosen (none for two learners).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PostHoc {
    /// Tukey's HSD: intervals that do not overlap differ.
    TukeyHsd,
    /// Nemenyi: mean ranks that differ by more than the critical difference differ.
    Nemenyi,
}

/// The test of equal variances used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HomogeneityTest {
    /// Bartlett's test (all learners look normal).
    Bartlett,
    /// Levene's test, median-centred (some learner does not look normal).
    Levene,
}

/// What autorank reports of one learner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LearnerSummary {
    /// Learner name.
    pub name: String,
    /// Mean rank over data sets (1 = best).
    pub mean_rank: f64,
    /// Mean (parametric branch) or median.
    pub center: f64,
    /// Standard deviation (ddof 1, parametric branch) or median absolute deviation (unscaled).
    pub spread: f64,
    /// Confidence interval of the centre: t interval at alpha / k (parametric), the order
    /// statistics autorank picks (non-parametric), or mean +- Tukey's half-width (ANOVA).
    pub interval: (f64, f64),
    /// Shapiro-Wilk test of this learner's values.
    pub shapiro: TestResult,
}

/// Everything [`autorank`] decides and computes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AutoRankResult {
    /// Number of data sets (paired samples).
    pub n_datasets: usize,
    /// Family-wise significance level.
    pub alpha: f64,
    /// Level of each Shapiro-Wilk test, alpha / k (Bonferroni).
    pub alpha_normality: f64,
    /// True when no Shapiro-Wilk test rejects at alpha / k.
    pub all_normal: bool,
    /// True when means and standard deviations are reported (parametric branch or forced).
    pub parametric: bool,
    /// Test of equal variances used and its result.
    pub homogeneity_test: HomogeneityTest,
    /// Its statistic and p-value.
    pub homogeneity: TestResult,
    /// True when it does not reject at alpha.
    pub homoscedastic: bool,
    /// The omnibus test.
    pub omnibus: Omnibus,
    /// Its p-value.
    pub omnibus_pvalue: f64,
    /// True when the omnibus p-value is below alpha.
    pub reject: bool,
    /// The post-hoc procedure (more than two learners).
    pub posthoc: Option<PostHoc>,
    /// Nemenyi's critical difference of mean ranks (Friedman branch).
    pub critical_difference: Option<f64>,
    /// Tukey's HSD (ANOVA branch).
    pub tukey: Option<TukeyHsd>,
    /// Effect size reported.
    pub effect_size_kind: EffectSizeKind,
    /// `effect_sizes[i][j]`: learner i against learner j (in the direction of better values:
    /// positive when i is better).
    pub effect_sizes: Vec<Vec<EffectSize>>,
    /// Each learner, in input order.
    pub learners: Vec<LearnerSummary>,
    /// Learner indices best first (by mean rank; by mean in the ANOVA branch).
    pub order: Vec<usize>,
    /// `significant[i][j]`: the post-hoc (or, for two learners, the omnibus) test separates i
    /// and j.
    pub significant: Vec<Vec<bool>>,
    /// Groups of learners not separated, as a CD diagram draws them.
    pub cliques: Vec<Clique>,
}

/// Python's round(): to the nearest integer, halves to even.
fn round_half_even(x: f64) -> f64 {
    let rounded = x.round();
    if (x - x.trunc()).abs() == 0.5 && rounded % 2.0 != 0.0 {
        rounded - x.signum()
    } else {
        rounded
    }
}

/// autorank's confidence interval of one learner's centre at level `alpha` (already / k).
fn interval(values: &[f64], alpha: f64, parametric: bool) -> Result<(f64, f64), StatsError> {
    let n = values.len() as f64;
    if parametric {
        let half = (sample_variance(values) / n).sqrt() * t_critical_value(alpha, n - 1.0)?;
        let m = mean(values);
        return Ok((m - half, m + half));
    }
    let z = normal_quantile(1.0 - alpha / 2.0);
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let low = (n / 2.0 - z * (n / 2.0).sqrt()).max(0.0);
    let high = (1.0 + n / 2.0 + z * (n / 2.0).sqrt()).min(n - 1.0);
    let index = |x: f64| (round_half_even(x) as usize).min(sorted.len() - 1);
    Ok((sorted[index(low)], sorted[index(high)]))
}

/// Unscaled median absolute deviation (scipy `median_abs_deviation` default).
fn mad(values: &[f64]) -> f64 {
    let m = median(values);
    median(&values.iter().map(|v| (v - m).abs()).collect::<Vec<_>>())
}

/// Runs autorank's frequentist analysis on `scores[dataset][learner]` (at least 5 data sets,
/// as autorank requires, and 2 learners).
///
/// Errors: fewer than 5 data sets or 2 learners -> `TooFew`; ragged rows, a name count other
/// than the column count -> `LengthMismatch`; NaN/inf -> `NonFinite`; alpha outside (0, 1) ->
/// `OutOfRange`; a test undefined on the data (e.g. every learner constant) -> `Undefined`.
pub fn autorank<R: AsRef<[f64]>, S: AsRef<str>>(
    scores: &[R],
    names: &[S],
    options: &AutoRankOptions,
) -> Result<AutoRankResult, StatsError> {
    let (n, k) = check_inputs(scores, names.len(), options.alpha)?;
    let alpha = options.alpha;
    let columns: Vec<Vec<f64>> = (0..k)
        .map(|j| scores.iter().map(|r| r.as_ref()[j]).collect())
        .collect();
    let alpha_normality = alpha / k as f64;
    let shapiro: Vec<TestResult> = columns
        .iter()
        .map(|c| shapiro_wilk(c))
        .collect::<Result<_, _>>()?;
    let all_normal = shapiro.iter().all(|t| t.pvalue >= alpha_normality);
    let (homogeneity_test, homogeneity) = if all_normal {
        (HomogeneityTest::Bartlett, bartlett(&columns)?)
    } else {
        (HomogeneityTest::Levene, levene(&columns)?)
    };
    let homoscedastic = homogeneity.pvalue >= alpha;
    let forced_parametric = options.force == Some(Force::Parametric);
    let parametric_tests =
        forced_parametric || (options.force.is_none() && all_normal && (k == 2 || homoscedastic));
    let goodness: Vec<Vec<f64>> = scores
        .iter()
        .map(|r| {
            r.as_ref()
                .iter()
                .map(|&v| if options.higher_is_better { v } else { -v })
                .collect()
        })
        .collect();
    let ranks = rank_rows_descending(&goodness);
    let mean_ranks: Vec<f64> = (0..k)
        .map(|j| ranks.iter().map(|r| r[j]).sum::<f64>() / n as f64)
        .collect();
    let (omnibus, omnibus_pvalue, posthoc, critical_difference, tukey) =
        omnibus_and_posthoc(&columns, &goodness, parametric_tests, alpha)?;
    // autorank reports means when the parametric branch runs (its ANOVA branch passes
    // all_normal = true), or when forced, or when all look normal.
    let parametric = forced_parametric
        || omnibus == Omnibus::RepeatedMeasuresAnova
        || (options.force.is_none() && all_normal);
    let effect_size_kind =
        options
            .effect_size
            .unwrap_or(if omnibus == Omnibus::RepeatedMeasuresAnova || all_normal {
                EffectSizeKind::CohenD
            } else {
                EffectSizeKind::AkinshinGamma
            });
    let effect_sizes = pairwise_effect_sizes(effect_size_kind, &goodness)?;
    let learners = summarise_learners(
        &columns,
        names,
        &mean_ranks,
        &shapiro,
        tukey.as_ref(),
        alpha_normality,
        parametric,
    )?;
    let order = learner_order(&learners, &mean_ranks, omnibus, options.higher_is_better);
    let significant = separations(
        k,
        omnibus_pvalue,
        alpha,
        &mean_ranks,
        critical_difference,
        tukey.as_ref(),
    );
    let rank_keys: Vec<f64> = (0..k)
        .map(|j| order.iter().position(|&o| o == j).unwrap_or(j) as f64)
        .collect();
    let cliques = cliques(&rank_keys, &significant)?;
    Ok(AutoRankResult {
        n_datasets: n,
        alpha,
        alpha_normality,
        all_normal,
        parametric,
        homogeneity_test,
        homogeneity,
        homoscedastic,
        omnibus,
        reject: omnibus_pvalue < alpha,
        omnibus_pvalue,
        posthoc,
        critical_difference,
        tukey,
        effect_size_kind,
        effect_sizes,
        learners,
        order,
        significant,
        cliques,
    })
}

/// `[i][j]`: the effect size of learner i against learner j on the oriented values.
fn pairwise_effect_sizes(
    kind: EffectSizeKind,
    goodness: &[Vec<f64>],
) -> Result<Vec<Vec<EffectSize>>, StatsError> {
    let k = goodness.first().map_or(0, Vec::len);
    let oriented: Vec<Vec<f64>> = (0..k)
        .map(|j| goodness.iter().map(|r| r[j]).collect())
        .collect();
    oriented
        .iter()
        .map(|a| oriented.iter().map(|b| effect_size(kind, a, b)).collect())
        .collect()
}

/// Validates autorank's inputs; returns (data sets, learners).
fn check_inputs<R: AsRef<[f64]>>(
    scores: &[R],
    names: usize,
    alpha: f64,
) -> Result<(usize, usize), StatsError> {
    check_alpha(alpha)?;
    let (n, k) = check_scores(scores)?;
    if n < 5 {
        return Err(StatsError::TooFew {
            name: "data sets (autorank needs 5)",
            got: n,
            needed: 5,
        });
    }
    if names != k {
        return Err(StatsError::LengthMismatch {
            first: "learner names",
            first_len: names,
            second: "columns of scores",
            second_len: k,
        });
    }
    Ok((n, k))
}

/// Each learner's centre, spread, mean rank and interval as autorank reports them.
fn summarise_learners<S: AsRef<str>>(
    columns: &[Vec<f64>],
    names: &[S],
    mean_ranks: &[f64],
    shapiro: &[TestResult],
    tukey: Option<&TukeyHsd>,
    alpha_normality: f64,
    parametric: bool,
) -> Result<Vec<LearnerSummary>, StatsError> {
    columns
        .iter()
        .enumerate()
        .map(|(j, column)| {
            let interval = match tukey {
                Some(t) => (mean(column) - t.half_width, mean(column) + t.half_width),
                None => interval(column, alpha_normality, parametric)?,
            };
            Ok(LearnerSummary {
                name: names[j].as_ref().to_string(),
                mean_rank: mean_ranks[j],
                center: if parametric {
                    mean(column)
                } else {
                    median(column)
                },
                spread: if parametric {
                    sample_variance(column).sqrt()
                } else {
                    mad(column)
                },
                interval,
                shapiro: shapiro[j],
            })
        })
        .collect()
}

type Branch = (Omnibus, f64, Option<PostHoc>, Option<f64>, Option<TukeyHsd>);

/// The omnibus test and post-hoc of the chosen branch.
fn omnibus_and_posthoc(
    columns: &[Vec<f64>],
    goodness: &[Vec<f64>],
    parametric: bool,
    alpha: f64,
) -> Result<Branch, StatsError> {
    let k = columns.len();
    let n = goodness.len();
    if k == 2 {
        // autorank compares the column with the larger median against the other (raw values).
        let (larger, smaller) = if median(&columns[1]) > median(&columns[0]) {
            (1, 0)
        } else {
            (0, 1)
        };
        if parametric {
            let t = paired_t_test(&columns[larger], &columns[smaller], alpha)?;
            return Ok((Omnibus::PairedTTest, t.pvalue, None, None, None));
        }
        let w = wilcoxon_signed_rank(
            &columns[larger],
            &columns[smaller],
            ZeroMethod::Wilcox,
            false,
            WilcoxonMethod::Auto,
            alpha,
        )?;
        let one_sided = if w.r_plus >= w.r_minus {
            w.pvalue / 2.0
        } else {
            1.0 - w.pvalue / 2.0
        };
        return Ok((Omnibus::Wilcoxon, one_sided, None, None, None));
    }
    if parametric {
        let anova = repeated_measures_anova(columns_as_rows(columns).as_slice())?;
        let tukey = tukey_hsd(columns_as_rows(columns).as_slice(), alpha)?;
        return Ok((
            Omnibus::RepeatedMeasuresAnova,
            anova.pvalue,
            Some(PostHoc::TukeyHsd),
            None,
            Some(tukey),
        ));
    }
    let friedman = friedman_test(goodness, alpha)?;
    let cd = nemenyi_critical_difference(k, n, alpha)?;
    Ok((
        Omnibus::Friedman,
        friedman.pvalue,
        Some(PostHoc::Nemenyi),
        Some(cd),
        None,
    ))
}

fn columns_as_rows(columns: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = columns[0].len();
    (0..n)
        .map(|i| columns.iter().map(|c| c[i]).collect())
        .collect()
}

/// Best first: by mean rank, or by mean (in the better direction) in the ANOVA branch.
fn learner_order(
    learners: &[LearnerSummary],
    mean_ranks: &[f64],
    omnibus: Omnibus,
    higher_is_better: bool,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..learners.len()).collect();
    if omnibus == Omnibus::RepeatedMeasuresAnova {
        let sign = if higher_is_better { -1.0 } else { 1.0 };
        order.sort_by(|&a, &b| (sign * learners[a].center).total_cmp(&(sign * learners[b].center)));
    } else {
        order.sort_by(|&a, &b| mean_ranks[a].total_cmp(&mean_ranks[b]));
    }
    order
}

/// Which pairs the chosen procedure separates.
fn separations(
    k: usize,
    omnibus_pvalue: f64,
    alpha: f64,
    mean_ranks: &[f64],
    cd: Option<f64>,
    tukey: Option<&TukeyHsd>,
) -> Vec<Vec<bool>> {
    let mut significant = vec![vec![false; k]; k];
    let pairs = crate::corrections::adjust::pair_list(k);
    for (index, &(i, j)) in pairs.iter().enumerate() {
        let separated = if let Some(t) = tukey {
            t.pvalues[index] < alpha
        } else if let Some(cd) = cd {
            (mean_ranks[i] - mean_ranks[j]).abs() > cd
        } else {
            omnibus_pvalue < alpha
        };
        significant[i][j] = separated;
        significant[j][i] = separated;
    }
    significant
}

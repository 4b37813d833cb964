//! Paired t-test (the "k-fold cv paired t test" of Aslan et al.) and the Nadeau & Bengio
//! corrected resampled t-test (Weka's "Paired T-Tester (corrected)").

use crate::distributions::{student_t_two_sided_pvalue, student_t_upper_quantile};
use crate::error::{check_alpha, check_finite, check_same_length, StatsError};
use crate::intervals::proportion::Interval;
use crate::summary::{mean, sample_variance};

/// Result of a paired or corrected resampled t-test on differences d = a - b.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TTestResult {
    /// t statistic (positive when a is larger on average); see the degenerate-input policy.
    #[serde(serialize_with = "crate::json::float")]
    pub statistic: f64,
    /// Degrees of freedom, k - 1.
    pub df: f64,
    /// Two-sided p-value.
    pub pvalue: f64,
    /// Mean of the differences a - b.
    pub mean_difference: f64,
    /// Sample variance (ddof = 1) of the differences, before any correction.
    pub variance_difference: f64,
    /// Variance used for the mean: var/k (paired) or (1/k + n_test/n_train) var (corrected).
    pub variance_of_mean: f64,
    /// Two-sided critical value t_{alpha/2, k-1}.
    pub critical_value: f64,
    /// Confidence interval of the mean difference at level 1 - alpha.
    pub confidence_interval: Interval,
    /// Significance level used for the decision.
    pub alpha: f64,
    /// True when p <= alpha (the mean difference is declared non-zero).
    pub reject: bool,
}

/// Two-sided critical value t with P(|T_df| > t) = alpha.
pub fn t_critical_value(alpha: f64, df: f64) -> Result<f64, StatsError> {
    check_alpha(alpha)?;
    if !(df.is_finite() && df > 0.0) {
        return Err(StatsError::OutOfRange {
            name: "df",
            value: df,
            allowed: "finite and > 0",
        });
    }
    Ok(student_t_upper_quantile(alpha / 2.0, df))
}

/// Paired t-test of a against b: t = sqrt(k) mean(d) / sd(d) with k - 1 df (scipy `ttest_rel`).
///
/// Degenerate input: fewer than 2 pairs -> `TooFew`; NaN/inf -> `NonFinite`; zero variance
/// of the differences -> t = +-inf and p = 0 when the mean is non-zero, and t = 0, p = 1
/// when every difference is zero (Weka's convention; IEEE arithmetic would give NaN).
pub fn paired_t_test(a: &[f64], b: &[f64], alpha: f64) -> Result<TTestResult, StatsError> {
    let differences = paired_differences(a, b)?;
    t_test_on_differences(&differences, 1.0 / differences.len() as f64, alpha)
}

/// Nadeau & Bengio corrected resampled t-test: t = mean(d) / sqrt((1/k + n_test/n_train) var(d)),
/// k - 1 df, as in Weka's Experimenter. `n_train`/`n_test` are the sizes of one training and
/// one test set. Same degenerate-input policy as [`paired_t_test`].
pub fn corrected_resampled_t_test(
    a: &[f64],
    b: &[f64],
    n_train: f64,
    n_test: f64,
    alpha: f64,
) -> Result<TTestResult, StatsError> {
    if !(n_train.is_finite() && n_train > 0.0) {
        return Err(StatsError::OutOfRange {
            name: "n_train",
            value: n_train,
            allowed: "finite and > 0",
        });
    }
    if !(n_test.is_finite() && n_test > 0.0) {
        return Err(StatsError::OutOfRange {
            name: "n_test",
            value: n_test,
            allowed: "finite and > 0",
        });
    }
    let differences = paired_differences(a, b)?;
    let factor = 1.0 / differences.len() as f64 + n_test / n_train;
    t_test_on_differences(&differences, factor, alpha)
}

/// Checks the paired inputs and returns d = a - b.
pub(crate) fn paired_differences(a: &[f64], b: &[f64]) -> Result<Vec<f64>, StatsError> {
    check_same_length("a", a, "b", b)?;
    check_finite("a", a)?;
    check_finite("b", b)?;
    let differences: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    // Two finite values can differ by more than f64 holds (1e308 - -1e308).
    check_finite("a - b", &differences)?;
    Ok(differences)
}

/// t-test of mean(d) = 0 with Var(mean) = factor * var(d).
fn t_test_on_differences(
    differences: &[f64],
    factor: f64,
    alpha: f64,
) -> Result<TTestResult, StatsError> {
    check_alpha(alpha)?;
    let k = differences.len();
    if k < 2 {
        return Err(StatsError::TooFew {
            name: "pairs",
            got: k,
            needed: 2,
        });
    }
    let mean_difference = mean(differences);
    let variance_difference = sample_variance(differences);
    if !(mean_difference.is_finite() && variance_difference.is_finite()) {
        return Err(StatsError::Undefined {
            test: "t-test",
            reason: "the differences are so large that their mean or variance overflows f64 \
                     (beyond about 1.8e308)",
        });
    }
    let variance_of_mean = factor * variance_difference;
    let df = (k - 1) as f64;
    let (statistic, pvalue) = if variance_of_mean > 0.0 {
        let t = mean_difference / variance_of_mean.sqrt();
        (t, student_t_two_sided_pvalue(t, df))
    } else if mean_difference == 0.0 {
        (0.0, 1.0)
    } else {
        (f64::INFINITY.copysign(mean_difference), 0.0)
    };
    let critical_value = student_t_upper_quantile(alpha / 2.0, df);
    let half_width = critical_value * variance_of_mean.sqrt();
    Ok(TTestResult {
        statistic,
        df,
        pvalue,
        mean_difference,
        variance_difference,
        variance_of_mean,
        critical_value,
        confidence_interval: Interval {
            low: mean_difference - half_width,
            high: mean_difference + half_width,
        },
        alpha,
        reject: pvalue <= alpha,
    })
}

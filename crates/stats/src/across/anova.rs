//! Repeated-measures ANOVA over a data sets x learners table and Tukey's HSD (as autorank 1.3
//! runs them: statsmodels' `AnovaRM` for the omnibus test and `MultiComparison.tukeyhsd` on
//! the stacked values, i.e. the learners as independent groups), with the studentized range
//! distribution for finite degrees of freedom.

use serde::Serialize;

use crate::across::friedman::check_scores;
use crate::distributions::{f_sf, ln_gamma, studentized_range_sf};
use crate::error::{check_alpha, StatsError};

/// P(Q > q) of the studentized range of k means with `df` degrees of freedom:
/// the infinite-df survival function integrated over s = sqrt(chi2_df / df).
/// `df` = infinity gives [`studentized_range_sf`].
pub fn studentized_range_sf_df(q: f64, k: usize, df: f64) -> f64 {
    if q.is_nan() || k < 2 || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if df.is_infinite() || df > 1e6 {
        return studentized_range_sf(q, k);
    }
    if q <= 0.0 {
        return 1.0;
    }
    let log_norm = std::f64::consts::LN_2 + 0.5 * df * (0.5 * df).ln() - ln_gamma(0.5 * df);
    let density = |s: f64| -> f64 {
        if s <= 0.0 {
            return 0.0;
        }
        (log_norm + (df - 1.0) * s.ln() - 0.5 * df * s * s).exp()
    };
    let spread = 1.0 / (2.0 * df).sqrt();
    // s = sqrt(chi2_df / df) has mean about 1 and sd about 1 / sqrt(2 df); its right tail is
    // longer for small df.
    let low = (1.0 - 9.0 * spread).max(0.0);
    let high = 1.0 + 10.0 * spread + if df < 10.0 { 20.0 / df } else { 0.0 };
    let panels = 8;
    let width = (high - low) / panels as f64;
    // 8-point Gauss-Legendre per panel.
    const NODES: [f64; 4] = [
        0.183_434_642_495_649_8,
        0.525_532_409_916_329,
        0.796_666_477_413_626_7,
        0.960_289_856_497_536_3,
    ];
    const WEIGHTS: [f64; 4] = [
        0.362_683_783_378_362,
        0.313_706_645_877_887_3,
        0.222_381_034_453_374_5,
        0.101_228_536_290_376_3,
    ];
    let mut total = 0.0;
    for panel in 0..panels {
        let center = low + (panel as f64 + 0.5) * width;
        for (node, weight) in NODES.iter().zip(WEIGHTS) {
            for s in [center - 0.5 * width * node, center + 0.5 * width * node] {
                total += weight * 0.5 * width * density(s) * studentized_range_sf(q * s, k);
            }
        }
    }
    total.clamp(0.0, 1.0)
}

/// The q with P(Q > q) = upper_tail for k means and `df` degrees of freedom (Illinois
/// regula falsi on [`studentized_range_sf_df`]); NaN for arguments out of range.
pub fn studentized_range_quantile_df(upper_tail: f64, k: usize, df: f64) -> f64 {
    if !(upper_tail > 0.0 && upper_tail < 1.0) || k < 2 || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    let f = |q: f64| studentized_range_sf_df(q, k, df) - upper_tail;
    let (mut low, mut high) = (0.0_f64, 2.0_f64);
    let (mut f_low, mut f_high) = (1.0 - upper_tail, f(high));
    while f_high > 0.0 {
        low = high;
        f_low = f_high;
        high *= 2.0;
        if high > 1e6 {
            return f64::NAN;
        }
        f_high = f(high);
    }
    let mut side = 0i8;
    for _ in 0..100 {
        let mut mid = (low * f_high - high * f_low) / (f_high - f_low);
        if !(mid > low && mid < high) {
            mid = 0.5 * (low + high);
        }
        let f_mid = f(mid);
        if f_mid.abs() <= 1e-13 * upper_tail || high - low <= 1e-12 * high {
            return mid;
        }
        if f_mid > 0.0 {
            low = mid;
            f_low = f_mid;
            if side == -1 {
                f_high *= 0.5;
            }
            side = -1;
        } else {
            high = mid;
            f_high = f_mid;
            if side == 1 {
                f_low *= 0.5;
            }
            side = 1;
        }
    }
    0.5 * (low + high)
}

/// Repeated-measures ANOVA of learners (within factor) over data sets (subjects).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepeatedMeasuresAnova {
    /// F = MS(learners) / MS(error).
    #[serde(serialize_with = "crate::json::float")]
    pub statistic: f64,
    /// Degrees of freedom (k - 1, (n - 1)(k - 1)).
    pub df: (f64, f64),
    /// Upper-tail F p-value.
    pub pvalue: f64,
}

/// Repeated-measures ANOVA on `scores[dataset][learner]` (statsmodels `AnovaRM`). A residual
/// sum of squares of 0 gives F = inf (p = 0) when the learners' means differ, F = 0 (p = 1)
/// otherwise. Errors as [`crate::across::friedman::friedman_test`].
pub fn repeated_measures_anova<R: AsRef<[f64]>>(
    scores: &[R],
) -> Result<RepeatedMeasuresAnova, StatsError> {
    let (n, k) = check_scores(scores)?;
    let (nf, kf) = (n as f64, k as f64);
    let grand = scores.iter().flat_map(|r| r.as_ref().iter()).sum::<f64>() / (nf * kf);
    let column_means: Vec<f64> = (0..k)
        .map(|j| scores.iter().map(|r| r.as_ref()[j]).sum::<f64>() / nf)
        .collect();
    let row_means: Vec<f64> = scores
        .iter()
        .map(|r| r.as_ref().iter().sum::<f64>() / kf)
        .collect();
    let mut residual = 0.0;
    for (row, row_mean) in scores.iter().zip(&row_means) {
        for (value, column_mean) in row.as_ref().iter().zip(&column_means) {
            let e = value - row_mean - column_mean + grand;
            residual += e * e;
        }
    }
    let treatment: f64 = column_means.iter().map(|m| nf * (m - grand).powi(2)).sum();
    let df = (kf - 1.0, (nf - 1.0) * (kf - 1.0));
    let statistic = if residual > 0.0 {
        (treatment / df.0) / (residual / df.1)
    } else if treatment > 0.0 {
        f64::INFINITY
    } else {
        0.0
    };
    Ok(RepeatedMeasuresAnova {
        statistic,
        df,
        pvalue: if statistic == 0.0 {
            1.0
        } else {
            f_sf(statistic, df.0, df.1)
        },
    })
}

/// Tukey's HSD on the learners' columns as independent groups of n values each.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TukeyHsd {
    /// Pooled within-learner variance (mean square error), df k(n - 1).
    pub mean_square_error: f64,
    /// Its degrees of freedom, k(n - 1).
    pub df: f64,
    /// The studentized range quantile q_(1-alpha)(k, df).
    pub q_critical: f64,
    /// Half-width of each learner's simultaneous interval for its mean, q sqrt(MSE / n) / 2
    /// (statsmodels' `simultaneous_ci` for equal group sizes): two intervals fail to overlap
    /// exactly when the pair differs significantly.
    pub half_width: f64,
    /// Pairwise p-values P(Q > |m_i - m_j| / sqrt(MSE / n)), pairs in
    /// [`crate::corrections::adjust::pair_list`] order.
    pub pvalues: Vec<f64>,
    /// Significance level.
    pub alpha: f64,
}

/// Tukey's HSD on `scores[dataset][learner]` at alpha. Errors as
/// [`repeated_measures_anova`], and alpha outside (0, 1) -> `OutOfRange`.
pub fn tukey_hsd<R: AsRef<[f64]>>(scores: &[R], alpha: f64) -> Result<TukeyHsd, StatsError> {
    check_alpha(alpha)?;
    let (n, k) = check_scores(scores)?;
    let nf = n as f64;
    let means: Vec<f64> = (0..k)
        .map(|j| scores.iter().map(|r| r.as_ref()[j]).sum::<f64>() / nf)
        .collect();
    let within: f64 = (0..k)
        .map(|j| {
            scores
                .iter()
                .map(|r| (r.as_ref()[j] - means[j]).powi(2))
                .sum::<f64>()
        })
        .sum();
    let df = k as f64 * (nf - 1.0);
    let mean_square_error = within / df;
    let q_critical = studentized_range_quantile_df(alpha, k, df);
    let scale = (mean_square_error / nf).sqrt();
    let pvalues = crate::corrections::adjust::pair_list(k)
        .iter()
        .map(|&(i, j)| {
            let difference = (means[i] - means[j]).abs();
            if scale > 0.0 {
                studentized_range_sf_df(difference / scale, k, df)
            } else if difference > 0.0 {
                0.0
            } else {
                1.0
            }
        })
        .collect();
    Ok(TukeyHsd {
        mean_square_error,
        df,
        q_critical,
        half_width: q_critical * scale / 2.0,
        pvalues,
        alpha,
    })
}

//! Clopper-Pearson ("exact") binomial proportion interval, from quantiles of the beta
//! distribution found by bisection on the regularized incomplete beta function.

use crate::distributions::regularized_beta;
use crate::error::{check_alpha, StatsError};
use crate::intervals::proportion::{check_counts, Interval};

/// The x in [0, 1] with I_x(a, b) = p, by bisection to the last representable digit.
pub fn beta_quantile(p: f64, a: f64, b: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let (mut low, mut high) = (0.0_f64, 1.0_f64);
    for _ in 0..2000 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if regularized_beta(a, b, middle, 1.0 - middle) < p {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// Clopper-Pearson interval of level 1 - alpha for `count` successes out of `nobs`:
/// [Beta(alpha/2; count, nobs - count + 1), Beta(1 - alpha/2; count + 1, nobs - count)], with
/// 0 below when count = 0 and 1 above when count = nobs (statsmodels
/// `proportion_confint(method='beta')`). Counts may be non-integer (weighted).
/// `nobs` must be finite and > 0, `count` in [0, nobs], alpha in (0, 1).
pub fn clopper_pearson_interval(count: f64, nobs: f64, alpha: f64) -> Result<Interval, StatsError> {
    check_counts(count, nobs)?;
    check_alpha(alpha)?;
    let low = if count == 0.0 {
        0.0
    } else {
        beta_quantile(alpha / 2.0, count, nobs - count + 1.0)
    };
    let high = if count == nobs {
        1.0
    } else {
        beta_quantile(1.0 - alpha / 2.0, count + 1.0, nobs - count)
    };
    Ok(Interval { low, high })
}

//! Binomial proportion confidence intervals (normal approximation and Wilson).

use crate::distributions;
use crate::error::{check_alpha, StatsError};

/// A two-sided confidence interval [low, high].
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Interval {
    /// Lower limit.
    pub low: f64,
    /// Upper limit.
    pub high: f64,
}

/// Inverse standard normal CDF: the z with Phi(z) = p (NaN outside [0, 1], -inf/inf at 0/1).
pub fn normal_quantile(p: f64) -> f64 {
    distributions::normal_quantile(p)
}

pub(crate) fn check_counts(count: f64, nobs: f64) -> Result<(), StatsError> {
    if !(nobs.is_finite() && nobs > 0.0) {
        return Err(StatsError::OutOfRange {
            name: "nobs",
            value: nobs,
            allowed: "finite and > 0",
        });
    }
    if !(count.is_finite() && (0.0..=nobs).contains(&count)) {
        return Err(StatsError::OutOfRange {
            name: "count",
            value: count,
            allowed: "finite and in [0, nobs]",
        });
    }
    Ok(())
}

/// Wald interval p +- z sqrt(p(1-p)/n) with z = Phi^-1(1 - alpha/2), clipped to [0, 1]
/// (statsmodels `proportion_confint(method='normal')`).
pub fn normal_interval(count: f64, nobs: f64, alpha: f64) -> Result<Interval, StatsError> {
    check_counts(count, nobs)?;
    check_alpha(alpha)?;
    let p = count / nobs;
    let z = -normal_quantile(alpha / 2.0);
    let half = z * (p * (1.0 - p) / nobs).sqrt();
    Ok(Interval {
        low: (p - half).clamp(0.0, 1.0),
        high: (p + half).clamp(0.0, 1.0),
    })
}

/// Wilson score interval without continuity correction, clipped to [0, 1]
/// (statsmodels `proportion_confint(method='wilson')`).
pub fn wilson_interval(count: f64, nobs: f64, alpha: f64) -> Result<Interval, StatsError> {
    check_counts(count, nobs)?;
    check_alpha(alpha)?;
    let p = count / nobs;
    let z = -normal_quantile(alpha / 2.0);
    let z2 = z * z;
    let denominator = 1.0 + z2 / nobs;
    let center = (p + z2 / (2.0 * nobs)) / denominator;
    let half = z * (p * (1.0 - p) / nobs + z2 / (4.0 * nobs * nobs)).sqrt() / denominator;
    Ok(Interval {
        low: (center - half).clamp(0.0, 1.0),
        high: (center + half).clamp(0.0, 1.0),
    })
}

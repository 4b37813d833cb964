//! The two-sided safe t-test for paired differences (Grünwald, de Heide & Koolen; `safestats`'
//! `safeTTestStat` with `parameter = delta_min`, `alternative = "twoSided"`): after n
//! differences with t statistic t, e = [f(t; n-1, sqrt(n) delta_min) + f(t; n-1, -sqrt(n)
//! delta_min)] / (2 f(t; n-1, 0)), f the noncentral t density. The odd terms of the two
//! densities' series cancel, which leaves e = exp(-ncp^2 / 2) 1F1((n-1+1)/2; 1/2; z) with
//! z = ncp^2 t^2 / (2 (n - 1 + t^2)), every term positive; it is computed so, in log space.
//!
//! e is a ratio of densities of the t statistic, a maximal invariant under rescaling, so the
//! sequence e_2, e_3, ... is a test martingale under the null (mean 0, normal differences of
//! any variance) in the filtration of the t statistics (Pérez-Ortiz, Lardy, de Heide &
//! Grünwald 2024): by Ville's inequality, P(some e_n >= 1/alpha) <= alpha, whenever one stops.

use crate::error::{check_finite, StatsError};
use crate::sequential::noncentral_t::log_hypergeometric_1f1;

/// The log e-value of the two-sided safe t-test from a t statistic's t^2 / (df + t^2) (in
/// [0, 1]; 1 for an infinite t), the number of differences `n` >= 2 and `delta_min`.
pub fn safe_t_log_e_value_from_ratio(ratio: f64, n: usize, delta_min: f64) -> f64 {
    let df = (n - 1) as f64;
    let ncp_squared = n as f64 * delta_min * delta_min;
    let z = ncp_squared * ratio / 2.0;
    -ncp_squared / 2.0 + log_hypergeometric_1f1((df + 1.0) / 2.0, 0.5, z)
}

/// The log e-value of the two-sided safe t-test at a finite or infinite t statistic of `n`
/// differences.
pub fn safe_t_log_e_value_from_t(t: f64, n: usize, delta_min: f64) -> f64 {
    let ratio = if t.is_infinite() {
        1.0
    } else {
        t * t / ((n - 1) as f64 + t * t)
    };
    safe_t_log_e_value_from_ratio(ratio, n, delta_min)
}

/// The log e-value of the two-sided safe t-test on paired `differences` (at least 2, finite)
/// with the standardised effect size `delta_min` > 0 of the alternative. All-equal differences
/// give t = 0 when they are zero and an infinite t otherwise (the e-value's bounded limit).
pub fn safe_t_log_e_value(differences: &[f64], delta_min: f64) -> Result<f64, StatsError> {
    check_finite("differences", differences)?;
    check_delta_min(delta_min)?;
    if differences.len() < 2 {
        return Err(StatsError::TooFew {
            name: "differences",
            got: differences.len(),
            needed: 2,
        });
    }
    Ok(safe_t_log_e_value_from_ratio(
        t_ratio(differences),
        differences.len(),
        delta_min,
    ))
}

/// Checks that the effect size of the alternative is finite and positive.
pub(crate) fn check_delta_min(delta_min: f64) -> Result<(), StatsError> {
    if delta_min > 0.0 && delta_min.is_finite() {
        Ok(())
    } else {
        Err(StatsError::OutOfRange {
            name: "delta_min",
            value: delta_min,
            allowed: "a finite number greater than 0",
        })
    }
}

/// t^2 / (n - 1 + t^2) of the one-sample t statistic of `values` (n >= 2), computed as
/// n mean^2 / (n mean^2 + (n - 1) s^2) so that zero variance needs no division by zero: 0 when
/// every value is 0, 1 when the values are equal but not 0.
pub(crate) fn t_ratio(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let squares: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
    let numerator = n * mean * mean;
    if numerator == 0.0 {
        return 0.0;
    }
    numerator / (numerator + squares)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequential::noncentral_t::{central_t_log_density, noncentral_t_log_density};

    /// The 1F1 form equals the formula through the densities (both signs of ncp).
    #[test]
    fn the_hypergeometric_form_is_the_density_ratio() {
        for (t, n, delta) in [(2.1, 5, 0.5), (-3.0, 12, 1.0), (0.4, 30, 0.3)] {
            let df = (n - 1) as f64;
            let ncp = (n as f64).sqrt() * delta;
            let plus = noncentral_t_log_density(t, df, ncp).exp();
            let minus = noncentral_t_log_density(t, df, -ncp).exp();
            let formula = (plus + minus) / (2.0 * central_t_log_density(t, df).exp());
            let ours = safe_t_log_e_value_from_t(t, n, delta).exp();
            assert!((ours / formula - 1.0).abs() < 1e-10, "{ours} {formula}");
        }
    }

    #[test]
    fn zero_differences_give_t_zero() {
        let got = safe_t_log_e_value(&[0.0, 0.0, 0.0], 1.0).unwrap();
        assert!((got - (-1.5)).abs() < 1e-15, "{got}");
    }
}

//! Checks of the assumptions of parametric tests, as autorank 1.3 makes them: the Shapiro-Wilk
//! test of normality (Royston's 1995 algorithm AS R94, as scipy's `shapiro`), and Bartlett's
//! and Levene's (median-centred, Brown-Forsythe; scipy's default) tests of equal variances.

use serde::Serialize;

use crate::across::effect_size::median;
use crate::distributions::{chi_square_sf, f_sf, normal_quantile, normal_sf};
use crate::error::{check_finite, StatsError};

/// A test statistic and its p-value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TestResult {
    /// The statistic (W for Shapiro-Wilk, T for Bartlett, F for Levene).
    #[serde(serialize_with = "crate::json::float")]
    pub statistic: f64,
    /// Its p-value.
    pub pvalue: f64,
}

/// Evaluates c[0] + c[1] x + c[2] x^2 + ...
fn polynomial(coefficients: &[f64], x: f64) -> f64 {
    coefficients.iter().rev().fold(0.0, |sum, c| sum * x + c)
}

/// Royston's coefficients a_1..a_n (ascending order statistics; antisymmetric).
fn shapiro_coefficients(n: usize) -> Vec<f64> {
    if n == 3 {
        let a = std::f64::consts::FRAC_1_SQRT_2;
        return vec![-a, 0.0, a];
    }
    let nf = n as f64;
    let m: Vec<f64> = (1..=n)
        .map(|i| normal_quantile((i as f64 - 0.375) / (nf + 0.25)))
        .collect();
    let sum_squares: f64 = m.iter().map(|v| v * v).sum();
    let u = 1.0 / nf.sqrt();
    let last = m[n - 1] / sum_squares.sqrt()
        + polynomial(
            &[0.0, 0.221157, -0.147981, -2.071190, 4.434685, -2.706056],
            u,
        );
    let mut a = vec![0.0; n];
    let (phi, fixed) = if n > 5 {
        let second = m[n - 2] / sum_squares.sqrt()
            + polynomial(
                &[0.0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633],
                u,
            );
        a[n - 2] = second;
        a[1] = -second;
        let phi = (sum_squares - 2.0 * m[n - 1].powi(2) - 2.0 * m[n - 2].powi(2))
            / (1.0 - 2.0 * last * last - 2.0 * second * second);
        (phi, 2)
    } else {
        let phi = (sum_squares - 2.0 * m[n - 1].powi(2)) / (1.0 - 2.0 * last * last);
        (phi, 1)
    };
    a[n - 1] = last;
    a[0] = -last;
    for i in fixed..n - fixed {
        a[i] = m[i] / phi.sqrt();
    }
    a
}

/// Shapiro-Wilk test of normality (scipy `shapiro`): W and Royston's p-value. A sample with
/// all values equal gives W = 1, p = 1.
///
/// Errors: fewer than 3 values -> `TooFew`; NaN/inf -> `NonFinite`.
pub fn shapiro_wilk(values: &[f64]) -> Result<TestResult, StatsError> {
    let n = values.len();
    if n < 3 {
        return Err(StatsError::TooFew {
            name: "values (Shapiro-Wilk)",
            got: n,
            needed: 3,
        });
    }
    check_finite("values", values)?;
    let mut x = values.to_vec();
    x.sort_by(f64::total_cmp);
    if x[n - 1] == x[0] {
        return Ok(TestResult {
            statistic: 1.0,
            pvalue: 1.0,
        });
    }
    let mean = x.iter().sum::<f64>() / n as f64;
    let ssq: f64 = x.iter().map(|v| (v - mean).powi(2)).sum();
    let a = shapiro_coefficients(n);
    let numerator: f64 = a.iter().zip(&x).map(|(a, x)| a * x).sum::<f64>().powi(2);
    let w = (numerator / ssq).min(1.0);
    Ok(TestResult {
        statistic: w,
        pvalue: shapiro_pvalue(w, n),
    })
}

/// Royston's (1995) p-value of W for sample size n.
fn shapiro_pvalue(w: f64, n: usize) -> f64 {
    let nf = n as f64;
    if n == 3 {
        let p = 6.0 / std::f64::consts::PI * (w.sqrt().asin() - (0.75f64).sqrt().asin());
        return p.clamp(0.0, 1.0);
    }
    let y = (1.0 - w).ln();
    let z = if n <= 11 {
        let gamma = polynomial(&[-2.273, 0.459], nf);
        let m = polynomial(&[0.5440, -0.39978, 0.025054, -6.714e-4], nf);
        let s = polynomial(&[1.3822, -0.77857, 0.062767, -0.0020322], nf).exp();
        if -y >= gamma {
            return 1e-99;
        }
        (-(gamma - y).ln() - m) / s
    } else {
        let x = nf.ln();
        let m = polynomial(&[-1.5861, -0.31082, -0.083751, 0.0038915], x);
        let s = polynomial(&[-0.4803, -0.082676, 0.0030302], x).exp();
        (y - m) / s
    };
    normal_sf(z)
}

fn check_groups(groups: &[Vec<f64>]) -> Result<(), StatsError> {
    if groups.len() < 2 {
        return Err(StatsError::TooFew {
            name: "groups",
            got: groups.len(),
            needed: 2,
        });
    }
    for group in groups {
        if group.len() < 2 {
            return Err(StatsError::TooFew {
                name: "values in a group",
                got: group.len(),
                needed: 2,
            });
        }
        check_finite("group values", group)?;
    }
    Ok(())
}

/// Bartlett's test of equal variances (scipy `bartlett`). Groups all of zero variance ->
/// `Undefined`; some of zero variance -> statistic inf, p = 0.
pub fn bartlett(groups: &[Vec<f64>]) -> Result<TestResult, StatsError> {
    check_groups(groups)?;
    let k = groups.len() as f64;
    let sizes: Vec<f64> = groups.iter().map(|g| g.len() as f64).collect();
    let total: f64 = sizes.iter().sum();
    let variances: Vec<f64> = groups
        .iter()
        .map(|g| crate::summary::sample_variance(g))
        .collect();
    let pooled = sizes
        .iter()
        .zip(&variances)
        .map(|(n, v)| (n - 1.0) * v)
        .sum::<f64>()
        / (total - k);
    if pooled == 0.0 {
        return Err(StatsError::Undefined {
            test: "Bartlett test",
            reason: "every group has zero variance",
        });
    }
    if variances.contains(&0.0) {
        return Ok(TestResult {
            statistic: f64::INFINITY,
            pvalue: 0.0,
        });
    }
    let numerator = (total - k) * pooled.ln()
        - sizes
            .iter()
            .zip(&variances)
            .map(|(n, v)| (n - 1.0) * v.ln())
            .sum::<f64>();
    let correction = 1.0
        + (sizes.iter().map(|n| 1.0 / (n - 1.0)).sum::<f64>() - 1.0 / (total - k))
            / (3.0 * (k - 1.0));
    let statistic = numerator / correction;
    Ok(TestResult {
        statistic,
        pvalue: chi_square_sf(statistic, k - 1.0),
    })
}

/// Levene's test of equal variances centred on the medians (Brown-Forsythe; scipy `levene`'s
/// default). No spread around the medians at all -> `Undefined`.
pub fn levene(groups: &[Vec<f64>]) -> Result<TestResult, StatsError> {
    check_groups(groups)?;
    let k = groups.len() as f64;
    let deviations: Vec<Vec<f64>> = groups
        .iter()
        .map(|g| {
            let m = median(g);
            g.iter().map(|v| (v - m).abs()).collect()
        })
        .collect();
    let total: f64 = groups.iter().map(|g| g.len() as f64).sum();
    let means: Vec<f64> = deviations
        .iter()
        .map(|d| d.iter().sum::<f64>() / d.len() as f64)
        .collect();
    let grand = deviations.iter().flatten().sum::<f64>() / total;
    let between: f64 = deviations
        .iter()
        .zip(&means)
        .map(|(d, m)| d.len() as f64 * (m - grand).powi(2))
        .sum();
    let within: f64 = deviations
        .iter()
        .zip(&means)
        .map(|(d, m)| d.iter().map(|v| (v - m).powi(2)).sum::<f64>())
        .sum();
    if within == 0.0 {
        return Err(StatsError::Undefined {
            test: "Levene test",
            reason: "no spread of the absolute deviations within the groups",
        });
    }
    let statistic = (total - k) / (k - 1.0) * between / within;
    Ok(TestResult {
        statistic,
        pvalue: f_sf(statistic, k - 1.0, total - k),
    })
}

//! McNemar's test for two classifiers on the same test set (statsmodels `mcnemar`).

use crate::distributions::{binomial_half_two_sided_pvalue, chi_square_sf};
use crate::error::{check_alpha, StatsError};

/// A statistic with its p-value.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct StatisticPvalue {
    /// Test statistic.
    pub statistic: f64,
    /// p-value (two-sided for the exact test, upper tail for chi-square).
    pub pvalue: f64,
}

/// Result of McNemar's test on the discordant counts b and c.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct McNemarResult {
    /// Discordant count b = table[0][1] (first right, second wrong, or as the caller defines).
    pub b: u64,
    /// Discordant count c = table[1][0].
    pub c: u64,
    /// Exact binomial test: statistic min(b, c), p = min(1, 2 P(X <= min(b, c))), X ~ Bin(b + c, 1/2).
    pub exact: StatisticPvalue,
    /// Chi-square with continuity correction (|b - c| - 1)^2 / (b + c), 1 df; `None` when b + c = 0.
    pub chi_square_corrected: Option<StatisticPvalue>,
    /// Chi-square without correction (b - c)^2 / (b + c), 1 df; `None` when b + c = 0.
    pub chi_square: Option<StatisticPvalue>,
    /// Significance level used for the decision.
    pub alpha: f64,
    /// True when the exact p-value <= alpha.
    pub reject: bool,
}

/// McNemar's test from the 2x2 table [[n00, n01], [n10, n11]] (b = n01, c = n10).
///
/// Degenerate input: b + c = 0 -> exact p = 1 and no chi-square results (0/0). When b == c the
/// corrected statistic is 1/(b + c), not clamped at 0 (statsmodels, R).
pub fn mcnemar_test(table: [[u64; 2]; 2], alpha: f64) -> Result<McNemarResult, StatsError> {
    check_alpha(alpha)?;
    let (b, c) = (table[0][1], table[1][0]);
    let n = crate::paired::sign_test::untied_count(b, c)?;
    let exact = StatisticPvalue {
        statistic: b.min(c) as f64,
        pvalue: binomial_half_two_sided_pvalue(b.min(c), n),
    };
    let (chi_square_corrected, chi_square) = if n == 0 {
        (None, None)
    } else {
        let (bf, cf, nf) = (b as f64, c as f64, n as f64);
        let corrected = ((bf - cf).abs() - 1.0).powi(2) / nf;
        let plain = (bf - cf).powi(2) / nf;
        (
            Some(StatisticPvalue {
                statistic: corrected,
                pvalue: chi_square_sf(corrected, 1.0),
            }),
            Some(StatisticPvalue {
                statistic: plain,
                pvalue: chi_square_sf(plain, 1.0),
            }),
        )
    };
    Ok(McNemarResult {
        b,
        c,
        reject: exact.pvalue <= alpha,
        exact,
        chi_square_corrected,
        chi_square,
        alpha,
    })
}

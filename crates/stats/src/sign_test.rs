//! Sign test (exact binomial, ties dropped), its table of critical values, and win/tie/loss counts.

use crate::distributions::{binomial_half_cdf, binomial_half_two_sided_pvalue};
use crate::error::{check_alpha, check_finite, check_same_length, StatsError};

/// Win/tie/loss count of a pair of learners over data sets (a wins when a > b).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct WinTieLoss {
    /// Number of data sets where a > b.
    pub wins: u64,
    /// Number of data sets where a == b (exactly).
    pub ties: u64,
    /// Number of data sets where a < b.
    pub losses: u64,
}

/// Result of a sign test.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SignTestResult {
    /// Wins of the first learner.
    pub wins: u64,
    /// Losses of the first learner.
    pub losses: u64,
    /// Ties (dropped from the test).
    pub ties: u64,
    /// Number of untied comparisons, wins + losses.
    pub n: u64,
    /// Two-sided exact p-value min(1, 2 P(X <= min(wins, losses))), X ~ Bin(n, 1/2).
    pub pvalue: f64,
    /// Significance level used for the decision.
    pub alpha: f64,
    /// True when p <= alpha.
    pub reject: bool,
}

/// Counts wins (a > b), ties (a == b exactly) and losses (a < b). NaN -> `NonFinite`.
pub fn win_tie_loss(a: &[f64], b: &[f64]) -> Result<WinTieLoss, StatsError> {
    check_same_length("a", a, "b", b)?;
    check_finite("a", a)?;
    check_finite("b", b)?;
    let mut count = WinTieLoss {
        wins: 0,
        ties: 0,
        losses: 0,
    };
    for (x, y) in a.iter().zip(b) {
        if x > y {
            count.wins += 1;
        } else if x < y {
            count.losses += 1;
        } else {
            count.ties += 1;
        }
    }
    Ok(count)
}

/// Exact two-sided sign test (scipy `binomtest(wins, wins + losses, 0.5)`); ties are dropped.
/// With no untied comparison (wins = losses = 0) the p-value is 1.
pub fn sign_test(
    wins: u64,
    losses: u64,
    ties: u64,
    alpha: f64,
) -> Result<SignTestResult, StatsError> {
    check_alpha(alpha)?;
    let n = wins + losses;
    let pvalue = binomial_half_two_sided_pvalue(wins, n);
    Ok(SignTestResult {
        wins,
        losses,
        ties,
        n,
        pvalue,
        alpha,
        reject: pvalue <= alpha,
    })
}

/// Largest number of losses c out of `n` untied comparisons that is still significant at
/// two-sided level `alpha` (2 P(X <= c) <= alpha, X ~ Bin(n, 1/2)); `None` when no outcome is
/// significant (e.g. n = 5 at 0.05). The minimal number of wins is n - c.
pub fn sign_test_max_losses(n: u64, alpha: f64) -> Result<Option<u64>, StatsError> {
    check_alpha(alpha)?;
    let mut best = None;
    for c in 0..=n / 2 {
        if 2.0 * binomial_half_cdf(c, n) <= alpha {
            best = Some(c);
        } else {
            break;
        }
    }
    Ok(best)
}

/// Smallest number of wins out of `n` untied comparisons that is significant at two-sided level
/// `alpha` (n minus [`sign_test_max_losses`]); `None` when no outcome is significant.
pub fn sign_test_min_wins(n: u64, alpha: f64) -> Result<Option<u64>, StatsError> {
    Ok(sign_test_max_losses(n, alpha)?.map(|losses| n - losses))
}

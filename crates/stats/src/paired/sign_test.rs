//! Sign test (ties dropped), one- and two-tailed, exact binomial or by the normal approximation,
//! its table of critical values, and win/tie/loss counts (the evaluation slides' "Sign Test").

use crate::distributions::{
    binomial_half_cdf, binomial_half_two_sided_pvalue, normal_cdf, normal_sf,
};
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
    /// The p-value: for [`sign_test`] the two-sided exact min(1, 2 P(X <= min(wins, losses))),
    /// X ~ Bin(n, 1/2); for [`sign_test_with`] that of its alternative and method.
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
    sign_test_with(
        wins,
        losses,
        ties,
        alpha,
        SignAlternative::TwoSided,
        SignMethod::Exact,
    )
}

/// Largest number of losses c out of `n` untied comparisons that is still significant at
/// two-sided level `alpha` (2 P(X <= c) <= alpha, X ~ Bin(n, 1/2)); `None` when no outcome is
/// significant (e.g. n = 5 at 0.05). The minimal number of wins is n - c.
pub fn sign_test_max_losses(n: u64, alpha: f64) -> Result<Option<u64>, StatsError> {
    sign_test_critical_losses(n, alpha, Tails::Two)
}

/// Smallest number of wins out of `n` untied comparisons that is significant at two-sided level
/// `alpha` (n minus [`sign_test_max_losses`]); `None` when no outcome is significant.
pub fn sign_test_min_wins(n: u64, alpha: f64) -> Result<Option<u64>, StatsError> {
    Ok(sign_test_max_losses(n, alpha)?.map(|losses| n - losses))
}

/// Which outcomes speak against "both learners are equal" in a sign test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignAlternative {
    /// Either learner better (two-tailed): many wins or many losses.
    TwoSided,
    /// The first learner better (one-tailed): many wins, P(X >= wins).
    FirstBetter,
    /// The second learner better (one-tailed): few wins, P(X <= wins).
    SecondBetter,
}

/// How a sign test's p-value is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignMethod {
    /// The exact binomial distribution Bin(n, 1/2).
    Exact,
    /// The normal approximation N(n/2, n/4) "for large N", with or without the continuity
    /// correction of 1/2.
    Normal {
        /// Move the count 1/2 towards the mean before standardising.
        continuity_correction: bool,
    },
}

/// Sign test with a chosen alternative and method (scipy `binomtest(wins, wins + losses, 0.5,
/// alternative)` for the exact test); ties are dropped. The two-sided normal p-value is twice
/// the smaller one-sided one, at most 1. With no untied comparison the p-value is 1.
pub fn sign_test_with(
    wins: u64,
    losses: u64,
    ties: u64,
    alpha: f64,
    alternative: SignAlternative,
    method: SignMethod,
) -> Result<SignTestResult, StatsError> {
    check_alpha(alpha)?;
    let n = untied_count(wins, losses)?;
    // P(X >= wins) and P(X <= wins), X ~ Bin(n, 1/2)
    let (upper, lower) = if n == 0 {
        (1.0, 1.0)
    } else {
        match method {
            SignMethod::Exact => (binomial_half_cdf(losses, n), binomial_half_cdf(wins, n)),
            SignMethod::Normal {
                continuity_correction,
            } => {
                let correction = if continuity_correction { 0.5 } else { 0.0 };
                let (mean, sd) = (n as f64 / 2.0, (n as f64).sqrt() / 2.0);
                (
                    normal_sf((wins as f64 - correction - mean) / sd),
                    normal_cdf((wins as f64 + correction - mean) / sd),
                )
            }
        }
    };
    let pvalue = match alternative {
        SignAlternative::FirstBetter => upper,
        SignAlternative::SecondBetter => lower,
        SignAlternative::TwoSided => match method {
            SignMethod::Exact => binomial_half_two_sided_pvalue(wins, n),
            SignMethod::Normal { .. } => (2.0 * upper.min(lower)).min(1.0),
        },
    };
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

/// Tails of a critical-value table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tails {
    /// One-tailed: P(X <= c) <= alpha.
    One,
    /// Two-tailed: 2 P(X <= c) <= alpha.
    Two,
}

/// Largest number of losses c out of `n` untied comparisons that is still significant at level
/// `alpha` with the given tails (exact binomial); `None` when no outcome is. Two tails give the
/// slides' table of critical frequencies (e.g. N = 20: 3 at 1%, 5 at 5%).
pub fn sign_test_critical_losses(
    n: u64,
    alpha: f64,
    tails: Tails,
) -> Result<Option<u64>, StatsError> {
    check_alpha(alpha)?;
    untied_count(n, 0)?;
    let factor = match tails {
        Tails::One => 1.0,
        Tails::Two => 2.0,
    };
    let significant = |c: u64| factor * binomial_half_cdf(c, n) <= alpha;
    if !significant(0) {
        return Ok(None);
    }
    // P(X <= c) grows with c: the largest significant c by bisection, `low` always significant.
    let (mut low, mut high) = (0, n / 2);
    while low < high {
        let middle = low + (high - low).div_ceil(2);
        if significant(middle) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    Ok(Some(low))
}

/// The most untied comparisons (wins + losses, or McNemar's b + c) the exact binomial tests
/// accept: their sums take time in proportion to the count.
pub const MAX_EXACT_COUNT: u64 = 10_000_000;

/// `first + second`, the number of trials of an exact binomial test, if at most
/// [`MAX_EXACT_COUNT`].
pub(crate) fn untied_count(first: u64, second: u64) -> Result<u64, StatsError> {
    match first.checked_add(second) {
        Some(n) if n <= MAX_EXACT_COUNT => Ok(n),
        _ => Err(StatsError::OutOfRange {
            name: "untied count (wins + losses)",
            value: first as f64 + second as f64,
            allowed: "at most 10,000,000 (the exact binomial sums take time in proportion to it)",
        }),
    }
}

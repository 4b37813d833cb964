//! The confidence interval for the AUC of Cortes & Mohri, "Confidence intervals for the area
//! under the ROC curve" (NIPS 17, 2004), from the error count and the class sizes alone.
//!
//! The construction widens the plain interval at the observed error count
//! ([`crate::cortes_mohri_interval`]) for the error rate's own uncertainty, in two steps:
//!
//! 1. an interval [e1, e2] for the error rate at level sqrt(1 - alpha), from the observed rate
//!    e = k/N and the worst-case binomial variance 1/(4N): half-width 1/(2 sqrt(N alpha')) by
//!    Chebyshev's inequality, or z(1 - alpha'/2)/(2 sqrt N) under the normal approximation
//!    that the paper uses for large N, with alpha' = 1 - sqrt(1 - alpha);
//! 2. for every error count k from floor(N e1) to ceil(N e2), the expected AUC E_k and its
//!    standard deviation s_k over all rankings with k errors ([`crate::cortes_mohri_moments`]),
//!    and by Chebyshev's inequality, distribution-free, the interval
//!    [min_k (E_k - s_k / sqrt(alpha)), max_k (E_k + s_k / sqrt(alpha))].
//!
//! The paper's full text was not available to us: the construction is the one two independent
//! public implementations of the paper agree on (a Julia `confidence_interval_cortes` and a
//! Python `ConfidenceIntervalsAUC` class), and the one Aslan, Yildiz & Alpaydin (2009) describe
//! ("a confidence interval for AUC has been derived from the confidence interval of error ...
//! without any assumption on the distribution for AUC. For large values of the sample size,
//! they make a normal distribution assumption for error"). `reference/cortes_mohri_interval.py`
//! recomputes it from the paper's closed forms of E_k and s_k (Corollary 1).

use crate::error::{check_alpha, StatsError};
use crate::intervals::auc::cortes_mohri_moments;
use crate::intervals::proportion::{normal_quantile, Interval};

/// How the interval of the error rate (step 1) is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorRateBound {
    /// Chebyshev's inequality with the worst-case binomial variance: distribution-free, wider.
    Chebyshev,
    /// The normal approximation of the binomial with the worst-case variance (large N).
    Normal,
}

impl ErrorRateBound {
    /// The name used in tables.
    pub fn name(self) -> &'static str {
        match self {
            ErrorRateBound::Chebyshev => "Chebyshev",
            ErrorRateBound::Normal => "normal approximation",
        }
    }
}

/// The Cortes & Mohri (2004) interval and the steps it was built from.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct CortesMohriInterval {
    /// The interval for the AUC, clipped to [0, 1].
    pub auc: Interval,
    /// The interval for the error rate at level sqrt(1 - alpha) (step 1), clipped to [0, 1].
    pub error_rate: Interval,
    /// The smallest and largest error counts the AUC interval ranges over (step 2).
    pub error_counts: (usize, usize),
    /// The expected AUC at the observed error count.
    pub expected_auc: f64,
}

/// The Cortes & Mohri (2004) interval for the AUC at level 1 - `alpha` of a classifier making
/// `errors` errors on `n_pos` positives and `n_neg` negatives (see the module documentation).
///
/// An empty class -> `TooFew`; errors > n_pos + n_neg or alpha outside (0, 1) -> `OutOfRange`.
pub fn cortes_mohri_full_interval(
    n_pos: usize,
    n_neg: usize,
    errors: usize,
    alpha: f64,
    bound: ErrorRateBound,
) -> Result<CortesMohriInterval, StatsError> {
    check_alpha(alpha)?;
    let expected_auc = cortes_mohri_moments(n_pos, n_neg, errors)?.mean;
    let size = (n_pos + n_neg) as f64;
    let split_alpha = 1.0 - (1.0 - alpha).sqrt();
    let half_width = match bound {
        ErrorRateBound::Chebyshev => 1.0 / (2.0 * (size * split_alpha).sqrt()),
        ErrorRateBound::Normal => normal_quantile(1.0 - split_alpha / 2.0) / (2.0 * size.sqrt()),
    };
    let rate = errors as f64 / size;
    let lowest = (errors as f64 - half_width * size).floor().max(0.0) as usize;
    let highest = ((errors as f64 + half_width * size).ceil() as usize).min(n_pos + n_neg);
    let widening = alpha.sqrt();
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for count in lowest..=highest {
        let moments = cortes_mohri_moments(n_pos, n_neg, count)?;
        let deviation = moments.variance.max(0.0).sqrt() / widening;
        low = low.min(moments.mean - deviation);
        high = high.max(moments.mean + deviation);
    }
    Ok(CortesMohriInterval {
        auc: Interval {
            low: low.max(0.0),
            high: high.min(1.0),
        },
        error_rate: Interval {
            low: (rate - half_width).max(0.0),
            high: (rate + half_width).min(1.0),
        },
        error_counts: (lowest, highest),
        expected_auc,
    })
}

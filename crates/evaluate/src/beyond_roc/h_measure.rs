//! Hand's (2009) H-measure: one minus the expected minimum misclassification loss under a
//! Beta(a, b) distribution of the cost c, relative to the loss of the best trivial classifier.
//!
//! With pi0, pi1 the shares of negatives and positives, misclassifying a negative costs c and a
//! positive 1 - c; the loss of ROC point (FPR, TPR) is c pi0 FPR + (1 - c) pi1 (1 - TPR), and
//! the minimum over the ROC convex hull's vertices is taken for each c. With u the Beta(a, b)
//! density: L_H = integral of that minimum against u, L_max = pi0 int_0^pi1 c u + pi1
//! int_pi1^1 (1 - c) u, H = 1 - L_H / L_max. The integrals over each vertex's cost range are
//! closed-form: int_0^x c u = a/(a+b) I_x(a+1, b), int_0^x (1-c) u = b/(a+b) I_x(a, b+1).

use serde::Serialize;

use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;
use crate::roc_curves::hull::roc_convex_hull;
use crate::roc_curves::roc::roc_curve;

/// Parameters of the Beta prior on the cost c.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BetaPrior {
    /// First shape parameter a (> 0).
    pub alpha: f64,
    /// Second shape parameter b (> 0).
    pub beta: f64,
}

impl BetaPrior {
    /// A checked Beta(a, b) prior (finite, > 0).
    pub fn new(alpha: f64, beta: f64) -> Result<Self> {
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(EvaluateError::BadParameter {
                    name,
                    value,
                    allowed: "finite and > 0",
                });
            }
        }
        Ok(BetaPrior { alpha, beta })
    }

    /// Hand's (2009) original Beta(2, 2).
    pub fn hand_2009() -> Self {
        BetaPrior {
            alpha: 2.0,
            beta: 2.0,
        }
    }

    /// Hand & Anagnostopoulos' prior for a severity ratio r (cost of misclassifying a positive
    /// relative to a negative): Beta(2, 1 + 1/r), the R and PyPI `hmeasure` packages' choice;
    /// their default r is the class ratio n1/n0 ([`BetaPrior::class_ratio`]).
    pub fn from_severity_ratio(ratio: f64) -> Result<Self> {
        if !(ratio.is_finite() && ratio > 0.0) {
            return Err(EvaluateError::BadParameter {
                name: "severity_ratio",
                value: ratio,
                allowed: "finite and > 0",
            });
        }
        Self::new(2.0, 1.0 + 1.0 / ratio)
    }

    /// The `hmeasure` packages' default: severity ratio = positives / negatives.
    pub fn class_ratio(positives: f64, negatives: f64) -> Result<Self> {
        Self::from_severity_ratio(positives / negatives)
    }
}

/// The H-measure with its two losses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HMeasure {
    /// H = 1 - loss / max_loss.
    pub h: f64,
    /// Expected minimum loss L_H over the hull.
    pub loss: f64,
    /// Expected loss L_max of the best trivial classifier.
    pub max_loss: f64,
    /// The prior used.
    pub prior: BetaPrior,
}

/// int_0^x c u(c) dc and int_0^x (1 - c) u(c) dc for the Beta(a, b) density u.
fn partial_moments(prior: &BetaPrior, x: f64) -> (f64, f64) {
    let (a, b) = (prior.alpha, prior.beta);
    let y = 1.0 - x;
    (
        a / (a + b) * stats::distributions::regularized_beta(a + 1.0, b, x, y),
        b / (a + b) * stats::distributions::regularized_beta(a, b + 1.0, x, y),
    )
}

/// H-measure of binary scores under `prior` (None: the class-ratio prior of the `hmeasure`
/// packages), O(n log n). Both classes must be present (`SingleClass`).
pub fn h_measure(data: &BinaryScores, prior: Option<BetaPrior>) -> Result<HMeasure> {
    let curve = roc_curve(data)?;
    let (positives, negatives) = (curve.positives(), curve.negatives());
    let prior = match prior {
        Some(p) => p,
        None => BetaPrior::class_ratio(positives, negatives)?,
    };
    let total = positives + negatives;
    let (pi0, pi1) = (negatives / total, positives / total);
    let hull = roc_convex_hull(&curve.fpr_tpr())?;
    let vertices = hull.vertices();
    // cost at which vertex i and i + 1 (increasing FPR) are equally good; decreasing in i
    let boundary = |i: usize| {
        let (d_fpr, d_tpr) = (
            vertices[i + 1].fpr - vertices[i].fpr,
            vertices[i + 1].tpr - vertices[i].tpr,
        );
        pi1 * d_tpr / (pi0 * d_fpr + pi1 * d_tpr)
    };
    let mut loss = 0.0;
    let mut high = 1.0;
    let mut high_moments = partial_moments(&prior, high);
    for (i, vertex) in vertices.iter().enumerate() {
        let low: f64 = if i + 1 < vertices.len() {
            boundary(i).min(high)
        } else {
            0.0
        };
        let low_moments = partial_moments(&prior, low);
        loss += pi0 * vertex.fpr * (high_moments.0 - low_moments.0)
            + pi1 * (1.0 - vertex.tpr) * (high_moments.1 - low_moments.1);
        high = low;
        high_moments = low_moments;
    }
    let (at_pi1, at_one) = (partial_moments(&prior, pi1), partial_moments(&prior, 1.0));
    let max_loss = pi0 * at_pi1.0 + pi1 * (at_one.1 - at_pi1.1);
    Ok(HMeasure {
        h: 1.0 - loss / max_loss,
        loss,
        max_loss,
        prior,
    })
}

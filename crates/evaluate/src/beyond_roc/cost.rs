//! Cost-sensitive evaluation: expected cost, iso-cost lines, cost-minimising thresholds.

use serde::Serialize;
use stats::json::float;

use crate::error::{EvaluateError, Result};
use crate::predictions::{BinaryScores, Predictions};
use crate::roc_curves::roc::roc_curve;

/// Misclassification costs: `cost(actual, predicted)`, zero or positive.
#[derive(Debug, Clone, PartialEq)]
pub struct CostMatrix {
    n_classes: usize,
    costs: Vec<f64>,
}

impl CostMatrix {
    /// Cost matrix from rows `rows[actual][predicted]` (square, finite, >= 0).
    pub fn new(rows: &[Vec<f64>]) -> Result<Self> {
        let n = rows.len();
        if n == 0 {
            return Err(EvaluateError::Empty {
                what: "cost matrix",
            });
        }
        let mut costs = Vec::with_capacity(n * n);
        for row in rows {
            if row.len() != n {
                return Err(EvaluateError::LengthMismatch {
                    what: "cost matrix row",
                    got: row.len(),
                    expected: n,
                });
            }
            for &c in row {
                if !(c.is_finite() && c >= 0.0) {
                    return Err(EvaluateError::BadParameter {
                        name: "cost",
                        value: c,
                        allowed: "finite and >= 0",
                    });
                }
            }
            costs.extend_from_slice(row);
        }
        Ok(CostMatrix {
            n_classes: n,
            costs,
        })
    }

    /// The two-class matrix with class 1 = positive: cost(1 -> 0) = `cost_fn`, cost(0 -> 1) = `cost_fp`.
    pub fn binary(cost_fp: f64, cost_fn: f64) -> Result<Self> {
        Self::new(&[vec![0.0, cost_fp], vec![cost_fn, 0.0]])
    }

    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// Cost of predicting `predicted` for an instance of class `actual`.
    pub fn cost(&self, actual: usize, predicted: usize) -> f64 {
        self.costs[actual * self.n_classes + predicted]
    }

    fn check_classes(&self, n_classes: usize) -> Result<()> {
        if n_classes != self.n_classes {
            return Err(EvaluateError::LengthMismatch {
                what: "cost matrix classes",
                got: self.n_classes,
                expected: n_classes,
            });
        }
        Ok(())
    }

    /// Class minimising the expected cost sum_j score_j cost(j, k) (scores read as probabilities);
    /// ties to the lowest class index.
    pub fn bayes_decision(&self, probabilities: &[f64]) -> usize {
        let mut best = 0;
        let mut best_cost = f64::INFINITY;
        for predicted in 0..self.n_classes {
            let cost: f64 = (0..self.n_classes)
                .map(|actual| probabilities[actual] * self.cost(actual, predicted))
                .sum();
            if cost < best_cost {
                best_cost = cost;
                best = predicted;
            }
        }
        best
    }
}

/// Which prediction a scoring model makes before its cost is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Decision {
    /// The class with the highest score.
    Argmax,
    /// The class of minimal expected cost when the scores are read as probabilities.
    MinimumExpectedCost,
}

/// Average cost per unit of weight of the predictions under a cost matrix.
pub fn expected_cost(
    predictions: &Predictions,
    costs: &CostMatrix,
    decision: Decision,
) -> Result<f64> {
    costs.check_classes(predictions.n_classes())?;
    if predictions.is_empty() {
        return Err(EvaluateError::Empty {
            what: "predictions",
        });
    }
    let predicted = match decision {
        Decision::Argmax => predictions.predicted_classes(),
        Decision::MinimumExpectedCost => (0..predictions.len())
            .map(|i| costs.bayes_decision(predictions.scores_of(i)))
            .collect(),
    };
    let mut total_cost = 0.0;
    let mut total_weight = 0.0;
    for (i, &p) in predicted.iter().enumerate() {
        let w = predictions.weights()[i];
        total_cost += w * costs.cost(predictions.truth()[i], p);
        total_weight += w;
    }
    Ok(total_cost / total_weight)
}

/// Line of equal expected cost in ROC space, tpr = intercept + slope fpr.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct IsoCostLine {
    /// Slope m = c(FP) P(neg) / (c(FN) P(pos)).
    #[serde(serialize_with = "float")]
    pub slope: f64,
    /// TPR at fpr = 0.
    #[serde(serialize_with = "float")]
    pub intercept: f64,
    /// Expected cost per instance of every point on the line.
    #[serde(serialize_with = "float")]
    pub expected_cost: f64,
}

/// The iso-cost line through ROC point (fpr, tpr) for costs and a positive-class prior; the
/// expected cost per instance is P(pos) c(FN) (1 - tpr) + P(neg) c(FP) fpr.
pub fn iso_cost_line(
    fpr: f64,
    tpr: f64,
    cost_fp: f64,
    cost_fn: f64,
    prior_pos: f64,
) -> Result<IsoCostLine> {
    let slope = crate::roc_curves::hull::iso_performance_slope(cost_fp, cost_fn, prior_pos)?;
    Ok(IsoCostLine {
        slope,
        intercept: tpr - slope * fpr,
        expected_cost: prior_pos * cost_fn * (1.0 - tpr) + (1.0 - prior_pos) * cost_fp * fpr,
    })
}

/// A decision threshold chosen to minimise cost on a set of scores.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CostThreshold {
    /// Threshold to apply to new scores ("predict positive iff score >= threshold"): halfway
    /// between the chosen ROC point's score and the next lower distinct score (-inf below the lowest,
    /// +inf for "all negative").
    #[serde(serialize_with = "float")]
    pub threshold: f64,
    /// The ROC point's own threshold (the lowest score still predicted positive).
    #[serde(serialize_with = "float")]
    pub roc_threshold: f64,
    /// Total cost c(FP) FP + c(FN) FN on the scores it was chosen on, divided by their total weight.
    #[serde(serialize_with = "float")]
    pub cost_per_instance: f64,
}

/// The threshold minimising c(FP) FP + c(FN) FN on `data` (e.g. training data); apply it to
/// test data with [`cost_at_threshold`]. Among equal costs the highest threshold is kept.
pub fn min_cost_threshold(
    data: &BinaryScores,
    cost_fp: f64,
    cost_fn: f64,
) -> Result<CostThreshold> {
    CostMatrix::binary(cost_fp, cost_fn)?;
    let curve = roc_curve(data)?;
    let points = curve.points();
    let total = curve.positives() + curve.negatives();
    let mut best = 0;
    let mut best_cost = f64::INFINITY;
    for (i, p) in points.iter().enumerate() {
        let cost = cost_fp * p.false_positives + cost_fn * (curve.positives() - p.true_positives);
        if cost < best_cost {
            best_cost = cost;
            best = i;
        }
    }
    let roc_threshold = points[best].threshold;
    let threshold = if best == 0 {
        f64::INFINITY
    } else if best + 1 < points.len() {
        let (high, low) = (roc_threshold, points[best + 1].threshold);
        let mid = low / 2.0 + high / 2.0;
        if mid.is_finite() && mid > low {
            mid
        } else {
            high
        }
    } else {
        f64::NEG_INFINITY
    };
    Ok(CostThreshold {
        threshold,
        roc_threshold,
        cost_per_instance: best_cost / total,
    })
}

/// Cost per unit weight of "predict positive iff score >= threshold" on `data`.
pub fn cost_at_threshold(
    data: &BinaryScores,
    threshold: f64,
    cost_fp: f64,
    cost_fn: f64,
) -> Result<f64> {
    CostMatrix::binary(cost_fp, cost_fn)?;
    if data.is_empty() {
        return Err(EvaluateError::Empty { what: "scores" });
    }
    let mut cost = 0.0;
    let mut total = 0.0;
    for i in 0..data.len() {
        let w = data.weight(i);
        let positive = data.scores()[i] >= threshold;
        match (data.labels()[i], positive) {
            (false, true) => cost += w * cost_fp,
            (true, false) => cost += w * cost_fn,
            _ => {}
        }
        total += w;
    }
    Ok(cost / total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slides' "Minimizing Cost in Concept Learning" example: calling spam ham costs 1,
    /// calling ham spam costs 99, correct decisions cost nothing, so a mail is classified spam
    /// only when its spam probability is at least 99% (0.01 * 99 <= p * 1).
    #[test]
    fn the_slides_spam_example() {
        // classes: 0 = ham, 1 = spam; costs[actual][predicted]
        let costs = CostMatrix::new(&[vec![0.0, 99.0], vec![1.0, 0.0]]).unwrap();
        assert_eq!(costs.bayes_decision(&[0.005, 0.995]), 1);
        assert_eq!(costs.bayes_decision(&[0.015, 0.985]), 0);
        assert_eq!(costs.bayes_decision(&[0.1, 0.9]), 0);
    }
}

//! Confusion matrix and the measures read off it (with instance weights).

use serde::Serialize;
use stats::json::float;

use crate::error::{EvaluateError, Result};
use crate::predictions::{BinaryScores, Predictions};

/// Weighted multi-class confusion matrix: `counts[actual][predicted]`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfusionMatrix {
    counts: Vec<Vec<f64>>,
}

impl ConfusionMatrix {
    /// Confusion matrix of true and predicted class indices with optional weights.
    pub fn from_labels(
        n_classes: usize,
        actual: &[usize],
        predicted: &[usize],
        weights: Option<&[f64]>,
    ) -> Result<Self> {
        if predicted.len() != actual.len() {
            return Err(EvaluateError::LengthMismatch {
                what: "predicted",
                got: predicted.len(),
                expected: actual.len(),
            });
        }
        if let Some(w) = weights {
            if w.len() != actual.len() {
                return Err(EvaluateError::LengthMismatch {
                    what: "weights",
                    got: w.len(),
                    expected: actual.len(),
                });
            }
        }
        let mut counts = vec![vec![0.0; n_classes]; n_classes];
        for i in 0..actual.len() {
            for class in [actual[i], predicted[i]] {
                if class >= n_classes {
                    return Err(EvaluateError::ClassOutOfRange {
                        index: i,
                        class,
                        n_classes,
                    });
                }
            }
            let w = weights.map_or(1.0, |w| w[i]);
            if !(w.is_finite() && w >= 0.0) {
                return Err(EvaluateError::BadWeight { index: i, value: w });
            }
            counts[actual[i]][predicted[i]] += w;
        }
        Ok(ConfusionMatrix { counts })
    }

    /// Confusion matrix of the argmax predictions (ties to the lowest class index).
    pub fn from_predictions(predictions: &Predictions) -> Self {
        let predicted = predictions.predicted_classes();
        let mut counts = vec![vec![0.0; predictions.n_classes()]; predictions.n_classes()];
        for (i, &p) in predicted.iter().enumerate() {
            counts[predictions.truth()[i]][p] += predictions.weights()[i];
        }
        ConfusionMatrix { counts }
    }

    /// Two-class matrix (class 1 = positive, class 0 = negative) of "predict positive iff score >= threshold".
    pub fn from_threshold(data: &BinaryScores, threshold: f64) -> Self {
        let mut counts = vec![vec![0.0; 2]; 2];
        for i in 0..data.len() {
            let actual = usize::from(data.labels()[i]);
            let predicted = usize::from(data.scores()[i] >= threshold);
            counts[actual][predicted] += data.weight(i);
        }
        ConfusionMatrix { counts }
    }

    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.counts.len()
    }

    /// Weighted count of instances of class `actual` predicted as `predicted`.
    pub fn count(&self, actual: usize, predicted: usize) -> f64 {
        self.counts[actual][predicted]
    }

    /// Total weight.
    pub fn total(&self) -> f64 {
        self.counts.iter().flatten().sum()
    }

    /// Fraction (by weight) classified correctly; NaN for an empty matrix.
    pub fn accuracy(&self) -> f64 {
        let correct: f64 = (0..self.n_classes()).map(|c| self.counts[c][c]).sum();
        correct / self.total()
    }

    /// 1 - accuracy.
    pub fn error_rate(&self) -> f64 {
        1.0 - self.accuracy()
    }

    /// Two-class counts (tp, fp, tn, fn) for the named positive class (one-vs-rest for more classes).
    pub fn binary_counts(&self, positive: usize) -> Result<BinaryCounts> {
        let n = self.n_classes();
        if positive >= n {
            return Err(EvaluateError::ClassOutOfRange {
                index: usize::MAX,
                class: positive,
                n_classes: n,
            });
        }
        let mut c = BinaryCounts::default();
        for actual in 0..n {
            for predicted in 0..n {
                let w = self.counts[actual][predicted];
                match (actual == positive, predicted == positive) {
                    (true, true) => c.true_positives += w,
                    (true, false) => c.false_negatives += w,
                    (false, true) => c.false_positives += w,
                    (false, false) => c.true_negatives += w,
                }
            }
        }
        Ok(c)
    }
}

/// Weighted two-class counts with the rates read off them (NaN where the denominator is 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct BinaryCounts {
    /// Positives predicted positive.
    #[serde(serialize_with = "float")]
    pub true_positives: f64,
    /// Negatives predicted positive.
    #[serde(serialize_with = "float")]
    pub false_positives: f64,
    /// Negatives predicted negative.
    #[serde(serialize_with = "float")]
    pub true_negatives: f64,
    /// Positives predicted negative.
    #[serde(serialize_with = "float")]
    pub false_negatives: f64,
}

impl BinaryCounts {
    /// TP / (TP + FN).
    pub fn true_positive_rate(&self) -> f64 {
        self.true_positives / (self.true_positives + self.false_negatives)
    }
    /// FP / (FP + TN).
    pub fn false_positive_rate(&self) -> f64 {
        self.false_positives / (self.false_positives + self.true_negatives)
    }
    /// TN / (FP + TN).
    pub fn true_negative_rate(&self) -> f64 {
        self.true_negatives / (self.false_positives + self.true_negatives)
    }
    /// FN / (TP + FN).
    pub fn false_negative_rate(&self) -> f64 {
        self.false_negatives / (self.true_positives + self.false_negatives)
    }
    /// TP / (TP + FP).
    pub fn precision(&self) -> f64 {
        self.true_positives / (self.true_positives + self.false_positives)
    }
    /// Same as the true positive rate.
    pub fn recall(&self) -> f64 {
        self.true_positive_rate()
    }
    /// Harmonic mean of precision and recall, 2 TP / (2 TP + FP + FN).
    pub fn f1(&self) -> f64 {
        2.0 * self.true_positives
            / (2.0 * self.true_positives + self.false_positives + self.false_negatives)
    }
    /// (TP + TN) / total.
    pub fn accuracy(&self) -> f64 {
        (self.true_positives + self.true_negatives)
            / (self.true_positives
                + self.true_negatives
                + self.false_positives
                + self.false_negatives)
    }
}

//! Inputs: predictions of one model on one test set.

use crate::error::{EvaluateError, Result};

/// A (score, weight) pair of one instance.
pub(crate) type ScoreWeight = (f64, f64);

/// Two-class scored predictions: per instance a label (true = positive), a score
/// (higher = more positive) and a weight (default 1).
#[derive(Debug, Clone, PartialEq)]
pub struct BinaryScores {
    labels: Vec<bool>,
    scores: Vec<f64>,
    weights: Option<Vec<f64>>,
    decision_threshold: f64,
}

fn check_weights(weights: &[f64], expected: usize) -> Result<()> {
    if weights.len() != expected {
        return Err(EvaluateError::LengthMismatch {
            what: "weights",
            got: weights.len(),
            expected,
        });
    }
    for (index, &value) in weights.iter().enumerate() {
        if !(value.is_finite() && value >= 0.0) {
            return Err(EvaluateError::BadWeight { index, value });
        }
    }
    Ok(())
}

impl BinaryScores {
    /// Unit-weight binary scores from boolean labels (true = positive).
    pub fn new(labels: Vec<bool>, scores: Vec<f64>) -> Result<Self> {
        if labels.len() != scores.len() {
            return Err(EvaluateError::LengthMismatch {
                what: "scores",
                got: scores.len(),
                expected: labels.len(),
            });
        }
        if let Some(index) = scores.iter().position(|s| s.is_nan()) {
            return Err(EvaluateError::NanScore { index, column: 0 });
        }
        Ok(BinaryScores {
            labels,
            scores,
            weights: None,
            decision_threshold: 0.5,
        })
    }

    /// Unit-weight binary scores from 0/1 labels (1 = positive), the form of the shared test vectors.
    pub fn from_01(labels: &[i64], scores: &[f64]) -> Result<Self> {
        let mut bools = Vec::with_capacity(labels.len());
        for (index, &label) in labels.iter().enumerate() {
            match label {
                0 => bools.push(false),
                1 => bools.push(true),
                _ => return Err(EvaluateError::BadLabel { index, label }),
            }
        }
        Self::new(bools, scores.to_vec())
    }

    /// Unit-weight binary scores from separate lists of positive and negative scores.
    pub fn from_groups(positive_scores: &[f64], negative_scores: &[f64]) -> Result<Self> {
        let mut labels = vec![true; positive_scores.len()];
        labels.extend(std::iter::repeat_n(false, negative_scores.len()));
        let mut scores = positive_scores.to_vec();
        scores.extend_from_slice(negative_scores);
        Self::new(labels, scores)
    }

    /// The same scores with instance weights (finite, >= 0, one per instance).
    pub fn with_weights(mut self, weights: Vec<f64>) -> Result<Self> {
        check_weights(&weights, self.labels.len())?;
        self.weights = Some(weights);
        Ok(self)
    }

    /// The same scores with another default decision threshold (predict positive iff
    /// score >= threshold); 0.5 unless set. The ROC curve marks the point it picks.
    pub fn with_decision_threshold(mut self, threshold: f64) -> Result<Self> {
        if threshold.is_nan() {
            return Err(EvaluateError::BadParameter {
                name: "decision_threshold",
                value: threshold,
                allowed: "any number, not NaN",
            });
        }
        self.decision_threshold = threshold;
        Ok(self)
    }

    /// Number of instances.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// True when there is no instance.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Labels, true = positive.
    pub fn labels(&self) -> &[bool] {
        &self.labels
    }

    /// Scores, higher = more positive.
    pub fn scores(&self) -> &[f64] {
        &self.scores
    }

    /// Instance weights, `None` when all are 1.
    pub fn weights(&self) -> Option<&[f64]> {
        self.weights.as_deref()
    }

    /// Weight of instance `index` (1 when unweighted).
    pub fn weight(&self, index: usize) -> f64 {
        self.weights.as_ref().map_or(1.0, |w| w[index])
    }

    /// Default decision threshold (predict positive iff score >= it).
    pub fn decision_threshold(&self) -> f64 {
        self.decision_threshold
    }

    /// Total weight of positives and of negatives.
    pub fn class_totals(&self) -> (f64, f64) {
        let mut pos = 0.0;
        let mut neg = 0.0;
        for i in 0..self.len() {
            if self.labels[i] {
                pos += self.weight(i);
            } else {
                neg += self.weight(i);
            }
        }
        (pos, neg)
    }

    /// (score, weight) of the positives and of the negatives, in input order.
    pub(crate) fn split_weighted(&self) -> (Vec<ScoreWeight>, Vec<ScoreWeight>) {
        let mut pos = Vec::new();
        let mut neg = Vec::new();
        for i in 0..self.len() {
            let item = (self.scores[i], self.weight(i));
            if self.labels[i] {
                pos.push(item);
            } else {
                neg.push(item);
            }
        }
        (pos, neg)
    }

    /// Concatenation of several test sets (e.g. the folds of a cross-validation) into one;
    /// the decision threshold of the first is kept.
    pub fn pooled(parts: &[BinaryScores]) -> Result<Self> {
        let first = parts
            .first()
            .ok_or(EvaluateError::Empty { what: "parts" })?;
        let any_weighted = parts.iter().any(|p| p.weights.is_some());
        let mut labels = Vec::new();
        let mut scores = Vec::new();
        let mut weights = Vec::new();
        for part in parts {
            labels.extend_from_slice(&part.labels);
            scores.extend_from_slice(&part.scores);
            if any_weighted {
                weights.extend((0..part.len()).map(|i| part.weight(i)));
            }
        }
        Ok(BinaryScores {
            labels,
            scores,
            weights: any_weighted.then_some(weights),
            decision_threshold: first.decision_threshold,
        })
    }
}

/// Predictions of one model on one test set: per instance the true class index, a weight
/// and one score per class (probabilities, or any scores where higher = more likely).
#[derive(Debug, Clone, PartialEq)]
pub struct Predictions {
    n_classes: usize,
    truth: Vec<usize>,
    weights: Vec<f64>,
    /// Row-major, `truth.len()` rows of `n_classes` scores.
    scores: Vec<f64>,
}

impl Predictions {
    /// Unit-weight predictions from true classes and one score row per instance.
    pub fn new(n_classes: usize, truth: Vec<usize>, score_rows: &[Vec<f64>]) -> Result<Self> {
        if n_classes == 0 {
            return Err(EvaluateError::BadParameter {
                name: "n_classes",
                value: 0.0,
                allowed: ">= 1",
            });
        }
        if score_rows.len() != truth.len() {
            return Err(EvaluateError::LengthMismatch {
                what: "score rows",
                got: score_rows.len(),
                expected: truth.len(),
            });
        }
        let mut scores = Vec::with_capacity(truth.len() * n_classes);
        for row in score_rows {
            if row.len() != n_classes {
                return Err(EvaluateError::LengthMismatch {
                    what: "score row",
                    got: row.len(),
                    expected: n_classes,
                });
            }
            scores.extend_from_slice(row);
        }
        Self::from_flat(n_classes, truth, scores)
    }

    /// Unit-weight predictions from true classes and a row-major n x c score matrix.
    pub fn from_flat(n_classes: usize, truth: Vec<usize>, scores: Vec<f64>) -> Result<Self> {
        if n_classes == 0 {
            return Err(EvaluateError::BadParameter {
                name: "n_classes",
                value: 0.0,
                allowed: ">= 1",
            });
        }
        if scores.len() != truth.len() * n_classes {
            return Err(EvaluateError::LengthMismatch {
                what: "score matrix",
                got: scores.len(),
                expected: truth.len() * n_classes,
            });
        }
        for (index, &class) in truth.iter().enumerate() {
            if class >= n_classes {
                return Err(EvaluateError::ClassOutOfRange {
                    index,
                    class,
                    n_classes,
                });
            }
        }
        if let Some(position) = scores.iter().position(|s| s.is_nan()) {
            return Err(EvaluateError::NanScore {
                index: position / n_classes,
                column: position % n_classes,
            });
        }
        let weights = vec![1.0; truth.len()];
        Ok(Predictions {
            n_classes,
            truth,
            weights,
            scores,
        })
    }

    /// The same predictions with instance weights (finite, >= 0, one per instance).
    pub fn with_weights(mut self, weights: Vec<f64>) -> Result<Self> {
        check_weights(&weights, self.truth.len())?;
        self.weights = weights;
        Ok(self)
    }

    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// Number of instances.
    pub fn len(&self) -> usize {
        self.truth.len()
    }

    /// True when there is no instance.
    pub fn is_empty(&self) -> bool {
        self.truth.is_empty()
    }

    /// True class index of each instance.
    pub fn truth(&self) -> &[usize] {
        &self.truth
    }

    /// Weight of each instance.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Score row (one score per class) of instance `index`.
    pub fn scores_of(&self, index: usize) -> &[f64] {
        &self.scores[index * self.n_classes..(index + 1) * self.n_classes]
    }

    /// Predicted class of each instance: the argmax of its scores (ties go to the lowest class index).
    pub fn predicted_classes(&self) -> Vec<usize> {
        (0..self.len())
            .map(|i| {
                let row = self.scores_of(i);
                let mut best = 0;
                for (class, &s) in row.iter().enumerate() {
                    if s > row[best] {
                        best = class;
                    }
                }
                best
            })
            .collect()
    }

    /// Total weight of each class.
    pub fn class_weights(&self) -> Vec<f64> {
        let mut totals = vec![0.0; self.n_classes];
        for (&class, &w) in self.truth.iter().zip(&self.weights) {
            totals[class] += w;
        }
        totals
    }

    fn check_class(&self, class: usize) -> Result<()> {
        if class >= self.n_classes {
            return Err(EvaluateError::ClassOutOfRange {
                index: usize::MAX,
                class,
                n_classes: self.n_classes,
            });
        }
        Ok(())
    }

    /// One-vs-rest binary view: label = (truth == positive), score = the positive class's column,
    /// weights carried over.
    pub fn one_vs_rest(&self, positive: usize) -> Result<BinaryScores> {
        self.check_class(positive)?;
        let labels = self.truth.iter().map(|&c| c == positive).collect();
        let scores = (0..self.len())
            .map(|i| self.scores_of(i)[positive])
            .collect();
        BinaryScores::new(labels, scores)?.with_weights(self.weights.clone())
    }

    /// Binary view for a two-class measure with a named positive class (same as
    /// [`Predictions::one_vs_rest`]); with probabilities the default 0.5 threshold is argmax.
    pub fn binary(&self, positive: usize) -> Result<BinaryScores> {
        self.one_vs_rest(positive)
    }

    /// Pairwise view for Hand & Till: only instances of classes `positive` and `negative`,
    /// scored by the `positive` column.
    pub fn pairwise(&self, positive: usize, negative: usize) -> Result<BinaryScores> {
        self.check_class(positive)?;
        self.check_class(negative)?;
        let mut labels = Vec::new();
        let mut scores = Vec::new();
        let mut weights = Vec::new();
        for i in 0..self.len() {
            let class = self.truth[i];
            if class == positive || class == negative {
                labels.push(class == positive);
                scores.push(self.scores_of(i)[positive]);
                weights.push(self.weights[i]);
            }
        }
        BinaryScores::new(labels, scores)?.with_weights(weights)
    }
}

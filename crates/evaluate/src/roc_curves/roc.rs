//! ROC curve of a scoring classifier, AUC (trapezoid = Wilcoxon-Mann-Whitney) and scored AUC.

use serde::Serialize;
use stats::json::float;

use crate::accurate::AccurateSum;
use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;

/// One point of a ROC curve: the classifier "predict positive iff score >= threshold".
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RocPoint {
    /// Decision threshold (+inf for the all-negative point (0, 0)).
    #[serde(serialize_with = "float")]
    pub threshold: f64,
    /// Weighted false positives at this threshold.
    #[serde(rename = "fp", serialize_with = "float")]
    pub false_positives: f64,
    /// Weighted true positives at this threshold.
    #[serde(rename = "tp", serialize_with = "float")]
    pub true_positives: f64,
    /// False positive rate, fp / N.
    #[serde(serialize_with = "float")]
    pub fpr: f64,
    /// True positive rate, tp / P.
    #[serde(serialize_with = "float")]
    pub tpr: f64,
}

/// ROC curve: one point per distinct score in order of decreasing threshold, starting at (0, 0);
/// tied scores form one (possibly diagonal) step (Fawcett 2006).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RocCurve {
    points: Vec<RocPoint>,
    #[serde(serialize_with = "float")]
    positives: f64,
    #[serde(serialize_with = "float")]
    negatives: f64,
    default_point: usize,
}

/// Scores with -0.0 folded into +0.0, so that `total_cmp` order agrees with `==` ties.
#[inline]
fn fold_zero(score: f64) -> f64 {
    score + 0.0
}

/// The scores of each class sorted increasingly (with -0.0 folded into +0.0), with their weights
/// when the data are weighted: one sort of all scores in total, then linear merges.
struct SortedClasses {
    pos: Vec<f64>,
    pos_weights: Option<Vec<f64>>,
    neg: Vec<f64>,
    neg_weights: Option<Vec<f64>>,
}

impl SortedClasses {
    fn new(data: &BinaryScores) -> Self {
        if data.weights().is_none() {
            let mut pos = Vec::new();
            let mut neg = Vec::new();
            for (&label, &score) in data.labels().iter().zip(data.scores()) {
                if label {
                    pos.push(fold_zero(score));
                } else {
                    neg.push(fold_zero(score));
                }
            }
            pos.sort_unstable_by(f64::total_cmp);
            neg.sort_unstable_by(f64::total_cmp);
            return SortedClasses {
                pos,
                pos_weights: None,
                neg,
                neg_weights: None,
            };
        }
        let (mut pos, mut neg) = data.split_weighted();
        for v in pos.iter_mut().chain(neg.iter_mut()) {
            v.0 = fold_zero(v.0);
        }
        pos.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        neg.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let (pos, pos_weights) = pos.into_iter().unzip();
        let (neg, neg_weights) = neg.into_iter().unzip();
        SortedClasses {
            pos,
            pos_weights: Some(pos_weights),
            neg,
            neg_weights: Some(neg_weights),
        }
    }

    /// Total weight of the elements `range` of one class.
    fn weight_of(weights: &Option<Vec<f64>>, range: std::ops::Range<usize>) -> f64 {
        match weights {
            None => range.len() as f64,
            Some(w) => w[range].iter().sum(),
        }
    }

    /// Calls `visit(value, positive weight, negative weight)` for each distinct score, increasing.
    fn for_each_group_ascending(&self, mut visit: impl FnMut(f64, f64, f64)) {
        let (mut i, mut j) = (0usize, 0usize);
        while i < self.pos.len() || j < self.neg.len() {
            let value = match (self.pos.get(i), self.neg.get(j)) {
                (Some(&p), Some(&n)) => p.min(n),
                (Some(&p), None) => p,
                (None, Some(&n)) => n,
                (None, None) => break,
            };
            let (pos_start, neg_start) = (i, j);
            while i < self.pos.len() && self.pos[i] == value {
                i += 1;
            }
            while j < self.neg.len() && self.neg[j] == value {
                j += 1;
            }
            visit(
                value,
                Self::weight_of(&self.pos_weights, pos_start..i),
                Self::weight_of(&self.neg_weights, neg_start..j),
            );
        }
    }

    /// Calls `visit(value, positive weight, negative weight)` for each distinct score, decreasing.
    fn for_each_group_descending(&self, mut visit: impl FnMut(f64, f64, f64)) {
        let (mut i, mut j) = (self.pos.len(), self.neg.len());
        while i > 0 || j > 0 {
            let value = match (i > 0, j > 0) {
                (true, true) => self.pos[i - 1].max(self.neg[j - 1]),
                (true, false) => self.pos[i - 1],
                (false, true) => self.neg[j - 1],
                (false, false) => break,
            };
            let (pos_end, neg_end) = (i, j);
            while i > 0 && self.pos[i - 1] == value {
                i -= 1;
            }
            while j > 0 && self.neg[j - 1] == value {
                j -= 1;
            }
            visit(
                value,
                Self::weight_of(&self.pos_weights, i..pos_end),
                Self::weight_of(&self.neg_weights, j..neg_end),
            );
        }
    }
}

fn check_both_classes(measure: &'static str, n_pos: f64, n_neg: f64) -> Result<()> {
    if n_pos > 0.0 && n_neg > 0.0 {
        Ok(())
    } else {
        Err(EvaluateError::SingleClass {
            measure,
            n_pos,
            n_neg,
        })
    }
}

/// ROC curve of binary scores, O(n log n). The point that the scores' decision threshold
/// (0.5 by default) picks is marked ([`RocCurve::default_point`]).
/// Errors if either class is absent (by weight).
pub fn roc_curve(data: &BinaryScores) -> Result<RocCurve> {
    let (n_pos, n_neg) = data.class_totals();
    check_both_classes("ROC curve", n_pos, n_neg)?;
    let sorted = SortedClasses::new(data);
    let mut points = Vec::with_capacity(data.len() + 1);
    points.push(RocPoint {
        threshold: f64::INFINITY,
        false_positives: 0.0,
        true_positives: 0.0,
        fpr: 0.0,
        tpr: 0.0,
    });
    let (mut tp, mut fp) = (0.0, 0.0);
    sorted.for_each_group_descending(|score, pos_weight, neg_weight| {
        tp += pos_weight;
        fp += neg_weight;
        points.push(RocPoint {
            threshold: score,
            false_positives: fp,
            true_positives: tp,
            fpr: fp / n_neg,
            tpr: tp / n_pos,
        });
    });
    let mut curve = RocCurve {
        points,
        positives: n_pos,
        negatives: n_neg,
        default_point: 0,
    };
    curve.default_point = curve.operating_point(data.decision_threshold());
    Ok(curve)
}

impl RocCurve {
    /// The points, in order of decreasing threshold (increasing fpr and tpr).
    pub fn points(&self) -> &[RocPoint] {
        &self.points
    }

    /// Total positive weight P.
    pub fn positives(&self) -> f64 {
        self.positives
    }

    /// Total negative weight N.
    pub fn negatives(&self) -> f64 {
        self.negatives
    }

    /// Index of the point picked by the default decision threshold of the scores.
    pub fn default_point(&self) -> usize {
        self.default_point
    }

    /// Index of the point of "predict positive iff score >= threshold": the point with the
    /// smallest threshold that is >= `threshold` (the (0, 0) point when none is).
    pub fn operating_point(&self, threshold: f64) -> usize {
        // thresholds decrease along the curve; find the last index with points[i].threshold >= t
        let count = self.points.partition_point(|p| p.threshold >= threshold);
        count.saturating_sub(1)
    }

    /// Area under the curve by the trapezoid rule.
    pub fn area(&self) -> f64 {
        let mut twice_area = AccurateSum::default();
        for pair in self.points.windows(2) {
            let width = pair[1].false_positives - pair[0].false_positives;
            let height = pair[1].true_positives + pair[0].true_positives;
            twice_area.add_product(width, height);
        }
        twice_area.divided_by(2.0 * self.positives * self.negatives)
    }

    /// TPR at a given FPR: the highest TPR among points at exactly that FPR, otherwise linear
    /// interpolation between the neighbouring points (used by vertical averaging).
    pub fn tpr_at_fpr(&self, fpr: f64) -> f64 {
        // number of points with fpr <= target
        let upto = self.points.partition_point(|p| p.fpr <= fpr);
        if upto == 0 {
            return 0.0;
        }
        let left = self.points[upto - 1];
        if left.fpr == fpr || upto == self.points.len() {
            return left.tpr;
        }
        let right = self.points[upto];
        left.tpr + (right.tpr - left.tpr) * (fpr - left.fpr) / (right.fpr - left.fpr)
    }

    /// The (fpr, tpr) pairs of the points.
    pub fn fpr_tpr(&self) -> Vec<(f64, f64)> {
        self.points.iter().map(|p| (p.fpr, p.tpr)).collect()
    }
}

/// Sum over (positive, negative) pairs of w_i w_j [x_i > y_j] + 1/2 w_i w_j [x_i == y_j]
/// (Mann-Whitney U of the positives), with the class totals.
fn mann_whitney(data: &BinaryScores) -> (f64, f64, f64) {
    match data.weights() {
        None => {
            let mut pos = Vec::new();
            let mut neg = Vec::new();
            for (&label, &score) in data.labels().iter().zip(data.scores()) {
                if label {
                    pos.push(fold_zero(score));
                } else {
                    neg.push(fold_zero(score));
                }
            }
            pos.sort_unstable_by(f64::total_cmp);
            neg.sort_unstable_by(f64::total_cmp);
            // twice U as an integer: sum over positives of 2 #(neg < x) + #(neg == x)
            let mut twice_u: u128 = 0;
            let mut below = 0usize;
            let mut i = 0;
            while i < pos.len() {
                let x = pos[i];
                let start = i;
                while i < pos.len() && pos[i] == x {
                    i += 1;
                }
                while below < neg.len() && neg[below] < x {
                    below += 1;
                }
                let mut equal_end = below;
                while equal_end < neg.len() && neg[equal_end] == x {
                    equal_end += 1;
                }
                let group = (i - start) as u128;
                twice_u += group * (2 * below as u128 + (equal_end - below) as u128);
            }
            (twice_u as f64 / 2.0, pos.len() as f64, neg.len() as f64)
        }
        Some(_) => {
            let (mut pos, mut neg) = data.split_weighted();
            for v in pos.iter_mut().chain(neg.iter_mut()) {
                v.0 = fold_zero(v.0);
            }
            pos.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            neg.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            let total_pos: f64 = pos.iter().map(|p| p.1).sum();
            let total_neg: f64 = neg.iter().map(|p| p.1).sum();
            let mut u = AccurateSum::default();
            let mut below_weight = 0.0;
            let mut below = 0usize;
            let mut i = 0;
            while i < pos.len() {
                let x = pos[i].0;
                let mut group = 0.0;
                while i < pos.len() && pos[i].0 == x {
                    group += pos[i].1;
                    i += 1;
                }
                while below < neg.len() && neg[below].0 < x {
                    below_weight += neg[below].1;
                    below += 1;
                }
                let mut equal_weight = 0.0;
                let mut j = below;
                while j < neg.len() && neg[j].0 == x {
                    equal_weight += neg[j].1;
                    j += 1;
                }
                u.add_product(group, below_weight + 0.5 * equal_weight);
            }
            (u.value(), total_pos, total_neg)
        }
    }
}

/// Area under the ROC curve, equal to the Wilcoxon-Mann-Whitney statistic U / (P N) with tied
/// (positive, negative) pairs counted 1/2; O(n log n). Errors if either class is absent.
pub fn auc(data: &BinaryScores) -> Result<f64> {
    let (u, n_pos, n_neg) = mann_whitney(data);
    check_both_classes("AUC", n_pos, n_neg)?;
    Ok(u / (n_pos * n_neg))
}

/// AUC, or NaN when either class is absent (for callers that want to tabulate the undefined case).
pub fn auc_or_nan(data: &BinaryScores) -> f64 {
    auc(data).unwrap_or(f64::NAN)
}

/// Mann-Whitney U of the positives: #(pos > neg) + 1/2 #(pos == neg), weighted by w_i w_j.
pub fn mann_whitney_u(data: &BinaryScores) -> f64 {
    mann_whitney(data).0
}

/// Scored AUC of Wu & Flach (2005) with its two parts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ScoredAuc {
    /// Ordinary AUC (ties 1/2) of the same scores.
    #[serde(serialize_with = "float")]
    pub auc: f64,
    /// sAUC = (1/(P N)) sum_ij (x_i - y_j) I(x_i > y_j).
    #[serde(serialize_with = "float")]
    pub sauc: f64,
    /// R_s+ = (1/(P N)) sum_ij x_i I(x_i > y_j).
    #[serde(serialize_with = "float")]
    pub r_s_plus: f64,
    /// R_s- = (1/(P N)) sum_ij y_j I(x_i > y_j).
    #[serde(serialize_with = "float")]
    pub r_s_minus: f64,
}

/// Scored AUC (Wu & Flach 2005) by one sweep over the sorted scores (their Table 2), O(n log n);
/// tied (positive, negative) pairs add nothing (strict indicator). Pair terms are weighted by
/// w_i w_j and normalised by the total weights. Errors if either class is absent.
pub fn scored_auc(data: &BinaryScores) -> Result<ScoredAuc> {
    let (total_pos, total_neg) = data.class_totals();
    check_both_classes("scored AUC", total_pos, total_neg)?;
    let sorted = SortedClasses::new(data);
    let mut r_plus = AccurateSum::default();
    let mut r_minus = AccurateSum::default();
    let mut difference = AccurateSum::default();
    let mut u = AccurateSum::default();
    let mut neg_below = 0.0; // weight of negatives strictly below the current value
    let mut pos_upto = 0.0; // weight of positives <= the current value
    sorted.for_each_group_ascending(|value, pos_group, neg_group| {
        pos_upto += pos_group;
        let pos_above = total_pos - pos_upto;
        // positives at `value` beat every negative below it
        let plus_weight = pos_group * neg_below;
        // negatives at `value` lose to every positive above it
        let minus_weight = neg_group * pos_above;
        r_plus.add_product(value, plus_weight);
        r_minus.add_product(value, minus_weight);
        difference.add_product(value, plus_weight);
        difference.add_product(-value, minus_weight);
        u.add(plus_weight);
        u.add_product(0.5 * pos_group, neg_group);
        neg_below += neg_group;
    });
    let pairs = total_pos * total_neg;
    Ok(ScoredAuc {
        sauc: difference.divided_by(pairs),
        r_s_plus: r_plus.divided_by(pairs),
        r_s_minus: r_minus.divided_by(pairs),
        auc: u.divided_by(pairs),
    })
}

//! Measures prepared for a fast bootstrap: ranked or reduced once, then O(n) per resample
//! (multiplicities as weights, no sort), each with its exact delete-one jackknife.

use serde::Serialize;
use stats::RankedScores;

use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;

/// A `stats` error as this crate's interval error.
pub(crate) fn stats_error(error: stats::StatsError) -> EvaluateError {
    EvaluateError::Interval(error.to_string())
}

/// Measures with an O(n)-per-resample bootstrap and an exact delete-one jackknife.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum FastMeasure {
    /// AUC (ties 1/2).
    Auc,
    /// Scored AUC of Wu & Flach (2005).
    ScoredAuc,
    /// Error rate of "positive iff score >= decision threshold".
    ErrorRate,
    /// Brier score (scores must be probabilities).
    Brier,
}

/// A measure prepared for fast resampling: the estimate, the jackknife and a per-resample value.
pub(crate) trait Prepared {
    /// The measure on the data.
    fn estimate(&self) -> f64;
    /// Exact delete-one jackknife values per stratum (negatives, then positives).
    fn jackknife(&self) -> Vec<Vec<f64>>;
    /// The measure on the resample with multiplicities `counts`.
    fn value(&self, counts: &[u32]) -> f64;
}

/// A mean over rows of a per-row value (error indicator, squared error).
struct RowMean {
    values: Vec<f64>,
    labels: Vec<bool>,
}

impl Prepared for RowMean {
    fn estimate(&self) -> f64 {
        self.values.iter().sum::<f64>() / self.values.len() as f64
    }

    fn jackknife(&self) -> Vec<Vec<f64>> {
        let sum: f64 = self.values.iter().sum();
        let n = self.values.len() as f64;
        let mut strata = vec![Vec::new(), Vec::new()];
        for (value, &label) in self.values.iter().zip(&self.labels) {
            strata[usize::from(label)].push(if n > 1.0 {
                (sum - value) / (n - 1.0)
            } else {
                *value
            });
        }
        strata.retain(|s| !s.is_empty());
        strata
    }

    fn value(&self, counts: &[u32]) -> f64 {
        let sum: f64 = self
            .values
            .iter()
            .zip(counts)
            .map(|(v, &c)| v * f64::from(c))
            .sum();
        sum / self.values.len() as f64
    }
}

struct RankedAuc {
    ranked: RankedScores,
    estimate: f64,
    jackknife: Vec<Vec<f64>>,
}

impl Prepared for RankedAuc {
    fn estimate(&self) -> f64 {
        self.estimate
    }

    fn jackknife(&self) -> Vec<Vec<f64>> {
        self.jackknife.clone()
    }

    fn value(&self, counts: &[u32]) -> f64 {
        self.ranked.auc_with_counts(counts)
    }
}

pub(crate) fn prepare(data: &BinaryScores, measure: FastMeasure) -> Result<Box<dyn Prepared>> {
    let labels = data.labels().to_vec();
    match measure {
        FastMeasure::Auc => {
            crate::roc_curves::roc::auc(data)?;
            let (estimate, jackknife) =
                stats::auc_jackknife(data.labels(), data.scores()).map_err(stats_error)?;
            let ranked = RankedScores::new(data.labels(), data.scores()).map_err(stats_error)?;
            Ok(Box::new(RankedAuc {
                ranked,
                estimate,
                jackknife,
            }))
        }
        FastMeasure::ScoredAuc => Ok(Box::new(RankedScoredAuc::new(data)?)),
        FastMeasure::ErrorRate => {
            let threshold = data.decision_threshold();
            let values = (0..data.len())
                .map(|i| f64::from(u8::from((data.scores()[i] >= threshold) != labels[i])))
                .collect();
            Ok(Box::new(RowMean { values, labels }))
        }
        FastMeasure::Brier => {
            crate::scores::calibration::check_probabilities("Brier score", data)?;
            let values = (0..data.len())
                .map(|i| (data.scores()[i] - f64::from(u8::from(labels[i]))).powi(2))
                .collect();
            Ok(Box::new(RowMean { values, labels }))
        }
    }
}

/// Scored AUC over scores ranked once.
struct RankedScoredAuc {
    /// Rows by increasing score.
    order: Vec<usize>,
    /// Ends of the groups of tied scores in `order`.
    group_ends: Vec<usize>,
    scores: Vec<f64>,
    labels: Vec<bool>,
    estimate: f64,
    jackknife: Vec<Vec<f64>>,
}

impl RankedScoredAuc {
    fn new(data: &BinaryScores) -> Result<Self> {
        let estimate = crate::roc_curves::roc::scored_auc(data)?.sauc;
        let scores: Vec<f64> = data.scores().iter().map(|s| s + 0.0).collect();
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
        let mut group_ends: Vec<usize> = (1..order.len())
            .filter(|&i| scores[order[i]] != scores[order[i - 1]])
            .collect();
        group_ends.push(order.len());
        let labels = data.labels().to_vec();
        let jackknife = scored_jackknife(&order, &scores, &labels, estimate);
        Ok(RankedScoredAuc {
            order,
            group_ends,
            scores,
            labels,
            estimate,
            jackknife,
        })
    }
}

/// Exact delete-one jackknife of the scored AUC: positive x contributes
/// sum over negatives y < x of (x - y), negative y contributes sum over positives x > y of
/// (x - y); deleting one removes its contribution from the total and one row from its class.
fn scored_jackknife(
    order: &[usize],
    scores: &[f64],
    labels: &[bool],
    estimate: f64,
) -> Vec<Vec<f64>> {
    let mut contribution = vec![0.0; scores.len()];
    let (mut count, mut sum, mut start) = (0.0, 0.0, 0);
    while start < order.len() {
        let value = scores[order[start]];
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&r| scores[r] == value)
                .count();
        for &row in order[start..end].iter().filter(|&&r| labels[r]) {
            contribution[row] = value * count - sum;
        }
        for _ in order[start..end].iter().filter(|&&r| !labels[r]) {
            count += 1.0;
            sum += value;
        }
        start = end;
    }
    let (mut count, mut sum, mut end) = (0.0, 0.0, order.len());
    while end > 0 {
        let value = scores[order[end - 1]];
        let begin = end
            - order[..end]
                .iter()
                .rev()
                .take_while(|&&r| scores[r] == value)
                .count();
        for &row in order[begin..end].iter().filter(|&&r| !labels[r]) {
            contribution[row] = sum - value * count;
        }
        for _ in order[begin..end].iter().filter(|&&r| labels[r]) {
            count += 1.0;
            sum += value;
        }
        end = begin;
    }
    let m = labels.iter().filter(|&&l| l).count() as f64;
    let n = labels.len() as f64 - m;
    let total: f64 = (0..labels.len())
        .filter(|&r| labels[r])
        .map(|r| contribution[r])
        .sum();
    let mut strata = vec![Vec::new(), Vec::new()];
    for row in 0..labels.len() {
        let (own, other) = if labels[row] { (m, n) } else { (n, m) };
        let value = if own > 1.0 {
            (total - contribution[row]) / ((own - 1.0) * other)
        } else {
            estimate
        };
        strata[usize::from(labels[row])].push(value);
    }
    strata.retain(|s| !s.is_empty());
    strata
}

impl Prepared for RankedScoredAuc {
    fn estimate(&self) -> f64 {
        self.estimate
    }

    fn jackknife(&self) -> Vec<Vec<f64>> {
        self.jackknife.clone()
    }

    fn value(&self, counts: &[u32]) -> f64 {
        let (mut total_pos, mut total_neg) = (0.0, 0.0);
        for (&label, &count) in self.labels.iter().zip(counts) {
            if label {
                total_pos += f64::from(count);
            } else {
                total_neg += f64::from(count);
            }
        }
        let (mut difference, mut negatives_below, mut positives_upto) = (0.0, 0.0, 0.0);
        let mut start = 0;
        for &end in &self.group_ends {
            let value = self.scores[self.order[start]];
            let (mut positives, mut negatives) = (0.0, 0.0);
            for &row in &self.order[start..end] {
                if self.labels[row] {
                    positives += f64::from(counts[row]);
                } else {
                    negatives += f64::from(counts[row]);
                }
            }
            positives_upto += positives;
            difference +=
                value * (positives * negatives_below - negatives * (total_pos - positives_upto));
            negatives_below += negatives;
            start = end;
        }
        difference / (total_pos * total_neg)
    }
}

//! Brier score and its decomposition over bins (Murphy 1973), with the two within-bin terms of
//! Stephenson, Coelho & Jolliffe (2008) that make the identity exact:
//!
//! BS = reliability - resolution + uncertainty + within-bin variance - within-bin covariance.
//!
//! Reliability - resolution + uncertainty is the Brier score of the forecasts replaced by their
//! bin means ("the Brier score over the bins"); the within-bin variance
//! (1/W) sum_i w_i (f_i - mean f of its bin)^2 and the within-bin covariance
//! (2/W) sum_i w_i (f_i - mean f of its bin)(o_i - frequency of its bin) are what binning loses.
//! Both are 0 when every bin holds a single forecast value.

use crate::error::{EvaluateError, Result};
use crate::predictions::{BinaryScores, Predictions};
use crate::scores::calibration::{bin_edges, bin_indices, bin_sums, check_probabilities, Binning};

/// Weighted mean squared difference between the probability of the positive class and the
/// outcome (1 positive, 0 negative); scores must be in [0, 1] (`NotProbability`).
pub fn brier_score(data: &BinaryScores) -> Result<f64> {
    check_probabilities("Brier score", data)?;
    let (mut sum, mut total) = (0.0, 0.0);
    for i in 0..data.len() {
        let w = data.weight(i);
        let outcome = f64::from(u8::from(data.labels()[i]));
        sum += w * (data.scores()[i] - outcome).powi(2);
        total += w;
    }
    if total <= 0.0 {
        return Err(EvaluateError::Empty {
            what: "scores (total weight)",
        });
    }
    Ok(sum / total)
}

/// Multi-class Brier score: weighted mean over instances of sum_k (p_k - [class = k])^2
/// (scikit-learn `brier_score_loss` for multi-class labels, not halved); rows in [0, 1].
pub fn multiclass_brier_score(predictions: &Predictions) -> Result<f64> {
    let (mut sum, mut total) = (0.0, 0.0);
    for i in 0..predictions.len() {
        let row = predictions.scores_of(i);
        let mut squares = 0.0;
        for (class, &p) in row.iter().enumerate() {
            if !(0.0..=1.0).contains(&p) {
                return Err(EvaluateError::NotProbability {
                    measure: "Brier score",
                    index: i,
                    column: class,
                    value: p,
                });
            }
            let outcome = f64::from(u8::from(predictions.truth()[i] == class));
            squares += (p - outcome).powi(2);
        }
        sum += predictions.weights()[i] * squares;
        total += predictions.weights()[i];
    }
    if total <= 0.0 {
        return Err(EvaluateError::Empty {
            what: "predictions (total weight)",
        });
    }
    Ok(sum / total)
}

/// Murphy's decomposition of the Brier score over bins, with the exact remainder.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BrierDecomposition {
    /// The Brier score of the forecasts themselves.
    pub brier: f64,
    /// Reliability: sum_k W_k/W (mean forecast_k - frequency_k)^2 (lower is better).
    pub reliability: f64,
    /// Resolution: sum_k W_k/W (frequency_k - base rate)^2 (higher is better).
    pub resolution: f64,
    /// Uncertainty: base rate (1 - base rate).
    pub uncertainty: f64,
    /// reliability - resolution + uncertainty: the Brier score of the bin-mean forecasts.
    pub binned_brier: f64,
    /// (1/W) sum_i w_i (f_i - mean forecast of its bin)^2.
    pub within_bin_variance: f64,
    /// (2/W) sum_i w_i (f_i - mean forecast of its bin)(o_i - frequency of its bin).
    pub within_bin_covariance: f64,
    /// Number of bins.
    pub bins: usize,
    /// Binning.
    pub binning: Binning,
}

/// Brier score decomposition over `bins` bins (as [`crate::calibration()`] cuts them):
/// brier = reliability - resolution + uncertainty + within_bin_variance - within_bin_covariance.
/// O(n) for equal width (plus a sort for equal mass).
pub fn brier_decomposition(
    data: &BinaryScores,
    bins: usize,
    binning: Binning,
) -> Result<BrierDecomposition> {
    let brier = brier_score(data)?;
    if !(1..=1_000_000).contains(&bins) {
        return Err(EvaluateError::BadParameter {
            name: "bins",
            value: bins as f64,
            allowed: "an integer from 1 to 1000000",
        });
    }
    let edges = bin_edges(data, bins, binning)?;
    let indices = bin_indices(data, &edges);
    let sums = bin_sums(data, &indices, bins);
    let total: f64 = sums.iter().map(|s| s.weight).sum();
    let base_rate = sums.iter().map(|s| s.positives).sum::<f64>() / total;
    let (mut reliability, mut resolution) = (0.0, 0.0);
    for sum in sums.iter().filter(|s| s.weight > 0.0) {
        let mean = sum.scores / sum.weight;
        let frequency = sum.positives / sum.weight;
        reliability += sum.weight / total * (mean - frequency).powi(2);
        resolution += sum.weight / total * (frequency - base_rate).powi(2);
    }
    let (mut variance, mut covariance) = (0.0, 0.0);
    for (i, &bin) in indices.iter().enumerate() {
        let sum = &sums[bin];
        let w = data.weight(i);
        if w == 0.0 {
            continue;
        }
        let forecast_deviation = data.scores()[i] - sum.scores / sum.weight;
        let outcome = f64::from(u8::from(data.labels()[i]));
        variance += w * forecast_deviation * forecast_deviation;
        covariance += w * forecast_deviation * (outcome - sum.positives / sum.weight);
    }
    let uncertainty = base_rate * (1.0 - base_rate);
    Ok(BrierDecomposition {
        brier,
        reliability,
        resolution,
        uncertainty,
        binned_brier: reliability - resolution + uncertainty,
        within_bin_variance: variance / total,
        within_bin_covariance: 2.0 * covariance / total,
        bins,
        binning,
    })
}

//! Averaging the ROC curves of k folds: vertical, threshold and pooled (merged) curves.

use serde::Serialize;
use stats::json::float;

use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;
use crate::roc_curves::roc::{roc_curve, RocCurve};

/// Which binomial confidence interval to put around a mean TPR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalMethod {
    /// Wald (normal approximation) interval, clipped to [0, 1].
    Normal,
    /// Wilson score interval.
    Wilson,
}

/// One sample of a vertically averaged ROC curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct VerticalSample {
    /// The fixed false positive rate.
    #[serde(serialize_with = "float")]
    pub fpr: f64,
    /// Mean over the curves of the TPR at that FPR.
    #[serde(serialize_with = "float")]
    pub mean_tpr: f64,
    /// Sample standard deviation (k - 1) of the TPRs.
    #[serde(serialize_with = "float")]
    pub sd_tpr: f64,
    /// Lower limit of the binomial confidence interval of the mean TPR.
    #[serde(serialize_with = "float")]
    pub low: f64,
    /// Upper limit of the binomial confidence interval of the mean TPR.
    #[serde(serialize_with = "float")]
    pub high: f64,
}

fn check_curves(curves: &[RocCurve], samples: usize) -> Result<()> {
    if curves.is_empty() {
        return Err(EvaluateError::Empty { what: "curves" });
    }
    if samples < 2 {
        return Err(EvaluateError::BadParameter {
            name: "samples",
            value: samples as f64,
            allowed: ">= 2",
        });
    }
    Ok(())
}

/// Mean and sample standard deviation (ddof 1; 0 for one value).
pub(crate) fn mean_and_sd(values: &[f64]) -> (f64, f64) {
    let k = values.len() as f64;
    let mean = values.iter().sum::<f64>() / k;
    let sd = if values.len() > 1 {
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1.0)).sqrt()
    } else {
        0.0
    };
    (mean, sd)
}

/// Vertical averaging (Provost, Fawcett & Kohavi 1998; Fawcett 2006 Alg. 3): TPR of each curve at
/// `samples` evenly spaced FPR values from 0 to 1 (linear interpolation; the highest TPR where a
/// curve has several points at that FPR), averaged, with a binomial confidence interval of level
/// 1 - alpha for the mean TPR computed as a proportion mean_tpr * P out of P, where P is the
/// summed positive weight of all curves (the pooled positives of the folds).
pub fn vertical_average(
    curves: &[RocCurve],
    samples: usize,
    method: IntervalMethod,
    alpha: f64,
) -> Result<Vec<VerticalSample>> {
    check_curves(curves, samples)?;
    let positives: f64 = curves.iter().map(|c| c.positives()).sum();
    let mut out = Vec::with_capacity(samples);
    let mut tprs = vec![0.0; curves.len()];
    for s in 0..samples {
        let fpr = s as f64 / (samples - 1) as f64;
        for (t, curve) in tprs.iter_mut().zip(curves) {
            *t = curve.tpr_at_fpr(fpr);
        }
        let (mean_tpr, sd_tpr) = mean_and_sd(&tprs);
        let count = (mean_tpr * positives).clamp(0.0, positives);
        let interval = match method {
            IntervalMethod::Normal => stats::normal_interval(count, positives, alpha),
            IntervalMethod::Wilson => stats::wilson_interval(count, positives, alpha),
        }
        .map_err(|e| EvaluateError::Interval(e.to_string()))?;
        out.push(VerticalSample {
            fpr,
            mean_tpr,
            sd_tpr,
            low: interval.low,
            high: interval.high,
        });
    }
    Ok(out)
}

/// One sample of a threshold-averaged ROC curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ThresholdSample {
    /// The score threshold ("predict positive iff score >= threshold").
    #[serde(serialize_with = "float")]
    pub threshold: f64,
    /// Mean FPR of the curves at that threshold.
    #[serde(serialize_with = "float")]
    pub mean_fpr: f64,
    /// Sample standard deviation of the FPRs.
    #[serde(serialize_with = "float")]
    pub sd_fpr: f64,
    /// Mean TPR of the curves at that threshold.
    #[serde(serialize_with = "float")]
    pub mean_tpr: f64,
    /// Sample standard deviation of the TPRs.
    #[serde(serialize_with = "float")]
    pub sd_tpr: f64,
}

/// Threshold averaging (Fawcett 2006, Alg. 5): `samples` thresholds taken evenly by rank from the
/// sorted union of all curves' thresholds; at each, every curve's operating point for
/// "score >= threshold" is found and FPR and TPR are averaged.
pub fn threshold_average(curves: &[RocCurve], samples: usize) -> Result<Vec<ThresholdSample>> {
    check_curves(curves, samples)?;
    let mut thresholds: Vec<f64> = curves
        .iter()
        .flat_map(|c| c.points().iter().skip(1).map(|p| p.threshold))
        .collect();
    thresholds.sort_unstable_by(|a, b| b.total_cmp(a));
    thresholds.dedup();
    let mut out = Vec::with_capacity(samples);
    let mut fprs = vec![0.0; curves.len()];
    let mut tprs = vec![0.0; curves.len()];
    for s in 0..samples {
        // sample 0 is +inf (all negative), the last the lowest threshold (all positive)
        let threshold = if s == 0 {
            f64::INFINITY
        } else {
            let rank = (s * thresholds.len()) / (samples - 1);
            thresholds[rank.saturating_sub(1).min(thresholds.len() - 1)]
        };
        for (c, curve) in curves.iter().enumerate() {
            let p = curve.points()[curve.operating_point(threshold)];
            fprs[c] = p.fpr;
            tprs[c] = p.tpr;
        }
        let (mean_fpr, sd_fpr) = mean_and_sd(&fprs);
        let (mean_tpr, sd_tpr) = mean_and_sd(&tprs);
        out.push(ThresholdSample {
            threshold,
            mean_fpr,
            sd_fpr,
            mean_tpr,
            sd_tpr,
        });
    }
    Ok(out)
}

/// Pooled (merged) ROC curve: the instances of all folds in one ranking, as if their scores were
/// comparable across folds. This is NOT an average of the fold curves.
pub fn pooled_roc_curve(folds: &[BinaryScores]) -> Result<RocCurve> {
    roc_curve(&BinaryScores::pooled(folds)?)
}

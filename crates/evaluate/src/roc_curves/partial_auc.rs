//! Partial area under the ROC curve over a false-positive-rate range, raw and standardised
//! (McClish 1989), as scikit-learn's `roc_auc_score(max_fpr=F)` (range [0, F], standardised)
//! and pROC's `auc(partial.auc = c(1 - lo, 1 - hi), partial.auc.correct = TRUE)`.

use serde::Serialize;

use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;
use crate::roc_curves::roc::{roc_curve, RocCurve};

/// Partial AUC over [fpr_low, fpr_high].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PartialAuc {
    /// Lower end of the FPR range.
    pub fpr_low: f64,
    /// Upper end of the FPR range.
    pub fpr_high: f64,
    /// Area under the ROC curve (linear between its points, ties one diagonal step) over the range.
    pub raw: f64,
    /// McClish: (1 + (raw - min) / (max - min)) / 2, with min = (hi^2 - lo^2)/2 the area under
    /// the diagonal and max = hi - lo; 0.5 for a random ranking, 1 for a perfect one, below
    /// 0.5 under the diagonal (pROC returns NA there unless told to allow it).
    pub standardized: f64,
}

/// Area under the piecewise-linear ROC curve between two FPRs, by clipping each segment.
pub fn partial_area(curve: &RocCurve, fpr_low: f64, fpr_high: f64) -> f64 {
    let mut area = 0.0;
    for pair in curve.points().windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b.fpr <= a.fpr {
            continue;
        }
        let (left, right) = (a.fpr.max(fpr_low), b.fpr.min(fpr_high));
        if right <= left {
            continue;
        }
        let at = |x: f64| a.tpr + (b.tpr - a.tpr) * (x - a.fpr) / (b.fpr - a.fpr);
        area += (right - left) * (at(left) + at(right)) / 2.0;
    }
    area
}

/// Partial AUC of binary scores over FPR in [fpr_low, fpr_high] (0 <= low < high <= 1),
/// O(n log n). Errors: a range outside that (`BadParameter`), a single class (`SingleClass`).
pub fn partial_auc(data: &BinaryScores, fpr_low: f64, fpr_high: f64) -> Result<PartialAuc> {
    if !(0.0..1.0).contains(&fpr_low) {
        return Err(EvaluateError::BadParameter {
            name: "fpr_low",
            value: fpr_low,
            allowed: "in [0, 1) and below fpr_high",
        });
    }
    if !(fpr_high > fpr_low && fpr_high <= 1.0) {
        return Err(EvaluateError::BadParameter {
            name: "fpr_high",
            value: fpr_high,
            allowed: "in (fpr_low, 1]",
        });
    }
    let curve = roc_curve(data)?;
    let raw = partial_area(&curve, fpr_low, fpr_high);
    let min = (fpr_high * fpr_high - fpr_low * fpr_low) / 2.0;
    let max = fpr_high - fpr_low;
    Ok(PartialAuc {
        fpr_low,
        fpr_high,
        raw,
        standardized: (1.0 + (raw - min) / (max - min)) / 2.0,
    })
}

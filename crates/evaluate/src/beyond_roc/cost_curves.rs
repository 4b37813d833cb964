//! Cost curves (Drummond & Holte 2006): normalised expected cost against probability cost.
//!
//! The probability cost PC(+) = p(+) C(-|+) / (p(+) C(-|+) + p(-) C(+|-)) runs over [0, 1]; a
//! ROC point (FPR, TPR) is the line NEC(PC) = FPR (1 - PC) + (1 - TPR) PC from (0, FPR) to
//! (1, 1 - TPR). The cost curve of a model is the lower envelope of its points' lines, including
//! the trivial classifiers (0, 0) and (1, 1); it is the ROC convex hull seen in cost space: hull
//! vertex i is the best point for PC between 1 / (1 + slope of its left edge) and
//! 1 / (1 + slope of its right edge). ROCR's `performance(pred, "ecost")` gives the same envelope.

use serde::Serialize;

use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;
use crate::roc_curves::hull::{classifiers_hull, roc_convex_hull, RocHull};
use crate::roc_curves::roc::roc_curve;

/// Normalised expected cost of ROC point (fpr, tpr) at probability cost `pc`.
pub fn normalized_expected_cost(fpr: f64, tpr: f64, pc: f64) -> f64 {
    fpr * (1.0 - pc) + (1.0 - tpr) * pc
}

/// Probability cost PC(+) of a positive-class prior and the costs of a false negative and a
/// false positive (prior in (0, 1), costs finite, >= 0, not both 0).
pub fn probability_cost(prior_pos: f64, cost_fn: f64, cost_fp: f64) -> Result<f64> {
    if !(prior_pos > 0.0 && prior_pos < 1.0) {
        return Err(EvaluateError::BadParameter {
            name: "prior_pos",
            value: prior_pos,
            allowed: "strictly between 0 and 1",
        });
    }
    for (name, value) in [("cost_fn", cost_fn), ("cost_fp", cost_fp)] {
        if !(value.is_finite() && value >= 0.0) {
            return Err(EvaluateError::BadParameter {
                name,
                value,
                allowed: "finite and >= 0",
            });
        }
    }
    let positive = prior_pos * cost_fn;
    let total = positive + (1.0 - prior_pos) * cost_fp;
    if total <= 0.0 {
        return Err(EvaluateError::BadParameter {
            name: "cost_fn + cost_fp",
            value: 0.0,
            allowed: "> 0 (at least one cost positive)",
        });
    }
    Ok(positive / total)
}

/// One line of a cost curve plot: a ROC point of a model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CostLine {
    /// Model index.
    pub model: usize,
    /// Decision threshold (+inf for the all-negative point).
    #[serde(serialize_with = "stats::json::float")]
    pub threshold: f64,
    /// NEC at PC = 0: the false positive rate.
    pub fpr: f64,
    /// 1 - NEC at PC = 1: the true positive rate.
    pub tpr: f64,
}

/// A stretch of the lower envelope where one operating point is optimal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnvelopeSegment {
    /// Lowest probability cost of the stretch.
    pub pc_low: f64,
    /// Highest probability cost of the stretch.
    pub pc_high: f64,
    /// FPR of the operating point.
    pub fpr: f64,
    /// TPR of the operating point.
    pub tpr: f64,
    /// Models having this point (empty for a trivial classifier no model has).
    pub models: Vec<usize>,
    /// Its threshold when exactly one model's curve gives it (a single-model cost curve).
    #[serde(serialize_with = "stats::json::optional_float")]
    pub threshold: Option<f64>,
}

/// A cost curve: every line, the lower envelope's corners and its segments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostCurve {
    /// One line per ROC point of each model.
    pub lines: Vec<CostLine>,
    /// Corners (PC, NEC) of the lower envelope from (0, 0) to (1, 0).
    pub envelope: Vec<(f64, f64)>,
    /// The operating points the envelope uses, by increasing PC.
    pub segments: Vec<EnvelopeSegment>,
}

impl CostCurve {
    /// The envelope's normalised expected cost at probability cost `pc` in [0, 1].
    pub fn cost_at(&self, pc: f64) -> f64 {
        self.segments
            .iter()
            .map(|s| normalized_expected_cost(s.fpr, s.tpr, pc))
            .fold(f64::INFINITY, f64::min)
    }
}

/// Envelope corners and segments from a ROC hull, with the owners of each vertex.
fn envelope(hull: &RocHull, owners: &[Vec<usize>], thresholds: &[Option<f64>]) -> CostCurve {
    let vertices = hull.vertices();
    let mut segments = Vec::with_capacity(vertices.len());
    let mut envelope = vec![(0.0, 0.0)];
    let mut low = 0.0;
    for (i, v) in vertices.iter().enumerate() {
        let high: f64 = match vertices.get(i + 1) {
            Some(next) => {
                let (d_fpr, d_tpr) = (next.fpr - v.fpr, next.tpr - v.tpr);
                d_fpr / (d_fpr + d_tpr)
            }
            None => 1.0,
        };
        segments.push(EnvelopeSegment {
            pc_low: low,
            pc_high: high,
            fpr: v.fpr,
            tpr: v.tpr,
            models: owners[i].clone(),
            threshold: thresholds[i],
        });
        if i + 1 < vertices.len() {
            envelope.push((high, normalized_expected_cost(v.fpr, v.tpr, high)));
        }
        low = high;
    }
    envelope.push((1.0, 0.0));
    CostCurve {
        lines: Vec::new(),
        envelope,
        segments,
    }
}

/// Cost curve of one model's scores, O(n log n): its lines, the lower envelope and the
/// thresholds of the operating points it uses. Both classes must be present (`SingleClass`).
pub fn cost_curve(data: &BinaryScores) -> Result<CostCurve> {
    let roc = roc_curve(data)?;
    let hull = roc_convex_hull(&roc.fpr_tpr())?;
    let points = roc.points();
    let owners: Vec<Vec<usize>> = hull
        .vertices()
        .iter()
        .map(|v| {
            if v.input_index.is_some() {
                vec![0]
            } else {
                Vec::new()
            }
        })
        .collect();
    let thresholds: Vec<Option<f64>> = hull
        .vertices()
        .iter()
        .map(|v| v.input_index.map(|i| points[i].threshold))
        .collect();
    let mut curve = envelope(&hull, &owners, &thresholds);
    curve.lines = points
        .iter()
        .map(|p| CostLine {
            model: 0,
            threshold: p.threshold,
            fpr: p.fpr,
            tpr: p.tpr,
        })
        .collect();
    Ok(curve)
}

/// Cost curve of several models on the same task: every model's lines and the lower envelope
/// over all of them (the ROC convex hull of their points), with the models owning each
/// operating point. Each model needs both classes (`SingleClass`); at least one model (`Empty`).
pub fn models_cost_curve(models: &[BinaryScores]) -> Result<CostCurve> {
    if models.is_empty() {
        return Err(EvaluateError::Empty { what: "models" });
    }
    let rocs = models.iter().map(roc_curve).collect::<Result<Vec<_>>>()?;
    let point_lists: Vec<Vec<(f64, f64)>> = rocs.iter().map(|r| r.fpr_tpr()).collect();
    let hull = classifiers_hull(&point_lists)?;
    let thresholds: Vec<Option<f64>> = hull
        .hull()
        .vertices()
        .iter()
        .zip(hull.owners())
        .map(|(v, owners)| match owners.as_slice() {
            [model] => rocs[*model]
                .points()
                .iter()
                .find(|p| p.fpr == v.fpr && p.tpr == v.tpr)
                .map(|p| p.threshold),
            _ => None,
        })
        .collect();
    let mut curve = envelope(hull.hull(), hull.owners(), &thresholds);
    curve.lines = rocs
        .iter()
        .enumerate()
        .flat_map(|(model, roc)| {
            roc.points().iter().map(move |p| CostLine {
                model,
                threshold: p.threshold,
                fpr: p.fpr,
                tpr: p.tpr,
            })
        })
        .collect();
    Ok(curve)
}

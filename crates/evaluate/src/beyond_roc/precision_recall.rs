//! Precision-recall: the curve, average precision as scikit-learn defines it, Davis & Goadrich's
//! (2006) non-linear interpolation between points and the exact area under the interpolated
//! curve, and precision-recall curves averaged over folds.
//!
//! Davis & Goadrich: between neighbouring points A and B the curve passes through
//! TP = TP_A + x, FP = FP_A + s x (local skew s = (FP_B - FP_A) / (TP_B - TP_A)), so precision
//! (TP_A + x) / (TP_A + FP_A + (1 + s) x) is a hyperbola in recall = TP / P, not a line. The
//! area integrates it exactly: over one segment (1/P) [D/c + (a s - FP_A) / c^2 ln(1 + c D / b)]
//! with a = TP_A, b = TP_A + FP_A, c = 1 + s, D = TP_B - TP_A (D / c when b = 0). The curve
//! starts at recall 0 with the precision of its first segment (the limit at TP = 0).

use serde::Serialize;

use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;
use crate::roc_curves::grid_average::GridAverage;
use crate::roc_curves::roc::roc_curve;

/// One point of a precision-recall curve: "predict positive iff score >= threshold".
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PrPoint {
    /// Decision threshold (scores may be infinite).
    #[serde(serialize_with = "stats::json::float")]
    pub threshold: f64,
    /// Weighted true positives.
    pub true_positives: f64,
    /// Weighted false positives.
    pub false_positives: f64,
    /// tp / (tp + fp).
    pub precision: f64,
    /// tp / P.
    pub recall: f64,
}

/// Precision-recall curve: one point per distinct score, in order of decreasing threshold
/// (tied scores form one step), without the undefined point at threshold +inf.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrCurve {
    points: Vec<PrPoint>,
    positives: f64,
    negatives: f64,
}

/// A point of the interpolated curve: observed, or added by Davis & Goadrich's interpolation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct InterpolatedPrPoint {
    /// True positives (TP_A + x).
    pub true_positives: f64,
    /// False positives (FP_A + s x).
    pub false_positives: f64,
    /// Recall.
    pub recall: f64,
    /// Precision.
    pub precision: f64,
    /// True for the curve's own points, false for interpolated ones.
    pub observed: bool,
}

/// The precision-recall curve of binary scores, O(n log n). Both classes must be present
/// (by weight): `SingleClass` otherwise.
pub fn precision_recall_curve(data: &BinaryScores) -> Result<PrCurve> {
    let roc = roc_curve(data)?;
    let points = roc.points()[1..]
        .iter()
        .map(|p| PrPoint {
            threshold: p.threshold,
            true_positives: p.true_positives,
            false_positives: p.false_positives,
            precision: p.true_positives / (p.true_positives + p.false_positives),
            recall: p.true_positives / roc.positives(),
        })
        .collect();
    Ok(PrCurve {
        points,
        positives: roc.positives(),
        negatives: roc.negatives(),
    })
}

/// Average precision as scikit-learn's `average_precision_score`: sum over thresholds of
/// (R_n - R_(n-1)) P_n, a step function without interpolation.
pub fn average_precision(data: &BinaryScores) -> Result<f64> {
    Ok(precision_recall_curve(data)?.average_precision())
}

/// Davis & Goadrich's points from A = (TP_A, FP_A) to B = (TP_B, FP_B), both included, one per
/// unit of TP (TP_A + 1, TP_A + 2, ... below TP_B), with `positives` = P for the recall.
pub fn davis_goadrich_segment(
    a: (f64, f64),
    b: (f64, f64),
    positives: f64,
) -> Vec<InterpolatedPrPoint> {
    let point = |tp: f64, fp: f64, observed| InterpolatedPrPoint {
        true_positives: tp,
        false_positives: fp,
        recall: tp / positives,
        precision: tp / (tp + fp),
        observed,
    };
    let mut out = vec![point(a.0, a.1, true)];
    let delta = b.0 - a.0;
    if delta > 0.0 {
        let skew = (b.1 - a.1) / delta;
        let mut x = 1.0;
        while a.0 + x < b.0 {
            out.push(point(a.0 + x, a.1 + skew * x, false));
            x += 1.0;
        }
    }
    out.push(point(b.0, b.1, true));
    out
}

/// Exact integral of precision over TP from A to B along the interpolation (not divided by P).
fn segment_integral(a: (f64, f64), b: (f64, f64)) -> f64 {
    let delta = b.0 - a.0;
    if delta <= 0.0 {
        return 0.0;
    }
    let skew = (b.1 - a.1) / delta;
    let c = 1.0 + skew;
    let start = a.0 + a.1;
    if start == 0.0 {
        return delta / c;
    }
    delta / c + (a.0 * skew - a.1) / (c * c) * (c * delta / start).ln_1p()
}

impl PrCurve {
    /// The points, by decreasing threshold.
    pub fn points(&self) -> &[PrPoint] {
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

    /// Average precision (scikit-learn's definition, see [`average_precision`]).
    pub fn average_precision(&self) -> f64 {
        let mut previous_recall = 0.0;
        let mut sum = 0.0;
        for p in &self.points {
            sum += (p.recall - previous_recall) * p.precision;
            previous_recall = p.recall;
        }
        sum
    }

    /// (TP, FP) of the curve preceded by the origin (0, 0).
    fn counts(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        std::iter::once((0.0, 0.0)).chain(
            self.points
                .iter()
                .map(|p| (p.true_positives, p.false_positives)),
        )
    }

    /// The curve with Davis & Goadrich's interpolated points between its points (from the first
    /// point on; O(n + P) points).
    pub fn interpolated_points(&self) -> Vec<InterpolatedPrPoint> {
        let counts: Vec<(f64, f64)> = self.counts().skip(1).collect();
        let mut out: Vec<InterpolatedPrPoint> = Vec::with_capacity(counts.len());
        for pair in counts.windows(2) {
            let segment = davis_goadrich_segment(pair[0], pair[1], self.positives);
            let skip = usize::from(!out.is_empty());
            out.extend(segment.into_iter().skip(skip));
        }
        if out.is_empty() {
            out.extend(
                counts
                    .first()
                    .map(|&(tp, fp)| davis_goadrich_segment((tp, fp), (tp, fp), self.positives)[0]),
            );
        }
        out
    }

    /// Area under the Davis & Goadrich interpolated curve from recall 0 to 1, integrated exactly.
    pub fn interpolated_area(&self) -> f64 {
        let counts: Vec<(f64, f64)> = self.counts().collect();
        let total: f64 = counts
            .windows(2)
            .map(|w| segment_integral(w[0], w[1]))
            .sum();
        total / self.positives
    }

    /// Precision of the interpolated curve at a recall in [0, 1]: where several points share the
    /// recall, the highest precision; at recall 0 the limit of the first rising segment.
    /// O(log n).
    pub fn precision_at_recall(&self, recall: f64) -> Result<f64> {
        if !(0.0..=1.0).contains(&recall) {
            return Err(EvaluateError::BadParameter {
                name: "recall",
                value: recall,
                allowed: "in [0, 1]",
            });
        }
        let target = recall * self.positives;
        // the first point reaching the target (at target 0: the first with a positive)
        let index = if target > 0.0 {
            self.points.partition_point(|p| p.true_positives < target)
        } else {
            self.points.partition_point(|p| p.true_positives <= 0.0)
        };
        let Some(point) = self.points.get(index) else {
            let last = self
                .points
                .last()
                .map_or((0.0, 0.0), |p| (p.true_positives, p.false_positives));
            return Ok(last.0 / (last.0 + last.1));
        };
        let previous = index.checked_sub(1).map_or((0.0, 0.0), |i| {
            (
                self.points[i].true_positives,
                self.points[i].false_positives,
            )
        });
        let skew = (point.false_positives - previous.1) / (point.true_positives - previous.0);
        let x = (target - previous.0).max(0.0);
        let denominator = previous.0 + previous.1 + (1.0 + skew) * x;
        Ok(if denominator == 0.0 {
            1.0 / (1.0 + skew)
        } else {
            (previous.0 + x) / denominator
        })
    }
}

/// One sample of precision-recall curves averaged over folds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PrAverageSample {
    /// The fixed recall.
    pub recall: f64,
    /// Mean over the folds of the interpolated precision at that recall.
    pub mean_precision: f64,
    /// Sample standard deviation (ddof 1; 0 for one fold).
    pub sd_precision: f64,
}

/// Vertical averaging of the folds' precision-recall curves: at `samples` evenly spaced recalls
/// from 0 to 1, the mean and standard deviation over folds of [`PrCurve::precision_at_recall`]
/// (Davis & Goadrich interpolation, never linear). `samples` from 2 to 100 000, at least one
/// curve; O(samples k log n).
pub fn vertical_average_pr(curves: &[PrCurve], samples: usize) -> Result<Vec<PrAverageSample>> {
    let mut average = GridAverage::new(0.0, 1.0, samples)?;
    for curve in curves {
        average.add(|recall| curve.precision_at_recall(recall))?;
    }
    Ok(average
        .samples()?
        .into_iter()
        .map(|s| PrAverageSample {
            recall: s.x,
            mean_precision: s.mean,
            sd_precision: s.sd,
        })
        .collect())
}

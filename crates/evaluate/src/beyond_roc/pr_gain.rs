//! Precision-Recall-Gain curve and its area (Flach & Kull 2015), computed as their `pyprg`
//! package does: precision gain 1 - (P/N)(FP/TP), recall gain 1 - (P/N)(FN/TP) at every
//! threshold, a point inserted where the curve crosses recall gain 0 (found by interpolating the
//! contingency table linearly between the neighbouring thresholds, which is a straight line in
//! PRG space), and the area by the trapezoid rule over the part with recall gain >= 0 (precision
//! gains below 0 count negatively there, as in `pyprg`'s `calc_auprg`).

use serde::Serialize;

use crate::error::Result;
use crate::predictions::BinaryScores;
use crate::roc_curves::roc::roc_curve;

/// One point of a PRG curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PrGainPoint {
    /// Decision threshold (NaN for the inserted crossing point).
    #[serde(serialize_with = "stats::json::float")]
    pub threshold: f64,
    /// Weighted true positives.
    pub true_positives: f64,
    /// Weighted false positives.
    pub false_positives: f64,
    /// Recall gain.
    pub recall_gain: f64,
    /// Precision gain.
    pub precision_gain: f64,
    /// True for the point inserted at recall gain 0.
    pub crossing: bool,
}

/// The part of a PRG curve with recall gain >= 0, in order of increasing recall gain, and the
/// area under it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrGainCurve {
    /// Points from recall gain 0 (or the first point above it) to recall gain 1.
    pub points: Vec<PrGainPoint>,
    /// Area under the curve (AUPRG).
    pub area: f64,
}

impl PrGainCurve {
    /// Precision gain at a recall gain, interpolated linearly between the curve's points (a
    /// straight line in PRG space, as the area's trapezoids assume); where several points share
    /// the recall gain, the highest precision gain; below the first point the first point's
    /// value, above the last the last's. O(log n).
    pub fn precision_gain_at(&self, recall_gain: f64) -> f64 {
        let points = &self.points;
        let Some(first) = points.first() else {
            return f64::NAN;
        };
        let index = points.partition_point(|p| p.recall_gain < recall_gain);
        if index == 0 {
            let tied = points
                .iter()
                .take_while(|p| p.recall_gain <= first.recall_gain);
            return tied
                .map(|p| p.precision_gain)
                .fold(f64::NEG_INFINITY, f64::max);
        }
        let Some(after) = points.get(index) else {
            return points[points.len() - 1].precision_gain;
        };
        if after.recall_gain == recall_gain {
            let tied = points[index..]
                .iter()
                .take_while(|p| p.recall_gain == recall_gain);
            return tied
                .map(|p| p.precision_gain)
                .fold(f64::NEG_INFINITY, f64::max);
        }
        let before = &points[index - 1];
        let share = (recall_gain - before.recall_gain) / (after.recall_gain - before.recall_gain);
        before.precision_gain + share * (after.precision_gain - before.precision_gain)
    }
}

/// The PRG curve and its area, O(n log n). Both classes must be present (`SingleClass`).
pub fn pr_gain_curve(data: &BinaryScores) -> Result<PrGainCurve> {
    let roc = roc_curve(data)?;
    let (positives, negatives) = (roc.positives(), roc.negatives());
    let ratio = positives / negatives;
    let gains = |tp: f64, fp: f64| -> (f64, f64) {
        (1.0 - ratio * (positives - tp) / tp, 1.0 - ratio * fp / tp)
    };
    let all: Vec<PrGainPoint> = roc
        .points()
        .iter()
        .map(|p| {
            let (recall_gain, precision_gain) = gains(p.true_positives, p.false_positives);
            PrGainPoint {
                threshold: p.threshold,
                true_positives: p.true_positives,
                false_positives: p.false_positives,
                recall_gain: if p.true_positives > 0.0 {
                    recall_gain
                } else {
                    f64::NEG_INFINITY
                },
                precision_gain,
                crossing: false,
            }
        })
        .collect();
    let first = all
        .iter()
        .position(|p| p.recall_gain >= 0.0)
        .unwrap_or(all.len() - 1);
    let mut points = Vec::with_capacity(all.len() - first + 1);
    if first > 0 && all[first].recall_gain > 0.0 {
        let (before, after) = (&all[first - 1], &all[first]);
        let delta_tp = after.true_positives - before.true_positives;
        let share = if delta_tp > 0.0 {
            (positives * positives / (positives + negatives) - before.true_positives) / delta_tp
        } else {
            0.5
        };
        let tp = before.true_positives + share * delta_tp;
        let fp = before.false_positives + share * (after.false_positives - before.false_positives);
        points.push(PrGainPoint {
            threshold: f64::NAN,
            true_positives: tp,
            false_positives: fp,
            recall_gain: 0.0,
            precision_gain: gains(tp, fp).1,
            crossing: true,
        });
    }
    points.extend_from_slice(&all[first..]);
    let area = points
        .windows(2)
        .map(|w| {
            (w[1].recall_gain - w[0].recall_gain) * (w[1].precision_gain + w[0].precision_gain)
                / 2.0
        })
        .sum();
    Ok(PrGainCurve { points, area })
}

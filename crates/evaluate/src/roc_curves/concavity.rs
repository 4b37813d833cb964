//! Repairing concavities of a ROC curve (the slides' "Properties of ROC Curves for Rankers";
//! Flach & Wu 2005, "Repairing concavities in ROC curves"). A section of a ranker's curve that
//! lies under its convex hull ranks its instances worse than random order would; inverting the
//! ranking inside that section mirrors the section through the midpoint of the hull edge, so it
//! lies over the edge. The sections are found as score intervals, so that they can be learned
//! on one set of scores (training or validation) and applied to another (the test set).

use serde::Serialize;
use stats::json::float;

use crate::error::Result;
use crate::roc_curves::hull::roc_convex_hull;

use crate::predictions::BinaryScores;
use crate::roc_curves::roc::roc_curve;

/// A closed interval of scores whose ranking is to be inverted.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ScoreInterval {
    /// Lowest score of the section.
    #[serde(serialize_with = "float")]
    pub low: f64,
    /// Highest score of the section.
    #[serde(serialize_with = "float")]
    pub high: f64,
}

/// The score intervals of the sections of the ROC curve of `data` that lie under its convex
/// hull: between two consecutive hull vertices with a curve point strictly below the edge.
pub fn concavities(data: &BinaryScores) -> Result<Vec<ScoreInterval>> {
    let curve = roc_curve(data)?;
    let points = curve.points();
    let hull = roc_convex_hull(&curve.fpr_tpr())?;
    // index of each hull vertex among the curve's points (the curve includes (0, 0) and
    // (1, 1), so every vertex is one of them)
    let vertex_points: Vec<usize> = hull
        .vertices()
        .iter()
        .filter_map(|v| points.iter().position(|p| p.fpr == v.fpr && p.tpr == v.tpr))
        .collect();
    let mut intervals = Vec::new();
    for pair in vertex_points.windows(2) {
        let (start, end) = (pair[0], pair[1]);
        if end <= start + 1 {
            continue;
        }
        let (a, b) = (points[start], points[end]);
        let under = points[start + 1..end].iter().any(|p| {
            // strictly below the edge a-b
            (b.fpr - a.fpr) * (p.tpr - a.tpr) < (b.tpr - a.tpr) * (p.fpr - a.fpr)
        });
        if under {
            // the instances added after point `start` up to point `end`: thresholds of
            // points start+1 ..= end
            intervals.push(ScoreInterval {
                low: points[end].threshold,
                high: points[start + 1].threshold,
            });
        }
    }
    Ok(intervals)
}

/// The scores with the ranking inverted inside each interval: a score s in [low, high] becomes
/// low + high - s (intervals must not overlap, as those of [`concavities`] do not). Labels,
/// weights and the decision threshold are kept.
pub fn invert_intervals(data: &BinaryScores, intervals: &[ScoreInterval]) -> Result<BinaryScores> {
    let scores: Vec<f64> = data
        .scores()
        .iter()
        .map(|&score| {
            intervals
                .iter()
                .find(|interval| interval.low <= score && score <= interval.high)
                .map_or(score, |interval| interval.low + interval.high - score)
        })
        .collect();
    let mut repaired = BinaryScores::new(data.labels().to_vec(), scores)?
        .with_decision_threshold(data.decision_threshold())?;
    if let Some(weights) = data.weights() {
        repaired = repaired.with_weights(weights.to_vec())?;
    }
    Ok(repaired)
}

/// The scores with every concavity of their own ROC curve repaired (on the same data, the
/// repaired curve lies on or above the convex hull of the original one).
pub fn repair_concavities(data: &BinaryScores) -> Result<BinaryScores> {
    invert_intervals(data, &concavities(data)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roc_curves::roc::auc;

    /// Worked by hand. Ranking + - - + + - (scores 6..1): ROC points (0,0) (0,1/3) (1/3,1/3)
    /// (2/3,1/3) (2/3,2/3) (2/3,1) (1,1); hull (0,0) (0,1/3) (2/3,1) (1,1), with the points
    /// (1/3,1/3) (2/3,1/3) (2/3,2/3) under the edge (0,1/3)-(2/3,1): scores 5, 4, 3, 2.
    /// AUC 5/9, hull area 7/9; inverting 5..2 gives the ranking + + + - - -, AUC
    /// 5/9 + 2 (7/9 - 5/9) = 1.
    #[test]
    fn a_hand_worked_concavity() {
        let data =
            BinaryScores::from_01(&[1, 0, 0, 1, 1, 0], &[6.0, 5.0, 4.0, 3.0, 2.0, 1.0]).unwrap();
        assert!((auc(&data).unwrap() - 5.0 / 9.0).abs() < 1e-12);
        let found = concavities(&data).unwrap();
        assert_eq!(
            found,
            vec![ScoreInterval {
                low: 2.0,
                high: 5.0
            }]
        );
        let repaired = repair_concavities(&data).unwrap();
        assert_eq!(repaired.scores(), &[6.0, 2.0, 3.0, 4.0, 5.0, 1.0]);
        assert_eq!(auc(&repaired).unwrap(), 1.0);
    }

    /// A convex curve has nothing to repair; intervals learned on one set apply to another.
    /// Ranking + then a tie of + and - then -: points (0,0) (0,1/2) (1/2,1) (1,1), convex.
    #[test]
    fn convex_curves_stay_and_intervals_transfer() {
        let convex = BinaryScores::from_01(&[1, 1, 0, 0], &[4.0, 3.0, 3.0, 1.0]).unwrap();
        assert!(concavities(&convex).unwrap().is_empty());
        assert_eq!(repair_concavities(&convex).unwrap(), convex);
        // test scores 4.5 and 2.5 fall in [2, 5] and swap places: 2 + 5 - 4.5 = 2.5
        let test = BinaryScores::from_01(&[0, 1], &[4.5, 2.5]).unwrap();
        let interval = ScoreInterval {
            low: 2.0,
            high: 5.0,
        };
        let inverted = invert_intervals(&test, &[interval]).unwrap();
        assert_eq!(inverted.scores(), &[2.5, 4.5]);
        assert_eq!(auc(&inverted).unwrap(), 1.0);
    }
}

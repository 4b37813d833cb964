//! Coverage space (PN space; the slides' "ROC spaces vs. Coverage Spaces"): the unnormalised
//! ROC space with the count of covered negatives n on the x axis and covered positives p on the
//! y axis, over the rectangle [0, N] x [0, P]. ROC space is it scaled to the unit square.
//! Costs and class distributions are interchangeable: a false positive that costs r times a
//! false negative is a coverage space with every negative counted r times, where the cost
//! isometrics are the accuracy isometrics (slope 1).

use crate::error::{EvaluateError, Result};
use crate::roc_curves::roc::RocCurve;

fn check_totals(positives: f64, negatives: f64) -> Result<()> {
    for (name, value) in [("positives", positives), ("negatives", negatives)] {
        if !(value.is_finite() && value > 0.0) {
            return Err(EvaluateError::BadParameter {
                name,
                value,
                allowed: "finite and > 0",
            });
        }
    }
    Ok(())
}

/// A ROC curve in coverage space: (covered negatives, covered positives) = (fp, tp) of each
/// point, by weight.
pub fn coverage_curve(curve: &RocCurve) -> Vec<(f64, f64)> {
    curve
        .points()
        .iter()
        .map(|point| (point.false_positives, point.true_positives))
        .collect()
}

/// The coverage-space point (n, p) = (fpr N, tpr P) of ROC point (fpr, tpr).
pub fn roc_to_coverage(point: (f64, f64), positives: f64, negatives: f64) -> Result<(f64, f64)> {
    check_totals(positives, negatives)?;
    Ok((point.0 * negatives, point.1 * positives))
}

/// The ROC point (n / N, p / P) of coverage-space point (n, p).
pub fn coverage_to_roc(point: (f64, f64), positives: f64, negatives: f64) -> Result<(f64, f64)> {
    check_totals(positives, negatives)?;
    Ok((point.0 / negatives, point.1 / positives))
}

/// The slope in coverage space, dp/dn, of a line of slope dtpr/dfpr in ROC space:
/// roc_slope P / N (the ROC diagonal, slope 1, has slope P / N in coverage space).
pub fn coverage_slope(roc_slope: f64, positives: f64, negatives: f64) -> Result<f64> {
    check_totals(positives, negatives)?;
    Ok(roc_slope * positives / negatives)
}

/// The slope in ROC space of a line of slope dp/dn in coverage space: coverage_slope N / P
/// (the line p = n, slope 1, has slope N / P in ROC space).
pub fn roc_slope(coverage_slope: f64, positives: f64, negatives: f64) -> Result<f64> {
    check_totals(positives, negatives)?;
    Ok(coverage_slope * negatives / positives)
}

/// The class totals (P, r N) of the coverage space in which a false positive costing
/// `cost_ratio` = r times a false negative counts like an error of accuracy: every negative
/// counted r times. Its accuracy isometrics (slope 1) are lines of slope r N / P in ROC space,
/// the iso-cost lines of the original problem.
pub fn cost_coverage_space(positives: f64, negatives: f64, cost_ratio: f64) -> Result<(f64, f64)> {
    check_totals(positives, negatives)?;
    if !(cost_ratio.is_finite() && cost_ratio > 0.0) {
        return Err(EvaluateError::BadParameter {
            name: "cost_ratio",
            value: cost_ratio,
            allowed: "finite and > 0",
        });
    }
    Ok((positives, negatives * cost_ratio))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predictions::BinaryScores;
    use crate::roc_curves::roc::roc_curve;

    /// The slides' table "ROC spaces vs. Coverage Spaces", for P = 20 positives, N = 50
    /// negatives.
    #[test]
    fn the_slides_table_of_roc_and_coverage_space() {
        let (p, n) = (20.0, 50.0);
        // empty theory, correct theory, universal theory
        assert_eq!(roc_to_coverage((0.0, 0.0), p, n).unwrap(), (0.0, 0.0));
        assert_eq!(roc_to_coverage((0.0, 1.0), p, n).unwrap(), (0.0, 20.0));
        assert_eq!(roc_to_coverage((1.0, 1.0), p, n).unwrap(), (50.0, 20.0));
        // resolution: one instance is (1/N, 1/P) in ROC space, (1, 1) in coverage space
        assert_eq!(coverage_to_roc((1.0, 1.0), p, n).unwrap(), (0.02, 0.05));
        // slope of the diagonal: 1 in ROC space, P / N in coverage space
        assert_eq!(coverage_slope(1.0, p, n).unwrap(), 0.4);
        // slope of the p = n line: N / P in ROC space, 1 in coverage space
        assert_eq!(roc_slope(1.0, p, n).unwrap(), 2.5);
        assert!(roc_slope(1.0, 0.0, n).is_err());
    }

    /// The slides' example: P = N, a false positive twice as bad as a false negative. Doubling
    /// the negatives makes the accuracy isometric (slope 1 in the new coverage space) a line of
    /// slope r = 2 in ROC space.
    #[test]
    fn doubling_the_negatives_turns_accuracy_into_cost() {
        let (p, n) = cost_coverage_space(30.0, 30.0, 2.0).unwrap();
        assert_eq!((p, n), (30.0, 60.0));
        assert_eq!(roc_slope(1.0, p, n).unwrap(), 2.0);
        // a classifier's ROC point does not move: (n / N, p / P) of its doubled counts
        let point = roc_to_coverage((0.2, 0.7), 30.0, 30.0).unwrap();
        let doubled = (2.0 * point.0, point.1);
        assert_eq!(coverage_to_roc(doubled, p, n).unwrap(), (0.2, 0.7));
    }

    /// The slides' "practical method": rank by decreasing score, one step up per positive, one
    /// to the right per negative (coverage space: unit steps).
    #[test]
    fn the_coverage_curve_steps_one_per_instance() {
        let data = BinaryScores::from_01(&[1, 0, 1, 1, 0], &[0.9, 0.8, 0.7, 0.6, 0.2]).unwrap();
        let curve = roc_curve(&data).unwrap();
        assert_eq!(
            coverage_curve(&curve),
            vec![
                (0.0, 0.0),
                (0.0, 1.0),
                (1.0, 1.0),
                (1.0, 2.0),
                (1.0, 3.0),
                (2.0, 3.0)
            ]
        );
    }
}

//! Interpolating between two classifiers (the slides' "Interpolating Classifiers"; Provost,
//! Fawcett & Kohavi 1998, footnote 2): using classifier 1 on a share q of the cases, chosen at
//! random, and classifier 2 on the rest reaches the ROC point
//! q (fpr1, tpr1) + (1 - q) (fpr2, tpr2), so every point of the ROC convex hull is reachable,
//! in particular the one of a target false or true positive rate.

use serde::Serialize;

use crate::error::{EvaluateError, Result};
use crate::roc_curves::hull::RocHull;

/// A random mixture of two classifiers: use `first` with probability `share_first`, else
/// `second`; `point` is the (fpr, tpr) the mixture reaches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Mixture {
    /// (fpr, tpr) of the first classifier.
    pub first: (f64, f64),
    /// (fpr, tpr) of the second classifier.
    pub second: (f64, f64),
    /// Share q of the cases given to the first classifier.
    pub share_first: f64,
    /// (fpr, tpr) of the mixture.
    pub point: (f64, f64),
}

fn check_rate(name: &'static str, value: f64) -> Result<()> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(EvaluateError::BadParameter {
            name,
            value,
            allowed: "in [0, 1]",
        })
    }
}

/// The ROC point of the mixture that uses `first` on a share `share_first` of the cases:
/// (q fpr1 + (1 - q) fpr2, q tpr1 + (1 - q) tpr2).
pub fn interpolate(first: (f64, f64), second: (f64, f64), share_first: f64) -> Result<Mixture> {
    for (name, value) in [
        ("share_first", share_first),
        ("first fpr", first.0),
        ("first tpr", first.1),
        ("second fpr", second.0),
        ("second tpr", second.1),
    ] {
        check_rate(name, value)?;
    }
    let q = share_first;
    Ok(Mixture {
        first,
        second,
        share_first: q,
        point: (
            q * first.0 + (1.0 - q) * second.0,
            q * first.1 + (1.0 - q) * second.1,
        ),
    })
}

/// The mixture of `first` and `second` whose false positive rate is `target_fpr`; an error when
/// the target is not between the two classifiers' rates. Equal rates give q = 1 (use `first`).
pub fn mixture_for_fpr(first: (f64, f64), second: (f64, f64), target_fpr: f64) -> Result<Mixture> {
    mixture_for_rate(first, second, target_fpr, |point| point.0, "target_fpr")
}

/// The mixture of `first` and `second` whose true positive rate is `target_tpr`; an error when
/// the target is not between the two classifiers' rates.
pub fn mixture_for_tpr(first: (f64, f64), second: (f64, f64), target_tpr: f64) -> Result<Mixture> {
    mixture_for_rate(first, second, target_tpr, |point| point.1, "target_tpr")
}

fn mixture_for_rate(
    first: (f64, f64),
    second: (f64, f64),
    target: f64,
    rate: impl Fn((f64, f64)) -> f64,
    name: &'static str,
) -> Result<Mixture> {
    check_rate(name, target)?;
    let (a, b) = (rate(first), rate(second));
    if target < a.min(b) || target > a.max(b) {
        return Err(EvaluateError::BadParameter {
            name,
            value: target,
            allowed: "between the two classifiers' rates",
        });
    }
    let share_first = if a == b { 1.0 } else { (target - b) / (a - b) };
    interpolate(first, second, share_first)
}

impl RocHull {
    /// The hull read as a function: the highest true positive rate reachable at false positive
    /// rate `fpr` by one hull vertex or a mixture of two neighbouring ones.
    pub fn tpr_at_fpr(&self, fpr: f64) -> Result<f64> {
        Ok(self.mixture_at_fpr(fpr)?.point.1)
    }

    /// The mixture of the two neighbouring hull vertices that reaches false positive rate
    /// `fpr` on the hull (the best classifier for a fixed false positive rate, the
    /// Neyman-Pearson criterion). At a vertex, that vertex alone (q = 1); on a vertical edge,
    /// its upper end.
    pub fn mixture_at_fpr(&self, fpr: f64) -> Result<Mixture> {
        check_rate("fpr", fpr)?;
        let vertices = self.vertices();
        // the last vertex with vertex.fpr <= fpr: the upper end of a vertical edge
        let upto = vertices.partition_point(|v| v.fpr <= fpr);
        let left = &vertices[upto.max(1) - 1];
        if left.fpr == fpr || upto == vertices.len() {
            return interpolate((left.fpr, left.tpr), (left.fpr, left.tpr), 1.0);
        }
        let right = &vertices[upto];
        mixture_for_fpr((left.fpr, left.tpr), (right.fpr, right.tpr), fpr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roc_curves::hull::roc_convex_hull;

    /// Worked by hand from the slides' formula tpr_q = q tpr1 + (1 - q) tpr2,
    /// fpr_q = q fpr1 + (1 - q) fpr2.
    #[test]
    fn interpolation_follows_the_slides_formula() {
        let mixture = interpolate((0.1, 0.5), (0.5, 0.9), 0.25).unwrap();
        // fpr = 0.25 * 0.1 + 0.75 * 0.5 = 0.4; tpr = 0.25 * 0.5 + 0.75 * 0.9 = 0.8
        assert!((mixture.point.0 - 0.4).abs() < 1e-12);
        assert!((mixture.point.1 - 0.8).abs() < 1e-12);
        assert!(interpolate((0.1, 0.5), (0.5, 0.9), 1.5).is_err());
    }

    #[test]
    fn a_target_rate_gives_the_share_that_reaches_it() {
        // fpr 0.2 between 0.1 and 0.5: q = (0.2 - 0.5) / (0.1 - 0.5) = 0.75; tpr = 0.6
        let mixture = mixture_for_fpr((0.1, 0.5), (0.5, 0.9), 0.2).unwrap();
        assert!((mixture.share_first - 0.75).abs() < 1e-12);
        assert!((mixture.point.1 - 0.6).abs() < 1e-12);
        // tpr 0.8 between 0.5 and 0.9: q = (0.8 - 0.9) / (0.5 - 0.9) = 0.25; fpr = 0.4
        let mixture = mixture_for_tpr((0.1, 0.5), (0.5, 0.9), 0.8).unwrap();
        assert!((mixture.share_first - 0.25).abs() < 1e-12);
        assert!((mixture.point.0 - 0.4).abs() < 1e-12);
        assert!(mixture_for_fpr((0.1, 0.5), (0.5, 0.9), 0.6).is_err());
    }

    #[test]
    fn the_hull_as_a_function_mixes_neighbouring_vertices() {
        // hull (0,0) (0,0.5) (0.25,0.875) (1,1); (0.5, 0.75) lies under it
        let hull = roc_convex_hull(&[(0.0, 0.5), (0.25, 0.875), (0.5, 0.75)]).unwrap();
        // fpr 0.125 halfway between (0, 0.5) and (0.25, 0.875): tpr 0.6875, q = 0.5
        let mixture = hull.mixture_at_fpr(0.125).unwrap();
        assert!((mixture.point.1 - 0.6875).abs() < 1e-12);
        assert!((mixture.share_first - 0.5).abs() < 1e-12);
        // fpr 0.625 on the edge (0.25, 0.875)-(1, 1): tpr = 0.875 + 0.375 * 0.125 / 0.75
        assert!((hull.tpr_at_fpr(0.625).unwrap() - 0.9375).abs() < 1e-12);
        // at fpr 0 the top of the vertical edge
        assert_eq!(hull.tpr_at_fpr(0.0).unwrap(), 0.5);
        assert_eq!(hull.tpr_at_fpr(1.0).unwrap(), 1.0);
        assert!(hull.tpr_at_fpr(1.5).is_err());
    }
}

//! Provost et al.'s Table 1 read on a hull: the ranges of iso-performance slope where each
//! learner is optimal, and the share of a published range over which a learner is, measured by
//! the angle of the iso-performance line.

use evaluate::SlopeRangeOwner;

/// A range of slopes and the learners optimal over it.
pub(crate) struct NamedRange {
    /// The lowest slope.
    pub(crate) low: f64,
    /// The highest slope.
    pub(crate) high: f64,
    /// The learners optimal over the range.
    pub(crate) learners: Vec<String>,
}

/// The slope table of a hull over curves named by `names`.
pub(crate) fn named_ranges(table: &[SlopeRangeOwner], names: &[&str]) -> Vec<NamedRange> {
    table
        .iter()
        .map(|range| NamedRange {
            low: range.low,
            high: range.high,
            learners: range
                .classifiers
                .iter()
                .map(|&c| names[c].to_string())
                .collect(),
        })
        .collect()
}

/// Share of a slope range above this share counts as the whole range (rounding of the
/// published bounds to two decimals moves a boundary by less).
pub(crate) const WHOLE_RANGE: f64 = 0.99;

/// For every learner optimal somewhere in the slope range [low, high], the share of the range
/// over which it is, measured by the angle of the iso-performance line (atan of the slope, so
/// that [0, inf) has the finite length pi / 2 and every slope counts alike); largest first.
pub(crate) fn shares_over(ranges: &[NamedRange], low: f64, high: f64) -> Vec<(String, f64)> {
    let length = high.atan() - low.atan();
    let mut shares: Vec<(String, f64)> = Vec::new();
    for range in ranges {
        let overlap = range.high.min(high).atan() - range.low.max(low).atan();
        if overlap <= 0.0 {
            continue;
        }
        for learner in &range.learners {
            match shares.iter_mut().find(|(name, _)| name == learner) {
                Some((_, share)) => *share += overlap / length,
                None => shares.push((learner.clone(), overlap / length)),
            }
        }
    }
    shares.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    shares
}

/// Share of [low, high] over which `learner` is optimal.
pub(crate) fn share_of(ranges: &[NamedRange], low: f64, high: f64, learner: &str) -> f64 {
    shares_over(ranges, low, high)
        .into_iter()
        .find(|(name, _)| name == learner)
        .map_or(0.0, |(_, share)| share)
}

/// The agreement verdict for a share of a published range.
pub(crate) fn verdict(share: f64) -> &'static str {
    if share >= WHOLE_RANGE {
        "whole range"
    } else if share > 0.0 {
        "part of it"
    } else {
        "not at all"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(low: f64, high: f64, learners: &[&str]) -> NamedRange {
        NamedRange {
            low,
            high,
            learners: learners.iter().map(|name| name.to_string()).collect(),
        }
    }

    /// Worked by hand: A optimal for slopes [0, 1], B for [1, inf). By angle, [0, 1] is
    /// atan(1) = pi/4 of [0, inf)'s pi/2, so each owns half of the whole range; [0, 0.5] is A's
    /// alone, and [0.5, 2] is split at 1: (pi/4 - atan 0.5) / (atan 2 - atan 0.5) = 0.5 too,
    /// since atan 2 + atan 0.5 = pi/2.
    #[test]
    fn shares_of_a_range_are_measured_by_angle() {
        let ours = [range(0.0, 1.0, &["A"]), range(1.0, f64::INFINITY, &["B"])];
        let whole = shares_over(&ours, 0.0, f64::INFINITY);
        assert_eq!(whole.len(), 2);
        assert!((whole[0].1 - 0.5).abs() < 1e-12 && (whole[1].1 - 0.5).abs() < 1e-12);
        assert_eq!(
            verdict(share_of(&ours, 0.0, f64::INFINITY, "A")),
            "part of it"
        );
        assert_eq!(verdict(share_of(&ours, 0.0, 0.5, "A")), "whole range");
        assert_eq!(verdict(share_of(&ours, 0.0, 0.5, "B")), "not at all");
        assert!((share_of(&ours, 0.5, 2.0, "B") - 0.5).abs() < 1e-12);
    }
}

//! Provost et al.'s Table 1 under the sampling of the folds, and their dominance read with the
//! confidence intervals they draw.
//!
//! Table 1 reads the hull of the curves averaged over ten folds, so the question "is a
//! difference from the published range sampling noise?" is asked of that average: the ten
//! folds are resampled with replacement (the same folds for every learner), the averaged curves,
//! their hull and the share of each published range over which the published learner is
//! optimal are recomputed, and the verdicts (whole range / part of it / not at all) counted.
//! `scripts/fidelity/provost_folds.py` is the independent reference of both readings
//! (`tests/provost_resampling.rs` checks this module against its vectors).

use rayon::prelude::*;

use evaluate::RocCurve;

use crate::error::Result;
use crate::provost_ranges::{named_ranges, share_of, verdict, WHOLE_RANGE};

/// Number of false positive rates at which the curves are averaged (evenly spaced, 0 to 1).
pub const SAMPLES: usize = 100;

/// Number of fold resamples the report draws.
pub const RESAMPLES: usize = 1000;

/// A difference from a published range is put down to the sampling of the folds when the
/// published learner is optimal somewhere in the range in at least this share of resamples.
pub const NOISE_SHARE: f64 = 0.10;

/// The false positive rate of sample `s` of [`SAMPLES`].
fn sample_fpr(s: usize) -> f64 {
    s as f64 / (SAMPLES - 1) as f64
}

/// Each learner's true positive rate at the [`SAMPLES`] false positive rates, fold by fold
/// (`curves[learner][fold]` in, `tprs[learner][fold][sample]` out): what
/// `evaluate::vertical_average` averages.
pub fn fold_samples(curves: &[Vec<&RocCurve>]) -> Vec<Vec<Vec<f64>>> {
    curves
        .iter()
        .map(|folds| {
            folds
                .iter()
                .map(|curve| {
                    (0..SAMPLES)
                        .map(|s| curve.tpr_at_fpr(sample_fpr(s)))
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Each learner's curve averaged over `folds` (fold indices, repeats allowed), as (false
/// positive rate, mean true positive rate) points; summed in the order of `folds`, as
/// `evaluate::vertical_average` sums, so that folds 0..k give its points exactly.
pub fn averaged(tprs: &[Vec<Vec<f64>>], folds: &[usize]) -> Vec<Vec<(f64, f64)>> {
    tprs.iter()
        .map(|learner| {
            (0..SAMPLES)
                .map(|s| {
                    let values: Vec<f64> = folds.iter().map(|&f| learner[f][s]).collect();
                    (sample_fpr(s), stats::summary::mean(&values))
                })
                .collect()
        })
        .collect()
}

/// A published slope range and the position of its learner among the averaged learners.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedRange {
    /// The lowest slope.
    pub low: f64,
    /// The highest slope (may be infinite).
    pub high: f64,
    /// The published learner's position in `tprs`.
    pub learner: usize,
}

/// The share of each range over which its learner is optimal on the hull of the curves
/// averaged over `folds`.
pub fn shares(
    tprs: &[Vec<Vec<f64>>],
    ranges: &[PublishedRange],
    folds: &[usize],
) -> Result<Vec<f64>> {
    let names: Vec<String> = (0..tprs.len()).map(|l| l.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let hull = evaluate::classifiers_hull(&averaged(tprs, folds))?;
    let table = named_ranges(&hull.slope_table(), &names);
    Ok(ranges
        .iter()
        .map(|range| share_of(&table, range.low, range.high, names[range.learner]))
        .collect())
}

/// Position of a share's verdict: 0 whole range, 1 part of it, 2 not at all.
pub fn verdict_index(share: f64) -> usize {
    if share >= WHOLE_RANGE {
        0
    } else if share > 0.0 {
        1
    } else {
        debug_assert_eq!(verdict(share), "not at all");
        2
    }
}

/// Over `resamples` (each a list of fold indices), how often each range's learner is optimal
/// over the whole range, over part of it, and not at all: `[whole, part, none]` per range.
pub fn resample_verdicts(
    tprs: &[Vec<Vec<f64>>],
    ranges: &[PublishedRange],
    resamples: &[Vec<usize>],
) -> Result<Vec<[usize; 3]>> {
    let verdicts = resamples
        .par_iter()
        .map(|folds| shares(tprs, ranges, folds))
        .collect::<Result<Vec<Vec<f64>>>>()?;
    let mut counts = vec![[0usize; 3]; ranges.len()];
    for resample in verdicts {
        for (count, share) in counts.iter_mut().zip(resample) {
            count[verdict_index(share)] += 1;
        }
    }
    Ok(counts)
}

/// `count` resamples of `folds` folds with replacement, seeded: resample `r` takes each fold as
/// often as `stats::bootstrap::resample_counts` (one stratum, `seed`, index `r`) says, in fold
/// order. Independent of the number of threads.
pub fn fold_resamples(folds: usize, count: usize, seed: u64) -> Vec<Vec<usize>> {
    let strata = stats::bootstrap::Strata::new(&vec![0; folds]);
    let mut multiplicities = vec![0u32; folds];
    (0..count)
        .map(|r| {
            stats::bootstrap::resample_counts(&strata, seed, r, &mut multiplicities);
            multiplicities
                .iter()
                .enumerate()
                .flat_map(|(fold, &n)| std::iter::repeat_n(fold, n as usize))
                .collect()
        })
        .collect()
}

/// Dominance read with the intervals of the averaged true positive rates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntervalReading {
    /// Learners whose lower bound is at least every other learner's upper bound at every
    /// sample (significant dominators).
    pub significant: Vec<usize>,
    /// Learners no other learner's lower bound exceeds their upper bound at any sample.
    pub never_below: Vec<usize>,
}

/// The interval reading over all folds: each averaged true positive rate's binomial interval
/// of level 1 - `alpha` by the normal approximation with `positives` (the folds' pooled
/// positives) trials, as `evaluate::vertical_average` with `IntervalMethod::Normal` draws it.
pub fn interval_reading(
    tprs: &[Vec<Vec<f64>>],
    positives: f64,
    alpha: f64,
) -> Result<IntervalReading> {
    let folds: Vec<usize> = (0..tprs.first().map_or(0, Vec::len)).collect();
    let bands = averaged(tprs, &folds)
        .into_iter()
        .map(|points| {
            points
                .into_iter()
                .map(|(_, mean)| {
                    let count = (mean * positives).clamp(0.0, positives);
                    stats::normal_interval(count, positives, alpha).map(|i| (i.low, i.high))
                })
                .collect::<std::result::Result<Vec<(f64, f64)>, _>>()
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let learners = 0..bands.len();
    let above = |a: usize, b: usize| bands[a].iter().zip(&bands[b]).all(|(p, q)| p.0 >= q.1);
    let ever_below = |a: usize, b: usize| bands[a].iter().zip(&bands[b]).any(|(p, q)| q.0 > p.1);
    Ok(IntervalReading {
        significant: learners
            .clone()
            .filter(|&a| learners.clone().all(|b| b == a || above(a, b)))
            .collect(),
        never_below: learners
            .clone()
            .filter(|&a| !learners.clone().any(|b| b != a && ever_below(a, b)))
            .collect(),
    })
}

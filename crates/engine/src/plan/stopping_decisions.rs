//! The sequential decisions of one dataset's pairs from its learners' per-repetition means
//! (issue 44): one function for the report, on a finished run's record, and for the runner,
//! after each repetition, so both decide the same way. A repetition is one observation: the
//! mean of the measure over its folds; only repetitions complete for both learners of a pair,
//! in order from the first, are used, so the decision depends on neither the thread count nor
//! the order units finished in.

use crate::error::Result;
use crate::plan::stopping::{repetition_sizes, Stopping};
use crate::plan::units::PreparedDataset;

/// The decision on one pair of learners on one dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct PairStop {
    /// Learner a (an index into the plan's learners).
    pub a: usize,
    /// Learner b.
    pub b: usize,
    /// The decision, the repetitions it used and the e-value or boundary path.
    pub decision: stats::PairDecision,
}

/// Each learner's mean of the measure over the folds of each repetition of `dataset`, in
/// repetition order: `None` for a repetition with a fold missing, failed or not finite.
/// `value(learner, split)` gives one split's value (`split` indexes the dataset's splits).
pub fn repetition_means(
    dataset: &PreparedDataset,
    learners: usize,
    value: impl Fn(usize, usize) -> Option<f64>,
) -> Vec<Vec<Option<f64>>> {
    let sizes = repetition_sizes(dataset);
    (0..learners)
        .map(|learner| {
            let mut sums = vec![Some(0.0); sizes.len()];
            for (index, split) in dataset.plan.splits.iter().enumerate() {
                let cell = &mut sums[split.repetition];
                *cell = match (*cell, value(learner, index)) {
                    (Some(sum), Some(v)) if v.is_finite() => Some(sum + v),
                    _ => None,
                };
            }
            sums.iter()
                .zip(&sizes)
                .map(|(sum, &size)| sum.map(|s| s / size as f64))
                .collect()
        })
        .collect()
}

/// The decisions of every deciding pair of one dataset from its learners' per-repetition
/// `means` ([`repetition_means`]), in the order of `stopping.pairs`. Each pair uses its
/// complete repetitions from the first up to the first incomplete one.
pub fn stopping_decisions(
    means: &[Vec<Option<f64>>],
    stopping: &Stopping,
) -> Result<Vec<PairStop>> {
    stopping
        .pairs
        .iter()
        .map(|&(a, b)| {
            let differences: Vec<f64> = means[a]
                .iter()
                .zip(&means[b])
                .map_while(|pair| match pair {
                    (Some(x), Some(y)) if stopping.lower_is_better => Some(y - x),
                    (Some(x), Some(y)) => Some(x - y),
                    _ => None,
                })
                .collect();
            let decision = stats::sequential_decision(&differences, &stopping.settings)?;
            Ok(PairStop { a, b, decision })
        })
        .collect()
}

/// The repetition after which a dataset stops: when every pair is decided, the last of their
/// decisions; else none (it runs on to `max_repetitions`).
pub fn dataset_stop(decisions: &[PairStop]) -> Option<usize> {
    decisions
        .iter()
        .map(|pair| {
            (pair.decision.decision != stats::Decision::Undecided)
                .then_some(pair.decision.repetitions)
        })
        .collect::<Option<Vec<usize>>>()
        .map(|done| done.into_iter().max().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::stopping::{StopPairs, StopRule, StoppingConfig};

    fn stopping(pairs: Vec<(usize, usize)>) -> Stopping {
        let config = StoppingConfig {
            rule: StopRule::EValue,
            alpha: 0.05,
            delta_min: Some(1.0),
            rope: None,
            min_repetitions: 2,
            max_repetitions: None,
            measure: None,
            pairs: StopPairs::All,
            control: None,
        };
        Stopping {
            config,
            settings: stats::SequentialSettings {
                rule: stats::SequentialRule::EValue { delta_min: 1.0 },
                alpha: 0.05,
                min_repetitions: 2,
                max_repetitions: 10,
            },
            measure: 0,
            lower_is_better: true,
            pairs,
            repetitions: 10,
        }
    }

    /// Learner a's error is always 0.05 below b's: the differences are equal, t is infinite,
    /// and the e-value is its limit exp(-n/2) 1F1(n/2; 1/2; n/2): 19.33 at n = 5, below 20,
    /// and 42.596492976773 at n = 6 (mpmath), so a is decided better at repetition 6. Learner c
    /// misses repetition 4: its pair uses repetitions 1 to 3 only, and stays undecided.
    #[test]
    fn lower_is_better_orients_the_pair_and_a_missing_repetition_ends_the_sequence() {
        let a: Vec<Option<f64>> = [0.10, 0.11, 0.10, 0.12, 0.10, 0.11, 0.10, 0.11]
            .map(Some)
            .to_vec();
        let b: Vec<Option<f64>> = a.iter().map(|v| v.map(|v| v + 0.05)).collect();
        let mut c = a.clone();
        c[3] = None;
        let decisions = stopping_decisions(&[a, b, c], &stopping(vec![(0, 1), (2, 1)])).unwrap();
        let first = &decisions[0].decision;
        assert_eq!(first.decision, stats::Decision::ABetter);
        assert_eq!(first.repetitions, 6);
        let e = first.e_value().unwrap();
        assert!((e / 42.596_492_976_773_62 - 1.0).abs() < 1e-10, "{e}");
        assert_eq!(decisions[1].decision.repetitions, 3);
        assert_eq!(decisions[1].decision.decision, stats::Decision::Undecided);
        assert_eq!(dataset_stop(&decisions), None);
        assert_eq!(dataset_stop(&decisions[..1]), Some(6));
    }
}

//! What the selected tests on a fixed test set ask of a plan, checked and added before any fit:
//! the whole-training models they read, a fixed test set in every dataset's protocol, and as
//! many learners as a contrast has columns. Running them is [`crate::record::test_set_run`]'s.

use crate::error::Result;
use crate::measures::test_set::{TestSetFn, TestSetTest};
use crate::plan::units::Plan;

/// The (dataset, learner) pairs whose whole-training models the selected `tests` need: every
/// learner on every dataset whose protocol has a fixed test set, when a test on the test set is
/// selected; none otherwise.
pub fn needed_models(tests: &[TestSetTest], plan: &Plan) -> Vec<(usize, usize)> {
    if tests.is_empty() {
        return Vec::new();
    }
    (0..plan.datasets.len())
        .filter(|&dataset| plan.datasets[dataset].whole_training.is_some())
        .flat_map(|dataset| (0..plan.learners.len()).map(move |learner| (dataset, learner)))
        .collect()
}

/// Checks, before any fit, that every dataset's protocol has one fixed test set when a test on
/// the test set is selected; the error names the key, the test and the datasets.
pub fn check(tests: &[TestSetTest], plan: &Plan) -> Result<()> {
    check_learners(tests, plan)?;
    let Some(test) = tests.first() else {
        return Ok(());
    };
    let without: Vec<&str> = plan
        .datasets
        .iter()
        .filter(|dataset| dataset.whole_training.is_none())
        .map(|dataset| dataset.name.as_str())
        .collect();
    if without.is_empty() {
        return Ok(());
    }
    crate::error::bail!(
        "key 'tests': '{}' runs on a fixed test set, but the protocol gives {} none (every \
         split must test on the same rows: protocol kind 'aslan', or 'holdout' with \
         repetitions = 1); remove it or change the protocol",
        test.name(),
        if without.len() == plan.datasets.len() {
            "the datasets".to_string()
        } else {
            format!("datasets {}", without.join(", "))
        }
    )
}

/// Checks that a test over all learners whose options are written for k learners (a contrast
/// of k columns) runs with k learners; the error names the key, the test and both numbers.
fn check_learners(tests: &[TestSetTest], plan: &Plan) -> Result<()> {
    for test in tests {
        if let TestSetFn::All {
            contrast: Some(rows),
            ..
        } = test.run()
        {
            let k = rows.first().map_or(0, Vec::len);
            let have = plan.learners.len();
            if k != have {
                crate::error::bail!(
                    "key 'tests': '{}' has a contrast with {k} coefficients per row, but the \
                     config has {have} learners: give one coefficient per learner, in the \
                     order of 'learners'",
                    test.name()
                );
            }
        }
    }
    Ok(())
}

//! The conformance suite's quality smoke tests: off by default ([`super::check`] checks
//! validity only, so that a learner predicting the class priors passes), run by a test that
//! calls [`check_quality`]. Each check is named in [`QUALITY_CHECKS`] and in
//! `docs/own-learner.md`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::{fit_predict, single_class_probabilities, split, wide_dataset};
use crate::model::Learner;

/// The quality checks, by name: what each demands.
pub const QUALITY_CHECKS: [(&str, &str); 2] = [
    (
        "far-apart classes",
        "on 300 numeric attributes whose two classes lie 3 standard deviations apart, at least \
         8 of 10 test rows right",
    ),
    (
        "single-class training set",
        "trained on one class, that class predicted for every test row whose nominal values \
         all occur in the training rows",
    ),
];

/// One quality check: `Err` says what went wrong.
type QualityCheck = fn(&dyn Learner) -> Result<(), String>;

/// Runs the quality checks of [`QUALITY_CHECKS`] on `learner` (each also checks validity);
/// the error lists each failure as "check: problem".
pub fn check_quality(learner: &dyn Learner) -> Result<(), Vec<String>> {
    let checks: [QualityCheck; 2] = [far_apart, seen_class];
    let mut failures = Vec::new();
    for ((name, _), check) in QUALITY_CHECKS.iter().zip(checks) {
        match catch_unwind(AssertUnwindSafe(|| check(learner))) {
            Ok(Ok(())) => {}
            Ok(Err(problem)) => failures.push(format!("{name}: {problem}")),
            Err(panic) => failures.push(format!(
                "{name}: panicked: {}",
                crate::model::panic_message(panic.as_ref())
            )),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// At least 8 of the 10 test rows of the wide dataset right.
fn far_apart(learner: &dyn Learner) -> Result<(), String> {
    let dataset = wide_dataset();
    let (train, test) = split(&dataset, 30);
    let probabilities = fit_predict(learner, "300 attributes", &train, &test)?;
    let correct = probabilities
        .predicted_classes()
        .iter()
        .enumerate()
        .filter(|(position, &class)| class == (30 + position) % 2)
        .count();
    if correct < 8 {
        return Err(format!("only {correct} of 10 test rows right"));
    }
    Ok(())
}

/// The one class seen in training predicted for every test row.
fn seen_class(learner: &dyn Learner) -> Result<(), String> {
    let capabilities = learner.capabilities();
    for (case, probabilities) in single_class_probabilities(learner, &capabilities)? {
        for (row, predicted) in probabilities.predicted_classes().into_iter().enumerate() {
            if predicted != 1 {
                return Err(format!(
                    "{case}: row {row} predicts class {predicted}, but only class 1 was seen: {:?}",
                    probabilities.row(row)
                ));
            }
        }
    }
    Ok(())
}

//! The bootstrap intervals of the evaluation alone, as `compare bootstrap` prints them: for each
//! score column the percentile and BCa intervals (class-stratified, seeded) of every measure of
//! [`IntervalMeasure::ALL`] it supports, and for every two columns the paired intervals of their
//! differences on the same resamples. The calls, options and resamples are those of
//! [`crate::reports::evaluation::evaluation`], so `compare bootstrap` and `roc --evaluate` give the same
//! intervals for the same flags.

use serde::Serialize;

use crate::error::{EvaluateError, Result};
use crate::reports::evaluation::{
    column_scores, differences, model_intervals, EvaluationOptions, MeasureInterval, PairedInterval,
};
use crate::scores::calibration::check_probabilities;

/// One model's intervals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelIntervals {
    /// The score column.
    pub name: String,
    /// Whether every score is a probability in [0, 1] (else no Brier or ECE interval).
    pub probabilities: bool,
    /// One interval per measure, in the order of [`IntervalMeasure::ALL`].
    ///
    /// [`IntervalMeasure::ALL`]: crate::reports::evaluation::IntervalMeasure::ALL
    pub intervals: Vec<MeasureInterval>,
}

/// Every model's intervals and every pair's paired intervals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Intervals {
    /// The options they were computed with.
    pub options: EvaluationOptions,
    /// Each model's intervals.
    pub models: Vec<ModelIntervals>,
    /// Each pair's (i < j) intervals of first - second, for every measure both support.
    pub differences: Vec<PairedInterval>,
}

/// The intervals of score columns `(name, scores)` against `truth` with positive label
/// `positive`; each model's errors are marked with its column.
pub fn bootstrap_intervals(
    truth: &[String],
    positive: &str,
    columns: &[(String, Vec<f64>)],
    options: &EvaluationOptions,
) -> Result<Intervals> {
    let labels: Vec<bool> = truth.iter().map(|label| label == positive).collect();
    let mut data = Vec::with_capacity(columns.len());
    let mut models = Vec::with_capacity(columns.len());
    for (name, scores) in columns {
        let in_column = |error| EvaluateError::In {
            what: format!("column '{name}'"),
            error: Box::new(error),
        };
        let scores = column_scores(&labels, scores).map_err(in_column)?;
        let probabilities = check_probabilities("calibration", &scores).is_ok();
        let intervals = model_intervals(&scores, probabilities, options).map_err(in_column)?;
        models.push(ModelIntervals {
            name: name.clone(),
            probabilities,
            intervals,
        });
        data.push((name.clone(), scores));
    }
    let probabilities: Vec<bool> = models.iter().map(|m| m.probabilities).collect();
    Ok(Intervals {
        options: *options,
        models,
        differences: differences(&data, &probabilities, options)?,
    })
}

//! A run's unit predictions as the rows of a predictions file, the run's class order mapped to
//! the task's by name, and the run's description.

use engine::{Part, UnitPredictions};

use crate::description::{FoldEvaluation, RunDescription};
use crate::expectation::FoldKey;
use crate::expectation::TaskExpectation;
use crate::predictions::{PredictionRow, Predictions};

/// The task's index of each of the run's classes, or why a class is not the task's.
fn class_map(classes: &[String], task: &TaskExpectation) -> Result<Vec<usize>, String> {
    classes
        .iter()
        .map(|class| {
            task.class_labels
                .iter()
                .position(|l| l == class)
                .ok_or_else(|| {
                    format!(
                        "its class '{}' is not one of the task's labels {{{}}}",
                        data::shown(class),
                        data::shown(&task.class_labels.join(", "))
                    )
                })
        })
        .collect()
}

/// The rows of every unit's test part, in fold order: confidences in the task's label order
/// (0 for a label the run's data did not have), the prediction the run's own (its most probable
/// class, the first in the run's class order on ties, as the per-fold table counts it).
pub(crate) fn prediction_rows(
    classes: &[String],
    units: &[(FoldKey, UnitPredictions)],
    task: &TaskExpectation,
) -> Result<Vec<PredictionRow>, String> {
    let map = class_map(classes, task)?;
    let mut rows = Vec::new();
    for (key, unit) in units {
        let predicted = unit.probabilities.predicted_classes();
        for position in 0..unit.rows.len() {
            if unit.parts[position] != Part::Test {
                continue;
            }
            let mut confidences = vec![0.0; task.class_labels.len()];
            for (class, &value) in unit.probabilities.row(position).iter().enumerate() {
                confidences[map[class]] = value;
            }
            rows.push(PredictionRow {
                key: *key,
                row_id: unit.rows[position],
                prediction: map[predicted[position]],
                correct: map[unit.truth[position]],
                confidences,
            });
        }
    }
    Ok(rows)
}

/// The description: the learner's options as parameter settings (its `kind` first), each
/// fold's predictive accuracy.
pub(crate) fn description(
    table: &toml::Table,
    predictions: &Predictions,
    flow_id: u64,
) -> RunDescription {
    let parameters = table
        .iter()
        .map(|(name, value)| {
            let text = match value {
                toml::Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            (name.clone(), text)
        })
        .collect();
    let evaluations = predictions
        .fold_accuracy()
        .into_iter()
        .map(|(key, value)| FoldEvaluation {
            key,
            measure: "predictive_accuracy".into(),
            value,
        })
        .collect();
    RunDescription {
        task_id: predictions.task_id,
        flow_id,
        parameters,
        evaluations,
    }
}

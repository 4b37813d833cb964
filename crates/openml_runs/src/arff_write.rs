//! The predictions file as openml-python writes it (`OpenMLRun._generate_arff_dict`, encoded by
//! liac-arff): relation `openml_task_<id>_predictions`; `repeat`, `fold`, `sample`, `row_id`
//! numeric; `prediction` and `correct` nominal over the task's labels; one `confidence.<label>`
//! numeric column per label, in the labels' order.

use std::fmt::Write;

use crate::arff_text::{arff_name, arff_number, arff_quoted};
use crate::error::RunsError;
use crate::predictions::Predictions;

/// The text of `predictions.arff`; refuses a row whose label indices or number of
/// confidences do not fit the labels.
pub fn write_predictions(predictions: &Predictions) -> Result<String, RunsError> {
    let labels = &predictions.class_labels;
    let mut text = header(predictions);
    for (position, row) in predictions.rows.iter().enumerate() {
        if row.prediction >= labels.len()
            || row.correct >= labels.len()
            || row.confidences.len() != labels.len()
        {
            return Err(RunsError::Invalid(format!(
                "row {position} (row id {}) does not fit the task's {} labels",
                row.row_id,
                labels.len()
            )));
        }
        let _ = write!(
            text,
            "{},{},{},{},{},{}",
            row.key.repeat,
            row.key.fold,
            row.key.sample,
            row.row_id,
            arff_quoted(&labels[row.prediction]),
            arff_quoted(&labels[row.correct]),
        );
        for &confidence in &row.confidences {
            text.push(',');
            text.push_str(&arff_number(confidence));
        }
        text.push('\n');
    }
    Ok(text)
}

/// The relation and the attribute declarations, then `@DATA`.
fn header(predictions: &Predictions) -> String {
    let labels = &predictions.class_labels;
    let nominal = labels
        .iter()
        .map(|label| arff_quoted(label))
        .collect::<Vec<_>>()
        .join(", ");
    let mut text = format!(
        "@RELATION openml_task_{}_predictions\n\n",
        predictions.task_id
    );
    for name in ["repeat", "fold", "sample", "row_id"] {
        let _ = writeln!(text, "@ATTRIBUTE {name} NUMERIC");
    }
    let _ = writeln!(text, "@ATTRIBUTE prediction {{{nominal}}}");
    let _ = writeln!(text, "@ATTRIBUTE correct {{{nominal}}}");
    for label in labels {
        let name = arff_name(&format!("confidence.{label}"));
        let _ = writeln!(text, "@ATTRIBUTE {name} NUMERIC");
    }
    text.push_str("\n@DATA\n");
    text
}

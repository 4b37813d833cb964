//! The check of a predictions file as OpenML's evaluation engine makes it: the relation, the
//! columns found by name (a `confidence.` column for every class label), then every row (see
//! [`crate::check_rows`]) and every fold's count of predictions.

use std::path::Path;

use crate::arff_read::{read_predictions_file, Attribute, PredictionsFile};
use crate::check_rows::RowChecker;
use crate::columns::Columns;
use crate::error::RunsError;
use crate::expectation::TaskExpectation;
use crate::problem::Problem;

/// Every problem of the predictions file `path` for the task `expected` (none: it passes); an
/// error only when the file does not read as ARFF at all.
pub fn check_predictions(
    path: &Path,
    expected: &TaskExpectation,
) -> Result<Vec<Problem>, RunsError> {
    let file = read_predictions_file(path)?;
    let mut problems = relation_problems(&file, expected);
    let columns = find_columns(&file, expected, &mut problems);
    problems.extend(file.problems.iter().cloned());
    let Some(columns) = columns else {
        return Ok(problems);
    };
    let mut checker = RowChecker::new(expected, &columns);
    for row in &file.rows {
        checker.check(row, &mut problems);
    }
    checker.finish(&mut problems);
    Ok(problems)
}

/// The relation must be `openml_task_<id>_predictions` of this task.
fn relation_problems(file: &PredictionsFile, expected: &TaskExpectation) -> Vec<Problem> {
    let wanted = expected.relation();
    match &file.relation {
        Some((name, _)) if *name == wanted => Vec::new(),
        Some((name, line)) => vec![Problem::at(
            *line,
            format!(
                "the relation is '{}'; a predictions file of task {} is '{wanted}'",
                data::shown(name),
                expected.task_id
            ),
        )],
        None => vec![Problem::whole(format!(
            "no @relation line; expected '@relation {wanted}'"
        ))],
    }
}

/// The position of the attribute `name`, which must be numeric (`nominal` false) or nominal;
/// `None` with a problem when it is absent, declared twice or of the other kind.
fn column(
    attributes: &[Attribute],
    name: &str,
    nominal: bool,
    problems: &mut Vec<Problem>,
) -> Option<usize> {
    let found: Vec<usize> = (0..attributes.len())
        .filter(|&i| attributes[i].name == name)
        .collect();
    let Some(&first) = found.first() else {
        problems.push(Problem::whole(format!(
            "no '{}' column; the evaluation engine finds its columns by name",
            data::shown(name)
        )));
        return None;
    };
    if let Some(&again) = found.get(1) {
        problems.push(Problem::at(
            attributes[again].line,
            format!("the column '{}' is declared twice", data::shown(name)),
        ));
        return None;
    }
    let attribute = &attributes[first];
    if attribute.values.is_some() != nominal {
        let kind = if nominal {
            "nominal {...} over the task's labels"
        } else {
            "NUMERIC"
        };
        problems.push(Problem::at(
            attribute.line,
            format!("the column '{}' must be {kind}", data::shown(name)),
        ));
        return None;
    }
    Some(first)
}

/// The columns the checker reads, or `None` (with its problems) if one is missing.
fn find_columns(
    file: &PredictionsFile,
    expected: &TaskExpectation,
    problems: &mut Vec<Problem>,
) -> Option<Columns> {
    let attributes = &file.attributes;
    let numeric =
        |name: &str, problems: &mut Vec<Problem>| column(attributes, name, false, problems);
    let repeat = numeric("repeat", problems);
    let fold = numeric("fold", problems);
    let row_id = numeric("row_id", problems);
    let sample = attributes
        .iter()
        .any(|a| a.name == "sample")
        .then(|| numeric("sample", problems));
    let confidences: Vec<Option<usize>> = expected
        .class_labels
        .iter()
        .map(|label| numeric(&format!("confidence.{label}"), problems))
        .collect();
    extra_confidences(attributes, expected, problems);
    let prediction = column(attributes, "prediction", true, problems);
    let correct = column(attributes, "correct", true, problems);
    for found in [prediction, correct].into_iter().flatten() {
        label_problems(&attributes[found], expected, problems);
    }
    Some(Columns {
        repeat: repeat?,
        fold: fold?,
        sample: sample.map_or(Some(None), |s| s.map(Some))?,
        row_id: row_id?,
        prediction: prediction?,
        correct: correct?,
        confidences: confidences.into_iter().collect::<Option<_>>()?,
    })
}

/// A `confidence.` column of a label the task does not have.
fn extra_confidences(
    attributes: &[Attribute],
    expected: &TaskExpectation,
    problems: &mut Vec<Problem>,
) {
    for attribute in attributes {
        if let Some(label) = attribute.name.strip_prefix("confidence.") {
            if !expected.class_labels.iter().any(|l| l == label) {
                problems.push(Problem::at(
                    attribute.line,
                    format!(
                        "the column '{}' names '{}', which is not one of the task's labels {{{}}}",
                        data::shown(&attribute.name),
                        data::shown(label),
                        data::shown(&expected.class_labels.join(", "))
                    ),
                ));
            }
        }
    }
}

/// A nominal column's declared values must be the task's labels, in its order.
fn label_problems(attribute: &Attribute, expected: &TaskExpectation, problems: &mut Vec<Problem>) {
    let declared = attribute.values.as_deref().unwrap_or_default();
    if declared != expected.class_labels.as_slice() {
        problems.push(Problem::at(attribute.line, format!(
            "the column '{}' declares {{{}}}; the task's labels are {{{}}} (exactly, in this order)",
            data::shown(&attribute.name),
            data::shown(&declared.join(", ")),
            data::shown(&expected.class_labels.join(", "))
        )));
    }
}

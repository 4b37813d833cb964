//! A run folder written by openml-python's own writer (`OpenMLRun.to_filesystem`, by
//! `tests/data/openml_python_written/make_run.py`) for the fixture task 1001: our checker
//! accepts it, and our writer writes the same predictions file, byte for byte, from the same
//! rows (`rows.json` there).

use std::path::PathBuf;

use openml_runs::{
    check_description, check_predictions, expectation_of, write_predictions, FoldKey,
    PredictionRow, Predictions,
};

/// The generator's folder.
fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/openml_python_written")
}

/// The expectation of fixture task 1001.
fn task_1001() -> openml_runs::TaskExpectation {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../openml/tests/data/cache/org/openml/www/tasks/1001");
    expectation_of(&openml::read_task(&dir).unwrap()).unwrap()
}

#[test]
fn our_checker_accepts_openml_pythons_run_folder() {
    let task = task_1001();
    let run = folder().join("run");
    let problems = check_predictions(&run.join("predictions.arff"), &task).unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
    let problems = check_description(&run.join("description.xml"), &task).unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn our_writer_writes_openml_pythons_predictions_file_from_the_same_rows() {
    let text = std::fs::read_to_string(folder().join("rows.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let labels: Vec<String> = serde_json::from_value(json["labels"].clone()).unwrap();
    let index = |value: &serde_json::Value| labels.iter().position(|l| value == l).unwrap();
    let rows = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let number = |i: usize| row[i].as_u64().unwrap() as u32;
            PredictionRow {
                key: FoldKey {
                    repeat: number(0),
                    fold: number(1),
                    sample: number(2),
                },
                row_id: number(3),
                prediction: index(&row[4]),
                correct: index(&row[5]),
                confidences: (6..6 + labels.len())
                    .map(|i| row[i].as_f64().unwrap())
                    .collect(),
            }
        })
        .collect();
    let predictions = Predictions {
        task_id: 1001,
        class_labels: labels.clone(),
        rows,
    };
    let theirs = std::fs::read_to_string(folder().join("run/predictions.arff")).unwrap();
    assert_eq!(write_predictions(&predictions).unwrap(), theirs);
}

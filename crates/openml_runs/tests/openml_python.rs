//! openml-python's own code reads a run folder we write (`OpenMLRun.from_filesystem`, offline:
//! its XML and ARFF parsers) and scores the predictions per fold
//! (`OpenMLRun.get_metric_fn(accuracy_score)`): its accuracies equal ours to 1e-12, and the
//! description's per-fold evaluations, task id and flow id read back as written.
//!
//! Needs openml-python and scikit-learn in `$EXPERIMENTS_PYTHON` (else `python3`); skipped,
//! saying why, without them. The script is `tests/data/openml_python/read_run.py`.

mod common;

use openml_runs::{write_description, write_predictions, FoldEvaluation, RunDescription};

#[test]
fn openml_python_reads_our_run_and_agrees_on_every_folds_accuracy() {
    if !common::has_openml("the openml-python reading of a written run") {
        return;
    }
    let predictions = common::predictions();
    let accuracy = predictions.fold_accuracy();
    let description = RunDescription {
        task_id: 59,
        flow_id: 8353,
        parameters: vec![
            ("k".into(), "3".into()),
            ("weights".into(), "a<b & 'c'".into()),
        ],
        evaluations: accuracy
            .iter()
            .map(|&(key, value)| FoldEvaluation {
                key,
                measure: "predictive_accuracy".into(),
                value,
            })
            .collect(),
    };
    let folder = common::scratch("openml-python");
    std::fs::write(
        folder.join("predictions.arff"),
        write_predictions(&predictions).unwrap(),
    )
    .unwrap();
    std::fs::write(
        folder.join("description.xml"),
        write_description(&description),
    )
    .unwrap();
    let read = common::read_by_openml_python(&folder);
    assert_eq!(read["task_id"], 59);
    assert_eq!(read["flow_id"], 8353);
    let labels = common::labels();
    assert_eq!(read["labels"], serde_json::json!(labels));
    let mut names: Vec<String> = [
        "repeat",
        "fold",
        "sample",
        "row_id",
        "prediction",
        "correct",
    ]
    .map(String::from)
    .to_vec();
    names.extend(labels.iter().map(|l| format!("confidence.{l}")));
    assert_eq!(read["attributes"], serde_json::json!(names));
    let per_fold = read["per_fold"].as_array().unwrap();
    assert_eq!(per_fold.len(), accuracy.len());
    for (theirs, (key, ours)) in per_fold.iter().zip(&accuracy) {
        assert_eq!(theirs[0], key.repeat);
        assert_eq!(theirs[1], key.fold);
        let value = theirs[2].as_f64().unwrap();
        assert!(
            (value - ours).abs() <= 1e-12,
            "{key:?}: openml-python {value}, ours {ours}"
        );
        let stored = &read["fold_evaluations"]["predictive_accuracy"][key.repeat.to_string()]
            [key.fold.to_string()];
        assert_eq!(stored.as_f64(), Some(*ours), "{key:?}");
    }
}

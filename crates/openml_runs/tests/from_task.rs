//! `expectation_of` on the openml crate's fixture tasks: the labels and every row's true label
//! equal liac-arff's reading of the dataset (`tests/data/task_truth/truth.json`, written by
//! `make_truth.py` there), the folds the task's.

use std::path::PathBuf;

use openml_runs::{expectation_of, FoldKey};

/// The fixture cache's folder of task `id`.
fn task_dir(id: u64) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../openml/tests/data/cache/org/openml/www/tasks")
        .join(id.to_string())
}

#[test]
fn every_rows_true_label_is_liac_arffs() {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/task_truth/truth.json"),
    )
    .unwrap();
    let truth: serde_json::Value = serde_json::from_str(&text).unwrap();
    for id in [1001, 1002, 1003] {
        let task = openml::read_task(&task_dir(id)).unwrap();
        let expected = expectation_of(&task).unwrap();
        let theirs = &truth[id.to_string()];
        assert_eq!(
            theirs["class_labels"],
            serde_json::json!(expected.class_labels)
        );
        let labels: Vec<&str> = expected
            .truth
            .iter()
            .map(|t| expected.class_labels[t.unwrap()].as_str())
            .collect();
        assert_eq!(theirs["labels"], serde_json::json!(labels), "task {id}");
        assert_eq!(expected.n_rows, labels.len());
        assert_eq!(expected.folds.len(), task.splits.len());
        for fold in &task.splits {
            let key = FoldKey {
                repeat: fold.repeat,
                fold: fold.fold,
                sample: fold.sample,
            };
            assert_eq!(expected.folds[&key], fold.test);
        }
    }
}

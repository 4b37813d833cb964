//! A hand-made task and predictions on it, shared by the tests: three labels (one with a space,
//! one with a quote and a percent sign, so that ARFF quoting is exercised), nine rows, two
//! repeats of three folds.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use openml_runs::{FoldKey, PredictionRow, Predictions, TaskExpectation};

/// The labels, in the task's order.
pub fn labels() -> Vec<String> {
    ["Iris-setosa", "Iris versicolor", "it's 50%"]
        .map(String::from)
        .to_vec()
}

/// The task: row `i`'s label is `i % 3`; repeat `r` fold `f` tests the rows with
/// `(i + r) % 3 == f`.
pub fn task() -> TaskExpectation {
    let mut folds = BTreeMap::new();
    for repeat in 0..2 {
        for fold in 0..3 {
            let rows = (0..9u32).filter(|i| (i + repeat) % 3 == fold).collect();
            folds.insert(
                FoldKey {
                    repeat,
                    fold,
                    sample: 0,
                },
                rows,
            );
        }
    }
    TaskExpectation {
        task_id: 59,
        class_labels: labels(),
        n_rows: 9,
        folds,
        truth: (0..9).map(|i| Some(i % 3)).collect(),
    }
}

/// Predictions of every test row of every fold: uneven probabilities (thirds and sevenths, so
/// that the written numbers need all their digits), the prediction their largest.
pub fn predictions() -> Predictions {
    let task = task();
    let mut rows = Vec::new();
    for (key, test) in &task.folds {
        for &row_id in test {
            let weights: Vec<f64> = (0..3)
                .map(|k| 1.0 / f64::from(1 + (row_id + k * (key.repeat + 2)) % 7))
                .collect();
            let sum: f64 = weights.iter().sum();
            let confidences: Vec<f64> = weights.iter().map(|w| w / sum).collect();
            let prediction = (0..3)
                .max_by(|&a, &b| confidences[a].total_cmp(&confidences[b]))
                .unwrap();
            rows.push(PredictionRow {
                key: *key,
                row_id,
                prediction,
                correct: row_id as usize % 3,
                confidences,
            });
        }
    }
    Predictions {
        task_id: 59,
        class_labels: labels(),
        rows,
    }
}

/// A fresh scratch folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir()
        .join(format!("openml-runs-tests-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

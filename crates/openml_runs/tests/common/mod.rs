//! A hand-made task and predictions on it, shared by the tests: three labels (one with a space,
//! one with a quote and a percent sign, so that ARFF quoting is exercised), nine rows, two
//! repeats of three folds.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// The interpreter: `$EXPERIMENTS_PYTHON`, else `python3`.
fn python() -> String {
    std::env::var("EXPERIMENTS_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Whether the interpreter imports openml and scikit-learn; says why the test is skipped if not.
pub fn has_openml(test: &str) -> bool {
    let found = Command::new(python())
        .args(["-c", "import openml, sklearn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!(
            "skipped {test}: {} cannot import openml and sklearn (pip install openml scikit-learn, or point EXPERIMENTS_PYTHON at an interpreter that has them)",
            python()
        );
    }
    found
}

/// openml-python's reading of the run folder `folder` (the script's JSON).
pub fn read_by_openml_python(folder: &Path) -> serde_json::Value {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/openml_python/read_run.py");
    let output = Command::new(python())
        .arg(script)
        .arg(folder)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

//! The peer test: the splits this crate reads from each fixture task's `datasplits.arff` equal
//! those openml-python's own reader (`OpenMLSplit._from_arff_file`, offline) reads from a copy
//! of the same file, fold by fold and row by row in order; and each task's class labels and
//! number of rows equal what liac-arff (openml-python's ARFF parser) reads from the dataset. Skipped, saying why, when the Python
//! (`EXPERIMENTS_PYTHON`, else `python3`) cannot import `openml` (`pip install openml`; CI
//! installs it).

use std::path::{Path, PathBuf};
use std::process::Command;

use openml::{read_task, task_dir};
use serde_json::Value;

/// One fold as compared: repeat, fold, sample, training rows, test rows.
type Fold = (u32, u32, u32, Vec<u32>, Vec<u32>);

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn python() -> String {
    std::env::var("EXPERIMENTS_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Whether the Python imports openml-python; prints why the test is skipped when not.
fn has_openml_python() -> bool {
    let probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('openml') is None)";
    let output = Command::new(python()).args(["-c", probe]).output();
    match output {
        Ok(output) if output.status.success() => true,
        Ok(_) => {
            eprintln!(
                "skipped: {} has no module openml (pip install openml)",
                python()
            );
            false
        }
        Err(error) => {
            eprintln!("skipped: cannot run {}: {error}", python());
            false
        }
    }
}

/// openml-python's reading of a copy of each file of `splits` (its reader writes a pickle
/// beside the file), in one run (importing openml takes seconds).
fn peer_readings(splits: &[&Path]) -> Vec<Value> {
    let temp = tempfile::tempdir().unwrap();
    let mut command = Command::new(python());
    command.arg(data().join("peer_splits.py"));
    for (index, file) in splits.iter().enumerate() {
        let folder = temp.path().join(index.to_string());
        std::fs::create_dir_all(&folder).unwrap();
        let copy = folder.join("datasplits.arff");
        std::fs::copy(file, &copy).unwrap();
        command.arg(copy);
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let readings: Value = serde_json::from_slice(&output.stdout).unwrap();
    readings.as_array().unwrap().clone()
}

fn rows(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn our_splits_equal_openml_python_s_for_every_fixture_task() {
    if !has_openml_python() {
        return;
    }
    let tasks: Vec<openml::Task> = [1001, 1002, 1003]
        .into_iter()
        .map(|id| read_task(&task_dir(&data().join("cache"), id)).unwrap())
        .collect();
    let files: Vec<&Path> = tasks.iter().map(|t| t.splits_path.as_path()).collect();
    let peers = peer_readings(&files);
    assert_eq!(peers.len(), tasks.len());
    for (task, peer) in tasks.iter().zip(&peers) {
        let id = task.id;
        assert_eq!(
            peer["repeats"].as_u64().unwrap(),
            u64::from(task.number_of_repeats())
        );
        assert_eq!(
            peer["folds"].as_u64().unwrap(),
            u64::from(task.number_of_folds())
        );
        assert_eq!(
            peer["samples"].as_u64().unwrap(),
            u64::from(task.number_of_samples())
        );
        let mut theirs: Vec<Fold> = peer["splits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let number = |i: usize| s[i].as_u64().unwrap() as u32;
                (number(0), number(1), number(2), rows(&s[3]), rows(&s[4]))
            })
            .collect();
        theirs.sort_by_key(|s| (s.0, s.1, s.2));
        let ours: Vec<Fold> = task
            .splits
            .iter()
            .map(|f| (f.repeat, f.fold, f.sample, f.train.clone(), f.test.clone()))
            .collect();
        assert!(!ours.is_empty(), "task {id} has splits");
        assert_eq!(ours, theirs, "task {id}");
    }
}

#[test]
fn our_class_labels_and_rows_equal_liac_arff_s_for_every_fixture_task() {
    if !has_openml_python() {
        return;
    }
    let tasks: Vec<openml::Task> = [1001, 1002, 1003]
        .into_iter()
        .map(|id| read_task(&task_dir(&data().join("cache"), id)).unwrap())
        .collect();
    let mut command = Command::new(python());
    command.arg(data().join("peer_dataset.py"));
    for task in &tasks {
        command.arg(&task.dataset_path).arg(&task.target);
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let readings: Value = serde_json::from_slice(&output.stdout).unwrap();
    for (task, peer) in tasks.iter().zip(readings.as_array().unwrap()) {
        assert_eq!(
            peer["n_rows"].as_u64().unwrap(),
            task.n_rows as u64,
            "task {}",
            task.id
        );
        let labels: Vec<&str> = peer["class_labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(task.class_labels, labels, "task {}", task.id);
    }
}

//! A config on the OpenML fixture tasks (`crates/openml/tests/data`, written by its
//! `make_fixtures.py`) with protocol kind 'openml': the per-fold table has every repeat and fold
//! of each task, and each split's test rows are exactly the task's, as the generator recorded
//! them in `expected.json`.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{binary, stderr};
use serde_json::Value;

fn fixtures() -> PathBuf {
    common::workspace_root().join("crates/openml/tests/data")
}

/// The generator's record of task `id`: (repeat, fold) -> sorted test rows.
fn expected_folds(id: u64) -> Vec<((u64, u64), Vec<u64>)> {
    let text = std::fs::read_to_string(fixtures().join("expected.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let task = json["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"].as_u64() == Some(id))
        .unwrap()
        .clone();
    let mut folds: Vec<((u64, u64), Vec<u64>)> = task["folds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let mut test: Vec<u64> = f["test"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_u64().unwrap())
                .collect();
            test.sort_unstable();
            (
                (f["repeat"].as_u64().unwrap(), f["fold"].as_u64().unwrap()),
                test,
            )
        })
        .collect();
    folds.sort();
    folds
}

/// Runs `datasets_line` with protocol 'openml' and two learners; the results folder.
fn run(folder: &Path, datasets_line: &str) -> PathBuf {
    let config = folder.join("config.toml");
    let text = format!(
        "name = \"oml\"\n{datasets_line}\nprotocol = {{ kind = \"openml\" }}\n\
         measures = [\"error\"]\ntests = []\n[[learners]]\nkind = \"naive_bayes\"\n\
         [[learners]]\nkind = \"knn\"\n"
    );
    std::fs::write(&config, text).unwrap();
    let results = folder.join("results");
    let output = binary()
        .args([
            "--threads",
            "2",
            "--config",
            config.to_str().unwrap(),
            "--results",
        ])
        .arg(&results)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    results.join("oml")
}

/// The (repetition, fold) pairs of each learner on `dataset` in the per-fold table.
fn per_fold_pairs(results: &Path, dataset: &str) -> Vec<(String, BTreeSet<(u64, u64)>)> {
    let text = std::fs::read_to_string(results.join("per_fold.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (d, l, r, f) = (
        column("dataset"),
        column("learner"),
        column("repetition"),
        column("fold"),
    );
    let mut pairs: Vec<(String, BTreeSet<(u64, u64)>)> = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        if fields[d] != dataset {
            continue;
        }
        let pair = (fields[r].parse().unwrap(), fields[f].parse().unwrap());
        match pairs.iter_mut().find(|(learner, _)| learner == fields[l]) {
            Some((_, set)) => {
                set.insert(pair);
            }
            None => pairs.push((fields[l].to_string(), BTreeSet::from([pair]))),
        }
    }
    pairs
}

/// The splits the run saved for `dataset`: (repetition, fold) -> test rows.
fn saved_splits(results: &Path, dataset: &str) -> Vec<((u64, u64), Vec<u64>)> {
    let path = results.join("splits").join(format!("{dataset}.json"));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut splits: Vec<((u64, u64), Vec<u64>)> = json["splits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let test = s["test"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_u64().unwrap());
            (
                (
                    s["repetition"].as_u64().unwrap(),
                    s["fold"].as_u64().unwrap(),
                ),
                test.collect(),
            )
        })
        .collect();
    splits.sort();
    splits
}

fn check_task(results: &Path, dataset: &str, id: u64) {
    let expected = expected_folds(id);
    let wanted: BTreeSet<(u64, u64)> = expected.iter().map(|(pair, _)| *pair).collect();
    let pairs = per_fold_pairs(results, dataset);
    assert_eq!(pairs.len(), 2, "two learners on {dataset}");
    for (learner, found) in pairs {
        assert_eq!(found, wanted, "{learner} on {dataset}");
    }
    assert_eq!(saved_splits(results, dataset), expected, "{dataset}");
}

#[test]
fn every_repeat_and_fold_of_each_task_runs_on_the_task_s_test_rows() {
    let folder = common::scratch("openml_tasks", "run");
    let cache = fixtures().join("cache");
    let task = openml_task_dir(&cache, 1001);
    let line = format!(
        "datasets = [{{ openml_task = \"{}\" }}, {{ openml_cache = \"{}\", tasks = [1003] }}]",
        task.display(),
        cache.display()
    );
    let results = run(&folder, &line);
    check_task(&results, "task-1001", 1001);
    check_task(&results, "task-1003", 1003);
    // Dataset 501 declares six attributes; beside the target `class`, its description.xml
    // leaves out `id` (the row id) and `note` (ignored), as openml-python's task features do.
    let datasets = std::fs::read_to_string(results.join("tables/datasets.csv")).unwrap();
    let row = datasets
        .lines()
        .find(|l| l.starts_with("task-1001,"))
        .unwrap();
    assert!(row.starts_with("task-1001,30,3,"), "{row}");
}

#[test]
fn a_suite_file_names_the_tasks_of_a_cache() {
    let folder = common::scratch("openml_tasks", "suite");
    std::fs::write(
        folder.join("suite.txt"),
        "# two fixture tasks\n1003\n1001 # cross-validation\n",
    )
    .unwrap();
    let line = format!(
        "datasets = [{{ openml_cache = \"{}\", openml_suite = \"suite.txt\" }}]",
        fixtures().join("cache").display()
    );
    let results = run(&folder, &line);
    check_task(&results, "task-1001", 1001);
    check_task(&results, "task-1003", 1003);
}

fn openml_task_dir(cache: &Path, id: u64) -> PathBuf {
    cache.join("org/openml/www/tasks").join(id.to_string())
}

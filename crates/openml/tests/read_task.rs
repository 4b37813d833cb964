//! The fixture tasks read back: every field against `tests/data/expected.json`, which the
//! generator `tests/data/make_fixtures.py` wrote from its own choices.

use std::path::PathBuf;

use openml::{read_task, read_task_with, task_dir};
use serde_json::Value;

fn cache() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/cache")
}

fn expected() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/expected.json");
    let text = std::fs::read_to_string(path).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    json["tasks"].as_array().unwrap().clone()
}

fn numbers(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_fixture_task_reads_as_the_generator_wrote_it() {
    for want in expected() {
        let id = want["id"].as_u64().unwrap();
        let task = read_task(&task_dir(&cache(), id)).unwrap();
        assert_eq!(task.id, id);
        assert_eq!(task.dataset_id, want["dataset_id"].as_u64().unwrap());
        assert_eq!(task.target, want["target"].as_str().unwrap());
        assert_eq!(task.class_labels, strings(&want["class_labels"]));
        assert_eq!(task.n_rows as u64, want["n_rows"].as_u64().unwrap());
        assert_eq!(task.estimation.kind, want["estimation"].as_str().unwrap());
        assert_eq!(task.left_out_attributes, strings(&want["left_out"]));
        let folds = want["folds"].as_array().unwrap();
        assert_eq!(task.splits.len(), folds.len(), "task {id}");
        let mut wanted: Vec<_> = folds
            .iter()
            .map(|f| {
                (
                    f["repeat"].as_u64().unwrap() as u32,
                    f["fold"].as_u64().unwrap() as u32,
                    f["sample"].as_u64().unwrap() as u32,
                    numbers(&f["train"]),
                    numbers(&f["test"]),
                )
            })
            .collect();
        wanted.sort_by_key(|f| (f.0, f.1, f.2));
        for (fold, want) in task.splits.iter().zip(&wanted) {
            assert_eq!(
                (fold.repeat, fold.fold, fold.sample),
                (want.0, want.1, want.2)
            );
            assert_eq!(fold.train, want.3, "task {id} train {:?}", (want.0, want.1));
            assert_eq!(fold.test, want.4, "task {id} test {:?}", (want.0, want.1));
        }
        let dataset = cache().join(format!(
            "org/openml/www/datasets/{}/dataset.arff",
            task.dataset_id
        ));
        assert_eq!(task.dataset_path, dataset);
    }
}

#[test]
fn the_declared_estimation_and_measures_are_read() {
    let task = read_task(&task_dir(&cache(), 1001)).unwrap();
    assert_eq!(task.estimation.number_repeats, Some(2));
    assert_eq!(task.estimation.number_folds, Some(3));
    assert_eq!(task.estimation.percentage, None);
    assert_eq!(task.estimation.stratified_sampling, Some(true));
    assert_eq!(task.evaluation_measures, vec!["predictive_accuracy"]);
    assert_eq!(
        (
            task.number_of_repeats(),
            task.number_of_folds(),
            task.number_of_samples()
        ),
        (2, 3, 1)
    );
    let holdout = read_task(&task_dir(&cache(), 1003)).unwrap();
    assert_eq!(holdout.estimation.percentage, Some(33.0));
    assert_eq!(holdout.estimation.stratified_sampling, Some(false));
    assert_eq!(holdout.task_type_id, 1);
    let curve = read_task(&task_dir(&cache(), 1002)).unwrap();
    assert_eq!((curve.task_type_id, curve.number_of_samples()), (3, 3));
}

#[test]
fn a_dataset_given_by_path_replaces_the_cache_layout() {
    let dataset = cache().join("org/openml/www/datasets/501/dataset.arff");
    let task = read_task_with(&task_dir(&cache(), 1001), Some(&dataset)).unwrap();
    assert_eq!(task.dataset_path, dataset);
    assert_eq!(task.left_out_attributes, ["id", "note"]);
}

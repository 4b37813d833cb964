//! `export_run` on a finished run: a stratified 2 x 3-fold run of naive Bayes on the shipped
//! glass data (six classes) is read back from its results folder for a task whose folds are
//! the run's splits and whose labels are the run's classes in another order plus one the data
//! lacks. The written run passes the checker; openml-python (when installed) reads it and its
//! per-fold accuracy equals 1 - the run's per-fold error (per_fold.csv) to 1e-12. An unknown
//! learner, a task with other folds and a unit missing from the cache are refused, named.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use engine::Engine;
use openml_runs::{export_run, write_run, ExportRequest, FoldKey, RunsError, TaskExpectation};

const CONFIG: &str = r#"
name = "glass-export"
datasets = ["glass"]
measures = ["error"]
protocol = { kind = "stratified_kfold", folds = 3, repetitions = 2 }
learners = [{ name = "nb", kind = "naive_bayes" }, { kind = "c45" }]
"#;

/// Runs the config once into a scratch folder; returns the results folder and the task the
/// run's splits make (labels reversed, plus one the data lacks).
fn finished_run(name: &str) -> (PathBuf, TaskExpectation) {
    let root = common::scratch(name);
    let engine = Engine::new().with_threads(2);
    let output = engine
        .run(engine.check_text(CONFIG, "test").unwrap(), &root)
        .unwrap();
    let dataset = &output.record.plan.datasets[0];
    let classes = &dataset.dataset.schema().class_values;
    let mut labels: Vec<String> = classes.iter().rev().cloned().collect();
    labels.push("absent from the data".into());
    let folds: BTreeMap<FoldKey, Vec<u32>> = dataset
        .plan
        .splits
        .iter()
        .map(|s| {
            let key = FoldKey {
                repeat: s.repetition as u32,
                fold: s.fold as u32,
                sample: 0,
            };
            (key, s.test.clone())
        })
        .collect();
    let truth = (0..dataset.dataset.len())
        .map(|row| {
            let class = &classes[dataset.dataset.class(row)];
            labels.iter().position(|l| l == class)
        })
        .collect();
    let task = TaskExpectation {
        task_id: 40,
        class_labels: labels,
        n_rows: dataset.dataset.len(),
        folds,
        truth,
    };
    (output.folder, task)
}

/// The export of `learner` on `task` from `results`.
fn export(
    results: &Path,
    learner: &str,
    task: &TaskExpectation,
) -> Result<openml_runs::ExportedRun, RunsError> {
    let request = ExportRequest {
        results,
        config: None,
        learner,
        task,
        flow_id: 17,
    };
    export_run(&Engine::new(), &request)
}

/// 1 - error of each (repetition, fold) of `learner` in the run's per_fold.csv.
fn table_accuracy(results: &Path, learner: &str) -> BTreeMap<(u32, u32), f64> {
    let text = std::fs::read_to_string(results.join("per_fold.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .filter(|f| f[1] == learner && f[4] == "test" && f[5] == "error")
        .map(|f| {
            (
                (f[2].parse().unwrap(), f[3].parse().unwrap()),
                1.0 - f[6].parse::<f64>().unwrap(),
            )
        })
        .collect()
}

#[test]
fn an_exported_run_passes_the_check_and_openml_python_agrees_with_the_per_fold_table() {
    let (results, task) = finished_run("export-clean");
    let run = export(&results, "nb", &task).unwrap();
    assert_eq!(run.predictions.rows.len(), 2 * task.n_rows);
    let out = results.join("openml-run");
    write_run(&out, &run).unwrap();
    let problems = openml_runs::check_predictions(&out.join("predictions.arff"), &task).unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
    let ours = table_accuracy(&results, "nb");
    assert_eq!(ours.len(), 6);
    for evaluation in &run.description.evaluations {
        let key = (evaluation.key.repeat, evaluation.key.fold);
        assert!((evaluation.value - ours[&key]).abs() <= 1e-12, "{key:?}");
    }
    if !common::has_openml("openml-python's reading of an exported run") {
        return;
    }
    let read = common::read_by_openml_python(&out);
    assert_eq!(read["task_id"], 40);
    let per_fold = read["per_fold"].as_array().unwrap();
    assert_eq!(per_fold.len(), 6);
    for fold in per_fold {
        let key = (
            fold[0].as_u64().unwrap() as u32,
            fold[1].as_u64().unwrap() as u32,
        );
        let theirs = fold[2].as_f64().unwrap();
        assert!(
            (theirs - ours[&key]).abs() <= 1e-12,
            "{key:?}: openml-python {theirs}, per_fold.csv {}",
            ours[&key]
        );
    }
}

#[test]
fn an_unknown_learner_another_task_and_a_missing_unit_are_refused() {
    let (results, task) = finished_run("export-refused");
    let error = export(&results, "svm", &task).unwrap_err().to_string();
    assert!(
        error.contains("--learner 'svm'") && error.contains("its learners: nb, c45"),
        "{error}"
    );

    let mut other = task.clone();
    let first = *other.folds.keys().next().unwrap();
    let rows = other.folds.get_mut(&first).unwrap();
    rows.pop();
    let error = export(&results, "nb", &other).unwrap_err().to_string();
    assert!(
        error.contains("is not on task 40") && error.contains("are those of no fold of the task"),
        "{error}"
    );

    let mut fewer = task.clone();
    fewer.class_labels.remove(0);
    let error = export(&results, "nb", &fewer).unwrap_err().to_string();
    assert!(error.contains("is not one of the task's labels"), "{error}");

    let cache = results.join("predictions/glass/nb");
    let entry = std::fs::read_dir(&cache)
        .unwrap()
        .flatten()
        .find(|e| e.path().to_string_lossy().ends_with(".bin"))
        .unwrap();
    std::fs::remove_file(entry.path()).unwrap();
    let error = export(&results, "nb", &task).unwrap_err().to_string();
    assert!(
        error.contains("lacks 1 of learner 'nb''s 6 units") && error.contains("not in the cache"),
        "{error}"
    );
}

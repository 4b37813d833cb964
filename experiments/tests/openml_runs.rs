//! `experiments openml export` and `openml check` through the built binary on the openml
//! crate's fixture task 1001 (2 x 3 folds, labels b, a, 'c d'): a config on the task with
//! protocol 'openml' runs, its export passes the check, and openml-python (when installed; CI
//! installs it) reads the exported folder and finds per-fold accuracies equal to 1 - the error
//! of the run's per-fold table to 1e-12. A correct hand-made run folder passes; a damaged one is
//! refused with each problem on its file and line and exit status 1; a folder that is not a
//! task, a results folder that is not a run and a flow id of 0 are refused with a clear message.

mod common;

use std::path::{Path, PathBuf};

use common::{binary, scratch, stderr, stdout, workspace_root};
use openml_runs::{PredictionRow, Predictions, RunDescription};

/// The fixture task's folder.
fn task_dir() -> PathBuf {
    workspace_root().join("crates/openml/tests/data/cache/org/openml/www/tasks/1001")
}

/// A run folder for task 1001: every test row predicted, 0.6 on its true label.
fn run_folder(name: &str) -> PathBuf {
    let task = openml::read_task(&task_dir()).unwrap();
    let expected = openml_runs::expectation_of(&task).unwrap();
    let labels = expected.class_labels.len();
    let mut rows = Vec::new();
    for (key, test) in &expected.folds {
        for &row_id in test {
            let truth = expected.truth[row_id as usize].unwrap();
            let mut confidences = vec![0.4 / (labels - 1) as f64; labels];
            confidences[truth] = 0.6;
            let correct = truth;
            rows.push(PredictionRow {
                key: *key,
                row_id,
                prediction: truth,
                correct,
                confidences,
            });
        }
    }
    let predictions = Predictions {
        task_id: 1001,
        class_labels: expected.class_labels.clone(),
        rows,
    };
    let description = RunDescription {
        task_id: 1001,
        flow_id: 5,
        parameters: Vec::new(),
        evaluations: Vec::new(),
    };
    let folder = scratch("openml-runs", name);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("predictions.arff"),
        openml_runs::write_predictions(&predictions).unwrap(),
    )
    .unwrap();
    std::fs::write(
        folder.join("description.xml"),
        openml_runs::write_description(&description),
    )
    .unwrap();
    folder
}

/// `experiments openml check DIR --task <1001>`.
fn check(dir: &Path) -> std::process::Output {
    binary()
        .args(["openml", "check"])
        .arg(dir)
        .arg("--task")
        .arg(task_dir())
        .output()
        .unwrap()
}

#[test]
fn a_correct_run_folder_passes() {
    let output = check(&run_folder("clean"));
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(
        stdout(&output).contains("no problems (task 1001, 6 folds, 3 labels)"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_damaged_run_folder_is_refused_naming_file_line_and_problem() {
    let folder = run_folder("damaged");
    let path = folder.join("predictions.arff");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let data = lines.iter().position(|l| l == "@DATA").unwrap() + 1;
    let mut fields: Vec<String> = lines[data].split(',').map(String::from).collect();
    fields[3] = "2147483648".into();
    lines[data] = fields.join(",");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let description = folder.join("description.xml");
    let xml = std::fs::read_to_string(&description)
        .unwrap()
        .replace("<oml:task_id>1001<", "<oml:task_id>59<");
    std::fs::write(&description, xml).unwrap();
    let output = check(&folder);
    assert_eq!(output.status.code(), Some(1));
    let out = stdout(&output);
    let line = format!(
        "{}:{}: row_id 2147483648 is out of range: the task's dataset has 30 rows",
        path.display(),
        data + 1
    );
    assert!(out.contains(&line), "{out}");
    assert!(
        out.contains("oml:task_id is '59'; the task is 1001"),
        "{out}"
    );
    assert!(
        stderr(&output).contains("3 problem(s)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_input_is_refused_clearly() {
    let folder = run_folder("bad-input");
    let output = binary()
        .args(["openml", "check"])
        .arg(&folder)
        .arg("--task")
        .arg(&folder)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("no task.xml in it"),
        "{}",
        stderr(&output)
    );

    let output = binary()
        .args(["openml", "export"])
        .arg(&folder)
        .args(["--learner", "nb", "--flow-id", "3", "--out"])
        .arg(folder.join("out"))
        .arg("--task")
        .arg(task_dir())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("cannot read the config as run"),
        "{}",
        stderr(&output)
    );

    let output = binary()
        .args(["openml", "export"])
        .arg(&folder)
        .args(["--learner", "nb", "--flow-id", "0", "--out"])
        .arg(folder.join("out"))
        .arg("--task")
        .arg(task_dir())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("0 is not in 1.."),
        "{}",
        stderr(&output)
    );
}

/// Runs a config on task 1001 (protocol 'openml', naive Bayes and k-NN) into `folder`; the
/// results folder.
fn run_on_task(folder: &Path) -> PathBuf {
    let config = folder.join("on-task.toml");
    let text = format!(
        "name = \"on-task\"\ndatasets = [{{ openml_task = {:?} }}]\nprotocol = {{ kind = \"openml\" }}\n\
         measures = [\"error\"]\ntests = []\n[[learners]]\nname = \"nb\"\nkind = \"naive_bayes\"\n\
         [[learners]]\nkind = \"knn\"\n",
        task_dir().display().to_string()
    );
    std::fs::write(&config, text).unwrap();
    let output = binary()
        .arg("--config")
        .arg(&config)
        .args(["--threads", "1", "--results"])
        .arg(folder.join("results"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    folder.join("results/on-task")
}

/// (repetition, fold) -> 1 - error of `learner` in the run's per_fold.csv.
fn table_accuracy(results: &Path, learner: &str) -> std::collections::BTreeMap<(u64, u64), f64> {
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
fn an_export_of_a_run_on_the_task_passes_the_check_and_openml_python_agrees() {
    let folder = scratch("openml-runs", "export");
    let results = run_on_task(&folder);
    let out = folder.join("run");
    let output = binary()
        .args(["openml", "export"])
        .arg(&results)
        .args(["--learner", "nb", "--flow-id", "7", "--out"])
        .arg(&out)
        .arg("--task")
        .arg(task_dir())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("60 predictions of 'nb' on task 1001 in 6 folds"),
        "{}",
        stdout(&output)
    );
    let output = check(&out);
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );

    let output = binary()
        .args(["openml", "export"])
        .arg(&results)
        .args(["--learner", "svm", "--flow-id", "7", "--out"])
        .arg(folder.join("no"))
        .arg("--task")
        .arg(task_dir())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("its learners: nb, knn"),
        "{}",
        stderr(&output)
    );

    let ours = table_accuracy(&results, "nb");
    assert_eq!(ours.len(), 6);
    let Some((python, _)) = common::python(
        "openml, sklearn",
        "openml-python's reading of an exported run",
    ) else {
        return;
    };
    let script = workspace_root().join("crates/openml_runs/tests/data/openml_python/read_run.py");
    let output = std::process::Command::new(python)
        .arg(script)
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let read: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(read["labels"], serde_json::json!(["b", "a", "c d"]));
    let per_fold = read["per_fold"].as_array().unwrap();
    assert_eq!(per_fold.len(), 6);
    for fold in per_fold {
        let key = (fold[0].as_u64().unwrap(), fold[1].as_u64().unwrap());
        let theirs = fold[2].as_f64().unwrap();
        assert!(
            (theirs - ours[&key]).abs() <= 1e-12,
            "{key:?}: openml-python {theirs}, per_fold.csv {}",
            ours[&key]
        );
    }
}

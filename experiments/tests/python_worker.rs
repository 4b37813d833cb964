//! Persistent learner workers through the built binary: a worker that fails one unit fails that
//! unit only (the run finishes, and the next run computes just it); editing a user's Python
//! class recomputes that learner's units and only those; the shipped example with scikit-learn
//! runs.
//!
//! The fake worker needs `python3`; the user's class needs numpy (the interpreter is
//! `$EXPERIMENTS_PYTHON`, else `python3`); the example needs scikit-learn too. Each test says it
//! is skipped and why when its interpreter lacks them.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{binary, python, python3_runs, stderr, unit_counts, workspace_root};

fn scratch(name: &str) -> PathBuf {
    common::scratch("python-worker", name)
}

/// Runs a config file with one thread into `results`.
fn run(config: &Path, results: &Path) -> Output {
    binary()
        .arg("--config")
        .arg(config)
        .args(["--threads", "1", "--results"])
        .arg(results)
        .output()
        .unwrap()
}

#[test]
fn a_worker_failing_one_unit_fails_it_only_and_the_next_run_computes_just_it() {
    if !python3_runs("the failing-worker run") {
        return;
    }
    let folder = scratch("failing");
    let script = workspace_root().join("crates/learners/tests/data/fake_worker.py");
    let marker = folder.join("crashed-once");
    let config = folder.join("failing.toml");
    std::fs::write(
        &config,
        format!(
            "name = \"failing\"\ndatasets = [\"pima\"]\n[protocol]\nkind = \"stratified_kfold\"\n\
             folds = 4\n[[learners]]\nkind = \"naive_bayes\"\n[[learners]]\nname = \"fake\"\n\
             kind = \"worker\"\ncommand = [\"python3\", {:?}, \"fail\", \"crash\", \"3\", {:?}]\n",
            script.display().to_string(),
            marker.display().to_string()
        ),
    )
    .unwrap();
    let results = folder.join("results");
    let output = run(&config, &results);
    let log = stderr(&output);
    assert_eq!(output.status.code(), Some(3), "{log}");
    assert_eq!(unit_counts(&log), (7, 0, 1), "{log}");
    assert!(
        log.contains("the worker exited during the unit") && log.contains("crashing on purpose"),
        "{log}"
    );
    let units = std::fs::read_to_string(results.join("failing/units.csv")).unwrap();
    assert_eq!(units.matches(",failed,").count(), 1, "{units}");
    // Nothing computed is lost: the next run computes the failed unit only.
    let output = run(&config, &results);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(unit_counts(&stderr(&output)), (1, 7, 0));
}

const CLASS: &str = "import numpy as np\n\n\
class Prior:\n    \
    def __init__(self, shrink=0.0):\n        self.shrink = shrink\n\n    \
    def fit(self, X, y):\n        \
        self.classes_, counts = np.unique(y, return_counts=True)\n        \
        self.p_ = (counts + self.shrink) / (counts.sum() + self.shrink * counts.size)\n        \
        return self\n\n    \
    def predict_proba(self, X):\n        return np.tile(self.p_, (X.shape[0], 1))\n";

#[test]
fn editing_a_users_class_recomputes_its_units_only() {
    let Some((interpreter, module_path)) = python("numpy", "the edited-class run") else {
        return;
    };
    let folder = scratch("edited");
    std::fs::write(folder.join("prior_learner.py"), CLASS).unwrap();
    let config = folder.join("edited.toml");
    std::fs::write(
        &config,
        format!(
            "name = \"edited\"\ndatasets = [\"pima\"]\n[protocol]\nkind = \"stratified_kfold\"\n\
             folds = 3\n[[learners]]\nkind = \"naive_bayes\"\n[[learners]]\nname = \"prior\"\n\
             kind = \"python\"\nestimator = \"prior_learner:Prior\"\npython = {interpreter:?}\n\
             module_path = [{module_path}]\nparams = {{ shrink = 1.0 }}\n"
        ),
    )
    .unwrap();
    let results = folder.join("results");
    let output = run(&config, &results);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(unit_counts(&stderr(&output)), (6, 0, 0));
    let output = run(&config, &results);
    assert_eq!(
        unit_counts(&stderr(&output)),
        (0, 6, 0),
        "{}",
        stderr(&output)
    );
    // An edit that changes nothing the class computes still changes its source: its three
    // units are computed again, naive Bayes's reused.
    std::fs::write(
        folder.join("prior_learner.py"),
        format!("{CLASS}\n# edited\n"),
    )
    .unwrap();
    let output = run(&config, &results);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        unit_counts(&stderr(&output)),
        (3, 3, 0),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_shipped_scikit_learn_example_runs() {
    let Some((interpreter, module_path)) = python("numpy, sklearn", "the example run") else {
        return;
    };
    let folder = scratch("example");
    let example = workspace_root().join("examples/python");
    std::fs::copy(example.join("my_learner.py"), folder.join("my_learner.py")).unwrap();
    // The example as shipped, with this test's interpreter instead of the repository's .venv.
    let text = std::fs::read_to_string(example.join("sklearn.toml"))
        .unwrap()
        .replace(
            "python = \"../../.venv/bin/python\"",
            &format!("python = {interpreter:?}\nmodule_path = [{module_path}]"),
        );
    assert_eq!(text.matches("module_path").count(), 3, "{text}");
    let config = folder.join("sklearn.toml");
    std::fs::write(&config, text).unwrap();
    let results = folder.join("results");
    let output = run(&config, &results);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(unit_counts(&stderr(&output)), (150, 0, 0));
    let per_fold = std::fs::read_to_string(results.join("python-example/per_fold.csv")).unwrap();
    for learner in ["sk_logistic", "sk_forest", "mine"] {
        assert_eq!(
            per_fold.matches(&format!(",{learner},")).count(),
            3 * 10 * 2,
            "{learner}"
        );
    }
}

//! Learners served by worker processes that cannot run (issue 43): a Python learner whose
//! module, class or `predict_proba` is missing, whose interpreter does not exist or lacks this
//! repository's package, and a worker that refuses its handshake. `--check` starts each worker
//! learner once and refuses the config with the worker's own message, naming the learner's
//! entry and name (exit status 1); a run does the same before its first fit instead of failing
//! unit after unit.
//!
//! The fake worker and the package-less interpreter need `python3`; the user's classes need
//! numpy (the interpreter is `$EXPERIMENTS_PYTHON`, else `python3`). Each test says it is
//! skipped and why when its interpreter lacks them.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{binary, python, python3_runs, stderr, workspace_root};

fn scratch(name: &str) -> PathBuf {
    common::scratch("bad-input-workers", name)
}

/// A config of naive Bayes and a learner named `mine` of the given TOML lines, on pima, with
/// `top` (top-level keys) on its second line.
fn config(folder: &Path, top: &str, mine: &str) -> PathBuf {
    let path = folder.join("workers.toml");
    let text = format!(
        "name = \"workers\"\n{top}\ndatasets = [\"pima\"]\n[protocol]\nkind = \"stratified_kfold\"\n\
         folds = 3\n[[learners]]\nkind = \"naive_bayes\"\n[[learners]]\nname = \"mine\"\n{mine}\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the program on `config` (`--check` when `check`), results in the config's folder.
fn experiments(config: &Path, check: bool) -> Output {
    let mut command = binary();
    if check {
        command.arg("--check");
    }
    command
        .arg("--config")
        .arg(config)
        .args(["--threads", "2", "--results"])
        .arg(config.parent().unwrap().join("results"))
        .output()
        .unwrap()
}

/// `--check`, then the run, must refuse `config` with exit status 1 before any fit, naming
/// the second learner and every one of `words`; returns the run's message.
fn refused_before_any_fit(config: &Path, words: &[&str]) -> String {
    let mut message = String::new();
    for check in [true, false] {
        let output = experiments(config, check);
        message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "check {check}: {message}");
        assert!(!message.contains("panicked"), "{message}");
        assert!(
            message.contains("key 'learners' entry 2 ('mine') cannot run"),
            "check {check}: {message}"
        );
        for word in words {
            assert!(
                message.contains(word),
                "'{word}' (check {check}) in: {message}"
            );
        }
        // Stopped before the first fit: no unit failed, no results were written.
        assert!(!message.contains("unit failed"), "{message}");
        assert!(!config.parent().unwrap().join("results").exists());
    }
    message
}

#[test]
fn a_python_class_that_cannot_be_used_is_refused_before_any_fit() {
    let Some((interpreter, module_path)) = python("numpy", "the unusable-class checks") else {
        return;
    };
    let folder = scratch("classes");
    std::fs::write(
        folder.join("half_learner.py"),
        "class NoProba:\n    def fit(self, X, y):\n        return self\n",
    )
    .unwrap();
    let cases = [
        (
            "nowhere_module:Thing",
            "cannot import module 'nowhere_module': No module named 'nowhere_module'",
        ),
        (
            "half_learner:Missing",
            "AttributeError: estimator 'half_learner:Missing': half_learner has no attribute \
             'Missing'",
        ),
        (
            "half_learner:NoProba",
            "TypeError: estimator 'half_learner:NoProba' has no predict_proba method",
        ),
    ];
    for (estimator, problem) in cases {
        let path = config(
            &folder,
            "",
            &format!(
                "kind = \"python\"\nestimator = \"{estimator}\"\npython = {interpreter:?}\n\
                 module_path = [{module_path}]"
            ),
        );
        refused_before_any_fit(
            &path,
            &[
                &format!("python({estimator}): the worker could not be started"),
                "the worker refused to start",
                problem,
            ],
        );
    }
}

#[test]
fn a_python_interpreter_that_does_not_exist_is_refused_before_any_fit() {
    let folder = scratch("interpreter");
    let path = config(
        &folder,
        "",
        "kind = \"python\"\nestimator = \"m:C\"\npython = \"/nonexistent/python3\"",
    );
    refused_before_any_fit(
        &path,
        &[
            "cannot start the worker `/nonexistent/python3 -m experiments_py.worker`",
            "No such file or directory",
            "the learner's `python` parameter names the interpreter, here \
             \"/nonexistent/python3\"",
            "pip install ./python",
        ],
    );
}

#[test]
fn a_python_without_the_package_is_refused_before_any_fit() {
    if !python3_runs("the package-less interpreter check") {
        return;
    }
    let folder = scratch("package");
    // python3 without site-packages and without PYTHONPATH: no experiments_py, wherever it is
    // installed (the runner runs from the workspace root, whose python/ folder holds it one
    // level down).
    let bare = folder.join("bare-python");
    std::fs::write(&bare, "#!/bin/sh\nexec python3 -S -E \"$@\"\n").unwrap();
    std::fs::set_permissions(&bare, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = config(
        &folder,
        "",
        &format!(
            "kind = \"python\"\nestimator = \"m:C\"\npython = {:?}",
            bare.display().to_string()
        ),
    );
    refused_before_any_fit(
        &path,
        &[
            "the worker exited during its handshake (exit status: 1)",
            "No module named 'experiments_py'",
            "needs numpy and this repository's experiments_py package (pip install ./python)",
        ],
    );
}

#[test]
fn a_worker_that_refuses_its_handshake_is_refused_before_any_fit() {
    if !python3_runs("the refusing-worker check") {
        return;
    }
    let folder = scratch("refusing");
    let script = workspace_root().join("crates/learners/tests/data/fake_worker.py");
    let path = config(
        &folder,
        "",
        &format!(
            "kind = \"worker\"\ncommand = [\"python3\", {:?}, \"refuse\"]",
            script.display().to_string()
        ),
    );
    refused_before_any_fit(
        &path,
        &[
            "the worker refused to start: ImportError: cannot import module 'nowhere'",
            "fake_worker.py refuse)",
        ],
    );
}

#[test]
fn worker_timeout_seconds_is_checked_and_sets_the_unit_limit_of_every_worker_learner() {
    let folder = scratch("timeout");
    for (value, shown) in [
        ("0", "= 0"),
        ("90000", "= 90000"),
        ("\"soon\"", "= \"soon\""),
    ] {
        let path = config(
            &folder,
            &format!("worker_timeout_seconds = {value}"),
            "kind = \"c45\"",
        );
        let output = experiments(&path, true);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{message}");
        for word in [
            "line 2",
            &format!(
                "key 'worker_timeout_seconds' {shown}: allowed: a number of seconds from \
              0.001 to 86400"
            ),
        ] {
            assert!(message.contains(word), "'{word}' in: {message}");
        }
    }
    // `experiments learners` says which limit applies.
    let listing = binary().arg("learners").output().unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    assert!(
        listing
            .contains("else the config's top-level worker_timeout_seconds when given, else 600 s"),
        "{listing}"
    );
    if !python3_runs("the run-wide worker time-out run") {
        return;
    }
    let script = workspace_root().join("crates/learners/tests/data/fake_worker.py");
    let marker = folder.join("slept-once");
    let path = config(
        &folder,
        "worker_timeout_seconds = 1",
        &format!(
            "kind = \"worker\"\ncommand = [\"python3\", {:?}, \"fail\", \"sleep\", \"1\", {:?}]",
            script.display().to_string(),
            marker.display().to_string()
        ),
    );
    let output = experiments(&path, false);
    let log = stderr(&output);
    assert_eq!(output.status.code(), Some(3), "{log}");
    for word in [
        "learner 'mine': its worker `python3 ",
        "a unit that does not answer within 1 s (the config's worker_timeout_seconds) fails",
        "did not answer the unit within 1 s (the config's worker_timeout_seconds) and was stopped",
        "sleeping on purpose",
    ] {
        assert!(log.contains(word), "'{word}' in: {log}");
    }
}

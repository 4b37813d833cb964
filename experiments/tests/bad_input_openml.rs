//! OpenML tasks a config names that `--check` must refuse, naming the file (and line) and what
//! is wrong, with status 1 and no panic (issue 45): a folder that is not a task, an ARFF
//! without the target or with a numeric one, a splits file with unknown type values, a row id
//! of 2 GB or just beyond the data, a fold without test rows; and the keys around tasks.

mod common;

use std::path::{Path, PathBuf};

use common::{binary, stderr};

/// A scratch folder holding a copy of the fixture cache (`cache/`).
fn scratch(name: &str) -> PathBuf {
    let folder = common::scratch("bad_input_openml", name);
    copy_tree(
        &common::workspace_root().join("crates/openml/tests/data/cache"),
        &folder.join("cache"),
    );
    folder
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

const TASK: &str = "cache/org/openml/www/tasks/1001/task.xml";
const SPLITS: &str = "cache/org/openml/www/tasks/1001/datasplits.arff";
const DATASET: &str = "cache/org/openml/www/datasets/501/dataset.arff";
const ONE_TASK: &str = "datasets = [{ openml_task = \"cache/org/openml/www/tasks/1001\" }]";

/// Edits `file` of the folder's copy.
fn edit(folder: &Path, file: &str, change: impl Fn(String) -> String) {
    let path = folder.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, change(text)).unwrap();
}

/// `--check` of a config with `top` (its datasets and any other top-level keys) in `folder`
/// must be refused with status 1, no panic and every one of `words`; the message.
fn refused(folder: &Path, top: &str, words: &[&str]) -> String {
    let config = folder.join("config.toml");
    let text = format!(
        "name = \"x\"\n{top}\nprotocol = {{ kind = \"openml\" }}\n[[learners]]\nkind = \"naive_bayes\"\n"
    );
    std::fs::write(&config, text).unwrap();
    let output = binary()
        .args(["--check", "--config", config.to_str().unwrap(), "--results"])
        .arg(folder.join("results"))
        .output()
        .unwrap();
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    for word in words {
        assert!(message.contains(word), "'{word}' in: {message}");
    }
    assert!(
        !folder.join("results").join("x").exists(),
        "nothing written"
    );
    message
}

/// The 1-based line of the first line of `file` (in the folder's copy) starting with `start`.
fn line_of(folder: &Path, file: &str, start: &str) -> usize {
    let text = std::fs::read_to_string(folder.join(file)).unwrap();
    text.lines().position(|l| l.starts_with(start)).unwrap() + 1
}

#[test]
fn a_folder_that_is_not_a_task_is_refused() {
    let folder = scratch("not_a_task");
    std::fs::create_dir_all(folder.join("empty")).unwrap();
    refused(
        &folder,
        "datasets = [{ openml_task = \"empty\" }]",
        &[
            "datasets' entry 1",
            "not an OpenML task folder",
            "no task.xml",
        ],
    );
    refused(
        &folder,
        "datasets = [{ openml_cache = \"cache\", tasks = [7] }]",
        &["tasks/7", "no such folder"],
    );
}

#[test]
fn an_arff_without_the_target_or_with_a_numeric_one_is_refused() {
    let folder = scratch("target");
    edit(&folder, TASK, |t| {
        t.replace(">class</oml:target", ">nope</oml:target")
    });
    refused(
        &folder,
        ONE_TASK,
        &[DATASET, "target 'nope'", "is not an attribute"],
    );
    edit(&folder, TASK, |t| {
        t.replace(">nope</oml:target", ">x1</oml:target")
    });
    refused(&folder, ONE_TASK, &[DATASET, "target 'x1'", "is numeric"]);
}

#[test]
fn unknown_type_values_are_refused_naming_the_line() {
    let folder = scratch("type");
    let line = line_of(&folder, SPLITS, "TEST,");
    edit(&folder, SPLITS, |t| t.replacen("\nTEST,", "\nVALID,", 1));
    refused(
        &folder,
        ONE_TASK,
        &[&format!("{SPLITS}:{line}:"), "'VALID'", "TRAIN,TEST"],
    );
}

#[test]
fn a_row_id_of_2_gb_or_beyond_the_data_is_refused_naming_the_line() {
    for bad in ["2147483648", "30", "99999999999999999999999"] {
        let folder = scratch(&format!("rowid-{}", bad.len()));
        let line = line_of(&folder, SPLITS, "TRAIN,");
        edit(&folder, SPLITS, |t| {
            let old = t.lines().nth(line - 1).unwrap().to_string();
            let fields: Vec<&str> = old.split(',').collect();
            let new = format!("{},{bad},{},{}", fields[0], fields[2], fields[3]);
            t.replacen(&old, &new, 1)
        });
        refused(
            &folder,
            ONE_TASK,
            &[
                &format!("{SPLITS}:{line}:"),
                "rowid is",
                "among the 30 rows",
            ],
        );
    }
}

#[test]
fn a_fold_without_test_rows_is_refused() {
    let folder = scratch("empty_fold");
    edit(&folder, SPLITS, |t| {
        let lines: Vec<String> = t
            .lines()
            .map(|l| match l.ends_with(",1,2") {
                true => l.replace("TEST,", "TRAIN,"),
                false => l.to_string(),
            })
            .collect();
        lines.join("\n")
    });
    refused(
        &folder,
        ONE_TASK,
        &[SPLITS, "repeat 1, fold 2", "has no test rows"],
    );
}

#[test]
fn the_keys_around_tasks_are_checked() {
    let folder = scratch("keys");
    refused(
        &folder,
        "datasets = [\"sonar\"]",
        &["'sonar' is not an OpenML task", "protocol kind 'openml'"],
    );
    refused(
        &folder,
        &format!("{ONE_TASK}\ntransforms = {{ subsample = 10 }}"),
        &["task-1001", "subsample", "would change the rows"],
    );
    refused(
        &folder,
        "datasets = [{ openml_cache = \"cache\", tasks = [-1] }]",
        &["entry 1", "'tasks' holds -1"],
    );
    refused(
        &folder,
        "datasets = [{ openml_task = \"cache/org/openml/www/tasks/1001\", name = \"iris\" }]",
        &["name cannot go with OpenML tasks"],
    );
    refused(
        &folder,
        "datasets = [{ openml_cache = \"cache\", tasks = [1001, 1003], label = \"one\" }]",
        &["'label' names one dataset", "2 tasks"],
    );
    refused(
        &folder,
        "datasets = [{ label = \"x\" }]",
        &["entry 1", "give `name`", "openml_task / openml_cache"],
    );
    refused(
        &folder,
        "datasets = [{ openml_task = \"cache/org/openml/www/tasks/1002\" }]",
        &["task-1002", "is a learning curve (3 samples a fold)"],
    );
    std::fs::write(folder.join("suite.txt"), "1001\n10o3\n").unwrap();
    refused(
        &folder,
        "datasets = [{ openml_cache = \"cache\", openml_suite = \"suite.txt\" }]",
        &["suite.txt:2:", "'10o3' is not a task id"],
    );
    refused(
        &folder,
        "datasets = [{ openml_cache = \"cache\", tasks = [99999999999999999999] }]",
        &["99999999999999999999"],
    );
}

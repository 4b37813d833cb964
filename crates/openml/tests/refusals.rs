//! Damaged copies of the fixture tasks: each is refused with an error naming the file (and the
//! line, where one applies) and what is wrong.

use std::path::{Path, PathBuf};

use openml::{read_task, task_dir};

fn cache() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/cache")
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

/// A copy of the fixture cache with `file` (relative to the cache) edited; returns the copy
/// and task 1001's folder in it.
fn damaged(file: &str, edit: impl Fn(String) -> String) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    copy_tree(&cache(), temp.path());
    let path = temp.path().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, edit(text)).unwrap();
    let dir = task_dir(temp.path(), 1001);
    (temp, dir)
}

const TASK: &str = "org/openml/www/tasks/1001/task.xml";
const SPLITS: &str = "org/openml/www/tasks/1001/datasplits.arff";
const DATASET: &str = "org/openml/www/datasets/501/dataset.arff";

/// Reads the damaged task and checks the message names `file` and holds every word.
fn refused(file: &str, edit: impl Fn(String) -> String, words: &[&str]) {
    refused_naming(file, file, edit, words);
}

/// Like [`refused`], with the message naming `named` rather than the file edited.
fn refused_naming(named: &str, file: &str, edit: impl Fn(String) -> String, words: &[&str]) {
    let (temp, dir) = damaged(file, edit);
    let message = read_task(&dir).unwrap_err().to_string();
    let named = temp.path().join(named);
    assert!(
        message.contains(&named.display().to_string()),
        "expected {} in: {message}",
        named.display()
    );
    for word in words {
        assert!(message.contains(word), "expected '{word}' in: {message}");
    }
}

/// Replaces the first line of the splits' data that matches `from` with `to`.
fn split_line(from: &'static str, to: &'static str) -> impl Fn(String) -> String {
    move |text| text.replacen(from, to, 1)
}

#[test]
fn a_folder_that_is_not_a_task_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    let message = read_task(temp.path()).unwrap_err().to_string();
    assert!(message.contains("not an OpenML task folder"), "{message}");
    assert!(message.contains("no task.xml"), "{message}");
    let file = temp.path().join("task.xml");
    std::fs::write(&file, "x").unwrap();
    let message = read_task(&file).unwrap_err().to_string();
    assert!(message.contains("it is a file"), "{message}");
    let message = read_task(&temp.path().join("absent"))
        .unwrap_err()
        .to_string();
    assert!(message.contains("no such folder"), "{message}");
}

#[test]
fn a_task_xml_that_is_not_a_task_is_refused() {
    refused(
        TASK,
        |_| "<html><body/></html>".into(),
        &[":1:", "root element is 'html'"],
    );
    refused(
        TASK,
        |t| t.replace("</oml:data_set>", ""),
        &["malformed XML"],
    );
    refused(
        TASK,
        |t| t.replace("<oml:task_type_id>1<", "<oml:task_type_id>2<"),
        &[":3:", "task type 2", "not supported"],
    );
    refused(
        TASK,
        |t| {
            t.replace(
                "<oml:task_id>1001<",
                "<oml:task_id>99999999999999999999999<",
            )
        },
        &[":2:", "99999999999999999999999", "expected a whole number"],
    );
    refused(
        TASK,
        |t| t.replace("<oml:target_feature>class</oml:target_feature>", ""),
        &["the target is missing"],
    );
}

#[test]
fn a_target_the_dataset_lacks_or_that_is_numeric_is_refused() {
    refused_naming(
        DATASET,
        TASK,
        |t| t.replace(">class</oml:target", ">nope</oml:target"),
        &[
            "tasks/1001/task.xml",
            "target 'nope'",
            "is not an attribute",
            "x1",
        ],
    );
    let (temp, dir) = damaged(TASK, |t| t.replace(">class</oml:target", ">x1</oml:target"));
    let message = read_task(&dir).unwrap_err().to_string();
    assert!(message.contains(&temp.path().join(DATASET).display().to_string()));
    assert!(message.contains("is numeric"), "{message}");
}

#[test]
fn unknown_type_values_are_refused_naming_the_line() {
    refused(
        SPLITS,
        split_line("\nTEST,", "\nVALID,"),
        &["'VALID'", "{TRAIN,TEST}"],
    );
    let text = std::fs::read_to_string(cache().join(SPLITS)).unwrap();
    let line = text.lines().position(|l| l.starts_with("TEST,")).unwrap() + 1;
    refused(
        SPLITS,
        |t| {
            t.replace("{TRAIN,TEST}", "{TRAIN,TEST,VALID}")
                .replacen("\nTEST,", "\nVALID,", 1)
        },
        &[&format!(":{line}:"), "neither TRAIN nor TEST"],
    );
    refused(
        SPLITS,
        |t| t.replace("type {TRAIN,TEST}", "type numeric"),
        &["column 'type' is numeric"],
    );
}

#[test]
fn row_ids_beyond_the_data_are_refused() {
    for bad in ["2147483648", "30", "-1", "1.5", "?", "1e300"] {
        let (temp, dir) = damaged(SPLITS, |t| {
            let line = t.lines().nth(9).unwrap().to_string();
            let fields: Vec<&str> = line.split(',').collect();
            t.replacen(
                &line,
                &format!("{},{bad},{},{}", fields[0], fields[2], fields[3]),
                1,
            )
        });
        let message = read_task(&dir).unwrap_err().to_string();
        let file = temp.path().join(SPLITS).display().to_string();
        assert!(message.contains(&format!("{file}:10:")), "{bad}: {message}");
        assert!(message.contains("rowid is"), "{bad}: {message}");
        assert!(message.contains("among the 30 rows"), "{bad}: {message}");
    }
}

#[test]
fn folds_that_disagree_are_refused() {
    refused(
        SPLITS,
        |t| {
            let lines: Vec<String> = t
                .lines()
                .map(|l| {
                    if l.ends_with(",0,1") {
                        l.replace("TEST,", "TRAIN,")
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            lines.join("\n")
        },
        &["repeat 0, fold 1, sample 0", "has no test rows"],
    );
    refused(
        SPLITS,
        |t| {
            t.lines()
                .map(|l| {
                    if l.ends_with(",1,2") {
                        l.replace(",1,2", ",1,5")
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        },
        &["the folds of repeat 1 are not numbered", "5 comes where 2"],
    );
    refused(
        SPLITS,
        |t| {
            t.lines()
                .filter(|l| !l.ends_with(",1,2"))
                .collect::<Vec<_>>()
                .join("\n")
        },
        &["repeat 1 has 2 folds but repeat 0 has 3"],
    );
    refused_naming(
        SPLITS,
        TASK,
        |t| t.replace("number_folds\">3<", "number_folds\">5<"),
        &[
            "datasplits.arff",
            "the file has 3 folds but task.xml declares number_folds = 5",
        ],
    );
    refused(
        SPLITS,
        |t| t.replace("@attribute fold numeric", "@attribute split numeric"),
        &["no column 'fold'"],
    );
}

#[test]
fn a_row_in_both_train_and_test_of_a_fold_is_refused() {
    let (temp, dir) = damaged(SPLITS, |t| {
        let test = t
            .lines()
            .find(|l| l.starts_with("TEST,") && l.ends_with(",0,0"))
            .unwrap();
        format!("{t}{}\n", test.replace("TEST,", "TRAIN,"))
    });
    let message = read_task(&dir).unwrap_err().to_string();
    assert!(message.contains(&temp.path().join(SPLITS).display().to_string()));
    assert!(
        message.contains("is both a training and a test row"),
        "{message}"
    );
}

#[test]
fn missing_files_are_named_with_how_to_get_them() {
    let (temp, dir) = damaged(SPLITS, |t| t);
    std::fs::remove_file(temp.path().join(SPLITS)).unwrap();
    let message = read_task(&dir).unwrap_err().to_string();
    assert!(message.contains("download_splits=True"), "{message}");
    std::fs::remove_file(temp.path().join(DATASET)).unwrap();
    let message = read_task(&dir).unwrap_err().to_string();
    assert!(
        message.contains(&temp.path().join(DATASET).display().to_string()),
        "{message}"
    );
    assert!(message.contains("OPENML_SKIP_PARQUET=true"), "{message}");
}

#[test]
fn a_numbered_folder_of_another_task_is_refused() {
    let temp = tempfile::tempdir().unwrap();
    copy_tree(&cache(), temp.path());
    let tasks = temp.path().join("org/openml/www/tasks");
    std::fs::rename(tasks.join("1001"), tasks.join("7")).unwrap();
    let message = read_task(&tasks.join("7")).unwrap_err().to_string();
    assert!(message.contains("named 7 but"), "{message}");
    assert!(message.contains("is task 1001"), "{message}");
    let lone = temp.path().join("my-task");
    std::fs::rename(tasks.join("7"), &lone).unwrap();
    let message = read_task(&lone).unwrap_err().to_string();
    assert!(
        message.contains("the task's dataset 501 is not there"),
        "{message}"
    );
}

#[test]
fn a_string_attribute_the_description_does_not_leave_out_is_refused() {
    let (temp, dir) = damaged(DATASET, |t| t);
    std::fs::remove_file(
        temp.path()
            .join("org/openml/www/datasets/501/description.xml"),
    )
    .unwrap();
    let message = read_task(&dir).unwrap_err().to_string();
    let file = temp.path().join(DATASET).display().to_string();
    assert!(message.contains(&format!("{file}:4:")), "{message}");
    assert!(message.contains("'id' has type 'STRING'"), "{message}");
}

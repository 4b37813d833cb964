//! Nothing changes a result silently: a user's file whose number column holds a stray word or a
//! non-finite number, or whose class column is a regression target, is refused by
//! `experiments datasets FILE` and by a config that names it, with the file, line and column
//! and how to declare what was meant; declared, the same file reads. The files are written
//! here by hand.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder of its own under the test scratch directory.
fn scratch(name: &str) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_inputs")
        .join(name);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

fn write(folder: &Path, name: &str, text: &str) -> PathBuf {
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn experiments(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(args)
        .output()
        .expect("the experiments binary runs")
}

/// Runs a command that must fail cleanly (exit 1, no panic); returns its stderr.
fn refused(args: &[&str]) -> String {
    let output = experiments(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    stderr
}

/// Runs a command that must succeed; returns its stdout.
fn accepted(args: &[&str]) -> String {
    let output = experiments(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_words(message: &str, words: &[&str]) {
    for word in words {
        assert!(message.contains(word), "expected '{word}' in: {message}");
    }
}

#[test]
fn datasets_refuses_a_stray_word_and_reads_it_declared() {
    let folder = scratch("stray");
    let file = write(
        &folder,
        "stray.csv",
        "x,code,y,class\n1,A1,2,a\n2,B7,?,b\n3,5,NA,a\n4,C2,4,b\n",
    );
    let path = file.to_str().unwrap();
    let message = refused(&["datasets", path]);
    assert_words(
        &message,
        &[
            &format!("{path}:4:3: value 'NA' of column 'y' is not a number"),
            "add it to the missing markers",
            "declare it nominal",
        ],
    );
    let listing = accepted(&["datasets", path, "--missing", "NA"]);
    assert_words(
        &listing,
        &[&format!(
            "{path}: inferred nominal: code; inferred numeric: 2"
        )],
    );
    let listing = accepted(&["datasets", path, "--nominal", "y"]);
    assert_words(
        &listing,
        &[&format!(
            "{path}: inferred nominal: code; inferred numeric: 1"
        )],
    );
}

#[test]
fn datasets_refuses_non_finite_numbers() {
    let folder = scratch("non-finite");
    for (name, text, line, value) in [
        ("nan.csv", "x,class\n1,a\nNaN,b\n3,a\n", 3, "NaN"),
        ("overflow.csv", "x,class\n1,a\n2,b\n1e400,a\n", 4, "1e400"),
        (
            "inf.arff",
            "@relation r\n@attribute x numeric\n@attribute class {a,b}\n@data\n1,a\ninf,b\n",
            6,
            "inf",
        ),
    ] {
        let file = write(&folder, name, text);
        let path = file.to_str().unwrap();
        let message = refused(&["datasets", path]);
        assert_words(
            &message,
            &[
                &format!("{path}:{line}:1: value '{value}' of numeric attribute 'x'"),
                "is not a finite number",
            ],
        );
    }
}

#[test]
fn datasets_refuses_a_regression_target_unless_told() {
    let folder = scratch("regression");
    let mut text = String::from("rooms,price\n");
    for i in 1..=30 {
        text.push_str(&format!("{},{}\n", i % 4 + 1, 90_000 + 1_250 * i));
    }
    let file = write(&folder, "houses.csv", &text);
    let path = file.to_str().unwrap();
    let message = refused(&["datasets", path]);
    assert_words(
        &message,
        &[
            "class column 'price' looks like a regression target",
            "30 distinct values in 30 rows",
            "allow_numeric_class",
        ],
    );
    let listing = accepted(&["datasets", path, "--allow-numeric-class"]);
    assert!(listing.contains("file"), "{listing}");
}

#[test]
fn a_config_naming_a_bad_file_is_refused_at_check() {
    let folder = scratch("config");
    let file = write(
        &folder,
        "stray_word.csv",
        "x,class\n1,a\n2,a\nabc,a\n4,b\n5,b\n6,b\n",
    );
    let config = write(
        &folder,
        "bad.toml",
        &format!(
            "name = \"bad\"\ndatasets = [{:?}]\nprotocol = {{ kind = \"stratified_kfold\", folds = 3 }}\n[[learners]]\nkind = \"naive_bayes\"\n",
            file.to_str().unwrap()
        ),
    );
    let message = refused(&["--check", "--config", config.to_str().unwrap()]);
    assert_words(
        &message,
        &[
            &format!("{}:4:1: value 'abc' of column 'x'", file.display()),
            "declare it nominal",
        ],
    );
}

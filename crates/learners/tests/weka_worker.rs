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
    assert_eq!(
        dataset.schema().class_values,
        classes,
        "{name}: class order"
    );
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
        (
            "jrip",
            "weka.classifiers.rules.JRip",
            "-F 3 -N 2.0 -O 2 -S 1",
        ),
        (
            "logistic",
            "weka.classifiers.functions.Logistic",
            "-R 1.0E-8 -M -1",
        ),
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

/// The message of a learner that builds but whose worker refuses to start.
fn refusal(classifier: &str, options: &str) -> String {
    let learner = weka(classifier, options);
    learner
        .check_ready()
        .expect_err("the handshake refuses")
        .to_string()
}

#[test]
fn bad_classes_and_options_are_refused_with_wekas_own_message() {
    if let Some(why) = missing_weka() {
        eprintln!("skipped the Weka refusal test: {why}");
        return;
    }
    let message = refusal("weka.classifiers.trees.NoSuchTree", "");
    assert!(
        message.contains("the worker refused to start")
            && message.contains("Can't find class called: weka.classifiers.trees.NoSuchTree"),
        "{message}"
    );
    // An option J48 does not know, and a value it cannot read: Weka's messages.
    let message = refusal("weka.classifiers.trees.J48", "-C 0.25 -Z 3");
    assert!(message.contains("Illegal options: -Z 3"), "{message}");
    let message = refusal("weka.classifiers.trees.J48", "-M many");
    assert!(
        message.contains("NumberFormatException") && message.contains("many"),
        "{message}"
    );
    // A class that is not a classifier.
    let message = refusal("weka.core.Instances", "");
    assert!(
        message.contains("weka.classifiers.Classifier is not assignable from weka.core.Instances"),
        "{message}"
    );
    // A name that is not a Java class name is refused before any worker starts.
    let message = build("kind = \"weka\"\nclassifier = \"J48 -C 0.25\"")
        .err()
        .expect("refused");
    assert!(
        message.contains("parameter 'classifier'") && message.contains("Java class name"),
        "{message}"
    );
}

#[test]
fn a_missing_jar_or_java_is_refused_naming_the_path_looked_for() {
    let message = build(
        "kind = \"weka\"\nclassifier = \"weka.classifiers.trees.J48\"\njar = \"/nowhere/weka.jar\"",
    )
    .err()
    .expect("refused");
    assert!(
        message.contains("parameter 'jar'")
            && message.contains("/nowhere/weka.jar")
            && message.contains("WEKA_JAR"),
        "{message}"
    );
    if let Some(why) = missing_weka() {
        eprintln!("skipped the missing-Java half of the test: {why}");
        return;
    }
    // No Java at the path given: javac beside it cannot compile (or, with the classes cached,
    // java cannot start); either way the message names the path.
    let built = build(
        "kind = \"weka\"\nclassifier = \"weka.classifiers.trees.J48\"\njava = \"/nowhere/bin/java\"",
    );
    let message = match built {
        Err(message) => message,
        Ok(learner) => learner.check_ready().expect_err("no java").to_string(),
    };
    assert!(
        message.contains("/nowhere/bin/java") || message.contains("/nowhere/bin/javac"),
        "{message}"
    );
}

#[test]
fn the_identity_follows_wekas_version_the_class_and_the_options() {
    if let Some(why) = missing_weka() {
        eprintln!("skipped the Weka identity test: {why}");
        return;
    }
    let default = weka("weka.classifiers.trees.J48", "-C 0.25 -M 2");
    let pruned = weka("weka.classifiers.trees.J48", "-C 0.1 -M 2");
    let bayes = weka("weka.classifiers.bayes.NaiveBayes", "");
    let revisions: Vec<String> = [&default, &pruned, &bayes]
        .iter()
        .map(|learner| learner.revision())
        .collect();
    for revision in &revisions {
        assert!(
            revision.contains("\"weka\":\"3.6") && revision.contains("\"source_sha256\":\""),
            "{revision}"
        );
    }
    assert!(
        revisions[0].contains("\"options\":\"-C 0.25 -M 2\""),
        "{}",
        revisions[0]
    );
    assert_ne!(revisions[0], revisions[1]);
    assert_ne!(revisions[0], revisions[2]);
    assert_ne!(default.describe(), pruned.describe());
    // The same learner built again has the same identity (results are reused).
    assert_eq!(
        weka("weka.classifiers.trees.J48", "-C 0.25 -M 2").revision(),
        revisions[0]
    );
    assert_eq!(default.name(), "weka(J48 -C 0.25 -M 2)");
}

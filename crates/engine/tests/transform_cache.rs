//! The cache of the two-most-confused transform (`predictions/.transforms/` under the results
//! folder): a check with a results folder writes one entry per multi-class dataset and prepares
//! the same datasets as a check without one; a later check reads the entries (an entry changed
//! by hand is what it uses); a damaged entry is computed again and rewritten.

use std::path::{Path, PathBuf};

use engine::Engine;

const CONFIG: &str = r#"
name = "confused"
seed = 3
datasets = ["glass", "balance-scale", "sonar"]
measures = ["error", "auc"]
tests = ["paired_t"]
[transforms]
two_most_confused = true
[protocol]
kind = "stratified_kfold"
folds = 3
[[learners]]
kind = "naive_bayes"
"#;

fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("engine-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    folder
}

/// Each prepared dataset's name, content hash (after the transforms) and notes.
fn prepared(results: Option<&Path>) -> Vec<(String, String, Vec<String>)> {
    let mut engine = Engine::new().with_threads(2);
    engine.results_root = results.map(Path::to_path_buf);
    let checked = engine.check_text(CONFIG, "test").unwrap();
    checked
        .plan
        .datasets
        .iter()
        .map(|d| (d.name.clone(), d.content_hash.clone(), d.notes.clone()))
        .collect()
}

/// The cache entries, by the dataset that wrote each.
fn entries(results: &Path) -> Vec<(String, PathBuf)> {
    let folder = results.join("confused/predictions/.transforms");
    let mut entries: Vec<(String, PathBuf)> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .map(|path| {
            let entry: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let dataset = entry["record"]["dataset"].as_str().unwrap().to_string();
            (dataset, path)
        })
        .collect();
    entries.sort();
    entries
}

#[test]
fn entries_are_written_read_and_repaired() {
    let results = scratch("transform-cache");
    let computed = prepared(None);
    assert_eq!(prepared(Some(&results)), computed);
    // Sonar has two classes: nothing to cache.
    let written = entries(&results);
    let names: Vec<&str> = written.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["balance-scale", "glass"]);
    let glass = &written[1].1;
    let bytes = std::fs::read(glass).unwrap();
    assert_eq!(prepared(Some(&results)), computed);

    // An entry changed by hand is read as it is.
    let mut entry: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    entry["record"]["reason"] = "changed by hand".into();
    std::fs::write(glass, serde_json::to_vec(&entry).unwrap()).unwrap();
    let (_, _, notes) = &prepared(Some(&results))[0];
    assert!(
        notes.iter().any(|note| note.ends_with("changed by hand")),
        "{notes:?}"
    );

    // A damaged entry, or one of another key, is computed again and rewritten.
    for damaged in [bytes[..bytes.len() / 2].to_vec(), {
        entry["key"] = "0".repeat(64).into();
        serde_json::to_vec(&entry).unwrap()
    }] {
        std::fs::write(glass, damaged).unwrap();
        assert_eq!(prepared(Some(&results)), computed);
        assert_eq!(std::fs::read(glass).unwrap(), bytes);
    }
    let _ = std::fs::remove_dir_all(&results);
}

//! The cache binds each entry to its unit (issue 28): an entry copied over another unit's entry
//! of the same shape, or an entry of the previous format, is a damaged entry: computed again,
//! reported as repaired in units.csv with the unit it belongs to, and the results are those of
//! a clean run.

use std::path::{Path, PathBuf};

use engine::Engine;

const CONFIG: &str = r#"
name = "identity"
datasets = ["sonar"]
measures = ["error", "auc"]
protocol = { kind = "stratified_kfold", folds = 4 }
learners = [{ kind = "naive_bayes" }, { kind = "c45" }]
"#;

fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("engine-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    folder
}

/// Runs the config into `folder`; returns (computed, repaired, reused).
fn run(engine: &Engine, folder: &Path) -> (usize, usize, usize) {
    let output = engine
        .run(engine.check_text(CONFIG, "test").unwrap(), folder)
        .unwrap();
    let counts = output.record.counts;
    (counts.computed, counts.repaired, counts.reused)
}

/// The cache entry of C4.5's unit of fold `fold` (sonar's 4 folds each test 52 rows: every
/// entry has the same shape).
fn entry(folder: &Path, fold: usize) -> PathBuf {
    let learner = folder.join("identity/predictions/sonar/c45");
    std::fs::read_dir(&learner)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with(&format!("r0-f{fold}-")) && name.ends_with(".bin")
        })
        .unwrap()
}

fn read(folder: &Path, file: &str) -> String {
    std::fs::read_to_string(folder.join("identity").join(file)).unwrap()
}

#[test]
fn an_entry_copied_over_another_units_entry_is_repaired() {
    let folder = scratch("copied");
    let engine = Engine::new().with_threads(2);
    assert_eq!(run(&engine, &folder), (8, 0, 0));
    let per_fold = read(&folder, "per_fold.csv");
    let (first, second) = (entry(&folder, 0), entry(&folder, 1));
    let (bytes, other) = (
        std::fs::read(&first).unwrap(),
        std::fs::read(&second).unwrap(),
    );
    assert_eq!(
        bytes.len(),
        other.len(),
        "the two entries have the same shape"
    );
    std::fs::copy(&first, &second).unwrap();
    assert_eq!(run(&engine, &folder), (1, 1, 7));
    // The values are those of the clean run, not fold 0's predictions scored on fold 1.
    assert_eq!(read(&folder, "per_fold.csv"), per_fold);
    let units = read(&folder, "units.csv");
    let repaired: Vec<&str> = units.lines().filter(|l| l.contains(",repaired,")).collect();
    assert_eq!(repaired.len(), 1, "{units}");
    for words in [
        "sonar,c45,0,1,repaired",
        "another unit",
        "learner 'c45', repetition 0 fold 0",
    ] {
        assert!(repaired[0].contains(words), "'{words}' in {}", repaired[0]);
    }
    // The repaired entry is the unit's own again.
    assert_eq!(run(&engine, &folder), (0, 0, 8));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn an_entry_of_the_previous_format_is_computed_again() {
    let folder = scratch("old-format");
    let engine = Engine::new().with_threads(2);
    run(&engine, &folder);
    let per_fold = read(&folder, "per_fold.csv");
    let path = entry(&folder, 2);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[..8].copy_from_slice(b"CLSPRED2");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(run(&engine, &folder), (1, 1, 7));
    assert_eq!(read(&folder, "per_fold.csv"), per_fold);
    let units = read(&folder, "units.csv");
    assert!(
        units.contains("sonar,c45,0,2,repaired") && units.contains("an older cache format"),
        "{units}"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

//! The engine a user's crate gets from `toolkit::engine()` runs every shipped config as the
//! command line does: the papers' analyses are known, a config of three datasets without an
//! `analyses` key gets its comparison across datasets, and the run's output carries every table of the report as data,
//! the tests on the fixed test set included.

use std::path::{Path, PathBuf};

fn config(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments/configs")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("toolkit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    folder
}

#[test]
fn every_shipped_config_names_only_analyses_and_keys_the_engine_knows() {
    let known = toolkit::analyses().known();
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments/configs");
    let mut parsed = 0;
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let result = toolkit::config::parse(&text, &known);
            assert!(result.is_ok(), "{}: {:?}", path.display(), result.err());
            parsed += 1;
        }
    }
    assert!(parsed >= 8, "{parsed} configs");
}

#[test]
fn the_quick_aslan_config_runs_with_its_analyses_and_its_tables_as_data() {
    let folder = scratch("aslan-quick");
    let engine = toolkit::engine().with_threads(2);
    let checked = engine.check_file(&config("aslan-quick.toml")).unwrap();
    let output = engine.run(checked, &folder).unwrap();
    // The paper's four cases beside ours, as a table of the output and as the file written.
    let four_cases = output
        .table("aslan_four_cases")
        .expect("the Aslan analysis ran");
    let written =
        std::fs::read_to_string(output.folder.join("tables/aslan_four_cases.csv")).unwrap();
    assert_eq!(written, four_cases.to_csv().unwrap());
    assert!(output.table("summary").is_some() && output.table("tests").is_some());
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_config_of_three_datasets_gets_its_comparison_across_datasets() {
    let folder = scratch("three");
    let engine = toolkit::engine().with_threads(2);
    let text = r#"
name = "three"
datasets = ["sonar", "ionosphere", "heart-statlog"]
protocol = { kind = "stratified_kfold", folds = 3 }
learners = [{ kind = "naive_bayes" }, { kind = "c45" }]
"#;
    let output = engine
        .run(engine.check_text(text, "three").unwrap(), &folder)
        .unwrap();
    assert!(output.table("across_error_means").is_some());
    assert!(output.folder.join("tables/across_auc.json").is_file());
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_output_carries_the_tests_on_the_fixed_test_set() {
    let folder = scratch("test-set");
    let engine = toolkit::engine().with_threads(2);
    let text = r#"
name = "test_set"
datasets = ["sonar"]
tests = ["paired_t", "delong", "mcnemar"]
protocol = { kind = "aslan", folds = 3 }
learners = [{ kind = "naive_bayes" }, { kind = "c45" }]
"#;
    let output = engine
        .run(engine.check_text(text, "test set").unwrap(), &folder)
        .unwrap();
    let record = &output.record;
    // One pair of learners on one dataset, by each of the two tests.
    assert_eq!(record.test_set_tests.len(), 2);
    let table = output
        .table("test_set_tests")
        .expect("the table of the report");
    assert_eq!(table.rows.len(), 2);
    let written = std::fs::read_to_string(output.folder.join("tables/test_set_tests.csv")).unwrap();
    assert_eq!(written, table.to_csv().unwrap());
    // Their models are units of the plan, listed in units.csv.
    let units = std::fs::read_to_string(output.folder.join("units.csv")).unwrap();
    assert_eq!(units.matches(",whole training,").count(), 2, "{units}");
    let _ = std::fs::remove_dir_all(&folder);
}

//! The engine as a library: a learner registered from outside the learners crate, the cache
//! key that follows a learner's revision, and the checks made before any fit.

use std::path::PathBuf;

use data::{Features, View};
use engine::Engine;
use learners::spec::{Capabilities, LearnerSpec};
use learners::{Learner, LearnerError, Model, Probabilities};

/// Predicts the training class shares for every row; its revision is set by the spec that
/// built it, so that a test can "change its implementation".
struct Prior {
    revision: u32,
    capabilities: Capabilities,
}

struct Shares(Vec<f64>);

impl Learner for Prior {
    fn name(&self) -> &str {
        "prior"
    }
    fn describe(&self) -> String {
        "prior".into()
    }
    fn revision(&self) -> String {
        learners::spec::revision_text("prior", self.revision)
    }
    fn capabilities(&self) -> Capabilities {
        self.capabilities
    }
    fn fit(&self, train: &View, _seed: u64) -> Result<Box<dyn Model>, LearnerError> {
        let counts = train.class_counts();
        let total: f64 = counts.iter().sum();
        Ok(Box::new(Shares(counts.iter().map(|c| c / total).collect())))
    }
}

impl Model for Shares {
    fn predict_proba(&self, test: &Features) -> Result<Probabilities, LearnerError> {
        let values = (0..test.len()).flat_map(|_| self.0.clone()).collect();
        Ok(Probabilities::from_flat(self.0.len(), values))
    }
}

fn spec(revision: u32) -> LearnerSpec {
    LearnerSpec {
        kind: "prior",
        description: "the training class shares",
        revision,
        parameters: Vec::new(),
        capabilities: Capabilities::ALL,
        build: if revision == 1 {
            |_| {
                Ok(Box::new(Prior {
                    revision: 1,
                    capabilities: Capabilities::ALL,
                }))
            }
        } else {
            |_| {
                Ok(Box::new(Prior {
                    revision: 2,
                    capabilities: Capabilities::ALL,
                }))
            }
        },
    }
}

fn numeric_only() -> LearnerSpec {
    LearnerSpec {
        kind: "numeric_only",
        description: "the training class shares, declared for numeric attributes only",
        revision: 1,
        parameters: Vec::new(),
        capabilities: Capabilities {
            nominal_attributes: false,
            ..Capabilities::ALL
        },
        build: |_| {
            Ok(Box::new(Prior {
                revision: 1,
                capabilities: Capabilities {
                    nominal_attributes: false,
                    ..Capabilities::ALL
                },
            }))
        },
    }
}

fn engine_with(specs: Vec<LearnerSpec>) -> Engine {
    let mut engine = Engine::new().with_threads(2);
    for spec in specs {
        engine.learners.register(spec).unwrap();
    }
    engine
}

fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("engine-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    folder
}

const CONFIG: &str = r#"
name = "revision"
datasets = ["sonar"]
protocol = { kind = "stratified_kfold", folds = 4 }
learners = [{ kind = "prior" }, { kind = "naive_bayes" }]
"#;

#[test]
fn after_a_learner_revision_changes_only_its_units_are_computed_again() {
    let folder = scratch("revision");
    let first = engine_with(vec![spec(1)]);
    let output = first
        .run(first.check_text(CONFIG, "test").unwrap(), &folder)
        .unwrap();
    assert_eq!(
        (output.record.counts.computed, output.record.counts.reused),
        (8, 0)
    );
    let again = first
        .run(first.check_text(CONFIG, "test").unwrap(), &folder)
        .unwrap();
    assert_eq!(
        (again.record.counts.computed, again.record.counts.reused),
        (0, 8)
    );
    let bumped = engine_with(vec![spec(2)]);
    let output = bumped
        .run(bumped.check_text(CONFIG, "test").unwrap(), &folder)
        .unwrap();
    // The 4 units of `prior` are computed again; naive Bayes's 4 are reused.
    assert_eq!(
        (output.record.counts.computed, output.record.counts.reused),
        (4, 4)
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_damaged_cache_entry_is_computed_again() {
    let folder = scratch("damaged");
    let engine = engine_with(vec![spec(1)]);
    engine
        .run(engine.check_text(CONFIG, "test").unwrap(), &folder)
        .unwrap();
    let entries: Vec<PathBuf> = walk(&folder.join("revision").join("predictions"));
    assert_eq!(entries.len(), 8);
    // Reverse the probabilities of one entry: same length, same shape.
    let mut bytes = std::fs::read(&entries[0]).unwrap();
    let (start, end) = (40, bytes.len() - 32);
    bytes[start..end].reverse();
    std::fs::write(&entries[0], &bytes).unwrap();
    let output = engine
        .run(engine.check_text(CONFIG, "test").unwrap(), &folder)
        .unwrap();
    assert_eq!(
        (
            output.record.counts.computed,
            output.record.counts.repaired,
            output.record.counts.reused
        ),
        (1, 1, 7)
    );
    let _ = std::fs::remove_dir_all(&folder);
}

fn walk(folder: &std::path::Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

fn check_error(engine: &Engine, config: &str) -> String {
    match engine.check_text(config, "my.toml") {
        Ok(_) => panic!("the config was accepted:\n{config}"),
        Err(error) => error.sentence(),
    }
}

#[test]
fn check_rejects_an_unknown_learner_parameter_naming_learner_key_and_allowed_keys() {
    let message = check_error(
        &engine_with(vec![spec(1)]),
        &CONFIG.replace(
            "{ kind = \"naive_bayes\" }",
            "{ kind = \"c45\", confidance = 0.2 }",
        ),
    );
    assert!(
        message.contains("c45") && message.contains("confidance") && message.contains("confidence"),
        "{message}"
    );
}

#[test]
fn check_rejects_an_out_of_range_value_naming_what_is_allowed() {
    let message = check_error(
        &engine_with(vec![spec(1)]),
        &CONFIG.replace(
            "{ kind = \"naive_bayes\" }",
            "{ kind = \"c45\", confidence = 2.0 }",
        ),
    );
    assert!(
        message.contains("confidence") && message.contains("2") && message.contains("allowed"),
        "{message}"
    );
}

#[test]
fn check_rejects_a_learner_that_cannot_take_the_datasets_attributes() {
    let engine = engine_with(vec![numeric_only()]);
    let config = CONFIG
        .replace("[\"sonar\"]", "[\"breast-cancer\"]")
        .replace(
            "{ kind = \"prior\" }",
            "{ kind = \"numeric_only\", name = \"numeric_only\" }",
        );
    let message = check_error(&engine, &config);
    assert!(
        message.contains("numeric_only")
            && message.contains("breast-cancer")
            && message.contains("nominal"),
        "{message}"
    );
    // The same learner takes a numeric dataset.
    assert!(engine
        .check_text(&config.replace("breast-cancer", "sonar"), "my.toml")
        .is_ok());
}

#[test]
fn check_rejects_an_analysis_that_lacks_its_prerequisites() {
    use engine::{Analysis, ExperimentConfig, Plan, RunRecord, Section};
    /// Needs two-class tasks, as Provost et al.'s analysis does.
    struct TwoClass;
    impl Analysis for TwoClass {
        fn name(&self) -> &'static str {
            "two_class"
        }
        fn description(&self) -> &'static str {
            "needs two-class tasks"
        }
        fn check(&self, _: &ExperimentConfig, plan: &Plan) -> Result<(), String> {
            match plan.datasets.iter().find(|d| d.positive.is_none()) {
                Some(d) => Err(format!("'{}' is not a two-class task", d.name)),
                None => Ok(()),
            }
        }
        fn sections(&self, _: &RunRecord) -> Result<Vec<Section>, engine::AnalysisError> {
            Ok(Vec::new())
        }
    }
    let mut analyses = engine::Analyses::none();
    analyses.register(Box::new(TwoClass)).unwrap();
    let engine = Engine::new().with_analyses(analyses);
    let config = format!("analyses = [\"two_class\"]\n{CONFIG}")
        .replace("[\"sonar\"]", "[\"glass\"]")
        .replace("{ kind = \"prior\" }, ", "");
    let message = check_error(&engine, &config);
    assert!(
        message.contains("two_class") && message.contains("'glass' is not a two-class task"),
        "{message}"
    );
}

#[cfg(feature = "polars")]
#[test]
fn the_predictions_table_holds_every_row_and_class_of_the_cache() {
    let folder = scratch("predictions");
    let engine = engine_with(vec![spec(1)]);
    let output = engine
        .run(engine.check_text(CONFIG, "test").unwrap(), &folder)
        .unwrap();
    let units = output.record.plan.units.clone();
    let frame = output.record.predictions_frame(&units).unwrap();
    // sonar: 208 rows, each the test row of exactly one of the 4 folds, 2 classes, 2 learners.
    assert_eq!(frame.height(), 208 * 2 * 2);
    let probability = frame.column("probability").unwrap().f64().unwrap();
    let total: f64 = (0..frame.height())
        .map(|i| probability.get(i).unwrap())
        .sum();
    // Each predicted row's probabilities sum to 1: 208 rows x 2 learners.
    assert!((total - 416.0).abs() < 1e-9, "{total}");
    // `prior` predicts the training class shares: M is the larger class of sonar (111 of 208).
    let learner = frame.column("learner").unwrap().str().unwrap();
    let class = frame.column("class").unwrap().str().unwrap();
    let shares: Vec<f64> = (0..frame.height())
        .filter(|&i| learner.get(i) == Some("prior") && class.get(i) == Some("M"))
        .map(|i| probability.get(i).unwrap())
        .collect();
    assert_eq!(shares.len(), 208);
    assert!(
        shares.iter().all(|&p| (p - 111.0 / 208.0).abs() < 0.01),
        "{shares:?}"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_run_that_fails_after_its_fits_leaves_the_previous_outputs_whole() {
    use engine::{Analysis, ExperimentConfig, Plan, RunRecord, Section};
    /// Fails while the report is being written, after every fit.
    struct Failing;
    impl Analysis for Failing {
        fn name(&self) -> &'static str {
            "failing"
        }
        fn description(&self) -> &'static str {
            "fails while writing"
        }
        fn check(&self, _: &ExperimentConfig, _: &Plan) -> Result<(), String> {
            Ok(())
        }
        fn sections(&self, _: &RunRecord) -> Result<Vec<Section>, engine::AnalysisError> {
            Err("the analysis failed".into())
        }
    }
    let folder = scratch("atomic");
    let engine = engine_with(vec![spec(1)]);
    engine
        .run(engine.check_text(CONFIG, "test").unwrap(), &folder)
        .unwrap();
    let results = folder.join("revision");
    let before = std::fs::read_to_string(results.join("per_fold.csv")).unwrap();
    let index = std::fs::read_to_string(results.join("index.html")).unwrap();
    let mut analyses = engine::Analyses::none();
    analyses.register(Box::new(Failing)).unwrap();
    let mut failing = engine_with(vec![spec(2)]).with_analyses(analyses);
    failing.threads = 2;
    let config = format!("analyses = [\"failing\"]\n{CONFIG}");
    let error = failing
        .run(failing.check_text(&config, "test").unwrap(), &folder)
        .err()
        .expect("the run fails");
    assert!(
        error.sentence() == "analysis 'failing': the analysis failed",
        "{error:?}"
    );
    // The previous run's outputs are untouched; nothing of the failed run is in their place.
    assert_eq!(
        std::fs::read_to_string(results.join("per_fold.csv")).unwrap(),
        before
    );
    assert_eq!(
        std::fs::read_to_string(results.join("index.html")).unwrap(),
        index
    );
    // The next run clears the failed run's staging folder and replaces the outputs whole.
    engine
        .run(engine.check_text(CONFIG, "test").unwrap(), &folder)
        .unwrap();
    let leftovers: Vec<String> = std::fs::read_dir(&results)
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_summary_says_that_auc_on_a_multi_class_dataset_is_hand_and_till_s_m() {
    let folder = scratch("multiclass");
    let engine = engine_with(vec![spec(1)]);
    let config = CONFIG
        .replace("[\"sonar\"]", "[\"glass\"]")
        .replace("{ kind = \"naive_bayes\" }", "{ kind = \"c45\" }");
    let output = engine
        .run(engine.check_text(&config, "test").unwrap(), &folder)
        .unwrap();
    let summary = std::fs::read_to_string(output.folder.join("tables/summary.md")).unwrap();
    assert!(
        summary.contains("(glass), auc is Hand & Till's M"),
        "{summary}"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

const TEST_SET_CONFIG: &str = r#"
name = "test_set"
datasets = ["sonar", "glass"]
measures = ["error", "auc"]
tests = ["paired_t", "delong", "mcnemar", "hanley_mcneil", "binomial"]
protocol = { kind = "aslan", test_fraction = 0.3333333333333333, folds = 3 }
learners = [{ kind = "prior" }, { kind = "naive_bayes" }, { kind = "c45" }]
"#;

#[test]
fn the_tests_on_the_test_set_fit_one_model_per_learner_on_the_whole_training_part() {
    let folder = scratch("test-set");
    let engine = engine_with(vec![spec(1)]);
    let output = engine
        .run(engine.check_text(TEST_SET_CONFIG, "test").unwrap(), &folder)
        .unwrap();
    let plan = &output.record.plan;
    for (index, dataset) in plan.datasets.iter().enumerate() {
        // Trains on every row outside the common test set.
        let whole = dataset.whole_training.as_ref().unwrap();
        let test = &dataset.plan.splits[0].test;
        assert_eq!(whole.train_len() + test.len(), dataset.dataset.len());
        assert!(whole.train_rows().all(|row| !test.contains(&row)));
        let predictions = output.record.whole_training_predictions(index, 1).unwrap();
        assert_eq!(&predictions.rows, test);
    }
    let cached: Vec<PathBuf> = walk(&output.folder.join("predictions"))
        .into_iter()
        .filter(|path| path.to_string_lossy().contains("whole-training-"))
        .collect();
    assert_eq!(cached.len(), 2 * 3, "{cached:?}");
    let table = std::fs::read_to_string(output.folder.join("tables/test_set_tests.csv")).unwrap();
    // Per dataset: 3 pairs x (delong, mcnemar) + 3 learners x (hanley_mcneil, binomial).
    assert_eq!(table.lines().count(), 1 + 2 * (3 * 2 + 3 * 2), "{table}");
    // glass has six classes: DeLong and Hanley-McNeil say why they did not run.
    assert!(table.contains("not run: needs a two-class task"), "{table}");
    // The per-fold tests table holds the per-fold tests only.
    let tests = std::fs::read_to_string(output.folder.join("tables/tests.csv")).unwrap();
    assert!(!tests.contains("delong"), "{tests}");
    // A second run reuses the whole-training units from the cache.
    let again = engine
        .run(engine.check_text(TEST_SET_CONFIG, "test").unwrap(), &folder)
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(again.folder.join("tables/test_set_tests.csv")).unwrap(),
        table
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_test_on_the_test_set_needs_a_protocol_with_one_test_set() {
    let engine = engine_with(vec![spec(1)]);
    let message = check_error(
        &engine,
        &CONFIG.replace("learners", "tests = [\"delong\"]\nlearners"),
    );
    assert!(
        message.contains("key 'tests'")
            && message.contains("'delong'")
            && message.contains("aslan"),
        "{message}"
    );
}

const DELONG_K_CONFIG: &str = r#"
name = "delong_k"
datasets = ["sonar"]
tests = [
    "delong",
    "delong_k",
    { name = "delong_k", contrast = [[1.0, -1.0, 0.0]] },
    { name = "bootstrap_auc", resamples = 50 },
    { name = "bootstrap_error", resamples = 50, method = "percentile" },
]
protocol = { kind = "aslan", test_fraction = 0.3333333333333333, folds = 3 }
learners = [{ kind = "prior" }, { kind = "naive_bayes" }, { kind = "c45" }]
"#;

#[test]
fn the_k_model_delong_test_runs_over_all_learners_at_once() {
    let folder = scratch("delong-k");
    let engine = engine_with(vec![spec(1)]);
    let output = engine
        .run(engine.check_text(DELONG_K_CONFIG, "test").unwrap(), &folder)
        .unwrap();
    let records = &output.record.test_set_tests;
    // 3 pairs of delong, 2 delong_k over all learners, 3 learners x 2 bootstrap intervals.
    assert_eq!(records.len(), 3 + 2 + 3 * 2);
    let all: Vec<_> = records.iter().filter(|r| r.all.is_some()).collect();
    assert_eq!(all.len(), 2);
    assert!(all.iter().all(|r| r.test == "delong_k" && r.b.is_none()));
    let equality = all[0].outcome.as_ref().unwrap();
    assert_eq!(equality.df, Some(2));
    // A one-row contrast a - b is DeLong's pairwise test: chi-square = z^2, the same p-value.
    let contrast = all[1].outcome.as_ref().unwrap();
    let pair = records
        .iter()
        .find(|r| r.test == "delong" && r.a == 0 && r.b == Some(1))
        .unwrap()
        .outcome
        .as_ref()
        .unwrap();
    assert_eq!(contrast.df, Some(1));
    assert!((contrast.statistic - pair.statistic.powi(2)).abs() < 1e-9);
    assert!((contrast.pvalue - pair.pvalue).abs() < 1e-9);
    let table = std::fs::read_to_string(output.folder.join("tables/test_set_tests.csv")).unwrap();
    assert!(table.contains("all: "), "{table}");
    assert!(table.contains("contrast: +1 "), "{table}");
    assert!(table.contains(" df)"), "{table}");
    // Two bootstrap tests share one note.
    let markdown = std::fs::read_to_string(output.folder.join("tables/test_set_tests.md")).unwrap();
    assert_eq!(
        markdown.matches("bootstrap: statistic").count(),
        1,
        "{markdown}"
    );
    assert_eq!(markdown.matches("DeLong k:").count(), 1, "{markdown}");
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_contrast_for_another_number_of_learners_is_refused_before_any_fit() {
    let engine = engine_with(vec![spec(1)]);
    let config = DELONG_K_CONFIG.replace("[[1.0, -1.0, 0.0]]", "[[1.0, -1.0]]");
    let message = check_error(&engine, &config);
    assert!(
        message.contains("key 'tests'")
            && message.contains("'delong_k'")
            && message.contains("2 coefficients")
            && message.contains("3 learners"),
        "{message}"
    );
}

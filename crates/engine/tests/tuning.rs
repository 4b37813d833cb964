//! Fair tuning against what it must equal: a learner's own validation choice (k-NN's
//! `select_k`), and the same grid run as fixed learners beside the tuned one.

use std::path::PathBuf;

use engine::Engine;

fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("engine-tuning-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    folder
}

fn run(config: &str, name: &str) -> engine::RunOutput {
    let engine = Engine::new().with_threads(2);
    let folder = scratch(name);
    engine
        .run(engine.check_text(config, "test").unwrap(), &folder)
        .unwrap()
}

/// With `inner = "validation"` under Aslan's protocol, k-NN tuned over k chooses on the same
/// validation rows as its built-in `select_k` over the same candidates: every test value is
/// the same, and the outer units are the chosen candidates' own (reused, not refitted).
#[test]
fn knn_tuned_on_the_validation_fold_equals_select_k() {
    let config = r#"
name = "tuned-knn"
datasets = ["breast-cancer", "pima"]
protocol = { kind = "aslan", folds = 5 }
measures = ["error", "auc"]
tests = ["paired_t"]
tuning = { budget = 6, measure = "error", inner = "validation" }
learners = [
  { name = "tuned", kind = "knn", select_k = false, tune = { k = [1, 3, 5, 7, 11, 21] } },
  { name = "select", kind = "knn", select_k = true, candidates = [1, 3, 5, 7, 11, 21] },
]
"#;
    let output = run(config, "knn");
    let folds = &output.record.results.folds;
    for dataset in 0..2 {
        for measure in 0..2 {
            assert_eq!(
                folds.values(dataset, 0, measure),
                folds.values(dataset, 1, measure)
            );
        }
    }
    // 2 datasets x 5 splits x 6 candidates inner units; the 10 tuned outer units reused.
    assert_eq!(output.record.plan.tuning.as_ref().unwrap().units.len(), 60);
    assert_eq!(output.record.counts.reused, 10);
    assert_eq!(output.record.tuning.len(), 10);
    assert!(output.record.tuning.iter().all(|row| row.evaluations == 6));
}

/// The C4.5 grid of confidence x min_leaf, in grid order, and the learners' tables: C4.5 tuned
/// over it (`tuned`), then each grid point as a fixed learner (`fixed0`, `fixed1`, ...).
fn c45_grid_learners() -> ([(f64, i64); 4], Vec<String>) {
    let grid = [(0.1, 2), (0.1, 10), (0.25, 2), (0.25, 10)];
    let mut learners = vec![
        r#"{ name = "tuned", kind = "c45", tune = { confidence = [0.1, 0.25], min_leaf = [2, 10] } }"#
            .to_string(),
    ];
    for (position, (confidence, min_leaf)) in grid.iter().enumerate() {
        learners.push(format!(
            r#"{{ name = "fixed{position}", kind = "c45", confidence = {confidence}, min_leaf = {min_leaf} }}"#
        ));
    }
    (grid, learners)
}

/// C4.5 tuned over a grid of confidence x min_leaf on the validation fold chooses, in every
/// outer unit, a grid point of least validation error among the same grid run as fixed
/// learners (the first in grid order on a tie), and its test values are that learner's.
#[test]
fn c45_tuned_chooses_the_grid_point_of_least_validation_error() {
    let (grid, learners) = c45_grid_learners();
    let config = format!(
        r#"
name = "tuned-c45"
datasets = ["breast-cancer", "german"]
protocol = {{ kind = "aslan", folds = 5 }}
measures = ["error", "auc"]
tests = ["paired_t"]
tuning = {{ budget = 10, measure = "error", inner = "validation" }}
learners = [{}]
"#,
        learners.join(", ")
    );
    let output = run(&config, "c45");
    let folds = &output.record.results.folds;
    for dataset in 0..2 {
        let validation: Vec<Vec<Option<f64>>> = (1..=grid.len())
            .map(|learner| folds.validation_values(dataset, learner, 0))
            .collect();
        let tuned = folds.values(dataset, 0, 0);
        for split in 0..tuned.len() {
            let errors: Vec<f64> = validation.iter().map(|v| v[split].unwrap()).collect();
            let least = errors.iter().cloned().fold(f64::INFINITY, f64::min);
            let chosen = errors.iter().position(|&e| e == least).unwrap();
            for measure in 0..2 {
                let fixed = folds.values(dataset, chosen + 1, measure);
                assert_eq!(folds.values(dataset, 0, measure)[split], fixed[split]);
            }
        }
    }
}

/// Inner folds: every configuration is scored on the same inner splits for every learner, and
/// a rerun reads every inner and outer unit back from the cache.
#[test]
fn inner_folds_are_shared_and_a_rerun_is_read_from_the_cache() {
    let config = r#"
name = "tuned-folds"
datasets = ["breast-cancer"]
protocol = { kind = "stratified_kfold", folds = 4 }
tuning = { budget = 3, method = "grid", measure = "auc", inner = { kind = "stratified_kfold", folds = 3 } }
learners = [
  { name = "knn", kind = "knn", select_k = false, tune = { k = [1, 5, 11, 21] } },
  { name = "nb", kind = "naive_bayes", tune = "declared" },
  { kind = "c45" },
]
"#;
    let engine = Engine::new().with_threads(2);
    let folder = scratch("folds");
    let first = engine
        .run(engine.check_text(config, "test").unwrap(), &folder)
        .unwrap();
    let tuning = first.record.plan.tuning.as_ref().unwrap();
    // k-NN's grid of 4 sampled down to the budget of 3; naive Bayes' declared grid of 2 whole.
    let counts: Vec<usize> = tuning
        .learners
        .iter()
        .map(|tuned| tuned.as_ref().map_or(0, |tuned| tuned.candidates.len()))
        .collect();
    assert_eq!(counts, vec![3, 2, 0]);
    // 4 outer splits x 3 inner folds x (3 + 2) candidates.
    assert_eq!(tuning.units.len(), 60);
    let dataset = &first.record.plan.datasets[0];
    assert_eq!(dataset.inner_splits.len(), 4);
    for (outer, inner) in dataset.plan.splits.iter().zip(&dataset.inner_splits) {
        let mut rows: Vec<u32> = inner.iter().flat_map(|split| split.test.clone()).collect();
        rows.sort_unstable();
        assert_eq!(rows, outer.train_rows().collect::<Vec<u32>>());
        assert!(inner
            .iter()
            .all(|split| split.train_rows().all(|row| !outer.test.contains(&row))));
    }
    let again = engine
        .run(engine.check_text(config, "test").unwrap(), &folder)
        .unwrap();
    assert_eq!(again.record.counts.computed, 0);
    assert_eq!(again.record.tuning, first.record.tuning);
}

/// Bad tuning input is refused by the check, naming the key, the learner and what is allowed.
#[test]
fn bad_tuning_input_is_refused_naming_the_key_and_what_is_allowed() {
    let engine = Engine::new();
    let config = |tuning: &str, tune: &str| {
        format!(
            "name = \"bad\"\ndatasets = [\"pima\"]\nprotocol = {{ kind = \"stratified_kfold\", folds = 3 }}\n\
             {tuning}\nlearners = [{{ kind = \"knn\", select_k = false, {tune} }}, {{ kind = \"naive_bayes\" }}]\n"
        )
    };
    let cases = [
        (
            "",
            "tune = { kk = [1, 3] }",
            &["entry 1", "no parameter 'kk'", "allowed: k, candidates"][..],
        ),
        (
            "",
            "tune = { k = [0, 3] }",
            &["entry 1", "'k'", "1 to 100000"][..],
        ),
        (
            "",
            "tune = { k = [] }",
            &["entry 1", "'tune.k'", "non-empty list"][..],
        ),
        (
            "",
            "tune = 3",
            &["entry 1", "'tune' = 3", "\"declared\""][..],
        ),
        (
            "tuning = { budget = 0 }",
            "tune = { k = [1, 3] }",
            &["key 'tuning'", "'budget'", "from 1 to 10000"][..],
        ),
        (
            "tuning = { budget = 10001 }",
            "tune = { k = [1, 3] }",
            &["'budget'", "from 1 to 10000"][..],
        ),
        (
            "tuning = { method = \"bayes\" }",
            "tune = { k = [1, 3] }",
            &["'method'", "grid, random"][..],
        ),
        (
            "tuning = { measure = \"nope\" }",
            "tune = { k = [1, 3] }",
            &["'measure'", "unknown measure 'nope'"][..],
        ),
        (
            "tuning = { inner = \"test\" }",
            "tune = { k = [1, 3] }",
            &["'inner'", "\"validation\""][..],
        ),
        (
            "tuning = { inner = { kind = \"stratified_kfold\", folds = 1 } }",
            "tune = { k = [1, 3] }",
            &["'folds'", "from 2 to 100"][..],
        ),
        (
            "tuning = { inner = \"validation\" }",
            "tune = { k = [1, 3] }",
            &[
                "inner = \"validation\"",
                "dataset 'pima'",
                "stratified_kfold",
            ][..],
        ),
        (
            "tuning = { budget = 3, colour = 1 }",
            "tune = { k = [1, 3] }",
            &["unknown key 'colour'", "budget, method, measure, inner"][..],
        ),
        (
            "",
            "tune = { k = { low = 1, high = 9 } }",
            &["a range needs method = \"random\""][..],
        ),
        (
            "",
            "tune = { k = { low = 9, high = 1 } }",
            &["'tune.k'", "a < b"][..],
        ),
        (
            "tuning = { budget = 3 }",
            "k = 3",
            &["key 'tuning'", "no learner has a `tune` key"][..],
        ),
    ];
    for (tuning, tune, wanted) in cases {
        let text = config(tuning, tune);
        let message = match engine.check_text(&text, "bad.toml") {
            Ok(_) => panic!("accepted: {text}"),
            Err(error) => error.to_string(),
        };
        for part in wanted {
            assert!(message.contains(part), "{part:?} not in: {message}\n{text}");
        }
    }
    // A kind that declares no search space.
    let text = "name = \"bad\"\ndatasets = [\"pima\"]\nprotocol = { kind = \"stratified_kfold\", folds = 3 }\n\
                learners = [{ kind = \"cost_sensitive\", tune = \"declared\" }]\n";
    let message = engine
        .check_text(text, "bad.toml")
        .err()
        .unwrap()
        .to_string();
    assert!(message.contains("declares no search space"), "{message}");
    // Tuning inside a wrapper's base learner is not a parameter of the base.
    let text = "name = \"bad\"\ndatasets = [\"pima\"]\nprotocol = { kind = \"stratified_kfold\", folds = 3 }\n\
                learners = [{ kind = \"bagging\", base = { kind = \"c45\", tune = \"declared\" } }]\n";
    let message = engine
        .check_text(text, "bad.toml")
        .err()
        .unwrap()
        .to_string();
    assert!(message.contains("unknown parameter 'tune'"), "{message}");
}

/// On the same outer and inner splits (committed beside the vectors) and the same grid, k-NN's
/// tuning chooses in every outer fold the k scikit-learn's `GridSearchCV(cv=PredefinedSplit,
/// refit=True)` chooses (Pipeline(MinMaxScaler, KNeighborsClassifier(algorithm="brute"))), with
/// the same mean inner error and the same error on the outer test rows
/// (tests/data/tuning/tuning_sklearn.py wrote the vectors); and logistic regression's ridge
/// the one GridSearchCV chooses for a standardised LogisticRegression with C = 1 / (2 ridge).
#[test]
fn knn_tuning_chooses_what_scikit_learns_grid_search_chooses() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tuning");
    let config = std::fs::read_to_string(data.join("tuning-sklearn.toml")).unwrap();
    let output = run(&config, "sklearn");
    for name in ["pima", "sonar"] {
        for file in [format!("{name}.json"), format!("{name}.inner.json")] {
            let written =
                std::fs::read_to_string(output.folder.join("splits").join(&file)).unwrap();
            let committed = std::fs::read_to_string(data.join(&file)).unwrap();
            assert!(
                written == committed,
                "splits/{file} differs from the committed one"
            );
        }
    }
    let text = std::fs::read_to_string(data.join("sklearn.json")).unwrap();
    let vectors: serde_json::Value = serde_json::from_str(&text).unwrap();
    let record = &output.record;
    for (dataset, name) in ["pima", "sonar"].iter().enumerate() {
        let expected = vectors["datasets"][name].as_array().unwrap();
        let errors = record.results.folds.values(dataset, 0, 0);
        let rows: Vec<_> = record
            .tuning
            .iter()
            .filter(|row| row.dataset == *name && row.learner == "knn")
            .collect();
        assert_eq!(rows.len(), expected.len());
        let ridges: Vec<f64> = record
            .tuning
            .iter()
            .filter(|row| row.dataset == *name && row.learner == "logistic")
            .map(|row| row.value.parse().unwrap())
            .collect();
        let wanted: Vec<f64> = expected
            .iter()
            .map(|want| want["ridge"].as_f64().unwrap())
            .collect();
        assert_eq!(ridges, wanted, "{name}: the ridges chosen");
        for ((row, want), error) in rows.iter().zip(expected).zip(&errors) {
            assert_eq!(row.fold as u64, want["fold"].as_u64().unwrap());
            assert_eq!(row.value, want["k"].to_string(), "{name} fold {}", row.fold);
            let inner = want["inner_error"].as_f64().unwrap();
            assert!(
                (row.inner_score - inner).abs() < 1e-12,
                "{name}: {} vs {inner}",
                row.inner_score
            );
            let test = want["test_error"].as_f64().unwrap();
            assert!(
                (error.unwrap() - test).abs() < 1e-12,
                "{name}: {error:?} vs {test}"
            );
        }
    }
}

/// The rows each fit and prediction was shown, by the unit's seed (a learner that records them:
/// its one attribute is the row's number).
static SHOWN: std::sync::Mutex<Vec<(u64, Vec<u64>)>> = std::sync::Mutex::new(Vec::new());

/// Records the rows it is shown and predicts the class shares.
struct Recorder(usize);

struct Recorded(u64);

impl learners::Learner for Recorder {
    fn name(&self) -> &str {
        "recorder"
    }
    fn describe(&self) -> String {
        format!("recorder p={}", self.0)
    }
    fn revision(&self) -> String {
        learners::spec::revision_text("recorder", 1)
    }
    fn capabilities(&self) -> learners::Capabilities {
        learners::Capabilities::ALL
    }
    fn fit(
        &self,
        train: &data::View,
        seed: u64,
    ) -> Result<Box<dyn learners::Model>, learners::LearnerError> {
        let rows = (0..train.len()).map(|position| train.value(position, 0) as u64);
        SHOWN.lock().unwrap().push((seed, rows.collect()));
        Ok(Box::new(Recorded(seed)))
    }
}

impl learners::Model for Recorded {
    fn predict_proba(
        &self,
        test: &data::Features,
    ) -> Result<learners::Probabilities, learners::LearnerError> {
        let rows = (0..test.len()).map(|position| test.value(position, 0) as u64);
        SHOWN.lock().unwrap().push((self.0, rows.collect()));
        let values = (0..test.len()).flat_map(|_| [0.5, 0.5]).collect();
        Ok(learners::Probabilities::from_flat(2, values))
    }
}

/// No inner unit sees an outer test row, in its fit or its predictions: the tuning chooses
/// on the outer training rows alone.
#[test]
fn the_inner_units_never_see_the_outer_test_rows() {
    let folder = scratch("recorder-data");
    std::fs::create_dir_all(&folder).unwrap();
    let csv: String = std::iter::once("row,class\n".to_string())
        .chain((0..60).map(|row| format!("{row},{}\n", ["a", "b"][row % 2])))
        .collect();
    std::fs::write(folder.join("rows.csv"), csv).unwrap();
    let mut engine = Engine::new().with_threads(2);
    engine
        .learners
        .register(learners::LearnerSpec {
            kind: "recorder",
            description: "records the rows it is shown",
            revision: 1,
            parameters: vec![learners::ParameterSpec::integer(
                "p",
                1,
                1,
                3,
                "a tuned number",
            )],
            capabilities: learners::Capabilities::ALL,
            build: |params| Ok(Box::new(Recorder(params.integer("p")?))),
        })
        .unwrap();
    let config = format!(
        "name = \"recorder\"\ndatasets = [\"{}\"]\nprotocol = {{ kind = \"stratified_kfold\", folds = 4 }}\n\
         tuning = {{ budget = 3, inner = {{ kind = \"stratified_kfold\", folds = 3 }} }}\n\
         learners = [{{ kind = \"recorder\", tune = {{ p = [1, 2, 3] }} }}]\n",
        folder.join("rows.csv").display()
    );
    let output = engine
        .run(
            engine.check_text(&config, "test").unwrap(),
            &scratch("recorder"),
        )
        .unwrap();
    let plan = &output.record.plan;
    let shown = SHOWN.lock().unwrap();
    let tuning = plan.tuning.as_ref().unwrap();
    assert_eq!(tuning.units.len(), 4 * 3 * 3);
    for unit in &tuning.units {
        let engine::Training::Inner { split, .. } = unit.training else {
            panic!("an inner unit")
        };
        let outer = &plan.datasets[0].plan.splits[split];
        let seed = plan.unit_seed(*unit);
        let seen: Vec<u64> = shown
            .iter()
            .filter(|(shown_seed, _)| *shown_seed == seed)
            .flat_map(|(_, rows)| rows.iter().copied())
            .collect();
        assert!(!seen.is_empty());
        for row in seen {
            assert!(
                !outer.test.contains(&(row as u32)),
                "inner unit {unit:?} saw test row {row}"
            );
        }
    }
}

/// `compare_default = true` runs each tuned learner's default configuration beside it, on the
/// same splits: its values are those of the same configuration given as a learner; the tuning
/// curve (the best inner error among the first n candidates) never rises.
#[test]
fn the_default_runs_beside_the_tuned_learner_and_the_curve_never_rises() {
    let config = r#"
name = "tuned-default"
datasets = ["breast-cancer"]
protocol = { kind = "stratified_kfold", folds = 4 }
tuning = { budget = 6, compare_default = true }
learners = [
  { name = "knn", kind = "knn", select_k = false, tune = { k = [1, 3, 5, 7, 11, 21] } },
  { name = "plain", kind = "knn", select_k = false },
]
"#;
    let output = run(config, "default");
    let names: Vec<&str> = output
        .record
        .plan
        .learners
        .iter()
        .map(|l| l.name.as_str())
        .collect();
    assert_eq!(names, ["knn", "plain", "knn_default"]);
    let folds = &output.record.results.folds;
    for measure in 0..2 {
        assert_eq!(folds.values(0, 1, measure), folds.values(0, 2, measure));
    }
    let section = output
        .sections
        .iter()
        .find(|s| s.title == "Tuning")
        .unwrap();
    let curve = section
        .tables
        .iter()
        .find(|table| table.file.as_deref() == Some("tuning_curve"))
        .unwrap();
    let scores: Vec<f64> = curve
        .table
        .rows
        .iter()
        .map(|row| match row[3].value {
            report::Value::Number(value) => value,
            ref other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(scores.len(), 6);
    assert!(
        scores.windows(2).all(|pair| pair[1] <= pair[0]),
        "{scores:?}"
    );
}

/// The Python interpreter of the Python-learner tests (`$EXPERIMENTS_PYTHON`, else `python3`)
/// and the folder of this repository's package when it is not installed; why not, when it
/// cannot import numpy and scikit-learn.
fn python() -> Result<(String, String), String> {
    let interpreter = std::env::var("EXPERIMENTS_PYTHON").unwrap_or_else(|_| "python3".into());
    let runs = |code: &str| {
        std::process::Command::new(&interpreter)
            .args(["-c", code])
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if !runs("import numpy, sklearn") {
        return Err(format!(
            "{interpreter} cannot import numpy and scikit-learn (set EXPERIMENTS_PYTHON to an \
             interpreter that can; .ci/run does)"
        ));
    }
    let package = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python");
    let module_path = if runs("import experiments_py") {
        String::new()
    } else {
        format!(", module_path = [{:?}]", package.canonicalize().unwrap())
    };
    Ok((interpreter, module_path))
}

/// Two tuned learners, an untuned one and a tuned Python learner on three datasets: every tuned
/// learner evaluates the same number of configurations, a rerun reads every unit from the
/// cache, and a changed space recomputes that learner's units only.
#[test]
fn a_python_learner_is_tuned_alike_and_reruns_come_from_the_cache() {
    let (interpreter, module_path) = match python() {
        Ok(found) => found,
        Err(why) => {
            eprintln!(
                "skipped a_python_learner_is_tuned_alike_and_reruns_come_from_the_cache: {why}"
            );
            return;
        }
    };
    let config = |knn: &str| {
        format!(
            r#"
name = "tuned-python"
datasets = ["breast-cancer", "sonar", "pima"]
protocol = {{ kind = "stratified_kfold", folds = 3 }}
tuning = {{ budget = 3 }}
learners = [
  {{ name = "knn", kind = "knn", select_k = false, tune = {{ k = {knn} }} }},
  {{ name = "c45", kind = "c45", tune = {{ confidence = [0.1, 0.25, 0.5] }} }},
  {{ kind = "naive_bayes" }},
  {{ name = "logistic", kind = "python", estimator = "sklearn.linear_model:LogisticRegression",
     python = {interpreter:?}{module_path},
     tune = {{ params = [{{ C = 0.1 }}, {{ C = 1.0 }}, {{ C = 10.0 }}] }} }},
]
"#
        )
    };
    let engine = Engine::new().with_threads(2);
    let folder = scratch("python");
    let mut outputs = Vec::new();
    for knn in ["[1, 5, 21]", "[1, 5, 21]", "[1, 5, 11]"] {
        let text = config(knn);
        outputs.push(
            engine
                .run(engine.check_text(&text, "test").unwrap(), &folder)
                .unwrap(),
        );
    }
    let first = &outputs[0].record;
    assert_eq!(first.counts.failed + first.tuning_counts.failed, 0);
    // 3 datasets x 3 outer folds x 3 inner folds x 3 candidates, for each of 3 tuned learners.
    assert_eq!(first.plan.tuning.as_ref().unwrap().units.len(), 243);
    assert!(first.tuning.iter().all(|row| row.evaluations == 3));
    let again = &outputs[1].record;
    assert_eq!(
        (again.counts.computed, again.tuning_counts.computed),
        (0, 0)
    );
    // k = 11 is new: its 27 inner units; the other learners' units all come from the cache.
    let changed = &outputs[2].record;
    assert_eq!(changed.tuning_counts.computed, 27);
    assert_eq!(changed.tuning_counts.reused, 243 - 27);
    assert!(changed.counts.computed <= 9);
}

/// The model on the whole training part (the tests on Aslan's fixed test set ask for it) of a
/// tuned learner is tuned too: on inner folds of the whole training part, which cover its rows
/// and never the test rows, and its test predictions are those of the fixed learner of the
/// grid point chosen (the least mean inner error, the first on a tie). With inner =
/// "validation" it is refused: the whole training part has no validation rows.
#[test]
fn the_model_on_the_whole_training_part_is_tuned_on_inner_folds_of_it() {
    let (grid, learners) = c45_grid_learners();
    let config = |inner: &str| {
        format!(
            r#"
name = "tuned-whole"
datasets = ["breast-cancer", "german"]
protocol = {{ kind = "aslan", folds = 3 }}
measures = ["error", "auc"]
tests = ["paired_t", "mcnemar"]
tuning = {{ budget = 10, measure = "error", inner = {inner} }}
learners = [{}]
"#,
            learners.join(", ")
        )
    };
    let engine = Engine::new().with_threads(2);
    let refused = engine
        .check_text(&config("\"validation\""), "test")
        .err()
        .expect("refused")
        .to_string();
    assert!(
        refused.contains("key 'tuning'") && refused.contains("whole training part"),
        "{refused}"
    );
    let output = run(
        &config("{ kind = \"stratified_kfold\", folds = 3 }"),
        "whole",
    );
    let record = &output.record;
    for dataset in 0..2 {
        let prepared = &record.plan.datasets[dataset];
        let whole = prepared.whole_training.as_ref().unwrap();
        let inner = &prepared.inner_splits[prepared.plan.splits.len()];
        let mut rows: Vec<u32> = inner.iter().flat_map(|split| split.test.clone()).collect();
        rows.sort_unstable();
        assert_eq!(rows, whole.train_rows().collect::<Vec<u32>>());
        assert!(inner
            .iter()
            .all(|split| split.train_rows().all(|row| !whole.test.contains(&row))));
        let chosen: Vec<&str> = record
            .tuning
            .iter()
            .filter(|row| row.whole && row.dataset == prepared.name)
            .map(|row| row.value.as_str())
            .collect();
        let point = grid
            .iter()
            .position(|&(c, m)| chosen == [c.to_string(), m.to_string()])
            .unwrap_or_else(|| panic!("{chosen:?} is no grid point"));
        let tuned = record.whole_training_predictions(dataset, 0).unwrap();
        let fixed = record
            .whole_training_predictions(dataset, point + 1)
            .unwrap();
        assert_eq!(tuned, fixed, "{}", prepared.name);
    }
}

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

/// C4.5 tuned over a grid of confidence x min_leaf on the validation fold chooses, in every
/// outer unit, a grid point of least validation error among the same grid run as fixed
/// learners (the first in grid order on a tie), and its test values are that learner's.
#[test]
fn c45_tuned_chooses_the_grid_point_of_least_validation_error() {
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

//! Naive Bayes, naive Bayes with MDL discretisation and logistic regression (both solvers)
//! against Weka 3.6.14 on identical splits of five shipped datasets (two more cases for logistic
//! regression along Weka's path). The expected probabilities in
//! `tests/data/weka/*.json` were produced by Weka itself (see `tests/data/weka/README.md` for
//! the script and command lines).

use data::{Attribute, Dataset, Features, Schema};
use learners::{build_learner, Model};

struct Case {
    name: String,
    dataset: Dataset,
    train_rows: usize,
    expected: serde_json::Value,
}

fn load(name: &str) -> Case {
    let path = format!("{}/tests/data/weka/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let attributes: Vec<Attribute> = doc["attributes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let name = a["name"].as_str().unwrap();
            match a["values"].as_array() {
                Some(values) => Attribute::nominal(
                    name,
                    values
                        .iter()
                        .map(|v| v.as_str().unwrap().to_string())
                        .collect(),
                ),
                None => Attribute::numeric(name),
            }
        })
        .collect();
    let class_values = doc["class_values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let rows: Vec<&serde_json::Value> = doc["train"]
        .as_array()
        .unwrap()
        .iter()
        .chain(doc["test"].as_array().unwrap())
        .collect();
    let train_rows = doc["train"].as_array().unwrap().len();
    let mut columns = vec![Vec::with_capacity(rows.len()); attributes.len()];
    for row in &rows {
        for (column, value) in columns.iter_mut().zip(row.as_array().unwrap()) {
            column.push(value.as_f64().unwrap_or(f64::NAN));
        }
    }
    // Test rows get class 0: the models only ever see them as `Features`.
    let mut classes: Vec<u32> = doc["train_classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as u32)
        .collect();
    classes.resize(rows.len(), 0);
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values,
    };
    Case {
        name: name.into(),
        dataset: Dataset::new(name, schema, columns, classes, None).unwrap(),
        train_rows,
        expected: doc["expected"].clone(),
    }
}

/// Largest absolute difference between our probabilities and Weka's, and the share of test
/// rows whose predicted class differs.
fn compare(case: &Case, config: &str, expected_key: &str) -> (f64, f64) {
    let table: toml::Table = config.parse().unwrap();
    let learner = build_learner(&table).unwrap();
    let train = case.dataset.subset((0..case.train_rows).collect());
    let model: Box<dyn Model> = learner.fit(&train, 1).unwrap();
    let test = Features::of(
        &case.dataset,
        (case.train_rows..case.dataset.len()).collect(),
    );
    let got = model.predict_proba(&test).expect("prediction");
    let expected = case.expected[expected_key].as_array().unwrap();
    assert_eq!(expected.len(), got.len());
    let mut max_difference: f64 = 0.0;
    let mut disagreements = 0;
    for (row, weka_row) in expected.iter().enumerate() {
        let weka: Vec<f64> = weka_row
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        for (a, b) in got.row(row).iter().zip(&weka) {
            max_difference = max_difference.max((a - b).abs());
        }
        let weka_class =
            (0..weka.len()).fold(0, |best, c| if weka[c] > weka[best] { c } else { best });
        if got.predicted_classes()[row] != weka_class {
            disagreements += 1;
        }
    }
    eprintln!(
        "{} {expected_key}: max |ours - weka| = {max_difference:.3e}, {disagreements} of {} predictions differ",
        case.name,
        got.len()
    );
    (max_difference, disagreements as f64 / got.len() as f64)
}

const DATASETS: &[&str] = &["breast-cancer", "pima", "crx", "glass", "heart-statlog"];

#[test]
fn naive_bayes_matches_weka() {
    for name in DATASETS {
        let case = load(name);
        let (difference, _) = compare(&case, "kind = \"naive_bayes\"", "naive_bayes");
        assert!(difference <= 1e-9, "{name}: {difference}");
    }
}

#[test]
fn naive_bayes_with_mdl_discretisation_matches_weka() {
    for name in DATASETS {
        let case = load(name);
        let (difference, _) = compare(
            &case,
            "kind = \"naive_bayes\"\ndiscretize = true",
            "naive_bayes_mdl",
        );
        assert!(difference <= 1e-9, "{name}: {difference}");
    }
}

/// Logistic regression with ridge 1e-8 (Weka's default): Weka's BFGS and our Newton's method
/// minimise the same objective. Where the training data are not (quasi-)separable the optimum is
/// unique and well determined, and both reach it: the probabilities agree to Weka's own
/// convergence tolerance. Where they are (Weka gives probabilities above 0.9999 to 24% of glass's
/// and 3% of crx's training rows), the optimum lies far out in a flat valley that Weka's BFGS
/// leaves before reaching it, so probabilities differ there while the predicted classes mostly
/// agree. Measured: pima 1.1e-6, heart-statlog 7.5e-6, breast-cancer 0.018 (a few nearly
/// separated indicator columns), crx and glass up to 1.0 (see docs/weka-comparison.md).
#[test]
fn logistic_matches_weka() {
    // (dataset, largest allowed |difference|, largest allowed share of differing predictions)
    let limits = [
        ("pima", 1e-5, 0.0),
        ("heart-statlog", 1e-4, 0.0),
        ("breast-cancer", 0.02, 0.0),
        // Separable: 1 of 230 and 3 of 72 predicted classes differ (16 of 72 for the linfa
        // adapter on glass).
        ("crx", 1.0, 0.005),
        ("glass", 1.0, 0.05),
    ];
    let mut failures = Vec::new();
    for (name, max_difference, max_disagreement) in limits {
        let case = load(name);
        let (difference, disagreement) = compare(&case, "kind = \"logistic\"", "logistic");
        if difference > max_difference || disagreement > max_disagreement {
            failures.push(format!("{name}: {difference}, {disagreement}"));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// The same learner with `solver = "weka_bfgs"` follows Weka's own optimisation path (its BFGS,
/// line search, tolerances and restarts), so it agrees with Weka also where Newton's method does
/// not: on crx, glass and sonar, whose training rows are (nearly) separable, Newton's
/// probabilities differ from Weka's by up to 1.0 (on sonar 5 of 70 predicted classes differ);
/// these by 3.7e-11, 2.2e-12 and 5.5e-11. Likewise when classes are absent from training
/// (primary-tumor without the training rows of its first and last class, so the reference class
/// is absent): Weka fits them too, Newton's method does not (22 of 113 predicted classes
/// differ); these probabilities are within 1.8e-11 of Weka's. Measured on all seven cases: at
/// most 5.5e-11 (pima 3.9e-16, heart-statlog 1.2e-15, breast-cancer 6.0e-13), with every
/// predicted class the same. The tolerance, 1e-9 on every probability, leaves room for `exp` and
/// `ln` differing from Java's in the last bit along the path, nothing more.
#[test]
fn logistic_along_weka_bfgs_path_matches_weka() {
    /// Cases added for this solver, where Newton's method and Weka differ.
    const WEKA_PATH_CASES: &[&str] = &["sonar", "primary-tumor-absent-classes"];
    let mut failures = Vec::new();
    for name in DATASETS.iter().chain(WEKA_PATH_CASES) {
        let case = load(name);
        if WEKA_PATH_CASES.contains(name) {
            // For the record (printed, not asserted): Newton's method on the same split.
            compare(&case, "kind = \"logistic\"", "logistic");
        }
        let (difference, disagreement) = compare(
            &case,
            "kind = \"logistic\"\nsolver = \"weka_bfgs\"",
            "logistic",
        );
        if difference > 1e-9 || disagreement > 0.0 {
            failures.push(format!("{name}: {difference}, {disagreement}"));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

const TWO_CLASS: &[&str] = &["breast-cancer", "pima", "crx", "heart-statlog"];

#[test]
fn cost_sensitive_reweighting_matches_weka() {
    // Weka: CostSensitiveClassifier -cost-matrix "[0.0 1.0; 5.0 0.0]" -W NaiveBayes.
    for name in TWO_CLASS {
        let case = load(name);
        let (difference, _) = compare(
            &case,
            "kind = \"cost_sensitive\"\nmethod = \"reweight\"\ncosts = [[0, 1], [5, 0]]\nbase = { kind = \"naive_bayes\" }",
            "cost_reweight_nb",
        );
        assert!(difference <= 1e-9, "{name}: {difference}");
    }
}

#[test]
fn cost_sensitive_minimum_expected_cost_decisions_match_weka() {
    // Weka's -M outputs one-hot rows; ours keeps rescaled probabilities with the same argmax.
    for name in TWO_CLASS {
        let case = load(name);
        let (_, disagreement) = compare(
            &case,
            "kind = \"cost_sensitive\"\nmethod = \"threshold\"\ncosts = [[0, 1], [5, 0]]\nbase = { kind = \"naive_bayes\" }",
            "cost_threshold_nb",
        );
        assert_eq!(disagreement, 0.0, "{name}");
    }
}

/// K* with Weka's defaults and three other blend / missing-mode settings. Weka multiplies plain
/// doubles where we add logarithms, and we sum the sphere sizes over distinct values, so the
/// agreement is to rounding.
#[test]
fn kstar_matches_weka() {
    let settings = [
        ("kind = \"kstar\"", "kstar"),
        (
            "kind = \"kstar\"\nblend = 50\nmissing_mode = \"maxdiff\"",
            "kstar_b50_maxdiff",
        ),
        (
            "kind = \"kstar\"\nblend = 0\nmissing_mode = \"delete\"",
            "kstar_b0_delete",
        ),
        (
            "kind = \"kstar\"\nblend = 5\nmissing_mode = \"normal\"",
            "kstar_b5_normal",
        ),
    ];
    for name in DATASETS {
        let case = load(name);
        for (config, key) in settings {
            let differences = row_differences(&case, config, key);
            for (row, difference) in differences.iter().enumerate() {
                let weka_uniform = case.expected[key][row]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|p| p.as_f64() == Some(0.5));
                if *name == "crx" && key == "kstar_b0_delete" && row == 152 {
                    // Five missing test values: Weka raises the running product to the power
                    // 16/11 after each later attribute; the largest product is about e^-851, below
                    // the smallest double, so Weka's all underflow to 0 and it falls back to
                    // uniform. Our logarithms do not underflow.
                    assert!(weka_uniform && *difference > 0.1);
                    continue;
                }
                assert!(*difference <= 1e-9, "{name} {key} row {row}: {difference}");
            }
        }
    }
}

/// Largest absolute difference between our probabilities and Weka's on each test row.
fn row_differences(case: &Case, config: &str, expected_key: &str) -> Vec<f64> {
    let table: toml::Table = config.parse().unwrap();
    let learner = build_learner(&table).unwrap();
    let train = case.dataset.subset((0..case.train_rows).collect());
    let model: Box<dyn Model> = learner.fit(&train, 1).unwrap();
    let test = Features::of(
        &case.dataset,
        (case.train_rows..case.dataset.len()).collect(),
    );
    let got = model.predict_proba(&test).expect("prediction");
    let expected = case.expected[expected_key].as_array().unwrap();
    assert_eq!(expected.len(), got.len());
    expected
        .iter()
        .enumerate()
        .map(|(row, weka_row)| {
            weka_row
                .as_array()
                .unwrap()
                .iter()
                .zip(got.row(row))
                .map(|(weka, ours)| (weka.as_f64().unwrap() - ours).abs())
                .fold(0.0, f64::max)
        })
        .collect()
}

/// VFI with Weka's defaults (weighting by confidence, bias 0.6), bias 1.5, and without weighting.
#[test]
fn vfi_matches_weka() {
    let settings = [
        ("kind = \"vfi\"", "vfi"),
        ("kind = \"vfi\"\nbias = 1.5", "vfi_b1.5"),
        (
            "kind = \"vfi\"\nweight_by_confidence = false",
            "vfi_unweighted",
        ),
    ];
    for name in DATASETS {
        let case = load(name);
        for (config, key) in settings {
            let (difference, _) = compare(&case, config, key);
            assert!(difference <= 1e-9, "{name} {key}: {difference}");
        }
    }
}

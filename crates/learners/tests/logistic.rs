//! The `logistic` learner (Weka's ridge logistic regression, fitted by Newton's method) against
//! scikit-learn's LogisticRegression at matched regularisation, on the shipped pima dataset; and
//! its parameters (the `solver` choice).
//!
//! Weka's objective on standardised columns (sample standard deviation) is
//! `-log L + ridge |b|^2`; scikit-learn's binary one is `C (-log L) + |b|^2 / 2`, the same optimum
//! for `C = 1 / (2 ridge)`. The reference (tests/data/logistic/make_sklearn_reference.py) fits
//! scikit-learn's exact Newton solver on the standardised training rows to a gradient below
//! 5e-13, so both sides sit at the unique optimum to rounding: the tolerance, 1e-9 on every
//! probability, leaves room for the conditioning of the two solves, nothing more. The agreement
//! with Weka itself is in tests/weka_reference.rs.

use data::{Catalog, Features};
use learners::{build_learner, Learner, Logistic};

fn reference() -> serde_json::Value {
    let path = format!(
        "{}/tests/data/logistic/sklearn_pima.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).expect("valid JSON")
}

#[test]
fn matches_scikit_learn_at_matched_regularisation_on_pima() {
    let document = reference();
    let dataset = Catalog::locate()
        .expect("the shipped datasets")
        .load("pima")
        .expect("pima");
    let test_rows: Vec<usize> = document["test_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    let train_rows: Vec<usize> = (0..dataset.len()).filter(|i| i % 3 != 0).collect();
    assert_eq!(
        test_rows,
        (0..dataset.len())
            .filter(|i| i % 3 == 0)
            .collect::<Vec<_>>()
    );
    let class_values = &dataset.schema().class_values;
    for case in document["cases"].as_array().unwrap() {
        let ridge = case["ridge"].as_f64().unwrap();
        let model = Logistic::new(ridge, 100)
            .fit(&dataset.subset(train_rows.clone()), 1)
            .expect("fit");
        let got = model
            .predict_proba(&Features::of(&dataset, test_rows.clone()))
            .expect("predict");
        // scikit-learn's columns are its sorted class names; ours the dataset's class order.
        let columns: Vec<usize> = case["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|name| {
                let name = name.as_str().unwrap();
                class_values.iter().position(|v| v == name).expect("class")
            })
            .collect();
        let mut largest: f64 = 0.0;
        for (row, expected) in case["probabilities"].as_array().unwrap().iter().enumerate() {
            for (column, p) in columns.iter().zip(expected.as_array().unwrap()) {
                largest = largest.max((got.row(row)[*column] - p.as_f64().unwrap()).abs());
            }
        }
        eprintln!("ridge {ridge}: largest |ours - scikit-learn| = {largest:.2e}");
        assert!(largest <= 1e-9, "ridge {ridge}: {largest}");
    }
}

#[test]
fn useless_columns_leave_the_model_unchanged() {
    // Weka's RemoveUseless: an attribute with one value in training, or a nominal attribute with
    // a distinct value on (almost) every row, is dropped. Adding such attributes to a dataset
    // must give exactly the probabilities of the dataset without them.
    use data::{Attribute, Dataset, Schema};
    let x = vec![0.5, 1.5, 2.0, 3.5, 4.0, 1.0, 2.5, 3.0, 0.0, 4.5];
    let classes = vec![0, 0, 1, 0, 1, 1, 0, 1, 0, 1];
    let base = |extra: bool| {
        let mut attributes = vec![Attribute::numeric("x")];
        let mut columns = vec![x.clone()];
        if extra {
            attributes.push(Attribute::numeric("constant"));
            columns.push(vec![7.0; x.len()]);
            attributes.push(Attribute::nominal(
                "identifier",
                (0..x.len()).map(|i| format!("id{i}")).collect(),
            ));
            columns.push((0..x.len()).map(|i| i as f64).collect());
        }
        let schema = Schema {
            attributes,
            class_name: "class".into(),
            class_values: vec!["a".into(), "b".into()],
        };
        Dataset::new("toy", schema, columns, classes.clone(), None).unwrap()
    };
    // Both solvers: Weka's path counts the variables in its step bound, so a column kept by
    // mistake would change it.
    for config in [
        "kind = \"logistic\"",
        "kind = \"logistic\"\nsolver = \"weka_bfgs\"",
    ] {
        let table: toml::Table = config.parse().unwrap();
        let learner = build_learner(&table).unwrap();
        let plain = base(false);
        let padded = base(true);
        let expected = learner
            .fit(&plain.view(), 1)
            .unwrap()
            .predict_proba(&plain.view().features())
            .unwrap();
        let got = learner
            .fit(&padded.view(), 1)
            .unwrap()
            .predict_proba(&padded.view().features())
            .unwrap();
        assert_eq!(expected, got, "{config}");
    }
}

#[test]
fn solver_parameter_is_checked_and_the_default_keeps_its_cache_identity() {
    let build = |text: &str| build_learner(&text.parse::<toml::Table>().unwrap());
    let error = build("kind = \"logistic\"\nsolver = \"lbfgs\"")
        .err()
        .expect("an unknown solver is refused")
        .to_string();
    assert!(
        error.contains("'solver'") && error.contains("newton, weka_bfgs"),
        "{error}"
    );
    // The default (and `solver = "newton"` given explicitly) describes itself and reports its
    // revision as before the parameter existed, so cached results keyed on them stay valid.
    let default = build("kind = \"logistic\"").unwrap();
    let newton = build("kind = \"logistic\"\nsolver = \"newton\"").unwrap();
    assert_eq!(
        default.describe(),
        "logistic(ridge=0.00000001, max_iterations=100)"
    );
    assert_eq!(newton.describe(), default.describe());
    assert_eq!(newton.revision(), default.revision());
    let weka = build("kind = \"logistic\"\nsolver = \"weka_bfgs\"").unwrap();
    assert_ne!(weka.describe(), default.describe());
    assert!(weka.revision().starts_with(&default.revision()));
    assert_ne!(weka.revision(), default.revision());
}

//! The linear perceptron: full-batch descent converges to the unregularised multinomial
//! logistic regression, checked against scikit-learn on encoded inputs computed independently
//! (tests/data/perceptron/make_perceptron_fixture.py); plus parameters and determinism. The
//! fixture leaves indicator columns unstandardised while the perceptron standardises every
//! column: the unregularised optimum's probabilities do not change under such affine maps of
//! the inputs, so the comparison holds either way.

use data::{Attribute, Dataset, Schema};
use learners::perceptron::{PerceptronConfig, PerceptronLearner};
use learners::{build_learner, Model, ParamError};

fn floats(table: &toml::Table, key: &str) -> Vec<f64> {
    table[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key}"))
        .iter()
        .map(|v| match v {
            toml::Value::Float(x) => *x,
            toml::Value::Integer(i) => *i as f64,
            other => panic!("{other}"),
        })
        .collect()
}

fn fixture() -> (Dataset, usize, Vec<Vec<f64>>) {
    let path = format!(
        "{}/tests/data/perceptron/perceptron_logistic.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let table: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    let schema = Schema {
        attributes: vec![
            Attribute::numeric("x0"),
            Attribute::numeric("x1"),
            Attribute::nominal("colour", vec!["red".into(), "green".into(), "blue".into()]),
        ],
        class_name: "class".into(),
        class_values: vec!["a".into(), "b".into(), "c".into()],
    };
    let classes = floats(&table, "classes")
        .into_iter()
        .map(|c| c as u32)
        .collect();
    let dataset = Dataset::new(
        "logistic",
        schema,
        vec![
            floats(&table, "x0"),
            floats(&table, "x1"),
            floats(&table, "colour"),
        ],
        classes,
        Some(floats(&table, "weights")),
    )
    .unwrap();
    let train_rows = table["train_rows"].as_integer().unwrap() as usize;
    let expected = table["probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            row.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_float().unwrap())
                .collect()
        })
        .collect();
    (dataset, train_rows, expected)
}

#[test]
fn full_batch_descent_reaches_sklearn_multinomial_logistic_regression() {
    let (dataset, train_rows, expected) = fixture();
    let train = dataset.subset((0..train_rows).collect());
    let test = dataset
        .subset((train_rows..dataset.len()).collect())
        .features();
    let learner = PerceptronLearner::new(PerceptronConfig {
        learning_rate: 1.0,
        epochs: 3000,
        batch_size: train_rows,
    });
    let model = learner.fit_perceptron(&train, 3).unwrap();
    let probabilities = model.predict_proba(&test).expect("prediction");
    let mut largest = 0.0f64;
    for (row, expected_row) in expected.iter().enumerate() {
        for (class, &p) in expected_row.iter().enumerate() {
            largest = largest.max((probabilities.row(row)[class] - p).abs());
        }
    }
    assert!(largest < 1e-6, "largest difference from sklearn: {largest}");
}

#[test]
fn default_mini_batch_training_is_close_to_the_optimum_and_deterministic() {
    let (dataset, train_rows, expected) = fixture();
    let train = dataset.subset((0..train_rows).collect());
    let test = dataset
        .subset((train_rows..dataset.len()).collect())
        .features();
    let learner = build_learner(&"kind = \"perceptron\"".parse().unwrap()).unwrap();
    let first = learner
        .fit(&train, 9)
        .unwrap()
        .predict_proba(&test)
        .expect("prediction");
    let second = learner
        .fit(&train, 9)
        .unwrap()
        .predict_proba(&test)
        .expect("prediction");
    assert_eq!(first, second);
    let mut largest = 0.0f64;
    for (row, expected_row) in expected.iter().enumerate() {
        for (class, &p) in expected_row.iter().enumerate() {
            largest = largest.max((first.row(row)[class] - p).abs());
        }
    }
    // Stochastic steps of size 0.1 wander around the optimum; they stay near it.
    assert!(largest < 0.05, "largest difference from sklearn: {largest}");
}

#[test]
fn parameters_are_checked() {
    let learner = build_learner(
        &"kind = \"perceptron\"\nlearning_rate = 0.5\nepochs = 10\nbatch_size = 4"
            .parse()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        learner.describe(),
        "perceptron(learning_rate=0.5, epochs=10, batch_size=4)"
    );
    for (text, key) in [
        ("kind = \"perceptron\"\nlearning_rate = 0", "learning_rate"),
        ("kind = \"perceptron\"\nepochs = 0", "epochs"),
        ("kind = \"perceptron\"\nbatch_size = 0", "batch_size"),
    ] {
        let error = build_learner(&text.parse().unwrap()).err().unwrap();
        assert!(
            matches!(&error, ParamError::Range { key: k, .. } if k == key),
            "{error}"
        );
    }
    let error = build_learner(&"kind = \"perceptron\"\nmomentum = 0.9".parse().unwrap())
        .err()
        .unwrap();
    assert!(matches!(error, ParamError::Unknown { .. }));
}

#[test]
fn explain_names_the_indicator_columns() {
    let (dataset, train_rows, _) = fixture();
    let train = dataset.subset((0..train_rows).collect());
    let model = PerceptronLearner::new(PerceptronConfig::default())
        .fit_perceptron(&train, 1)
        .unwrap();
    let text = model.explain(dataset.schema());
    assert!(text.contains("colour=blue"), "{text}");
    assert!(text.contains("5 inputs"), "{text}");
}

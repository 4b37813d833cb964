//! Conformance suite: every learner kind of `registry::kinds()`, built with default parameters,
//! must pass the same checks on small datasets built here:
//!
//! * probabilities are valid: right shape, finite, in [0, 1], rows summing to 1 within 1e-9;
//! * fitting twice with the same seed gives identical probabilities;
//! * nominal-only, numeric-only and mixed (three-class, with a constant attribute) data;
//! * missing values in training and in test rows;
//! * a training set holding a single class (that class must then be predicted);
//! * a nominal value present in the schema but absent from the training rows;
//! * an instance of weight 2 gives the same probabilities (within 1e-9) as that instance
//!   duplicated, for learners whose `exact_weights()` is true;
//! * a test set of one row, and a row's probabilities not depending on the other test rows;
//! * 300 numeric attributes (no overflow/underflow: log-space arithmetic).
//!
//! Non-default configurations listed in `EXTRA_CONFIGS` go through the same checks.
//!
//! Adding a learner to `kinds()` adds it to this suite.

use data::{Attribute, Dataset, Features, Schema, View};
use learners::{build_learner, kinds, Learner, Params, Probabilities};

const SEED: u64 = 20_260_322;

fn names(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|i| format!("{prefix}{i}")).collect()
}

/// Which attribute kinds a generated dataset has.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Nominal,
    Numeric,
    Mixed,
}

/// A small, learnable dataset: the class depends on the attributes with some noise. With
/// `missing_rate > 0` that share of attribute values is missing (in every row range).
fn generated(shape: Shape, rows: usize, missing_rate: f64, seed: u64) -> Dataset {
    let mut random = rng::Rng::new(seed);
    let (attributes, num_classes) = match shape {
        Shape::Nominal => (
            vec![
                Attribute::nominal("colour", names("c", 3)),
                Attribute::nominal("flag", names("f", 2)),
                Attribute::nominal("size", names("s", 4)),
            ],
            2,
        ),
        Shape::Numeric => (
            vec![
                Attribute::numeric("x0"),
                Attribute::numeric("x1"),
                Attribute::numeric("x2"),
            ],
            2,
        ),
        Shape::Mixed => (
            vec![
                Attribute::numeric("x0"),
                Attribute::nominal("colour", names("c", 3)),
                Attribute::numeric("constant"),
                Attribute::nominal("flag", names("f", 2)),
                Attribute::numeric("x1"),
            ],
            3,
        ),
    };
    let mut columns = vec![Vec::with_capacity(rows); attributes.len()];
    let mut classes = Vec::with_capacity(rows);
    for row in 0..rows {
        // Classes in turn, so every class appears in every contiguous range of rows.
        let class = row % num_classes;
        classes.push(class as u32);
        for (index, attribute) in attributes.iter().enumerate() {
            let value = match attribute.values() {
                Some(values) => {
                    // Informative: the class's own value most of the time.
                    if random.next_f64() < 0.6 {
                        (class % values.len()) as f64
                    } else {
                        random.below(values.len()) as f64
                    }
                }
                None if attribute.name == "constant" => 3.5,
                None => class as f64 * (1.0 + index as f64 * 0.5) + random.normal(),
            };
            columns[index].push(value);
        }
    }
    for column in columns.iter_mut() {
        for value in column.iter_mut() {
            if random.next_f64() < missing_rate {
                *value = f64::NAN;
            }
        }
    }
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values: names("k", num_classes),
    };
    Dataset::new(format!("{shape:?}"), schema, columns, classes, None).expect("valid dataset")
}

/// Rows `0..train_rows` as training view, the rest as test features.
fn split(dataset: &Dataset, train_rows: usize) -> (View<'_>, Features<'_>) {
    let train = dataset.subset((0..train_rows).collect());
    let test = Features::of(dataset, (train_rows..dataset.len()).collect());
    (train, test)
}

fn check_valid(kind: &str, case: &str, probabilities: &Probabilities, rows: usize, classes: usize) {
    assert_eq!(
        probabilities.len(),
        rows,
        "{kind} / {case}: {} probability rows for {rows} test rows",
        probabilities.len()
    );
    assert_eq!(
        probabilities.num_classes(),
        classes,
        "{kind} / {case}: wrong number of classes"
    );
    for row in 0..rows {
        let values = probabilities.row(row);
        for &p in values {
            assert!(
                p.is_finite() && (0.0..=1.0).contains(&p),
                "{kind} / {case}: row {row} has probability {p}: {values:?}"
            );
        }
        let sum: f64 = values.iter().sum();
        assert!(
            (sum - 1.0).abs() <= 1e-9,
            "{kind} / {case}: row {row} sums to {sum}: {values:?}"
        );
    }
}

/// Every kind with default parameters, plus the non-default configurations listed in
/// [`EXTRA_CONFIGS`], as (label, config table).
fn configurations() -> Vec<(String, toml::Table)> {
    let mut configs: Vec<(String, toml::Table)> = kinds()
        .iter()
        // The external learner needs a command: it is checked through EXTRA_CONFIGS.
        .filter(|entry| entry.kind != "external")
        .map(|entry| {
            let mut table = toml::Table::new();
            table.insert("kind".into(), toml::Value::String(entry.kind.into()));
            (entry.kind.to_string(), table)
        })
        .collect();
    for text in EXTRA_CONFIGS {
        let table: toml::Table = text.parse().expect("valid TOML in EXTRA_CONFIGS");
        configs.push((text.to_string(), table));
    }
    // The documented example of a learner written outside Rust (Python, standard library).
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/external_learner.py"
    );
    let text = format!("kind = \"external\"\ncommand = [\"python3\", {script:?}]");
    configs.push((text.clone(), text.parse().expect("valid TOML")));
    configs
}

/// Non-default configurations also put through every check (one TOML table per line).
const EXTRA_CONFIGS: &[&str] = &[
    "kind = \"naive_bayes\"\ndiscretize = true",
    "kind = \"kstar\"\nblend = 0\nmissing_mode = \"delete\"",
    "kind = \"kstar\"\nblend = 100\nmissing_mode = \"maxdiff\"",
    "kind = \"vfi\"\nweight_by_confidence = false",
    "kind = \"knn\"\nweka_smoothing = true",
];

fn build(config: &toml::Table) -> Box<dyn Learner> {
    build_learner(config).unwrap_or_else(|error| panic!("{config}: rejected: {error}"))
}

/// Fits twice with the same seed, checks validity and determinism, returns the probabilities.
fn fit_predict(
    (kind, config): &(String, toml::Table),
    case: &str,
    train: &View,
    test: &Features,
    seed: u64,
) -> Probabilities {
    let learner = build(config);
    let model = learner
        .fit(train, seed)
        .unwrap_or_else(|error| panic!("{kind} / {case}: fit failed: {error}"));
    let first = model.predict_proba(test).expect("prediction");
    check_valid(kind, case, &first, test.len(), train.num_classes());
    let again = model.predict_proba(test).expect("prediction");
    assert_eq!(
        first, again,
        "{kind} / {case}: predicting twice gave different results"
    );
    let refit = build(config)
        .fit(train, seed)
        .unwrap_or_else(|error| panic!("{kind} / {case}: second fit failed: {error}"));
    assert_eq!(
        first,
        refit.predict_proba(test).expect("prediction"),
        "{kind} / {case}: two fits with the same seed differ"
    );
    first
}

#[test]
fn every_kind_builds_with_default_parameters() {
    // `external` has a required parameter (its command); it is built in `configurations()`.
    for entry in kinds().into_iter().filter(|entry| entry.kind != "external") {
        let learner = (entry.build)(Params::defaults(&entry))
            .unwrap_or_else(|error| panic!("{}: {error}", entry.kind));
        assert!(!learner.name().is_empty(), "{}: empty name", entry.kind);
        assert!(
            !learner.describe().is_empty(),
            "{}: empty description",
            entry.kind
        );
        assert!(
            !entry.description.is_empty(),
            "{}: empty registry description",
            entry.kind
        );
    }
}

#[test]
fn valid_and_deterministic_on_nominal_numeric_and_mixed_data() {
    for shape in [Shape::Nominal, Shape::Numeric, Shape::Mixed] {
        let dataset = generated(shape, 60, 0.0, SEED);
        let (train, test) = split(&dataset, 42);
        for kind in configurations() {
            fit_predict(&kind, &format!("{shape:?}"), &train, &test, SEED);
        }
    }
}

#[test]
fn missing_values_in_training_and_test() {
    for shape in [Shape::Nominal, Shape::Numeric, Shape::Mixed] {
        let dataset = generated(shape, 60, 0.15, SEED + 1);
        assert!(dataset.missing_count() > 0);
        let (train, test) = split(&dataset, 42);
        for kind in configurations() {
            fit_predict(
                &kind,
                &format!("{shape:?} with missing"),
                &train,
                &test,
                SEED,
            );
        }
    }
    // A test row with every value missing.
    let dataset = generated(Shape::Mixed, 30, 0.0, SEED + 2);
    let (name, schema, mut columns, classes, _) = dataset.into_parts();
    for column in columns.iter_mut() {
        column[29] = f64::NAN;
    }
    let dataset = Dataset::new(name, schema, columns, classes, None).unwrap();
    let (train, test) = split(&dataset, 29);
    for kind in configurations() {
        fit_predict(&kind, "all-missing test row", &train, &test, SEED);
    }
}

#[test]
fn training_set_with_a_single_class() {
    for shape in [Shape::Nominal, Shape::Numeric, Shape::Mixed] {
        let dataset = generated(shape, 60, 0.05, SEED + 3);
        let num_classes = dataset.num_classes();
        // Only the rows of class 1 (the schema still lists every class).
        let rows: Vec<usize> = (0..45).filter(|&row| dataset.class(row) == 1).collect();
        let train = dataset.subset(rows);
        let test = Features::of(&dataset, (45..60).collect());
        for kind in configurations() {
            let case = format!("{shape:?}, single class");
            let probabilities = fit_predict(&kind, &case, &train, &test, SEED);
            assert_eq!(probabilities.num_classes(), num_classes);
            for (row, predicted) in probabilities.predicted_classes().into_iter().enumerate() {
                assert_eq!(
                    predicted,
                    1,
                    "{} / {case}: row {row} predicts class {predicted}, but only class 1 was seen: {:?}",
                    kind.0,
                    probabilities.row(row)
                );
            }
        }
    }
}

#[test]
fn nominal_value_unseen_in_training() {
    for shape in [Shape::Nominal, Shape::Mixed] {
        let dataset = generated(shape, 60, 0.0, SEED + 4);
        let (name, schema, mut columns, classes, _) = dataset.into_parts();
        // Training rows use values 0 and 1 of every nominal attribute; test rows use the last
        // value, which exists in the schema only.
        for (attribute, column) in schema.attributes.iter().zip(columns.iter_mut()) {
            if let Some(values) = attribute.values() {
                let last = (values.len() - 1) as f64;
                for (row, value) in column.iter_mut().enumerate() {
                    *value = if row < 42 { (*value).min(1.0) } else { last };
                }
            }
        }
        let dataset = Dataset::new(name, schema, columns, classes, None).unwrap();
        let (train, test) = split(&dataset, 42);
        for kind in configurations() {
            fit_predict(
                &kind,
                &format!("{shape:?}, unseen value"),
                &train,
                &test,
                SEED,
            );
        }
    }
}

#[test]
fn weight_two_equals_duplicated_instance() {
    for shape in [Shape::Nominal, Shape::Numeric, Shape::Mixed] {
        let dataset = generated(shape, 60, 0.05, SEED + 5);
        let doubled = [3usize, 10, 17];
        // Weighted: rows 0..42, the `doubled` ones with weight 2.
        let weights: Vec<f64> = (0..42)
            .map(|row| if doubled.contains(&row) { 2.0 } else { 1.0 })
            .collect();
        let weighted = dataset.subset((0..42).collect()).with_weights(weights);
        // Duplicated: the same rows, each doubled one repeated right after itself.
        let mut rows = Vec::new();
        for row in 0..42 {
            rows.push(row);
            if doubled.contains(&row) {
                rows.push(row);
            }
        }
        let duplicated = dataset.subset(rows);
        let test = Features::of(&dataset, (42..60).collect());
        for kind in configurations() {
            if !build(&kind.1).exact_weights() {
                continue;
            }
            let case = format!("{shape:?}, weights");
            let from_weights = fit_predict(&kind, &case, &weighted, &test, SEED);
            let from_copies = fit_predict(&kind, &case, &duplicated, &test, SEED);
            for (position, (a, b)) in from_weights
                .as_flat()
                .iter()
                .zip(from_copies.as_flat())
                .enumerate()
            {
                assert!(
                    (a - b).abs() <= 1e-9,
                    "{} / {case}: value {position}: weight 2 gives {a}, duplication {b}",
                    kind.0
                );
            }
        }
    }
}

#[test]
fn test_set_of_one_row() {
    let dataset = generated(Shape::Mixed, 50, 0.05, SEED + 6);
    let train = dataset.subset((0..49).collect());
    let test = Features::of(&dataset, vec![49]);
    for kind in configurations() {
        fit_predict(&kind, "one test row", &train, &test, SEED);
    }
}

#[test]
fn probabilities_do_not_depend_on_the_other_test_rows() {
    let dataset = generated(Shape::Mixed, 60, 0.05, SEED + 7);
    let (train, test) = split(&dataset, 42);
    for kind in configurations() {
        let model = build(&kind.1).fit(&train, SEED).unwrap();
        let kind = &kind.0;
        let all = model.predict_proba(&test).expect("prediction");
        for position in [0usize, 7, 17] {
            let single = model
                .predict_proba(&Features::of(&dataset, vec![42 + position]))
                .expect("prediction");
            for (a, b) in single.row(0).iter().zip(all.row(position)) {
                assert!(
                    (a - b).abs() <= 1e-12,
                    "{kind}: a row's probabilities change with the other test rows: {a} vs {b}"
                );
            }
        }
    }
}

#[test]
fn hundreds_of_attributes_do_not_overflow() {
    // 300 informative numeric attributes: products of hundreds of likelihoods underflow (or
    // their inverses overflow) unless the learner works in log space.
    let rows = 40;
    let width = 300;
    let mut random = rng::Rng::new(SEED + 8);
    let classes: Vec<u32> = (0..rows).map(|row| (row % 2) as u32).collect();
    let columns: Vec<Vec<f64>> = (0..width)
        .map(|_| {
            classes
                .iter()
                .map(|&class| 3.0 * class as f64 + random.normal())
                .collect()
        })
        .collect();
    let schema = Schema {
        attributes: (0..width)
            .map(|i| Attribute::numeric(format!("x{i}")))
            .collect(),
        class_name: "class".into(),
        class_values: names("k", 2),
    };
    let dataset = Dataset::new("wide", schema, columns, classes, None).unwrap();
    let (train, test) = split(&dataset, 30);
    for kind in configurations() {
        let probabilities = fit_predict(&kind, "300 attributes", &train, &test, SEED);
        // The classes are far apart: every learner should get most test rows right.
        let correct = probabilities
            .predicted_classes()
            .iter()
            .enumerate()
            .filter(|(position, &class)| class == (30 + position) % 2)
            .count();
        assert!(correct >= 8, "{}: only {correct} of 10 right", kind.0);
    }
}

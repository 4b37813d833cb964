//! The learner conformance suite: checks every learner must pass, public so that the tests of
//! a learner written in another crate can run them.
//!
//! [`check`] fits the learner on small datasets generated here and checks:
//!
//! * probabilities are valid: right shape, finite, in [0, 1], rows summing to 1 within 1e-9;
//! * predicting twice, and fitting twice with the same seed, give identical probabilities;
//! * nominal-only, numeric-only and mixed data (the mixed data has three classes and a constant
//!   attribute);
//! * missing values in training and in test rows, and a test row with every value missing;
//! * a training set holding a single class (valid probabilities over every class of the
//!   schema);
//! * a nominal value present in the schema but absent from the training rows;
//! * an instance of weight 2 gives the same probabilities (within 1e-9) as that instance
//!   duplicated, for learners whose [`Learner::exact_weights`] is true;
//! * a test set of one row, and a row's probabilities not depending on the other test rows;
//! * 300 numeric attributes (no overflow or underflow: log-space arithmetic).
//!
//! These check validity, not quality: a learner that predicts the class priors, or seeded
//! random probabilities that depend on the row alone, passes. [`check_quality`] (off unless a
//! test calls it) adds named smoke tests of quality ([`quality::QUALITY_CHECKS`]).
//!
//! Cases the learner's [`Learner::capabilities`] exclude are skipped: no nominal attributes for
//! a learner without `nominal_attributes`, no missing values without `missing_values`, two
//! classes only without `multi_class`, no weights without `instance_weights`.
//!
//! [`check_spec`] also checks a kind's spec: its consistency, that it builds with its defaults,
//! and that the learner's revision and capabilities agree with the spec.
//!
//! ```
//! let learner = learners::build_learner(&"kind = \"naive_bayes\"".parse().unwrap()).unwrap();
//! learners::conformance::check(&*learner).unwrap();
//! ```

use std::panic::{catch_unwind, AssertUnwindSafe};

use data::{Attribute, Dataset, Features, Schema, View};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

pub mod quality;

pub use quality::check_quality;

use crate::model::{Learner, Probabilities};
use crate::params::Params;
use crate::registry::Registry;
use crate::spec::{Capabilities, LearnerSpec, ParameterDefault};

/// The seed of every fit and of the generated data.
const SEED: u64 = 20_260_322;

/// Runs every check on `learner`; the error lists each failure as "case: problem".
pub fn check(learner: &dyn Learner) -> Result<(), Vec<String>> {
    let mut failures = Vec::new();
    let capabilities = learner.capabilities();
    if learner.name().is_empty() {
        failures.push("name: empty".to_string());
    }
    if learner.describe().is_empty() {
        failures.push("describe: empty".to_string());
    }
    if learner.revision().is_empty() {
        failures.push("revision: empty".to_string());
    }
    let cases: [(&str, Case); 8] = [
        ("nominal, numeric and mixed data", valid_and_deterministic),
        ("missing values", missing_values),
        ("single-class training set", single_class),
        ("nominal value unseen in training", unseen_nominal_value),
        (
            "weight 2 equals a duplicated row",
            weight_two_equals_duplicate,
        ),
        ("test set of one row", one_test_row),
        ("rows predicted independently", rows_independent),
        ("300 attributes", hundreds_of_attributes),
    ];
    for (name, case) in cases {
        match catch_unwind(AssertUnwindSafe(|| case(learner, &capabilities))) {
            Ok(Ok(())) => {}
            Ok(Err(problem)) => failures.push(format!("{name}: {problem}")),
            Err(panic) => failures.push(format!(
                "{name}: panicked: {}",
                crate::model::panic_message(panic.as_ref())
            )),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// Checks a learner kind's spec and runs [`check`] on the learner it builds with its default
/// parameters (unless a parameter is required). Nested learners come from the built-in
/// registry, with `spec` added when it is not a built-in kind.
pub fn check_spec(spec: &LearnerSpec) -> Result<(), Vec<String>> {
    let kind = spec.kind;
    if let Err(message) = spec.validate() {
        return Err(vec![format!("spec: {message}")]);
    }
    if spec.description.is_empty() {
        return Err(vec![format!("spec: learner '{kind}' has no description")]);
    }
    if spec
        .parameters
        .iter()
        .any(|parameter| *parameter.default() == ParameterDefault::Required)
    {
        return Ok(());
    }
    let mut registry = Registry::builtin();
    if registry.spec(kind).is_none() {
        if let Err(error) = registry.register(spec.clone()) {
            return Err(vec![format!("spec: {error}")]);
        }
    }
    let mut table = toml::Table::new();
    table.insert("kind".into(), toml::Value::String(kind.into()));
    let learner = match Params::new(spec, &registry, &table).and_then(spec.build) {
        Ok(learner) => learner,
        Err(error) => return Err(vec![format!("default parameters: {error}")]),
    };
    let mut failures = Vec::new();
    let revision = learner.revision();
    if !revision.starts_with(&spec.revision_text()) {
        failures.push(format!(
            "revision: the learner says '{revision}' but its spec has revision {} ('{}')",
            spec.revision,
            spec.revision_text()
        ));
    }
    if !spec.capabilities.covers(&learner.capabilities()) {
        failures.push(format!(
            "capabilities: the learner claims {} but its spec only {}",
            learner.capabilities().describe(),
            spec.capabilities.describe()
        ));
    }
    if let Err(more) = check(&*learner) {
        failures.extend(more);
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// One check: `Err` says what went wrong.
type Case = fn(&dyn Learner, &Capabilities) -> Result<(), String>;

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

/// The shapes a learner with these capabilities is tested on (nominal ones need nominal
/// attributes).
fn shapes(capabilities: &Capabilities) -> Vec<Shape> {
    if capabilities.nominal_attributes {
        vec![Shape::Nominal, Shape::Numeric, Shape::Mixed]
    } else {
        vec![Shape::Numeric]
    }
}

/// A small, learnable dataset: the class depends on the attributes with some noise. With
/// `missing_rate > 0` that share of attribute values is missing (in every row range). The
/// mixed shape has three classes, or two for a learner without `multi_class`.
fn generated(
    shape: Shape,
    rows: usize,
    missing_rate: f64,
    seed: u64,
    capabilities: &Capabilities,
) -> Dataset {
    let mut random = ChaCha8Rng::seed_from_u64(seed);
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
            if capabilities.multi_class { 3 } else { 2 },
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
                    if random.random::<f64>() < 0.6 {
                        (class % values.len()) as f64
                    } else {
                        random.random_range(0..values.len()) as f64
                    }
                }
                None if attribute.name == "constant" => 3.5,
                None => {
                    class as f64 * (1.0 + index as f64 * 0.5)
                        + random.sample::<f64, _>(StandardNormal)
                }
            };
            columns[index].push(value);
        }
    }
    for column in columns.iter_mut() {
        for value in column.iter_mut() {
            if random.random::<f64>() < missing_rate {
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

fn check_valid(
    case: &str,
    probabilities: &Probabilities,
    rows: usize,
    classes: usize,
) -> Result<(), String> {
    if probabilities.len() != rows {
        return Err(format!(
            "{case}: {} probability rows for {rows} test rows",
            probabilities.len()
        ));
    }
    if probabilities.num_classes() != classes {
        return Err(format!(
            "{case}: {} probability columns for {classes} classes",
            probabilities.num_classes()
        ));
    }
    for row in 0..rows {
        let values = probabilities.row(row);
        if let Some(p) = values
            .iter()
            .find(|p| !(p.is_finite() && (0.0..=1.0).contains(*p)))
        {
            return Err(format!("{case}: row {row} has probability {p}: {values:?}"));
        }
        let sum: f64 = values.iter().sum();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(format!("{case}: row {row} sums to {sum}: {values:?}"));
        }
    }
    Ok(())
}

/// Fits twice with the same seed, checks validity and determinism, returns the probabilities.
fn fit_predict(
    learner: &dyn Learner,
    case: &str,
    train: &View,
    test: &Features,
) -> Result<Probabilities, String> {
    let model = learner
        .fit(train, SEED)
        .map_err(|error| format!("{case}: fit failed: {error}"))?;
    let first = model
        .predict_proba(test)
        .map_err(|error| format!("{case}: prediction failed: {error}"))?;
    check_valid(case, &first, test.len(), train.num_classes())?;
    let again = model
        .predict_proba(test)
        .map_err(|error| format!("{case}: second prediction failed: {error}"))?;
    if first != again {
        return Err(format!("{case}: predicting twice gave different results"));
    }
    let refit = learner
        .fit(train, SEED)
        .map_err(|error| format!("{case}: second fit failed: {error}"))?;
    let refitted = refit
        .predict_proba(test)
        .map_err(|error| format!("{case}: prediction failed: {error}"))?;
    if first != refitted {
        return Err(format!("{case}: two fits with the same seed differ"));
    }
    Ok(first)
}

fn valid_and_deterministic(
    learner: &dyn Learner,
    capabilities: &Capabilities,
) -> Result<(), String> {
    for shape in shapes(capabilities) {
        let dataset = generated(shape, 60, 0.0, SEED, capabilities);
        let (train, test) = split(&dataset, 42);
        fit_predict(learner, &format!("{shape:?}"), &train, &test)?;
    }
    Ok(())
}

fn missing_values(learner: &dyn Learner, capabilities: &Capabilities) -> Result<(), String> {
    if !capabilities.missing_values {
        return Ok(());
    }
    for shape in shapes(capabilities) {
        let dataset = generated(shape, 60, 0.15, SEED + 1, capabilities);
        let (train, test) = split(&dataset, 42);
        fit_predict(learner, &format!("{shape:?} with missing"), &train, &test)?;
    }
    // A test row with every value missing.
    let shape = if capabilities.nominal_attributes {
        Shape::Mixed
    } else {
        Shape::Numeric
    };
    let dataset = generated(shape, 30, 0.0, SEED + 2, capabilities);
    let (name, schema, mut columns, classes, _) = dataset.into_parts();
    for column in columns.iter_mut() {
        column[29] = f64::NAN;
    }
    let dataset = Dataset::new(name, schema, columns, classes, None).expect("valid dataset");
    let (train, test) = split(&dataset, 29);
    fit_predict(learner, "all-missing test row", &train, &test)?;
    Ok(())
}

fn single_class(learner: &dyn Learner, capabilities: &Capabilities) -> Result<(), String> {
    single_class_probabilities(learner, capabilities).map(|_| ())
}

/// Fits on the rows of class 1 alone (the schema still lists every class) of each shape and
/// predicts test rows whose nominal values were all seen: each case with its probabilities.
fn single_class_probabilities(
    learner: &dyn Learner,
    capabilities: &Capabilities,
) -> Result<Vec<(String, Probabilities)>, String> {
    let mut predicted = Vec::new();
    let missing_rate = if capabilities.missing_values {
        0.05
    } else {
        0.0
    };
    for shape in shapes(capabilities) {
        let dataset = generated(shape, 60, missing_rate, SEED + 3, capabilities);
        // Only the rows of class 1 (the schema still lists every class).
        let rows: Vec<usize> = (0..45).filter(|&row| dataset.class(row) == 1).collect();
        // Test rows whose nominal values were all seen in training (or are missing). A value
        // never seen is the unseen-value check's case; here it would make the premise false
        // for a Laplace-corrected learner: naive Bayes gives the seen class 1 / (n + V) for it
        // and every unseen class 1 / V, which can outweigh the prior.
        let nominal: Vec<usize> = (0..dataset.schema().attributes.len())
            .filter(|&a| dataset.schema().attributes[a].values().is_some())
            .collect();
        let seen = |attribute: usize, value: f64| {
            value.is_nan() || rows.iter().any(|&r| dataset.value(r, attribute) == value)
        };
        let test_rows: Vec<usize> = (45..60)
            .filter(|&row| nominal.iter().all(|&a| seen(a, dataset.value(row, a))))
            .collect();
        if test_rows.is_empty() {
            return Err(format!(
                "{shape:?}, single class: the generated data left no test row"
            ));
        }
        let train = dataset.subset(rows.clone());
        let test = Features::of(&dataset, test_rows);
        let case = format!("{shape:?}, single class");
        let probabilities = fit_predict(learner, &case, &train, &test)?;
        predicted.push((case, probabilities));
    }
    Ok(predicted)
}

fn unseen_nominal_value(learner: &dyn Learner, capabilities: &Capabilities) -> Result<(), String> {
    if !capabilities.nominal_attributes {
        return Ok(());
    }
    for shape in [Shape::Nominal, Shape::Mixed] {
        let dataset = generated(shape, 60, 0.0, SEED + 4, capabilities);
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
        let dataset = Dataset::new(name, schema, columns, classes, None).expect("valid dataset");
        let (train, test) = split(&dataset, 42);
        fit_predict(learner, &format!("{shape:?}, unseen value"), &train, &test)?;
    }
    Ok(())
}

fn weight_two_equals_duplicate(
    learner: &dyn Learner,
    capabilities: &Capabilities,
) -> Result<(), String> {
    if !capabilities.instance_weights || !learner.exact_weights() {
        return Ok(());
    }
    let missing_rate = if capabilities.missing_values {
        0.05
    } else {
        0.0
    };
    for shape in shapes(capabilities) {
        let dataset = generated(shape, 60, missing_rate, SEED + 5, capabilities);
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
        let case = format!("{shape:?}, weights");
        let from_weights = fit_predict(learner, &case, &weighted, &test)?;
        let from_copies = fit_predict(learner, &case, &duplicated, &test)?;
        for (position, (a, b)) in from_weights
            .as_flat()
            .iter()
            .zip(from_copies.as_flat())
            .enumerate()
        {
            if (a - b).abs() > 1e-9 {
                return Err(format!(
                    "{case}: value {position}: weight 2 gives {a}, duplication {b}"
                ));
            }
        }
    }
    Ok(())
}

/// The richest shape the capabilities allow, with missing values if they are allowed.
fn richest(capabilities: &Capabilities, rows: usize, seed: u64) -> Dataset {
    let shape = if capabilities.nominal_attributes {
        Shape::Mixed
    } else {
        Shape::Numeric
    };
    let missing_rate = if capabilities.missing_values {
        0.05
    } else {
        0.0
    };
    generated(shape, rows, missing_rate, seed, capabilities)
}

fn one_test_row(learner: &dyn Learner, capabilities: &Capabilities) -> Result<(), String> {
    let dataset = richest(capabilities, 50, SEED + 6);
    let train = dataset.subset((0..49).collect());
    let test = Features::of(&dataset, vec![49]);
    fit_predict(learner, "one test row", &train, &test)?;
    Ok(())
}

fn rows_independent(learner: &dyn Learner, capabilities: &Capabilities) -> Result<(), String> {
    let dataset = richest(capabilities, 60, SEED + 7);
    let (train, test) = split(&dataset, 42);
    let model = learner
        .fit(&train, SEED)
        .map_err(|error| format!("fit failed: {error}"))?;
    let all = model
        .predict_proba(&test)
        .map_err(|error| format!("prediction failed: {error}"))?;
    for position in [0usize, 7, 17] {
        let single = model
            .predict_proba(&Features::of(&dataset, vec![42 + position]))
            .map_err(|error| format!("prediction failed: {error}"))?;
        for (a, b) in single.row(0).iter().zip(all.row(position)) {
            if (a - b).abs() > 1e-12 {
                return Err(format!(
                    "a row's probabilities change with the other test rows: {a} vs {b}"
                ));
            }
        }
    }
    Ok(())
}

fn hundreds_of_attributes(learner: &dyn Learner, _: &Capabilities) -> Result<(), String> {
    let dataset = wide_dataset();
    let (train, test) = split(&dataset, 30);
    fit_predict(learner, "300 attributes", &train, &test)?;
    Ok(())
}

/// 40 rows of 300 informative numeric attributes, two classes far apart (alternating rows):
/// products of hundreds of likelihoods underflow (or their inverses overflow) unless the
/// learner works in log space.
fn wide_dataset() -> Dataset {
    let rows = 40;
    let width = 300;
    let mut random = ChaCha8Rng::seed_from_u64(SEED + 8);
    let classes: Vec<u32> = (0..rows).map(|row| (row % 2) as u32).collect();
    let columns: Vec<Vec<f64>> = (0..width)
        .map(|_| {
            classes
                .iter()
                .map(|&class| 3.0 * class as f64 + random.sample::<f64, _>(StandardNormal))
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
    Dataset::new("wide", schema, columns, classes, None).expect("valid dataset")
}

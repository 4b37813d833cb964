//! The sorted numeric columns a dataset's C4.5 and naive Bayes units share change nothing: for
//! many training subsets of a dataset (folds in shuffled order, a bootstrap sample with
//! repeated rows, a subset on which an attribute is constant), every option, and data with
//! ties, missing values, nominal attributes and weights, a model fitted with the shared state
//! predicts exactly (to the bit) what the model fitted alone predicts, and C4.5 prints the
//! same tree. The models fitted alone are checked against Weka in `c45_weka.rs` and
//! `weka_reference.rs`; this file holds the shared path to them.

use data::{Attribute, Dataset, Features, Schema};
use learners::naive_bayes::NaiveBayes;
use learners::{Learner, ShareHint, SharedState, C45};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What the generated data holds beside continuous values.
#[derive(Clone, Copy)]
struct Shape {
    rows: usize,
    /// A fraction of the values missing.
    missing: bool,
    /// A nominal attribute of three values.
    nominal: bool,
    /// Weights of 1 and 2 instead of all 1.
    weighted: bool,
}

/// Three continuous attributes in [0, 10), a coarse grid attribute (0..=3, many ties), maybe
/// a nominal one; two classes; every tenth row repeats the one before it.
fn dataset(seed: u64, shape: Shape) -> Dataset {
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let mut table: Vec<Vec<f64>> = Vec::with_capacity(shape.rows);
    for row in 0..shape.rows {
        if row % 10 == 9 {
            table.push(table[row - 1].clone());
            continue;
        }
        let mut values: Vec<f64> = (0..3).map(|_| generator.random_range(0.0..10.0)).collect();
        values.push(generator.random_range(0..4) as f64);
        values.push(generator.random_range(0..3) as f64);
        if shape.missing {
            for value in values.iter_mut() {
                if generator.random_range(0..12) == 0 {
                    *value = f64::NAN;
                }
            }
        }
        table.push(values);
    }
    let noise: Vec<bool> = (0..shape.rows)
        .map(|_| generator.random_range(0..6) == 0)
        .collect();
    let classes: Vec<u32> = table
        .iter()
        .zip(noise)
        .map(|(values, noise)| u32::from((values[0] + values[3] * 1.5 > 7.0) != noise))
        .collect();
    let mut attributes: Vec<Attribute> = (0..4)
        .map(|number| Attribute::numeric(format!("a{number}")))
        .collect();
    let width = if shape.nominal { 5 } else { 4 };
    if shape.nominal {
        let values = ["x", "y", "z"].map(String::from).to_vec();
        attributes.push(Attribute::nominal("colour", values));
    }
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values: vec!["no".into(), "yes".into()],
    };
    let columns = (0..width)
        .map(|attribute| table.iter().map(|values| values[attribute]).collect())
        .collect();
    let weights = shape.weighted.then(|| {
        (0..shape.rows)
            .map(|row| if row % 3 == 0 { 2.0 } else { 1.0 })
            .collect()
    });
    Dataset::new("sorted", schema, columns, classes, weights).expect("a valid dataset")
}

/// The training and test rows of fold `fold` of 5, the training rows shuffled.
fn fold_rows(rows: usize, fold: usize, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let test: Vec<usize> = (0..rows).filter(|row| row % 5 == fold).collect();
    let mut train: Vec<usize> = (0..rows).filter(|row| row % 5 != fold).collect();
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    for place in (1..train.len()).rev() {
        train.swap(place, generator.random_range(0..=place));
    }
    (train, test)
}

/// Every C4.5 option that changes how a tree is grown or pruned, and both naive Bayes.
fn learners() -> Vec<Box<dyn Learner>> {
    let mut all: Vec<Box<dyn Learner>> = Vec::new();
    for (min_leaf, pruned, subtree_raising) in [
        (2, true, true),
        (1, true, false),
        (5, false, false),
        (10, true, true),
    ] {
        all.push(Box::new(C45 {
            min_leaf,
            pruned,
            subtree_raising,
            ..C45::default()
        }));
    }
    all.push(Box::new(NaiveBayes::new(false)));
    all.push(Box::new(NaiveBayes::new(true)));
    all
}

/// Fits `learner` on `train` with and without the shared state and asserts equal predictions
/// on `test` and equal printouts.
fn assert_same(
    learner: &dyn Learner,
    data: &Dataset,
    train: &[usize],
    test: &[usize],
    shared: &SharedState,
) {
    let train_view = data.subset(train.to_vec());
    let features = Features::of(data, test.to_vec());
    let alone = learner.fit(&train_view, 7).unwrap();
    let with_state = learner.fit_shared(&train_view, None, 7, shared).unwrap();
    let name = learner.describe();
    assert_eq!(
        alone.predict_proba(&features).unwrap(),
        with_state.predict_proba(&features).unwrap(),
        "{name}"
    );
    assert_eq!(
        alone.explain(data.schema()),
        with_state.explain(data.schema()),
        "{name}"
    );
}

/// The shared state of `data`, through the learner interface.
fn shared(data: &Dataset) -> SharedState {
    let hint = ShareHint {
        units: 5,
        predicted_rows: data.len(),
    };
    C45::default()
        .build_shared(data, hint, usize::MAX)
        .expect("sorted columns for data with numeric attributes")
}

#[test]
fn every_model_fits_with_the_sorted_columns_what_it_fits_alone() {
    let plain = Shape {
        rows: 400,
        missing: false,
        nominal: false,
        weighted: false,
    };
    let shapes = [
        plain,
        Shape {
            nominal: true,
            ..plain
        },
        Shape {
            missing: true,
            nominal: true,
            ..plain
        },
        Shape {
            weighted: true,
            ..plain
        },
        // Long enough for C4.5's radix sort (4,096 values), whose ties come in training order.
        Shape {
            rows: 6000,
            nominal: true,
            ..plain
        },
    ];
    for (seed, shape) in shapes.into_iter().enumerate() {
        let data = dataset(seed as u64, shape);
        let state = shared(&data);
        for fold in 0..5 {
            let (train, test) = fold_rows(shape.rows, fold, seed as u64 * 10 + fold as u64);
            for learner in learners() {
                assert_same(learner.as_ref(), &data, &train, &test, &state);
            }
        }
        // A bootstrap sample (rows repeated: the learners sort alone) and a subset on which
        // the grid attribute is constant.
        let mut generator = ChaCha8Rng::seed_from_u64(99);
        let bootstrap: Vec<usize> = (0..shape.rows)
            .map(|_| generator.random_range(0..shape.rows))
            .collect();
        let constant: Vec<usize> = (0..shape.rows)
            .filter(|&row| data.value(row, 3) == 1.0)
            .collect();
        let everything: Vec<usize> = (0..shape.rows).collect();
        for learner in learners() {
            assert_same(learner.as_ref(), &data, &bootstrap, &everything, &state);
            assert_same(learner.as_ref(), &data, &constant, &everything, &state);
        }
    }
}

#[test]
fn sorted_columns_only_when_two_units_read_them_within_the_budget() {
    let plain = Shape {
        rows: 200,
        missing: false,
        nominal: false,
        weighted: false,
    };
    let data = dataset(4, plain);
    let one = ShareHint {
        units: 1,
        predicted_rows: 200,
    };
    let two = ShareHint {
        units: 2,
        predicted_rows: 400,
    };
    for learner in [&C45::default() as &dyn Learner, &NaiveBayes::new(false)] {
        assert!(learner.build_shared(&data, one, usize::MAX).is_none());
        // 4 numeric attributes x 200 rows x 12 bytes.
        assert!(
            learner.build_shared(&data, two, 9599).is_none(),
            "over budget"
        );
        let state = learner
            .build_shared(&data, two, 9600)
            .expect("within the budget");
        assert_eq!(state.bytes, 9600);
    }
    assert_eq!(
        C45::default().shared_key(),
        NaiveBayes::new(false).shared_key()
    );
}

//! The neighbour lists a dataset's k-NN units share change nothing: for many training subsets
//! of a dataset (folds, and a subset on which an attribute is constant), every k, both
//! weightings, k chosen on a validation set or on an inner split, and every search method, a
//! model fitted with the lists predicts exactly (to the bit) what the model fitted alone
//! predicts, which `knn_search.rs` checks against brute force.
//!
//! The data: continuous random values (so that sums of squares round), a coarse grid column
//! (so that many rows tie), and duplicated rows.

use data::{Attribute, Dataset, Schema};
use learners::knn::{KnnConfig, KnnLearner, SearchMethod, Weighting};
use learners::{Learner, ShareHint};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `rows` rows of `continuous` continuous attributes in [0, 10), one grid attribute (0..=3),
/// two classes; every tenth row repeats the one before it.
fn dataset(seed: u64, rows: usize, continuous: usize) -> Dataset {
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let width = continuous + 1;
    let mut table: Vec<Vec<f64>> = Vec::with_capacity(rows);
    for row in 0..rows {
        if row % 10 == 9 {
            table.push(table[row - 1].clone());
            continue;
        }
        let mut values: Vec<f64> = (0..continuous)
            .map(|_| generator.random_range(0.0..10.0))
            .collect();
        values.push(generator.random_range(0..4) as f64);
        table.push(values);
    }
    let classes: Vec<u32> = table
        .iter()
        .map(|values| u32::from(values[0] + values[1] * 0.5 > 7.0))
        .collect();
    let attributes = (0..width)
        .map(|number| Attribute::numeric(format!("a{number}")))
        .collect();
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values: vec!["no".into(), "yes".into()],
    };
    let columns = (0..width)
        .map(|attribute| table.iter().map(|values| values[attribute]).collect())
        .collect();
    Dataset::new("shared", schema, columns, classes, None).expect("a valid dataset")
}

/// The training, validation and test rows of fold `fold` of `folds` (every `folds`-th row
/// tests, the next one validates).
fn fold_rows(rows: usize, folds: usize, fold: usize) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let test: Vec<usize> = (0..rows).filter(|row| row % folds == fold).collect();
    let validation: Vec<usize> = (0..rows)
        .filter(|row| row % folds == (fold + 1) % folds)
        .collect();
    let train: Vec<usize> = (0..rows)
        .filter(|row| !test.contains(row) && !validation.contains(row))
        .collect();
    (train, validation, test)
}

fn learner(k: usize, select_k: bool, weighting: Weighting, search: SearchMethod) -> KnnLearner {
    KnnLearner::new(KnnConfig {
        k,
        candidates: vec![1, 3, 5, 7, 11, 21],
        select_k,
        weighting,
        validation_fraction: 0.25,
        search,
        weka_smoothing: false,
    })
}

/// Fits `learner` on `train` with and without the lists and asserts equal predictions.
fn assert_same(
    learner: &KnnLearner,
    data: &Dataset,
    (train, validation, test): (&[usize], Option<&[usize]>, &[usize]),
    shared: &learners::SharedState,
) {
    let train_view = data.subset(train.to_vec());
    let validation_view = validation.map(|rows| data.subset(rows.to_vec()));
    let features = data::Features::of(data, test.to_vec());
    let alone = learner
        .fit_with_validation(&train_view, validation_view.as_ref(), 7)
        .unwrap()
        .predict_proba(&features)
        .unwrap();
    let with_lists = learner
        .fit_shared(&train_view, validation_view.as_ref(), 7, shared)
        .unwrap()
        .predict_proba(&features)
        .unwrap();
    assert_eq!(alone, with_lists, "{}", learner.describe());
}

#[test]
fn every_model_predicts_with_the_lists_what_it_predicts_alone() {
    for (seed, rows, continuous) in [(1, 400, 3), (2, 700, 12), (3, 300, 60)] {
        let data = dataset(seed, rows, continuous);
        let hint = ShareHint {
            units: 10,
            predicted_rows: rows * 10,
        };
        let shared = learner(5, false, Weighting::Uniform, SearchMethod::Auto)
            .build_shared(&data, hint, usize::MAX)
            .expect("lists for an all-numeric complete dataset");
        for fold in 0..5 {
            let (train, validation, test) = fold_rows(rows, 5, fold);
            for search in [
                SearchMethod::Auto,
                SearchMethod::Linear,
                SearchMethod::KdTree,
            ] {
                for weighting in [Weighting::Uniform, Weighting::InverseDistance] {
                    for k in [1, 5, 21, 40] {
                        let fixed = learner(k, false, weighting, search);
                        assert_same(&fixed, &data, (&train, None, &test), &shared);
                    }
                    let select = learner(5, true, weighting, search);
                    let parts = (&train[..], Some(&validation[..]), &test[..]);
                    assert_same(&select, &data, parts, &shared);
                    assert_same(&select, &data, (&train, None, &test), &shared);
                }
            }
        }
        // A training subset on which the grid attribute is constant: its scaling does not
        // widen that attribute, the lists do not serve it, and the model searches alone.
        let grid = continuous;
        let constant: Vec<usize> = (0..rows)
            .filter(|&row| data.value(row, grid) == 1.0)
            .collect();
        let others: Vec<usize> = (0..rows).filter(|row| !constant.contains(row)).collect();
        let fixed = learner(3, false, Weighting::Uniform, SearchMethod::Auto);
        assert_same(&fixed, &data, (&constant, None, &others), &shared);
    }
}

#[test]
fn no_lists_for_nominal_or_missing_data_or_when_they_would_not_pay() {
    let data = dataset(4, 200, 3);
    let knn = learner(5, false, Weighting::Uniform, SearchMethod::Auto);
    let few = ShareHint {
        units: 1,
        predicted_rows: 20,
    };
    assert!(knn.build_shared(&data, few, usize::MAX).is_none());
    let many = ShareHint {
        units: 30,
        predicted_rows: 6000,
    };
    assert!(knn.build_shared(&data, many, 1000).is_none(), "over budget");
    assert!(knn.build_shared(&data, many, usize::MAX).is_some());
}

//! The neighbour lists a dataset's k-NN units share change nothing: for many training subsets
//! of a dataset (folds, and a subset on which an attribute is constant), every k, both
//! weightings, k chosen on a validation set or on an inner split, and every search method, a
//! model fitted with the lists predicts exactly (to the bit) what the model fitted alone
//! predicts, which `knn_search.rs` checks against brute force.
//!
//! The data: continuous random values (so that sums of squares round), a coarse grid column
//! (so that many rows tie), and duplicated rows; then the same with nominal attributes, and with
//! missing values (numeric and nominal) beside them.

use data::{Attribute, Dataset, Schema};
use learners::knn::{KnnConfig, KnnLearner, NeighbourLists, SearchMethod, Weighting};
use learners::{Learner, Model, ShareHint};
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

/// [`dataset`] with `nominal` nominal attributes of three values (drawn, some rows copying the
/// row before), and with a share `missing` of the values (numeric and nominal, not the first
/// two attributes, which make the class) missing.
fn mixed_dataset(seed: u64, rows: usize, nominal: usize, missing: f64) -> Dataset {
    let numeric = dataset(seed, rows, 4);
    let mut generator = ChaCha8Rng::seed_from_u64(seed + 100);
    let mut columns: Vec<Vec<f64>> = (0..5).map(|a| numeric.column(a).to_vec()).collect();
    let mut attributes: Vec<Attribute> = numeric.schema().attributes.clone();
    for number in 0..nominal {
        let mut column: Vec<f64> = Vec::with_capacity(rows);
        for row in 0..rows {
            let value = if row % 10 == 9 {
                column[row - 1]
            } else {
                generator.random_range(0..3) as f64
            };
            column.push(value);
        }
        columns.push(column);
        let values = ["x", "y", "z"].map(String::from).to_vec();
        attributes.push(Attribute::nominal(format!("n{number}"), values));
    }
    for column in columns.iter_mut().skip(2) {
        for value in column.iter_mut() {
            if generator.random_range(0.0..1.0) < missing {
                *value = f64::NAN;
            }
        }
    }
    let classes = (0..rows).map(|row| numeric.class(row) as u32).collect();
    let schema = Schema {
        attributes,
        class_name: "class".into(),
        class_values: vec!["no".into(), "yes".into()],
    };
    Dataset::new("mixed", schema, columns, classes, None).expect("a valid dataset")
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

/// The dataset's lists (which must be built).
fn lists_of(data: &Dataset) -> learners::SharedState {
    let hint = ShareHint {
        units: 10,
        predicted_rows: data.len() * 10,
    };
    learner(5, false, Weighting::Uniform, SearchMethod::Auto)
        .build_shared(data, hint, usize::MAX)
        .expect("lists for the dataset")
}

/// Every fold of five, search method, weighting, k and way of choosing k: the same predictions
/// with the lists as alone.
fn assert_same_on_folds(data: &Dataset, shared: &learners::SharedState) {
    for fold in 0..5 {
        let (train, validation, test) = fold_rows(data.len(), 5, fold);
        for search in [
            SearchMethod::Auto,
            SearchMethod::Linear,
            SearchMethod::KdTree,
        ] {
            for weighting in [Weighting::Uniform, Weighting::InverseDistance] {
                for k in [1, 5, 21, 40] {
                    let fixed = learner(k, false, weighting, search);
                    assert_same(&fixed, data, (&train, None, &test), shared);
                }
                let select = learner(5, true, weighting, search);
                let parts = (&train[..], Some(&validation[..]), &test[..]);
                assert_same(&select, data, parts, shared);
                assert_same(&select, data, (&train, None, &test), shared);
            }
        }
    }
}

#[test]
fn every_model_predicts_with_the_lists_what_it_predicts_alone() {
    for (seed, rows, continuous) in [(1, 400, 3), (2, 700, 12), (3, 300, 60)] {
        let data = dataset(seed, rows, continuous);
        let shared = lists_of(&data);
        assert_same_on_folds(&data, &shared);
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

/// Nominal attributes (searched by levels where they are many), then missing values too (the
/// lists then ordered by the bounds that count a numeric value missing in one row 1/2).
#[test]
fn models_with_nominal_attributes_and_missing_values_predict_with_the_lists_as_alone() {
    for (seed, rows, nominal, missing) in [
        (5, 400, 2, 0.0),
        (6, 500, 9, 0.0),
        (7, 400, 2, 0.1),
        (8, 500, 9, 0.05),
        (9, 300, 9, 0.3),
    ] {
        let data = mixed_dataset(seed, rows, nominal, missing);
        let shared = lists_of(&data);
        assert_same_on_folds(&data, &shared);
    }
}

/// All-numeric data with missing values has no lists: its searches sum some pairs' distances
/// differently.
#[test]
fn no_lists_for_all_numeric_data_with_missing_values() {
    let complete = dataset(10, 200, 3);
    let mut columns: Vec<Vec<f64>> = (0..4).map(|a| complete.column(a).to_vec()).collect();
    columns[2][17] = f64::NAN;
    let classes = (0..200).map(|row| complete.class(row) as u32).collect();
    let data = Dataset::new("holes", complete.schema().clone(), columns, classes, None).unwrap();
    let hint = ShareHint {
        units: 30,
        predicted_rows: 6000,
    };
    let knn = learner(5, false, Weighting::Uniform, SearchMethod::Auto);
    assert!(knn.build_shared(&data, hint, usize::MAX).is_none());
}

#[test]
fn no_lists_when_they_would_not_pay() {
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

/// The dataset's lists as the k-NN learner reads them.
fn lists_in(state: &learners::SharedState) -> std::sync::Arc<NeighbourLists> {
    std::sync::Arc::clone(&state.state)
        .downcast::<NeighbourLists>()
        .expect("k-NN's lists")
}

/// Fits the candidates `ks` on `train` in turn, each as its own unit (as tuning's inner units
/// are), with `state` and alone, and asserts that each predicts `queries` with the same voting
/// neighbours at the same squared distances (to the bit) and the same probabilities.
fn assert_candidates_as_alone(
    data: &Dataset,
    (train, queries): (&[usize], &[usize]),
    ks: &[usize],
    (search, state): (SearchMethod, &learners::SharedState),
) {
    let lists = lists_in(state);
    let view = data.subset(train.to_vec());
    let features = data::Features::of(data, queries.to_vec());
    let bits = |voters: Vec<Vec<(usize, f64)>>| -> Vec<Vec<(usize, u64)>> {
        let bits = |list: Vec<(usize, f64)>| list.into_iter().map(|(s, d)| (s, d.to_bits()));
        voters
            .into_iter()
            .map(|list| bits(list).collect())
            .collect()
    };
    for &k in ks {
        let knn = learner(k, false, Weighting::InverseDistance, search);
        let alone = knn.fit_knn(&view, None, 7).unwrap();
        let shared = knn.fit_knn_sharing(&view, None, 7, Some(&lists)).unwrap();
        assert_eq!(
            bits(alone.voters(&features)),
            bits(shared.voters(&features)),
            "k = {k}"
        );
        let (alone, shared) = (
            alone.predict_proba(&features),
            shared.predict_proba(&features),
        );
        assert_eq!(alone.unwrap(), shared.unwrap(), "k = {k}");
    }
}

/// The candidates of a tuning's inner fold, each its own unit: the second to ask for a
/// (training rows, query rows) pair walks for k = 21 and the lists remember it, the later ones
/// take their k from it, and all share one fitted search; in any order, with lists fresh or
/// remembering other folds, each votes with what it finds alone.
#[test]
fn the_candidates_of_an_inner_fold_vote_with_the_lists_memory_as_alone() {
    let orders: [&[usize]; 3] = [
        &[1, 3, 5, 7, 11, 21],
        &[21, 11, 7, 5, 3, 1],
        &[5, 1, 21, 3, 11, 7],
    ];
    let datasets = [
        dataset(21, 600, 4),
        dataset(22, 400, 60),
        mixed_dataset(23, 500, 9, 0.0),
        mixed_dataset(24, 400, 2, 0.1),
    ];
    for data in &datasets {
        let kept = lists_of(data);
        for fold in 0..2 {
            let (train, queries, _) = fold_rows(data.len(), 3, fold);
            for order in orders {
                for search in [SearchMethod::Auto, SearchMethod::Linear] {
                    let rows = (&train[..], &queries[..]);
                    assert_candidates_as_alone(data, rows, order, (search, &kept));
                    assert_candidates_as_alone(data, rows, order, (search, &lists_of(data)));
                }
            }
        }
        assert!(
            lists_in(&kept).remembered() > 0,
            "the lists remembered walks and searches"
        );
    }
}

/// A budget with room for the lists but not for their reserve: lists that remember nothing,
/// and units that compute alone, with the same outputs.
#[test]
fn lists_without_room_for_their_reserve_remember_nothing_and_change_nothing() {
    let data = dataset(25, 600, 4);
    let hint = ShareHint {
        units: 36,
        predicted_rows: 36 * 200,
    };
    let knn = learner(5, false, Weighting::Uniform, SearchMethod::Auto);
    let ample = knn.build_shared(&data, hint, usize::MAX).expect("lists");
    let tight = knn
        .build_shared(&data, hint, ample.bytes - 1)
        .expect("the lists alone fit");
    assert!(tight.bytes < ample.bytes, "no reserve counted");
    let (train, queries, _) = fold_rows(data.len(), 3, 0);
    let rows = (&train[..], &queries[..]);
    for state in [&tight, &ample] {
        assert_candidates_as_alone(
            &data,
            rows,
            &[1, 3, 5, 7, 11, 21],
            (SearchMethod::Auto, state),
        );
    }
    assert_eq!(lists_in(&tight).remembered(), 0);
    assert!(lists_in(&ample).remembered() > 0);
    assert!(lists_in(&ample).remembered() <= ample.bytes - tight.bytes);
}

//! k-NN behaviour on small hand-worked examples: k selection, instance weights, parameters,
//! and the k-d tree returning exactly the linear scan's neighbours.

use data::{Attribute, Dataset, Schema};
use learners::knn::{KSelection, KnnConfig, KnnLearner, SearchMethod, Weighting};
use learners::{build_learner, Learner, Model, ParamError};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn one_dimensional(xs: &[f64], classes: &[u32], weights: Option<Vec<f64>>) -> Dataset {
    let schema = Schema {
        attributes: vec![Attribute::numeric("x")],
        class_name: "class".into(),
        class_values: vec!["A".into(), "B".into()],
    };
    Dataset::new("line", schema, vec![xs.to_vec()], classes.to_vec(), weights).unwrap()
}

/// Training line: A at 0, 1, 2 and 6 (noise); B at 3, 4, 5 and 10. Hand-worked neighbours of
/// validation x = 6.2 (B, weight 3): 6A (0.2), 5B (1.2), 4B (2.2), 3B (3.2), 10B (3.8), so
/// k = 1 says A, k = 3 and 5 say B. Of x = 0.4 (A, weight 1): 0A, 1A, 2A, 3B, 4B: A for all k.
/// Weighted errors: k=1: 3/4, k=3: 0, k=5: 0; the smaller k wins the tie.
#[test]
fn k_is_chosen_by_weighted_error_on_the_protocol_validation_set() {
    let train = one_dimensional(
        &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 10.0],
        &[0, 0, 0, 1, 1, 1, 0, 1],
        None,
    );
    let validation = one_dimensional(&[6.2, 0.4], &[1, 0], Some(vec![3.0, 1.0]));
    let learner = KnnLearner::new(KnnConfig {
        candidates: vec![5, 1, 3],
        ..KnnConfig::default()
    });
    let model = learner
        .fit_knn(&train.view(), Some(&validation.view()), 7)
        .unwrap();
    assert_eq!(model.k(), 3);
    assert_eq!(
        model.selection(),
        &KSelection::ProtocolValidation {
            rows: 2,
            errors: vec![0.75, 0.0, 0.0]
        }
    );
    let explanation = model.explain(train.schema());
    assert!(explanation.contains("k = 3"), "{explanation}");
    assert!(
        explanation.contains("protocol's validation set"),
        "{explanation}"
    );
    // With k = 3 the row x = 6.2 gets votes A, B, B.
    let probabilities = model
        .predict_proba(&validation.view().features())
        .expect("prediction");
    assert_eq!(probabilities.row(0), &[1.0 / 3.0, 2.0 / 3.0]);
}

/// Without a validation set, 25% of each class is held out (round(4 * 0.25) = 1 per class).
#[test]
fn without_validation_set_an_inner_stratified_split_is_used_and_reported() {
    let train = one_dimensional(
        &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 10.0],
        &[0, 0, 0, 1, 1, 1, 0, 1],
        None,
    );
    let learner = KnnLearner::new(KnnConfig {
        candidates: vec![1, 3],
        ..KnnConfig::default()
    });
    let model = learner.fit_knn(&train.view(), None, 11).unwrap();
    match model.selection() {
        KSelection::InnerSplit { rows, errors } => {
            assert_eq!(*rows, 2);
            assert_eq!(errors.len(), 2);
        }
        other => panic!("expected an inner split, got {other:?}"),
    }
    assert!(model
        .explain(train.schema())
        .contains("inner stratified split"));
    // Same seed, same choice.
    let again = learner.fit_knn(&train.view(), None, 11).unwrap();
    assert_eq!(again.selection(), model.selection());
}

/// Votes are instance weights: neighbours of x = 0.1 with k = 3 are 0 (A, weight 2), 1 (B,
/// weight 1) and 2 (B, weight 1), so A gets 2/4. A zero-weight row is as if absent.
#[test]
fn instance_weights_are_votes_and_zero_weight_rows_are_ignored() {
    let train = one_dimensional(
        &[0.05, 0.0, 1.0, 2.0, 9.0],
        &[1, 0, 1, 1, 0],
        Some(vec![0.0, 2.0, 1.0, 1.0, 1.0]),
    );
    let test = one_dimensional(&[0.1], &[0], None);
    let learner = KnnLearner::new(KnnConfig {
        k: 3,
        select_k: false,
        ..KnnConfig::default()
    });
    let model = learner.fit(&train.view(), 0).unwrap();
    let probabilities = model
        .predict_proba(&test.view().features())
        .expect("prediction");
    assert_eq!(probabilities.row(0), &[0.5, 0.5]);
}

/// Inverse-distance votes: x = 2.5 on training 0 (A), 2 (B), 10 (B) with k = 2; the range is
/// 10, one attribute, so d = 0.05 for x = 2 and 0.25 for x = 0: weights 1/0.051 and 1/0.251.
#[test]
fn inverse_distance_weights_follow_weka() {
    let train = one_dimensional(&[0.0, 2.0, 10.0], &[0, 1, 1], None);
    let test = one_dimensional(&[2.5], &[0], None);
    let learner = KnnLearner::new(KnnConfig {
        k: 2,
        select_k: false,
        weighting: Weighting::InverseDistance,
        ..KnnConfig::default()
    });
    let model = learner.fit(&train.view(), 0).unwrap();
    let p = model
        .predict_proba(&test.view().features())
        .expect("prediction");
    let (a, b) = (1.0 / 0.251, 1.0 / 0.051);
    assert!((p.row(0)[0] - a / (a + b)).abs() < 1e-12);
    assert!((p.row(0)[1] - b / (a + b)).abs() < 1e-12);
}

/// Points on a coarse grid (many exact ties): the k-d tree must return the linear scan's
/// neighbours, in the same order.
#[test]
fn kd_tree_returns_exactly_the_linear_scan_neighbours() {
    let mut generator = ChaCha8Rng::seed_from_u64(5);
    let n = 1500;
    let columns: Vec<Vec<f64>> = (0..3)
        .map(|_| {
            (0..n)
                .map(|_| generator.random_range(0..6) as f64)
                .collect()
        })
        .collect();
    let classes: Vec<u32> = (0..n)
        .map(|_| generator.random_range(0..3) as u32)
        .collect();
    let schema = Schema {
        attributes: vec![
            Attribute::numeric("a"),
            Attribute::numeric("b"),
            Attribute::numeric("c"),
        ],
        class_name: "class".into(),
        class_values: vec!["x".into(), "y".into(), "z".into()],
    };
    let dataset = Dataset::new("grid", schema, columns, classes, None).unwrap();
    let train = dataset.subset((0..1200).collect());
    let test = dataset.subset((1200..n).collect()).features();
    let fit = |search| {
        KnnLearner::new(KnnConfig {
            select_k: false,
            search,
            ..KnnConfig::default()
        })
        .fit_knn(&train, None, 0)
        .unwrap()
    };
    let tree = fit(SearchMethod::KdTree);
    let scan = fit(SearchMethod::Linear);
    assert!(tree.uses_kd_tree());
    assert!(!scan.uses_kd_tree());
    assert_eq!(tree.neighbours(&test, 21), scan.neighbours(&test, 21));
    assert_eq!(
        tree.predict_proba(&test).expect("prediction"),
        scan.predict_proba(&test).expect("prediction")
    );
}

#[test]
fn registry_builds_knn_and_rejects_bad_parameters() {
    let table: toml::Table =
        "kind = \"knn\"\nk = 7\ncandidates = [1, 3]\nselect_k = false\nweighting = \"inverse_distance\""
            .parse()
            .unwrap();
    let learner = build_learner(&table).unwrap();
    assert_eq!(learner.name(), "knn");
    assert!(learner.describe().contains("k=7"));
    assert!(learner.describe().contains("inverse_distance"));

    let bad: toml::Table = "kind = \"knn\"\nweighting = \"gaussian\"".parse().unwrap();
    assert!(matches!(
        build_learner(&bad),
        Err(ParamError::Range { key, .. }) if key == "weighting"
    ));
    let bad: toml::Table = "kind = \"knn\"\nk = 0".parse().unwrap();
    assert!(matches!(build_learner(&bad), Err(ParamError::Range { key, .. }) if key == "k"));
    let bad: toml::Table = "kind = \"knn\"\ncandidates = []".parse().unwrap();
    assert!(matches!(
        build_learner(&bad),
        Err(ParamError::Range { key, .. }) if key == "candidates"
    ));
    let bad: toml::Table = "kind = \"knn\"\nneighbours = 3".parse().unwrap();
    assert!(matches!(
        build_learner(&bad),
        Err(ParamError::Unknown { key, .. }) if key == "neighbours"
    ));
}

#[test]
fn training_without_positive_weights_is_an_error_not_a_panic() {
    let train = one_dimensional(&[1.0, 2.0], &[0, 1], Some(vec![0.0, 0.0]));
    let learner = KnnLearner::new(KnnConfig::default());
    assert!(learner.fit(&train.view(), 0).is_err());
}

/// With no attributes every row is at distance 0, so all tie with the 3rd nearest and all four
/// vote (as in Weka IBk): A, B, B, A.
#[test]
fn data_without_attributes_lets_every_row_vote() {
    let schema = Schema {
        attributes: vec![],
        class_name: "class".into(),
        class_values: vec!["A".into(), "B".into()],
    };
    let train = Dataset::new("empty", schema, vec![], vec![0, 1, 1, 0], None).unwrap();
    let learner = KnnLearner::new(KnnConfig {
        k: 3,
        select_k: false,
        ..KnnConfig::default()
    });
    let model = learner.fit(&train.view(), 0).unwrap();
    let p = model
        .predict_proba(&train.view().features())
        .expect("prediction");
    for row in 0..4 {
        assert_eq!(p.row(row), &[0.5, 0.5]);
    }
}

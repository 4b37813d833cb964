//! Bagging: configuration, reproducibility, averaged probabilities, and accuracy close to Weka
//! 3.6.14's `Bagging -I 10 -W J48` on the same split (see `tests/data/README.md`).

mod common;

use common::arff::parse_arff;
use data::Dataset;
use learners::{build_learner, Learner};

fn load(file: &str) -> Dataset {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    parse_arff(file, &std::fs::read_to_string(path).unwrap())
}

fn learner(config: &str) -> Box<dyn Learner> {
    build_learner(&config.parse::<toml::Table>().unwrap()).unwrap()
}

#[test]
fn config_builds_bagging_of_c45_and_rejects_bad_parameters() {
    let bagging = learner(
        "kind = \"bagging\"\niterations = 5\nbag_size_percent = 50\nbase = { kind = \"c45\", pruned = false }",
    );
    assert_eq!(
        bagging.describe(),
        "bagging(iterations=5,bag_size_percent=50,base=c45(confidence=0.25,min_leaf=2,laplace=false,pruned=false,subtree_raising=true))"
    );
    let default = learner("kind = \"bagging\"");
    assert!(default
        .describe()
        .starts_with("bagging(iterations=10,bag_size_percent=100,base=c45("));
    for bad in [
        "kind = \"bagging\"\niterations = 0",
        "kind = \"bagging\"\nbag_size_percent = 0",
        "kind = \"bagging\"\nrounds = 3",
        "kind = \"bagging\"\nbase = { kind = \"c45\", confidence = 2.0 }",
        "kind = \"bagging\"\nbase = { kind = \"no-such-learner\" }",
        "kind = \"bagging\"\nbase = \"c45\"",
    ] {
        let table: toml::Table = bad.parse().unwrap();
        assert!(build_learner(&table).is_err(), "{bad}");
    }
}

#[test]
fn same_seed_same_model_and_rows_sum_to_one() {
    let train = load("labor-train.arff");
    let test = load("labor-test.arff");
    let bagging = learner("kind = \"bagging\"\niterations = 7");
    let features = test.view().features();
    let first = bagging
        .fit(&train.view(), 11)
        .unwrap()
        .predict_proba(&features)
        .expect("prediction");
    let again = bagging
        .fit(&train.view(), 11)
        .unwrap()
        .predict_proba(&features)
        .expect("prediction");
    let other = bagging
        .fit(&train.view(), 12)
        .unwrap()
        .predict_proba(&features)
        .expect("prediction");
    assert_eq!(first, again);
    assert_ne!(first, other);
    for row in 0..first.len() {
        let sum: f64 = first.row(row).iter().sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }
}

#[test]
fn weighted_training_rows_are_sampled_by_weight() {
    // With all weight on one class, every bootstrap sample holds only that class.
    let train = load("labor-train.arff");
    let weights: Vec<f64> = (0..train.len())
        .map(|row| if train.class(row) == 1 { 1.0 } else { 0.0 })
        .collect();
    let view = train.view().with_weights(weights);
    let test = load("labor-test.arff");
    let model = learner("kind = \"bagging\"\niterations = 3")
        .fit(&view, 5)
        .unwrap();
    let probabilities = model
        .predict_proba(&test.view().features())
        .expect("prediction");
    for row in 0..probabilities.len() {
        assert_eq!(probabilities.row(row), &[0.0, 1.0]);
    }
}

#[test]
fn accuracy_on_vote_is_close_to_weka_bagging() {
    // Weka: 141, 141 and 140 of 145 correct for seeds 1..3; allow four rows either way.
    let train = load("vote-train.arff");
    let test = load("vote-test.arff");
    let bagging = learner("kind = \"bagging\"\niterations = 10");
    for seed in 1..=3 {
        let model = bagging.fit(&train.view(), seed).unwrap();
        let predicted = model
            .predict_proba(&test.view().features())
            .expect("prediction")
            .predicted_classes();
        let correct = (0..test.len())
            .filter(|&row| predicted[row] == test.class(row))
            .count();
        assert!(
            (136..=145).contains(&correct),
            "seed {seed}: {correct} of 145"
        );
    }
}

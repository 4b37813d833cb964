//! k-NN when training rows tie with the k-th nearest distance: as in Weka 3.6 IBk, every tied row
//! votes (the neighbour list grows past k), for prediction and for each candidate k in k
//! selection.
//!
//! The hand-made data is `tests/data/knn_ties/{train,test}.arff` (two nominal attributes a, b
//! with values x, y and one numeric c; class pos/neg). The expected distributions were made with
//! Weka 3.6.14 (Debian package `weka`) through the project's runner:
//!
//! ```text
//! javac -cp /usr/share/java/weka.jar -d cls scripts/weka/WekaRunner.java
//! java -cp /usr/share/java/weka.jar:cls WekaRunner weka.classifiers.lazy.IBk "-K 3" \
//!     train.arff test.arff k3.csv
//! java -cp /usr/share/java/weka.jar:cls WekaRunner weka.classifiers.lazy.IBk "-K 3 -I" \
//!     train.arff test.arff k3i.csv
//! ```
//!
//! Hand-worked squared distances (c is scaled by its training range 1): test row 0 (x,x,0) has
//! train row 0 at 0 and seven rows (1, 2, 3, 4, 6, 7, 9) at 1, so with k = 3 all eight vote;
//! test row 1 (y,y,0) likewise has row 8 at 0 and seven rows at 1; test row 2 (x,y,1) has five
//! rows (1, 3, 5, 6, 9) tied at 1; test row 3 (y,x,0.5) has exactly three rows (2, 4, 7) at 0.25.
//! IBk adds 1/n to each class count before normalising (we do not), so the checks undo that.

use data::{Attribute, Dataset, Schema};
use learners::knn::{KSelection, KnnConfig, KnnLearner, SearchMethod, Weighting};
use learners::Model;

fn schema() -> Schema {
    let xy = || vec!["x".to_string(), "y".to_string()];
    Schema {
        attributes: vec![
            Attribute::nominal("a", xy()),
            Attribute::nominal("b", xy()),
            Attribute::numeric("c"),
        ],
        class_name: "class".into(),
        class_values: vec!["pos".into(), "neg".into()],
    }
}

/// Rows as (a, b, c, class) with x = 0, y = 1, pos = 0, neg = 1.
fn dataset(rows: &[(f64, f64, f64, u32)]) -> Dataset {
    let columns = vec![
        rows.iter().map(|r| r.0).collect(),
        rows.iter().map(|r| r.1).collect(),
        rows.iter().map(|r| r.2).collect(),
    ];
    let classes = rows.iter().map(|r| r.3).collect();
    Dataset::new("knn-ties", schema(), columns, classes, None).unwrap()
}

/// `train.arff`.
fn train() -> Dataset {
    dataset(&[
        (0.0, 0.0, 0.0, 0),
        (0.0, 1.0, 0.0, 0),
        (1.0, 0.0, 0.0, 1),
        (0.0, 1.0, 0.0, 1),
        (1.0, 0.0, 0.0, 1),
        (1.0, 1.0, 1.0, 0),
        (0.0, 1.0, 0.0, 1),
        (1.0, 0.0, 0.0, 0),
        (1.0, 1.0, 0.0, 1),
        (0.0, 0.0, 1.0, 1),
    ])
}

/// `test.arff`.
fn test() -> Dataset {
    dataset(&[
        (0.0, 0.0, 0.0, 0),
        (1.0, 1.0, 0.0, 1),
        (0.0, 1.0, 1.0, 0),
        (1.0, 0.0, 0.5, 1),
    ])
}

/// `IBk -K 3` on train.arff, test.arff.
const WEKA_K3: [[f64; 2]; 4] = [
    [0.37804878048780494, 0.6219512195121951],
    [0.37804878048780494, 0.6219512195121951],
    [0.40384615384615385, 0.5961538461538461],
    [0.34375, 0.65625],
];

/// `IBk -K 3 -I` on train.arff, test.arff.
const WEKA_K3_I: [[f64; 2]; 4] = [
    [0.9913610089197422, 0.00863899108025767],
    [0.005222908493823368, 0.9947770915061765],
    [0.40226109292860174, 0.5977389070713983],
    [0.33649096674765605, 0.6635090332523439],
];

fn fixed(k: usize, weighting: Weighting) -> KnnLearner {
    KnnLearner::new(KnnConfig {
        k,
        select_k: false,
        weighting,
        search: SearchMethod::Auto,
        ..KnnConfig::default()
    })
}

fn check_against_weka(weighting: Weighting, weka: &[[f64; 2]; 4]) {
    let train = train();
    let test = test();
    let features = test.view().features();
    let model = fixed(3, weighting).fit_knn(&train.view(), None, 0).unwrap();
    let neighbours = model.neighbours(&features, 3);
    let slots: Vec<Vec<usize>> = neighbours
        .iter()
        .map(|row| row.iter().map(|&(slot, _)| slot).collect())
        .collect();
    assert_eq!(
        slots,
        vec![
            vec![0, 1, 2, 3, 4, 6, 7, 9],
            vec![8, 1, 2, 3, 4, 5, 6, 7],
            vec![1, 3, 5, 6, 9],
            vec![2, 4, 7],
        ]
    );
    let ours = model.predict_proba(&features).expect("prediction");
    let n = train.len() as f64;
    let classes = 2.0;
    for (row, weka_row) in weka.iter().enumerate() {
        let total: f64 = neighbours[row]
            .iter()
            .map(|&(_, squared)| match weighting {
                Weighting::Uniform => 1.0,
                Weighting::InverseDistance => 1.0 / ((squared / 3.0).sqrt() + 0.001),
            })
            .sum();
        for (class, &expected) in weka_row.iter().enumerate() {
            // IBk: (votes + 1/n) / (total + classes/n).
            let with_correction = (ours.row(row)[class] * total + 1.0 / n) / (total + classes / n);
            assert!(
                (with_correction - expected).abs() <= 1e-12,
                "row {row} class {class}: {with_correction} vs Weka {expected}"
            );
        }
    }
}

#[test]
fn every_row_tied_with_the_kth_distance_votes_as_in_ibk_k3() {
    check_against_weka(Weighting::Uniform, &WEKA_K3);
}

#[test]
fn every_row_tied_with_the_kth_distance_votes_as_in_ibk_k3_inverse_distance() {
    check_against_weka(Weighting::InverseDistance, &WEKA_K3_I);
}

/// k selection on the test rows as validation, candidates 1 and 3. k = 1: test row 2 gets all
/// five rows tied at 1 (2 pos, 3 neg: wrong), test row 3 the three at 0.25 (neg: right), rows 0
/// and 1 their exact match (right): error 1/4. k = 3: rows 0 and 2 wrong (3 of 8 pos; 2 of 5
/// pos): error 2/4. Taking exactly k by row order would give 0 and 0. Each candidate's error
/// equals that of a fixed-k model.
#[test]
fn k_selection_lets_ties_with_each_candidates_kth_distance_vote() {
    let train = train();
    let validation = test();
    let learner = KnnLearner::new(KnnConfig {
        candidates: vec![1, 3],
        select_k: true,
        ..KnnConfig::default()
    });
    let model = learner
        .fit_knn(&train.view(), Some(&validation.view()), 0)
        .unwrap();
    assert_eq!(
        model.selection(),
        &KSelection::ProtocolValidation {
            rows: 4,
            errors: vec![0.25, 0.5],
        }
    );
    assert_eq!(model.k(), 1);
    let features = validation.view().features();
    for (k, expected_wrong) in [(1, 1), (3, 2)] {
        let fixed = fixed(k, Weighting::Uniform)
            .fit_knn(&train.view(), None, 0)
            .unwrap();
        let p = fixed.predict_proba(&features).expect("prediction");
        let wrong = (0..validation.len())
            .filter(|&row| {
                let predicted = if p.row(row)[1] > p.row(row)[0] { 1 } else { 0 };
                predicted != validation.view().class(row)
            })
            .count();
        assert_eq!(wrong, expected_wrong, "k = {k}");
    }
}

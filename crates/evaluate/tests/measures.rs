//! Weighted confusion measures, weighted ROC/AUC, vertical averaging and the cost-minimising
//! threshold against scikit-learn / statsmodels / independent Python (tests/data/extra_reference.py),
//! plus hand-computed examples for costs, iso-cost lines and the multi-classifier hull table.

mod common;

use common::{assert_all_close, assert_close, cases, float, floats, ints};
use evaluate::{
    auc, classifiers_hull, cost_at_threshold, expected_cost, iso_cost_line, iso_performance_slope,
    min_cost_threshold, pooled_roc_curve, roc_curve, threshold_average, vertical_average,
    BinaryScores, ConfusionMatrix, CostMatrix, Decision, EvaluateError, IntervalMethod,
    Predictions,
};
use serde_json::Value;

fn extra() -> Value {
    let path = format!(
        "{}/tests/data/extra_reference.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn binary(case: &Value) -> BinaryScores {
    BinaryScores::from_01(&ints(&case["y_true"]), &floats(&case["y_score"])).unwrap()
}

#[test]
fn weighted_binary_measures_match_sklearn() {
    for case in extra()["weighted_binary"].as_array().unwrap() {
        let data = binary(case).with_weights(floats(&case["weights"])).unwrap();
        let matrix = ConfusionMatrix::from_threshold(&data, 0.5);
        let expected: Vec<Vec<f64>> = case["confusion_at_0.5"]
            .as_array()
            .unwrap()
            .iter()
            .map(floats)
            .collect();
        for (a, row) in expected.iter().enumerate() {
            for (p, &value) in row.iter().enumerate() {
                assert_close(matrix.count(a, p), value, "confusion");
            }
        }
        let counts = matrix.binary_counts(1).unwrap();
        assert_close(counts.precision(), float(&case["precision"]), "precision");
        assert_close(counts.recall(), float(&case["recall"]), "recall");
        assert_close(counts.f1(), float(&case["f1"]), "f1");
        assert_close(counts.accuracy(), float(&case["accuracy"]), "accuracy");
        assert_close(matrix.accuracy(), float(&case["accuracy"]), "accuracy");
        assert_close(auc(&data).unwrap(), float(&case["auc"]), "weighted auc");
        let curve = roc_curve(&data).unwrap();
        assert_close(curve.area(), float(&case["auc"]), "weighted trapezoid");
        let fpr: Vec<f64> = curve.points().iter().map(|p| p.fpr).collect();
        let tpr: Vec<f64> = curve.points().iter().map(|p| p.tpr).collect();
        assert_all_close(&fpr, &floats(&case["roc_fpr"]), "weighted fpr");
        assert_all_close(&tpr, &floats(&case["roc_tpr"]), "weighted tpr");
    }
}

#[test]
fn multiclass_confusion_matches_sklearn() {
    for case in extra()["multiclass_confusion"].as_array().unwrap() {
        let truth: Vec<usize> = ints(&case["y_true"]).iter().map(|&c| c as usize).collect();
        let rows: Vec<Vec<f64>> = case["y_score"]
            .as_array()
            .unwrap()
            .iter()
            .map(floats)
            .collect();
        let predictions = Predictions::new(3, truth, &rows)
            .unwrap()
            .with_weights(floats(&case["weights"]))
            .unwrap();
        let matrix = ConfusionMatrix::from_predictions(&predictions);
        let expected: Vec<Vec<f64>> = case["confusion"]
            .as_array()
            .unwrap()
            .iter()
            .map(floats)
            .collect();
        for (a, row) in expected.iter().enumerate() {
            for (p, &value) in row.iter().enumerate() {
                assert_close(matrix.count(a, p), value, "confusion");
            }
        }
        assert_close(matrix.accuracy(), float(&case["accuracy"]), "accuracy");
        let f1 = floats(&case["macro_f1_per_class"]);
        for (class, &expected_f1) in f1.iter().enumerate() {
            assert_close(
                matrix.binary_counts(class).unwrap().f1(),
                expected_f1,
                "per-class f1",
            );
        }
    }
}

#[test]
fn vertical_average_matches_independent_python() {
    let case = &extra()["vertical_average"][0];
    let curves: Vec<_> = case["folds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|fold| roc_curve(&binary(fold)).unwrap())
        .collect();
    let samples =
        vertical_average(&curves, 100, IntervalMethod::Wilson, float(&case["alpha"])).unwrap();
    let expected = case["samples"].as_array().unwrap();
    assert_eq!(samples.len(), expected.len());
    for (got, want) in samples.iter().zip(expected) {
        assert_close(got.fpr, float(&want["fpr"]), "fpr");
        assert_close(got.mean_tpr, float(&want["mean_tpr"]), "mean tpr");
        assert!(
            (got.sd_tpr - float(&want["sd_tpr"])).abs() < 1e-12,
            "sd tpr"
        );
        assert!(
            (got.low - float(&want["wilson_low"])).abs() < 1e-12,
            "wilson low"
        );
        assert!(
            (got.high - float(&want["wilson_high"])).abs() < 1e-12,
            "wilson high"
        );
    }
}

#[test]
fn threshold_average_and_pooled_curve_on_identical_folds_equal_the_fold_curve() {
    // averaging k copies of one curve must give back that curve (Fawcett 2006)
    let fold = BinaryScores::from_01(
        &[1, 0, 1, 1, 0, 0, 1, 0],
        &[0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.53, 0.1],
    )
    .unwrap();
    let curve = roc_curve(&fold).unwrap();
    let curves = vec![curve.clone(), curve.clone(), curve.clone()];
    let averaged = threshold_average(&curves, 9).unwrap();
    for sample in &averaged {
        let p = curve.points()[curve.operating_point(sample.threshold)];
        assert_eq!((sample.mean_fpr, sample.mean_tpr), (p.fpr, p.tpr));
        assert_eq!((sample.sd_fpr, sample.sd_tpr), (0.0, 0.0));
    }
    assert_eq!((averaged[0].mean_fpr, averaged[0].mean_tpr), (0.0, 0.0));
    assert_eq!((averaged[8].mean_fpr, averaged[8].mean_tpr), (1.0, 1.0));
    let pooled = pooled_roc_curve(&[fold.clone(), fold.clone()]).unwrap();
    assert_eq!(pooled.fpr_tpr(), curve.fpr_tpr());
    assert!(vertical_average(&[], 100, IntervalMethod::Normal, 0.05).is_err());
    assert!(vertical_average(&curves, 1, IntervalMethod::Normal, 0.05).is_err());
}

#[test]
fn min_cost_threshold_matches_brute_force() {
    for case in extra()["min_cost_threshold"].as_array().unwrap() {
        let data = binary(case);
        let (cost_fp, cost_fn) = (float(&case["cost_fp"]), float(&case["cost_fn"]));
        let chosen = min_cost_threshold(&data, cost_fp, cost_fn).unwrap();
        assert_eq!(chosen.roc_threshold, float(&case["roc_threshold"]));
        assert_close(
            chosen.cost_per_instance,
            float(&case["cost_per_instance"]),
            "cost",
        );
        // the midpoint threshold applied to the same scores gives the same cost
        assert_close(
            cost_at_threshold(&data, chosen.threshold, cost_fp, cost_fn).unwrap(),
            float(&case["cost_per_instance"]),
            "cost at midpoint",
        );
    }
}

#[test]
fn expected_cost_hand_example() {
    // truth 0,1,1,0; argmax predictions 0,0,1,1; cost(1->0) = 5, cost(0->1) = 1
    let predictions = Predictions::new(
        2,
        vec![0, 1, 1, 0],
        &[
            vec![0.9, 0.1],
            vec![0.7, 0.3],
            vec![0.2, 0.8],
            vec![0.4, 0.6],
        ],
    )
    .unwrap();
    let costs = CostMatrix::new(&[vec![0.0, 1.0], vec![5.0, 0.0]]).unwrap();
    // argmax: one false negative (5) and one false positive (1) over 4 instances
    assert_eq!(
        expected_cost(&predictions, &costs, Decision::Argmax).unwrap(),
        1.5
    );
    // Bayes: predict 1 when 5 p1 > p0, i.e. p1 > 1/6: instances 2, 3, 4 -> costs 0, 0, 0, 1 (+ instance 1: p1 = 0.1 -> 0)
    assert_eq!(
        expected_cost(&predictions, &costs, Decision::MinimumExpectedCost).unwrap(),
        0.25
    );
    assert!(expected_cost(
        &predictions,
        &CostMatrix::binary(1.0, 1.0).unwrap(),
        Decision::Argmax
    )
    .is_ok());
    assert!(CostMatrix::new(&[vec![0.0, -1.0], vec![1.0, 0.0]]).is_err());
}

#[test]
fn iso_cost_line_hand_example() {
    // c(FP) = 1, c(FN) = 2, P(pos) = 0.25: m = 1 * 0.75 / (2 * 0.25) = 1.5
    let line = iso_cost_line(0.2, 0.7, 1.0, 2.0, 0.25).unwrap();
    assert_close(line.slope, 1.5, "slope");
    assert_close(line.intercept, 0.4, "intercept");
    // cost = 0.25 * 2 * 0.3 + 0.75 * 1 * 0.2 = 0.3
    assert_close(line.expected_cost, 0.3, "cost");
    assert!(matches!(
        iso_performance_slope(1.0, 1.0, 1.0),
        Err(EvaluateError::BadParameter { .. })
    ));
}

#[test]
fn classifier_hull_table_hand_example() {
    // A = (0.1, 0.6), B = (0.4, 0.9), C = (0.3, 0.5) dominated; slopes 6, 1, 1/6
    let hull = classifiers_hull(&[vec![(0.1, 0.6)], vec![(0.4, 0.9)], vec![(0.3, 0.5)]]).unwrap();
    let table = hull.slope_table();
    let owners: Vec<Vec<usize>> = table.iter().map(|row| row.classifiers.clone()).collect();
    assert_eq!(owners, vec![vec![], vec![0], vec![1], vec![]]);
    assert_eq!(table[0].high, f64::INFINITY);
    assert_close(table[0].low, 6.0, "A high");
    assert_close(table[1].high, 6.0, "A high");
    assert_close(table[1].low, 1.0, "A low");
    assert_close(table[2].low, 1.0 / 6.0, "B low");
    assert_eq!(table[3].low, 0.0);
    assert_eq!(hull.dominating_classifier(), None);
    // a curve through both points dominates everywhere
    let dominated = classifiers_hull(&[vec![(0.1, 0.6), (0.4, 0.9)], vec![(0.2, 0.6)]]).unwrap();
    assert_eq!(dominated.dominating_classifier(), Some(0));
    assert_eq!(dominated.slope_table().len(), 3);
}

#[test]
fn discrete_classifier_roc_is_one_point() {
    // one-hot outputs: the ROC curve is (0,0), one operating point, (1,1)
    let data = BinaryScores::from_01(&[1, 1, 0, 0, 1], &[1.0, 0.0, 0.0, 1.0, 1.0]).unwrap();
    let curve = roc_curve(&data).unwrap();
    let points = curve.fpr_tpr();
    assert_eq!(points, vec![(0.0, 0.0), (0.5, 2.0 / 3.0), (1.0, 1.0)]);
    assert_eq!(curve.default_point(), 1);
    // AUC of a single point = (1 + TPR - FPR) / 2
    assert_close(auc(&data).unwrap(), (1.0 + 2.0 / 3.0 - 0.5) / 2.0, "auc");
}

#[test]
fn default_point_marks_the_half_threshold() {
    let data = BinaryScores::from_01(&[1, 0, 1, 0], &[0.9, 0.6, 0.5, 0.2]).unwrap();
    let curve = roc_curve(&data).unwrap();
    let p = curve.points()[curve.default_point()];
    assert_eq!((p.threshold, p.fpr, p.tpr), (0.5, 0.5, 1.0));
    let shifted = data.with_decision_threshold(0.7).unwrap();
    let curve = roc_curve(&shifted).unwrap();
    assert_eq!(curve.points()[curve.default_point()].threshold, 0.9);
}

#[test]
fn input_errors_are_typed() {
    assert!(matches!(
        BinaryScores::from_01(&[0, 2], &[0.1, 0.2]),
        Err(EvaluateError::BadLabel { index: 1, label: 2 })
    ));
    assert!(matches!(
        BinaryScores::from_01(&[0, 1], &[0.1]),
        Err(EvaluateError::LengthMismatch { .. })
    ));
    assert!(matches!(
        BinaryScores::from_01(&[0, 1], &[0.1, f64::NAN]),
        Err(EvaluateError::NanScore { index: 1, .. })
    ));
    let data = BinaryScores::from_01(&[0, 1], &[0.1, 0.2]).unwrap();
    assert!(matches!(
        data.clone().with_weights(vec![1.0, -1.0]),
        Err(EvaluateError::BadWeight { index: 1, .. })
    ));
    assert!(matches!(
        Predictions::new(2, vec![0, 2], &[vec![0.5, 0.5], vec![0.5, 0.5]]),
        Err(EvaluateError::ClassOutOfRange { index: 1, .. })
    ));
    let absent =
        Predictions::new(3, vec![0, 1], &[vec![0.5, 0.3, 0.2], vec![0.2, 0.5, 0.3]]).unwrap();
    assert!(matches!(
        evaluate::hand_till_m(&absent),
        Err(EvaluateError::ClassAbsent { class: 2, .. })
    ));
    let empty = BinaryScores::from_01(&[], &[]).unwrap();
    assert!(matches!(
        auc(&empty),
        Err(EvaluateError::SingleClass { .. })
    ));
    assert!(evaluate::scored_auc(&empty).is_err());
    assert!(matches!(
        evaluate::roc_convex_hull(&[(0.5, 0.5), (0.2, 1.5)]),
        Err(EvaluateError::BadPoint { index: 1, .. })
    ));
    assert_eq!(cases("auc").len(), 13);
}

#[test]
fn threshold_average_matches_independent_python() {
    let data = extra();
    let folds: Vec<_> = data["vertical_average"][0]["folds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|fold| roc_curve(&binary(fold)).unwrap())
        .collect();
    let case = &data["threshold_average"][0];
    let samples = case["samples"].as_u64().unwrap() as usize;
    let got = threshold_average(&folds, samples).unwrap();
    for (row, want) in got.iter().zip(case["rows"].as_array().unwrap()) {
        assert_eq!(row.threshold, float(&want["threshold"]));
        assert!(
            (row.mean_fpr - float(&want["mean_fpr"])).abs() < 1e-12,
            "mean fpr"
        );
        assert!(
            (row.mean_tpr - float(&want["mean_tpr"])).abs() < 1e-12,
            "mean tpr"
        );
        assert!(
            (row.sd_fpr - float(&want["sd_fpr"])).abs() < 1e-12,
            "sd fpr"
        );
        assert!(
            (row.sd_tpr - float(&want["sd_tpr"])).abs() < 1e-12,
            "sd tpr"
        );
    }
    assert_eq!(got.len(), case["rows"].as_array().unwrap().len());
}

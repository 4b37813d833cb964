//! The report's fold-averaged curve figures' data (issue 29) against peers: the pooled
//! reliability bins against scikit-learn's `calibration_curve`, numpy counts and statsmodels'
//! Wilson intervals; the averaged precision-recall curve against scikit-learn's points with
//! Davis & Goadrich's interpolation; the averaged PR-Gain curve against pyprg; the averaged cost
//! envelopes (each learner's and the ROC hull's of both) against R ROCR's `ecost`. The values
//! are written by `tests/data/curve_figures.py`.

use engine::report::curve_figures::{average_cost, LearnerCurves, GRID_SAMPLES};
use evaluate::{BinaryScores, GridSample};
use serde_json::Value;

const TOLERANCE: f64 = 1e-9;

fn reference() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/curve_figures.json"
    ))
    .expect("the committed reference values");
    serde_json::from_str(&text).expect("valid JSON")
}

fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_f64().expect("a number"))
        .collect()
}

fn close(what: &str, ours: &[f64], theirs: &[f64]) {
    assert_eq!(ours.len(), theirs.len(), "{what}: lengths");
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        assert!(
            (a - b).abs() <= TOLERANCE,
            "{what}[{i}]: ours {a}, peer {b}"
        );
    }
}

fn close_samples(what: &str, ours: &[GridSample], theirs: &Value) {
    let mean: Vec<f64> = ours.iter().map(|s| s.mean).collect();
    let sd: Vec<f64> = ours.iter().map(|s| s.sd).collect();
    close(&format!("{what} mean"), &mean, &numbers(&theirs["mean"]));
    close(&format!("{what} sd"), &sd, &numbers(&theirs["sd"]));
}

fn curves(reference: &Value, model: &str) -> LearnerCurves {
    let folds = reference["folds"].as_array().expect("folds");
    let mut curves = LearnerCurves::new(folds.len(), 0.05).expect("curves");
    for (split, fold) in folds.iter().enumerate() {
        let labels = numbers(&fold["labels"]).iter().map(|&y| y == 1.0).collect();
        let scores = BinaryScores::new(labels, numbers(&fold[model])).expect("scores");
        curves.add_fold(split, &scores).expect("a fold");
    }
    curves
}

#[test]
fn the_grid_is_the_peers() {
    let reference = reference();
    let grid = numbers(&reference["grid"]);
    assert_eq!(grid.len(), GRID_SAMPLES);
    close("grid", curves(&reference, "good").precision.grid(), &grid);
}

#[test]
fn pooled_reliability_bins_equal_scikit_learn_and_statsmodels() {
    let reference = reference();
    for model in ["good", "weak"] {
        let expected = &reference["models"][model]["reliability"];
        let calibration = curves(&reference, model).calibration.calibration().unwrap();
        let counts: Vec<f64> = calibration.bins.iter().map(|b| b.count).collect();
        let positives: Vec<f64> = calibration.bins.iter().map(|b| b.positives).collect();
        close("counts", &counts, &numbers(&expected["counts"]));
        close("positives", &positives, &numbers(&expected["positives"]));
        let filled: Vec<_> = calibration.bins.iter().filter(|b| b.count > 0.0).collect();
        let pick = |f: &dyn Fn(&&evaluate::ReliabilityBin) -> f64| -> Vec<f64> {
            filled.iter().map(f).collect()
        };
        close(
            "frequency",
            &pick(&|b| b.frequency.unwrap()),
            &numbers(&expected["frequency"]),
        );
        close(
            "mean score",
            &pick(&|b| b.mean_score.unwrap()),
            &numbers(&expected["mean_score"]),
        );
        close(
            "wilson low",
            &pick(&|b| b.interval.unwrap().low),
            &numbers(&expected["wilson_low"]),
        );
        close(
            "wilson high",
            &pick(&|b| b.interval.unwrap().high),
            &numbers(&expected["wilson_high"]),
        );
    }
}

#[test]
fn averaged_precision_recall_and_pr_gain_curves_equal_the_peers() {
    let reference = reference();
    for model in ["good", "weak"] {
        let curves = curves(&reference, model);
        let expected = &reference["models"][model];
        close_samples(
            &format!("{model} precision"),
            &curves.precision.samples().unwrap(),
            &expected["precision"],
        );
        close_samples(
            &format!("{model} precision gain"),
            &curves.precision_gain.samples().unwrap(),
            &expected["precision_gain"],
        );
    }
}

#[test]
fn averaged_cost_envelopes_equal_rocr() {
    let reference = reference();
    let (good, weak) = (curves(&reference, "good"), curves(&reference, "weak"));
    for (model, curves) in [("good", &good), ("weak", &weak)] {
        let average = average_cost(&[&curves.cost]).unwrap().expect("folds");
        close_samples(
            &format!("{model} cost"),
            &average.samples().unwrap(),
            &reference["models"][model]["cost"],
        );
    }
    let hull = average_cost(&[&good.cost, &weak.cost])
        .unwrap()
        .expect("folds");
    close_samples(
        "hull cost",
        &hull.samples().unwrap(),
        &reference["hull_cost"],
    );
}

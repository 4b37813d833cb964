//! Calibration, Brier decomposition, precision-recall, PR-Gain, partial AUC, H-measure and cost
//! curves against netcal, scikit-learn, statsmodels, pyprg, hmeasure, R pROC and ROCR
//! (tests/data/issue29_reference.py wrote tests/data/issue29_reference.json).

mod common;
use common::*;
use evaluate::*;
use serde_json::Value;

fn root() -> Value {
    let path = format!(
        "{}/tests/data/issue29_reference.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn group(name: &str) -> Vec<Value> {
    root()[name].as_array().unwrap().clone()
}

fn binary(input: &Value) -> BinaryScores {
    BinaryScores::from_01(&ints(&input["labels"]), &floats(&input["scores"])).unwrap()
}

fn near(context: &str, got: f64, expected: f64, tolerance: f64) {
    assert!(
        (got - expected).abs() <= tolerance * expected.abs().max(1.0),
        "{context}: got {got:e}, expected {expected:e}"
    );
}

fn options(input: &Value, interval: BinInterval) -> CalibrationOptions {
    let binning = if input["equal_mass"].as_bool().unwrap() {
        Binning::EqualMass
    } else {
        Binning::EqualWidth
    };
    let bins = input["bins"].as_u64().unwrap() as usize;
    CalibrationOptions::new(bins, binning, interval, 0.05).unwrap()
}

#[test]
fn calibration_equals_netcal_sklearn_and_statsmodels() {
    for case in group("calibration") {
        let name = case["name"].as_str().unwrap();
        let (input, expected) = (&case["input"], &case["expected"]);
        let data = binary(input);
        for interval in [BinInterval::ClopperPearson, BinInterval::Wilson] {
            let result = calibration(&data, &options(input, interval)).unwrap();
            near(
                &format!("{name} ece"),
                result.ece,
                float(&expected["ece"]),
                1e-12,
            );
            near(
                &format!("{name} mce"),
                result.mce,
                float(&expected["mce"]),
                1e-12,
            );
            let edges = floats(&expected["edges"]);
            let key = match interval {
                BinInterval::ClopperPearson => "clopper_pearson",
                BinInterval::Wilson => "wilson",
            };
            let mut filled = Vec::new();
            for (k, bin) in result.bins.iter().enumerate() {
                let context = format!("{name} bin {k}");
                assert_close(bin.low, edges[k], &context);
                assert_close(bin.high, edges[k + 1], &context);
                assert_eq!(bin.count, float(&expected["counts"][k]), "{context} count");
                assert_eq!(bin.positives, float(&expected["positives"][k]), "{context}");
                match (&bin.interval, expected[key][k].as_array()) {
                    (Some(i), Some(limits)) => {
                        near(&context, i.low, float(&limits[0]), 1e-9);
                        near(&context, i.high, float(&limits[1]), 1e-9);
                        near(
                            &context,
                            bin.mean_score.unwrap(),
                            float(&expected["mean_score"][k]),
                            1e-12,
                        );
                        filled.push(bin);
                    }
                    (None, None) => assert_eq!(bin.count, 0.0),
                    _ => panic!("{context}: empty in one, not in the other"),
                }
            }
            if let Some(frequencies) = expected.get("sklearn_frequency") {
                let (frequencies, means) =
                    (floats(frequencies), floats(&expected["sklearn_mean_score"]));
                assert_eq!(filled.len(), frequencies.len(), "{name}: non-empty bins");
                for ((bin, f), m) in filled.iter().zip(frequencies).zip(means) {
                    near(name, bin.frequency.unwrap(), f, 1e-12);
                    near(name, bin.mean_score.unwrap(), m, 1e-12);
                }
            }
        }
    }
}

fn predictions(input: &Value) -> Predictions {
    let truth = ints(&input["truth"]).iter().map(|&c| c as usize).collect();
    let rows: Vec<Vec<f64>> = input["probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(floats)
        .collect();
    Predictions::new(rows[0].len(), truth, &rows).unwrap()
}

#[test]
fn multiclass_calibration_equals_netcal_and_brier_equals_sklearn() {
    for case in group("multiclass") {
        let name = case["name"].as_str().unwrap();
        let (input, expected) = (&case["input"], &case["expected"]);
        let p = predictions(input);
        let options = options(input, BinInterval::Wilson);
        let top = top_label_calibration(&p, &options).unwrap();
        near(name, top.ece, float(&expected["top_label"]["ece"]), 1e-12);
        near(name, top.mce, float(&expected["top_label"]["mce"]), 1e-12);
        let per_class = one_vs_rest_calibration(&p, &options).unwrap();
        for (c, result) in per_class.iter().enumerate() {
            near(
                name,
                result.ece,
                float(&expected["one_vs_rest"][c]["ece"]),
                1e-12,
            );
            near(
                name,
                result.mce,
                float(&expected["one_vs_rest"][c]["mce"]),
                1e-12,
            );
        }
        near(
            name,
            multiclass_brier_score(&p).unwrap(),
            float(&expected["brier"]),
            1e-12,
        );
    }
}

#[test]
fn brier_decomposition_terms_and_identity() {
    for case in group("brier") {
        let name = case["name"].as_str().unwrap();
        let (input, expected) = (&case["input"], &case["expected"]);
        let binning = if input["equal_mass"].as_bool().unwrap() {
            Binning::EqualMass
        } else {
            Binning::EqualWidth
        };
        let bins = input["bins"].as_u64().unwrap() as usize;
        let d = brier_decomposition(&binary(input), bins, binning).unwrap();
        for (key, got) in [
            ("brier", d.brier),
            ("reliability", d.reliability),
            ("resolution", d.resolution),
            ("uncertainty", d.uncertainty),
            ("within_bin_variance", d.within_bin_variance),
            ("within_bin_covariance", d.within_bin_covariance),
        ] {
            near(&format!("{name} {key}"), got, float(&expected[key]), 1e-12);
        }
        let sum = d.reliability - d.resolution + d.uncertainty + d.within_bin_variance
            - d.within_bin_covariance;
        near(&format!("{name} identity"), sum, d.brier, 1e-13);
        near(
            &format!("{name} binned"),
            d.binned_brier,
            d.reliability - d.resolution + d.uncertainty,
            1e-15,
        );
    }
}

#[test]
fn precision_recall_average_precision_and_interpolated_area() {
    for case in group("precision_recall") {
        let name = case["name"].as_str().unwrap();
        let (input, expected) = (&case["input"], &case["expected"]);
        let data = binary(input);
        let curve = precision_recall_curve(&data).unwrap();
        let thresholds = floats(&expected["sklearn_thresholds"]);
        assert_eq!(curve.points().len(), thresholds.len(), "{name}: points");
        let (precision, recall) = (
            floats(&expected["sklearn_precision"]),
            floats(&expected["sklearn_recall"]),
        );
        for (i, point) in curve.points().iter().rev().enumerate() {
            assert_close(point.threshold, thresholds[i], name);
            assert_close(point.precision, precision[i], name);
            assert_close(point.recall, recall[i], name);
        }
        assert_close(
            average_precision(&data).unwrap(),
            float(&expected["average_precision"]),
            name,
        );
        near(
            &format!("{name} D&G area"),
            curve.interpolated_area(),
            float(&expected["interpolated_area"]),
            1e-9,
        );
        let prg = pr_gain_curve(&data).unwrap();
        near(
            &format!("{name} AUPRG"),
            prg.area,
            float(&expected["auprg"]),
            1e-12,
        );
        let (gains_r, gains_p) = (
            floats(&expected["prg_recall_gain"]),
            floats(&expected["prg_precision_gain"]),
        );
        for point in &prg.points {
            let found = gains_r.iter().zip(&gains_p).any(|(r, p)| {
                (r - point.recall_gain).abs() <= 1e-12 && (p - point.precision_gain).abs() <= 1e-12
            });
            assert!(found, "{name}: PRG point {point:?} not in pyprg's curve");
        }
    }
}

/// Davis & Goadrich (2006), Section 4, Table 2: 20 positives, 2000 negatives, interpolating
/// between A = (TP 5, FP 5) and B = (TP 10, FP 30); the paper prints precision to 3 decimals.
#[test]
#[allow(clippy::approx_constant)] // 0.318 is the paper's 7/22, not 1/pi
fn davis_goadrich_worked_example() {
    let points = davis_goadrich_segment((5.0, 5.0), (10.0, 30.0), 20.0);
    let printed = [0.500, 0.375, 0.318, 0.286, 0.265, 0.250];
    assert_eq!(points.len(), 6);
    for (k, (point, precision)) in points.iter().zip(printed).enumerate() {
        assert_eq!(point.true_positives, 5.0 + k as f64);
        assert_eq!(point.false_positives, 5.0 + 5.0 * k as f64);
        assert_close(point.recall, 0.25 + 0.05 * k as f64, "recall");
        assert!(
            (point.precision - precision).abs() <= 0.0005,
            "{k}: {}",
            point.precision
        );
    }
}

#[test]
fn pr_curves_averaged_over_folds() {
    let case = root()["pr_average"].clone();
    let curves: Vec<PrCurve> = case["input"]["folds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|fold| precision_recall_curve(&binary(fold)).unwrap())
        .collect();
    let samples = case["input"]["samples"].as_u64().unwrap() as usize;
    let average = vertical_average_pr(&curves, samples).unwrap();
    let (mean, sd) = (
        floats(&case["expected"]["mean"]),
        floats(&case["expected"]["sd"]),
    );
    for (i, sample) in average.iter().enumerate() {
        near("mean", sample.mean_precision, mean[i], 1e-12);
        near("sd", sample.sd_precision, sd[i], 1e-12);
    }
    assert!(vertical_average_pr(&[], 3).is_err());
    assert!(vertical_average_pr(&curves, 1).is_err());
}

#[test]
fn partial_auc_h_measure_and_cost_curves_equal_the_peers() {
    for case in group("roc") {
        let name = case["name"].as_str().unwrap();
        let (input, expected) = (&case["input"], &case["expected"]);
        let data = binary(input);
        for range in expected["partial"].as_array().unwrap() {
            let (lo, hi) = (float(&range["lo"]), float(&range["hi"]));
            let result = partial_auc(&data, lo, hi).unwrap();
            let context = format!("{name} [{lo}, {hi}]");
            near(&context, result.raw, float(&range["raw"]), 1e-12);
            near(
                &context,
                result.standardized,
                float(&range["standardized"]),
                1e-12,
            );
            if !range["sklearn"].is_null() {
                near(
                    &context,
                    result.standardized,
                    float(&range["sklearn"]),
                    1e-12,
                );
            }
        }
        near(
            name,
            h_measure(&data, None).unwrap().h,
            float(&expected["h_default"]),
            1e-10,
        );
        for severity in expected["h_severity"].as_array().unwrap() {
            let prior = BetaPrior::from_severity_ratio(float(&severity["ratio"])).unwrap();
            near(
                name,
                h_measure(&data, Some(prior)).unwrap().h,
                float(&severity["h"]),
                1e-10,
            );
        }
        let prior = BetaPrior::new(3.0, 1.5).unwrap();
        near(
            name,
            h_measure(&data, Some(prior)).unwrap().h,
            float(&expected["h_beta_3_1_5"]),
            1e-7,
        );
        let curve = cost_curve(&data).unwrap();
        let (xs, ys) = (floats(&expected["ecost_x"]), floats(&expected["ecost_y"]));
        for (x, y) in xs.iter().zip(&ys) {
            near(
                &format!("{name} ROCR ecost at {x}"),
                curve.cost_at(*x),
                *y,
                1e-7,
            );
        }
        for &(pc, cost) in &curve.envelope {
            let found = xs
                .iter()
                .zip(&ys)
                .any(|(x, y)| (x - pc).abs() <= 1e-9 && (y - cost).abs() <= 1e-9);
            assert!(
                found,
                "{name}: envelope corner ({pc}, {cost}) not among ROCR's"
            );
        }
    }
}

#[test]
fn several_models_cost_envelope_equals_brute_force() {
    let case = root()["models_cost"].clone();
    let labels = ints(&case["input"]["labels"]);
    let models: Vec<BinaryScores> = case["input"]["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| BinaryScores::from_01(&labels, &floats(s)).unwrap())
        .collect();
    let curve = models_cost_curve(&models).unwrap();
    let (grid, envelope) = (
        floats(&case["expected"]["grid"]),
        floats(&case["expected"]["envelope"]),
    );
    for (pc, cost) in grid.iter().zip(envelope) {
        near(&format!("PC {pc}"), curve.cost_at(*pc), cost, 1e-12);
    }
    let lines: usize = models
        .iter()
        .map(|m| roc_curve(m).unwrap().points().len())
        .sum();
    assert_eq!(curve.lines.len(), lines);
    assert!(models_cost_curve(&[]).is_err());
}

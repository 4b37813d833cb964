//! Every case of the shared test vectors auc, sauc, multiclass_auc, roc_hull and binomial_ci
//! (copied from /work/shared/testdata; expected values from sklearn/scipy/statsmodels or exact
//! rational arithmetic, see tests/data/README.md).

mod common;

use common::{assert_all_close, assert_close, cases, float, floats, ints};
use evaluate::{
    auc, auc_or_nan, hand_till_m, mann_whitney_u, one_vs_rest_aucs, pairwise_a_hat,
    provost_domingos_auc, roc_convex_hull, roc_curve, scored_auc, BinaryScores, EvaluateError,
    Predictions,
};

#[test]
fn auc_and_roc_curve_match_sklearn_and_scipy() {
    let all = cases("auc");
    assert_eq!(all.len(), 13);
    for case in all {
        let name = case["name"].as_str().unwrap();
        let data = BinaryScores::from_01(
            &ints(&case["input"]["y_true"]),
            &floats(&case["input"]["y_score"]),
        )
        .unwrap();
        let expected = &case["expected"];
        if case["degenerate"].as_bool() == Some(true) {
            assert!(
                matches!(auc(&data), Err(EvaluateError::SingleClass { .. })),
                "{name}"
            );
            assert!(auc_or_nan(&data).is_nan(), "{name}");
            assert!(roc_curve(&data).is_err(), "{name}");
            assert!(float(&expected["auc"]).is_nan());
            continue;
        }
        let got = auc(&data).unwrap();
        assert_close(got, float(&expected["auc"]), &format!("{name} auc"));
        assert_close(
            got,
            float(&expected["auc_from_u"]),
            &format!("{name} auc_from_u"),
        );
        assert_close(
            mann_whitney_u(&data),
            float(&expected["mann_whitney_u_pos"]),
            &format!("{name} U"),
        );
        let curve = roc_curve(&data).unwrap();
        assert_eq!(
            curve.positives(),
            expected["n_pos"].as_f64().unwrap(),
            "{name}"
        );
        assert_eq!(
            curve.negatives(),
            expected["n_neg"].as_f64().unwrap(),
            "{name}"
        );
        assert_close(
            curve.area(),
            float(&expected["auc"]),
            &format!("{name} trapezoid"),
        );
        let points = curve.points();
        let thresholds: Vec<f64> = points.iter().map(|p| p.threshold).collect();
        assert_all_close(&thresholds, &floats(&expected["roc_thresholds"]), name);
        let fp: Vec<i64> = points.iter().map(|p| p.false_positives as i64).collect();
        let tp: Vec<i64> = points.iter().map(|p| p.true_positives as i64).collect();
        assert_eq!(fp, ints(&expected["roc_fp_counts"]), "{name} fp counts");
        assert_eq!(tp, ints(&expected["roc_tp_counts"]), "{name} tp counts");
        let fpr: Vec<f64> = points.iter().map(|p| p.fpr).collect();
        let tpr: Vec<f64> = points.iter().map(|p| p.tpr).collect();
        assert_all_close(&fpr, &floats(&expected["roc_fpr"]), &format!("{name} fpr"));
        assert_all_close(&tpr, &floats(&expected["roc_tpr"]), &format!("{name} tpr"));
        // the weighted path with unit weights gives the same AUC
        let n = data.len();
        let weighted = data.clone().with_weights(vec![1.0; n]).unwrap();
        assert_close(
            auc(&weighted).unwrap(),
            float(&expected["auc"]),
            &format!("{name} weighted"),
        );
    }
}

#[test]
fn scored_auc_matches_exact_rationals_and_wu_flach() {
    let all = cases("sauc");
    assert_eq!(all.len(), 9);
    for case in all {
        let name = case["name"].as_str().unwrap();
        let data = BinaryScores::from_groups(
            &floats(&case["input"]["pos_scores"]),
            &floats(&case["input"]["neg_scores"]),
        )
        .unwrap();
        let expected = &case["expected"];
        let got = scored_auc(&data).unwrap();
        assert_close(got.sauc, float(&expected["sauc"]), &format!("{name} sauc"));
        assert_close(
            got.r_s_plus,
            float(&expected["r_s_plus"]),
            &format!("{name} R+"),
        );
        assert_close(
            got.r_s_minus,
            float(&expected["r_s_minus"]),
            &format!("{name} R-"),
        );
        assert_close(got.auc, float(&expected["auc"]), &format!("{name} auc"));
        assert_close(
            auc(&data).unwrap(),
            float(&expected["auc"]),
            &format!("{name} auc"),
        );
        if let Some(paper) = expected.get("paper_values_4dp") {
            for (key, value) in [
                ("sauc", got.sauc),
                ("r_s_plus", got.r_s_plus),
                ("r_s_minus", got.r_s_minus),
            ] {
                if let Some(p) = paper.get(key) {
                    assert!(
                        (value - float(p)).abs() <= 0.5e-4 + 1e-12,
                        "{name} paper {key}"
                    );
                }
            }
        }
    }
}

#[test]
fn wu_flach_published_example() {
    // Wu & Flach (2005): positives {0.95, 0.86, 0.84}, negatives {0.89, 0.15, 0.13, 0.10}
    let data = BinaryScores::from_groups(&[0.95, 0.86, 0.84], &[0.89, 0.15, 0.13, 0.10]).unwrap();
    let got = scored_auc(&data).unwrap();
    assert!((got.r_s_plus - 0.7417).abs() < 0.5e-4);
    assert!((got.r_s_minus - 0.1692).abs() < 0.5e-4);
    assert!((got.sauc - 0.5725).abs() < 0.5e-4);
}

#[test]
fn multiclass_auc_matches_sklearn() {
    let all = cases("multiclass_auc");
    assert_eq!(all.len(), 5);
    for case in all {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        let n_classes = expected["n_classes"].as_u64().unwrap() as usize;
        let truth: Vec<usize> = ints(&case["input"]["y_true"])
            .iter()
            .map(|&c| c as usize)
            .collect();
        let rows: Vec<Vec<f64>> = case["input"]["y_score"]
            .as_array()
            .unwrap()
            .iter()
            .map(floats)
            .collect();
        let predictions = Predictions::new(n_classes, truth, &rows).unwrap();
        assert_close(
            hand_till_m(&predictions).unwrap(),
            float(&expected["hand_till_m"]),
            &format!("{name} M"),
        );
        assert_close(
            provost_domingos_auc(&predictions).unwrap(),
            float(&expected["provost_domingos"]),
            &format!("{name} PD"),
        );
        assert_all_close(
            &one_vs_rest_aucs(&predictions).unwrap(),
            &floats(&expected["ovr_auc_per_class"]),
            &format!("{name} ovr"),
        );
        for triple in expected["pairwise_a_hat"].as_array().unwrap() {
            let t = triple.as_array().unwrap();
            let (i, j) = (
                t[0].as_u64().unwrap() as usize,
                t[1].as_u64().unwrap() as usize,
            );
            assert_close(
                pairwise_a_hat(&predictions, i, j).unwrap(),
                float(&t[2]),
                &format!("{name} A({i},{j})"),
            );
        }
    }
}

#[test]
fn roc_hull_matches_exact_hull() {
    let all = cases("roc_hull");
    assert_eq!(all.len(), 8);
    for case in all {
        let name = case["name"].as_str().unwrap();
        let points: Vec<(f64, f64)> = case["input"]["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let p = floats(p);
                (p[0], p[1])
            })
            .collect();
        let expected = &case["expected"];
        let hull = roc_convex_hull(&points).unwrap();
        let vertices: Vec<(f64, f64)> = hull.vertices().iter().map(|v| (v.fpr, v.tpr)).collect();
        let expected_vertices: Vec<(f64, f64)> = expected["hull_vertices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let p = floats(p);
                (p[0], p[1])
            })
            .collect();
        assert_eq!(vertices, expected_vertices, "{name} vertices");
        let indices: Vec<i64> = hull
            .vertices()
            .iter()
            .map(|v| v.input_index.map_or(-1, |i| i as i64))
            .collect();
        assert_eq!(
            indices,
            ints(&expected["hull_vertex_input_index"]),
            "{name} indices"
        );
        assert_all_close(
            &hull.segment_slopes(),
            &floats(&expected["segment_slopes"]),
            &format!("{name} slopes"),
        );
        for (k, range) in expected["vertex_optimal_slope_range"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            let r = floats(range);
            let got = hull.vertices()[k].slope_range;
            assert_close(got.0, r[0], &format!("{name} vertex {k} low"));
            assert_close(got.1, r[1], &format!("{name} vertex {k} high"));
        }
        for query in expected["queries"].as_array().unwrap() {
            let slope = float(&query["slope"]);
            let (optimal, value) = hull.optimal_vertices(slope).unwrap();
            let optimal: Vec<i64> = optimal.iter().map(|&i| i as i64).collect();
            assert_eq!(
                optimal,
                ints(&query["optimal_vertices"]),
                "{name} query {slope}"
            );
            assert_close(
                value,
                float(&query["max_tpr_minus_slope_fpr"]),
                &format!("{name} query value"),
            );
        }
    }
}

#[test]
fn binomial_intervals_used_for_vertical_averaging_match_statsmodels() {
    // the vertical average calls stats::{normal,wilson}_interval; check the values it relies on
    for case in cases("binomial_ci") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let (count, nobs, alpha) = (
            float(&input["count"]),
            float(&input["nobs"]),
            float(&input["alpha"]),
        );
        let expected = &case["expected"];
        let normal = stats::normal_interval(count, nobs, alpha).unwrap();
        let wilson = stats::wilson_interval(count, nobs, alpha).unwrap();
        assert_close(
            normal.low,
            float(&expected["normal_low"]),
            &format!("{name} normal low"),
        );
        assert_close(
            normal.high,
            float(&expected["normal_high"]),
            &format!("{name} normal high"),
        );
        assert_close(
            wilson.low,
            float(&expected["wilson_low"]),
            &format!("{name} wilson low"),
        );
        assert_close(
            wilson.high,
            float(&expected["wilson_high"]),
            &format!("{name} wilson high"),
        );
    }
}

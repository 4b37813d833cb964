//! DeLong, Hanley & McNeil and AUC intervals against the shared vectors.

mod common;
use common::*;
use stats::*;

fn labels(value: &serde_json::Value) -> Vec<bool> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() == 1)
        .collect()
}

#[test]
fn delong_vectors() {
    for case in cases("delong") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let y = labels(&input["y_true"]);
        let s1 = floats(&input["score1"]);
        let s2 = floats(&input["score2"]);
        let result = delong_test(&y, &s1, &s2, 0.05).unwrap();
        assert_statistic(
            &format!("{name} auc1"),
            result.auc1,
            float(&expected["auc1"]),
        );
        assert_statistic(
            &format!("{name} auc2"),
            result.auc2,
            float(&expected["auc2"]),
        );
        assert_statistic(
            &format!("{name} var1"),
            result.variance1,
            float(&expected["var_auc1"]),
        );
        assert_statistic(
            &format!("{name} var2"),
            result.variance2,
            float(&expected["var_auc2"]),
        );
        assert_statistic(
            &format!("{name} cov"),
            result.covariance,
            float(&expected["cov_auc1_auc2"]),
        );
        assert_statistic(
            &format!("{name} vardiff"),
            result.variance_difference,
            float(&expected["var_diff"]),
        );
        if let Some(components) = expected.get("structural_components") {
            let first = structural_components(&y, &s1).unwrap();
            let second = structural_components(&y, &s2).unwrap();
            for (got, key) in [
                (&first.v10, "v10_model1"),
                (&first.v01, "v01_model1"),
                (&second.v10, "v10_model2"),
                (&second.v01, "v01_model2"),
            ] {
                for (g, w) in got.iter().zip(floats(&components[key])) {
                    assert_statistic(&format!("{name} {key}"), *g, w);
                }
            }
        }
        if case["degenerate"].as_bool() == Some(true) || float(&expected["z"]).is_nan() {
            // Policy: zero variance of the difference with equal AUCs -> z = 0, p = 1.
            assert_eq!(result.variance_difference, 0.0, "{name}");
            assert_eq!((result.z, result.pvalue), (0.0, 1.0), "{name}");
            continue;
        }
        assert_statistic(&format!("{name} z"), result.z, float(&expected["z"]));
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["p_value"]),
        );
    }
}

#[test]
fn hanley_mcneil_vectors() {
    for case in cases("hanley_mcneil") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let result = hanley_mcneil(
            float(&input["auc"]),
            input["n_pos"].as_u64().unwrap() as usize,
            input["n_neg"].as_u64().unwrap() as usize,
        )
        .unwrap();
        assert_statistic(&format!("{name} se"), result.se, float(&expected["se"]));
        assert_statistic(
            &format!("{name} var"),
            result.variance,
            float(&expected["variance"]),
        );
        assert_statistic(&format!("{name} q1"), result.q1, float(&expected["q1"]));
        assert_statistic(&format!("{name} q2"), result.q2, float(&expected["q2"]));
    }
}

#[test]
fn auc_degenerate_inputs() {
    assert!(matches!(
        auc(&[true, true], &[0.1, 0.2]),
        Err(StatsError::TooFew {
            name: "negative instances",
            ..
        })
    ));
    assert!(matches!(
        auc(&[true, false], &[0.1, f64::NAN]),
        Err(StatsError::NonFinite { .. })
    ));
    assert!(matches!(
        delong_test(
            &[true, false, false],
            &[0.3, 0.1, 0.2],
            &[0.3, 0.2, 0.1],
            0.05
        ),
        Err(StatsError::TooFew {
            name: "positive instances",
            got: 1,
            needed: 2
        })
    ));
    assert!(matches!(
        hanley_mcneil(1.5, 3, 3),
        Err(StatsError::OutOfRange { name: "auc", .. })
    ));
    assert!(matches!(
        hanley_mcneil(f64::NAN, 3, 3),
        Err(StatsError::OutOfRange { name: "auc", .. })
    ));
    assert!(matches!(
        hanley_mcneil(0.7, 0, 3),
        Err(StatsError::TooFew { name: "n_pos", .. })
    ));
}

#[test]
fn cortes_mohri_moments_match_exact_enumeration() {
    for case in cases("cortes_mohri") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let moments = cortes_mohri_moments(
            input["n_pos"].as_u64().unwrap() as usize,
            input["n_neg"].as_u64().unwrap() as usize,
            input["errors"].as_u64().unwrap() as usize,
        )
        .unwrap();
        assert_statistic(
            &format!("{name} mean"),
            moments.mean,
            float(&expected["mean"]),
        );
        assert_statistic(
            &format!("{name} variance"),
            moments.variance,
            float(&expected["variance"]),
        );
    }
    for case in load("cortes_mohri")["given_split"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let count = |key: &str| input[key].as_u64().unwrap() as usize;
        let moments = cortes_mohri_moments_given_split(
            count("n_pos"),
            count("n_neg"),
            count("false_negatives"),
            count("false_positives"),
        )
        .unwrap();
        assert_statistic(
            &format!("{name} mean"),
            moments.mean,
            float(&expected["mean"]),
        );
        assert_statistic(
            &format!("{name} variance"),
            moments.variance,
            float(&expected["variance"]),
        );
    }
    assert!(matches!(
        cortes_mohri_moments_given_split(3, 4, 4, 0),
        Err(StatsError::OutOfRange {
            name: "false_negatives",
            ..
        })
    ));
    let interval = cortes_mohri_interval(50, 50, 10, 0.05).unwrap();
    // mean 0.9, variance 0.0003194150036543719 (reference), z = 1.959963984540054.
    let half = 1.959963984540054 * 0.0003194150036543719_f64.sqrt();
    assert!(
        (interval.low - (0.9 - half)).abs() < 1e-12 && (interval.high - (0.9 + half)).abs() < 1e-12
    );
    assert!(matches!(
        cortes_mohri_moments(0, 5, 1),
        Err(StatsError::TooFew { .. })
    ));
    assert!(matches!(
        cortes_mohri_moments(3, 5, 9),
        Err(StatsError::OutOfRange { name: "errors", .. })
    ));
}

#[test]
fn cortes_mohri_full_interval_matches_the_papers_closed_forms() {
    for case in cases("cortes_mohri_interval") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let count = |key: &str| input[key].as_u64().unwrap() as usize;
        let bound = match input["bound"].as_str().unwrap() {
            "chebyshev" => ErrorRateBound::Chebyshev,
            "normal" => ErrorRateBound::Normal,
            other => panic!("{name}: unknown bound {other}"),
        };
        let interval = cortes_mohri_full_interval(
            count("n_pos"),
            count("n_neg"),
            count("errors"),
            float(&input["alpha"]),
            bound,
        )
        .unwrap();
        let counts = |key: &str| expected[key].as_u64().unwrap() as usize;
        assert_eq!(
            interval.error_counts,
            (counts("lowest_errors"), counts("highest_errors")),
            "{name}: error counts"
        );
        for (what, got, key) in [
            ("auc low", interval.auc.low, "auc_low"),
            ("auc high", interval.auc.high, "auc_high"),
            ("error rate low", interval.error_rate.low, "error_rate_low"),
            (
                "error rate high",
                interval.error_rate.high,
                "error_rate_high",
            ),
            ("expected auc", interval.expected_auc, "expected_auc"),
        ] {
            let want = float(&expected[key]);
            assert!(
                (got - want).abs() <= 1e-9,
                "{name} {what}: got {got}, expected {want}"
            );
        }
    }
    assert!(matches!(
        cortes_mohri_full_interval(0, 5, 1, 0.05, ErrorRateBound::Normal),
        Err(StatsError::TooFew { .. })
    ));
    assert!(matches!(
        cortes_mohri_full_interval(5, 5, 1, 1.5, ErrorRateBound::Normal),
        Err(StatsError::OutOfRange { name: "alpha", .. })
    ));
    assert!(matches!(
        cortes_mohri_full_interval(3, 5, 9, 0.05, ErrorRateBound::Chebyshev),
        Err(StatsError::OutOfRange { name: "errors", .. })
    ));
}

#[test]
fn agarwal_bound_matches_the_closed_form() {
    // eps = sqrt((m + n) ln(2/delta) / (2 m n)); m = n = 50, delta = 0.05:
    // sqrt(100 ln 40 / 5000) = sqrt(0.02 * 3.6888794541139363) = 0.27162...
    let eps = agarwal_half_width(50, 50, 0.05).unwrap();
    assert!((eps - (0.02_f64 * 40f64.ln()).sqrt()).abs() < 1e-15);
    // Equivalent form of Agarwal et al.'s Corollary with rho = m / N: sqrt(ln(2/delta) / (2 rho (1 - rho) N)).
    let (m, n) = (30.0_f64, 70.0_f64);
    let rho = m / (m + n);
    let other = ((2.0_f64 / 0.01).ln() / (2.0 * rho * (1.0 - rho) * (m + n))).sqrt();
    assert!((agarwal_half_width(30, 70, 0.01).unwrap() - other).abs() < 1e-14);
    let interval = agarwal_interval(0.9, 50, 50, 0.05).unwrap();
    assert_eq!(interval.high, 1.0);
    assert!((interval.low - (0.9 - eps)).abs() < 1e-15);
}

#[test]
fn hanley_mcneil_interval_uses_the_reference_se() {
    // A = 0.8, 50/50: se = 0.04450218471540969 (hanley_mcneil.json), z_0.975 from binomial_ci.json.
    let interval = hanley_mcneil_interval(0.8, 50, 50, 0.05).unwrap();
    let half = 1.9599639845400545 * 0.04450218471540969;
    assert_statistic("low", interval.low, 0.8 - half);
    assert_statistic("high", interval.high, 0.8 + half);
}

#[test]
fn bootstrap_interval_is_seeded_and_brackets_the_auc() {
    let labels: Vec<bool> = (0..60).map(|i| i % 3 == 0).collect();
    let scores: Vec<f64> = (0..60)
        .map(|i| ((i * 37) % 61) as f64 / 61.0 + if i % 3 == 0 { 0.3 } else { 0.0 })
        .collect();
    let first = bootstrap_auc_interval(&labels, &scores, 500, 0.05, 11).unwrap();
    let second = bootstrap_auc_interval(&labels, &scores, 500, 0.05, 11).unwrap();
    assert_eq!(first, second);
    let point = auc(&labels, &scores).unwrap();
    assert!(
        first.low < point && point < first.high,
        "{first:?} vs {point}"
    );
    assert!(matches!(
        bootstrap_auc_interval(&labels, &scores, 0, 0.05, 1),
        Err(StatsError::OutOfRange {
            name: "resamples",
            ..
        })
    ));
}

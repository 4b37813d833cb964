//! Paired, corrected resampled and 5x2cv t-tests against scipy / Weka / mlxtend vectors.

mod common;
use common::*;
use stats::*;

#[test]
fn paired_t_test_vectors() {
    for case in cases("ttest") {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        if name == "t_critical_two_sided_0.05_table" {
            let dfs = floats(&case["input"]["df"]);
            let crits = floats(&expected["t_crit"]);
            for (df, crit) in dfs.iter().zip(crits) {
                assert_pvalue(
                    &format!("t_crit df={df}"),
                    t_critical_value(0.05, *df).unwrap(),
                    crit,
                );
            }
            continue;
        }
        let a = floats(&case["input"]["a"]);
        let b = floats(&case["input"]["b"]);
        let result = paired_t_test(&a, &b, 0.05).unwrap();
        assert_eq!(result.df, float(&expected["df"]), "{name}");
        assert_statistic(
            &format!("{name} mean"),
            result.mean_difference,
            float(&expected["mean_diff"]),
        );
        assert_statistic(
            &format!("{name} sd"),
            result.variance_difference.sqrt(),
            float(&expected["sd_diff"]),
        );
        assert_pvalue(
            &format!("{name} crit"),
            result.critical_value,
            float(&expected["t_crit_0.025"]),
        );
        if case["degenerate"].as_bool() == Some(true) {
            // Policy: zero variance -> t = +-inf, p = 0 with a non-zero mean; all differences
            // zero -> t = 0, p = 1 (Weka) where scipy gives NaN.
            if result.mean_difference == 0.0 {
                assert_eq!((result.statistic, result.pvalue), (0.0, 1.0), "{name}");
            } else {
                assert_eq!(result.statistic, float(&expected["statistic"]), "{name}");
                assert_eq!(result.pvalue, float(&expected["pvalue"]), "{name}");
            }
            continue;
        }
        assert_statistic(
            &format!("{name} t"),
            result.statistic,
            float(&expected["statistic"]),
        );
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["pvalue"]),
        );
        // The interval follows from the checked mean, sd and critical value.
        let half = float(&expected["t_crit_0.025"]) * float(&expected["sd_diff"])
            / (a.len() as f64).sqrt();
        assert!((result.confidence_interval.low - (result.mean_difference - half)).abs() < 1e-12);
        assert!((result.confidence_interval.high - (result.mean_difference + half)).abs() < 1e-12);
        assert_eq!(result.reject, result.pvalue <= 0.05);
    }
}

#[test]
fn corrected_t_test_vectors() {
    for case in cases("corrected_ttest") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let a = floats(&input["a"]);
        let b = floats(&input["b"]);
        let result = corrected_resampled_t_test(
            &a,
            &b,
            float(&input["n_train"]),
            float(&input["n_test"]),
            0.05,
        )
        .unwrap();
        assert_eq!(result.df, float(&expected["df"]), "{name}");
        assert_statistic(
            &format!("{name} mean"),
            result.mean_difference,
            float(&expected["mean_diff"]),
        );
        assert_statistic(
            &format!("{name} var"),
            result.variance_difference,
            float(&expected["var_diff"]),
        );
        assert_statistic(
            &format!("{name} corrected var"),
            result.variance_of_mean,
            float(&expected["corrected_variance"]),
        );
        if case["degenerate"].as_bool() == Some(true) {
            // Our policy is Weka's rule for var(d) = 0.
            assert_eq!(result.pvalue, float(&expected["weka_pvalue"]), "{name}");
            let t = float(&expected["t"]);
            if t.is_nan() {
                assert_eq!(result.statistic, 0.0, "{name}");
            } else {
                assert_eq!(result.statistic, t, "{name}");
            }
            continue;
        }
        assert_statistic(
            &format!("{name} t"),
            result.statistic,
            float(&expected["t"]),
        );
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["pvalue"]),
        );
        assert_pvalue(
            &format!("{name} weka p"),
            result.pvalue,
            float(&expected["weka_pvalue"]),
        );
        let plain = paired_t_test(&a, &b, 0.05).unwrap();
        assert_statistic(
            &format!("{name} uncorrected t"),
            plain.statistic,
            float(&expected["uncorrected_t"]),
        );
    }
}

fn five_by_two(value: &serde_json::Value) -> [[f64; 2]; 5] {
    let rows = matrix(value);
    let mut out = [[0.0; 2]; 5];
    for (slot, row) in out.iter_mut().zip(rows) {
        *slot = [row[0], row[1]];
    }
    out
}

#[test]
fn cv5x2_vectors() {
    for case in cases("cv5x2") {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        let p = five_by_two(&case["input"]["p"]);
        let t = cv5x2_t_test(&p, 0.05).unwrap();
        let f = cv5x2_f_test(&p, 0.05).unwrap();
        for (got, want) in t.replication_variances.iter().zip(floats(&expected["s2"])) {
            assert_statistic(&format!("{name} s2"), *got, want);
        }
        assert_eq!((t.df, t.df_denominator), (5.0, None));
        assert_eq!((f.df, f.df_denominator), (10.0, Some(5.0)));
        if case["degenerate"].as_bool() == Some(true) {
            assert_eq!(t.statistic, float(&expected["t"]), "{name}");
            assert_eq!(t.pvalue, float(&expected["t_pvalue"]), "{name}");
            assert_eq!(f.statistic, float(&expected["f"]), "{name}");
            assert_eq!(f.pvalue, float(&expected["f_pvalue"]), "{name}");
            continue;
        }
        assert_statistic(&format!("{name} t"), t.statistic, float(&expected["t"]));
        assert_pvalue(
            &format!("{name} t p"),
            t.pvalue,
            float(&expected["t_pvalue"]),
        );
        assert_statistic(&format!("{name} f"), f.statistic, float(&expected["f"]));
        assert_pvalue(
            &format!("{name} f p"),
            f.pvalue,
            float(&expected["f_pvalue"]),
        );
    }
}

#[test]
fn degenerate_t_inputs_are_typed_errors() {
    assert!(matches!(
        paired_t_test(&[0.5], &[0.4], 0.05),
        Err(StatsError::TooFew { got: 1, .. })
    ));
    assert!(matches!(
        paired_t_test(&[], &[], 0.05),
        Err(StatsError::TooFew { got: 0, .. })
    ));
    assert!(matches!(
        paired_t_test(&[0.5, f64::NAN], &[0.4, 0.3], 0.05),
        Err(StatsError::NonFinite {
            name: "a",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        paired_t_test(&[0.5, 0.2], &[0.4], 0.05),
        Err(StatsError::LengthMismatch { .. })
    ));
    assert!(matches!(
        corrected_resampled_t_test(&[0.5, 0.2], &[0.4, 0.1], 0.0, 10.0, 0.05),
        Err(StatsError::OutOfRange {
            name: "n_train",
            ..
        })
    ));
    assert!(matches!(
        paired_t_test(&[0.5, 0.2], &[0.4, 0.1], 0.0),
        Err(StatsError::OutOfRange { name: "alpha", .. })
    ));
    let mut p = [[0.01, 0.02]; 5];
    p[2][1] = f64::INFINITY;
    assert!(matches!(
        cv5x2_t_test(&p, 0.05),
        Err(StatsError::NonFinite { index: 5, .. })
    ));
    // All differences zero: no evidence, p = 1 for both 5x2cv tests.
    let zero = [[0.0; 2]; 5];
    assert_eq!(cv5x2_t_test(&zero, 0.05).unwrap().pvalue, 1.0);
    assert_eq!(cv5x2_f_test(&zero, 0.05).unwrap().pvalue, 1.0);
}

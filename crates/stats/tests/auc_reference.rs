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

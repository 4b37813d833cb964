//! DeLong for k models against numpy (k > 2, contrasts, rank deficiency) and pROC's roc.test,
//! var and cov (pairs); Clopper-Pearson against statsmodels (tests/data/issue29_reference.py).

mod common;
use common::*;
use stats::*;

fn close(context: &str, got: f64, expected: f64, relative: f64) {
    assert!(
        (got - expected).abs() <= relative * expected.abs() + 1e-15,
        "{context}: got {got:e}, expected {expected:e}"
    );
}

#[test]
fn delong_k_models_and_contrasts() {
    for case in cases("delong_k_reference") {
        let name = case["name"].as_str().unwrap();
        let labels: Vec<bool> = case["input"]["labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64() == Some(1))
            .collect();
        let scores = matrix(&case["input"]["scores"]);
        let views: Vec<&[f64]> = scores.iter().map(|s| s.as_slice()).collect();
        let contrast = matrix(&case["input"]["contrast"]);
        let result = delong_contrast_test(&labels, &views, Some(&contrast), 0.05).unwrap();
        let expected = &case["expected"];
        for (got, want) in result.estimates.aucs.iter().zip(floats(&expected["aucs"])) {
            assert_statistic(&format!("{name} auc"), *got, want);
        }
        for (row, want_row) in result
            .estimates
            .covariance
            .iter()
            .zip(matrix(&expected["covariance"]))
        {
            for (got, want) in row.iter().zip(want_row) {
                close(&format!("{name} covariance"), *got, want, 1e-10);
            }
        }
        assert_eq!(
            result.df as i64,
            expected["df"].as_i64().unwrap(),
            "{name} df"
        );
        close(
            &format!("{name} chi2"),
            result.chi_square,
            float(&expected["chi_square"]),
            1e-9,
        );
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["pvalue"]),
        );
        if let Some(proc_) = expected.get("proc") {
            // one contrast row: z = (auc1 - auc2) / sd, chi2 = z^2
            let z = result.chi_square.sqrt() * result.contrast_values[0].signum();
            close(&format!("{name} z vs pROC"), z, float(&proc_["z"]), 1e-9);
            assert_pvalue(
                &format!("{name} p vs pROC"),
                result.pvalue,
                float(&proc_["pvalue"]),
            );
            let c = &result.estimates.covariance;
            close(
                &format!("{name} var1 vs pROC"),
                c[0][0],
                float(&proc_["var1"]),
                1e-10,
            );
            close(
                &format!("{name} var2 vs pROC"),
                c[1][1],
                float(&proc_["var2"]),
                1e-10,
            );
            close(
                &format!("{name} cov vs pROC"),
                c[0][1],
                float(&proc_["cov"]),
                1e-10,
            );
            let pair = delong_test(&labels, &scores[0], &scores[1], 0.05).unwrap();
            close(&format!("{name} z vs delong_test"), z, pair.z, 1e-9);
        }
    }
}

#[test]
fn default_contrast_is_equality_and_errors_are_typed() {
    let case = &cases("delong_k_reference")[2];
    let labels: Vec<bool> = case["input"]["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64() == Some(1))
        .collect();
    let scores = matrix(&case["input"]["scores"]);
    let views: Vec<&[f64]> = scores.iter().map(|s| s.as_slice()).collect();
    let default = delong_contrast_test(&labels, &views, None, 0.05).unwrap();
    close(
        "equality",
        default.chi_square,
        float(&case["expected"]["chi_square"]),
        1e-9,
    );
    assert_eq!(default.df, 2);
    assert!(delong_contrast_test(&labels, &views[..1], None, 0.05).is_err());
    assert!(delong_contrast_test(&labels, &views, Some(&[vec![1.0, -1.0]]), 0.05).is_err());
    assert!(delong_contrast_test(&labels, &views, Some(&[]), 0.05).is_err());
    let mut bad = scores[0].clone();
    bad[0] = f64::NAN;
    assert!(delong_contrast_test(&labels, &[&bad, &scores[1]], None, 0.05).is_err());
    let identical = delong_contrast_test(&labels, &[&scores[0], &scores[0]], None, 0.05).unwrap();
    assert_eq!(
        (identical.chi_square, identical.df, identical.pvalue),
        (0.0, 0, 1.0)
    );
    assert!(delong_contrast_test(
        &[true, false, true],
        &[&[0.1, 0.2, 0.3]],
        Some(&[vec![1.0]]),
        0.05
    )
    .is_err());
}

#[test]
fn clopper_pearson_equals_statsmodels() {
    for case in cases("clopper_pearson_reference") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let interval = clopper_pearson_interval(
            float(&input["count"]),
            float(&input["nobs"]),
            float(&input["alpha"]),
        )
        .unwrap();
        close(
            &format!("{name} low"),
            interval.low,
            float(&case["expected"]["low"]),
            1e-10,
        );
        close(
            &format!("{name} high"),
            interval.high,
            float(&case["expected"]["high"]),
            1e-10,
        );
    }
    assert!(clopper_pearson_interval(3.0, 2.0, 0.05).is_err());
    assert!(clopper_pearson_interval(f64::NAN, 2.0, 0.05).is_err());
    assert!(clopper_pearson_interval(1.0, 0.0, 0.05).is_err());
}

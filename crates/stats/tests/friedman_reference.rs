//! Friedman, Iman-Davenport and Nemenyi against scipy / scikit-posthocs / Demsar (2006).

mod common;
use common::*;
use stats::*;

#[test]
fn friedman_vectors() {
    for case in cases("friedman") {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        if case["input"].get("avg_ranks").is_some() {
            let ranks = floats(&case["input"]["avg_ranks"]);
            let n = case["input"]["n_datasets"].as_u64().unwrap() as usize;
            let result = friedman_from_average_ranks(&ranks, n, 0.05).unwrap();
            assert_statistic(
                &format!("{name} chi2u"),
                result.chi_square_uncorrected,
                float(&expected["chi2_uncorrected"]),
            );
            assert_pvalue(
                &format!("{name} pu"),
                result.pvalue_uncorrected,
                float(&expected["pvalue_uncorrected"]),
            );
            assert_statistic(
                &format!("{name} Fu"),
                result.iman_davenport_f_uncorrected,
                float(&expected["iman_davenport_f_uncorrected"]),
            );
            assert_pvalue(
                &format!("{name} Fu p"),
                result.iman_davenport_pvalue_uncorrected,
                float(&expected["iman_davenport_pvalue_uncorrected"]),
            );
            let cd = nemenyi_critical_difference_demsar_table(ranks.len(), n, 0.05).unwrap();
            assert_statistic(
                &format!("{name} cd"),
                cd,
                float(&expected["nemenyi_cd_0.05"]),
            );
            // The paper's rounded values.
            assert_eq!(
                (result.chi_square_uncorrected * 100.0).round() / 100.0,
                9.28
            );
            assert_eq!(
                (result.iman_davenport_f_uncorrected * 100.0).round() / 100.0,
                3.69
            );
            continue;
        }
        let scores = matrix(&case["input"]["scores"]);
        let result = friedman_test(&scores, 0.05).unwrap();
        assert_eq!(
            result.n_datasets,
            expected["n_datasets"].as_u64().unwrap() as usize
        );
        assert_eq!(
            result.n_learners,
            expected["n_classifiers"].as_u64().unwrap() as usize
        );
        for (got, want) in result
            .average_ranks
            .iter()
            .zip(floats(&expected["avg_ranks"]))
        {
            assert_statistic(&format!("{name} rank"), *got, want);
        }
        assert_eq!(result.df, float(&expected["df"]));
        assert_statistic(
            &format!("{name} chi2"),
            result.chi_square,
            float(&expected["chi2"]),
        );
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["pvalue"]),
        );
        assert_statistic(
            &format!("{name} chi2u"),
            result.chi_square_uncorrected,
            float(&expected["chi2_uncorrected"]),
        );
        assert_pvalue(
            &format!("{name} pu"),
            result.pvalue_uncorrected,
            float(&expected["pvalue_uncorrected"]),
        );
        assert_statistic(
            &format!("{name} tie"),
            result.tie_correction_factor,
            float(&expected["tie_correction_factor"]),
        );
        let df = floats(&expected["iman_davenport_df"]);
        assert_eq!(result.iman_davenport_df, (df[0], df[1]));
        let check_f = |label: &str, got_f: f64, got_p: f64, f_key: &str, p_key: &str| {
            let (want_f, want_p) = (float(&expected[f_key]), float(&expected[p_key]));
            if want_f.is_infinite() {
                assert_eq!((got_f, got_p), (want_f, want_p), "{name} {label}");
            } else {
                assert_statistic(&format!("{name} {label}"), got_f, want_f);
                assert_pvalue(&format!("{name} {label} p"), got_p, want_p);
            }
        };
        check_f(
            "F",
            result.iman_davenport_f,
            result.iman_davenport_pvalue,
            "iman_davenport_f",
            "iman_davenport_pvalue",
        );
        check_f(
            "Fu",
            result.iman_davenport_f_uncorrected,
            result.iman_davenport_pvalue_uncorrected,
            "iman_davenport_f_uncorrected",
            "iman_davenport_pvalue_uncorrected",
        );
        let (n, k) = (result.n_datasets, result.n_learners);
        for (key, alpha) in [("nemenyi_cd_0.05", 0.05), ("nemenyi_cd_0.10", 0.10)] {
            if expected.get(key).is_some() {
                let cd = nemenyi_critical_difference_demsar_table(k, n, alpha).unwrap();
                assert_statistic(&format!("{name} {key}"), cd, float(&expected[key]));
            }
        }
        if expected.get("nemenyi_pvalues").is_some() {
            let got = nemenyi_pvalues(&result.average_ranks, n).unwrap();
            for (i, row) in matrix(&expected["nemenyi_pvalues"]).iter().enumerate() {
                for (j, want) in row.iter().enumerate() {
                    assert_pvalue(&format!("{name} nemenyi p[{i}][{j}]"), got[i][j], *want);
                }
            }
        }
    }
}

#[test]
fn nemenyi_cd_vectors() {
    for case in cases("nemenyi_cd") {
        let name = case["name"].as_str().unwrap();
        let expected = &case["expected"];
        if name == "q_table_demsar_2006" {
            let ks = case["input"]["k"].as_array().unwrap();
            for (index, k) in ks.iter().enumerate() {
                let k = k.as_u64().unwrap() as usize;
                for (alpha, table_key, exact_key) in [
                    (0.05, "q_0.05_table", "q_0.05_exact"),
                    (0.10, "q_0.10_table", "q_0.10_exact"),
                ] {
                    assert_eq!(
                        nemenyi_q_demsar_table(k, alpha).unwrap(),
                        float(&expected[table_key][index])
                    );
                    assert_pvalue(
                        &format!("q k={k} alpha={alpha}"),
                        nemenyi_q(k, alpha).unwrap(),
                        float(&expected[exact_key][index]),
                    );
                }
            }
            continue;
        }
        let k = case["input"]["k"].as_u64().unwrap() as usize;
        let n = case["input"]["n_datasets"].as_u64().unwrap() as usize;
        for (alpha, key) in [(0.05, "0.05"), (0.10, "0.10")] {
            assert_statistic(
                &format!("{name} cd {key}"),
                nemenyi_critical_difference_demsar_table(k, n, alpha).unwrap(),
                float(&expected[format!("cd_{key}").as_str()]),
            );
            // Exact quantile: held to the quantile tolerance (the CD inherits its error).
            assert_pvalue(
                &format!("{name} cd exact {key}"),
                nemenyi_critical_difference(k, n, alpha).unwrap(),
                float(&expected[format!("cd_{key}_exact_q").as_str()]),
            );
        }
    }
}

#[test]
fn friedman_degenerate_inputs() {
    let one_learner = vec![vec![0.5], vec![0.6]];
    assert!(matches!(
        friedman_test(&one_learner, 0.05),
        Err(StatsError::TooFew { needed: 2, .. })
    ));
    let one_dataset = vec![vec![0.5, 0.6, 0.7]];
    assert!(matches!(
        friedman_test(&one_dataset, 0.05),
        Err(StatsError::TooFew { .. })
    ));
    let ragged = vec![vec![0.5, 0.6], vec![0.6]];
    assert!(matches!(
        friedman_test(&ragged, 0.05),
        Err(StatsError::LengthMismatch { .. })
    ));
    let with_nan = vec![vec![0.5, 0.6], vec![0.6, f64::NAN]];
    assert!(matches!(
        friedman_test(&with_nan, 0.05),
        Err(StatsError::NonFinite { index: 3, .. })
    ));
    // Every row fully tied: no evidence, chi2 = 0 and p = 1.
    let tied = vec![vec![0.5, 0.5, 0.5], vec![0.7, 0.7, 0.7]];
    let result = friedman_test(&tied, 0.05).unwrap();
    assert_eq!((result.chi_square, result.pvalue), (0.0, 1.0));
    assert!(!result.reject);
    assert!(matches!(
        nemenyi_q_demsar_table(11, 0.05),
        Err(StatsError::OutOfRange { name: "k", .. })
    ));
    assert!(matches!(
        nemenyi_q_demsar_table(4, 0.01),
        Err(StatsError::OutOfRange { name: "alpha", .. })
    ));
}

//! Sign test, Wilcoxon, McNemar and Bonferroni/Holm against scipy / statsmodels vectors.

mod common;
use common::*;
use stats::*;

#[test]
fn sign_test_vectors() {
    for case in cases("sign_test") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        if name.starts_with("critical_values") {
            let alpha = float(&input["alpha"]);
            let ns = input["N"].as_array().unwrap();
            let max_losses = expected["max_losses"].as_array().unwrap();
            let min_wins = expected["min_wins"].as_array().unwrap();
            for ((n, losses), wins) in ns.iter().zip(max_losses).zip(min_wins) {
                let n = n.as_u64().unwrap();
                let got = sign_test_max_losses(n, alpha).unwrap();
                assert_eq!(got, losses.as_u64(), "{name} N={n}");
                assert_eq!(
                    sign_test_min_wins(n, alpha).unwrap(),
                    wins.as_u64(),
                    "{name} N={n}"
                );
            }
            continue;
        }
        let (wins, losses, ties) = (
            input["wins"].as_u64().unwrap(),
            input["losses"].as_u64().unwrap(),
            input["ties"].as_u64().unwrap(),
        );
        let result = sign_test(wins, losses, ties, 0.05).unwrap();
        assert_eq!(result.n, expected["n"].as_u64().unwrap(), "{name}");
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["pvalue"]),
        );
    }
}

#[test]
fn sign_test_slide_example_and_counts() {
    // Evaluation slides: N = 20 at 5% needs at most 5 losses (15 wins).
    assert_eq!(sign_test_max_losses(20, 0.05).unwrap(), Some(5));
    let count = win_tie_loss(&[0.9, 0.8, 0.7, 0.6], &[0.8, 0.8, 0.75, 0.5]).unwrap();
    assert_eq!(
        count,
        WinTieLoss {
            wins: 2,
            ties: 1,
            losses: 1
        }
    );
    // No untied comparison: p = 1.
    assert_eq!(sign_test(0, 0, 7, 0.05).unwrap().pvalue, 1.0);
    assert!(matches!(
        win_tie_loss(&[f64::NAN], &[0.1]),
        Err(StatsError::NonFinite { .. })
    ));
}

#[test]
fn wilcoxon_vectors() {
    for case in cases("wilcoxon") {
        let name = case["name"].as_str().unwrap();
        let x = floats(&case["input"]["x"]);
        let y = floats(&case["input"]["y"]);
        let scipy_convention = case["exact_is_scipy_convention"].as_bool() == Some(true);
        for (key, zero_method) in [("wilcox", ZeroMethod::Wilcox), ("pratt", ZeroMethod::Pratt)] {
            let expected = &case["expected"][key];
            let context = format!("{name} {key}");
            for (sub, correction) in [("approx", false), ("approx_cc", true)] {
                let result = wilcoxon_signed_rank(
                    &x,
                    &y,
                    zero_method,
                    correction,
                    WilcoxonMethod::Normal,
                    0.05,
                )
                .unwrap();
                assert_statistic(
                    &format!("{context} r+"),
                    result.r_plus,
                    float(&expected["r_plus"]),
                );
                assert_statistic(
                    &format!("{context} r-"),
                    result.r_minus,
                    float(&expected["r_minus"]),
                );
                assert_eq!(
                    result.n_used,
                    expected["n_used"].as_u64().unwrap() as usize,
                    "{context}"
                );
                let want = &expected[sub];
                assert_statistic(
                    &format!("{context} {sub} stat"),
                    result.statistic,
                    float(&want["statistic"]),
                );
                // scipy reports -|z|; ours is signed.
                assert_statistic(
                    &format!("{context} {sub} z"),
                    -result.z.unwrap().abs(),
                    float(&want["z"]),
                );
                assert_pvalue(
                    &format!("{context} {sub} p"),
                    result.pvalue,
                    float(&want["pvalue"]),
                );
                assert!(!result.exact);
            }
            let exact =
                wilcoxon_signed_rank(&x, &y, zero_method, false, WilcoxonMethod::Exact, 0.05)
                    .unwrap();
            assert!(exact.exact);
            if !scipy_convention {
                // No ties or zeros: the classic exact table.
                assert_statistic(
                    &format!("{context} exact stat"),
                    exact.statistic,
                    float(&expected["exact"]["statistic"]),
                );
                assert_pvalue(
                    &format!("{context} exact p"),
                    exact.pvalue,
                    float(&expected["exact"]["pvalue"]),
                );
            }
            // (With ties or zeros scipy's method='exact' is a convention we do not follow; the
            // exact conditional p-values are checked in `wilcoxon_exact_with_ties_and_zeros`.)
            let auto = wilcoxon_signed_rank(&x, &y, zero_method, false, WilcoxonMethod::Auto, 0.05)
                .unwrap();
            let nonzero = x.iter().zip(&y).filter(|(a, b)| a != b).count();
            assert_eq!(auto.exact, nonzero <= 50, "{context}");
            assert_eq!(auto.pvalue, exact.pvalue, "{context}");
        }
    }
}

#[test]
fn wilcoxon_exact_with_ties_and_zeros() {
    for case in cases("wilcoxon_exact") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let zero_method = match input["zero_method"].as_str().unwrap() {
            "wilcox" => ZeroMethod::Wilcox,
            _ => ZeroMethod::Pratt,
        };
        let result = wilcoxon_signed_rank(
            &floats(&input["x"]),
            &floats(&input["y"]),
            zero_method,
            false,
            WilcoxonMethod::Exact,
            0.05,
        )
        .unwrap();
        assert_statistic(
            &format!("{name} r+"),
            result.r_plus,
            float(&case["expected"]["r_plus"]),
        );
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&case["expected"]["pvalue"]),
        );
    }
}

#[test]
fn wilcoxon_continuity_correction_small_cases() {
    // scipy 1.17: wilcoxon([1, -2, 3], correction=True, method='asymptotic') ->
    // zstatistic -0.2672612419124244, p 0.7892680261342813 (R+ = 4, mean 3, se = sqrt(3.5)).
    let result = wilcoxon_signed_rank(
        &[1.0, -2.0, 3.0],
        &[0.0; 3],
        ZeroMethod::Wilcox,
        true,
        WilcoxonMethod::Normal,
        0.05,
    )
    .unwrap();
    assert_statistic("z", -result.z.unwrap().abs(), -0.2672612419124244);
    assert_pvalue("p", result.pvalue, 0.7892680261342813);
    // R+ exactly at its mean (d = 1, 2, -3): z = 0 stays 0 with the correction, p = 1
    // (scipy: zstatistic 0, p 1).
    let centred = wilcoxon_signed_rank(
        &[1.0, 2.0, -3.0],
        &[0.0; 3],
        ZeroMethod::Wilcox,
        true,
        WilcoxonMethod::Normal,
        0.05,
    )
    .unwrap();
    assert_eq!((centred.z, centred.pvalue), (Some(0.0), 1.0));
}

#[test]
fn wilcoxon_degenerate_inputs() {
    // Every pair tied: no evidence either way, p = 1 by policy.
    let a = [0.5, 0.6, 0.7];
    for zero_method in [ZeroMethod::Wilcox, ZeroMethod::Pratt] {
        let result =
            wilcoxon_signed_rank(&a, &a, zero_method, true, WilcoxonMethod::Auto, 0.05).unwrap();
        assert_eq!((result.pvalue, result.statistic), (1.0, 0.0));
        assert!(!result.reject);
    }
    assert!(matches!(
        wilcoxon_signed_rank(
            &[0.1, f64::NAN],
            &[0.2, 0.3],
            ZeroMethod::Wilcox,
            false,
            WilcoxonMethod::Auto,
            0.05
        ),
        Err(StatsError::NonFinite { .. })
    ));
    assert!(matches!(
        wilcoxon_signed_rank(
            &[0.1],
            &[0.2, 0.3],
            ZeroMethod::Wilcox,
            false,
            WilcoxonMethod::Auto,
            0.05
        ),
        Err(StatsError::LengthMismatch { .. })
    ));
}

#[test]
fn mcnemar_vectors() {
    for case in cases("mcnemar") {
        let name = case["name"].as_str().unwrap();
        let rows = case["input"]["table"].as_array().unwrap();
        let cell = |i: usize, j: usize| rows[i][j].as_u64().unwrap();
        let table = [[cell(0, 0), cell(0, 1)], [cell(1, 0), cell(1, 1)]];
        let expected = &case["expected"];
        let result = mcnemar_test(table, 0.05).unwrap();
        assert_eq!(result.b, expected["b"].as_u64().unwrap());
        assert_eq!(result.c, expected["c"].as_u64().unwrap());
        assert_statistic(
            &format!("{name} exact stat"),
            result.exact.statistic,
            float(&expected["exact"]["statistic"]),
        );
        assert_pvalue(
            &format!("{name} exact p"),
            result.exact.pvalue,
            float(&expected["exact"]["pvalue"]),
        );
        for (key, got) in [
            ("chi2_cc", result.chi_square_corrected),
            ("chi2", result.chi_square),
        ] {
            if expected.get(key).is_none() {
                assert!(got.is_none(), "{name} {key}: b + c = 0 has no chi-square");
                continue;
            }
            let got = got.unwrap();
            assert_statistic(
                &format!("{name} {key} stat"),
                got.statistic,
                float(&expected[key]["statistic"]),
            );
            assert_pvalue(
                &format!("{name} {key} p"),
                got.pvalue,
                float(&expected[key]["pvalue"]),
            );
        }
    }
}

#[test]
fn multitest_vectors() {
    for case in cases("multitest") {
        let name = case["name"].as_str().unwrap();
        let pvalues = floats(&case["input"]["pvals"]);
        let alpha = float(&case["input"]["alpha"]);
        let expected = &case["expected"];
        for (key, result) in [
            ("bonferroni", bonferroni(&pvalues, alpha).unwrap()),
            ("holm", holm(&pvalues, alpha).unwrap()),
        ] {
            let want_reject: Vec<bool> = expected[key]["reject"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_bool().unwrap())
                .collect();
            assert_eq!(result.reject, want_reject, "{name} {key}");
            for (got, want) in result
                .corrected_pvalues
                .iter()
                .zip(floats(&expected[key]["pvals_corrected"]))
            {
                assert_statistic(&format!("{name} {key}"), *got, want);
            }
        }
    }
}

#[test]
fn multitest_rejects_bad_pvalues() {
    assert!(matches!(
        bonferroni(&[], 0.05),
        Err(StatsError::TooFew { .. })
    ));
    assert!(matches!(
        holm(&[0.2, f64::NAN], 0.05),
        Err(StatsError::OutOfRange {
            name: "pvalues",
            ..
        })
    ));
    assert!(matches!(
        holm(&[1.2], 0.05),
        Err(StatsError::OutOfRange { .. })
    ));
}

//! `across_datasets::compare` against scipy, statsmodels, scikit-posthocs and baycomp
//! (tests/data/across_datasets.json, made by reference/across_datasets_reference.py) and
//! against Demsar's (2006) worked example.

mod common;
use common::*;
use serde_json::Value;
use stats::*;

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn bools(value: &Value) -> Vec<bool> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_bool().unwrap())
        .collect()
}

#[test]
fn every_statistic_matches_the_outside_libraries() {
    for case in cases("across_datasets") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let scores = matrix(&input["scores"]);
        let learners = strings(&input["learners"]);
        let options = AcrossDatasetsOptions {
            control: Some(input["control"].as_str().unwrap().to_string()),
            alpha: float(&input["alpha"]),
            rope: float(&input["rope"]),
            higher_is_better: input["higher_is_better"].as_bool().unwrap(),
            ..AcrossDatasetsOptions::default()
        };
        let result = stats::across_datasets::compare(&scores, &learners, &options).unwrap();
        assert_eq!(result.learners, learners);
        assert_eq!(result.n_datasets, scores.len());
        for (got, want) in result.ranks.iter().zip(matrix(&expected["ranks"])) {
            assert_eq!(got, &want, "{name} ranks");
        }
        for (got, want) in result
            .average_ranks
            .iter()
            .zip(floats(&expected["average_ranks"]))
        {
            assert_statistic(&format!("{name} average rank"), *got, want);
        }
        for (got, want) in result.means.iter().zip(floats(&expected["means"])) {
            assert_statistic(&format!("{name} mean"), *got, want);
        }
        let friedman = &result.friedman;
        let check = |label: &str, got: f64, key: &str| {
            assert_statistic(&format!("{name} {label}"), got, float(&expected[key]))
        };
        let check_p = |label: &str, got: f64, key: &str| {
            assert_pvalue(&format!("{name} {label}"), got, float(&expected[key]))
        };
        check("chi2", friedman.chi_square, "chi2");
        check_p("chi2 p", friedman.pvalue, "chi2_pvalue");
        check(
            "chi2 uncorrected",
            friedman.chi_square_uncorrected,
            "chi2_uncorrected",
        );
        check_p(
            "chi2 uncorrected p",
            friedman.pvalue_uncorrected,
            "chi2_uncorrected_pvalue",
        );
        check("F", friedman.iman_davenport_f, "iman_davenport_f");
        check_p(
            "F p",
            friedman.iman_davenport_pvalue,
            "iman_davenport_pvalue",
        );
        check(
            "F uncorrected",
            friedman.iman_davenport_f_uncorrected,
            "iman_davenport_f_uncorrected",
        );
        check_p(
            "F uncorrected p",
            friedman.iman_davenport_pvalue_uncorrected,
            "iman_davenport_pvalue_uncorrected",
        );
        // scipy's studentized_range.ppf is a numerical inversion (tolerance ~1e-9 relative).
        let q = float(&expected["nemenyi_q"]);
        assert!((result.nemenyi.q - q).abs() <= 1e-8 * q, "{name} q");
        let cd = float(&expected["nemenyi_cd"]);
        assert!(
            (result.nemenyi.critical_difference - cd).abs() <= 1e-8 * cd,
            "{name} cd"
        );
        for (got, want) in result
            .nemenyi
            .pvalues
            .iter()
            .zip(matrix(&expected["nemenyi_pvalues"]))
        {
            for (g, w) in got.iter().zip(want) {
                assert_pvalue(&format!("{name} nemenyi p"), *g, w);
            }
        }

        let control = &result.control;
        assert_eq!(control.control, input["control"].as_str().unwrap());
        assert_eq!(control.chosen, ControlChoice::Named);
        check("se", control.standard_error, "standard_error");
        check("BD q", control.bonferroni_dunn_q, "bonferroni_dunn_q");
        check(
            "BD cd",
            control.bonferroni_dunn_critical_difference,
            "bonferroni_dunn_cd",
        );
        let others = strings(&expected["control_others"]);
        let z = floats(&expected["control_z"]);
        let p = floats(&expected["control_pvalues"]);
        let holm_p = floats(&expected["holm_pvalues"]);
        let holm_reject = bools(&expected["holm_reject"]);
        let bonferroni_p = floats(&expected["bonferroni_dunn_pvalues"]);
        let bonferroni_reject = bools(&expected["bonferroni_dunn_reject"]);
        assert_eq!(control.comparisons.len(), others.len());
        for (index, comparison) in control.comparisons.iter().enumerate() {
            assert_eq!(result.learners[comparison.learner], others[index]);
            assert_statistic(&format!("{name} z"), comparison.z, z[index]);
            assert_pvalue(&format!("{name} p"), comparison.pvalue, p[index]);
            assert_pvalue(
                &format!("{name} holm"),
                comparison.holm_pvalue,
                holm_p[index],
            );
            assert_eq!(comparison.holm_reject, holm_reject[index], "{name}");
            assert_pvalue(
                &format!("{name} bonferroni"),
                comparison.bonferroni_dunn_pvalue,
                bonferroni_p[index],
            );
            assert_eq!(
                comparison.bonferroni_dunn_reject, bonferroni_reject[index],
                "{name}"
            );
        }
        assert_eq!(
            result.sign_test_critical_wins,
            expected["sign_test_critical_wins"].as_u64(),
            "{name}"
        );

        let pairs = expected["pairs"].as_array().unwrap();
        assert_eq!(result.pairs.len(), pairs.len());
        for (got, want) in result.pairs.iter().zip(pairs) {
            let label = format!("{name} {} vs {}", got.first, got.second);
            assert_eq!(got.first, want["first"].as_str().unwrap());
            assert_eq!(got.second, want["second"].as_str().unwrap());
            assert_statistic(&label, got.mean_difference, float(&want["mean_difference"]));
            assert_eq!(
                got.win_tie_loss.wins,
                want["wins"].as_u64().unwrap(),
                "{label}"
            );
            assert_eq!(
                got.win_tie_loss.ties,
                want["ties"].as_u64().unwrap(),
                "{label}"
            );
            assert_eq!(
                got.win_tie_loss.losses,
                want["losses"].as_u64().unwrap(),
                "{label}"
            );
            assert_pvalue(
                &label,
                got.sign_test.pvalue,
                float(&want["sign_test_pvalue"]),
            );
            assert_statistic(&label, got.wilcoxon.r_plus, float(&want["wilcoxon_r_plus"]));
            assert_pvalue(&label, got.wilcoxon.pvalue, float(&want["wilcoxon_pvalue"]));
            assert_pvalue(
                &label,
                got.wilcoxon_holm_pvalue,
                float(&want["wilcoxon_holm_pvalue"]),
            );
            assert_eq!(
                got.wilcoxon_holm_reject,
                want["wilcoxon_holm_reject"].as_bool().unwrap(),
                "{label}"
            );
            assert_pvalue(&label, got.nemenyi_pvalue, float(&want["nemenyi_pvalue"]));
            let samples = float(&want["bayesian_nsamples"]);
            let probabilities = got.bayesian_signed_rank.probabilities;
            assert_monte_carlo(
                &format!("{label} left"),
                probabilities.left,
                float(&want["bayesian_left"]),
                samples,
            );
            assert_monte_carlo(
                &format!("{label} rope"),
                probabilities.rope,
                float(&want["bayesian_rope"]),
                samples,
            );
            assert_monte_carlo(
                &format!("{label} right"),
                probabilities.right,
                float(&want["bayesian_right"]),
                samples,
            );
        }
    }
}

/// Demsar (2006), section 3.2.4: Table 6 with the tie on "voting" broken in favour of C4.5+cf,
/// as the paper's (unrounded) data do: its published average ranks follow only then.
#[test]
fn demsar_worked_example() {
    let mut scores = matrix(&load("across_datasets")["cases"][0]["input"]["scores"]);
    assert_eq!(scores[12], vec![0.972, 0.981, 0.975, 0.975]);
    scores[12][2] = 0.9751;
    scores[12][3] = 0.9749;
    let names = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"];
    let round = |value: f64, digits: i32| {
        let scale = 10f64.powi(digits);
        (value * scale).round() / scale
    };
    let options = AcrossDatasetsOptions {
        control: Some("C4.5".into()),
        ..AcrossDatasetsOptions::default()
    };
    let result = stats::across_datasets::compare(&scores, &names, &options).unwrap();
    let ranks: Vec<f64> = result.average_ranks.iter().map(|r| round(*r, 3)).collect();
    assert_eq!(ranks, vec![3.143, 2.000, 2.893, 1.964]);
    assert_eq!(round(result.friedman.chi_square_uncorrected, 2), 9.28);
    assert_eq!(round(result.friedman.iman_davenport_f_uncorrected, 2), 3.69);
    assert_eq!(result.friedman.iman_davenport_df, (3.0, 39.0));
    assert_eq!(result.nemenyi.q_demsar_table, Some(2.569));
    assert_eq!(
        round(result.nemenyi.critical_difference_demsar_table.unwrap(), 2),
        1.25
    );
    // "even the difference between the best and the worst is smaller than CD" at 0.05.
    assert_eq!(
        result.nemenyi.groups,
        vec![vec!["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]]
    );
    // Table 5(b): Bonferroni-Dunn q_0.05 for k = 4 is 2.394.
    assert_eq!(round(result.control.bonferroni_dunn_q, 3), 2.394);
    // Holm rejects C4.5+m+cf and C4.5+m against C4.5, Bonferroni-Dunn only C4.5+m+cf.
    let decisions: Vec<(&str, bool, bool)> = result
        .control
        .comparisons
        .iter()
        .map(|c| (names[c.learner], c.holm_reject, c.bonferroni_dunn_reject))
        .collect();
    assert_eq!(
        decisions,
        vec![
            ("C4.5+m", true, false),
            ("C4.5+cf", false, false),
            ("C4.5+m+cf", true, true)
        ]
    );
    // At 0.10 (CD 1.12): C4.5 is worse than C4.5+m and C4.5+m+cf; C4.5+cf joins both groups.
    let at_010 = stats::across_datasets::compare(
        &scores,
        &names,
        &AcrossDatasetsOptions {
            alpha: 0.10,
            ..options.clone()
        },
    )
    .unwrap();
    assert_eq!(
        round(at_010.nemenyi.critical_difference_demsar_table.unwrap(), 2),
        1.12
    );
    assert_eq!(
        at_010.nemenyi.groups,
        vec![
            vec!["C4.5+m+cf", "C4.5+m", "C4.5+cf"],
            vec!["C4.5+cf", "C4.5"]
        ]
    );
}

#[test]
fn lower_is_better_mirrors_higher_is_better() {
    let scores = [
        [0.1, 0.2, 0.3],
        [0.15, 0.1, 0.4],
        [0.2, 0.25, 0.22],
        [0.05, 0.3, 0.1],
    ];
    let negated: Vec<Vec<f64>> = scores
        .iter()
        .map(|row| row.iter().map(|v| -v).collect())
        .collect();
    let names = ["a", "b", "c"];
    let lower = AcrossDatasetsOptions {
        higher_is_better: false,
        bayesian_samples: 2000,
        ..AcrossDatasetsOptions::default()
    };
    let higher = AcrossDatasetsOptions {
        higher_is_better: true,
        ..lower.clone()
    };
    let on_errors = stats::across_datasets::compare(&scores, &names, &lower).unwrap();
    let on_negated = stats::across_datasets::compare(&negated, &names, &higher).unwrap();
    assert_eq!(on_errors.average_ranks, on_negated.average_ranks);
    assert_eq!(on_errors.average_ranks[0], 1.25);
    assert_eq!(on_errors.control.control, "a");
    assert_eq!(on_errors.control.chosen, ControlChoice::FirstLearner);
    for (e, n) in on_errors.pairs.iter().zip(&on_negated.pairs) {
        assert_eq!(e.win_tie_loss, n.win_tie_loss);
        assert_eq!(e.bayesian_signed_rank, n.bayesian_signed_rank);
        assert_eq!(e.wilcoxon.pvalue, n.wilcoxon.pvalue);
    }
    // a beats b on 3 of 4 data sets (lower error).
    assert_eq!(on_errors.pairs[0].win_tie_loss.wins, 3);
}

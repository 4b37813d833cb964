//! `across_datasets::compare` against a second reference set of scipy, scikit-posthocs,
//! statsmodels and baycomp values (`reference/across_datasets_tables_reference.py` wrote
//! `tests/data/across_datasets_tables.json`): tables with lower-is-better measures, ties, an
//! odd number of ties in a pair (Demsar's sign-test critical value on N - 1), rope 0, and 55
//! data sets (Wilcoxon's normal approximation).

mod common;
use common::{cases, float, floats, matrix};
use stats::across_datasets::{compare, AcrossDatasetsOptions};

/// |got - expected| <= tolerance x max(1, |expected|).
fn close(what: &str, got: f64, expected: f64, tolerance: f64) {
    assert!(
        (got - expected).abs() <= tolerance * expected.abs().max(1.0),
        "{what}: got {got:e}, expected {expected:e} (tolerance {tolerance:e})"
    );
}

#[test]
fn every_statistic_matches_outside_software() {
    for case in cases("across_datasets_tables") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let learners: Vec<String> = input["learners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect();
        let values = matrix(&input["values"]);
        assert_eq!(values.len(), input["datasets"].as_array().unwrap().len());
        let options = AcrossDatasetsOptions {
            control: Some(learners[input["control"].as_u64().unwrap() as usize].clone()),
            alpha: float(&input["alpha"]),
            rope: float(&input["rope"]),
            higher_is_better: !input["lower_is_better"].as_bool().unwrap(),
            seed: 1,
            measure: name.to_string(),
            ..AcrossDatasetsOptions::default()
        };
        let result = compare(&values, &learners, &options).unwrap();
        let exact = 1e-9;
        for (d, row) in expected["ranks"].as_array().unwrap().iter().enumerate() {
            for (l, rank) in floats(row).into_iter().enumerate() {
                close(
                    &format!("{name} rank [{d}][{l}]"),
                    result.ranks[d][l],
                    rank,
                    exact,
                );
            }
        }
        for (l, rank) in floats(&expected["average_ranks"]).into_iter().enumerate() {
            close(
                &format!("{name} average rank {l}"),
                result.average_ranks[l],
                rank,
                exact,
            );
        }
        let friedman = &expected["friedman"];
        close(
            &format!("{name} chi2"),
            result.friedman.chi_square,
            float(&friedman["chi_square"]),
            exact,
        );
        close(
            &format!("{name} df"),
            result.friedman.df,
            float(&friedman["df"]),
            exact,
        );
        close(
            &format!("{name} friedman p"),
            result.friedman.pvalue,
            float(&friedman["pvalue"]),
            exact,
        );
        close(
            &format!("{name} F"),
            result.friedman.iman_davenport_f,
            float(&friedman["iman_davenport_f"]),
            exact,
        );
        let df = floats(&friedman["iman_davenport_df"]);
        assert_eq!(result.friedman.iman_davenport_df, (df[0], df[1]), "{name}");
        close(
            &format!("{name} F p"),
            result.friedman.iman_davenport_pvalue,
            float(&friedman["iman_davenport_pvalue"]),
            exact,
        );
        assert_eq!(
            result.friedman.reject,
            friedman["reject"].as_bool().unwrap(),
            "{name}"
        );
        let nemenyi = &expected["nemenyi"];
        close(
            &format!("{name} q"),
            result.nemenyi.q,
            float(&nemenyi["q"]),
            exact,
        );
        close(
            &format!("{name} CD"),
            result.nemenyi.critical_difference,
            float(&nemenyi["critical_difference"]),
            exact,
        );
        for (i, row) in nemenyi["pvalues"].as_array().unwrap().iter().enumerate() {
            for (j, p) in floats(row).into_iter().enumerate() {
                close(
                    &format!("{name} nemenyi p[{i}][{j}]"),
                    result.nemenyi.pvalues[i][j],
                    p,
                    exact,
                );
            }
        }
        let control = &expected["control"];
        assert_eq!(
            result.control.control_index,
            control["learner"].as_u64().unwrap() as usize
        );
        close(
            &format!("{name} Bonferroni-Dunn CD"),
            result.control.bonferroni_dunn_critical_difference,
            float(&control["bonferroni_dunn_critical_difference"]),
            exact,
        );
        let rows = control["rows"].as_array().unwrap();
        assert_eq!(result.control.comparisons.len(), rows.len(), "{name}");
        for (got, want) in result.control.comparisons.iter().zip(rows) {
            let what = format!("{name} control vs {}", got.learner);
            assert_eq!(
                got.learner,
                want["learner"].as_u64().unwrap() as usize,
                "{what}"
            );
            close(
                &format!("{what} difference"),
                got.rank_difference,
                float(&want["rank_difference"]),
                exact,
            );
            close(&format!("{what} z"), got.z, float(&want["z"]), exact);
            close(
                &format!("{what} p"),
                got.pvalue,
                float(&want["pvalue"]),
                exact,
            );
            close(
                &format!("{what} Holm p"),
                got.holm_pvalue,
                float(&want["holm_pvalue"]),
                exact,
            );
            close(
                &format!("{what} Bonferroni-Dunn p"),
                got.bonferroni_dunn_pvalue,
                float(&want["bonferroni_dunn_pvalue"]),
                exact,
            );
            assert_eq!(
                got.holm_reject,
                want["holm_reject"].as_bool().unwrap(),
                "{what}"
            );
            assert_eq!(
                got.bonferroni_dunn_reject,
                want["bonferroni_dunn_reject"].as_bool().unwrap(),
                "{what}"
            );
        }
        let pairs = expected["pairs"].as_array().unwrap();
        assert_eq!(result.pairs.len(), pairs.len(), "{name}");
        let monte_carlo = float(&expected["bayesian_tolerance"]);
        for (got, want) in result.pairs.iter().zip(pairs) {
            let what = format!("{name} pair {}-{}", got.first, got.second);
            assert_eq!(
                (got.first.as_str(), got.second.as_str()),
                (
                    learners[want["a"].as_u64().unwrap() as usize].as_str(),
                    learners[want["b"].as_u64().unwrap() as usize].as_str()
                )
            );
            let count = got.win_tie_loss;
            assert_eq!(
                (count.wins, count.ties, count.losses),
                (
                    want["wins"].as_u64().unwrap(),
                    want["ties"].as_u64().unwrap(),
                    want["losses"].as_u64().unwrap()
                ),
                "{what}"
            );
            close(
                &format!("{what} sign p"),
                got.sign_test.pvalue,
                float(&want["sign_pvalue"]),
                exact,
            );
            assert_eq!(
                got.sign_test_critical_wins,
                want["sign_wins_needed"].as_u64(),
                "{what}"
            );
            assert_eq!(
                got.sign_test_demsar_reject,
                want["sign_reject"].as_bool().unwrap(),
                "{what}"
            );
            close(
                &format!("{what} W"),
                got.wilcoxon.statistic,
                float(&want["wilcoxon_statistic"]),
                exact,
            );
            close(
                &format!("{what} Wilcoxon p"),
                got.wilcoxon.pvalue,
                float(&want["wilcoxon_pvalue"]),
                exact,
            );
            close(
                &format!("{what} Wilcoxon Holm p"),
                got.wilcoxon_holm_pvalue,
                float(&want["wilcoxon_holm_pvalue"]),
                exact,
            );
            assert_eq!(
                got.wilcoxon_holm_reject,
                want["wilcoxon_holm_reject"].as_bool().unwrap(),
                "{what}"
            );
            close(
                &format!("{what} Nemenyi p"),
                got.nemenyi_pvalue,
                float(&want["nemenyi_pvalue"]),
                exact,
            );
            let bayesian = &want["bayesian"];
            let got = got.bayesian_signed_rank.probabilities;
            close(
                &format!("{what} P(b better)"),
                got.left,
                float(&bayesian["b_better"]),
                monte_carlo,
            );
            close(
                &format!("{what} P(equivalent)"),
                got.rope,
                float(&bayesian["equivalent"]),
                monte_carlo,
            );
            close(
                &format!("{what} P(a better)"),
                got.right,
                float(&bayesian["a_better"]),
                monte_carlo,
            );
        }
    }
}

//! Every across-dataset statistic against scipy, scikit-posthocs, statsmodels and baycomp
//! (`tests/data/across_datasets_reference.py` wrote `tests/data/across_datasets.json`).

use comparison::across::{compare, CompareOptions, ScoreTable};
use serde_json::Value;

fn load() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/across_datasets.json"
    );
    let text = std::fs::read_to_string(path).expect("reference file");
    let json: Value = serde_json::from_str(&text).expect("reference JSON");
    json["cases"].as_array().expect("cases").clone()
}

fn number(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .expect("array")
        .iter()
        .map(number)
        .collect()
}

/// |got - expected| <= tolerance x max(1, |expected|).
fn close(what: &str, got: f64, expected: f64, tolerance: f64) {
    assert!(
        (got - expected).abs() <= tolerance * expected.abs().max(1.0),
        "{what}: got {got:e}, expected {expected:e} (tolerance {tolerance:e})"
    );
}

#[test]
fn every_statistic_matches_outside_software() {
    for case in load() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let table = ScoreTable {
            measure: name.to_string(),
            lower_is_better: input["lower_is_better"].as_bool().unwrap(),
            datasets: input["datasets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_str().unwrap().to_string())
                .collect(),
            learners: input["learners"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap().to_string())
                .collect(),
            values: input["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(numbers)
                .collect(),
        };
        let options = CompareOptions {
            alpha: number(&input["alpha"]),
            control: input["control"].as_u64().unwrap() as usize,
            rope: number(&input["rope"]),
            wilcoxon_correction: false,
            samples: CompareOptions::DEFAULT_SAMPLES,
            seed: 1,
        };
        let result = compare(&table, &options).unwrap();
        let exact = 1e-9;
        for (d, row) in expected["ranks"].as_array().unwrap().iter().enumerate() {
            for (l, rank) in numbers(row).into_iter().enumerate() {
                close(
                    &format!("{name} rank [{d}][{l}]"),
                    result.ranks[d][l],
                    rank,
                    exact,
                );
            }
        }
        for (l, rank) in numbers(&expected["average_ranks"]).into_iter().enumerate() {
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
            number(&friedman["chi_square"]),
            exact,
        );
        close(
            &format!("{name} df"),
            result.friedman.df,
            number(&friedman["df"]),
            exact,
        );
        close(
            &format!("{name} friedman p"),
            result.friedman.pvalue,
            number(&friedman["pvalue"]),
            exact,
        );
        close(
            &format!("{name} F"),
            result.friedman.iman_davenport_f,
            number(&friedman["iman_davenport_f"]),
            exact,
        );
        let df = numbers(&friedman["iman_davenport_df"]);
        assert_eq!(result.friedman.iman_davenport_df, (df[0], df[1]), "{name}");
        close(
            &format!("{name} F p"),
            result.friedman.iman_davenport_pvalue,
            number(&friedman["iman_davenport_pvalue"]),
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
            number(&nemenyi["q"]),
            exact,
        );
        close(
            &format!("{name} CD"),
            result.nemenyi.critical_difference,
            number(&nemenyi["critical_difference"]),
            exact,
        );
        for (i, row) in nemenyi["pvalues"].as_array().unwrap().iter().enumerate() {
            for (j, p) in numbers(row).into_iter().enumerate() {
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
            result.control.learner,
            control["learner"].as_u64().unwrap() as usize
        );
        close(
            &format!("{name} Bonferroni-Dunn CD"),
            result.control.bonferroni_dunn_critical_difference,
            number(&control["bonferroni_dunn_critical_difference"]),
            exact,
        );
        let rows = control["rows"].as_array().unwrap();
        assert_eq!(result.control.rows.len(), rows.len(), "{name}");
        for (got, want) in result.control.rows.iter().zip(rows) {
            let what = format!("{name} control vs {}", got.learner);
            assert_eq!(
                got.learner,
                want["learner"].as_u64().unwrap() as usize,
                "{what}"
            );
            close(
                &format!("{what} difference"),
                got.rank_difference,
                number(&want["rank_difference"]),
                exact,
            );
            close(&format!("{what} z"), got.z, number(&want["z"]), exact);
            close(
                &format!("{what} p"),
                got.pvalue,
                number(&want["pvalue"]),
                exact,
            );
            close(
                &format!("{what} Holm p"),
                got.holm_pvalue,
                number(&want["holm_pvalue"]),
                exact,
            );
            close(
                &format!("{what} Bonferroni-Dunn p"),
                got.bonferroni_dunn_pvalue,
                number(&want["bonferroni_dunn_pvalue"]),
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
        let monte_carlo = number(&expected["bayesian_tolerance"]);
        for (got, want) in result.pairs.iter().zip(pairs) {
            let what = format!("{name} pair {}-{}", got.a, got.b);
            assert_eq!(
                (got.a, got.b),
                (
                    want["a"].as_u64().unwrap() as usize,
                    want["b"].as_u64().unwrap() as usize
                )
            );
            assert_eq!(
                (got.wins, got.ties, got.losses),
                (
                    want["wins"].as_u64().unwrap(),
                    want["ties"].as_u64().unwrap(),
                    want["losses"].as_u64().unwrap()
                ),
                "{what}"
            );
            close(
                &format!("{what} sign p"),
                got.sign_pvalue,
                number(&want["sign_pvalue"]),
                exact,
            );
            assert_eq!(
                got.sign_wins_needed,
                want["sign_wins_needed"].as_u64(),
                "{what}"
            );
            assert_eq!(
                got.sign_reject,
                want["sign_reject"].as_bool().unwrap(),
                "{what}"
            );
            close(
                &format!("{what} W"),
                got.wilcoxon_statistic,
                number(&want["wilcoxon_statistic"]),
                exact,
            );
            close(
                &format!("{what} Wilcoxon p"),
                got.wilcoxon_pvalue,
                number(&want["wilcoxon_pvalue"]),
                exact,
            );
            close(
                &format!("{what} Wilcoxon Holm p"),
                got.wilcoxon_holm_pvalue,
                number(&want["wilcoxon_holm_pvalue"]),
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
                number(&want["nemenyi_pvalue"]),
                exact,
            );
            let bayesian = &want["bayesian"];
            close(
                &format!("{what} P(b better)"),
                got.bayesian.b_better,
                number(&bayesian["b_better"]),
                monte_carlo,
            );
            close(
                &format!("{what} P(equivalent)"),
                got.bayesian.equivalent,
                number(&bayesian["equivalent"]),
                monte_carlo,
            );
            close(
                &format!("{what} P(a better)"),
                got.bayesian.a_better,
                number(&bayesian["a_better"]),
                monte_carlo,
            );
        }
    }
}

#[test]
fn nemenyi_groups_join_runs_closer_than_the_critical_difference() {
    // Ranks 1.0, 1.5, 2.6, 3.9 with CD 1.2: {0, 1} (1.5 - 1.0 < 1.2; 2.6 - 1.0 > 1.2),
    // {1, 2} (2.6 - 1.5 = 1.1), and 3 alone (3.9 - 2.6 = 1.3).
    let groups = comparison::across::nemenyi_groups(&[1.5, 1.0, 3.9, 2.6], 1.2);
    assert_eq!(groups, vec![vec![1, 0], vec![0, 3]]);
}

#[test]
fn a_table_that_cannot_be_compared_names_the_problem() {
    let table = ScoreTable {
        measure: "error".into(),
        lower_is_better: true,
        datasets: vec!["a".into(), "b".into()],
        learners: vec!["x".into(), "y".into()],
        values: vec![vec![0.1, 0.2], vec![0.3, f64::NAN]],
    };
    let options = CompareOptions {
        alpha: 0.05,
        control: 0,
        rope: 0.01,
        wilcoxon_correction: false,
        samples: 100,
        seed: 1,
    };
    let message = compare(&table, &options).unwrap_err().to_string();
    assert!(message.contains("'y' on 'b' is not finite"), "{message}");
}

//! Quade's test (against R's `quade.test`, Conover's worked example among the cases) with
//! Conover's post-hoc t-test (scikit-posthocs) and Garcia et al.'s z-test, and the Friedman
//! aligned-ranks test with its post-hoc test (numpy), from
//! `reference/rank_tests_reference.py` -> `tests/data/rank_tests.json`.

mod common;
use common::{assert_pvalue, assert_statistic, cases, float, floats, matrix};
use stats::aligned_ranks::{friedman_aligned_ranks_posthoc, friedman_aligned_ranks_test};
use stats::quade::{quade_posthoc_t, quade_posthoc_z, quade_test};

/// |got - expected| <= 1e-10 max(1, |expected|): sums of ranks carry rounding.
fn close(what: &str, got: f64, expected: f64) {
    assert!(
        (got - expected).abs() <= 1e-10 * expected.abs().max(1.0),
        "{what}: got {got:e}, expected {expected:e}"
    );
}

#[test]
fn quade_matches_r_and_scikit_posthocs() {
    for case in cases("rank_tests") {
        let name = case["name"].as_str().unwrap();
        let scores = matrix(&case["input"]["scores"]);
        let alpha = float(&case["input"]["alpha"]);
        let expected = &case["expected"]["quade"];
        let result = quade_test(&scores, alpha).unwrap();
        let statistic = float(&expected["statistic"]);
        if statistic.is_infinite() {
            assert_eq!(result.statistic, f64::INFINITY, "{name}");
        } else {
            close(&format!("{name} F"), result.statistic, statistic);
        }
        let df = floats(&expected["df"]);
        assert_eq!((result.df.0, result.df.1), (df[0], df[1]), "{name} df");
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["pvalue"]),
        );
        assert_eq!(result.reject, float(&expected["pvalue"]) <= alpha);
        close(&format!("{name} A"), result.a, float(&expected["a"]));
        close(&format!("{name} B"), result.b, float(&expected["b"]));
        for (field, got) in [
            ("dataset_weights", &result.dataset_weights),
            ("weighted_rank_sums", &result.weighted_rank_sums),
            ("average_weighted_ranks", &result.average_weighted_ranks),
        ] {
            for (index, want) in floats(&expected[field]).into_iter().enumerate() {
                close(&format!("{name} {field}[{index}]"), got[index], want);
            }
        }
        if !expected["posthoc_t_pvalues"].is_null() {
            let posthoc = quade_posthoc_t(&result);
            for (index, want) in floats(&expected["posthoc_t_pvalues"])
                .into_iter()
                .enumerate()
            {
                assert_pvalue(&format!("{name} t [{index}]"), posthoc.pvalues[index], want);
            }
        }
        let posthoc = quade_posthoc_z(&result);
        for (index, want) in floats(&expected["posthoc_z_pvalues"])
            .into_iter()
            .enumerate()
        {
            assert_pvalue(&format!("{name} z [{index}]"), posthoc.pvalues[index], want);
        }
    }
}

#[test]
fn conovers_worked_example() {
    // Conover (1999) p. 375f prints T = 3.83 for the hand-lotion data, p about 0.015.
    let case = &cases("rank_tests")[0];
    let result = quade_test(&matrix(&case["input"]["scores"]), 0.05).unwrap();
    assert!((result.statistic - 3.83).abs() < 0.005);
    assert!((result.pvalue - 0.0152).abs() < 0.0001);
}

#[test]
fn aligned_ranks_match_numpy() {
    for case in cases("rank_tests") {
        let name = case["name"].as_str().unwrap();
        let scores = matrix(&case["input"]["scores"]);
        let expected = &case["expected"]["aligned_ranks"];
        let result = friedman_aligned_ranks_test(&scores, 0.05).unwrap();
        assert_statistic(&format!("{name} df"), result.df, float(&expected["df"]));
        close(
            &format!("{name} T"),
            result.statistic,
            float(&expected["statistic"]),
        );
        assert_pvalue(
            &format!("{name} p"),
            result.pvalue,
            float(&expected["pvalue"]),
        );
        for (index, want) in floats(&expected["average_aligned_ranks"])
            .into_iter()
            .enumerate()
        {
            close(
                &format!("{name} rank[{index}]"),
                result.average_aligned_ranks[index],
                want,
            );
        }
        let posthoc = friedman_aligned_ranks_posthoc(&result);
        for (index, want) in floats(&expected["posthoc_z_pvalues"])
            .into_iter()
            .enumerate()
        {
            assert_pvalue(&format!("{name} z [{index}]"), posthoc.pvalues[index], want);
        }
    }
}

#[test]
fn degenerate_tables_are_errors_or_defined() {
    assert!(quade_test(&[[1.0, 2.0]], 0.05).is_err());
    assert!(quade_test(&[[1.0, f64::NAN], [1.0, 2.0]], 0.05).is_err());
    let tied = quade_test(&[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], 0.05).unwrap();
    assert_eq!((tied.statistic, tied.pvalue), (0.0, 1.0));
    let flat = friedman_aligned_ranks_test(&[[1.0, 1.0], [2.0, 2.0]], 0.05).unwrap();
    assert_eq!((flat.statistic, flat.pvalue), (0.0, 1.0));
    let huge = quade_test(&[[1e300, -1e300], [-1e300, 1e300], [0.0, 1.0]], 0.05);
    assert!(huge.is_ok());
    let near_max = friedman_aligned_ranks_test(&[[f64::MAX, -f64::MAX], [1.0, 2.0]], 0.05).unwrap();
    assert!(near_max.statistic.is_finite());
}

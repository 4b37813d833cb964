//! Bayesian tests against baycomp 1.0.3 (tests/data/bayesian.json, made by
//! reference/bayesian_reference.py).

mod common;
use common::*;
use stats::*;

#[test]
fn correlated_t_test_matches_baycomp() {
    let root = load("bayesian");
    for case in root["correlated_t"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let result = correlated_bayesian_t_test(
            &floats(&input["a"]),
            &floats(&input["b"]),
            float(&input["rope"]),
            input["runs"].as_u64().unwrap() as usize,
        )
        .unwrap();
        assert_statistic(
            &format!("{name} mean"),
            result.mean,
            float(&expected["mean"]),
        );
        assert_statistic(
            &format!("{name} variance"),
            result.variance,
            float(&expected["variance"]),
        );
        assert_eq!(result.df, float(&expected["df"]), "{name}");
        let p = result.probabilities;
        assert_pvalue(&format!("{name} left"), p.left, float(&expected["left"]));
        assert_pvalue(&format!("{name} rope"), p.rope, float(&expected["rope"]));
        assert_pvalue(&format!("{name} right"), p.right, float(&expected["right"]));
    }
}

#[test]
fn signed_rank_test_matches_baycomp_within_monte_carlo_error() {
    let root = load("bayesian");
    for case in root["signed_rank"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let samples = expected["nsamples"].as_u64().unwrap() as usize;
        let result = bayesian_signed_rank_test(
            &floats(&input["a"]),
            &floats(&input["b"]),
            float(&input["rope"]),
            float(&input["prior"]),
            samples,
            42,
        )
        .unwrap();
        let n = samples as f64;
        let p = result.probabilities;
        assert_monte_carlo(&format!("{name} left"), p.left, float(&expected["left"]), n);
        assert_monte_carlo(&format!("{name} rope"), p.rope, float(&expected["rope"]), n);
        assert_monte_carlo(
            &format!("{name} right"),
            p.right,
            float(&expected["right"]),
            n,
        );
        let means = floats(&expected["mean_sample"]);
        let m = result.mean_probabilities;
        for (label, got, want) in [
            ("left", m.left, means[0]),
            ("rope", m.rope, means[1]),
            ("right", m.right, means[2]),
        ] {
            assert!(
                (got - want).abs() <= 0.005,
                "{name} mean {label}: got {got}, baycomp {want}"
            );
        }
    }
}

#[test]
fn signed_rank_is_reproducible_and_checks_input() {
    let a = [0.8, 0.7, 0.9, 0.65];
    let b = [0.78, 0.71, 0.85, 0.6];
    let first = bayesian_signed_rank_test(&a, &b, 0.01, 0.5, 2000, 7).unwrap();
    let second = bayesian_signed_rank_test(&a, &b, 0.01, 0.5, 2000, 7).unwrap();
    assert_eq!(first, second);
    assert!(matches!(
        bayesian_signed_rank_test(&[], &[], 0.01, 0.5, 10, 1),
        Err(StatsError::TooFew { .. })
    ));
    assert!(matches!(
        bayesian_signed_rank_test(&a, &b, -0.1, 0.5, 10, 1),
        Err(StatsError::OutOfRange { name: "rope", .. })
    ));
    assert!(matches!(
        bayesian_signed_rank_test(&a, &b, 0.01, 0.0, 10, 1),
        Err(StatsError::OutOfRange { name: "prior", .. })
    ));
    assert!(matches!(
        bayesian_signed_rank_test(&a, &b, 0.01, 0.5, 0, 1),
        Err(StatsError::OutOfRange {
            name: "samples",
            ..
        })
    ));
    assert!(matches!(
        correlated_bayesian_t_test(&a, &b, 0.01, 3),
        Err(StatsError::OutOfRange { name: "runs", .. })
    ));
    assert!(matches!(
        correlated_bayesian_t_test(&a[..1], &b[..1], 0.01, 1),
        Err(StatsError::TooFew { .. })
    ));
    assert!(matches!(
        correlated_bayesian_t_test(&[f64::NAN, 0.1], &[0.1, 0.2], 0.01, 1),
        Err(StatsError::NonFinite { .. })
    ));
}

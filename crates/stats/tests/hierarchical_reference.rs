//! The native Gibbs sampler of the hierarchical Bayesian correlated t-test against Stan's NUTS
//! on baycomp's own model file (`reference/hierarchical_reference.py` ->
//! `tests/data/hierarchical.json`): two Monte Carlo estimates of the same posterior, compared
//! within the tolerance each case states; and our chains must pass their own convergence
//! checks.

mod common;
use common::{cases, float, matrix};
use stats::bayesian::RegionProbabilities;
use stats::hierarchical::{hierarchical_t_test, HierarchicalOptions};

fn regions(value: &serde_json::Value) -> [f64; 3] {
    let v = common::floats(value);
    [v[0], v[1], v[2]]
}

fn close_regions(what: &str, got: &RegionProbabilities, want: [f64; 3], tolerance: f64) {
    let got = [got.left, got.rope, got.right];
    for (index, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tolerance,
            "{what} region {index}: ours {got:?}, Stan {want:?} (tolerance {tolerance})"
        );
    }
}

#[test]
fn gibbs_matches_stan_on_baycomps_model() {
    for case in cases("hierarchical") {
        let name = case["name"].as_str().unwrap();
        let differences = matrix(&case["input"]["differences"]);
        let expected = &case["expected"];
        let tolerance = float(&expected["tolerance"]);
        let options = HierarchicalOptions {
            rope: float(&case["input"]["rope"]),
            correlation: float(&case["input"]["correlation"]),
            seed: 7,
            ..HierarchicalOptions::default()
        };
        let result = hierarchical_t_test(&differences, &options).unwrap();
        assert!(
            result.converged,
            "{name}: R-hat {} ESS {}",
            result.max_rhat, result.min_effective_sample_size
        );
        close_regions(
            &format!("{name} probabilities"),
            &result.probabilities,
            regions(&expected["probabilities"]),
            tolerance,
        );
        close_regions(
            &format!("{name} mean"),
            &result.mean_probabilities,
            regions(&expected["mean_probabilities"]),
            tolerance,
        );
        close_regions(
            &format!("{name} delta0"),
            &result.delta0_probabilities,
            regions(&expected["delta0_probabilities"]),
            tolerance,
        );
        let spread: f64 = differences
            .iter()
            .map(|row| {
                let m = row.iter().sum::<f64>() / row.len() as f64;
                (row.iter().map(|v| (v - m).powi(2)).sum::<f64>() / row.len() as f64).sqrt()
            })
            .sum::<f64>()
            / differences.len() as f64;
        let mean_tolerance = 0.05 * spread;
        let delta0 = float(&expected["delta0_mean"]);
        assert!(
            (result.delta0_mean - delta0).abs() <= mean_tolerance,
            "{name} delta0 mean {} vs {delta0}",
            result.delta0_mean
        );
        for (index, dataset) in expected["datasets"].as_array().unwrap().iter().enumerate() {
            let ours = &result.datasets[index];
            close_regions(
                &format!("{name} data set {index}"),
                &ours.probabilities,
                regions(&dataset["probabilities"]),
                tolerance,
            );
            let mean = float(&dataset["posterior_mean"]);
            assert!(
                (ours.posterior_mean - mean).abs() <= mean_tolerance,
                "{name} delta[{index}] {} vs {mean}",
                ours.posterior_mean
            );
        }
    }
}

#[test]
fn same_seed_same_draws_and_bad_input_is_an_error() {
    let differences = vec![vec![0.01, 0.02, 0.0, 0.015], vec![-0.01, 0.0, 0.005, 0.002]];
    let options = HierarchicalOptions {
        warmup: 50,
        samples: 100,
        ..HierarchicalOptions::default()
    };
    let first = hierarchical_t_test(&differences, &options).unwrap();
    assert_eq!(first, hierarchical_t_test(&differences, &options).unwrap());
    assert!(hierarchical_t_test(&differences[..1], &options).is_err());
    assert!(hierarchical_t_test(&[vec![0.1, f64::NAN], vec![0.1, 0.2]], &options).is_err());
    let zero = HierarchicalOptions {
        rope: 0.0,
        ..options.clone()
    };
    assert!(hierarchical_t_test(&[vec![0.0, 0.0], vec![0.0, 0.0]], &zero).is_err());
    let bad = HierarchicalOptions {
        correlation: 1.0,
        ..options.clone()
    };
    assert!(hierarchical_t_test(&differences, &bad).is_err());
    // A data set of constant differences is filled deterministically, not an error.
    let constant = vec![vec![0.02; 5], vec![0.01, 0.03, 0.0, 0.02, 0.01]];
    assert!(hierarchical_t_test(&constant, &options).is_ok());
    let huge = vec![vec![1e300, -1e300, 0.0], vec![1.0, 2.0, 3.0]];
    assert!(hierarchical_t_test(&huge, &options).is_ok());
}

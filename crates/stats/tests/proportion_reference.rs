//! Binomial proportion intervals against statsmodels (tests/data/binomial_ci.json).

mod common;
use common::*;
use stats::{normal_interval, normal_quantile, wilson_interval, StatsError};

#[test]
fn binomial_ci_vectors() {
    for case in cases("binomial_ci") {
        let name = case["name"].as_str().unwrap();
        let input = &case["input"];
        let expected = &case["expected"];
        let (count, nobs, alpha) = (
            float(&input["count"]),
            float(&input["nobs"]),
            float(&input["alpha"]),
        );
        assert_pvalue(
            &format!("{name} z"),
            -normal_quantile(alpha / 2.0),
            float(&expected["z"]),
        );
        let normal = normal_interval(count, nobs, alpha).unwrap();
        assert_statistic(
            &format!("{name} normal_low"),
            normal.low,
            float(&expected["normal_low"]),
        );
        assert_statistic(
            &format!("{name} normal_high"),
            normal.high,
            float(&expected["normal_high"]),
        );
        let wilson = wilson_interval(count, nobs, alpha).unwrap();
        assert_statistic(
            &format!("{name} wilson_low"),
            wilson.low,
            float(&expected["wilson_low"]),
        );
        assert_statistic(
            &format!("{name} wilson_high"),
            wilson.high,
            float(&expected["wilson_high"]),
        );
    }
}

#[test]
fn proportion_rejects_bad_parameters() {
    assert!(matches!(
        normal_interval(5.0, 0.0, 0.05),
        Err(StatsError::OutOfRange { name: "nobs", .. })
    ));
    assert!(matches!(
        wilson_interval(11.0, 10.0, 0.05),
        Err(StatsError::OutOfRange { name: "count", .. })
    ));
    assert!(matches!(
        wilson_interval(f64::NAN, 10.0, 0.05),
        Err(StatsError::OutOfRange { name: "count", .. })
    ));
    assert!(matches!(
        normal_interval(5.0, 10.0, 1.0),
        Err(StatsError::OutOfRange { name: "alpha", .. })
    ));
}

#[test]
fn normal_quantile_edges_and_known_values() {
    // Edge conventions; interior values are checked against mpmath in distributions_reference.rs.
    assert_eq!(normal_quantile(0.5), 0.0);
    assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
    assert_eq!(normal_quantile(1.0), f64::INFINITY);
    assert!(normal_quantile(-0.1).is_nan());
    assert!(normal_quantile(f64::NAN).is_nan());
}

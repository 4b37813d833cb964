//! Shared helpers for the reference-vector tests: loading the JSON files copied from the
//! shared test vectors and comparing at the tolerances of tests/data/README.md.
#![allow(dead_code)]

use serde_json::Value;

/// Loads `tests/data/<name>.json`.
pub fn load(name: &str) -> Value {
    let path = format!("{}/tests/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Loads `tests/data/<name>.json` and returns its cases.
pub fn cases(name: &str) -> Vec<Value> {
    load(name)["cases"].as_array().expect("cases array").clone()
}

/// Reads a float, accepting the strings "inf", "-inf", "nan".
pub fn float(value: &Value) -> f64 {
    match value {
        Value::String(s) => match s.as_str() {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" => f64::NAN,
            other => panic!("not a float: {other}"),
        },
        other => other
            .as_f64()
            .unwrap_or_else(|| panic!("not a float: {other}")),
    }
}

/// Reads an array of floats.
pub fn floats(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(float)
        .collect()
}

/// Reads a matrix of floats.
pub fn matrix(value: &Value) -> Vec<Vec<f64>> {
    value
        .as_array()
        .expect("matrix")
        .iter()
        .map(floats)
        .collect()
}

/// Statistic tolerance: |got - exp| <= max(1e-15, 1e-12 |exp|); infinities must match.
pub fn assert_statistic(context: &str, got: f64, expected: f64) {
    if expected.is_infinite() || expected.is_nan() {
        assert!(
            got == expected || (got.is_nan() && expected.is_nan()),
            "{context}: got {got}, expected {expected}"
        );
        return;
    }
    let tolerance = (1e-12 * expected.abs()).max(1e-15);
    assert!(
        (got - expected).abs() <= tolerance,
        "{context}: got {got:e}, expected {expected:e}, diff {:e}",
        (got - expected).abs()
    );
}

/// p-value tolerance: |got - exp| <= 1e-9 |exp| or <= 1e-12.
pub fn assert_pvalue(context: &str, got: f64, expected: f64) {
    let diff = (got - expected).abs();
    assert!(
        diff <= 1e-9 * expected.abs() || diff <= 1e-12,
        "{context}: got {got:e}, expected {expected:e}, diff {diff:e}"
    );
}

/// Two independent Monte Carlo estimates of one probability (ours and baycomp's, `samples`
/// each) agree within 5 standard errors of their difference, plus a small floor for
/// probabilities at 0 or 1.
pub fn assert_monte_carlo(context: &str, got: f64, expected: f64, samples: f64) {
    let p = 0.5 * (got + expected);
    let se = (p * (1.0 - p) * 2.0 / samples).sqrt();
    assert!(
        (got - expected).abs() <= 5.0 * se + 2e-4,
        "{context}: got {got}, baycomp {expected}"
    );
}

//! Helpers for reading the shared reference vectors (copied into tests/data).
#![allow(dead_code)]

use serde_json::Value;

/// Loads `tests/data/<name>.json` and returns its cases.
pub fn cases(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let root: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    root["cases"].as_array().expect("cases").clone()
}

/// A float written as a JSON number or as "inf", "-inf", "nan".
pub fn float(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().expect("f64"),
        Value::String(s) => match s.as_str() {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" => f64::NAN,
            other => panic!("not a float: {other}"),
        },
        other => panic!("not a float: {other}"),
    }
}

pub fn floats(v: &Value) -> Vec<f64> {
    v.as_array().expect("array").iter().map(float).collect()
}

pub fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_i64().expect("int"))
        .collect()
}

/// The README's tolerance for exact-type quantities: |got - exp| <= max(1e-15, 1e-12 |exp|);
/// infinities must match exactly.
pub fn assert_close(got: f64, expected: f64, what: &str) {
    if expected.is_infinite() || got.is_infinite() {
        assert_eq!(got, expected, "{what}");
        return;
    }
    let tolerance = f64::max(1e-15, 1e-12 * expected.abs());
    assert!(
        (got - expected).abs() <= tolerance,
        "{what}: got {got:e}, expected {expected:e} (diff {:e})",
        (got - expected).abs()
    );
}

pub fn assert_all_close(got: &[f64], expected: &[f64], what: &str) {
    assert_eq!(got.len(), expected.len(), "{what}: length");
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert_close(*g, *e, &format!("{what}[{i}]"));
    }
}

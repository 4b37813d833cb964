//! The envelope of every command's `--json` output (docs/json-output.md), checked and opened by
//! the tests that read the commands' JSON: each asserts the envelope once and reads `result`.

#![allow(dead_code)] // each test file uses its own subset

use serde_json::Value;

/// The `result` of a command's `--json` output, after asserting its envelope:
/// `schema_version` 1, a `command` string, an `inputs` object and a `notes` array of strings.
pub fn result(output: Value) -> Value {
    assert_eq!(output["schema_version"], 1, "schema_version in {output}");
    assert!(output["command"].is_string(), "command in {output}");
    assert!(output["inputs"].is_object(), "inputs in {output}");
    let notes = output["notes"].as_array().expect("a notes array");
    assert!(notes.iter().all(Value::is_string), "notes in {output}");
    let mut output = output;
    output
        .get_mut("result")
        .map(Value::take)
        .expect("a result in the envelope")
}

/// The `result` of a command's `--json` output (its bytes on stdout).
pub fn result_of(stdout: &[u8]) -> Value {
    let value: Value = serde_json::from_slice(stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(stdout)));
    result(value)
}

//! The one envelope of every command's `--json` output (docs/json-output.md):
//! `{"schema_version": 1, "command": "...", "inputs": {...}, "result": {...}, "notes": [...]}`,
//! the command's own object under `result`; docs/schemas/ holds one JSON Schema per command.

use serde::Serialize;
use serde_json::{json, Value};

/// The version of the envelope and of the schemas under docs/schemas/.
pub const SCHEMA_VERSION: u32 = 1;

/// The envelope of `command`'s output: the files and flags it read (`inputs`, an object), its
/// own object (`result`) and what it noticed on the way (`notes`).
pub fn envelope(command: &str, inputs: Value, result: Value, notes: &[String]) -> Value {
    json!({
        "schema_version": SCHEMA_VERSION,
        "command": command,
        "inputs": inputs,
        "result": result,
        "notes": notes,
    })
}

/// [`envelope`] of `result` serialised, pretty-printed with a final newline (what `--json`
/// prints).
pub fn envelope_text(
    command: &str,
    inputs: Value,
    result: &impl Serialize,
    notes: &[String],
) -> Result<String, serde_json::Error> {
    let value = envelope(command, inputs, serde_json::to_value(result)?, notes);
    Ok(format!("{}\n", serde_json::to_string_pretty(&value)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_has_the_five_documented_keys() {
        let value = envelope("roc", json!({"file": "a.csv"}), json!({"x": 1}), &[]);
        let object = value.as_object().unwrap();
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["command", "inputs", "notes", "result", "schema_version"]
        );
        assert_eq!(value["schema_version"], 1);
        assert_eq!(value["result"]["x"], 1);
        assert_eq!(value["notes"], json!([]));
    }
}

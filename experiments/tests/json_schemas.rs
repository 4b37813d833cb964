//! Every command's `--json` output validates against its schema, docs/schemas/<name>.schema.json
//! (docs/json-output.md): the envelope and the command's `result`. The validator below checks
//! the subset of JSON Schema (draft 2020-12) the schemas use: `type`, `required`,
//! `properties`, `items` and `enum`; anything else in a schema fails the test, so that a schema
//! never silently claims more than is checked.

mod common;
mod json_envelope;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

/// The keywords the validator understands (annotations it ignores included).
const KNOWN: [&str; 8] = [
    "$schema",
    "$id",
    "title",
    "description",
    "type",
    "required",
    "properties",
    "items",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn data(name: &str) -> String {
    let path = root().join("experiments/tests/data").join(name);
    path.to_str().unwrap().to_string()
}

/// Whether `value` has the JSON type `name` (an integer is a number too).
fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        other => panic!("unknown type '{other}' in a schema"),
    }
}

/// The errors of `value` against `schema` at `at` (a JSON pointer), appended to `errors`.
fn validate(schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    let schema = schema.as_object().expect("a schema is an object");
    for key in schema.keys() {
        let known = KNOWN.contains(&key.as_str()) || key == "enum";
        assert!(
            known,
            "keyword '{key}' at {at} is not checked by this validator"
        );
    }
    if let Some(types) = schema.get("type") {
        let names: Vec<&str> = match types {
            Value::String(name) => vec![name.as_str()],
            list => list
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect(),
        };
        if !names.iter().any(|name| has_type(value, name)) {
            errors.push(format!("{at}: {value} is not of type {types}"));
            return;
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            errors.push(format!("{at}: {value} is not one of {allowed:?}"));
        }
    }
    if let Some(object) = value.as_object() {
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !object.contains_key(key.as_str().unwrap()) {
                errors.push(format!("{at}: '{key}' is required"));
            }
        }
        for (key, sub) in schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if let Some(field) = object.get(key) {
                validate(sub, field, &format!("{at}/{key}"), errors);
            }
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        for (index, item) in array.iter().enumerate() {
            validate(items, item, &format!("{at}/{index}"), errors);
        }
    }
}

/// The errors of `value` against `schema` (empty: valid).
fn errors(schema: &Value, value: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    validate(schema, value, "", &mut errors);
    errors
}

fn schema(name: &str) -> Value {
    let path = root()
        .join("docs/schemas")
        .join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// `experiments ARGS` must succeed; its stdout as JSON.
fn run(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "experiments {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Every command with `--json`: its schema's name and its arguments.
fn cases() -> Vec<(&'static str, Vec<String>)> {
    let (folds, table) = (
        data("json_schemas/folds.csv"),
        data("json_schemas/table.csv"),
    );
    let models = data("roc_eval/models.csv");
    let three = data("json_schemas/three_classes.csv");
    let quick = ["--resamples", "50", "--seed", "3"];
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("compare-folds", vec!["compare", &folds]),
        ("compare-table", vec!["compare", &table, "--samples", "500"]),
        (
            "compare-leaderboard",
            vec!["compare", &table, "--leaderboard", "--elo", "--win-rate"],
        ),
        ("roc", vec!["roc", &three]),
        ("roc", vec!["roc", &models]),
        (
            "roc",
            [&["roc", &models, "--evaluate"][..], &quick].concat(),
        ),
        (
            "compare-bootstrap",
            [&["compare", "bootstrap", "--scores", &models][..], &quick].concat(),
        ),
        (
            "compare-delong",
            [
                &[
                    "compare", "delong", "--scores", &models, "--a", "good", "--b", "fair",
                ][..],
                &quick,
            ]
            .concat(),
        ),
        (
            "compare-mcnemar",
            vec!["compare", "mcnemar", "--b", "10", "--c", "3"],
        ),
        (
            "compare-binomial",
            vec!["compare", "binomial", "--successes", "7", "--trials", "10"],
        ),
        (
            "compare-sign",
            vec!["compare", "sign", "--wins", "12", "--losses", "4"],
        ),
        (
            "compare-auc-interval",
            vec![
                "compare",
                "auc-interval",
                "--auc",
                "0.8",
                "--positives",
                "20",
                "--negatives",
                "30",
            ],
        ),
        (
            "compare-ranks",
            vec![
                "compare",
                "ranks",
                "--average-ranks",
                "1.5,2.25,2.25",
                "--datasets",
                "8",
            ],
        ),
        (
            "compare-correct",
            vec!["compare", "correct", "--pvalues", "0.01,0.04,0.2"],
        ),
    ];
    let owned = |args: Vec<&str>| args.into_iter().map(String::from).collect();
    cases
        .into_iter()
        .map(|(name, args)| (name, owned(args)))
        .collect()
}

#[test]
fn envelope_every_command_validates_against_its_schema() {
    for (name, mut args) in cases() {
        args.push("--json".to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = run(&args);
        let found = errors(&schema(name), &output);
        assert!(found.is_empty(), "{name} {args:?}: {found:#?}");
        assert_eq!(output["command"], name.replacen('-', " ", 1), "{args:?}");
        json_envelope::result(output);
    }
}

/// The same outputs validated by the `jsonschema` package (scripts/json_schemas_check.py), which
/// also checks that every schema is a valid draft 2020-12 schema; skipped, saying so, when no
/// interpreter imports jsonschema.
#[test]
fn envelope_outputs_validate_with_the_jsonschema_package() {
    let Some((interpreter, _)) = common::python("jsonschema", "the jsonschema check") else {
        return;
    };
    let folder = common::scratch("json-schemas", "peer");
    let mut files = Vec::new();
    for (index, (name, mut args)) in cases().into_iter().enumerate() {
        args.push("--json".to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let file = folder.join(format!("{index}-{name}.json"));
        std::fs::write(&file, run(&args).to_string()).unwrap();
        files.push(file);
    }
    let output = Command::new(interpreter)
        .arg(root().join("scripts/json_schemas_check.py"))
        .args(&files)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn envelope_every_schema_file_is_exercised() {
    let tested: Vec<&str> = cases().into_iter().map(|(name, _)| name).collect();
    for entry in std::fs::read_dir(root().join("docs/schemas")).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let name = file
            .strip_suffix(".schema.json")
            .expect("only *.schema.json files");
        assert!(tested.contains(&name), "{file} is run by no case");
    }
}

#[test]
fn envelope_validator_rejects_what_a_schema_excludes() {
    let schema = json!({
        "type": "object",
        "required": ["a", "b"],
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "array", "items": {"enum": ["x", "y"]}},
            "c": {"type": ["string", "null"]}
        }
    });
    assert!(errors(&schema, &json!({"a": 1, "b": ["x"], "c": null})).is_empty());
    assert_eq!(errors(&schema, &json!({"a": 1})), [": '\"b\"' is required"]);
    assert_eq!(errors(&schema, &json!({"a": 1.5, "b": []})).len(), 1);
    assert_eq!(errors(&schema, &json!({"a": 1, "b": ["z"]})).len(), 1);
    assert_eq!(errors(&schema, &json!({"a": 1, "b": [], "c": 3})).len(), 1);
    assert_eq!(errors(&schema, &json!([1])).len(), 1);
}

#[test]
fn envelope_notes_are_the_notes_printed_on_stderr() {
    let file = data("json_schemas/long_repeated.csv");
    let args = ["compare", &file, "--samples", "200", "--json"];
    let output = Command::new(env!("CARGO_BIN_EXE_experiments"))
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}");
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let found = errors(&schema("compare-table"), &value);
    assert!(found.is_empty(), "{found:#?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let printed: Vec<&str> = (stderr.lines())
        .filter_map(|line| line.strip_prefix("note: "))
        .collect();
    let notes = value["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].as_str(), Some(printed[0]));
    // The file's lines 3 and 38 are the repeated row (see data/json_schemas/README.md).
    assert!(printed[0].contains("lines 3 and 38"), "{}", printed[0]);
}

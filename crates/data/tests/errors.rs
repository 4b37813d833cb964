//! Every bad input is an error (never a panic) whose message names the file and the line.

use std::path::PathBuf;

use data::{load, DataError, LoadOptions};

/// Writes `bytes` to a fresh temporary file named `name` and loads it.
fn load_bytes(name: &str, bytes: &[u8]) -> (PathBuf, DataError) {
    let dir = std::env::temp_dir().join(format!("data-errors-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let error = load(&path, &LoadOptions::default()).expect_err("bad input must be an error");
    (path, error)
}

/// Asserts the message names `file:line` (and, if given, `:column`) and contains `words`.
fn assert_names(name: &str, bytes: &[u8], line: usize, column: Option<usize>, words: &str) {
    let (path, error) = load_bytes(name, bytes);
    let message = error.to_string();
    let location = match column {
        Some(column) => format!("{}:{line}:{column}:", path.display()),
        None => format!("{}:{line}:", path.display()),
    };
    assert!(
        message.contains(&location),
        "expected '{location}' in: {message}"
    );
    assert!(message.contains(words), "expected '{words}' in: {message}");
}

#[test]
fn ragged_csv_row() {
    assert_names(
        "ragged.csv",
        b"a,b,class\n1,2,x\n3,4,y\n5,y\n",
        4,
        None,
        "row has 2 fields, expected 3",
    );
}

#[test]
fn ragged_arff_row() {
    assert_names(
        "ragged.arff",
        b"@relation r\n@attribute a numeric\n@attribute class {x,y}\n@data\n1,x\n2,y,3\n",
        6,
        None,
        "row has 3 fields, expected 2",
    );
}

#[test]
fn ragged_keel_row() {
    assert_names(
        "ragged.dat",
        b"@relation r\n@attribute a real [0, 1]\n@attribute class {x,y}\n@inputs a\n@outputs class\n@data\n1, x\n\n0.5\n",
        9,
        None,
        "row has 1 fields, expected 2",
    );
}

#[test]
fn unknown_nominal_value() {
    assert_names(
        "unknown.arff",
        b"@relation r\n@attribute colour {red, green}\n@attribute class {x,y}\n@data\nred,x\n% comment\nblue,y\n",
        7,
        Some(1),
        "value 'blue' of attribute 'colour' is not one of its declared values",
    );
}

#[test]
fn unknown_class_value_against_the_catalog_order() {
    let dir = std::env::temp_dir().join(format!("data-errors-{}-class", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("classes.csv");
    std::fs::write(&path, "a,class\n1,x\n2,y\n3,z\n").unwrap();
    let options = LoadOptions {
        class_values: Some(vec!["x".into(), "y".into()]),
        ..LoadOptions::default()
    };
    let message = load(&path, &options).unwrap_err().to_string();
    assert!(
        message.contains(&format!("{}:4:2:", path.display())),
        "{message}"
    );
    assert!(message.contains("'z'"), "{message}");
}

#[test]
fn not_a_number() {
    assert_names(
        "number.arff",
        b"@relation r\n@attribute a numeric\n@attribute class {x,y}\n@data\n1,x\n1.5.2,y\n",
        6,
        Some(1),
        "value '1.5.2' of numeric attribute 'a' is not a finite number",
    );
}

#[test]
fn empty_files() {
    for (name, bytes, words) in [
        ("empty.csv", &b""[..], "the file is empty"),
        ("header-only.csv", &b"a,class\n\n"[..], "no data rows"),
        (
            "empty.arff",
            &b"% nothing here\n"[..],
            "no @attribute declarations",
        ),
        (
            "no-rows.arff",
            &b"@relation r\n@attribute class {x,y}\n@data\n"[..],
            "no data rows",
        ),
    ] {
        let (path, error) = load_bytes(name, bytes);
        let message = error.to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(message.contains(words), "expected '{words}' in: {message}");
    }
}

#[test]
fn class_with_one_value() {
    let (path, error) = load_bytes("one-class.csv", b"a,class\n1,x\n2,x\n");
    let message = error.to_string();
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(
        message.contains("only 1 distinct value(s) (x)"),
        "{message}"
    );
}

#[test]
fn duplicate_attribute_names() {
    assert_names(
        "duplicate.csv",
        b"a,b,a,class\n1,2,3,x\n",
        1,
        None,
        "attribute name 'a' appears twice",
    );
    assert_names(
        "duplicate.arff",
        b"@relation r\n@attribute a numeric\n\n@attribute 'a' numeric\n@attribute class {x,y}\n@data\n1,2,x\n",
        4,
        None,
        "attribute name 'a' appears twice",
    );
}

#[test]
fn non_utf8_bytes() {
    assert_names(
        "latin1.csv",
        b"name,class\nabc,x\ncaf\xe9,y\n",
        3,
        Some(4),
        "invalid UTF-8 byte 0xe9",
    );
    assert_names(
        "latin1.arff",
        b"@relation r\n@attribute 'caf\xe9' numeric\n",
        2,
        Some(16),
        "invalid UTF-8",
    );
}

#[test]
fn string_and_date_attributes_are_rejected() {
    assert_names(
        "string.arff",
        b"@relation r\n@attribute text string\n@attribute class {x,y}\n@data\n'a',x\n",
        2,
        None,
        "attribute 'text' has type 'string', which is not supported",
    );
    assert_names(
        "date.arff",
        b"@relation r\n@attribute a numeric\n@ATTRIBUTE when DATE \"yyyy-MM-dd\"\n@attribute class {x,y}\n@data\n",
        3,
        None,
        "type 'DATE'",
    );
}

#[test]
fn unclosed_quotes_and_lists() {
    assert_names(
        "quote.arff",
        b"@relation r\n@attribute 'a numeric\n",
        2,
        Some(12),
        "quoted text is not closed",
    );
    assert_names(
        "list.arff",
        b"@relation r\n@attribute a {x, y\n",
        2,
        None,
        "nominal list is not closed",
    );
    assert_names(
        "quote.csv",
        b"a,class\n1,x\n\"2,y\n",
        3,
        None,
        "quoted field is not closed",
    );
}

#[test]
fn unknown_extension_and_missing_file() {
    let message = load("no/such/file.csv", &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("no/such/file.csv: cannot read the file"),
        "{message}"
    );
    let message = load("data.xlsx", &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("expected a .csv, .arff or .dat"),
        "{message}"
    );
}

#[test]
fn missing_class_value() {
    assert_names(
        "missing-class.arff",
        b"@relation r\n@attribute a numeric\n@attribute class {x,y}\n@data\n1,x\n2,?\n",
        6,
        None,
        "the class value is missing",
    );
}

//! Column types are decided, not guessed from the first surprise: missing markers, strict
//! inference, declarations, non-finite numbers and the class-column sanity check. The inputs are
//! the hand-written files in `tests/data/columns/` (README there).

use std::path::PathBuf;

use data::{
    load, load_with_report, AttributeKind, ColumnType, Dataset, LoadOptions, LoadReport,
    DEFAULT_MISSING_MARKERS,
};

fn file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/columns")
        .join(name)
}

fn read(name: &str, options: &LoadOptions) -> (Dataset, LoadReport) {
    load_with_report(file(name), options).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Loads a file that must fail; asserts the message starts with `file:line:column:` (when
/// given) and holds every one of `words`.
fn refused(name: &str, options: &LoadOptions, place: Option<(usize, usize)>, words: &[&str]) {
    let path = file(name);
    let message = load(&path, options)
        .expect_err("this input must be refused")
        .to_string();
    let prefix = match place {
        Some((line, column)) => format!("{}:{line}:{column}: ", path.display()),
        None => format!("{}: ", path.display()),
    };
    assert!(
        message.starts_with(&prefix),
        "expected '{prefix}' at the start of: {message}"
    );
    for word in words {
        assert!(message.contains(word), "expected '{word}' in: {message}");
    }
}

fn column(dataset: &Dataset, attribute: usize) -> Vec<Option<f64>> {
    dataset
        .column(attribute)
        .iter()
        .map(|v| (!v.is_nan()).then_some(*v))
        .collect()
}

#[test]
fn the_default_markers_are_the_empty_field_and_question_mark() {
    assert_eq!(DEFAULT_MISSING_MARKERS, ["", "?"]);
    assert_eq!(
        LoadOptions::default().effective_missing_markers(),
        ["", "?"]
    );
    assert_eq!(
        LoadOptions::default()
            .with_missing_marker("NA")
            .effective_missing_markers(),
        ["", "?", "NA"]
    );
}

#[test]
fn a_question_mark_in_a_number_column_is_a_missing_value() {
    // The example: one `?` used to make this separable column nominal.
    let (dataset, report) = read("separable_with_question_mark.csv", &LoadOptions::default());
    assert!(dataset.schema().attributes[0].is_numeric());
    assert_eq!(report.inferred_numeric, ["x"]);
    assert!(report.inferred_nominal.is_empty());
    let x = column(&dataset, 0);
    assert_eq!(x[3], None);
    assert_eq!(x[0], Some(1.0));
    assert_eq!(x[11], Some(12.0));
    assert_eq!(dataset.missing_count(), 1);
}

#[test]
fn markers_are_missing_in_nominal_columns_too_and_spaces_are_trimmed() {
    let (dataset, report) = read("question_marks.csv", &LoadOptions::default());
    let schema = dataset.schema();
    assert_eq!(
        schema.attributes[0].values().unwrap(),
        ["red", "blue", "green"]
    );
    assert!(schema.attributes[1].is_numeric());
    assert_eq!(column(&dataset, 0), [Some(0.0), None, Some(1.0), Some(2.0)]);
    assert_eq!(column(&dataset, 1), [Some(1.0), Some(2.0), None, Some(4.0)]);
    assert_eq!(report.inferred_nominal, ["colour"]);
    assert_eq!(report.inferred_numeric, ["size"]);
}

#[test]
fn one_stray_word_in_a_number_column_is_an_error() {
    refused(
        "stray_word.csv",
        &LoadOptions::default(),
        Some((4, 2)),
        &[
            "value 'abc' of column 'y' is not a number, but 3 of the column's 4 present values are",
            "inferred nominal only when most of its present values are not numbers",
            "add it to the missing markers (missing_markers; by default the empty field and '?')",
            "declare it nominal (nominal_columns or column_types, or the catalog's nominal_columns)",
        ],
    );
    // Declared nominal, the same file reads, in order of first appearance.
    let options = LoadOptions::default().declare("y", ColumnType::Nominal);
    let (dataset, report) = read("stray_word.csv", &options);
    assert_eq!(
        dataset.schema().attributes[1].values().unwrap(),
        ["0.5", "0.25", "abc", "1e3"]
    );
    assert_eq!(report.inferred_numeric, ["x"]);
    assert!(report.inferred_nominal.is_empty());
}

#[test]
fn a_word_in_a_declared_numeric_column_is_an_error() {
    let expected = [
        "value 'abc' of numeric attribute 'y' is not a finite number",
        "expected a finite number, or a missing marker (the empty field, '?')",
    ];
    let options = LoadOptions::default().declare("y", ColumnType::Numeric);
    refused("stray_word.csv", &options, Some((4, 2)), &expected);
    let options = LoadOptions {
        nominal_columns: Some(vec![]),
        ..LoadOptions::default()
    };
    refused("stray_word.csv", &options, Some((4, 2)), &expected);
}

#[test]
fn a_single_undeclared_missing_spelling_is_an_error_however_frequent() {
    // Four `NA` and one number: most values are not numbers, but all share one spelling.
    refused(
        "na_marker.csv",
        &LoadOptions::default(),
        Some((2, 2)),
        &["value 'NA' of column 'y' is not a number, but 1 of the column's 5 present values are"],
    );
    let options = LoadOptions::default().with_missing_marker("NA");
    let (dataset, report) = read("na_marker.csv", &options);
    assert!(dataset.schema().attributes[1].is_numeric());
    assert_eq!(column(&dataset, 1), [None, None, None, Some(7.0), None]);
    assert_eq!(report.inferred_numeric, ["x", "y"]);
    // A marker replaces the defaults when the list is given whole: `?` is then a value.
    let options = LoadOptions {
        missing_markers: Some(vec!["NA".into()]),
        ..LoadOptions::default()
    };
    assert_eq!(options.effective_missing_markers(), ["NA"]);
}

#[test]
fn a_sentinel_number_can_be_a_marker() {
    let (dataset, _) = read("sentinel.csv", &LoadOptions::default());
    assert_eq!(column(&dataset, 0)[1], Some(-999.0));
    let options = LoadOptions::default().with_missing_marker("-999");
    let (dataset, _) = read("sentinel.csv", &options);
    assert_eq!(column(&dataset, 0)[1], None);
}

#[test]
fn one_sentinel_word_among_numbers_is_an_error() {
    refused(
        "one_sentinel.csv",
        &LoadOptions::default(),
        Some((5, 1)),
        &["value 'more' of column 'children' is not a number, but 4 of the column's 5 present values are"],
    );
}

#[test]
fn a_column_of_mostly_varied_words_is_inferred_nominal_and_reported() {
    let (dataset, report) = read("mostly_codes.csv", &LoadOptions::default());
    let code = &dataset.schema().attributes[1];
    assert_eq!(
        code.kind,
        AttributeKind::Nominal(vec!["A1".into(), "B7".into(), "5".into(), "C2".into()])
    );
    assert_eq!(report.inferred_nominal, ["code"]);
    assert_eq!(report.inferred_numeric, ["x"]);
}

#[test]
fn non_finite_numbers_are_errors_in_csv_files() {
    for (name, line, value) in [
        ("nan.csv", 3, "NaN"),
        ("inf.csv", 4, "inf"),
        ("negative_inf.csv", 5, "-inf"),
        ("overflow.csv", 3, "1e400"),
    ] {
        let words = [
            format!("value '{value}' of numeric attribute 'y' is not a finite number"),
            "NaN, infinite, or beyond the f64 range".to_string(),
            "expected a finite number, or a missing marker (the empty field, '?')".to_string(),
        ];
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        refused(name, &LoadOptions::default(), Some((line, 2)), &words);
        // Declared numeric: the same error.
        let options = LoadOptions::default().declare("y", ColumnType::Numeric);
        refused(name, &options, Some((line, 2)), &words);
    }
}

#[test]
fn non_finite_numbers_are_errors_in_arff_and_keel_files() {
    for (name, line, value, expected) in [
        (
            "nan.arff",
            7,
            "NaN",
            "expected a finite number, or ? for a missing value",
        ),
        (
            "inf.arff",
            6,
            "-Infinity",
            "expected a finite number, or ? for a missing value",
        ),
        (
            "overflow.arff",
            7,
            "1e400",
            "expected a finite number, or ? for a missing value",
        ),
        (
            "inf.dat",
            9,
            "inf",
            "expected a finite number, or ? or <null> for a missing value",
        ),
    ] {
        refused(
            name,
            &LoadOptions::default(),
            Some((line, 1)),
            &[
                &format!("value '{value}' of numeric attribute 'a' is not a finite number"),
                "NaN, infinite, or beyond the f64 range",
                expected,
            ],
        );
    }
}

#[test]
fn a_regression_target_as_class_is_refused() {
    refused(
        "regression_target.csv",
        &LoadOptions::default(),
        None,
        &[
            "class column 'price' looks like a regression target, not class labels",
            "every value is a number and it has 40 distinct values in 40 rows",
            "at least 3 distinct values and more than 20 or more than half the rows",
            "choose another class column or bin the target into classes",
            "allow_numeric_class, or list the labels in class_values",
        ],
    );
    let options = LoadOptions {
        allow_numeric_class: true,
        ..LoadOptions::default()
    };
    let (dataset, _) = read("regression_target.csv", &options);
    assert_eq!(dataset.num_classes(), 40);
}

#[test]
fn numeric_labels_with_few_values_are_accepted() {
    let (dataset, report) = read("digit_labels.csv", &LoadOptions::default());
    assert_eq!(dataset.num_classes(), 10);
    assert_eq!(dataset.schema().class_values[..3], ["0", "1", "2"]);
    assert_eq!(report.inferred_numeric, ["pixel"]);
}

#[test]
fn declarations_that_do_not_fit_are_errors() {
    let cases: [(LoadOptions, &str); 4] = [
        (
            LoadOptions::default().declare("z", ColumnType::Nominal),
            "declared nominal column 'z' is not in the header; columns are: x, y, class",
        ),
        (
            LoadOptions::default()
                .declare("y", ColumnType::Nominal)
                .declare("y", ColumnType::Nominal),
            "column 'y' is declared twice in column_types",
        ),
        (
            LoadOptions {
                nominal_columns: Some(vec!["y".into()]),
                ..LoadOptions::default()
            }
            .declare("y", ColumnType::Numeric),
            "column 'y' is declared numeric in column_types but nominal by nominal_columns",
        ),
        (
            LoadOptions::default().declare("class", ColumnType::Numeric),
            "class column 'class' is declared numeric; the class is always nominal",
        ),
    ];
    for (options, words) in cases {
        refused("stray_word.csv", &options, None, &[words]);
    }
    let options = LoadOptions {
        nominal_columns: Some(vec!["w".into()]),
        ..LoadOptions::default()
    };
    refused(
        "stray_word.csv",
        &options,
        None,
        &["nominal column 'w' is not in the header; columns are: x, y, class"],
    );
}

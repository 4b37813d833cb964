//! `check_predictions` accepts the predictions file `write_predictions` writes and rejects each
//! damaged copy, naming the problem (issue 45: the evaluation engine's checks).

mod common;

use openml_runs::{check_predictions, write_predictions, Problem};

/// The written file's lines.
fn written_lines() -> Vec<String> {
    let text = write_predictions(&common::predictions()).unwrap();
    text.lines().map(String::from).collect()
}

/// The index of the first data row.
fn first_row(lines: &[String]) -> usize {
    lines.iter().position(|l| l == "@DATA").unwrap() + 1
}

/// Sets field `field` of data row `row` (0-based) to `value`.
fn set_field(lines: &mut [String], row: usize, field: usize, value: &str) {
    let at = first_row(lines) + row;
    let mut fields: Vec<String> = lines[at].split(',').map(String::from).collect();
    fields[field] = value.to_string();
    lines[at] = fields.join(",");
}

/// Removes field `field` from every data row and the attribute line declaring `declaration`.
fn drop_column(lines: &mut Vec<String>, declaration: &str, field: usize) {
    let start = first_row(lines);
    for line in &mut lines[start..] {
        let mut fields: Vec<&str> = line.split(',').collect();
        fields.remove(field);
        *line = fields.join(",");
    }
    lines.retain(|l| l != declaration);
}

/// The problems the checker finds in `lines`.
fn problems(name: &str, lines: &[String]) -> Vec<Problem> {
    let path = common::scratch(name).join("predictions.arff");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    check_predictions(&path, &common::task()).unwrap()
}

/// Damages a copy with `edit` and asserts that a problem says `expected` (on `line` if given).
fn rejected(name: &str, edit: impl Fn(&mut Vec<String>), expected: &str) {
    let mut lines = written_lines();
    edit(&mut lines);
    let found = problems(name, &lines);
    assert!(
        found.iter().any(|p| p.to_string().contains(expected)),
        "{name}: no problem says {expected:?}; found: {found:#?}"
    );
}

#[test]
fn the_written_file_passes() {
    let found = problems("clean", &written_lines());
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_missing_confidence_column_is_named() {
    rejected(
        "no-confidence",
        |l| drop_column(l, "@ATTRIBUTE \"confidence.it's 50%\" NUMERIC", 8),
        "no 'confidence.it's 50%' column",
    );
}

#[test]
fn a_row_id_out_of_range_is_named_with_its_line() {
    rejected(
        "out-of-range",
        |l| set_field(l, 0, 3, "2147483648"),
        "line 14: row_id 2147483648 is out of range: the task's dataset has 9 rows",
    );
    rejected(
        "huge",
        |l| set_field(l, 0, 3, "1e300"),
        "row_id '1e300' is not a whole number",
    );
}

#[test]
fn a_fold_short_of_rows_is_named() {
    rejected(
        "short",
        |l| {
            let at = first_row(l);
            l.remove(at);
        },
        "repeat 0 fold 0 sample 0: 2 of its 3 test rows are predicted",
    );
}

#[test]
fn a_duplicated_row_is_named() {
    rejected(
        "duplicate",
        |l| {
            let at = first_row(l);
            let row = l[at].clone();
            l.insert(at + 1, row);
        },
        "is predicted twice (first on line 14)",
    );
}

#[test]
fn a_label_not_in_the_task_is_named() {
    rejected(
        "label",
        |l| set_field(l, 1, 4, "Iris-virginica"),
        "line 15: prediction 'Iris-virginica' is not one of the task's labels",
    );
    rejected(
        "declared",
        |l| {
            let at = l
                .iter()
                .position(|x| x.starts_with("@ATTRIBUTE prediction"))
                .unwrap();
            l[at] = "@ATTRIBUTE prediction {a, b, c}".into();
        },
        "the column 'prediction' declares {a, b, c}; the task's labels are",
    );
}

#[test]
fn probabilities_not_summing_to_one_are_named() {
    rejected(
        "sum",
        |l| set_field(l, 2, 6, "0.9"),
        "line 16: the confidences sum to",
    );
    rejected(
        "negative",
        |l| set_field(l, 2, 6, "-0.5"),
        "a probability lies in [0, 1]",
    );
}

#[test]
fn a_wrong_correct_is_named() {
    rejected(
        "correct",
        |l| set_field(l, 0, 5, "'Iris versicolor'"),
        "line 14: correct is 'Iris versicolor' but row 0's true label is 'Iris-setosa'",
    );
}

#[test]
fn a_missing_repeat_column_is_named() {
    rejected(
        "no-repeat",
        |l| drop_column(l, "@ATTRIBUTE repeat NUMERIC", 0),
        "no 'repeat' column",
    );
}

#[test]
fn a_non_numeric_confidence_is_named() {
    rejected(
        "non-numeric",
        |l| set_field(l, 3, 7, "abc"),
        "confidence.Iris versicolor is 'abc', not a finite number",
    );
}

#[test]
fn a_wrong_relation_is_named() {
    rejected(
        "relation",
        |l| l[0] = "@RELATION openml_task_31_predictions".into(),
        "the relation is 'openml_task_31_predictions'; a predictions file of task 59",
    );
}

#[test]
fn a_row_of_another_fold_is_named() {
    rejected(
        "other-fold",
        |l| set_field(l, 0, 1, "2"),
        "line 14: row_id 0 is not a test row of repeat 0 fold 2",
    );
    rejected(
        "no-such-fold",
        |l| set_field(l, 0, 1, "7"),
        "repeat 0 fold 7 sample 0 is not a fold of task 59",
    );
}

//! What the commands read from a table of their own layout: the truth column and the positive
//! label of a predictions file (`roc`, `compare delong`), and the two columns to compare
//! (`compare`, `compare delong`).

use anyhow::{bail, Result};
use data::TextTable;

/// The truth column of a predictions file (`given`, else `truth`, else the first column) and
/// its distinct labels in order of appearance; an empty label is an error naming the line.
pub fn truth_column(table: &TextTable, given: Option<&str>) -> Result<(usize, Vec<String>)> {
    let column = match given {
        Some(name) => table.column(name)?,
        None => table.find("truth").unwrap_or(0),
    };
    let mut labels: Vec<String> = Vec::new();
    for (row, label) in table.texts(column).iter().enumerate() {
        if label.is_empty() {
            bail!(table.cell_error(row, column, "the true label is empty"));
        }
        if !labels.contains(label) {
            labels.push(label.clone());
        }
    }
    Ok((column, labels))
}

/// The positive label: the one given (it must occur), or the conventional one of two labels
/// (`evaluate::conventional_positive`).
pub fn positive_label(
    given: Option<&str>,
    labels: &[String],
    file: &str,
    column: &str,
) -> Result<String> {
    let quoted: Vec<String> = labels.iter().map(|label| format!("'{label}'")).collect();
    let listed = quoted.join(", ");
    if let Some(positive) = given {
        if !labels.iter().any(|label| label == positive) {
            bail!("--positive '{positive}' never occurs in column '{column}' of '{file}' (its labels: {listed})");
        }
    }
    if labels.len() < 2 {
        bail!("column '{column}' of '{file}' has only the label {listed}: a ROC curve needs positives and negatives");
    }
    match given {
        Some(positive) => Ok(positive.to_string()),
        None => match evaluate::conventional_positive([&labels[0], &labels[1]]) {
            Some(index) => Ok(labels[index].clone()),
            None => bail!("cannot tell which label of column '{column}' of '{file}' is positive ({listed}): give --positive LABEL"),
        },
    }
}

/// The two columns `--a` and `--b` name, or the only two of `columns` when neither is given;
/// the error names the file and lists the `kind` columns it has.
pub fn two_columns(
    file: &str,
    kind: &str,
    columns: &[&String],
    a: &Option<String>,
    b: &Option<String>,
) -> Result<(String, String)> {
    let names: Vec<&str> = columns.iter().map(|name| name.as_str()).collect();
    let listed = names.join(", ");
    match (a, b) {
        (Some(a), Some(b)) => Ok((a.clone(), b.clone())),
        (None, None) if columns.len() == 2 => Ok((columns[0].clone(), columns[1].clone())),
        (None, None) => bail!(
            "'{file}' has {} {kind} columns ({listed}): choose two with --a COLUMN --b COLUMN",
            columns.len()
        ),
        _ => bail!("give both --a and --b ({kind} columns of '{file}': {listed})"),
    }
}

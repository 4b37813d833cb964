//! What the commands read from a user's table of their own layout: the truth column, the
//! positive label and the score columns of a predictions file (`roc`, `compare delong`,
//! `compare bootstrap`), and the two columns to compare (`compare`, `compare delong`).
//!
//! One rule for every score of a predictions file, whichever command reads it ([`scores`]): a
//! finite number, else an error naming the file, the line and the column (an empty,
//! non-numeric, NaN or infinite score alike; per-fold values of `compare FILE` are read the
//! same way).

use data::{DataError, TextTable};

/// Why a predictions file (or the two columns of a table) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PredictionsError {
    /// A column is missing, or a cell is not what its column needs.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The file has no row.
    #[error("'{file}' has a header but no row of predictions")]
    NoRows {
        /// The file.
        file: String,
    },
    /// `--positive` names a label the truth column does not have.
    #[error("--positive '{positive}' never occurs in column '{column}' of '{file}' (its labels: {listed})")]
    UnknownPositive {
        /// The label given.
        positive: String,
        /// The truth column.
        column: String,
        /// The file.
        file: String,
        /// The labels there are, quoted.
        listed: String,
    },
    /// The truth column has one label.
    #[error("column '{column}' of '{file}' has only the label {listed}: a ROC curve needs positives and negatives")]
    OneLabel {
        /// The truth column.
        column: String,
        /// The file.
        file: String,
        /// The label, quoted.
        listed: String,
    },
    /// Neither of two labels is a conventional positive one.
    #[error("cannot tell which label of column '{column}' of '{file}' is positive ({listed}): give --positive LABEL")]
    NoPositive {
        /// The truth column.
        column: String,
        /// The file.
        file: String,
        /// The labels, quoted.
        listed: String,
    },
    /// Not exactly two columns to compare, and `--a` and `--b` not given.
    #[error(
        "'{file}' has {count} {kind} columns ({listed}): choose two with --a COLUMN --b COLUMN"
    )]
    NotTwoColumns {
        /// The file.
        file: String,
        /// How many there are.
        count: usize,
        /// What they are (`score`, `learner`).
        kind: String,
        /// Their names.
        listed: String,
    },
    /// One of `--a` and `--b` given without the other.
    #[error("give both --a and --b ({kind} columns of '{file}': {listed})")]
    OneOfTwo {
        /// What the columns are.
        kind: String,
        /// The file.
        file: String,
        /// Their names.
        listed: String,
    },
    /// The file has only its truth column.
    #[error("'{file}' has no score column besides the truth column")]
    NoScoreColumn {
        /// The file.
        file: String,
    },
    /// `--models` names a column that is not a score column.
    #[error("--models: '{name}' is not a score column of '{file}' (they are: {listed})")]
    NotAScoreColumn {
        /// The name given.
        name: String,
        /// The file.
        file: String,
        /// The score columns.
        listed: String,
    },
}

/// Refuses a table without rows.
pub fn require_rows(table: &TextTable, file: &str) -> Result<(), PredictionsError> {
    if table.is_empty() {
        return Err(PredictionsError::NoRows { file: file.into() });
    }
    Ok(())
}

/// The truth column of a predictions file (`given`, else `truth`, else the first column) and
/// its distinct labels in order of appearance; an empty label is an error naming the line.
pub fn truth_column(
    table: &TextTable,
    given: Option<&str>,
) -> Result<(usize, Vec<String>), DataError> {
    let column = match given {
        Some(name) => table.column(name)?,
        None => table.find("truth").unwrap_or(0),
    };
    let mut labels: Vec<String> = Vec::new();
    for (row, label) in table.texts(column).iter().enumerate() {
        if label.is_empty() {
            return Err(table.cell_error(row, column, "the true label is empty"));
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
) -> Result<String, PredictionsError> {
    let quoted: Vec<String> = labels.iter().map(|label| format!("'{label}'")).collect();
    let (listed, column, file) = (quoted.join(", "), column.to_string(), file.to_string());
    if let Some(positive) = given {
        if !labels.iter().any(|label| label == positive) {
            let positive = positive.to_string();
            return Err(PredictionsError::UnknownPositive {
                positive,
                column,
                file,
                listed,
            });
        }
    }
    if labels.len() < 2 {
        return Err(PredictionsError::OneLabel {
            column,
            file,
            listed,
        });
    }
    match given {
        Some(positive) => Ok(positive.to_string()),
        None => match evaluate::conventional_positive([&labels[0], &labels[1]]) {
            Some(index) => Ok(labels[index].clone()),
            None => Err(PredictionsError::NoPositive {
                column,
                file,
                listed,
            }),
        },
    }
}

/// The two columns `a` and `b` (`--a`, `--b`) name, or the only two of `columns` when neither
/// is given; the error names the file and lists the `kind` columns it has.
pub fn two_columns(
    file: &str,
    kind: &str,
    columns: &[&String],
    a: Option<&str>,
    b: Option<&str>,
) -> Result<(String, String), PredictionsError> {
    let names: Vec<&str> = columns.iter().map(|name| name.as_str()).collect();
    let (listed, kind, file) = (names.join(", "), kind.to_string(), file.to_string());
    match (a, b) {
        (Some(a), Some(b)) => Ok((a.to_string(), b.to_string())),
        (None, None) if columns.len() == 2 => Ok((columns[0].clone(), columns[1].clone())),
        (None, None) => Err(PredictionsError::NotTwoColumns {
            file,
            count: columns.len(),
            kind,
            listed,
        }),
        _ => Err(PredictionsError::OneOfTwo { kind, file, listed }),
    }
}

/// Every column but the truth column.
pub fn besides_truth(table: &TextTable, truth: usize) -> Vec<usize> {
    (0..table.header().len()).filter(|&c| c != truth).collect()
}

/// The chosen score columns (every column but the truth when none is named); a name that is
/// not a score column is an error listing those there are.
pub fn score_columns(
    table: &TextTable,
    truth: usize,
    chosen: &[String],
    file: &str,
) -> Result<Vec<usize>, PredictionsError> {
    let all = besides_truth(table, truth);
    if all.is_empty() {
        return Err(PredictionsError::NoScoreColumn { file: file.into() });
    }
    if chosen.is_empty() {
        return Ok(all);
    }
    let names: Vec<&str> = all.iter().map(|&c| table.header()[c].as_str()).collect();
    chosen
        .iter()
        .map(|name| match names.iter().position(|n| n == name) {
            Some(index) => Ok(all[index]),
            None => Err(PredictionsError::NotAScoreColumn {
                name: name.clone(),
                file: file.into(),
                listed: names.join(", "),
            }),
        })
        .collect()
}

/// The scores of one column (every command that reads a predictions file reads them here): an
/// empty, non-numeric, NaN or infinite score is an error naming the file, the line and the
/// column.
pub fn scores(table: &TextTable, column: usize) -> Result<Vec<f64>, DataError> {
    table.numbers(column, false)
}

/// Each of `columns` with its name and scores ([`scores`]).
pub fn named_scores(
    table: &TextTable,
    columns: &[usize],
) -> Result<Vec<(String, Vec<f64>)>, DataError> {
    let named = |&column: &usize| Ok((table.header()[column].clone(), scores(table, column)?));
    columns.iter().map(named).collect()
}

//! What `experiments roc FILE` prints once its flags are checked: the ROC summary of a
//! predictions table (`evaluate::binary_summary` or `evaluate::multiclass_summary`), with
//! `evaluate::evaluation` for two classes when asked, as the tables of `roc_tables` or as one
//! JSON object.
//!
//! The JSON: `{ file, truth_column, kind: "binary" | "multiclass", ... }` (the fields of
//! `evaluate::BinarySummary` or `evaluate::MulticlassSummary`; floats are JSON numbers, or
//! "inf", "-inf", "nan"), with an `evaluation` object when it was asked.
//!
//! File layout (a CSV with a header row):
//! - the truth column (`--truth`, default `truth`, else the first column) holds the true labels;
//! - two-class reading (two labels, or `--positive` given): every other column is one model's
//!   score for the positive class (higher = more positive); the labels other than the positive
//!   one are negatives;
//! - multi-class reading (more than two labels and no `--positive`): every other column is the
//!   score of one class, named `CLASS` (a single model) or `MODEL:CLASS` (several models); each
//!   model has one column for every label of the truth column.

use data::{DataError, TextTable};
use evaluate::{BinaryOptions, ClassScores, EvaluateError, EvaluationOptions, RocSummary};
use serde::Serialize;

use crate::roc_tables::{binary_text, evaluation_text, multiclass_text};

/// Why a predictions table could not be summarised.
#[derive(Debug, thiserror::Error)]
pub enum RocFileError {
    /// A score column is not numeric.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The file's predictions cannot be summarised.
    #[error("'{file}'")]
    Evaluate {
        /// The file.
        file: String,
        /// Why.
        #[source]
        source: EvaluateError,
    },
    /// The columns of a multi-class reading do not name each class once per model.
    #[error(
        "'{file}', read as multi-class (or give --positive LABEL for one class against the rest)"
    )]
    Classes {
        /// The file.
        file: String,
        /// Why.
        #[source]
        source: EvaluateError,
    },
    /// A table could not be made.
    #[error(transparent)]
    Report(#[from] report::ReportError),
    /// The JSON could not be written.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// How to read a predictions table.
#[derive(Debug, Clone)]
pub struct RocReading<'a> {
    /// The file, as shown.
    pub file: &'a str,
    /// The truth column.
    pub truth: usize,
    /// Two-class reading: the positive label; multi-class: `None`.
    pub positive: Option<&'a str>,
    /// The truth column's labels (the classes of a multi-class reading).
    pub labels: &'a [String],
    /// The binary summary's options.
    pub options: BinaryOptions,
    /// The evaluation beyond ROC (two classes), if asked.
    pub evaluation: Option<&'a EvaluationOptions>,
}

/// `roc --json`.
#[derive(Serialize)]
struct RocJson<'a> {
    file: &'a str,
    truth_column: &'a str,
    #[serde(flatten)]
    summary: &'a RocSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    evaluation: Option<&'a evaluate::Evaluation>,
}

/// The summary of `table` read as `reading` says, as text or JSON.
pub fn roc_output(
    table: &TextTable,
    reading: &RocReading,
    json: bool,
) -> Result<String, RocFileError> {
    let (file, truth) = (reading.file, reading.truth);
    let failed = |source| RocFileError::Evaluate {
        file: file.to_string(),
        source,
    };
    let truth_name = table.header()[truth].as_str();
    let columns = table.header().len();
    let mut evaluation = None;
    let summary = match reading.positive {
        Some(positive) => {
            let scores = (0..columns).filter(|&column| column != truth);
            let scores = scores
                .map(|column| Ok((table.header()[column].clone(), table.numbers(column, true)?)))
                .collect::<Result<Vec<_>, DataError>>()?;
            let texts = table.texts(truth);
            let summary = evaluate::binary_summary(texts, positive, &scores, reading.options);
            if let Some(options) = reading.evaluation {
                let computed = evaluate::evaluation(texts, positive, &scores, options);
                evaluation = Some(computed.map_err(failed)?);
            }
            RocSummary::Binary(Box::new(summary.map_err(failed)?))
        }
        None => {
            let models = class_models(table, truth, reading.labels)?;
            let summary = evaluate::multiclass_summary(table.texts(truth), reading.labels, &models);
            RocSummary::Multiclass(summary.map_err(failed)?)
        }
    };
    if json {
        let json = RocJson {
            file,
            truth_column: truth_name,
            summary: &summary,
            evaluation: evaluation.as_ref(),
        };
        return Ok(format!("{}\n", serde_json::to_string_pretty(&json)?));
    }
    let mut text = match &summary {
        RocSummary::Binary(binary) => binary_text(file, truth_name, binary, reading.options),
        RocSummary::Multiclass(multi) => multiclass_text(file, truth_name, multi),
    }?;
    if let Some(evaluation) = &evaluation {
        text.push_str(&evaluation_text(evaluation)?);
    }
    Ok(text)
}

/// The models of a multi-class reading: each one's score column per class.
fn class_models(
    table: &TextTable,
    truth: usize,
    classes: &[String],
) -> Result<Vec<ClassScores>, RocFileError> {
    let columns: Vec<usize> = (0..table.header().len()).filter(|&c| c != truth).collect();
    let names: Vec<String> = columns.iter().map(|&c| table.header()[c].clone()).collect();
    let models =
        evaluate::class_columns(&names, classes).map_err(|source| RocFileError::Classes {
            file: table.path().display().to_string(),
            source,
        })?;
    let model = |(name, indices): (String, Vec<usize>)| -> Result<ClassScores, RocFileError> {
        let numbers = indices.iter().map(|&i| table.numbers(columns[i], true));
        Ok(ClassScores {
            name: if name.is_empty() {
                "scores".into()
            } else {
                name
            },
            columns: indices.iter().map(|&i| names[i].clone()).collect(),
            scores: numbers.collect::<Result<_, _>>()?,
        })
    };
    models.into_iter().map(model).collect()
}

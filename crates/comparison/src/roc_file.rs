//! What `experiments roc FILE` prints once its flags are checked: the ROC summary of a
//! predictions table (`evaluate::binary_summary` or `evaluate::multiclass_summary`), with
//! `evaluate::evaluation` for two classes when asked, as the tables of `roc_tables` or as one
//! JSON object.
//!
//! The JSON (the `result` of [`crate::json_envelope`]): `{ file, truth_column, kind: "binary" |
//! "multiclass", ... }` (the fields of `evaluate::BinarySummary` or
//! `evaluate::MulticlassSummary`; floats are JSON numbers, or "inf", "-inf", "nan"), with an `evaluation` object when it was asked.
//!
//! File layout (a CSV with a header row):
//! - the truth column (`--truth`, default `truth`, else the first column) holds the true labels;
//! - two-class reading (two labels, or `--positive` given): every other column is one model's
//!   score for the positive class (higher = more positive); the labels other than the positive
//!   one are negatives;
//! - multi-class reading (more than two labels and no `--positive`): every other column is the
//!   score of one class, named `CLASS` (a single model) or `MODEL:CLASS` (several models); each
//!   model has one column for every label of the truth column.

use std::path::Path;

use data::{DataError, TextTable};
use evaluate::{
    BinInterval, BinaryOptions, ClassScores, EvaluateError, EvaluationOptions, RocSummary,
};
use serde::Serialize;

use crate::flag_ranges::{check_bootstrap_work, check_reliability_bins, MeasureFlags, RangeError};
use crate::json_envelope::envelope_text;
use crate::predictions::{besides_truth, named_scores, positive_label, require_rows, scores};
use crate::predictions::{truth_column, PredictionsError};
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
    /// The file has fewer than two columns.
    #[error("'{file}' has only {columns} column(s): expected a truth column and at least one score column")]
    TooFewColumns {
        /// The file.
        file: String,
        /// Its columns.
        columns: usize,
    },
    /// `--target-fpr` outside [0, 1].
    #[error("--target-fpr {0}: a false positive rate must be in [0, 1]")]
    TargetFpr(f64),
    /// A two-class option given for a multi-class reading.
    #[error(
        "--target-fpr, --repair, --evaluate and its options need a two-class reading, but column \
         '{column}' of '{file}' has {labels} labels: give --positive LABEL"
    )]
    NeedsTwoClasses {
        /// The truth column.
        column: String,
        /// The file.
        file: String,
        /// Its labels.
        labels: usize,
    },
    /// More than two labels and no positive one given (`compare bootstrap`).
    #[error(
        "column '{column}' of '{file}' has {labels} labels: give --positive LABEL (the others \
         are negatives)"
    )]
    ManyLabels {
        /// The truth column.
        column: String,
        /// The file.
        file: String,
        /// Its labels.
        labels: usize,
    },
    /// The truth column, the positive label or the score columns cannot be read.
    #[error(transparent)]
    Predictions(#[from] PredictionsError),
    /// A flag is out of its range.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// A table could not be made.
    #[error(transparent)]
    Report(#[from] report::ReportError),
    /// The JSON could not be written.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// What `roc FILE` is asked: the file and its flags.
#[derive(Debug, Clone)]
pub struct RocRequest<'a> {
    /// The predictions file.
    pub path: &'a Path,
    /// The truth column (`--truth`).
    pub truth: Option<&'a str>,
    /// The positive label (`--positive`).
    pub positive: Option<&'a str>,
    /// The binary summary's options (`--target-fpr`, `--repair`).
    pub options: BinaryOptions,
    /// The evaluation beyond ROC, if asked: the reliability bins' interval and the measures'
    /// flags.
    pub evaluation: Option<(BinInterval, MeasureFlags)>,
    /// One JSON object instead of tables (`--json`).
    pub json: bool,
}

/// What `roc FILE` prints for `request`, once the file and the flags are checked.
pub fn roc_output(request: &RocRequest) -> Result<String, RocFileError> {
    let table = TextTable::read(request.path)?;
    let file = request.path.display().to_string();
    let columns = table.header().len();
    if columns < 2 {
        return Err(RocFileError::TooFewColumns { file, columns });
    }
    require_rows(&table, &file)?;
    if let Some(rate) = request.options.target_fpr {
        if !(0.0..=1.0).contains(&rate) {
            return Err(RocFileError::TargetFpr(rate));
        }
    }
    let (truth, labels) = truth_column(&table, request.truth)?;
    let truth_name = table.header()[truth].as_str();
    let evaluation = match request.evaluation {
        Some((interval, flags)) => Some(flags.options(interval)?),
        None => None,
    };
    let options = request.options;
    let positive = if request.positive.is_some() || labels.len() <= 2 {
        Some(positive_label(
            request.positive,
            &labels,
            &file,
            truth_name,
        )?)
    } else {
        if options.target_fpr.is_some() || options.repair || evaluation.is_some() {
            return Err(RocFileError::NeedsTwoClasses {
                column: truth_name.into(),
                file,
                labels: labels.len(),
            });
        }
        None
    };
    let reading = RocReading {
        file: &file,
        truth,
        positive: positive.as_deref(),
        labels: &labels,
        options,
        evaluation: evaluation.as_ref(),
    };
    reading_output(&table, &reading, request.json)
}

/// How to read a predictions table.
#[derive(Debug, Clone)]
struct RocReading<'a> {
    /// The file, as shown.
    file: &'a str,
    /// The truth column.
    truth: usize,
    /// Two-class reading: the positive label; multi-class: `None`.
    positive: Option<&'a str>,
    /// The truth column's labels (the classes of a multi-class reading).
    labels: &'a [String],
    /// The binary summary's options.
    options: BinaryOptions,
    /// The evaluation beyond ROC (two classes), if asked.
    evaluation: Option<&'a EvaluationOptions>,
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
fn reading_output(
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
    let mut evaluation = None;
    let summary = match reading.positive {
        Some(positive) => {
            let scores = named_scores(table, &besides_truth(table, truth))?;
            let texts = table.texts(truth);
            let summary = evaluate::binary_summary(texts, positive, &scores, reading.options);
            if let Some(options) = reading.evaluation {
                check_bootstrap_work(options, texts, positive, scores.len())?;
                check_reliability_bins(options, scores.len())?;
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
        let inputs = serde_json::json!({
            "file": file, "truth_column": truth_name, "positive": reading.positive,
            "evaluate": evaluation.is_some(),
        });
        return Ok(envelope_text("roc", inputs, &json, &[])?);
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
    let columns = besides_truth(table, truth);
    let names: Vec<String> = columns.iter().map(|&c| table.header()[c].clone()).collect();
    let models =
        evaluate::class_columns(&names, classes).map_err(|source| RocFileError::Classes {
            file: table.path().display().to_string(),
            source,
        })?;
    let model = |(name, indices): (String, Vec<usize>)| -> Result<ClassScores, RocFileError> {
        let numbers = indices.iter().map(|&i| scores(table, columns[i]));
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

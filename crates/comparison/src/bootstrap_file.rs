//! What `experiments compare bootstrap --scores FILE` prints: the bootstrap intervals
//! (`evaluate::bootstrap_intervals`: percentile and BCa, class-stratified, seeded) of every
//! measure of each chosen score column of a two-class predictions file (the layout of `roc`),
//! and the paired intervals of every two columns' differences on the same rows, as tables or
//! as one JSON object (the `result` of [`crate::json_envelope`]) `{ file, truth_column,
//! positive, options, models, differences }` (the fields of `evaluate::Intervals`;
//! `models[].intervals` and `differences` have the shape of `roc --json --evaluate`'s `evaluation.models[].intervals` and `evaluation.differences`, and
//! for the same file and flags the same values).

use std::path::Path;

use data::TextTable;
use evaluate::{BinInterval, EvaluationOptions, Intervals, MeasureInterval};
use serde::Serialize;

use crate::flag_ranges::{check_bootstrap_work, MeasureFlags};
use crate::json_envelope::envelope_text;
use crate::predictions::{named_scores, positive_label, require_rows, score_columns, truth_column};
use crate::roc_file::RocFileError;
use crate::roc_tables::{differences_table, intervals_table};

/// What `compare bootstrap` is asked: the file and its flags.
#[derive(Debug, Clone)]
pub struct BootstrapRequest<'a> {
    /// The predictions file (`--scores`).
    pub path: &'a Path,
    /// The truth column (`--truth`).
    pub truth: Option<&'a str>,
    /// The positive label (`--positive`).
    pub positive: Option<&'a str>,
    /// The score columns to bootstrap (`--models`; empty: every one).
    pub models: &'a [String],
    /// The measures' and the bootstrap's flags.
    pub measures: MeasureFlags,
    /// One JSON object instead of tables (`--json`).
    pub json: bool,
}

/// What `compare bootstrap` prints for `request`, once the file and the flags are checked.
pub fn bootstrap_output(request: &BootstrapRequest) -> Result<String, RocFileError> {
    let options = request.measures.options(BinInterval::Wilson)?;
    let table = TextTable::read(request.path)?;
    let file = request.path.display().to_string();
    require_rows(&table, &file)?;
    let (truth, labels) = truth_column(&table, request.truth)?;
    let truth_name = table.header()[truth].clone();
    if request.positive.is_none() && labels.len() > 2 {
        return Err(RocFileError::ManyLabels {
            column: truth_name,
            file,
            labels: labels.len(),
        });
    }
    let positive = positive_label(request.positive, &labels, &file, &truth_name)?;
    let columns = score_columns(&table, truth, request.models, &file)?;
    let reading = BootstrapReading {
        file: &file,
        truth,
        positive: &positive,
        columns: &columns,
        options: &options,
    };
    reading_output(&table, &reading, request.json)
}

/// How to read the predictions file.
#[derive(Debug, Clone)]
struct BootstrapReading<'a> {
    /// The file, as shown.
    file: &'a str,
    /// The truth column.
    truth: usize,
    /// The positive label.
    positive: &'a str,
    /// The score columns to bootstrap, in order.
    columns: &'a [usize],
    /// The measures' and the bootstrap's options.
    options: &'a EvaluationOptions,
}

/// `compare bootstrap --json`.
#[derive(Serialize)]
struct BootstrapJson<'a> {
    file: &'a str,
    truth_column: &'a str,
    positive: &'a str,
    #[serde(flatten)]
    intervals: &'a Intervals,
}

/// The intervals of `table` read as `reading` says, as text or JSON.
fn reading_output(
    table: &TextTable,
    reading: &BootstrapReading,
    json: bool,
) -> Result<String, RocFileError> {
    let truth_name = table.header()[reading.truth].as_str();
    let columns = named_scores(table, reading.columns)?;
    let texts = table.texts(reading.truth);
    check_bootstrap_work(reading.options, texts, reading.positive, columns.len())?;
    let intervals =
        evaluate::bootstrap_intervals(texts, reading.positive, &columns, reading.options).map_err(
            |source| RocFileError::Evaluate {
                file: reading.file.to_string(),
                source,
            },
        )?;
    if json {
        let json = BootstrapJson {
            file: reading.file,
            truth_column: truth_name,
            positive: reading.positive,
            intervals: &intervals,
        };
        let inputs = serde_json::json!({
            "file": reading.file, "truth_column": truth_name, "positive": reading.positive,
        });
        return Ok(envelope_text("compare bootstrap", inputs, &json, &[])?);
    }
    let mut text = format!(
        "'{}': {} rows, positive label '{}' of column '{truth_name}'\n\n",
        reading.file,
        texts.len(),
        reading.positive
    );
    let rows: Vec<(&str, &[MeasureInterval])> = intervals
        .models
        .iter()
        .map(|model| (model.name.as_str(), model.intervals.as_slice()))
        .collect();
    text.push_str(&intervals_table(&intervals.options, &rows)?);
    if !intervals.differences.is_empty() {
        text.push('\n');
        text.push_str(&differences_table(&intervals.differences)?);
    }
    Ok(text)
}

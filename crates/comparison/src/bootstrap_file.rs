//! What `experiments compare bootstrap --scores FILE` prints: the bootstrap intervals
//! (`evaluate::bootstrap_intervals`: percentile and BCa, class-stratified, seeded) of every
//! measure of each chosen score column of a two-class predictions file (the layout of `roc`),
//! and the paired intervals of every two columns' differences on the same rows, as tables or
//! as one JSON object `{ file, truth_column, positive, options, models, differences }` (the
//! fields of `evaluate::Intervals`; `models[].intervals` and `differences` have the shape of
//! `roc --json --evaluate`'s `evaluation.models[].intervals` and `evaluation.differences`, and
//! for the same file and flags the same values).

use data::TextTable;
use evaluate::{EvaluationOptions, Intervals, MeasureInterval};
use serde::Serialize;

use crate::roc_file::RocFileError;
use crate::roc_tables::{differences_table, intervals_table};

/// How to read the predictions file.
#[derive(Debug, Clone)]
pub struct BootstrapReading<'a> {
    /// The file, as shown.
    pub file: &'a str,
    /// The truth column.
    pub truth: usize,
    /// The positive label.
    pub positive: &'a str,
    /// The score columns to bootstrap, in order.
    pub columns: &'a [usize],
    /// The measures' and the bootstrap's options.
    pub options: &'a EvaluationOptions,
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
pub fn bootstrap_output(
    table: &TextTable,
    reading: &BootstrapReading,
    json: bool,
) -> Result<String, RocFileError> {
    let truth_name = table.header()[reading.truth].as_str();
    let columns = reading
        .columns
        .iter()
        .map(|&column| Ok((table.header()[column].clone(), table.numbers(column, true)?)))
        .collect::<Result<Vec<_>, data::DataError>>()?;
    let texts = table.texts(reading.truth);
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
        return Ok(format!("{}\n", serde_json::to_string_pretty(&json)?));
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

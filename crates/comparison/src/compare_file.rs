//! What `experiments compare FILE` prints once its flags are checked: the paired tests between
//! two learners' per-fold results (`stats::compare_folds`, printed by `fold_text`), or, for a
//! table of results (a `dataset` column, or a Parquet file), the across-data-set analysis
//! (`across::analyse` on the table `read_results` reads, printed as a run's `across_datasets`
//! tables).
//!
//! Per-fold file layout (a CSV with a header row): one row per fold (or split), one numeric
//! column per learner, and optionally a `repetition` column (also spelt `rep` or `run`) and a
//! `fold` column, which give the runs of the Bayesian correlated t-test and the 5x2cv tests
//! (see `stats::compare_folds`).
//!
//! With `--json` one object (the `result` of [`crate::json_envelope`]): per-fold results give
//! `{ file, a, b, ... }` with the fields of `stats::FoldComparison` (d = a - b; a test not
//! computed is `null` and `notes` says why); a table of results gives `{ file, measure, higher_is_better, rows_averaged, table, analysis
//! }` where `table` is the `stats::across_analysis::ResultsTable` read (missing cells `null`,
//! a long table's folds) and `analysis` the `stats::across_analysis::AcrossAnalysis` of
//! `across::analyse`, the call a run's `across_datasets` analysis makes. Floats are JSON
//! numbers, or "inf", "-inf", "nan".

use data::{DataError, TextTable};

use serde::Serialize;
use stats::across_analysis::{AcrossAnalysis, ResultsTable as AnalysisTable};
use stats::{FoldComparison, FoldOptions};

use crate::across::{self, Settings};
use crate::finite::{check_differences, check_sum, OverflowError, Placed};
use crate::json_envelope::envelope_text;
use crate::predictions::{two_columns, PredictionsError};
use crate::results_table::{across_text, ResultsTable, TableError};
use crate::results_table::{FOLD_COLUMNS, REPETITION_COLUMNS};

/// Why a file could not be compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareFileError {
    /// The table has more learners than the across-data-set tests take.
    #[error("'{file}' has {learners} learners; the across-data-set tests take at most {most}")]
    TooManyLearners {
        /// The file.
        file: String,
        /// Its learners.
        learners: usize,
        /// The most the tests take.
        most: usize,
    },
    /// `--missing drop-learners` leaves fewer than two learners.
    #[error(
        "--missing drop-learners leaves {kept} of the {learners} learners of '{file}', and the \
         tests need at least 2; dropped, for lacking a result: {dropped}; use --missing \
         skillings-mack (the default) or drop-datasets"
    )]
    AllLearnersDropped {
        /// The file.
        file: String,
        /// Its learners.
        learners: usize,
        /// The learners kept.
        kept: usize,
        /// Each dropped learner with the datasets it lacks.
        dropped: String,
    },
    /// Bergmann-Hommel asked for more learners than it is computed for.
    #[error(
        "--cd-adjustment bergmann-hommel takes at most {most} learners (it enumerates every \
         exhaustive set of hypotheses), and '{file}' has {learners} to compare; use shaffer (its \
         static relative), holm or another adjustment"
    )]
    BergmannHommel {
        /// The file.
        file: String,
        /// The learners the CD diagram would compare.
        learners: usize,
        /// The most Bergmann-Hommel takes.
        most: usize,
    },
    /// The analysis failed, or nothing could be compared (the sentence says why).
    #[error("'{file}': {why}")]
    Analysis {
        /// The file.
        file: String,
        /// Why.
        why: String,
    },
    /// A flag names what the table does not have, or is malformed.
    #[error("'{file}': {problem}")]
    Flag {
        /// The file.
        file: String,
        /// The flag, its value and what it allows.
        problem: String,
    },
    /// Two values whose difference, or a column whose sum, is beyond f64.
    #[error(transparent)]
    Overflow(#[from] OverflowError),
    /// The table has no rows.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The two columns cannot be chosen.
    #[error(transparent)]
    Columns(#[from] PredictionsError),
    /// A column is missing, or a value is not a number.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A table could not be made.
    #[error(transparent)]
    Report(#[from] report::ReportError),
    /// The JSON could not be written.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// `compare TABLE --json`.
#[derive(Serialize)]
struct AcrossJson<'a> {
    file: &'a str,
    measure: Option<&'a str>,
    higher_is_better: bool,
    rows_averaged: usize,
    table: &'a AnalysisTable,
    analysis: &'a AcrossAnalysis,
}

/// Refuses a table with more learners than the across-data-set tests take.
pub fn check_learners(file: &str, results: &ResultsTable) -> Result<(), CompareFileError> {
    if results.table.learners.len() > stats::MAX_RANKED_LEARNERS {
        return Err(CompareFileError::TooManyLearners {
            file: file.to_string(),
            learners: results.table.learners.len(),
            most: stats::MAX_RANKED_LEARNERS,
        });
    }
    Ok(())
}

/// Refuses settings the analysis of `results` cannot follow: `--missing drop-learners` that
/// leaves fewer than two learners, Bergmann-Hommel's adjustment of the CD diagram's test over
/// more learners than it takes.
pub fn check_settings(
    file: &str,
    results: &ResultsTable,
    settings: &Settings,
) -> Result<(), CompareFileError> {
    let table = &results.table;
    let missing = stats::skillings_mack::apply_missing_policy(&table.values, settings.missing)
        .map_err(|error| CompareFileError::Analysis {
            file: file.to_string(),
            why: error.to_string(),
        })?;
    let kept = missing.kept_learners.len();
    if settings.missing == stats::skillings_mack::MissingPolicy::DropLearners && kept < 2 {
        let dropped: Vec<String> = (missing.dropped_learners.iter())
            .map(|(learner, lacking)| {
                let names: Vec<&str> = lacking.iter().map(|&d| &*table.datasets[d]).collect();
                format!("{} (on {})", table.learners[*learner], names.join(", "))
            })
            .collect();
        return Err(CompareFileError::AllLearnersDropped {
            file: file.to_string(),
            learners: table.learners.len(),
            kept,
            dropped: dropped.join("; "),
        });
    }
    let procedure = settings.cd_procedure;
    let most = stats::adjust::BERGMANN_HOMMEL_MAX_LEARNERS;
    if procedure.adjustment == stats::across_analysis::Adjustment::BergmannHommel
        && procedure.test != stats::across_analysis::PairwiseTest::Nemenyi
        && kept > most
    {
        return Err(CompareFileError::BergmannHommel {
            file: file.to_string(),
            learners: kept,
            most,
        });
    }
    Ok(())
}

/// The across-data-set analysis of `results` (read from `file`) with `settings`, as text or
/// JSON.
pub fn across_output(
    file: &str,
    results: &ResultsTable,
    settings: &Settings,
    json: bool,
) -> Result<String, CompareFileError> {
    check_learners(file, results)?;
    check_settings(file, results, settings)?;
    let failed = |why: String| CompareFileError::Analysis {
        file: file.to_string(),
        why,
    };
    // The measure's name seeds each Monte Carlo part, as in a run's analysis.
    let measure = results.measure.clone().unwrap_or_default();
    let higher_is_better = !results.lower_is_better;
    let analysis = across::analyse(&results.table, &measure, higher_is_better, settings)
        .map_err(|error| failed(error.to_string()))?;
    if analysis.core.is_none() && analysis.skillings_mack.is_none() {
        let mut reasons: Vec<String> = analysis
            .skipped
            .iter()
            .map(|s| format!("{}: {}", s.part, s.reason))
            .collect();
        reasons.extend(across::missing_cells(&results.table));
        let why = format!("nothing could be compared: {}", reasons.join("; "));
        return Err(failed(why));
    }
    if !json {
        return Ok(across_text(file, results, &analysis)?);
    }
    let json = AcrossJson {
        file,
        measure: results.measure.as_deref(),
        higher_is_better,
        rows_averaged: results.rows_averaged,
        table: &results.table,
        analysis: &analysis,
    };
    let inputs = serde_json::json!({ "file": file, "measure": results.measure });
    Ok(envelope_text(
        "compare table",
        inputs,
        &json,
        &results.notes,
    )?)
}

/// `compare FOLDS --json`.
#[derive(Serialize)]
struct FoldsJson<'a> {
    file: &'a str,
    a: &'a str,
    b: &'a str,
    #[serde(flatten)]
    comparison: &'a FoldComparison,
}

/// The paired tests of the per-fold results of the learners `a` and `b` (`--a`, `--b`; default:
/// the only two learner columns) in `table`, read from `file`, with `options`, as text or JSON.
pub fn folds_output(
    table: &TextTable,
    file: &str,
    [a, b]: [Option<&str>; 2],
    options: &FoldOptions,
    json: bool,
) -> Result<String, CompareFileError> {
    let learners = learner_columns(table);
    let (a, b) = two_columns(file, "learner", &learners, a, b)?;
    let (column_a, column_b) = (table.column(&a)?, table.column(&b)?);
    if table.is_empty() {
        let path = table.path().to_path_buf();
        return Err(TableError::NoRows { path }.into());
    }
    let values = (
        table.numbers(column_a, false)?,
        table.numbers(column_b, false)?,
    );
    check_fold_values(table, [&a, &b], [&values.0, &values.1])?;
    let (repetition, fold) = fold_indices(table)?;
    let (repetition, fold) = (repetition.as_deref(), fold.as_deref());
    let comparison = stats::compare_folds(&values.0, &values.1, repetition, fold, options);
    if !json {
        return Ok(crate::fold_tables::fold_text(file, &a, &b, &comparison)?);
    }
    let json = FoldsJson {
        file,
        a: &a,
        b: &b,
        comparison: &comparison,
    };
    let inputs = serde_json::json!({ "file": file, "a": a, "b": b });
    Ok(envelope_text("compare folds", inputs, &json, &[])?)
}

/// The per-fold values of two learners: every difference a - b and every column's sum finite
/// (`finite`), else an error naming the lines.
fn check_fold_values(
    table: &TextTable,
    names: [&str; 2],
    values: [&[f64]; 2],
) -> Result<(), CompareFileError> {
    let file = table.path().display().to_string();
    let lines: Vec<usize> = (0..table.len()).map(|row| table.line_of(row)).collect();
    let [a, b] = values;
    for row in 0..a.len() {
        let line = &lines[row..=row];
        let placed = |name, value| Placed {
            name,
            lines: line,
            value,
        };
        check_differences(
            &file,
            "",
            &[placed(names[0], a[row]), placed(names[1], b[row])],
        )?;
    }
    for (name, column) in names.iter().zip([a, b]) {
        check_sum(&file, &format!("column '{name}'"), &lines, column)?;
    }
    Ok(())
}

/// The columns of a per-fold table that are learners' (not the repetition or fold index).
fn learner_columns(table: &TextTable) -> Vec<&String> {
    let is_index = |name: &str| {
        let names = REPETITION_COLUMNS.iter().chain(&FOLD_COLUMNS);
        names
            .into_iter()
            .any(|index| name.eq_ignore_ascii_case(index))
    };
    table.header().iter().filter(|n| !is_index(n)).collect()
}

/// A per-fold table's repetition and fold index of each row, where it has those columns.
type FoldIndices = (Option<Vec<f64>>, Option<Vec<f64>>);

/// The repetition and fold indices of a per-fold table's rows, where it has those columns.
fn fold_indices(table: &TextTable) -> Result<FoldIndices, DataError> {
    let index = |names: &[&str]| match table.find_any(names) {
        Some(column) => table.numbers(column, false).map(Some),
        None => Ok(None),
    };
    Ok((index(&REPETITION_COLUMNS)?, index(&FOLD_COLUMNS)?))
}

//! A table of results read into the datasets x learners table the across-data-set analysis
//! compares (missing cells allowed; a long table's rows of a cell kept as its folds), as the
//! `compare` command reads it, and the text it prints for it.
//!
//! Layouts (CSV, or Parquet when the name ends in `.parquet`; column names are matched without
//! regard to case):
//! - long: columns `dataset`, `learner`, `value`, optionally `measure` (one is chosen when there
//!   are several) and `part` (rows of the chosen part, by default `test`, are kept); several
//!   rows of one (dataset, learner), such as the folds of a run's `per_fold.csv` or
//!   `per_fold.parquet`, are averaged (and kept, in file order, as the cell's folds); a
//!   dataset and learner without rows is a missing result; any other column is ignored;
//! - wide: a `dataset` column naming the datasets, and one numeric column per learner (an
//!   empty cell is a missing result).
//!
//! The header alone decides ([`layout`]): without a `dataset` column a table is per-fold
//! results, whatever its cells hold.
//!
//! Errors name the file and line, and the `compare` option (`--measure`, `--part`) to give.

use std::path::{Path, PathBuf};

use data::{DataError, TextTable};
use report::{ReportError, Table};
use stats::across_analysis::{AcrossAnalysis, ResultsTable as AnalysisTable};

use crate::across_tables::{extra_tables, missing_sentence};
use crate::analysis::{complete_table, measure_tables};
use crate::finite::{check_differences, check_sum, lines_text, OverflowError, Placed};

/// Why a table of results could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file, a field or a column.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A Parquet file that could not be read.
    #[cfg(feature = "polars")]
    #[error("'{path}' is not a readable Parquet file: {source}")]
    Parquet {
        path: PathBuf,
        source: polars::error::PolarsError,
    },
    /// A Parquet file given to a build without the `polars` feature.
    #[cfg(not(feature = "polars"))]
    #[error(
        "'{path}': this build reads no Parquet; give the table as CSV (a run's per_fold.csv holds \
         the same table as its per_fold.parquet), or build with Parquet input: \
         cargo run -p experiments --features polars -- compare ..."
    )]
    ParquetNeedsFeature { path: PathBuf },
    /// A table without rows.
    #[error("'{path}' has a header but no row of results")]
    NoRows { path: PathBuf },
    /// A row without a dataset or learner name.
    #[error("{path}:{line}: the {what} name is empty")]
    EmptyName {
        path: PathBuf,
        line: usize,
        what: &'static str,
    },
    /// A wide table naming a dataset twice.
    #[error(
        "{path}:{line}: dataset '{dataset}' appears twice, on lines {first} and {line}; a wide \
         table has one row per dataset (a long table's rows of one dataset and learner are \
         averaged, as folds)"
    )]
    DatasetTwice {
        path: PathBuf,
        first: usize,
        line: usize,
        dataset: String,
    },
    /// Values whose difference or sum is beyond f64.
    #[error(transparent)]
    Overflow(#[from] OverflowError),
    /// A measure or part the table does not have.
    #[error("--{option} {wanted}: '{path}' has no such value in column '{column}' (its values: {values})")]
    NoSuchValue {
        path: PathBuf,
        option: &'static str,
        wanted: String,
        column: String,
        values: String,
    },
    /// Several measures or parts, none chosen.
    #[error(
        "'{path}' has several values in column '{column}' ({values}): choose one with --{option}"
    )]
    Ambiguous {
        path: PathBuf,
        option: &'static str,
        column: String,
        values: String,
    },
    /// A part chosen for a wide table.
    #[error("--part applies to a long table with a 'part' column; '{path}' is a wide table (one column per learner)")]
    PartOfWide { path: PathBuf },
    /// A part chosen for a long table without a part column.
    #[error("--part: '{path}' has no 'part' column")]
    NoPart { path: PathBuf },
}

/// Reads a table from a CSV file, or from a Parquet file when the name ends in `.parquet`
/// (every column read as text; a null cell reads as an empty one).
pub fn read_table(path: &Path) -> Result<TextTable, TableError> {
    let is_parquet = path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("parquet"));
    if !is_parquet {
        return Ok(TextTable::read(path)?);
    }
    read_parquet(path)
}

/// Without the `polars` feature: a clear refusal.
#[cfg(not(feature = "polars"))]
fn read_parquet(path: &Path) -> Result<TextTable, TableError> {
    Err(TableError::ParquetNeedsFeature {
        path: path.to_path_buf(),
    })
}

/// Every column of a Parquet file read as text by polars (a null cell reads as an empty one).
#[cfg(feature = "polars")]
fn read_parquet(path: &Path) -> Result<TextTable, TableError> {
    use polars::prelude::{DataType, ParquetReader, SerReader};
    let failed = |source| TableError::Parquet {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(|error| DataError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let frame = ParquetReader::new(file).finish().map_err(failed)?;
    let mut header = Vec::new();
    let mut columns = Vec::new();
    for column in frame.columns() {
        let text = column.cast(&DataType::String).map_err(failed)?;
        let text = text.str().map_err(failed)?;
        header.push(column.name().to_string());
        columns.push(
            (0..text.len())
                .map(|row| text.get(row).unwrap_or("").to_string())
                .collect(),
        );
    }
    Ok(TextTable::from_columns(path, header, columns))
}

/// Column names (any case) read as the repetition index, and as the fold index, of per-fold
/// results and of a long table's rows.
pub(crate) const REPETITION_COLUMNS: [&str; 3] = ["repetition", "rep", "run"];
pub(crate) const FOLD_COLUMNS: [&str; 1] = ["fold"];

/// Column names (any case) of the long layout.
const DATASET_COLUMNS: [&str; 3] = ["dataset", "data set", "data_set"];

/// How a table of results is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One row per (dataset, learner[, fold ...]) with a value column.
    Long {
        /// The dataset column.
        dataset: usize,
        /// The learner column.
        learner: usize,
        /// The value column.
        value: usize,
        /// The measure column, if any.
        measure: Option<usize>,
        /// The part column, if any.
        part: Option<usize>,
    },
    /// One row per dataset, one column per learner.
    Wide {
        /// The dataset column.
        dataset: usize,
    },
}

/// The layout of a table of results, decided by its header alone: a `dataset` column (also
/// spelt `data set`, `data_set`, any case) makes a table of results (long with `learner` and
/// `value` columns, else wide); `None` for per-fold results (no dataset column).
pub fn layout(table: &TextTable) -> Option<Layout> {
    let dataset = table.find_any(&DATASET_COLUMNS);
    let columns = (table.find_any(&["learner"]), table.find_any(&["value"]));
    if let (Some(dataset), (Some(learner), Some(value))) = (dataset, columns) {
        return Some(Layout::Long {
            dataset,
            learner,
            value,
            measure: table.find_any(&["measure"]),
            part: table.find_any(&["part"]),
        });
    }
    // The header alone decides: a cell that does not parse (a typo, `NA`) must not turn
    // per-fold results into a table of results.
    dataset.map(|dataset| Layout::Wide { dataset })
}

/// Which rows of a long table to compare, and the direction of the values.
#[derive(Clone, Copy)]
pub struct Choice<'a> {
    /// The measure, when a `measure` column has several (it also sets the direction: error,
    /// brier and log_loss are lower-is-better).
    pub measure: Option<&'a str>,
    /// The rows of this `part` (default `test` when the column has it).
    pub part: Option<&'a str>,
    /// Lower values are better, whatever the measure.
    pub lower_is_better: bool,
    /// The measures a measure's name is looked up in for its direction (an engine's
    /// `registries.measures`: the built-in ones and a user's own).
    pub measures: &'a engine::Registry<engine::MeasureSpec>,
}

/// A table of results as the across-data-set analysis reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultsTable {
    /// The datasets x learners table (`None` for a missing result: an empty cell of a wide
    /// table, or a dataset and learner without rows in a long one), with each cell's rows of a
    /// long table in file order as its folds when some cell has several.
    pub table: AnalysisTable,
    /// The measure, when the table says or the choice names it.
    pub measure: Option<String>,
    /// True when lower values are better.
    pub lower_is_better: bool,
    /// Rows of the table read into it.
    pub rows_averaged: usize,
    /// The number of distinct values of a long table's `fold` column, if it has one.
    pub folds: Option<usize>,
    /// What the reading noticed (a long table's repeated rows), for the user.
    pub notes: Vec<String>,
}

/// Reads a table of results into a datasets x learners table.
pub fn read_results(
    table: &TextTable,
    layout: Layout,
    choice: Choice,
) -> Result<ResultsTable, TableError> {
    if table.is_empty() {
        return Err(TableError::NoRows {
            path: table.path().to_path_buf(),
        });
    }
    let (analysis_table, measure, rows_averaged, folds, notes) = match layout {
        Layout::Wide { dataset } => {
            if choice.part.is_some() {
                let path = table.path().to_path_buf();
                return Err(TableError::PartOfWide { path });
            }
            let measure = choice.measure.map(str::to_string);
            let rows = table.len();
            (read_wide(table, dataset)?, measure, rows, None, Vec::new())
        }
        Layout::Long { .. } => read_long(table, layout, choice)?,
    };
    let lower_is_better = choice.lower_is_better
        || measure
            .as_deref()
            .and_then(|name| engine::Measure::from_name(choice.measures, name))
            .is_some_and(|measure| measure.lower_is_better());
    Ok(ResultsTable {
        table: analysis_table,
        measure,
        lower_is_better,
        rows_averaged,
        folds,
        notes,
    })
}

/// A finite number, or an error naming the file, line and column.
fn number(table: &TextTable, row: usize, column: usize) -> Result<f64, TableError> {
    let cell = &table.texts(column)[row];
    if cell.is_empty() {
        return Err(table
            .cell_error(row, column, "the cell is empty, expected a number")
            .into());
    }
    match cell.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        _ => Err(table
            .cell_error(row, column, format!("'{cell}' is not a finite number"))
            .into()),
    }
}

/// A wide table: one row per dataset, an empty cell for a missing result.
fn read_wide(table: &TextTable, dataset: usize) -> Result<AnalysisTable, TableError> {
    let learners: Vec<usize> = (0..table.header().len())
        .filter(|&column| column != dataset)
        .collect();
    let mut values = Vec::new();
    let mut datasets: Vec<String> = Vec::new();
    for (row, name) in table.texts(dataset).iter().enumerate() {
        let (path, line) = (table.path().to_path_buf(), table.line_of(row));
        if name.is_empty() {
            let what = "dataset";
            return Err(TableError::EmptyName { path, line, what });
        }
        if let Some(earlier) = datasets.iter().position(|known| known == name) {
            return Err(TableError::DatasetTwice {
                path,
                first: table.line_of(earlier),
                line,
                dataset: name.clone(),
            });
        }
        datasets.push(name.clone());
        let cells = learners.iter().map(|&column| {
            if table.texts(column)[row].trim().is_empty() {
                Ok(None)
            } else {
                number(table, row, column).map(Some)
            }
        });
        let row_values = cells.collect::<Result<Vec<Option<f64>>, _>>()?;
        let placed: Vec<Placed> = (learners.iter().zip(&row_values))
            .filter_map(|(&column, value)| {
                let name = table.header()[column].as_str();
                value.map(|value| Placed {
                    name,
                    lines: std::slice::from_ref(&line),
                    value,
                })
            })
            .collect();
        let file = path.display().to_string();
        check_differences(&file, &format!(" on dataset '{name}'"), &placed)?;
        values.push(row_values);
    }
    let names = learners
        .iter()
        .map(|&c| table.header()[c].clone())
        .collect();
    Ok(AnalysisTable {
        datasets,
        learners: names,
        values,
        folds: Vec::new(),
    })
}

/// The one value of `column` that rows must have: `wanted`, else `default` when it occurs,
/// else the only value.
fn choose(
    table: &TextTable,
    column: usize,
    wanted: Option<&str>,
    default: Option<&str>,
    option: &'static str,
) -> Result<String, TableError> {
    let mut values: Vec<&str> = Vec::new();
    for cell in table.texts(column) {
        if !values.contains(&cell.as_str()) {
            values.push(cell);
        }
    }
    let (path, column) = (table.path().to_path_buf(), table.header()[column].clone());
    let listed = values.join(", ");
    match (wanted, default) {
        (Some(wanted), _) if values.contains(&wanted) => Ok(wanted.to_string()),
        (Some(wanted), _) => Err(TableError::NoSuchValue {
            path,
            option,
            wanted: wanted.to_string(),
            column,
            values: listed,
        }),
        (None, Some(default)) if values.contains(&default) => Ok(default.to_string()),
        (None, _) if values.len() == 1 => Ok(values[0].to_string()),
        (None, _) => Err(TableError::Ambiguous {
            path,
            option,
            column,
            values: listed,
        }),
    }
}

/// The position of `name` in `names`, appended when new.
fn index_of(names: &mut Vec<String>, name: &str) -> usize {
    match names.iter().position(|known| known == name) {
        Some(index) => index,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    }
}

/// A long table read: the table, its measure, the rows read, the `fold` column's distinct
/// values and the notes on repeated rows.
type LongTable = (
    AnalysisTable,
    Option<String>,
    usize,
    Option<usize>,
    Vec<String>,
);

/// The kept rows of one dataset and learner of a long table: their values and rows, in file
/// order.
struct Cell {
    dataset: usize,
    learner: usize,
    values: Vec<f64>,
    rows: Vec<usize>,
}

/// A long table's kept rows gathered by dataset and learner: the names in order of appearance,
/// the cells, and the `fold` column's distinct values.
struct Cells {
    datasets: Vec<String>,
    learners: Vec<String>,
    cells: Vec<Cell>,
    fold_names: Vec<String>,
}

/// A long table: each (dataset, learner)'s kept rows, in file order, are its folds and their
/// mean its value; a dataset and learner without rows is a missing result.
fn read_long(table: &TextTable, layout: Layout, choice: Choice) -> Result<LongTable, TableError> {
    let Layout::Long {
        dataset,
        learner,
        value,
        measure,
        part,
    } = layout
    else {
        unreachable!("a long layout");
    };
    let path = table.path().to_path_buf();
    let measure_value = match measure {
        Some(column) => Some(choose(table, column, choice.measure, None, "measure")?),
        None => None,
    };
    let part_value = match (part, choice.part) {
        (Some(column), wanted) => Some(choose(table, column, wanted, Some("test"), "part")?),
        (None, Some(_)) => return Err(TableError::NoPart { path }),
        (None, None) => None,
    };
    let kept = |column: Option<usize>, wanted: &Option<String>, row: usize| match (column, wanted) {
        (Some(column), Some(wanted)) => table.texts(column)[row] == *wanted,
        _ => true,
    };
    let rows: Vec<usize> = (0..table.len())
        .filter(|&row| kept(measure, &measure_value, row) && kept(part, &part_value, row))
        .collect();
    let read = long_cells(table, [dataset, learner, value], &rows)?;
    check_long(table, value, &read)?;
    let notes = repeated_rows(table, &read).into_iter().collect();
    let (datasets, learners) = (read.datasets.len(), read.learners.len());
    let mut values = vec![vec![None; learners]; datasets];
    let mut folds = vec![vec![Vec::new(); learners]; datasets];
    let several = read.cells.iter().any(|cell| cell.values.len() > 1);
    for cell in read.cells {
        let mean = cell.values.iter().sum::<f64>() / cell.values.len() as f64;
        values[cell.dataset][cell.learner] = Some(mean);
        folds[cell.dataset][cell.learner] = cell.values;
    }
    let measure = measure_value.or_else(|| choice.measure.map(str::to_string));
    let fold_count = table.find_any(&FOLD_COLUMNS).map(|_| read.fold_names.len());
    let table = AnalysisTable {
        datasets: read.datasets,
        learners: read.learners,
        values,
        folds: if several { folds } else { Vec::new() },
    };
    Ok((table, measure, rows.len(), fold_count, notes))
}

/// The `rows` of a long table gathered by dataset and learner (`columns`: the dataset, learner
/// and value columns); an empty name or a value that is not a finite number is an error naming
/// the line.
fn long_cells(table: &TextTable, columns: [usize; 3], rows: &[usize]) -> Result<Cells, TableError> {
    let [dataset, learner, value] = columns;
    let fold_column = table.find_any(&FOLD_COLUMNS);
    let mut read = Cells {
        datasets: Vec::new(),
        learners: Vec::new(),
        cells: Vec::new(),
        fold_names: Vec::new(),
    };
    for &row in rows {
        let names = (&table.texts(dataset)[row], &table.texts(learner)[row]);
        for (name, what) in [(names.0, "dataset"), (names.1, "learner")] {
            if name.is_empty() {
                let (path, line) = (table.path().to_path_buf(), table.line_of(row));
                return Err(TableError::EmptyName { path, line, what });
            }
        }
        let number = number(table, row, value)?;
        if let Some(column) = fold_column {
            index_of(&mut read.fold_names, &table.texts(column)[row]);
        }
        let (dataset, learner) = (
            index_of(&mut read.datasets, names.0),
            index_of(&mut read.learners, names.1),
        );
        let known = (read.cells.iter_mut()).find(|c| (c.dataset, c.learner) == (dataset, learner));
        match known {
            Some(cell) => {
                cell.values.push(number);
                cell.rows.push(row);
            }
            None => read.cells.push(Cell {
                dataset,
                learner,
                values: vec![number],
                rows: vec![row],
            }),
        }
    }
    Ok(read)
}

/// The arithmetic the tests do on a long table's cells within f64 (`finite`): each cell's rows
/// add up, and every two learners' means on a dataset differ, by finite amounts.
fn check_long(table: &TextTable, value: usize, read: &Cells) -> Result<(), TableError> {
    let file = table.path().display().to_string();
    let column = &table.header()[value];
    let lines: Vec<Vec<usize>> = (read.cells.iter())
        .map(|cell| cell.rows.iter().map(|&row| table.line_of(row)).collect())
        .collect();
    for (cell, lines) in read.cells.iter().zip(&lines) {
        let (dataset, learner) = (&read.datasets[cell.dataset], &read.learners[cell.learner]);
        let what = format!("column '{column}' for dataset '{dataset}' and learner '{learner}'");
        check_sum(&file, &what, lines, &cell.values)?;
    }
    for (d, dataset) in read.datasets.iter().enumerate() {
        let placed: Vec<Placed> = (read.cells.iter().zip(&lines))
            .filter(|(cell, _)| cell.dataset == d)
            .map(|(cell, lines)| Placed {
                name: &read.learners[cell.learner],
                lines,
                value: cell.values.iter().sum::<f64>() / cell.values.len() as f64,
            })
            .collect();
        check_differences(&file, &format!(" on dataset '{dataset}'"), &placed)?;
    }
    Ok(())
}

/// What a note on repeated rows says they do.
const AVERAGED: &str = "the rows of a dataset and learner are averaged into one value, so a \
                        repeated row counts twice; remove it if it is there by mistake";

/// A note on a long table's repeated rows, which are averaged into their cell like folds: with
/// a fold or repetition column, rows of one dataset and learner with the same fold and
/// repetition; without, a dataset and learner with more rows than most have.
fn repeated_rows(table: &TextTable, read: &Cells) -> Option<String> {
    let file = table.path().display();
    let named = |cell: &Cell| {
        let (dataset, learner) = (&read.datasets[cell.dataset], &read.learners[cell.learner]);
        format!("dataset '{dataset}', learner '{learner}'")
    };
    let more = |count: usize| match count {
        0 => String::new(),
        n => format!(" (and {n} more)"),
    };
    let index: Vec<usize> = [&REPETITION_COLUMNS[..], &FOLD_COLUMNS[..]]
        .iter()
        .filter_map(|names| table.find_any(names))
        .collect();
    if !index.is_empty() {
        let key = |row: usize| {
            index
                .iter()
                .map(|&c| table.texts(c)[row].as_str())
                .collect()
        };
        let mut repeated = Vec::new();
        for cell in &read.cells {
            let mut seen: std::collections::HashMap<Vec<&str>, usize> = Default::default();
            for &row in &cell.rows {
                if let Some(&first) = seen.get(&key(row)) {
                    repeated.push((first, row, cell));
                } else {
                    seen.insert(key(row), row);
                }
            }
        }
        let &(first, row, cell) = repeated.first()?;
        let values: Vec<String> = (index.iter())
            .map(|&c| format!("{} '{}'", table.header()[c], table.texts(c)[row]))
            .collect();
        return Some(format!(
            "'{file}': lines {} and {} are both {}, {}: {AVERAGED}{}",
            table.line_of(first),
            table.line_of(row),
            named(cell),
            values.join(", "),
            more(repeated.len() - 1)
        ));
    }
    let mut counts: Vec<usize> = read.cells.iter().map(|cell| cell.rows.len()).collect();
    counts.sort_unstable();
    let usual = (counts.chunk_by(|a, b| a == b))
        .max_by_key(|run| (run.len(), std::cmp::Reverse(run[0])))
        .map_or(1, |run| run[0]);
    let over: Vec<&Cell> = (read.cells.iter())
        .filter(|cell| cell.rows.len() > usual)
        .collect();
    let cell = over.first()?;
    let lines: Vec<usize> = cell.rows.iter().map(|&row| table.line_of(row)).collect();
    Some(format!(
        "'{file}': {} has {} rows (lines {}) where most datasets and learners have {usual}: \
         {AVERAGED}, or give a fold column{}",
        named(cell),
        cell.rows.len(),
        lines_text(&lines),
        more(over.len() - 1)
    ))
}

/// The text of the across-data-set analysis of `results` read from `file`: a summary line,
/// the tables of a run's `across_datasets` analysis, the CD diagram's bars and autorank's
/// paragraph (the same [`AcrossAnalysis`] the JSON prints).
pub fn across_text(
    file: &str,
    results: &ResultsTable,
    analysis: &AcrossAnalysis,
) -> Result<String, ReportError> {
    let measure = results.measure.as_deref().unwrap_or("value");
    let mut out = format!(
        "{file}: {} datasets x {} learners{}, {}\n",
        results.table.datasets.len(),
        results.table.learners.len(),
        results
            .measure
            .as_deref()
            .map_or(String::new(), |measure| format!(" ({measure})")),
        if results.lower_is_better {
            "lower is better"
        } else {
            "higher is better"
        },
    );
    out.push_str(&format!("{}\n", missing_sentence(analysis, &results.table)));
    let mut tables: Vec<Table> = Vec::new();
    if let Some(result) = &analysis.core {
        let options = &result.options;
        out.push_str(&format!(
            "alpha = {}, rope = {}\n",
            options.alpha, options.rope
        ));
        let complete = complete_table(measure, results.lower_is_better, analysis);
        tables.extend(measure_tables(&complete, result));
    }
    let extra = extra_tables(measure, analysis, &results.table);
    tables.extend(extra.into_iter().map(|(_, table)| table));
    for table in &tables {
        out.push('\n');
        out.push_str(&table.to_markdown()?);
    }
    if let Some(diagram) = &analysis.cd_diagram {
        out.push_str(&format!(
            "\nThe CD diagram's bars ({}), learners not significantly different:\n",
            diagram.procedure
        ));
        if diagram.cliques.is_empty() {
            out.push_str("  none: every two learners differ\n");
        }
        for clique in &diagram.cliques {
            let names: Vec<&str> = clique
                .members
                .iter()
                .map(|&l| analysis.learners[l].as_str())
                .collect();
            out.push_str(&format!("  {}\n", names.join(", ")));
        }
    }
    if let Some(paragraph) = &analysis.autorank_paragraph {
        out.push_str(&format!("\nautorank's automatic analysis: {paragraph}\n"));
    }
    Ok(out)
}

//! `datasplits.arff`: the train and test rows of every repeat, fold and sample of a task.
//! Columns are found by name (`type`, `rowid`, `repeat`, `fold`, and `sample` for learning
//! curves), as openml-python's `OpenMLSplit` finds them; every number is 0-based, and a row id
//! is a row's position in the dataset's ARFF.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::Path;

use data::{visit_arff, ArffAttribute};

use crate::error::OpenmlError;

/// The train and test rows of one repeat, fold and sample of a task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskFold {
    /// The 0-based repeat.
    pub repeat: u32,
    /// The 0-based fold within the repeat.
    pub fold: u32,
    /// The 0-based sample (learning curves); 0 for other tasks.
    pub sample: u32,
    /// The training rows (0-based positions in the dataset's ARFF), in the file's order.
    pub train: Vec<u32>,
    /// The test rows, in the file's order.
    pub test: Vec<u32>,
}

/// The positions of the named columns.
#[derive(Clone, Copy, Default)]
struct Columns {
    kind: usize,
    /// Which of `type`'s declared values is `TEST` (TRAIN is the other), by declared index.
    test_values: [Option<usize>; 2],
    rowid: usize,
    repeat: usize,
    fold: usize,
    sample: Option<usize>,
}

/// A fold being read: its rows and the line it first appears on.
pub(crate) struct Building {
    pub train: Vec<u32>,
    pub test: Vec<u32>,
    pub first_line: usize,
}

/// The folds read, by (repeat, fold, sample).
pub(crate) type Folds = BTreeMap<(u32, u32, u32), Building>;

/// Reads `datasplits.arff` at `path` for a dataset of `n_rows` rows (at `dataset`, for the
/// messages); every row is checked, the folds as a whole are checked by `crate::fold_checks`.
pub(crate) fn read_folds(path: &Path, n_rows: usize, dataset: &Path) -> Result<Folds, OpenmlError> {
    let columns = Cell::new(Columns::default());
    let mut folds = Folds::new();
    visit_arff(
        (path, &[]),
        |attributes| {
            columns.set(find_columns(path, attributes)?);
            Ok::<(), OpenmlError>(())
        },
        |line, row| {
            let columns = columns.get();
            let at = Row { path, line, row };
            let is_test = at.kind(&columns)?;
            let rowid = at.row_id(columns.rowid, n_rows, dataset)?;
            let key = (
                at.whole(columns.repeat, "repeat")?,
                at.whole(columns.fold, "fold")?,
                columns.sample.map_or(Ok(0), |c| at.whole(c, "sample"))?,
            );
            let building = folds.entry(key).or_insert_with(|| Building {
                train: Vec::new(),
                test: Vec::new(),
                first_line: line,
            });
            if is_test {
                building.test.push(rowid);
            } else {
                building.train.push(rowid);
            }
            Ok(())
        },
    )?;
    if folds.is_empty() {
        return Err(OpenmlError::Splits {
            path: path.to_path_buf(),
            message: "no rows after @data; expected one line per train or test row of every fold"
                .into(),
        });
    }
    Ok(folds)
}

/// Finds the columns by name; `type` must be nominal with TRAIN and TEST among its values.
fn find_columns(path: &Path, attributes: &[ArffAttribute]) -> Result<Columns, OpenmlError> {
    let error = |message: String| OpenmlError::Splits {
        path: path.to_path_buf(),
        message,
    };
    let names: Vec<&str> = attributes.iter().map(|a| a.name.as_str()).collect();
    let find = |name: &str| {
        names.iter().position(|n| *n == name).ok_or_else(|| {
            error(format!(
                "no column '{name}'; a splits file has columns type, rowid, repeat and fold (and sample), found: {}",
                data::shown(&names.join(", "))
            ))
        })
    };
    let kind = find("type")?;
    let Some(values) = &attributes[kind].values else {
        return Err(error(
            "column 'type' is numeric; expected the nominal {TRAIN,TEST}".into(),
        ));
    };
    let mut test_values = [None, None];
    for (index, value) in values.iter().enumerate() {
        match value.as_str() {
            "TRAIN" => test_values[0] = Some(index),
            "TEST" => test_values[1] = Some(index),
            _ => {}
        }
    }
    let numeric = |column: usize| match attributes[column].values {
        None => Ok(column),
        Some(_) => Err(error(format!(
            "column '{}' is nominal; expected a numeric (integer) column",
            attributes[column].name
        ))),
    };
    Ok(Columns {
        kind,
        test_values,
        rowid: numeric(find("rowid")?)?,
        repeat: numeric(find("repeat")?)?,
        fold: numeric(find("fold")?)?,
        sample: names
            .iter()
            .position(|n| *n == "sample")
            .map(numeric)
            .transpose()?,
    })
}

/// One data row of the splits file, to read its fields with errors naming the line.
struct Row<'a> {
    path: &'a Path,
    line: usize,
    row: &'a [f64],
}

impl Row<'_> {
    /// An error on this row.
    fn error(&self, message: String) -> OpenmlError {
        OpenmlError::SplitRow {
            path: self.path.to_path_buf(),
            line: self.line,
            message,
        }
    }

    /// Whether the row is a test row (`TEST`) rather than a training row (`TRAIN`).
    fn kind(&self, columns: &Columns) -> Result<bool, OpenmlError> {
        let value = self.row[columns.kind];
        let index = (!value.is_nan()).then_some(value as usize);
        match index {
            Some(i) if columns.test_values[1] == Some(i) => Ok(true),
            Some(i) if columns.test_values[0] == Some(i) => Ok(false),
            _ => Err(self.error(
                "type is neither TRAIN nor TEST; expected TRAIN or TEST on every row".into(),
            )),
        }
    }

    /// A whole number >= 0 within u32 in `column`.
    fn whole(&self, column: usize, name: &str) -> Result<u32, OpenmlError> {
        let value = self.row[column];
        if value.is_nan() || value < 0.0 || value.fract() != 0.0 || value > f64::from(u32::MAX) {
            return Err(self.error(format!(
                "{name} is {}; expected a whole number from 0 to {}",
                shown_number(value),
                u32::MAX
            )));
        }
        Ok(value as u32)
    }

    /// The row id: a whole number below the dataset's number of rows.
    fn row_id(&self, column: usize, n_rows: usize, dataset: &Path) -> Result<u32, OpenmlError> {
        let value = self.row[column];
        if value.is_nan()
            || value < 0.0
            || value.fract() != 0.0
            || value >= n_rows as f64
            || value > f64::from(u32::MAX)
        {
            return Err(self.error(format!(
                "rowid is {}; expected a whole number from 0 to {} (a 0-based position among the {n_rows} rows of {})",
                shown_number(value),
                n_rows.saturating_sub(1),
                dataset.display()
            )));
        }
        Ok(value as u32)
    }
}

/// A number as a message shows it (`?` when missing).
fn shown_number(value: f64) -> String {
    if value.is_nan() {
        "missing (?)".into()
    } else {
        format!("{value}")
    }
}

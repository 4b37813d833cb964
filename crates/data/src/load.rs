//! The one entry point that reads any supported file: [`load`].

use std::path::Path;

use crate::arff::{read_header_format, Dialect};
use crate::dataset::Dataset;
use crate::error::DataError;

/// Which column holds the class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassColumn {
    /// The column with this name.
    Name(String),
    /// The column at this 0-based position in the file.
    Index(usize),
}

/// How to read a file; the defaults suit the shipped CSV files and ordinary ARFF files.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The class column; default: the last column (ARFF, CSV) or the `@outputs` one (KEEL).
    pub class_column: Option<ClassColumn>,
    /// CSV only: exactly these columns are nominal and all other attributes numeric (the class
    /// is always nominal). `None` infers types: a column whose every present value parses as a
    /// finite number is numeric. ARFF and KEEL files declare their types and ignore this.
    pub nominal_columns: Option<Vec<String>>,
    /// The class values in the wanted order (the catalog's); `None` keeps the declared order
    /// (ARFF, KEEL) or the order of first appearance (CSV). A class value in the data that is
    /// not listed is an error.
    pub class_values: Option<Vec<String>>,
    /// The dataset's name; default: the file name without extension.
    pub name: Option<String>,
}

/// Reads a dataset file, choosing the reader by extension: `.csv`, `.arff`, `.dat` (KEEL).
pub fn load(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Dataset, DataError> {
    let path = path.as_ref();
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("csv") => crate::csv::read_csv(path, options),
        Some("arff") => read_header_format(path, options, Dialect::Arff),
        Some("dat") => read_header_format(path, options, Dialect::Keel),
        _ => Err(DataError::UnknownFormat {
            path: path.to_path_buf(),
        }),
    }
}

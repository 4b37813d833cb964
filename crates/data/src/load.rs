//! The one entry point that reads any supported file: [`load`] (and [`load_with_report`], which
//! also tells which CSV column types were inferred rather than declared).
//!
//! The rules for column types, missing markers and the class column are in
//! [`LoadOptions`]'s documentation (`options.rs`).

use std::path::Path;

use crate::arff::{read_header_format, Dialect};
use crate::dataset::Dataset;
use crate::error::DataError;
use crate::options::{LoadOptions, LoadReport};

/// Reads a dataset file, choosing the reader by extension: `.csv`, `.arff`, `.dat` (KEEL).
pub fn load(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Dataset, DataError> {
    load_with_report(path, options).map(|(dataset, _)| dataset)
}

/// Reads a dataset file like [`load`] and also reports which column types were inferred (CSV;
/// ARFF and KEEL declare every type, so their report is empty).
pub fn load_with_report(
    path: impl AsRef<Path>,
    options: &LoadOptions,
) -> Result<(Dataset, LoadReport), DataError> {
    let path = path.as_ref();
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("csv") => crate::csv::read_csv(path, options),
        Some("arff") => Ok((
            read_header_format(path, options, Dialect::Arff)?,
            LoadReport::default(),
        )),
        Some("dat") => Ok((
            read_header_format(path, options, Dialect::Keel)?,
            LoadReport::default(),
        )),
        _ => Err(DataError::UnknownFormat {
            path: path.to_path_buf(),
        }),
    }
}

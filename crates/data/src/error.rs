//! The error type of every reader, the catalog and the transforms.

use std::path::PathBuf;

use crate::dataset::DatasetError;

/// Why a dataset could not be read, checked or transformed. Every variant about a file names the
/// file and, where it applies, the 1-based line and column and what was expected there.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file could not be opened or read (the reason is in the message, not repeated as a
    /// source, so that a printed chain says it once).
    #[error("{path}: cannot read the file: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The file's extension names no known format.
    #[error("{path}: unknown file type; expected a .csv, .arff or .dat (KEEL) file")]
    UnknownFormat { path: PathBuf },
    /// Bytes that are not UTF-8.
    #[error(
        "{path}:{line}:{column}: invalid UTF-8 byte 0x{byte:02x}; the file must be UTF-8 text"
    )]
    NotUtf8 {
        path: PathBuf,
        line: usize,
        column: usize,
        byte: u8,
    },
    /// A file with no header or no data rows.
    #[error("{path}: {what}")]
    Empty { path: PathBuf, what: String },
    /// A data row with the wrong number of fields.
    #[error(
        "{path}:{line}: row has {got} fields, expected {expected} (one per column of the header)"
    )]
    Ragged {
        path: PathBuf,
        line: usize,
        expected: usize,
        got: usize,
    },
    /// A field of a table that is not what its column needs.
    #[error("{path}:{line}, column '{column}': {message}")]
    Cell {
        path: PathBuf,
        line: usize,
        column: String,
        message: String,
    },
    /// A column a table does not have.
    #[error("'{path}' has no column '{name}' (its columns: {columns})")]
    NoColumn {
        path: PathBuf,
        name: String,
        columns: String,
    },
    /// A syntax error: what was found and what was expected.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// A nominal value not among the attribute's declared values.
    #[error("{path}:{line}:{column}: value '{value}' of attribute '{attribute}' is not one of its declared values {{{allowed}}}")]
    UnknownNominal {
        path: PathBuf,
        line: usize,
        column: usize,
        attribute: String,
        value: String,
        allowed: String,
    },
    /// A value that should be a number but is not; `expected` says what is allowed there.
    #[error("{path}:{line}:{column}: value '{value}' of numeric attribute '{attribute}' is not a finite number; expected {expected}")]
    NotNumeric {
        path: PathBuf,
        line: usize,
        column: usize,
        attribute: String,
        value: String,
        expected: String,
    },
    /// A number that is not finite (`NaN`, an infinity, or beyond the `f64` range such as
    /// `1e400`) in a numeric attribute.
    #[error("{path}:{line}:{column}: value '{value}' of numeric attribute '{attribute}' is not a finite number (NaN, infinite, or beyond the f64 range of about 1.8e308); numeric values must be finite; expected {expected}")]
    NonFinite {
        path: PathBuf,
        line: usize,
        column: usize,
        attribute: String,
        value: String,
        expected: String,
    },
    /// A CSV column without a declared type whose values are mostly numbers but not all.
    #[error("{path}:{line}:{column}: value '{value}' of column '{attribute}' is not a number, but {numbers} of the column's {present} present values are; a column is inferred nominal only when most of its present values are not numbers and those take at least two spellings. If '{value}' means a missing value, add it to the missing markers (missing_markers; by default the empty field and '?'); if the column is nominal, declare it nominal (nominal_columns or column_types, or the catalog's nominal_columns)")]
    MixedColumn {
        path: PathBuf,
        line: usize,
        column: usize,
        attribute: String,
        value: String,
        numbers: usize,
        present: usize,
    },
    /// A CSV class column that looks like a regression target.
    #[error("{path}: class column '{class}' looks like a regression target, not class labels: every value is a number and it has {distinct} distinct values in {rows} rows (a numeric class is refused with at least 3 distinct values and more than 20 or more than half the rows); choose another class column or bin the target into classes, or, if these numbers are labels, say so (allow_numeric_class, or list the labels in class_values)")]
    NumericClass {
        path: PathBuf,
        class: String,
        distinct: usize,
        rows: usize,
    },
    /// Column declarations (types, class) that do not fit the file or each other.
    #[error("{path}: {message}")]
    Declaration { path: PathBuf, message: String },
    /// An attribute type the readers do not support (string, date, relational).
    #[error("{path}:{line}: attribute '{attribute}' has type '{kind}', which is not supported; expected numeric, real, integer or a nominal {{...}} list")]
    UnsupportedType {
        path: PathBuf,
        line: usize,
        attribute: String,
        kind: String,
    },
    /// Two attributes (columns) with the same name.
    #[error("{path}:{line}: attribute name '{name}' appears twice; names must be unique")]
    DuplicateName {
        path: PathBuf,
        line: usize,
        name: String,
    },
    /// The requested class column does not exist or cannot be the class.
    #[error("{path}: class column {message}")]
    ClassColumn { path: PathBuf, message: String },
    /// A row without a class value.
    #[error("{path}:{line}: the class value is missing; every row needs a class")]
    MissingClass { path: PathBuf, line: usize },
    /// Fewer than two distinct class values in the data.
    #[error("{path}: class column '{class}' has only {count} distinct value(s) ({values}); a classification dataset needs at least 2")]
    TooFewClasses {
        path: PathBuf,
        class: String,
        count: usize,
        values: String,
    },
    /// The CSV parser (polars) reported an error.
    #[error("{path}: CSV parse error: {message}")]
    Csv { path: PathBuf, message: String },
    /// The parts read could not form a dataset.
    #[error("{path}: {source}")]
    Dataset {
        path: PathBuf,
        #[source]
        source: DatasetError,
    },
    /// The catalog could not be found or parsed.
    #[error("catalog {path}: {message}")]
    Catalog { path: PathBuf, message: String },
    /// A name that is neither a file nor a shipped dataset or collection.
    #[error(
        "'{name}' is neither an existing file nor a shipped dataset; shipped datasets: {known}"
    )]
    UnknownDataset { name: String, known: String },
    /// A file whose contents disagree with its catalog entry.
    #[error("dataset '{name}' ({path}) does not match the catalog: {mismatches}")]
    Mismatch {
        name: String,
        path: PathBuf,
        mismatches: String,
    },
    /// A transform's parameter out of its allowed range or naming nothing.
    #[error("{transform} on dataset '{dataset}': {message}")]
    Transform {
        transform: &'static str,
        dataset: String,
        message: String,
    },
}

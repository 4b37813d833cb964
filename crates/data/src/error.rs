//! The error type of every reader, the catalog and the transforms.

use std::path::PathBuf;

use crate::dataset::DatasetError;
use crate::shown::{shown, shown_list};

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
        "{path}:{line}:{column}: invalid UTF-8 byte 0x{byte:02x}; the file must be UTF-8 text (a byte such as this one often means Latin-1 or Windows-1252: convert the file, e.g. iconv -f WINDOWS-1252 -t UTF-8)"
    )]
    NotUtf8 {
        path: PathBuf,
        line: usize,
        column: usize,
        byte: u8,
    },
    /// A text encoding other than UTF-8 (UTF-16 or UTF-32, with or without a byte-order mark).
    #[error("{path}: the file is {encoding}; it must be UTF-8 text: convert it, e.g. iconv -f UTF-16 -t UTF-8 (or save it as UTF-8 CSV)")]
    Encoding {
        path: PathBuf,
        encoding: &'static str,
    },
    /// A NUL byte, which no text file holds.
    #[error("{path}:{line}:{column}: a NUL byte (0x00); a text file has none (is it a binary file, or UTF-16?)")]
    NulByte {
        path: PathBuf,
        line: usize,
        column: usize,
    },
    /// A CSV file whose first line has none of the separators the reader reads.
    #[error("{path}:1: the header '{}' has no comma, semicolon or tab, so the file has one column; a dataset needs attribute columns and a class column separated by commas (or semicolons, or tabs){}", shown(.header), .found.map_or(String::new(), |found| format!("; the line holds {found:?}, which is not a separator this reader reads")))]
    Delimiter {
        path: PathBuf,
        header: String,
        found: Option<char>,
    },
    /// A first line that is a row of data, not a header.
    #[error("{path}:1: the first line looks like a row of data, not a header: {} of its {fields} fields are numbers ({}); the first line must name the columns: add a header line (e.g. {})", .numbers.len(), shown_list(.numbers, 5), .suggestion)]
    NoHeader {
        path: PathBuf,
        fields: usize,
        numbers: Vec<String>,
        suggestion: String,
    },
    /// A column of numbers written with a decimal comma in a file separated by semicolons.
    #[error("{path}:{line}, column '{}': '{}' is a number written with a decimal comma; this reader reads decimal points: save the file with '.' as the decimal separator (or, if the column holds labels, declare it nominal)", shown(.column), shown(.value))]
    DecimalComma {
        path: PathBuf,
        line: usize,
        column: String,
        value: String,
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
    #[error("{path}:{line}, column '{}': {message}", shown(.column))]
    Cell {
        path: PathBuf,
        line: usize,
        column: String,
        message: String,
    },
    /// A column a table does not have.
    #[error("'{path}' has no column '{}' (its columns: {})", shown(.name), shown(.columns))]
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
    #[error("{path}:{line}:{column}: value '{}' of attribute '{}' is not one of its declared values {{{}}}", shown(.value), shown(.attribute), shown(.allowed))]
    UnknownNominal {
        path: PathBuf,
        line: usize,
        column: usize,
        attribute: String,
        value: String,
        allowed: String,
    },
    /// A value that should be a number but is not; `expected` says what is allowed there.
    #[error("{path}:{line}:{column}: value '{}' of numeric attribute '{}' is not a finite number; expected {expected}", shown(.value), shown(.attribute))]
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
    #[error("{path}:{line}:{column}: value '{}' of numeric attribute '{}' is not a finite number (NaN, infinite, or beyond the f64 range of about 1.8e308); numeric values must be finite; expected {expected}", shown(.value), shown(.attribute))]
    NonFinite {
        path: PathBuf,
        line: usize,
        column: usize,
        attribute: String,
        value: String,
        expected: String,
    },
    /// A CSV column without a declared type whose values are mostly numbers but not all.
    #[error("{path}:{line}:{column}: value '{value}' of column '{}' is not a number, but {numbers} of the column's {present} present values are; a column is inferred nominal only when most of its present values are not numbers and those take at least two spellings. If '{value}' means a missing value, add it to the missing markers (missing_markers; by default the empty field and '?'); if the column is nominal, declare it nominal (nominal_columns or column_types, or the catalog's nominal_columns)", shown(.attribute), value = shown(.value))]
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
    #[error("{path}: class column '{}' looks like a regression target, not class labels: every value is a number and it has {distinct} distinct values in {rows} rows (a numeric class is refused with at least 3 distinct values and more than 20 or more than half the rows); choose another class column or bin the target into classes, or, if these numbers are labels, say so (allow_numeric_class, or list the labels in class_values)", shown(.class))]
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
    #[error("{path}:{line}: attribute '{}' has type '{}', which is not supported; expected numeric, real, integer or a nominal {{...}} list", shown(.attribute), shown(.kind))]
    UnsupportedType {
        path: PathBuf,
        line: usize,
        attribute: String,
        kind: String,
    },
    /// Two attributes (columns) with the same name.
    #[error("{path}:{line}: attribute name '{}' appears twice; names must be unique", shown(.name))]
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
    #[error("{path}: class column '{}' has only {count} distinct value(s) ({}); a classification dataset needs at least 2", shown(.class), shown(.values))]
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
    /// A name that is neither a file nor a shipped dataset or collection: where it was looked
    /// for, and the shipped names nearest it.
    #[error("'{}' is neither an existing file (looked for {}) nor a shipped dataset or collection (catalog {}); {}", shown(.name), shown_list(&.searched.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(), 5), .catalog.display(), if .closest.is_empty() { format!("no shipped name is close to it; `experiments datasets` lists the {} shipped datasets", .shipped) } else { format!("the closest shipped names: {} (`experiments datasets` lists all {})", .closest.join(", "), .shipped) })]
    UnknownDataset {
        name: String,
        searched: Vec<PathBuf>,
        catalog: PathBuf,
        closest: Vec<String>,
        shipped: usize,
    },
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

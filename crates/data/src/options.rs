//! How a file is to be read: [`LoadOptions`] (column types, missing markers, the class column)
//! and [`LoadReport`] (what a reader decided on its own). Every reader takes these; the
//! readers themselves are in `csv` and `arff`, and `load.rs` chooses one by extension.

use crate::notices::LoadNotice;

/// The missing-value markers of a CSV file unless [`LoadOptions::missing_markers`] says
/// otherwise: the empty field and `?` (as in UCI and Weka files).
pub const DEFAULT_MISSING_MARKERS: &[&str] = &["", "?"];

/// Which column holds the class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassColumn {
    /// The column with this name.
    Name(String),
    /// The column at this 0-based position in the file.
    Index(usize),
}

/// A declared column type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// Finite numbers (and missing markers) only.
    Numeric,
    /// Any text; each distinct spelling is a value.
    Nominal,
}

/// How to read a file; the defaults suit the shipped CSV files and ordinary ARFF files.
///
/// This is the whole public surface a caller (the catalog, a config) needs to say how a file is
/// to be read:
///
/// - [`LoadOptions::missing_markers`]: the spellings of a missing value in a CSV file; `None`
///   means [`DEFAULT_MISSING_MARKERS`] (the empty field and `?`). The empty field is always
///   missing. [`LoadOptions::with_missing_marker`] adds one to the current list.
/// - [`LoadOptions::nominal_columns`]: a full declaration (exactly these columns are nominal);
///   [`LoadOptions::column_types`] (or [`LoadOptions::declare`]): per-column declarations, the
///   other columns being inferred by the rule below.
/// - [`LoadOptions::allow_numeric_class`]: accept a CSV class column that looks like a
///   regression target.
///
/// # Column types (CSV)
///
/// A column declared nominal is nominal; a column declared numeric must hold finite numbers
/// (or missing markers). An undeclared column's present values (those that are not missing
/// markers) decide:
///
/// - every one a finite number: numeric;
/// - none a number (finite or not): nominal;
/// - numbers only, some of them not finite: an error at the first non-finite one (below);
/// - both numbers and non-numbers: nominal only when the non-numbers are more than half of the
///   present values *and* take at least two distinct spellings; otherwise the first non-number
///   is an error naming its file, line and column and telling how to declare the column
///   nominal or the value a missing marker. So a few stray cells (or one undeclared missing
///   spelling such as `NA`, however often it occurs) can never turn a numeric column nominal.
///
/// A number here is what Rust's `f64` parser reads after trimming spaces. `NaN`, `inf`,
/// `-inf` and values beyond the `f64` range such as `1e400` are numbers that are not finite:
/// in a numeric column each is an error naming file, line and column.
///
/// # The class column (CSV)
///
/// The class is always nominal; a missing class (a missing marker) is an error. A class column
/// whose every value is a number and which has at least 3 distinct values, and more than 20
/// distinct values or more distinct values than half the rows, looks like a regression target
/// and is refused, unless [`LoadOptions::allow_numeric_class`] is set or the class values are
/// listed in [`LoadOptions::class_values`] (both are declarations that the numbers are labels).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadOptions {
    /// The class column; default: the last column (ARFF, CSV) or the `@outputs` one (KEEL).
    pub class_column: Option<ClassColumn>,
    /// CSV only: exactly these columns are nominal and all other attributes numeric (the class
    /// is always nominal). `None` leaves undeclared columns to inference (see above). ARFF and KEEL files declare their types and ignore this.
    pub nominal_columns: Option<Vec<String>>,
    /// CSV only: per-column type declarations, by column name; columns not named here follow
    /// [`LoadOptions::nominal_columns`] if given, else are inferred. Naming a column absent from
    /// the header, naming one twice, or contradicting `nominal_columns` is an error.
    pub column_types: Vec<(String, ColumnType)>,
    /// CSV only: the spellings of a missing value, compared with each field after trimming
    /// spaces; `None` = [`DEFAULT_MISSING_MARKERS`]. The empty field is missing in any case.
    /// ARFF and KEEL use their own markers (`?`; KEEL also `<null>`).
    pub missing_markers: Option<Vec<String>>,
    /// CSV only: accept a class column that looks like a regression target (all numbers, many
    /// distinct values; see above) because its numbers are class labels.
    pub allow_numeric_class: bool,
    /// The class values in the wanted order (the catalog's); `None` keeps the declared order
    /// (ARFF, KEEL) or the order of first appearance (CSV). A class value in the data that is
    /// not listed is an error.
    pub class_values: Option<Vec<String>>,
    /// The dataset's name; default: the file name without extension.
    pub name: Option<String>,
    /// ARFF only: attributes dropped while reading, whatever their declared type (`string`
    /// and `date` too, whose values are then not read): an OpenML dataset's row id and ignored
    /// attributes. A name the file does not declare is no error.
    pub skip_columns: Vec<String>,
}

impl LoadOptions {
    /// The missing markers in force: [`LoadOptions::missing_markers`] or the defaults.
    pub fn effective_missing_markers(&self) -> Vec<&str> {
        match &self.missing_markers {
            Some(markers) => markers.iter().map(String::as_str).collect(),
            None => DEFAULT_MISSING_MARKERS.to_vec(),
        }
    }

    /// Adds a missing marker to the markers in force (the defaults if none were set).
    pub fn with_missing_marker(mut self, marker: impl Into<String>) -> Self {
        let mut markers: Vec<String> = self
            .effective_missing_markers()
            .into_iter()
            .map(str::to_string)
            .collect();
        markers.push(marker.into());
        self.missing_markers = Some(markers);
        self
    }

    /// Declares one column's type (appends to [`LoadOptions::column_types`]).
    pub fn declare(mut self, column: impl Into<String>, kind: ColumnType) -> Self {
        self.column_types.push((column.into(), kind));
        self
    }
}

/// What a reader decided on its own rather than by declaration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Attribute columns (the class excluded) whose nominal type was inferred, in file order.
    pub inferred_nominal: Vec<String>,
    /// Attribute columns (the class excluded) whose numeric type was inferred, in file order.
    pub inferred_numeric: Vec<String>,
    /// What a user should know about how the file was read (possible category codes read as
    /// numbers, a nominal column holding numbers, whole-number column names), each with how to
    /// declare otherwise: for a run's log and report, and `experiments datasets FILE`.
    pub notices: Vec<LoadNotice>,
}

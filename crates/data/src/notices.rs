//! What a reader decided on its own that a user may not expect: [`LoadNotice`], kept as data in
//! [`crate::LoadReport::notices`] so that a caller can print it, log it or put it in a report,
//! each with how to say otherwise.

use std::fmt;

use crate::shown::{shell_quoted, shown, shown_list};

/// The most distinct values of a column of whole numbers that [`LoadNotice::FewWholeNumbers`]
/// names as possible category codes.
pub const FEW_CODES: usize = 10;

/// Something a reader decided on its own that may not be what the file means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadNotice {
    /// Attribute columns inferred numeric whose present values are whole numbers taking at
    /// most [`FEW_CODES`] distinct values, each more than once on average: perhaps category
    /// codes (solar-flare's `1`..`6`). Each column with its number of distinct values.
    FewWholeNumbers {
        /// The columns and their numbers of distinct values.
        columns: Vec<(String, usize)>,
    },
    /// A column inferred nominal though some of its present values are numbers, with the most
    /// common value that is not one (perhaps an undeclared missing marker such as `NA`).
    NominalWithNumbers {
        /// The column.
        column: String,
        /// Its present values that are numbers.
        numbers: usize,
        /// Its present (not missing) values.
        present: usize,
        /// Its most common value that is not a number.
        most_common: String,
        /// How often that value occurs.
        count: usize,
    },
    /// A header whose names are mostly plain whole numbers (`0,1,2,...`): names, or a first
    /// row of data read as a header.
    WholeNumberNames {
        /// The names that are whole numbers.
        names: Vec<String>,
    },
    /// A column other than the class whose name says it is the class (`class`, `target`,
    /// `label`, any case), while the class was read from the last column by default.
    ClassNamedElsewhere {
        /// The column's name.
        column: String,
        /// Its position (from 1).
        position: usize,
        /// The column read as the class.
        used: String,
    },
    /// Class values that differ only by surrounding spaces or case (`' yes'` beside `'yes'`):
    /// read as different classes.
    LookAlikeClasses {
        /// The pairs, the first spelling seen first.
        pairs: Vec<(String, String)>,
    },
}

impl fmt::Display for LoadNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sentence(None))
    }
}

/// The most columns a notice's suggested declaration lists.
const MOST_LISTED: usize = 20;

impl LoadNotice {
    /// The notice as a sentence, its suggested `experiments datasets` command naming `file`
    /// (shell-quoted; `FILE` when none), every argument shell-quoted so that it can be pasted.
    pub fn sentence(&self, file: Option<&str>) -> String {
        let file = file.map_or_else(|| "FILE".to_string(), shell_quoted);
        match self {
            LoadNotice::FewWholeNumbers { columns } => few_whole_numbers_sentence(columns, &file),
            LoadNotice::NominalWithNumbers {
                column,
                numbers,
                present,
                most_common,
                count,
            } => format!(
                "column '{}' is read as nominal, though {numbers} of its {present} present \
                 values are numbers; its most common other value is '{}' ({count} times): if \
                 that means a missing value, declare it a missing marker (a config's dataset \
                 entry: missing_markers = [{}]; `experiments datasets {file} --missing {}`) \
                 and the column is read as numeric",
                shown(column),
                shown(most_common),
                toml_string(most_common),
                shell_quoted(most_common)
            ),
            LoadNotice::WholeNumberNames { names } => format!(
                "the header names columns by whole numbers ({}): if line 1 is a row of data \
                 rather than a header, add a header line, else it was read as one",
                shown_list(names, 5)
            ),
            LoadNotice::ClassNamedElsewhere {
                column,
                position,
                used,
            } => format!(
                "column {position} is named '{}', but the class is read from the last column, \
                 '{}' (the default); if '{}' is the class, say so (a config's dataset entry: \
                 class_column = {}; `experiments datasets {file} --class {}`)",
                shown(column),
                shown(used),
                shown(column),
                toml_string(column),
                shell_quoted(column)
            ),
            LoadNotice::LookAlikeClasses { pairs } => {
                let listed: Vec<String> = pairs
                    .iter()
                    .map(|(a, b)| format!("'{}' and '{}'", shown(a), shown(b)))
                    .collect();
                format!(
                    "class values {} differ only by surrounding spaces or case, and are read \
                     as different classes; if they are one class, spell them alike in the file",
                    listed.join(", ")
                )
            }
        }
    }
}

/// [`LoadNotice::FewWholeNumbers`] as a sentence: the columns, and how to declare the first
/// [`MOST_LISTED`] of them (saying how many more there are).
fn few_whole_numbers_sentence(columns: &[(String, usize)], file: &str) -> String {
    let first = &columns[..columns.len().min(MOST_LISTED)];
    let each = |form: &dyn Fn(&str) -> String, separator: &str| {
        let items: Vec<String> = first.iter().map(|(name, _)| form(name)).collect();
        items.join(separator)
    };
    let listed: Vec<String> = first
        .iter()
        .map(|(name, values)| format!("'{}' ({values} values)", shown(name)))
        .collect();
    let listed = listed.join(", ");
    let (more, others) = match columns.len() - first.len() {
        0 => (String::new(), String::new()),
        more => (
            format!(" and {more} more"),
            format!(
                " (the first {} of the {} columns; add the other {more} likewise)",
                first.len(),
                columns.len()
            ),
        ),
    };
    format!(
        "columns {listed}{more} hold only a few distinct whole numbers and are read as \
         numeric; if they are category codes, declare them nominal (a config's dataset entry: \
         nominal_columns = [{}]{others}; `experiments datasets {file} {}`{others})",
        each(&|name| toml_string(name), ", "),
        each(&|name| format!("--nominal {}", shell_quoted(name)), " ")
    )
}

/// `text` as a TOML basic string (quoted, `"` and `\\` escaped), cut short when long.
fn toml_string(text: &str) -> String {
    let text = shown(text);
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The columns of `columns` (name, values; `NaN` missing) whose present values are whole
/// numbers taking 2 to [`FEW_CODES`] distinct values, fewer than the present values: each with
/// its number of distinct values.
pub(crate) fn few_whole_numbers<'a>(
    columns: impl IntoIterator<Item = (&'a str, &'a [f64])>,
) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (name, values) in columns {
        let mut distinct: Vec<f64> = Vec::new();
        let mut present = 0;
        let mut whole = true;
        for &value in values.iter().filter(|value| !value.is_nan()) {
            present += 1;
            whole &= value.fract() == 0.0;
            if !distinct.contains(&value) {
                if distinct.len() == FEW_CODES {
                    whole = false;
                }
                distinct.push(value);
            }
            if !whole {
                break;
            }
        }
        if whole && distinct.len() >= 2 && present > distinct.len() {
            found.push((name.to_string(), distinct.len()));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_with_few_values_are_named() {
        let codes = [1.0, 2.0, 2.0, f64::NAN, 3.0, 1.0];
        let measured = [1.5, 2.0, 2.0];
        let many: Vec<f64> = (0..30).map(f64::from).chain([0.0]).collect();
        let once = [1.0, 2.0];
        let columns = [
            ("codes", &codes[..]),
            ("measured", &measured[..]),
            ("many", &many[..]),
            ("once", &once[..]),
        ];
        assert_eq!(few_whole_numbers(columns), [("codes".to_string(), 3)]);
    }
}

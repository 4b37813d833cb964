//! The columns of a CSV file as its records are split (`csv.rs`): a column known to be nominal
//! (the class, or declared nominal) is coded as it is read ([`NominalColumn`]), and every other
//! column is read as numbers in the same pass ([`Scan`]), keeping of its text only what a
//! message or the typing needs (the first non-number, the first non-finite number). So a file
//! of numbers never holds more than its text and its columns of numbers; only a column that
//! turns out nominal is split a second time for its text.

use std::collections::HashMap;

use crate::options::LoadOptions;
use crate::table::{classify_number, Number, RawColumn};

/// The missing markers in force, trimmed, for comparison with trimmed fields.
pub(crate) struct Markers(Vec<String>);

impl Markers {
    /// The markers in force under `options`.
    pub(crate) fn of(options: &LoadOptions) -> Markers {
        Markers(
            options
                .effective_missing_markers()
                .into_iter()
                .map(|m| m.trim().to_string())
                .collect(),
        )
    }

    /// True when a field is missing: empty after trimming spaces, or a marker.
    pub(crate) fn is_missing(&self, field: &str) -> bool {
        let trimmed = field.trim();
        trimmed.is_empty() || self.0.iter().any(|m| m == trimmed)
    }

    /// The markers for a message: `the empty field, '?'`.
    pub(crate) fn describe(&self) -> String {
        let mut words = vec!["the empty field".to_string()];
        words.extend(
            self.0
                .iter()
                .filter(|m| !m.is_empty())
                .map(|m| format!("'{m}'")),
        );
        words.join(", ")
    }
}

/// A nominal column being read: values in order of first appearance, missing markers as
/// `NaN`.
pub(crate) struct NominalColumn {
    data: Vec<f64>,
    values: Vec<String>,
    lookup: HashMap<String, usize>,
}

impl NominalColumn {
    /// An empty column with room for `rows` values.
    pub(crate) fn with_capacity(rows: usize) -> NominalColumn {
        NominalColumn {
            data: Vec::with_capacity(rows),
            values: Vec::new(),
            lookup: HashMap::new(),
        }
    }

    /// Adds the next row's field (its exact text is the value).
    pub(crate) fn push(&mut self, text: &str, markers: &Markers) {
        if markers.is_missing(text) {
            self.data.push(f64::NAN);
            return;
        }
        let code = match self.lookup.get(text) {
            Some(&code) => code,
            None => {
                let code = self.values.len();
                self.values.push(text.to_string());
                self.lookup.insert(text.to_string(), code);
                code
            }
        };
        self.data.push(code as f64);
    }

    /// The column as read, named.
    pub(crate) fn finish(self, name: &str) -> RawColumn {
        RawColumn {
            name: name.to_string(),
            values: Some(self.values),
            data: self.data,
        }
    }
}

/// One pass over an attribute column: its numbers, and what else it holds.
pub(crate) struct Scan {
    /// The finite numbers, `NaN` for every other field.
    pub data: Vec<f64>,
    /// Fields that are finite numbers.
    pub numbers: usize,
    /// Fields that are not missing.
    pub present: usize,
    /// First row holding a non-finite number (`NaN`, `inf`, `1e400`), and its text.
    pub first_non_finite: Option<(usize, String)>,
    /// First row holding a non-number, and its text.
    pub first_word: Option<(usize, String)>,
    /// Number of non-number fields.
    pub words: usize,
    /// Whether the non-numbers take at least two spellings.
    pub several_spellings: bool,
}

impl Scan {
    /// An empty scan with room for `rows` values.
    pub(crate) fn with_capacity(rows: usize) -> Scan {
        Scan {
            data: Vec::with_capacity(rows),
            numbers: 0,
            present: 0,
            first_non_finite: None,
            first_word: None,
            words: 0,
            several_spellings: false,
        }
    }

    /// Adds row `row`'s field.
    pub(crate) fn push(&mut self, row: usize, text: &str, markers: &Markers) {
        if markers.is_missing(text) {
            self.data.push(f64::NAN);
            return;
        }
        self.present += 1;
        match classify_number(text) {
            Number::Finite(number) => {
                self.numbers += 1;
                self.data.push(number);
                return;
            }
            Number::NonFinite => {
                if self.first_non_finite.is_none() {
                    self.first_non_finite = Some((row, text.to_string()));
                }
            }
            Number::Not => {
                self.words += 1;
                match &self.first_word {
                    None => self.first_word = Some((row, text.to_string())),
                    Some((_, first)) => self.several_spellings |= first != text,
                }
            }
        }
        self.data.push(f64::NAN);
    }

    /// The finite numbers, plus one when there is a non-finite number.
    pub(crate) fn numeric_like(&self) -> usize {
        self.numbers + usize::from(self.first_non_finite.is_some())
    }

    /// Whether the column is nominal by inference (see `csv.rs`): it holds non-numbers, and
    /// either no numbers at all or non-numbers in more than half of its present fields with at
    /// least two spellings. A column declared numeric never is.
    pub(crate) fn is_nominal(&self, declared_numeric: bool) -> bool {
        let numeric_like = self.numeric_like();
        !declared_numeric
            && self.words > 0
            && (numeric_like == 0 || (2 * self.words > self.present && self.several_spellings))
    }
}

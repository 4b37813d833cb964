//! The shape every reader produces before it becomes a [`Dataset`]: typed columns (the class
//! among them) with the source line of each row, so that late errors can still name a line.

use std::path::{Path, PathBuf};

use crate::dataset::{Attribute, Dataset, Schema};
use crate::error::DataError;
use crate::options::{ClassColumn, LoadOptions};
use crate::shown::{shown, shown_list};

/// One typed column as read from a file.
pub(crate) struct RawColumn {
    /// Column (attribute) name.
    pub name: String,
    /// Nominal values in order, or `None` for a numeric column.
    pub values: Option<Vec<String>>,
    /// One value per row: a number, or a nominal value index; `NaN` = missing.
    pub data: Vec<f64>,
}

/// All columns of a file, the 1-based line of each row, and optional instance weights.
pub(crate) struct RawTable {
    pub path: PathBuf,
    pub columns: Vec<RawColumn>,
    pub row_lines: Vec<usize>,
    pub weights: Option<Vec<f64>>,
}

/// What a field holds as a number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    /// A finite number.
    Finite(f64),
    /// Text the `f64` parser reads but not as a finite number: `NaN`, `inf`, `-infinity`, or a
    /// value beyond the `f64` range such as `1e400`.
    NonFinite,
    /// Not a number.
    Not,
}

/// Reads a field as a number the way every reader does: surrounding spaces ignored.
pub(crate) fn classify_number(text: &str) -> Number {
    if let Some(number) = plain_decimal(text) {
        return Number::Finite(number);
    }
    let parsed = match text.parse::<f64>() {
        Ok(number) => Ok(number),
        Err(_) => text.trim().parse::<f64>(),
    };
    match parsed {
        Ok(number) if number.is_finite() => Number::Finite(number),
        Ok(_) => Number::NonFinite,
        Err(_) => Number::Not,
    }
}

/// The value of a plain decimal of at most 15 digits (`-12.5`, `0.0031`, `7`, `.5`, `+3.`)
/// as the `f64` parser reads it, or `None` for any other text (which the parser then reads):
/// a file of millions of numbers spends most of its reading time in the parser. The digits as
/// an integer (below 2^53) and the power of ten dividing it (at most 10^15) are both exact
/// doubles, so the one division is correctly rounded, as the parser's result is (the fast path
/// of Clinger 1990, "How to read floating point numbers accurately").
fn plain_decimal(text: &str) -> Option<f64> {
    const POWERS_OF_TEN: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let bytes = text.as_bytes();
    let (negative, rest) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    };
    let (mut mantissa, mut digits, mut fraction_digits) = (0u64, 0usize, 0usize);
    let mut seen_point = false;
    for &byte in rest {
        match byte {
            b'0'..=b'9' if digits < 15 => {
                mantissa = 10 * mantissa + u64::from(byte - b'0');
                digits += 1;
                fraction_digits += usize::from(seen_point);
            }
            b'.' if !seen_point => seen_point = true,
            _ => return None,
        }
    }
    if digits == 0 {
        return None;
    }
    let value = mantissa as f64 / POWERS_OF_TEN[fraction_digits];
    Some(if negative { -value } else { value })
}

/// Parses a number the way every reader does: surrounding spaces ignored, finite values only.
pub(crate) fn parse_number(text: &str) -> Option<f64> {
    match classify_number(text) {
        Number::Finite(number) => Some(number),
        _ => None,
    }
}

/// Finds the class column among `names`: the option if given, else `default`.
pub(crate) fn resolve_class_index(
    path: &Path,
    names: &[&str],
    option: Option<&ClassColumn>,
    default: usize,
) -> Result<usize, DataError> {
    match option {
        None => Ok(default),
        Some(ClassColumn::Index(index)) => {
            if *index < names.len() {
                Ok(*index)
            } else {
                Err(DataError::ClassColumn {
                    path: path.to_path_buf(),
                    message: format!(
                        "index {index} is out of range; the file has {} columns (0..={})",
                        names.len(),
                        names.len().saturating_sub(1)
                    ),
                })
            }
        }
        Some(ClassColumn::Name(name)) => {
            names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| DataError::ClassColumn {
                    path: path.to_path_buf(),
                    message: format!(
                        "'{}' is not a column; columns are: {}",
                        shown(name),
                        shown_list(names, 30)
                    ),
                })
        }
    }
}

/// Turns a raw table into a dataset with the given column as the class.
pub(crate) fn assemble(
    table: RawTable,
    class_index: usize,
    options: &LoadOptions,
    default_name: &str,
) -> Result<Dataset, DataError> {
    let RawTable {
        path,
        mut columns,
        row_lines,
        weights,
    } = table;
    let class_column = columns.remove(class_index);
    let Some(declared) = class_column.values else {
        return Err(DataError::ClassColumn {
            path,
            message: format!(
                "'{}' is numeric; the class must be nominal",
                shown(&class_column.name)
            ),
        });
    };
    // Class values: the requested order (catalog) if given, else the declared/first-seen order.
    let (class_values, remap): (Vec<String>, Vec<Option<u32>>) = match &options.class_values {
        Some(order) => {
            let remap = declared
                .iter()
                .map(|v| order.iter().position(|o| o == v).map(|p| p as u32))
                .collect();
            (order.clone(), remap)
        }
        None => (
            declared.clone(),
            (0..declared.len() as u32).map(Some).collect(),
        ),
    };
    let mut classes = Vec::with_capacity(class_column.data.len());
    for (row, &value) in class_column.data.iter().enumerate() {
        if value.is_nan() {
            return Err(DataError::MissingClass {
                path,
                line: row_lines[row],
            });
        }
        match remap[value as usize] {
            Some(index) => classes.push(index),
            None => {
                return Err(DataError::UnknownNominal {
                    path,
                    line: row_lines[row],
                    column: class_index + 1,
                    attribute: class_column.name.clone(),
                    value: declared[value as usize].clone(),
                    allowed: class_values.join(","),
                })
            }
        }
    }
    let mut present = vec![false; class_values.len()];
    for &class in &classes {
        present[class as usize] = true;
    }
    let distinct: Vec<&str> = class_values
        .iter()
        .zip(&present)
        .filter(|(_, &p)| p)
        .map(|(v, _)| v.as_str())
        .collect();
    if distinct.len() < 2 {
        return Err(DataError::TooFewClasses {
            path,
            class: class_column.name,
            count: distinct.len(),
            values: distinct.join(", "),
        });
    }
    let mut attributes = Vec::with_capacity(columns.len());
    let mut data = Vec::with_capacity(columns.len());
    for column in columns {
        attributes.push(match column.values {
            Some(values) => Attribute::nominal(column.name, values),
            None => Attribute::numeric(column.name),
        });
        data.push(column.data);
    }
    let schema = Schema {
        attributes,
        class_name: class_column.name,
        class_values,
    };
    let name = options
        .name
        .clone()
        .unwrap_or_else(|| default_name.to_string());
    Dataset::new(name, schema, data, classes, weights)
        .map_err(|source| DataError::Dataset { path, source })
}

/// The file name without its extension, used as the dataset's default name.
pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".into())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{classify_number, Number};

    /// The `f64` parser's reading of a field (the reference the fast path must agree with),
    /// as bits so that `-0` and `0` differ.
    fn parser_bits(text: &str) -> Option<u64> {
        let parsed = text.parse::<f64>().or_else(|_| text.trim().parse::<f64>());
        parsed.ok().filter(|v| v.is_finite()).map(f64::to_bits)
    }

    fn our_bits(text: &str) -> Option<u64> {
        match classify_number(text) {
            Number::Finite(value) => Some(value.to_bits()),
            _ => None,
        }
    }

    #[test]
    fn plain_decimals_read_as_the_parser_reads_them() {
        for text in [
            "0",
            "-0",
            "+0",
            "-0.0",
            "0.",
            ".0",
            ".",
            "-",
            "+",
            "",
            "1.",
            ".5",
            "+.5",
            "-.5",
            "1.5.",
            "+-1",
            "0.1",
            "0.3",
            "2.675",
            "-1.2345",
            "123456789012345",
            "1234567890123456",
            "0.000000000000001",
            "0.0000000000000001",
            "9007199254740993",
            "999999999999999",
            "99999999999999.9",
            "1e5",
            " 1.5",
            "1.5 ",
            "0x10",
            "inf",
            "NaN",
        ] {
            assert_eq!(our_bits(text), parser_bits(text), "{text:?}");
        }
    }

    proptest! {
        #[test]
        fn generated_decimals_read_as_the_parser_reads_them(
            text in "[+-]?[0-9]{0,18}(\\.[0-9]{0,18})?"
        ) {
            prop_assert_eq!(our_bits(&text), parser_bits(&text));
        }
    }
}

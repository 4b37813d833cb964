//! CSV reader: a header row, one row per instance, an empty field = missing, RFC 4180 quoting
//! (a quoted field may hold commas, doubled quotes and line breaks). Every field is read as
//! text, so `TRUE`/`FALSE` and numeric-looking codes keep their spelling.
//!
//! Column types come from [`LoadOptions::nominal_columns`] when given, else are inferred: a
//! column whose every present value parses as a finite number is numeric, any other is nominal.
//! Nominal values are ordered by first appearance in the file (the class follows
//! [`LoadOptions::class_values`] when given).
//!
//! The fields are split by this module rather than by polars: under the project's debug
//! profile (dependencies unoptimised) polars took 3.4 s to read `sylva.csv` (6.7 MB) as
//! strings, which made loading the 43 shipped files take 23 s; this pass, which had to exist
//! anyway to name the line of a ragged row, does the whole read in a small fraction of that.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use crate::dataset::Dataset;
use crate::error::DataError;
use crate::load::LoadOptions;
use crate::table::{assemble, parse_number, read_utf8, resolve_class_index, RawColumn, RawTable};

/// The fields of a CSV text, column-major, as found by one quote-aware pass.
struct Table<'a> {
    /// Header field names (unquoted).
    header: Vec<String>,
    /// 1-based line on which each data row starts.
    row_lines: Vec<usize>,
    /// One vector of unquoted fields per column.
    columns: Vec<Vec<Cow<'a, str>>>,
}

/// Removes the quotes of a field (and undoubles `""`), borrowing when nothing changes.
fn unquote(field: &str) -> Cow<'_, str> {
    let trimmed = field.strip_suffix('\r').unwrap_or(field);
    if !trimmed.contains('"') {
        return Cow::Borrowed(trimmed);
    }
    let mut text = String::with_capacity(trimmed.len());
    let mut chars = trimmed.chars().peekable();
    let mut in_quotes = false;
    while let Some(c) = chars.next() {
        match c {
            '"' if in_quotes && chars.peek() == Some(&'"') => {
                text.push('"');
                chars.next();
            }
            '"' => in_quotes = !in_quotes,
            _ => text.push(c),
        }
    }
    Cow::Owned(text)
}

/// Walks the text once: splits records (quote-aware, so a quoted field may hold commas and
/// line breaks), checks every record has as many fields as the header, and records the line
/// where each data row starts. Blank lines are skipped.
fn split_table<'a>(path: &Path, text: &'a str) -> Result<Table<'a>, DataError> {
    let bytes = text.as_bytes();
    let mut header: Option<Vec<String>> = None;
    let mut columns: Vec<Vec<Cow<'a, str>>> = Vec::new();
    let mut row_lines = Vec::new();
    let mut fields: Vec<Cow<'a, str>> = Vec::new();
    let mut line = 1usize;
    let mut record_start = 0usize;
    let mut field_start = 0usize;
    let mut start_line = 1usize;
    let mut in_quotes = false;
    let length = bytes.len();
    for position in 0..=length {
        let byte = if position < length {
            bytes[position]
        } else {
            b'\n'
        };
        match byte {
            b'"' => in_quotes = !in_quotes,
            b',' if !in_quotes => {
                fields.push(unquote(&text[field_start..position]));
                field_start = position + 1;
            }
            b'\n' if !in_quotes || position == length => {
                let end = position.min(length);
                let blank = end == record_start
                    || (end == record_start + 1 && bytes[record_start] == b'\r');
                if blank {
                    fields.clear();
                } else {
                    if in_quotes {
                        return Err(DataError::Syntax {
                            path: path.to_path_buf(),
                            line: start_line,
                            column: 1,
                            message: "a quoted field is not closed; expected a closing '\"'".into(),
                        });
                    }
                    fields.push(unquote(&text[field_start..end]));
                    match &header {
                        None => {
                            let names: Vec<String> =
                                fields.drain(..).map(Cow::into_owned).collect();
                            columns = names.iter().map(|_| Vec::new()).collect();
                            header = Some(names);
                        }
                        Some(names) => {
                            if fields.len() != names.len() {
                                return Err(DataError::Ragged {
                                    path: path.to_path_buf(),
                                    line: start_line,
                                    expected: names.len(),
                                    got: fields.len(),
                                });
                            }
                            for (column, field) in columns.iter_mut().zip(fields.drain(..)) {
                                column.push(field);
                            }
                            row_lines.push(start_line);
                        }
                    }
                }
                record_start = position + 1;
                field_start = position + 1;
                start_line = line + 1;
            }
            _ => {}
        }
        if byte == b'\n' {
            line += 1;
        }
    }
    let Some(header) = header else {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "the file is empty; expected a header row and data rows".into(),
        });
    };
    let mut seen = HashMap::new();
    for (index, name) in header.iter().enumerate() {
        if name.is_empty() {
            return Err(DataError::Syntax {
                path: path.to_path_buf(),
                line: 1,
                column: index + 1,
                message: "empty column name in the header; expected a name for every column".into(),
            });
        }
        if seen.insert(name.as_str(), ()).is_some() {
            return Err(DataError::DuplicateName {
                path: path.to_path_buf(),
                line: 1,
                name: name.clone(),
            });
        }
    }
    if row_lines.is_empty() {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "the file has a header but no data rows".into(),
        });
    }
    Ok(Table {
        header,
        row_lines,
        columns,
    })
}

/// Reads a CSV file into a dataset.
pub fn read_csv(path: &Path, options: &LoadOptions) -> Result<Dataset, DataError> {
    let text = read_utf8(path)?;
    let table = split_table(path, &text)?;
    let names: Vec<&str> = table.header.iter().map(String::as_str).collect();
    let class_index =
        resolve_class_index(path, &names, options.class_column.as_ref(), names.len() - 1)?;
    if let Some(nominal) = &options.nominal_columns {
        for name in nominal {
            if !names.contains(&name.as_str()) {
                return Err(DataError::Syntax {
                    path: path.to_path_buf(),
                    line: 1,
                    column: 1,
                    message: format!(
                        "nominal column '{name}' is not in the header; columns are: {}",
                        names.join(", ")
                    ),
                });
            }
        }
    }

    let mut columns = Vec::with_capacity(names.len());
    for (index, strings) in table.columns.iter().enumerate() {
        let name = names[index];
        let nominal = index == class_index
            || match &options.nominal_columns {
                Some(listed) => listed.iter().any(|n| n == name),
                None => strings
                    .iter()
                    .any(|s| !s.is_empty() && parse_number(s).is_none()),
            };
        let mut data = Vec::with_capacity(strings.len());
        if nominal {
            let mut values: Vec<String> = Vec::new();
            let mut lookup: HashMap<&str, usize> = HashMap::new();
            for text in strings {
                if text.is_empty() {
                    data.push(f64::NAN);
                    continue;
                }
                let next = lookup.len();
                let code = *lookup.entry(text.as_ref()).or_insert_with(|| {
                    values.push(text.to_string());
                    next
                });
                data.push(code as f64);
            }
            columns.push(RawColumn {
                name: name.to_string(),
                values: Some(values),
                data,
            });
        } else {
            for (row, text) in strings.iter().enumerate() {
                if text.is_empty() {
                    data.push(f64::NAN);
                    continue;
                }
                match parse_number(text) {
                    Some(number) => data.push(number),
                    None => {
                        return Err(DataError::NotNumeric {
                            path: path.to_path_buf(),
                            line: table.row_lines[row],
                            column: index + 1,
                            attribute: name.to_string(),
                            value: text.to_string(),
                        })
                    }
                }
            }
            columns.push(RawColumn {
                name: name.to_string(),
                values: None,
                data,
            });
        }
    }
    let stem = file_stem(path);
    assemble(
        RawTable {
            path: path.to_path_buf(),
            columns,
            row_lines: table.row_lines,
            weights: None,
        },
        class_index,
        options,
        &stem,
    )
}

/// The file name without its extension, used as the dataset's default name.
pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".into())
}

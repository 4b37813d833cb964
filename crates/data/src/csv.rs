//! CSV reader: a header row, one row per instance, an empty field = missing, RFC 4180 quoting.
//!
//! Parsing is done by polars with every column read as a string (so `TRUE`/`FALSE` and
//! numeric-looking codes keep their spelling); a quick pass over the bytes first checks the
//! encoding, the header and the number of fields of every row, so errors can name the line.
//! Column types come from [`LoadOptions::nominal_columns`] when given, else are inferred: a
//! column whose every present value parses as a finite number is numeric, any other is nominal.
//! Nominal values are ordered by first appearance in the file (the class follows
//! [`LoadOptions::class_values`] when given).

use std::collections::HashMap;
use std::path::Path;

use polars::prelude::*;

use crate::dataset::Dataset;
use crate::error::DataError;
use crate::load::LoadOptions;
use crate::table::{assemble, parse_number, read_utf8, resolve_class_index, RawColumn, RawTable};

/// The records of a CSV text as found by the checking pass.
struct Layout {
    /// Header field names (unquoted).
    header: Vec<String>,
    /// 1-based line on which each data row starts.
    row_lines: Vec<usize>,
}

/// Splits one record's text into unquoted fields (used for the header only).
fn split_header(record: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    let mut chars = record.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if in_quotes && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => in_quotes = !in_quotes,
            ',' if !in_quotes => fields.push(std::mem::take(&mut field)),
            '\r' | '\n' if !in_quotes => {}
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// Walks the text once: finds record boundaries (quote-aware), checks every record has as many
/// fields as the header, and records the line where each data row starts. Blank lines are
/// skipped, as polars skips them.
fn check_layout(path: &Path, text: &str) -> Result<Layout, DataError> {
    let bytes = text.as_bytes();
    let mut header: Option<Vec<String>> = None;
    let mut row_lines = Vec::new();
    let mut line = 1usize;
    let mut start = 0usize;
    let mut start_line = 1usize;
    let mut fields = 1usize;
    let mut in_quotes = false;
    let mut position = 0usize;
    let length = bytes.len();
    while position <= length {
        let byte = if position < length {
            bytes[position]
        } else {
            b'\n'
        };
        match byte {
            b'"' => in_quotes = !in_quotes,
            b',' if !in_quotes => fields += 1,
            b'\n' if !in_quotes || position == length => {
                let record = &text[start..position.min(length)];
                let blank = record.trim_end_matches('\r').is_empty();
                if !blank {
                    if in_quotes {
                        return Err(DataError::Syntax {
                            path: path.to_path_buf(),
                            line: start_line,
                            column: 1,
                            message: "a quoted field is not closed; expected a closing '\"'"
                                .into(),
                        });
                    }
                    match &header {
                        None => header = Some(split_header(record)),
                        Some(names) => {
                            if fields != names.len() {
                                return Err(DataError::Ragged {
                                    path: path.to_path_buf(),
                                    line: start_line,
                                    expected: names.len(),
                                    got: fields,
                                });
                            }
                            row_lines.push(start_line);
                        }
                    }
                }
                start = position + 1;
                start_line = line + 1;
                fields = 1;
            }
            _ => {}
        }
        if byte == b'\n' {
            line += 1;
        }
        position += 1;
    }
    let Some(header) = header else {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "the file is empty; expected a header row and data rows".into(),
        });
    };
    let mut seen = HashMap::new();
    for name in &header {
        if name.is_empty() {
            return Err(DataError::Syntax {
                path: path.to_path_buf(),
                line: 1,
                column: 1,
                message: "the header has an empty column name; expected a name for every column"
                    .into(),
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
    Ok(Layout { header, row_lines })
}

/// Reads a CSV file into a dataset.
pub fn read_csv(path: &Path, options: &LoadOptions) -> Result<Dataset, DataError> {
    let text = read_utf8(path)?;
    let layout = check_layout(path, &text)?;
    let names: Vec<&str> = layout.header.iter().map(String::as_str).collect();
    let class_index = resolve_class_index(
        path,
        &names,
        options.class_column.as_ref(),
        names.len() - 1,
    )?;
    if let Some(nominal) = &options.nominal_columns {
        for name in nominal {
            if !names.contains(&name.as_str()) {
                return Err(DataError::Csv {
                    path: path.to_path_buf(),
                    message: format!(
                        "nominal column '{name}' is not in the header; columns are: {}",
                        names.join(", ")
                    ),
                });
            }
        }
    }

    let polars_error = |error: PolarsError| DataError::Csv {
        path: path.to_path_buf(),
        message: error.to_string(),
    };
    let frame = CsvReadOptions::default()
        .with_has_header(true)
        .with_infer_schema_length(Some(0))
        .into_reader_with_file_handle(std::io::Cursor::new(text.as_bytes()))
        .finish()
        .map_err(polars_error)?;
    if frame.height() != layout.row_lines.len() || frame.width() != names.len() {
        return Err(DataError::Csv {
            path: path.to_path_buf(),
            message: format!(
                "polars read {} rows x {} columns where the file has {} rows x {} columns",
                frame.height(),
                frame.width(),
                layout.row_lines.len(),
                names.len()
            ),
        });
    }

    let mut columns = Vec::with_capacity(names.len());
    for (index, column) in frame.columns().iter().enumerate() {
        let strings = column.str().map_err(polars_error)?;
        let name = names[index];
        let nominal = index == class_index
            || match &options.nominal_columns {
                Some(listed) => listed.iter().any(|n| n == name),
                None => strings
                    .iter()
                    .flatten()
                    .any(|s| !s.is_empty() && parse_number(s).is_none()),
            };
        let mut data = Vec::with_capacity(frame.height());
        if nominal {
            let mut values: Vec<String> = Vec::new();
            let mut lookup: HashMap<&str, usize> = HashMap::new();
            for value in strings.iter() {
                match value {
                    None | Some("") => data.push(f64::NAN),
                    Some(text) => {
                        let next = lookup.len();
                        let code = *lookup.entry(text).or_insert_with(|| {
                            values.push(text.to_string());
                            next
                        });
                        data.push(code as f64);
                    }
                }
            }
            columns.push(RawColumn {
                name: name.to_string(),
                values: Some(values),
                data,
            });
        } else {
            for (row, value) in strings.iter().enumerate() {
                match value {
                    None | Some("") => data.push(f64::NAN),
                    Some(text) => match parse_number(text) {
                        Some(number) => data.push(number),
                        None => {
                            return Err(DataError::NotNumeric {
                                path: path.to_path_buf(),
                                line: layout.row_lines[row],
                                column: index + 1,
                                attribute: name.to_string(),
                                value: text.to_string(),
                            })
                        }
                    },
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
            row_lines: layout.row_lines,
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

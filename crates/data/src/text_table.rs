//! The one reader of delimited text tables: [`TextTable`] for the tables a command reads (a
//! user's predictions or per-fold results, a run's `units.csv`), and the field splitter behind
//! it that the dataset reader (`csv.rs`) uses as well.
//!
//! A table is a header row of distinct, non-empty column names, then rows with as many fields.
//! The separator is read off the first non-blank line ([`detect_separator`]): a comma if it has
//! one outside quotes, else a tab, else a semicolon. A field may be quoted with `"`, and a
//! quoted field may hold separators, doubled quotes (`""` for one `"`) and line breaks (RFC
//! 4180). Blank lines are skipped; a UTF-8 byte-order mark and `\r\n` or lone `\r` line ends
//! are accepted (the file's encoding is checked by `encoding.rs`). A first line that is a row
//! of numbers rather than names is refused ([`header_as_data`]). Every error names the file
//! and line.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::encoding::{lone_cr_to_lf, read_text};
use crate::error::DataError;
use crate::shown::shown;
use crate::table::{classify_number, Number};

/// The fields of a delimited text, column-major, as found by one quote-aware pass.
pub(crate) struct Fields<'a> {
    /// Header field names (unquoted).
    pub header: Vec<String>,
    /// 1-based line on which each data row starts.
    pub row_lines: Vec<usize>,
    /// One vector of unquoted fields per column.
    pub columns: Vec<Vec<Cow<'a, str>>>,
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

/// Walks the text once and hands every non-blank record to `visit`, with the line it starts on
/// and its unquoted fields (quote-aware: a quoted field may hold separators and line breaks;
/// `visit` may take the fields, which are cleared before the next record). A quoted field left
/// open at the end of the text is an error naming the line where its record starts.
pub(crate) fn walk_records<'a>(
    path: &Path,
    text: &'a str,
    separator: u8,
    mut visit: impl FnMut(usize, &mut Vec<Cow<'a, str>>) -> Result<(), DataError>,
) -> Result<(), DataError> {
    let bytes = text.as_bytes();
    let mut fields: Vec<Cow<'a, str>> = Vec::new();
    let mut line = 1usize;
    let mut record_start = 0usize;
    let mut field_start = 0usize;
    let mut start_line = 1usize;
    let mut in_quotes = false;
    let length = bytes.len();
    // Only quotes, separators and line breaks change anything: the walk jumps from one to the
    // next (`memchr` looks for them several bytes at a time), then takes the end of the text
    // as a line break.
    let stops = memchr::memchr3_iter(b'"', separator, b'\n', bytes).chain(std::iter::once(length));
    for position in stops {
        let byte = if position < length {
            bytes[position]
        } else {
            b'\n'
        };
        match byte {
            b'"' => in_quotes = !in_quotes,
            byte if byte == separator && !in_quotes => {
                fields.push(unquote(&text[field_start..position]));
                field_start = position + 1;
            }
            b'\n' if !in_quotes || position == length => {
                let end = position.min(length);
                let blank = end == record_start
                    || (end == record_start + 1 && bytes[record_start] == b'\r');
                if !blank {
                    if in_quotes {
                        return Err(DataError::Syntax {
                            path: path.to_path_buf(),
                            line: start_line,
                            column: 1,
                            message: "a quoted field is not closed; expected a closing '\"'".into(),
                        });
                    }
                    fields.push(unquote(&text[field_start..end]));
                    visit(start_line, &mut fields)?;
                }
                fields.clear();
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
    Ok(())
}

/// Checks a data record against the header: as many fields as it has names.
pub(crate) fn check_row_length(
    path: &Path,
    line: usize,
    names: &[String],
    fields: &[Cow<'_, str>],
) -> Result<(), DataError> {
    if fields.len() == names.len() {
        return Ok(());
    }
    Err(DataError::Ragged {
        path: path.to_path_buf(),
        line,
        expected: names.len(),
        got: fields.len(),
    })
}

/// Splits a text into its header and columns ([`walk_records`]), checks that the header names
/// are present and distinct and that every record has as many fields as the header, and
/// records the line where each data row starts. A header without rows is returned as it is.
pub(crate) fn split_fields<'a>(
    path: &Path,
    text: &'a str,
    separator: u8,
) -> Result<Fields<'a>, DataError> {
    let mut header: Option<Vec<String>> = None;
    let mut columns: Vec<Vec<Cow<'a, str>>> = Vec::new();
    let mut row_lines = Vec::new();
    walk_records(path, text, separator, |line, fields| {
        match &header {
            None => {
                let names: Vec<String> = fields.drain(..).map(Cow::into_owned).collect();
                columns = names.iter().map(|_| Vec::new()).collect();
                header = Some(names);
            }
            Some(names) => {
                check_row_length(path, line, names, fields)?;
                for (column, field) in columns.iter_mut().zip(fields.drain(..)) {
                    column.push(field);
                }
                row_lines.push(line);
            }
        }
        Ok(())
    })?;
    let header = header_or_empty(path, header)?;
    Ok(Fields {
        header,
        row_lines,
        columns,
    })
}

/// The header a walk found, checked ([`check_header`]); none is the error of an empty file.
pub(crate) fn header_or_empty(
    path: &Path,
    header: Option<Vec<String>>,
) -> Result<Vec<String>, DataError> {
    let Some(header) = header else {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "the file is empty; expected a header row and data rows".into(),
        });
    };
    check_header(path, &header)?;
    Ok(header)
}

/// The number of fields `separator` gives each of the first `most` non-blank records of a text
/// (quote-aware: a quoted field may hold separators and line breaks).
fn field_counts(text: &str, separator: u8, most: usize) -> Vec<usize> {
    let mut counts = Vec::new();
    let (mut fields, mut blank, mut in_quotes) = (1, true, false);
    for byte in text.bytes().chain([b'\n']) {
        match byte {
            b'"' => in_quotes = !in_quotes,
            b'\n' if !in_quotes => {
                if !blank {
                    counts.push(fields);
                    if counts.len() == most {
                        break;
                    }
                }
                (fields, blank) = (1, true);
                continue;
            }
            byte if byte == separator && !in_quotes => fields += 1,
            _ => {}
        }
        blank &= byte.is_ascii_whitespace();
    }
    counts
}

/// The separator of a delimited text: of a comma, a tab and a semicolon (in this order of
/// preference), the first that splits the first ten records into the same number of fields,
/// at least two; else the first that the first record holds; `None` when it holds none.
pub(crate) fn detect_separator(text: &str) -> Option<u8> {
    let separators = [b',', b'\t', b';'];
    let counts: Vec<Vec<usize>> = separators
        .iter()
        .map(|&separator| field_counts(text, separator, 10))
        .collect();
    let consistent = |counts: &Vec<usize>| {
        counts.first().is_some_and(|&first| first >= 2) && counts.iter().all(|&n| n == counts[0])
    };
    let in_header = |counts: &Vec<usize>| counts.first().is_some_and(|&first| first >= 2);
    let chosen = (0..3)
        .find(|&index| consistent(&counts[index]))
        .or_else(|| (0..3).find(|&index| in_header(&counts[index])));
    chosen.map(|index| separators[index])
}

/// The character a line most likely separates its fields with, when it has no comma,
/// semicolon or tab: its most frequent space or punctuation character other than quotes and
/// the characters of names and numbers (`_`, `-`, `.`, `+`).
pub(crate) fn likely_separator(line: &str) -> Option<char> {
    let mut counts: Vec<(char, usize)> = Vec::new();
    for c in line.chars() {
        let candidate = (c.is_ascii_punctuation() || c == ' ') && !"\"'_-.+".contains(c);
        if !candidate {
            continue;
        }
        match counts.iter_mut().find(|(known, _)| *known == c) {
            Some((_, count)) => *count += 1,
            None => counts.push((c, 1)),
        }
    }
    counts
        .into_iter()
        .max_by_key(|&(_, count)| count)
        .map(|(c, _)| c)
}

/// A plain whole number such as `0` or `1990`: digits only.
fn is_whole(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

/// The header fields that are numbers, when the header looks like a row of data rather than
/// names: at least half of its fields are numbers and one of them is not a plain whole number
/// (columns named `0`, `1`, ... or `1990` are plausible names; one named `5.1` or `-0.3` is
/// not).
pub(crate) fn header_as_data(header: &[String]) -> Option<Vec<String>> {
    let numbers: Vec<String> = header
        .iter()
        .map(|name| name.trim())
        .filter(|name| matches!(classify_number(name), Number::Finite(_)))
        .map(str::to_string)
        .collect();
    let looks_like_data =
        2 * numbers.len() >= header.len() && numbers.iter().any(|number| !is_whole(number));
    looks_like_data.then_some(numbers)
}

/// The header fields that are plain whole numbers, when they are at least half of the header
/// (a header of `0,1,2,...` may be names, or a first row of data).
pub(crate) fn whole_number_names(header: &[String]) -> Vec<String> {
    let whole: Vec<String> = header
        .iter()
        .map(|name| name.trim())
        .filter(|name| is_whole(name))
        .map(str::to_string)
        .collect();
    if 2 * whole.len() >= header.len() {
        whole
    } else {
        Vec::new()
    }
}

/// Every column of a header has a name, and no name appears twice.
pub(crate) fn check_header(path: &Path, header: &[String]) -> Result<(), DataError> {
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
    Ok(())
}

/// A delimited text table read whole, every field as text with surrounding spaces trimmed:
/// the reader of every table a command reads (see the module documentation for the syntax).
#[derive(Debug, Clone, PartialEq)]
pub struct TextTable {
    path: PathBuf,
    header: Vec<String>,
    lines: Vec<usize>,
    columns: Vec<Vec<String>>,
}

impl TextTable {
    /// Reads and checks a file: it must exist, be UTF-8 text, have a header with distinct
    /// non-empty names, and every row must have as many fields as the header (a header without
    /// rows is a table without rows).
    pub fn read(path: &Path) -> Result<TextTable, DataError> {
        Self::parse(path, &read_text(path)?)
    }

    /// Parses a text; `path` only names it in error messages.
    pub fn parse(path: &Path, text: &str) -> Result<TextTable, DataError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let text = lone_cr_to_lf(text.to_string());
        let separator = detect_separator(&text).unwrap_or(b',');
        let fields = split_fields(path, &text, separator)?;
        if let Some(numbers) = header_as_data(&fields.header) {
            return Err(DataError::NoHeader {
                path: path.to_path_buf(),
                fields: fields.header.len(),
                numbers,
                suggestion: "truth,score or knn,nb: one name per column".into(),
            });
        }
        let trimmed = |field: &Cow<str>| field.trim().to_string();
        Ok(TextTable {
            path: path.to_path_buf(),
            header: fields
                .header
                .iter()
                .map(|name| name.trim().to_string())
                .collect(),
            lines: fields.row_lines,
            columns: fields
                .columns
                .iter()
                .map(|column| column.iter().map(trimmed).collect())
                .collect(),
        })
    }

    /// A table from columns read elsewhere (a Parquet file, say): row `r` is named as line
    /// `r + 2` in messages, as in a file with one header line.
    pub fn from_columns(path: &Path, header: Vec<String>, columns: Vec<Vec<String>>) -> TextTable {
        let rows = columns.first().map_or(0, Vec::len);
        TextTable {
            path: path.to_path_buf(),
            header,
            lines: (0..rows).map(|row| row + 2).collect(),
            columns,
        }
    }

    /// The file this table was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Column names, in file order.
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// Number of rows (the header excluded).
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True when the table has a header and no row.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Position of the column with exactly this name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|column| column == name)
    }

    /// Position of the first column named any of `names`, ignoring ASCII case.
    pub fn find_any(&self, names: &[&str]) -> Option<usize> {
        self.header
            .iter()
            .position(|column| names.iter().any(|name| column.eq_ignore_ascii_case(name)))
    }

    /// Position of a column; the error names the file and lists the columns it has.
    pub fn column(&self, name: &str) -> Result<usize, DataError> {
        self.find(name).ok_or_else(|| DataError::NoColumn {
            path: self.path.clone(),
            name: name.to_string(),
            columns: self.header.join(", "),
        })
    }

    /// The fields of a column, row by row.
    pub fn texts(&self, column: usize) -> &[String] {
        &self.columns[column]
    }

    /// The line (from 1) on which row `row` starts.
    pub fn line_of(&self, row: usize) -> usize {
        self.lines[row]
    }

    /// An error about one field, naming the file, the line and the column.
    pub fn cell_error(&self, row: usize, column: usize, message: impl Into<String>) -> DataError {
        DataError::Cell {
            path: self.path.clone(),
            line: self.lines[row],
            column: self.header[column].clone(),
            message: message.into(),
        }
    }

    /// The fields of a column as numbers; an empty, NaN or non-numeric field is an error
    /// naming the file, line and column, and so is an infinite one unless `allow_infinite`.
    pub fn numbers(&self, column: usize, allow_infinite: bool) -> Result<Vec<f64>, DataError> {
        let number = |(row, cell): (usize, &String)| {
            if cell.is_empty() {
                return Err(self.cell_error(row, column, "the cell is empty, expected a number"));
            }
            match cell.parse::<f64>() {
                Ok(value) if value.is_infinite() && !allow_infinite => Err(self.cell_error(
                    row,
                    column,
                    format!("'{}' is infinite, expected a finite number", shown(cell)),
                )),
                Ok(value) if !value.is_nan() => Ok(value),
                _ => {
                    Err(self.cell_error(row, column, format!("'{}' is not a number", shown(cell))))
                }
            }
        };
        self.columns[column]
            .iter()
            .enumerate()
            .map(number)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TextTable, DataError> {
        TextTable::parse(Path::new("x.csv"), text)
    }

    #[test]
    fn quoted_fields_blank_lines_crlf_and_line_breaks() {
        let table =
            parse("\u{feff}truth,\"a, b\"\r\n\r\n1, \"say \"\"hi\"\"\"\r\n0,\"two\nlines\"\r\n")
                .unwrap();
        assert_eq!(table.header(), ["truth", "a, b"]);
        assert_eq!(table.texts(1), ["say \"hi\"", "two\nlines"]);
        assert_eq!((table.line_of(0), table.line_of(1)), (3, 4));
        // The case of a run's units.csv: quoted commas, quotes and line breaks, empty fields.
        let units = parse("a,b,c\n1,\"x, \"\"y\"\"\",\"two\nlines\"\r\n2,,\n").unwrap();
        assert_eq!(units.texts(0), ["1", "2"]);
        assert_eq!(units.texts(1), ["x, \"y\"", ""]);
        assert_eq!(units.texts(2), ["two\nlines", ""]);
    }

    #[test]
    fn tab_separated_first_line_switches_separator() {
        let table = parse("\ntruth\tscore\n1\t0.5\n").unwrap();
        assert_eq!(table.numbers(1, false).unwrap(), [0.5]);
        assert_eq!(parse("a\tb,c\n1\t2,3\n").unwrap().header(), ["a\tb", "c"]);
    }

    #[test]
    fn a_header_without_rows_is_an_empty_table() {
        let table = parse("a,b\n\n").unwrap();
        assert!(table.is_empty());
        assert_eq!(table.find_any(&["X", "B"]), Some(1));
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let ragged = parse("a,b\n1,2\n3\n").unwrap_err().to_string();
        assert!(
            ragged.contains("x.csv:3") && ragged.contains("1 fields"),
            "{ragged}"
        );
        let table = parse("a,b\n1,2\n3,x\n").unwrap();
        let bad = table.numbers(1, false).unwrap_err().to_string();
        assert_eq!(bad, "x.csv:3, column 'b': 'x' is not a number");
        let missing = table.column("c").unwrap_err().to_string();
        assert_eq!(missing, "'x.csv' has no column 'c' (its columns: a, b)");
        let nan = parse("a\nnan\n").unwrap().numbers(0, true).unwrap_err();
        assert!(nan.to_string().contains("x.csv:2"), "{nan}");
        let infinite = parse("a\ninf\n").unwrap();
        assert!(infinite.numbers(0, false).is_err());
        assert_eq!(infinite.numbers(0, true).unwrap(), [f64::INFINITY]);
        let empty = parse("a,b\n1,\n").unwrap().numbers(1, false).unwrap_err();
        assert_eq!(
            empty.to_string(),
            "x.csv:2, column 'b': the cell is empty, expected a number"
        );
        assert!(parse("a,a\n").is_err());
        assert!(parse("a,,b\n").is_err());
        assert!(parse("a,\"b\n").is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn columns_from_elsewhere_count_lines_after_one_header() {
        let table = TextTable::from_columns(
            Path::new("t.parquet"),
            vec!["v".into()],
            vec![vec!["1".into(), "z".into()]],
        );
        let error = table.numbers(0, false).unwrap_err().to_string();
        assert_eq!(error, "t.parquet:3, column 'v': 'z' is not a number");
    }
}

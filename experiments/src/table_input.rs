//! Reading users' CSV files (predictions, per-fold results) with errors that name the file,
//! the line and the column.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// One body row of a CSV file: its line number in the file (from 1) and its cells.
#[derive(Debug, Clone)]
struct Row {
    line: usize,
    cells: Vec<String>,
}

/// A CSV file read whole: a header row of column names, then rows with as many cells.
///
/// Fields are separated by commas (or by tabs when the header has a tab and no comma); a field
/// may be quoted with `"` (a `""` inside stands for one quote); blank lines are skipped; a UTF-8
/// byte-order mark and CRLF line ends are accepted. Quoted fields may not span lines.
#[derive(Debug, Clone)]
pub struct CsvTable {
    path: PathBuf,
    header: Vec<String>,
    rows: Vec<Row>,
}

/// Splits one line into fields; `None` when a quote is left open.
fn split_line(line: &str, separator: char) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut in_quotes = false;
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if in_quotes {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    field.push('"');
                    chars.next();
                } else {
                    in_quotes = false;
                }
            } else {
                field.push(c);
            }
        } else if c == separator {
            fields.push(finish_field(&field, quoted));
            field.clear();
            quoted = false;
        } else if c == '"' && field.trim().is_empty() && !quoted {
            field.clear();
            in_quotes = true;
            quoted = true;
        } else {
            field.push(c);
        }
    }
    if in_quotes {
        return None;
    }
    fields.push(finish_field(&field, quoted));
    Some(fields)
}

/// Unquoted fields are trimmed; quoted ones are kept as written (text after the closing quote
/// is appended, then trimmed at the end).
fn finish_field(field: &str, quoted: bool) -> String {
    if quoted {
        field.trim_end().to_string()
    } else {
        field.trim().to_string()
    }
}

impl CsvTable {
    /// Reads and checks a CSV file: it must exist, have a header with distinct non-empty names,
    /// and every row must have as many cells as the header.
    pub fn read(path: &Path) -> Result<CsvTable> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read '{}'", path.display()))?;
        Self::parse(path, &text)
    }

    /// Reads a table from a CSV file, or from a Parquet file when the name ends in `.parquet`
    /// (every column read as text; a null cell reads as an empty one). In a Parquet table the
    /// "line" of error messages is the row number counting the header as line 1, as in a CSV.
    pub fn read_csv_or_parquet(path: &Path) -> Result<CsvTable> {
        let is_parquet = path
            .extension()
            .is_some_and(|extension| extension.eq_ignore_ascii_case("parquet"));
        if !is_parquet {
            return Self::read(path);
        }
        Self::read_parquet(path)
    }

    /// Without the `polars` feature: a clear refusal.
    #[cfg(not(feature = "polars"))]
    fn read_parquet(path: &Path) -> Result<CsvTable> {
        bail!(
            "'{}': this build reads no Parquet; give the table as CSV (a run's per_fold.csv holds \
             the same table as its per_fold.parquet), or build with Parquet input: \
             cargo run -p experiments --features polars -- compare ...",
            path.display()
        )
    }

    /// Every column read as text by polars.
    #[cfg(feature = "polars")]
    fn read_parquet(path: &Path) -> Result<CsvTable> {
        use polars::prelude::{DataType, ParquetReader, SerReader};
        let shown = path.display();
        let file = std::fs::File::open(path).with_context(|| format!("cannot read '{shown}'"))?;
        let frame = ParquetReader::new(file)
            .finish()
            .with_context(|| format!("'{shown}' is not a readable Parquet file"))?;
        let header: Vec<String> = frame
            .get_column_names()
            .iter()
            .map(|name| name.to_string())
            .collect();
        let mut columns = Vec::new();
        for column in frame.columns() {
            let text = column.cast(&DataType::String).with_context(|| {
                format!("'{shown}', column '{}': cannot read as text", column.name())
            })?;
            let text = text
                .str()
                .with_context(|| format!("'{shown}', column '{}'", column.name()))?;
            columns.push(
                (0..text.len())
                    .map(|row| text.get(row).unwrap_or("").to_string())
                    .collect::<Vec<_>>(),
            );
        }
        let rows = (0..frame.height())
            .map(|row| Row {
                line: row + 2,
                cells: columns.iter().map(|column| column[row].clone()).collect(),
            })
            .collect();
        Ok(CsvTable {
            path: path.to_path_buf(),
            header,
            rows,
        })
    }

    /// Parses CSV text; `path` is only used in error messages.
    pub fn parse(path: &Path, text: &str) -> Result<CsvTable> {
        let shown = path.display();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.strip_suffix('\r').unwrap_or(line)))
            .filter(|(_, line)| !line.trim().is_empty());
        let Some((header_line, header_text)) = lines.next() else {
            bail!("'{shown}' is empty: expected a header row of column names");
        };
        let separator = if !header_text.contains(',') && header_text.contains('\t') {
            '\t'
        } else {
            ','
        };
        let header = split_line(header_text, separator)
            .with_context(|| format!("{shown}:{header_line}: a quoted field is not closed"))?;
        for (position, name) in header.iter().enumerate() {
            if name.is_empty() {
                bail!(
                    "{shown}:{header_line}: column {} of the header has no name",
                    position + 1
                );
            }
            if header[..position].contains(name) {
                bail!("{shown}:{header_line}: column '{name}' appears twice in the header");
            }
        }
        let mut rows = Vec::new();
        for (line, content) in lines {
            let cells = split_line(content, separator)
                .with_context(|| format!("{shown}:{line}: a quoted field is not closed"))?;
            if cells.len() != header.len() {
                bail!(
                    "{shown}:{line}: the row has {} cell(s), the header (line {header_line}) has {} \
                     columns",
                    cells.len(),
                    header.len()
                );
            }
            rows.push(Row { line, cells });
        }
        Ok(CsvTable {
            path: path.to_path_buf(),
            header,
            rows,
        })
    }

    /// The file this table was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Column names, in file order.
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// Number of body rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when the file has a header and no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Position of a column, if there is one with this exact name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|column| column == name)
    }

    /// Position of a column; the error names the file and lists the columns it has.
    pub fn column(&self, name: &str) -> Result<usize> {
        self.find(name).with_context(|| {
            format!(
                "'{}' has no column '{name}' (its columns: {})",
                self.path.display(),
                self.header.join(", ")
            )
        })
    }

    /// The cells of a column as text.
    pub fn texts(&self, column: usize) -> Vec<&str> {
        self.rows
            .iter()
            .map(|row| row.cells[column].as_str())
            .collect()
    }

    /// The line number (from 1) of body row `row`.
    pub fn line_of(&self, row: usize) -> usize {
        self.rows[row].line
    }

    /// The cells of a column as numbers; an empty, NaN or non-numeric cell is an error naming
    /// the file, line and column. `+-inf` is accepted only when `allow_infinite`.
    pub fn numbers(&self, column: usize, allow_infinite: bool) -> Result<Vec<f64>> {
        let name = &self.header[column];
        self.rows
            .iter()
            .map(|row| {
                let cell = &row.cells[column];
                let place = || format!("{}:{}, column '{name}'", self.path.display(), row.line);
                if cell.is_empty() {
                    bail!("{}: the cell is empty, expected a number", place());
                }
                let value: f64 = cell
                    .parse()
                    .ok()
                    .with_context(|| format!("{}: '{cell}' is not a number", place()))?;
                if value.is_nan() {
                    bail!("{}: '{cell}' is not a number", place());
                }
                if value.is_infinite() && !allow_infinite {
                    bail!(
                        "{}: '{cell}' is infinite, expected a finite number",
                        place()
                    );
                }
                Ok(value)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<CsvTable> {
        CsvTable::parse(Path::new("x.csv"), text)
    }

    #[test]
    fn quoted_fields_blank_lines_and_crlf() {
        let table =
            parse("\u{feff}truth,\"a, b\"\r\n\r\n1, \"say \"\"hi\"\"\"\r\n0,2\r\n").unwrap();
        assert_eq!(table.header(), ["truth", "a, b"]);
        assert_eq!(table.texts(1), ["say \"hi\"", "2"]);
        assert_eq!(table.line_of(0), 3);
        assert_eq!(table.line_of(1), 4);
    }

    #[test]
    fn tab_separated_header_switches_separator() {
        let table = parse("truth\tscore\n1\t0.5\n").unwrap();
        assert_eq!(table.numbers(1, false).unwrap(), [0.5]);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let ragged = parse("a,b\n1,2\n3\n").unwrap_err().to_string();
        assert!(
            ragged.contains("x.csv:3") && ragged.contains("1 cell(s)"),
            "{ragged}"
        );
        let table = parse("a,b\n1,2\n3,x\n").unwrap();
        let bad = table.numbers(1, false).unwrap_err().to_string();
        assert!(
            bad.contains("x.csv:3, column 'b'") && bad.contains("'x'"),
            "{bad}"
        );
        let missing = table.column("c").unwrap_err().to_string();
        assert!(
            missing.contains("no column 'c'") && missing.contains("a, b"),
            "{missing}"
        );
        let nan = parse("a\nnan\n").unwrap().numbers(0, true).unwrap_err();
        assert!(nan.to_string().contains("x.csv:2"), "{nan}");
        let infinite = parse("a\ninf\n").unwrap();
        assert!(infinite.numbers(0, false).is_err());
        assert_eq!(infinite.numbers(0, true).unwrap(), [f64::INFINITY]);
        let empty = parse("a,b\n1,\n").unwrap().numbers(1, false).unwrap_err();
        assert!(
            empty
                .to_string()
                .contains("x.csv:2, column 'b': the cell is empty"),
            "{empty}"
        );
        assert!(parse("a,a\n").is_err());
        assert!(parse("a,\"b\n").is_err());
        assert!(parse("").is_err());
    }
}

//! CSV reader: a header row, one row per instance, RFC 4180 quoting (a quoted field may hold
//! commas, doubled quotes and line breaks). Every field is read as text, so `TRUE`/`FALSE` and
//! numeric-looking codes keep their spelling.
//!
//! **Missing values.** A field is missing when, with surrounding spaces trimmed, it is empty or
//! one of the missing markers: [`LoadOptions::missing_markers`], by default
//! [`crate::DEFAULT_MISSING_MARKERS`] (the empty field and `?`, as in UCI and Weka files); the
//! catalog's `missing_markers` or a config may name others (`NA`, `-999`). Markers are checked
//! before anything else, in every column: a missing value in a numeric column stays missing, a
//! marker in a nominal column is never a value, and a marker in the class column is a missing
//! class (an error).
//!
//! **Column types are decided, not guessed from the first surprise.** A column declared
//! nominal ([`LoadOptions::nominal_columns`], [`LoadOptions::column_types`]) is nominal; a
//! column declared numeric must hold finite numbers or markers, and anything else is an error
//! naming file, line and column. An undeclared column is typed by its present (non-missing)
//! values:
//!
//! - all finite numbers: numeric;
//! - no numbers at all (finite or not): nominal;
//! - numbers and other text: nominal only when the non-numbers are more than half of the
//!   present values *and* take at least two spellings; otherwise an error at the first
//!   non-number, naming file, line and column and telling how to declare the column nominal or
//!   the value a missing marker. So a few stray cells, or a single undeclared missing spelling
//!   however frequent, never silently turn a numeric column nominal;
//! - finite numbers and non-finite ones (`NaN`, `inf`, `-inf`, `1e400`, which overflows) and
//!   nothing else: an error at the first non-finite one. Non-finite numbers are errors in any
//!   numeric column.
//!
//! A number is what Rust's `f64` parser accepts after trimming spaces. [`crate::load_with_report`]
//! says which columns were inferred nominal or numeric.
//!
//! **The class column** is always nominal, its values in order of first appearance (or the
//! order of [`LoadOptions::class_values`]). A class column that looks like a regression target
//! is refused: every value a finite number, at least 3 distinct values, and more than 20
//! distinct values or more distinct values than half the rows. Setting
//! [`LoadOptions::allow_numeric_class`], or listing the labels in
//! [`LoadOptions::class_values`], declares that the numbers are labels.
//!
//! The fields are split by `text_table.rs` (the one splitter of every table the project reads)
//! rather than by polars: under the project's debug profile (dependencies unoptimised) polars
//! took 3.4 s to read `sylva.csv` (6.7 MB) as strings, which made loading the 43 shipped files
//! take 23 s; this pass, which had to exist anyway to name the line of a ragged row, does the
//! whole read in a small fraction of that.

use std::borrow::Cow;
use std::path::Path;

use crate::class_notices::class_notices;
use crate::csv_scan::{Markers, NominalColumn, Scan};
use crate::dataset::Dataset;
use crate::error::DataError;
use crate::notices::{few_whole_numbers, LoadNotice};
use crate::options::{ColumnType, LoadOptions, LoadReport};
use crate::shown::{shown, shown_list};
use crate::table::{
    assemble, classify_number, file_stem, resolve_class_index, Number, RawColumn, RawTable,
};
use crate::text_table::{
    check_header, check_row_length, detect_separator, header_as_data, header_or_empty,
    likely_separator, walk_records, whole_number_names,
};

/// How a column's type was settled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Typing {
    /// Declared by the options.
    Declared(ColumnType),
    /// Left to inference.
    Inferred,
}

/// Each column's declaration from [`LoadOptions::nominal_columns`] and
/// [`LoadOptions::column_types`], checked against the header and each other.
fn declarations(
    path: &Path,
    names: &[&str],
    class_index: usize,
    options: &LoadOptions,
) -> Result<Vec<Typing>, DataError> {
    let error = |message: String| DataError::Declaration {
        path: path.to_path_buf(),
        message,
    };
    let absent = |what: &str, name: &str| {
        error(format!(
            "{what} column '{}' is not in the header; columns are: {}",
            shown(name),
            shown_list(names, 30)
        ))
    };
    let mut typing = vec![Typing::Inferred; names.len()];
    if let Some(nominal) = &options.nominal_columns {
        for name in nominal {
            if !names.contains(&name.as_str()) {
                return Err(absent("nominal", name));
            }
        }
        for (index, name) in names.iter().enumerate() {
            let kind = if nominal.iter().any(|n| n == name) {
                ColumnType::Nominal
            } else {
                ColumnType::Numeric
            };
            typing[index] = Typing::Declared(kind);
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for (name, kind) in &options.column_types {
        let what = match kind {
            ColumnType::Numeric => "declared numeric",
            ColumnType::Nominal => "declared nominal",
        };
        let Some(index) = names.iter().position(|n| n == name) else {
            return Err(absent(what, name));
        };
        if seen.contains(&name.as_str()) {
            return Err(error(format!(
                "column '{name}' is declared twice in column_types; declare each column once"
            )));
        }
        seen.push(name);
        if index == class_index && *kind == ColumnType::Numeric {
            return Err(error(format!(
                "class column '{name}' is declared numeric; the class is always nominal (if its values are numbers that are class labels, set allow_numeric_class)"
            )));
        }
        if let Typing::Declared(listed) = typing[index] {
            if listed != *kind && index != class_index {
                return Err(error(format!(
                    "column '{name}' is {what} in column_types but {} by nominal_columns; declare it one way",
                    match listed {
                        ColumnType::Numeric => "numeric (not listed)",
                        ColumnType::Nominal => "nominal",
                    }
                )));
            }
        }
        typing[index] = Typing::Declared(*kind);
    }
    Ok(typing)
}

/// A nominal column from its fields: values in order of first appearance, missing markers as
/// `NaN`.
fn nominal_column(name: &str, strings: &[Cow<'_, str>], markers: &Markers) -> RawColumn {
    let mut column = NominalColumn::with_capacity(strings.len());
    for text in strings {
        column.push(text, markers);
    }
    column.finish(name)
}

/// The separator of a CSV text, from its first line (comma, tab or semicolon); a first line
/// with none of them is an error. A text without a non-blank line is split on commas, and
/// then (the second value, false) its header is not checked for being a row of numbers nor
/// its rows for being absent.
fn choose_separator(path: &Path, text: &str) -> Result<(u8, bool), DataError> {
    if let Some(separator) = detect_separator(text) {
        return Ok((separator, true));
    }
    let header = text.split('\n').find(|line| !line.trim().is_empty());
    let header = header.unwrap_or("").trim_end_matches('\r');
    if header.is_empty() {
        return Ok((b',', false));
    }
    Err(DataError::Delimiter {
        path: path.to_path_buf(),
        header: header.to_string(),
        found: likely_separator(header),
    })
}

/// The class column and each column's declaration, once the header passes its checks, in the
/// order they are made: distinct non-empty names, not a row of numbers (when `checked`), data
/// rows present (when `checked` and `rows` is known), the class column, the declarations.
fn header_plan(
    path: &Path,
    header: &[String],
    checked: bool,
    rows: Option<usize>,
    options: &LoadOptions,
) -> Result<(usize, Vec<Typing>), DataError> {
    check_header(path, header)?;
    if checked {
        if let Some(numbers) = header_as_data(header) {
            return Err(DataError::NoHeader {
                path: path.to_path_buf(),
                fields: header.len(),
                numbers,
                suggestion: "x1,x2,x3,class: one name per column".into(),
            });
        }
        if rows == Some(0) {
            return Err(DataError::Empty {
                path: path.to_path_buf(),
                what: "the file has a header but no data rows".into(),
            });
        }
    }
    let names: Vec<&str> = header.iter().map(String::as_str).collect();
    let class_index =
        resolve_class_index(path, &names, options.class_column.as_ref(), names.len() - 1)?;
    let typing = declarations(path, &names, class_index, options)?;
    Ok((class_index, typing))
}

/// A column as the first pass reads it.
enum Accumulated {
    /// Known nominal (the class, or declared nominal): coded as read.
    Nominal(NominalColumn),
    /// Every other column: read as numbers, typed after the pass.
    Scan(Scan),
}

/// The first pass over a CSV text's records: the header, each data row's line, and, when the
/// header passes its checks, every column as read (otherwise only the rows' lengths are
/// checked, and the header's error is given after the pass, as a ragged row comes first).
struct FirstPass<'p> {
    path: &'p Path,
    options: &'p LoadOptions,
    markers: &'p Markers,
    checked: bool,
    /// Room reserved for each column: the text's number of lines.
    capacity: usize,
    header: Option<Vec<String>>,
    row_lines: Vec<usize>,
    columns: Vec<Accumulated>,
}

impl FirstPass<'_> {
    /// Takes one record: the header first, then the data rows.
    fn record(&mut self, line: usize, fields: &mut Vec<Cow<'_, str>>) -> Result<(), DataError> {
        let Some(header) = &self.header else {
            let header: Vec<String> = fields.drain(..).map(Cow::into_owned).collect();
            self.start(&header);
            self.header = Some(header);
            return Ok(());
        };
        check_row_length(self.path, line, header, fields)?;
        let row = self.row_lines.len();
        self.row_lines.push(line);
        for (column, field) in self.columns.iter_mut().zip(fields.iter()) {
            match column {
                Accumulated::Nominal(nominal) => nominal.push(field, self.markers),
                Accumulated::Scan(scan) => scan.push(row, field, self.markers),
            }
        }
        Ok(())
    }

    /// Sets up the columns for a header that passes its checks.
    fn start(&mut self, header: &[String]) {
        let Ok((class_index, typing)) =
            header_plan(self.path, header, self.checked, None, self.options)
        else {
            return;
        };
        self.row_lines.reserve(self.capacity);
        self.columns = (0..header.len())
            .map(|index| {
                if index == class_index || typing[index] == Typing::Declared(ColumnType::Nominal) {
                    Accumulated::Nominal(NominalColumn::with_capacity(self.capacity))
                } else {
                    Accumulated::Scan(Scan::with_capacity(self.capacity))
                }
            })
            .collect();
    }
}

/// Which columns the first pass read as numbers that the typing rules make nominal.
fn inferred_nominal(columns: &[Accumulated], typing: &[Typing]) -> Vec<bool> {
    columns
        .iter()
        .zip(typing)
        .map(|(column, &typing)| match column {
            Accumulated::Scan(scan) => {
                scan.is_nominal(typing == Typing::Declared(ColumnType::Numeric))
            }
            Accumulated::Nominal(_) => false,
        })
        .collect()
}

/// The fields of the columns marked `wanted` (the others left empty), by a second walk over
/// the text's records, the header skipped; no walk when no column is wanted.
fn column_texts<'a>(
    path: &Path,
    text: &'a str,
    separator: u8,
    wanted: &[bool],
    rows: usize,
) -> Result<Vec<Vec<Cow<'a, str>>>, DataError> {
    let mut texts: Vec<Vec<Cow<'a, str>>> = wanted
        .iter()
        .map(|&want| Vec::with_capacity(if want { rows } else { 0 }))
        .collect();
    if !wanted.contains(&true) {
        return Ok(texts);
    }
    let mut header = true;
    walk_records(path, text, separator, |_, fields| {
        if std::mem::take(&mut header) {
            return Ok(());
        }
        for ((column, field), &want) in texts.iter_mut().zip(fields.drain(..)).zip(wanted) {
            if want {
                column.push(field);
            }
        }
        Ok(())
    })?;
    Ok(texts)
}

/// One attribute column of a CSV file as read, with what its type depends on.
struct ColumnText<'t, 'a> {
    path: &'t Path,
    /// Position in the header (0-based).
    index: usize,
    name: &'t str,
    strings: &'t [Cow<'a, str>],
    /// The line of each row.
    lines: &'t [usize],
    typing: Typing,
    markers: &'t Markers,
    separator: u8,
}

impl ColumnText<'_, '_> {
    /// The line and text of a row's field.
    fn cell(&self, row: usize) -> (usize, String) {
        (self.lines[row], self.strings[row].to_string())
    }

    /// What a numeric column allows, for messages.
    fn expected(&self) -> String {
        format!(
            "a finite number, or a missing marker ({})",
            self.markers.describe()
        )
    }
}

/// Reads one attribute column (not declared nominal, not the class) by its declaration or by
/// inference, recording in `report` what was inferred and what a user should know.
fn read_column(
    column: &ColumnText,
    scanned: Scan,
    report: &mut LoadReport,
) -> Result<RawColumn, DataError> {
    let (path, index, name) = (column.path, column.index, column.name);
    let declared_numeric = column.typing == Typing::Declared(ColumnType::Numeric);
    if scanned.is_nominal(declared_numeric) {
        check_decimal_comma(column)?;
        if scanned.numeric_like() > 0 {
            report.notices.push(mostly_words(column, &scanned));
        }
        report.inferred_nominal.push(name.to_string());
        return Ok(nominal_column(name, column.strings, column.markers));
    }
    if let Some((row, value)) = scanned.first_word {
        let line = column.lines[row];
        let (path, attribute) = (path.to_path_buf(), name.to_string());
        return Err(if declared_numeric {
            let expected = column.expected();
            let column = index + 1;
            DataError::NotNumeric {
                path,
                line,
                column,
                attribute,
                value,
                expected,
            }
        } else {
            DataError::MixedColumn {
                path,
                line,
                column: index + 1,
                attribute,
                value,
                numbers: scanned.present - scanned.words,
                present: scanned.present,
            }
        });
    }
    if let Some((row, value)) = scanned.first_non_finite {
        let line = column.lines[row];
        return Err(DataError::NonFinite {
            path: path.to_path_buf(),
            line,
            column: index + 1,
            attribute: name.to_string(),
            value,
            expected: column.expected(),
        });
    }
    if !declared_numeric {
        report.inferred_numeric.push(name.to_string());
    }
    Ok(RawColumn {
        name: name.to_string(),
        values: None,
        data: scanned.data,
    })
}

/// A column inferred nominal in a file separated by semicolons or tabs whose every present
/// value is a number written with a decimal comma (`1,5`) is an error naming the first.
fn check_decimal_comma(column: &ColumnText) -> Result<(), DataError> {
    if column.separator == b',' {
        return Ok(());
    }
    let decimal_comma = |text: &str| {
        let text = text.trim();
        let digits = text.strip_prefix('-').unwrap_or(text);
        let whole = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        digits
            .split_once(',')
            .is_some_and(|(before, after)| whole(before) && whole(after))
    };
    let present: Vec<usize> = (0..column.strings.len())
        .filter(|&row| !column.markers.is_missing(&column.strings[row]))
        .collect();
    let all = present
        .iter()
        .all(|&row| decimal_comma(&column.strings[row]));
    match present.first() {
        Some(&first) if all => {
            let (line, value) = column.cell(first);
            Err(DataError::DecimalComma {
                path: column.path.to_path_buf(),
                line,
                column: column.name.to_string(),
                value,
            })
        }
        _ => Ok(()),
    }
}

/// The notice of a column inferred nominal though some of its values are numbers: its most
/// common value that is not a number (perhaps an undeclared missing marker such as `NA`).
fn mostly_words(column: &ColumnText, scanned: &Scan) -> LoadNotice {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for text in column.strings {
        let text = text.trim();
        if column.markers.is_missing(text) || classify_number(text) != Number::Not {
            continue;
        }
        match counts.iter_mut().find(|(known, _)| *known == text) {
            Some((_, count)) => *count += 1,
            None => counts.push((text, 1)),
        }
    }
    let (most_common, count) =
        counts.into_iter().fold(
            ("", 0),
            |best, next| if next.1 > best.1 { next } else { best },
        );
    LoadNotice::NominalWithNumbers {
        column: column.name.to_string(),
        numbers: scanned.present - scanned.words,
        present: scanned.present,
        most_common: most_common.to_string(),
        count,
    }
}

/// Reads a CSV file into a dataset, reporting which column types were inferred and what a user
/// should know about them ([`LoadNotice`]).
///
/// One walk over the records reads every column ([`FirstPass`]): numbers as numbers, so a
/// file of numbers holds no more than its text and its columns; a column that turns out
/// nominal is split again for its text ([`column_texts`]).
pub fn read_csv(path: &Path, options: &LoadOptions) -> Result<(Dataset, LoadReport), DataError> {
    let text = crate::encoding::read_text(path)?;
    let (separator, checked) = choose_separator(path, &text)?;
    let markers = Markers::of(options);
    let mut pass = FirstPass {
        path,
        options,
        markers: &markers,
        checked,
        capacity: text.bytes().filter(|&byte| byte == b'\n').count() + 1,
        header: None,
        row_lines: Vec::new(),
        columns: Vec::new(),
    };
    walk_records(path, &text, separator, |line, fields| {
        pass.record(line, fields)
    })?;
    let FirstPass {
        header,
        row_lines,
        columns: accumulated,
        ..
    } = pass;
    let header = header_or_empty(path, header)?;
    let rows = Some(row_lines.len());
    let (class_index, typing) = header_plan(path, &header, checked, rows, options)?;
    let names: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut report = LoadReport::default();
    let whole = whole_number_names(&header);
    if !whole.is_empty() {
        report
            .notices
            .push(LoadNotice::WholeNumberNames { names: whole });
    }
    let wanted = inferred_nominal(&accumulated, &typing);
    let texts = column_texts(path, &text, separator, &wanted, row_lines.len())?;
    let mut columns = Vec::with_capacity(names.len());
    for (index, column) in accumulated.into_iter().enumerate() {
        let name = names[index];
        let scanned = match column {
            Accumulated::Nominal(nominal) => {
                columns.push(nominal.finish(name));
                continue;
            }
            Accumulated::Scan(scanned) => scanned,
        };
        let column = ColumnText {
            path,
            index,
            name,
            strings: &texts[index],
            lines: &row_lines,
            typing: typing[index],
            markers: &markers,
            separator,
        };
        columns.push(read_column(&column, scanned, &mut report)?);
    }
    drop(texts);
    let inferred = columns
        .iter()
        .filter(|column| report.inferred_numeric.contains(&column.name))
        .map(|column| (column.name.as_str(), column.data.as_slice()));
    let coded = few_whole_numbers(inferred);
    if !coded.is_empty() {
        report
            .notices
            .push(LoadNotice::FewWholeNumbers { columns: coded });
    }
    check_class_labels(path, &columns[class_index], row_lines.len(), options)?;
    report.notices.extend(class_notices(
        &names,
        class_index,
        options.class_column.is_none(),
        columns[class_index].values.as_deref().unwrap_or_default(),
    ));
    let stem = file_stem(path);
    let dataset = assemble(
        RawTable {
            path: path.to_path_buf(),
            columns,
            row_lines,
            weights: None,
        },
        class_index,
        options,
        &stem,
    )?;
    Ok((dataset, report))
}

/// Refuses a class column that looks like a regression target (see the module documentation),
/// unless the options declare its numbers to be labels.
fn check_class_labels(
    path: &Path,
    class: &RawColumn,
    rows: usize,
    options: &LoadOptions,
) -> Result<(), DataError> {
    if options.allow_numeric_class || options.class_values.is_some() {
        return Ok(());
    }
    let values = class.values.as_deref().unwrap_or_default();
    let distinct = values.len();
    let all_numbers = values
        .iter()
        .all(|v| matches!(classify_number(v), Number::Finite(_)));
    if all_numbers && distinct >= 3 && (distinct > 20 || 2 * distinct > rows) {
        return Err(DataError::NumericClass {
            path: path.to_path_buf(),
            class: class.name.clone(),
            distinct,
            rows,
        });
    }
    Ok(())
}

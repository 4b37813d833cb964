//! Weka ARFF and KEEL `.dat` readers (KEEL's format is ARFF with `@inputs`/`@outputs` lines,
//! `[min, max]` ranges after numeric types and `<null>` as a second spelling of missing).
//!
//! Supported: `%` comments (anywhere outside quotes), single- or double-quoted names and values
//! with backslash escapes, `?` for missing (a quoted `'?'` is a value), `numeric`/`real`/
//! `integer`, nominal `{...}` lists, sparse rows `{index value, ...}` (omitted values are 0,
//! i.e. the first value of a nominal attribute), a trailing instance weight `{w}`, CRLF line
//! ends and tabs. A numeric attribute's value must be a finite number or `?`: `NaN`, `inf` and
//! out-of-range values such as `1e400` are errors naming the line and column. `string`, `date` and `relational` attributes are rejected with an error naming
//! the line, but for `string` and `date` attributes named in [`LoadOptions::skip_columns`], which
//! are dropped unread. Nominal values keep their declared order. The class is the last attribute (ARFF) or
//! the `@outputs` attribute (KEEL) unless [`LoadOptions::class_column`] says otherwise.

use std::collections::HashMap;
use std::path::Path;

use crate::dataset::Dataset;
use crate::error::DataError;
use crate::options::LoadOptions;
use crate::shown::shown;
use crate::table::{
    assemble, classify_number, file_stem, parse_number, resolve_class_index, Number, RawColumn,
    RawTable,
};

/// Which dialect is being read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Dialect {
    /// Weka ARFF.
    Arff,
    /// KEEL `.dat`.
    Keel,
}

/// One token of an ARFF line.
#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    /// Unquoted text (a keyword, a name, a value or `?`).
    Word(String),
    /// Quoted text, its escapes resolved.
    Quoted(String),
    /// `,`
    Comma,
    /// `{`
    Open,
    /// `}`
    Close,
}

/// A token and its 1-based character column.
#[derive(Clone, Debug)]
pub struct Located {
    /// The token.
    pub token: Token,
    /// Its 1-based character column.
    pub column: usize,
}

/// Splits line `line` (1-based) of the ARFF file `path` into tokens, up to a `%` comment.
pub fn tokenize_line(path: &Path, line: usize, text: &str) -> Result<Vec<Located>, DataError> {
    tokenize(&Context { path, line }, text)
}

/// Reads an `@attribute name type` line already split into `tokens`: the name and the nominal
/// values (`None` = numeric).
pub fn attribute_line(
    path: &Path,
    line: usize,
    text: &str,
    tokens: &[Located],
) -> Result<(String, Option<Vec<String>>), DataError> {
    parse_attribute(&Context { path, line }, text, tokens, false)
}

struct Context<'a> {
    path: &'a Path,
    line: usize,
}

impl Context<'_> {
    fn syntax(&self, column: usize, message: impl Into<String>) -> DataError {
        DataError::Syntax {
            path: self.path.to_path_buf(),
            line: self.line,
            column,
            message: message.into(),
        }
    }
}

/// Splits one line into tokens; stops at a `%` comment.
fn tokenize(context: &Context, line: &str) -> Result<Vec<Located>, DataError> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        match c {
            c if c.is_whitespace() => i += 1,
            '%' => break,
            ',' => {
                tokens.push(Located {
                    token: Token::Comma,
                    column,
                });
                i += 1;
            }
            '{' => {
                tokens.push(Located {
                    token: Token::Open,
                    column,
                });
                i += 1;
            }
            '}' => {
                tokens.push(Located {
                    token: Token::Close,
                    column,
                });
                i += 1;
            }
            '\'' | '"' => {
                let quote = c;
                let mut text = String::new();
                i += 1;
                let mut closed = false;
                while i < chars.len() {
                    match chars[i] {
                        '\\' if i + 1 < chars.len() => {
                            text.push(match chars[i + 1] {
                                'n' => '\n',
                                't' => '\t',
                                'r' => '\r',
                                other => other,
                            });
                            i += 2;
                        }
                        ch if ch == quote => {
                            closed = true;
                            i += 1;
                            break;
                        }
                        ch => {
                            text.push(ch);
                            i += 1;
                        }
                    }
                }
                if !closed {
                    return Err(context.syntax(
                        column,
                        format!("quoted text is not closed; expected a closing {quote}"),
                    ));
                }
                tokens.push(Located {
                    token: Token::Quoted(text),
                    column,
                });
            }
            _ => {
                let begin = i;
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && !matches!(chars[i], ',' | '{' | '}' | '%' | '\'' | '"')
                {
                    i += 1;
                }
                tokens.push(Located {
                    token: Token::Word(chars[begin..i].iter().collect()),
                    column,
                });
            }
        }
    }
    Ok(tokens)
}

/// A declared attribute.
struct Declared {
    name: String,
    /// `None` = numeric (or skipped).
    values: Option<Vec<String>>,
    lookup: HashMap<String, usize>,
    /// Dropped while reading ([`LoadOptions::skip_columns`]): any type, any value.
    skipped: bool,
}

fn name_of(token: &Located) -> Option<&str> {
    match &token.token {
        Token::Word(text) | Token::Quoted(text) => Some(text),
        _ => None,
    }
}

/// Parses `{a, 'b c', ...}` starting at `tokens[0]` (which must be `Open`).
fn parse_nominal_list(context: &Context, tokens: &[Located]) -> Result<Vec<String>, DataError> {
    let mut values = Vec::new();
    let mut expect_value = true;
    for token in &tokens[1..] {
        match (&token.token, expect_value) {
            (Token::Close, _) => {
                if values.is_empty() {
                    return Err(context.syntax(
                        token.column,
                        "empty nominal list; expected at least one value",
                    ));
                }
                if expect_value {
                    return Err(context.syntax(token.column, "expected a value after ','"));
                }
                return Ok(values);
            }
            (Token::Word(text) | Token::Quoted(text), true) => {
                values.push(text.clone());
                expect_value = false;
            }
            (Token::Comma, false) => expect_value = true,
            (_, true) => {
                return Err(context.syntax(token.column, "expected a nominal value"));
            }
            (_, false) => {
                return Err(context.syntax(token.column, "expected ',' or '}'"));
            }
        }
    }
    let column = tokens.last().map_or(1, |t| t.column);
    Err(context.syntax(column, "nominal list is not closed; expected '}'"))
}

/// Names separated by commas (KEEL `@inputs a, b, c`).
fn parse_name_list(context: &Context, tokens: &[Located]) -> Result<Vec<String>, DataError> {
    let mut names = Vec::new();
    let mut expect_name = true;
    for token in tokens {
        match (&token.token, expect_name) {
            (Token::Word(t) | Token::Quoted(t), true) => {
                names.push(t.clone());
                expect_name = false;
            }
            (Token::Comma, false) => expect_name = true,
            _ => return Err(context.syntax(token.column, "expected a comma-separated name list")),
        }
    }
    Ok(names)
}

fn is_missing(token: &Token, dialect: Dialect) -> bool {
    match token {
        Token::Word(text) => text == "?" || (dialect == Dialect::Keel && text == "<null>"),
        _ => false,
    }
}

/// Converts one field to the stored value of attribute `attribute`.
fn convert(
    context: &Context,
    attribute: &Declared,
    token: &Located,
    dialect: Dialect,
) -> Result<f64, DataError> {
    if attribute.skipped || is_missing(&token.token, dialect) {
        return Ok(f64::NAN);
    }
    let Some(text) = name_of(token) else {
        return Err(context.syntax(token.column, "expected a value"));
    };
    match &attribute.values {
        None => {
            let expected = match dialect {
                Dialect::Arff => "a finite number, or ? for a missing value",
                Dialect::Keel => "a finite number, or ? or <null> for a missing value",
            }
            .to_string();
            match classify_number(text) {
                Number::Finite(number) => Ok(number),
                Number::NonFinite => Err(DataError::NonFinite {
                    path: context.path.to_path_buf(),
                    line: context.line,
                    column: token.column,
                    attribute: attribute.name.clone(),
                    value: text.to_string(),
                    expected,
                }),
                Number::Not => Err(DataError::NotNumeric {
                    path: context.path.to_path_buf(),
                    line: context.line,
                    column: token.column,
                    attribute: attribute.name.clone(),
                    value: text.to_string(),
                    expected,
                }),
            }
        }
        Some(values) => match attribute.lookup.get(text) {
            Some(&index) => Ok(index as f64),
            None => Err(DataError::UnknownNominal {
                path: context.path.to_path_buf(),
                line: context.line,
                column: token.column,
                attribute: attribute.name.clone(),
                value: text.to_string(),
                allowed: values.join(","),
            }),
        },
    }
}

/// Parses a trailing `{weight}`: `tokens` = Open Word Close.
fn parse_weight(context: &Context, tokens: &[Located]) -> Result<f64, DataError> {
    let column = tokens.first().map_or(1, |t| t.column);
    if tokens.len() != 3 || tokens[2].token != Token::Close {
        return Err(context.syntax(column, "expected an instance weight '{w}'"));
    }
    name_of(&tokens[1])
        .and_then(parse_number)
        .filter(|w| *w >= 0.0)
        .ok_or_else(|| context.syntax(tokens[1].column, "expected a weight >= 0 inside '{...}'"))
}

/// The header read so far: the declared attributes and KEEL's `@inputs`/`@outputs` lines.
#[derive(Default)]
struct Header {
    /// The names of the attributes to drop while reading, whatever their type.
    skip: Vec<String>,
    attributes: Vec<Declared>,
    /// The line of each declared name, to refuse a name declared twice.
    attribute_lines: HashMap<String, usize>,
    /// KEEL's `@inputs` names (the attributes kept besides the class).
    inputs: Option<Vec<String>>,
    /// KEEL's `@outputs` names and the line that gave them.
    outputs: Option<(Vec<String>, usize)>,
}

impl Header {
    /// Reads one header line; returns whether it was `@data` (the rows start on the next line).
    fn read_line(
        &mut self,
        context: &Context,
        line: &str,
        tokens: &[Located],
        dialect: Dialect,
    ) -> Result<bool, DataError> {
        let Token::Word(keyword) = &tokens[0].token else {
            return Err(context.syntax(tokens[0].column, "expected @relation, @attribute or @data"));
        };
        match keyword.to_ascii_lowercase().as_str() {
            "@relation" => {}
            "@attribute" => {
                let skipped = tokens
                    .get(1)
                    .and_then(name_of)
                    .is_some_and(|name| self.skip.iter().any(|s| s == name));
                let (name, values) = parse_attribute(context, line, tokens, skipped)?;
                self.declare(context, name, values)?;
            }
            "@inputs" | "@input" if dialect == Dialect::Keel => {
                self.inputs = Some(parse_name_list(context, &tokens[1..])?);
            }
            "@outputs" | "@output" if dialect == Dialect::Keel => {
                self.outputs = Some((parse_name_list(context, &tokens[1..])?, context.line));
            }
            "@data" => {
                if self.attributes.is_empty() {
                    return Err(context.syntax(
                        tokens[0].column,
                        "@data before any @attribute; expected attribute declarations first",
                    ));
                }
                return Ok(true);
            }
            other => {
                return Err(context.syntax(
                    tokens[0].column,
                    format!("unknown keyword '{other}'; expected @relation, @attribute or @data"),
                ))
            }
        }
        Ok(false)
    }

    /// Adds an attribute, refusing a name already declared.
    fn declare(
        &mut self,
        context: &Context,
        name: String,
        values: Option<Vec<String>>,
    ) -> Result<(), DataError> {
        if self
            .attribute_lines
            .insert(name.clone(), context.line)
            .is_some()
        {
            return Err(DataError::DuplicateName {
                path: context.path.to_path_buf(),
                line: context.line,
                name,
            });
        }
        let lookup = values
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, v)| (v.clone(), i))
            .collect();
        let skipped = self.skip.contains(&name);
        self.attributes.push(Declared {
            name,
            values,
            lookup,
            skipped,
        });
        Ok(())
    }
}

/// Parses `@attribute name type`: the name and the nominal values (`None` = numeric).
fn parse_attribute(
    context: &Context,
    line: &str,
    tokens: &[Located],
    skipped: bool,
) -> Result<(String, Option<Vec<String>>), DataError> {
    let Some(name_token) = tokens.get(1) else {
        return Err(context.syntax(line.len() + 1, "expected an attribute name"));
    };
    let Some(name) = name_of(name_token) else {
        return Err(context.syntax(name_token.column, "expected an attribute name"));
    };
    let name = name.to_string();
    let Some(kind) = tokens.get(2) else {
        return Err(context.syntax(
            line.len() + 1,
            format!(
                "attribute '{}' has no type; expected numeric, real, integer or {{...}}",
                shown(&name)
            ),
        ));
    };
    let values = match &kind.token {
        Token::Open => Some(parse_nominal_list(context, &tokens[2..])?),
        Token::Word(word) => match word.to_ascii_lowercase().as_str() {
            "numeric" | "real" | "integer" => None,
            "string" | "date" if skipped => None,
            "string" | "date" | "relational" => {
                return Err(DataError::UnsupportedType {
                    path: context.path.to_path_buf(),
                    line: context.line,
                    attribute: name,
                    kind: word.clone(),
                })
            }
            _ => {
                return Err(context.syntax(
                    kind.column,
                    format!(
                        "unknown type '{}'; expected numeric, real, integer or {{...}}",
                        shown(word)
                    ),
                ))
            }
        },
        _ => {
            return Err(context.syntax(
                kind.column,
                "expected a type: numeric, real, integer or {...}",
            ))
        }
    };
    Ok((name, values))
}

/// The data rows read so far, with each row's line and weight.
#[derive(Default)]
struct Rows {
    data: Vec<Vec<f64>>,
    row_lines: Vec<usize>,
    weights: Vec<f64>,
    /// Whether any row gave a weight (if none did, the table has no weights).
    any_weight: bool,
}

impl Rows {
    /// Adds a row read on `line`, with its weight if it gave one (1 if not).
    fn push(&mut self, line: usize, row: Vec<f64>, weight: Option<f64>) {
        self.data.push(row);
        self.row_lines.push(line);
        self.weights.push(weight.unwrap_or(1.0));
        self.any_weight |= weight.is_some();
    }
}

/// Reads one data row (dense or sparse): its values and its weight, if it gives one.
fn read_row(
    context: &Context,
    attributes: &[Declared],
    tokens: &[Located],
    dialect: Dialect,
) -> Result<(Vec<f64>, Option<f64>), DataError> {
    let mut row = vec![0.0; attributes.len()];
    let weight = if tokens[0].token == Token::Open {
        read_sparse_row(context, attributes, tokens, dialect, &mut row)?
    } else {
        read_dense_row(context, attributes, tokens, dialect, &mut row)?
    };
    Ok((row, weight))
}

/// Reads a sparse row `{index value, index value, ...} [, {weight}]` into `row` (zeros where
/// no value is given); returns its weight, if it gives one.
fn read_sparse_row(
    context: &Context,
    attributes: &[Declared],
    tokens: &[Located],
    dialect: Dialect,
    row: &mut [f64],
) -> Result<Option<f64>, DataError> {
    let width = attributes.len();
    let close = tokens
        .iter()
        .position(|t| t.token == Token::Close)
        .ok_or_else(|| {
            context.syntax(tokens[0].column, "sparse row is not closed; expected '}'")
        })?;
    let mut previous: Option<usize> = None;
    for pair in tokens[1..close].split(|t| t.token == Token::Comma) {
        if pair.is_empty() && close == 1 {
            break;
        }
        if pair.len() != 2 {
            let column = pair.first().map_or(tokens[0].column, |t| t.column);
            return Err(context.syntax(column, "expected 'index value' in a sparse row"));
        }
        let position = name_of(&pair[0])
            .and_then(|t| t.parse::<usize>().ok())
            .filter(|&p| p < width)
            .ok_or_else(|| {
                context.syntax(
                    pair[0].column,
                    format!("expected an attribute index 0..={}", width - 1),
                )
            })?;
        if previous.is_some_and(|p| p >= position) {
            return Err(
                context.syntax(pair[0].column, "sparse indices must increase along the row")
            );
        }
        previous = Some(position);
        row[position] = convert(context, &attributes[position], &pair[1], dialect)?;
    }
    let rest = &tokens[close + 1..];
    if rest.is_empty() {
        return Ok(None);
    }
    if rest[0].token != Token::Comma {
        return Err(context.syntax(rest[0].column, "expected ',' before a weight"));
    }
    Ok(Some(parse_weight(context, &rest[1..])?))
}

/// Reads a dense row `value, value, ... [, {weight}]` into `row`; returns its weight, if it
/// gives one.
fn read_dense_row(
    context: &Context,
    attributes: &[Declared],
    tokens: &[Located],
    dialect: Dialect,
    row: &mut [f64],
) -> Result<Option<f64>, DataError> {
    let width = attributes.len();
    let fields: Vec<&[Located]> = tokens.split(|t| t.token == Token::Comma).collect();
    let mut count = fields.len();
    let mut weight = None;
    if count == width + 1 && fields[width].first().map(|t| &t.token) == Some(&Token::Open) {
        weight = Some(parse_weight(context, fields[width])?);
        count -= 1;
    }
    if count != width {
        return Err(DataError::Ragged {
            path: context.path.to_path_buf(),
            line: context.line,
            expected: width,
            got: count,
        });
    }
    for (position, field) in fields[..width].iter().enumerate() {
        if field.len() != 1 {
            let column = field
                .first()
                .map(|t| t.column)
                .unwrap_or_else(|| tokens[0].column);
            let name = shown(&attributes[position].name);
            let message = if field.is_empty() {
                format!("empty field for attribute '{name}'; expected a value or '?'")
            } else {
                format!(
                    "expected one value for attribute '{name}' (quote values that contain spaces)"
                )
            };
            return Err(context.syntax(column, message));
        }
        row[position] = convert(context, &attributes[position], &field[0], dialect)?;
    }
    Ok(weight)
}

/// Reads an ARFF or KEEL file into a dataset.
pub(crate) fn read_header_format(
    path: &Path,
    options: &LoadOptions,
    dialect: Dialect,
) -> Result<Dataset, DataError> {
    let mut rows = Rows::default();
    let header = scan(
        (path, &options.skip_columns),
        dialect,
        |_| Ok::<(), DataError>(()),
        |line, row, weight| {
            rows.push(line, row, weight);
            Ok(())
        },
    )?;
    if rows.data.is_empty() {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "no data rows; expected rows after @data".into(),
        });
    }
    into_dataset(path, options, header, rows)
}

/// Reads the file's header, calls `on_data` with it at `@data`, then `on_row` with each row's
/// line, values and weight; returns the header. A file without attributes or without `@data`
/// is an error.
fn scan<E: From<DataError>>(
    (path, skip): (&Path, &[String]),
    dialect: Dialect,
    on_data: impl FnOnce(&Header) -> Result<(), E>,
    mut on_row: impl FnMut(usize, Vec<f64>, Option<f64>) -> Result<(), E>,
) -> Result<Header, E> {
    let text = crate::encoding::read_text(path)?;
    let mut header = Header {
        skip: skip.to_vec(),
        ..Header::default()
    };
    let mut on_data = Some(on_data);
    for (index, line) in text.lines().enumerate() {
        let context = Context {
            path,
            line: index + 1,
        };
        let tokens = tokenize(&context, line)?;
        if tokens.is_empty() {
            continue;
        }
        if on_data.is_some() {
            if header.read_line(&context, line, &tokens, dialect)? {
                if let Some(call) = on_data.take() {
                    call(&header)?;
                }
            }
            continue;
        }
        let (row, weight) = read_row(&context, &header.attributes, &tokens, dialect)?;
        on_row(context.line, row, weight)?;
    }
    if header.attributes.is_empty() {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "no @attribute declarations; expected a header and @data".into(),
        }
        .into());
    }
    if on_data.is_some() {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
            what: "no @data line; expected the rows after a line @data".into(),
        }
        .into());
    }
    Ok(header)
}

/// One attribute of an ARFF header: its name and, when nominal, its declared values in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArffAttribute {
    /// The declared name.
    pub name: String,
    /// The declared nominal values in the file's order; `None` for a numeric attribute (or a
    /// skipped one).
    pub values: Option<Vec<String>>,
    /// Whether the attribute is one of the names to skip (its values are read as NaN).
    pub skipped: bool,
}

/// Reads an ARFF file row by row without building a dataset: `on_header` gets the declared
/// attributes at `@data`, then `on_row` each data row's 1-based line and values (a nominal
/// value as the index of its declared value, a missing value as NaN; weights are dropped).
/// The syntax and every value are checked as [`crate::load`] checks them, but for the
/// attributes named in `skip`, which may have any type (`string`, `date`) and whose values
/// are NaN, as [`LoadOptions::skip_columns`] drops them.
pub fn visit_arff<E: From<DataError>>(
    (path, skip): (&Path, &[String]),
    on_header: impl FnOnce(&[ArffAttribute]) -> Result<(), E>,
    mut on_row: impl FnMut(usize, &[f64]) -> Result<(), E>,
) -> Result<(), E> {
    let public = |header: &Header| -> Vec<ArffAttribute> {
        header
            .attributes
            .iter()
            .map(|a| ArffAttribute {
                name: a.name.clone(),
                values: a.values.clone(),
                skipped: a.skipped,
            })
            .collect()
    };
    scan(
        (path, skip),
        Dialect::Arff,
        |header| on_header(&public(header)),
        |line, row, _| on_row(line, &row),
    )?;
    Ok(())
}

/// The index of KEEL's `@outputs` attribute (declared on `line`), which must name exactly one
/// declared attribute.
fn output_class(
    path: &Path,
    names: &[&str],
    outputs: &[String],
    line: usize,
) -> Result<usize, DataError> {
    let error = |message: String| DataError::Syntax {
        path: path.to_path_buf(),
        line,
        column: 1,
        message,
    };
    if outputs.len() != 1 {
        return Err(error(format!(
            "expected exactly one @outputs attribute, found {}",
            outputs.len()
        )));
    }
    names.iter().position(|n| *n == outputs[0]).ok_or_else(|| {
        error(format!(
            "@outputs names '{}', which is not a declared attribute",
            outputs[0]
        ))
    })
}

/// Builds the dataset from the header and rows: the class is the option's column, else KEEL's
/// `@outputs`, else the last attribute; KEEL's `@inputs` choose the other columns kept.
fn into_dataset(
    path: &Path,
    options: &LoadOptions,
    header: Header,
    rows: Rows,
) -> Result<Dataset, DataError> {
    let Header {
        attributes,
        inputs,
        outputs,
        ..
    } = header;
    let names: Vec<&str> = attributes.iter().map(|a| a.name.as_str()).collect();
    let default_class = match &outputs {
        Some((outputs, line)) => output_class(path, &names, outputs, *line)?,
        None => names.len() - 1,
    };
    let class_index =
        resolve_class_index(path, &names, options.class_column.as_ref(), default_class)?;
    let keep: Vec<bool> = (0..names.len())
        .map(|i| {
            !attributes[i].skipped
                && (i == class_index
                    || inputs
                        .as_ref()
                        .is_none_or(|list| list.iter().any(|n| n == names[i])))
        })
        .collect();
    let mut columns = Vec::new();
    let mut new_class_index = 0;
    for (position, attribute) in attributes.into_iter().enumerate() {
        if !keep[position] {
            continue;
        }
        if position == class_index {
            new_class_index = columns.len();
        }
        columns.push(RawColumn {
            name: attribute.name,
            values: attribute.values,
            data: rows.data.iter().map(|row| row[position]).collect(),
        });
    }
    let stem = file_stem(path);
    assemble(
        RawTable {
            path: path.to_path_buf(),
            columns,
            row_lines: rows.row_lines,
            weights: rows.any_weight.then_some(rows.weights),
        },
        new_class_index,
        options,
        &stem,
    )
}

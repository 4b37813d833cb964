//! A predictions file read as ARFF (with the data crate's lexer): its relation, its attributes
//! and its rows as text, each with its line; what the values mean is the checker's job.

use std::path::Path;

use data::arff_lexer::{attribute_line, read_text, tokenize_line, Located, Token};

use crate::error::RunsError;
use crate::problem::Problem;

/// A declared attribute and its line.
#[derive(Clone, Debug)]
pub struct Attribute {
    /// Its name.
    pub name: String,
    /// Its nominal values (`None`: numeric).
    pub values: Option<Vec<String>>,
    /// The line declaring it.
    pub line: usize,
}

/// One data row: its line and its fields (`None`: the missing value `?`).
#[derive(Clone, Debug)]
pub struct RawRow {
    /// The 1-based line.
    pub line: usize,
    /// One field per attribute.
    pub fields: Vec<Option<String>>,
}

/// A predictions file as ARFF.
#[derive(Clone, Debug, Default)]
pub struct PredictionsFile {
    /// The relation's name and its line (`None`: no `@relation` line).
    pub relation: Option<(String, usize)>,
    /// The attributes, in order.
    pub attributes: Vec<Attribute>,
    /// The rows that read, in order.
    pub rows: Vec<RawRow>,
    /// Rows that did not read (a wrong number of fields, an unclosed quote).
    pub problems: Vec<Problem>,
}

/// Reads `path`; a header that does not read is an error, a row that does not read a problem.
pub fn read_predictions_file(path: &Path) -> Result<PredictionsFile, RunsError> {
    let text = read_text(path)?;
    let mut file = PredictionsFile::default();
    let mut in_data = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if in_data {
            file.read_row(path, number, line);
            continue;
        }
        let tokens = tokenize_line(path, number, line)?;
        let Some(first) = tokens.first() else {
            continue;
        };
        let keyword = match &first.token {
            Token::Word(word) => word.to_ascii_lowercase(),
            _ => String::new(),
        };
        match keyword.as_str() {
            "@relation" => file.relation = Some((relation_name(&tokens), number)),
            "@attribute" => {
                let (name, values) = attribute_line(path, number, line, &tokens)?;
                file.attributes.push(Attribute {
                    name,
                    values,
                    line: number,
                });
            }
            "@data" => in_data = true,
            _ => {
                return Err(RunsError::Header {
                    path: path.to_path_buf(),
                    line: number,
                    message: "expected @relation, @attribute or @data".into(),
                })
            }
        }
    }
    if !in_data {
        return Err(RunsError::Header {
            path: path.to_path_buf(),
            line: text.lines().count(),
            message: "no @data line; a predictions file has a header, then @data and its rows"
                .into(),
        });
    }
    Ok(file)
}

/// The relation's name: the token after `@relation` (empty when there is none).
fn relation_name(tokens: &[Located]) -> String {
    match tokens.get(1).map(|t| &t.token) {
        Some(Token::Word(name) | Token::Quoted(name)) => name.clone(),
        _ => String::new(),
    }
}

impl PredictionsFile {
    /// Reads one data line into a row, or records why it does not read.
    fn read_row(&mut self, path: &Path, line: usize, text: &str) {
        let tokens = match tokenize_line(path, line, text) {
            Ok(tokens) => tokens,
            Err(error) => {
                self.problems.push(Problem::at(line, error.to_string()));
                return;
            }
        };
        if tokens.is_empty() {
            return;
        }
        let mut fields = Vec::new();
        for field in tokens.split(|t| t.token == Token::Comma) {
            match field {
                [Located {
                    token: Token::Word(word),
                    ..
                }] => fields.push((word != "?").then(|| word.clone())),
                [Located {
                    token: Token::Quoted(text),
                    ..
                }] => fields.push(Some(text.clone())),
                _ => {
                    let column = field.first().map_or(1, |t| t.column);
                    self.problems.push(Problem::at(
                        line,
                        format!("column {column}: expected one value per field (a dense row; quote values with spaces)"),
                    ));
                    return;
                }
            }
        }
        if fields.len() != self.attributes.len() {
            self.problems.push(Problem::at(
                line,
                format!(
                    "the row has {} fields; the header declares {} attributes",
                    fields.len(),
                    self.attributes.len()
                ),
            ));
            return;
        }
        self.rows.push(RawRow { line, fields });
    }
}

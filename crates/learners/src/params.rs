//! Checked learner parameters read from a config table.

use std::collections::BTreeMap;

/// A parameter that is missing, of the wrong type, out of range or unknown.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ParamError {
    /// A key the learner does not know.
    #[error("learner '{kind}': unknown parameter '{key}' (allowed: {allowed})")]
    Unknown {
        kind: String,
        key: String,
        allowed: String,
    },
    /// A value of the wrong type.
    #[error("learner '{kind}': parameter '{key}' must be {expected}, got {got}")]
    Type {
        kind: String,
        key: String,
        expected: String,
        got: String,
    },
    /// A value outside its allowed range.
    #[error("learner '{kind}': parameter '{key}' = {value} is out of range; allowed: {allowed}")]
    Range {
        kind: String,
        key: String,
        value: String,
        allowed: String,
    },
    /// A learner kind that does not exist.
    #[error("unknown learner kind '{kind}' (known kinds: {known})")]
    UnknownKind { kind: String, known: String },
}

/// The parameters given for one learner, consumed key by key so that leftovers are reported.
#[derive(Debug, Clone)]
pub struct Params {
    kind: String,
    values: BTreeMap<String, toml::Value>,
    allowed: Vec<&'static str>,
}

impl Params {
    /// Wraps a config table (without its `kind` and `name` keys) for the learner `kind`.
    pub fn new(kind: &str, table: &toml::Table) -> Self {
        let values = table
            .iter()
            .filter(|(key, _)| key.as_str() != "kind" && key.as_str() != "name")
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        Params {
            kind: kind.to_string(),
            values,
            allowed: Vec::new(),
        }
    }

    /// Parameters with no values given (every default).
    pub fn empty(kind: &str) -> Self {
        Params {
            kind: kind.to_string(),
            values: BTreeMap::new(),
            allowed: Vec::new(),
        }
    }

    /// The learner kind these parameters are for.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    fn type_error(&self, key: &str, expected: &str, got: &toml::Value) -> ParamError {
        ParamError::Type {
            kind: self.kind.clone(),
            key: key.to_string(),
            expected: expected.to_string(),
            got: format!("{} ({})", got, got.type_str()),
        }
    }

    /// A real number in `[low, high]`, or `default` when absent. Integers are accepted.
    pub fn real(
        &mut self,
        key: &'static str,
        default: f64,
        low: f64,
        high: f64,
    ) -> Result<f64, ParamError> {
        self.allowed.push(key);
        let Some(value) = self.values.remove(key) else {
            return Ok(default);
        };
        let number = match &value {
            toml::Value::Float(x) => *x,
            toml::Value::Integer(i) => *i as f64,
            other => return Err(self.type_error(key, "a number", other)),
        };
        if !(number >= low && number <= high) {
            return Err(ParamError::Range {
                kind: self.kind.clone(),
                key: key.to_string(),
                value: number.to_string(),
                allowed: format!("{low} to {high}"),
            });
        }
        Ok(number)
    }

    /// A whole number in `[low, high]`, or `default` when absent.
    pub fn integer(
        &mut self,
        key: &'static str,
        default: usize,
        low: usize,
        high: usize,
    ) -> Result<usize, ParamError> {
        self.allowed.push(key);
        let Some(value) = self.values.remove(key) else {
            return Ok(default);
        };
        let number = match &value {
            toml::Value::Integer(i) => *i,
            other => return Err(self.type_error(key, "a whole number", other)),
        };
        if number < low as i64 || number > high as i64 {
            return Err(ParamError::Range {
                kind: self.kind.clone(),
                key: key.to_string(),
                value: number.to_string(),
                allowed: format!("{low} to {high}"),
            });
        }
        Ok(number as usize)
    }

    /// A list of whole numbers, each in `[low, high]`, non-empty, or `default` when absent.
    pub fn integer_list(
        &mut self,
        key: &'static str,
        default: &[usize],
        low: usize,
        high: usize,
    ) -> Result<Vec<usize>, ParamError> {
        self.allowed.push(key);
        let Some(value) = self.values.remove(key) else {
            return Ok(default.to_vec());
        };
        let toml::Value::Array(items) = &value else {
            return Err(self.type_error(key, "a list of whole numbers", &value));
        };
        if items.is_empty() {
            return Err(ParamError::Range {
                kind: self.kind.clone(),
                key: key.to_string(),
                value: "[]".into(),
                allowed: format!("a non-empty list of whole numbers from {low} to {high}"),
            });
        }
        let mut numbers = Vec::with_capacity(items.len());
        for item in items {
            match item {
                toml::Value::Integer(i) if *i >= low as i64 && *i <= high as i64 => {
                    numbers.push(*i as usize)
                }
                toml::Value::Integer(i) => {
                    return Err(ParamError::Range {
                        kind: self.kind.clone(),
                        key: key.to_string(),
                        value: i.to_string(),
                        allowed: format!("{low} to {high}"),
                    })
                }
                other => return Err(self.type_error(key, "a list of whole numbers", other)),
            }
        }
        Ok(numbers)
    }

    /// A boolean, or `default` when absent.
    pub fn boolean(&mut self, key: &'static str, default: bool) -> Result<bool, ParamError> {
        self.allowed.push(key);
        let Some(value) = self.values.remove(key) else {
            return Ok(default);
        };
        match value {
            toml::Value::Boolean(b) => Ok(b),
            other => Err(self.type_error(key, "true or false", &other)),
        }
    }

    /// One of a fixed set of words, or `default` when absent.
    pub fn choice(
        &mut self,
        key: &'static str,
        default: &'static str,
        allowed: &[&'static str],
    ) -> Result<String, ParamError> {
        self.allowed.push(key);
        let Some(value) = self.values.remove(key) else {
            return Ok(default.to_string());
        };
        let toml::Value::String(word) = &value else {
            return Err(self.type_error(key, &format!("one of {}", allowed.join(", ")), &value));
        };
        if !allowed.contains(&word.as_str()) {
            return Err(ParamError::Range {
                kind: self.kind.clone(),
                key: key.to_string(),
                value: format!("\"{word}\""),
                allowed: allowed.join(", "),
            });
        }
        Ok(word.clone())
    }

    /// A list of strings (e.g. a command line), or `None` when absent.
    pub fn string_list(&mut self, key: &'static str) -> Result<Option<Vec<String>>, ParamError> {
        self.allowed.push(key);
        let Some(value) = self.values.remove(key) else {
            return Ok(None);
        };
        let toml::Value::Array(items) = &value else {
            return Err(self.type_error(key, "a list of strings", &value));
        };
        items
            .iter()
            .map(|item| match item {
                toml::Value::String(text) => Ok(text.clone()),
                other => Err(self.type_error(key, "a list of strings", other)),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// A non-empty list of non-empty lists of numbers, each in `[low, high]` (e.g. a cost
    /// matrix), or `None` when absent. Integers are accepted. Row lengths are not checked.
    pub fn real_rows(
        &mut self,
        key: &'static str,
        low: f64,
        high: f64,
    ) -> Result<Option<Vec<Vec<f64>>>, ParamError> {
        self.allowed.push(key);
        let Some(value) = self.values.remove(key) else {
            return Ok(None);
        };
        let expected = "a list of lists of numbers";
        let toml::Value::Array(rows) = &value else {
            return Err(self.type_error(key, expected, &value));
        };
        if rows.is_empty() {
            return Err(self.type_error(key, expected, &value));
        }
        let mut matrix = Vec::with_capacity(rows.len());
        for row in rows {
            let toml::Value::Array(items) = row else {
                return Err(self.type_error(key, expected, row));
            };
            if items.is_empty() {
                return Err(self.type_error(key, expected, row));
            }
            let mut numbers = Vec::with_capacity(items.len());
            for item in items {
                let number = match item {
                    toml::Value::Float(x) => *x,
                    toml::Value::Integer(i) => *i as f64,
                    other => return Err(self.type_error(key, expected, other)),
                };
                if !(number >= low && number <= high) {
                    return Err(ParamError::Range {
                        kind: self.kind.clone(),
                        key: key.to_string(),
                        value: number.to_string(),
                        allowed: format!("{low} to {high}"),
                    });
                }
                numbers.push(number);
            }
            matrix.push(numbers);
        }
        Ok(Some(matrix))
    }

    /// A nested table (e.g. the base learner of a wrapper), or `None` when absent.
    pub fn table(&mut self, key: &'static str) -> Result<Option<toml::Table>, ParamError> {
        self.allowed.push(key);
        let Some(value) = self.values.remove(key) else {
            return Ok(None);
        };
        match value {
            toml::Value::Table(table) => Ok(Some(table)),
            other => Err(self.type_error(key, "a table", &other)),
        }
    }

    /// Errors if any given key was not consumed; call after reading every parameter.
    pub fn finish(self) -> Result<(), ParamError> {
        if let Some(key) = self.values.keys().next() {
            return Err(ParamError::Unknown {
                kind: self.kind.clone(),
                key: key.clone(),
                allowed: if self.allowed.is_empty() {
                    "none".into()
                } else {
                    self.allowed.join(", ")
                },
            });
        }
        Ok(())
    }
}

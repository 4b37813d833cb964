//! Learner parameters read from a config table and checked against the learner's spec.
//!
//! [`Params::new`] checks a whole table at once: every key must be a declared parameter, and
//! every value must have the declared type and lie in the declared range. The learner's build
//! function then reads each parameter by name (`params.real("confidence")?`), getting the
//! given value or the spec's default.

use std::collections::BTreeMap;

use crate::model::Learner;
use crate::parameter::{format_number, Declares, ParameterDefault, ParameterKind, ParameterSpec};

/// A parameter that is unknown, missing, of the wrong type or out of range, or a learner kind
/// that does not exist. Every message names the learner, the key and what it allows.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ParamError {
    /// A key the learner does not declare.
    #[error("learner '{kind}': unknown parameter '{key}' (allowed: {allowed})")]
    Unknown {
        /// The learner kind.
        kind: String,
        /// The key given.
        key: String,
        /// The declared parameter names.
        allowed: String,
    },
    /// A value of the wrong type.
    #[error("learner '{kind}': parameter '{key}' must be {expected}, got {got}")]
    Type {
        /// The learner kind.
        kind: String,
        /// The parameter.
        key: String,
        /// The declared type, in words.
        expected: String,
        /// The value given and its type.
        got: String,
    },
    /// A value outside its allowed range.
    #[error("learner '{kind}': parameter '{key}' = {value} is out of range; allowed: {allowed}")]
    Range {
        /// The learner kind.
        kind: String,
        /// The parameter.
        key: String,
        /// The value given.
        value: String,
        /// The allowed values, in words.
        allowed: String,
    },
    /// A value of the right type and range that cannot be used here: a path to a program or
    /// file that is not there, a program that does not run.
    #[error("learner '{kind}': parameter '{key}' = {value}: {problem}")]
    Unusable {
        /// The learner kind.
        kind: String,
        /// The parameter.
        key: String,
        /// The value given (or the default used).
        value: String,
        /// What is wrong and what to do.
        problem: String,
    },
    /// A parameter without default that the config does not give.
    #[error("learner '{kind}': parameter '{key}' is required: {expected}")]
    Missing {
        /// The learner kind.
        kind: String,
        /// The parameter.
        key: String,
        /// What to give, in words.
        expected: String,
    },
    /// A learner kind that does not exist.
    #[error("unknown learner kind '{}' (known kinds: {known}){hint}", data::shown(.kind))]
    UnknownKind {
        /// The kind given.
        kind: String,
        /// The registered kinds.
        known: String,
        /// Empty, or a sentence saying how to build with the kind (an adapter kind in a build
        /// without the `adapters` feature).
        hint: String,
    },
    /// A learner's build function read a parameter its spec does not declare, or with another
    /// type: a bug in the learner, not in the config.
    #[error("learner '{kind}': reads parameter '{key}' {problem} (a bug in the learner's spec or build function)")]
    Undeclared {
        /// The learner kind.
        kind: String,
        /// The parameter read.
        key: String,
        /// What is wrong.
        problem: String,
    },
}

/// A checked parameter value.
#[derive(Clone, Debug)]
enum Value {
    Real(f64),
    Integer(usize),
    IntegerList(Vec<usize>),
    Boolean(bool),
    Word(&'static str),
    Strings(Vec<String>),
    Text(String),
    Matrix(Vec<Vec<f64>>),
    Table(toml::Table),
    Tables(Vec<toml::Table>),
}

/// What builds the nested learners a wrapper's parameters name (its base learner): a registry.
pub trait BuildLearner: std::fmt::Debug {
    /// Builds a learner from a config table with a `kind` key and that kind's parameters.
    fn build_learner(&self, table: &toml::Table) -> Result<Box<dyn Learner>, ParamError>;

    /// The folder of the config the learners are built for, if known: a learner that names
    /// files (a worker's program, a user's module) looks for them there first.
    fn base_dir(&self) -> Option<&std::path::Path> {
        None
    }

    /// The time limit in seconds of one unit of every worker learner (`python`, `worker`) that
    /// sets no `timeout_seconds` of its own (a config's `worker_timeout_seconds`), if any.
    fn worker_timeout(&self) -> Option<f64> {
        None
    }
}

/// The parameters given for one learner, checked against its spec, with the registry that
/// nested learners (a wrapper's base) are built from.
#[derive(Clone, Debug)]
pub struct Params<'a> {
    kind: &'static str,
    parameters: &'a [ParameterSpec],
    registry: Option<&'a dyn BuildLearner>,
    values: BTreeMap<&'static str, Value>,
}

impl<'a> Params<'a> {
    /// The folder of the config these parameters come from, if known (see
    /// [`BuildLearner::base_dir`]).
    pub fn base_dir(&self) -> Option<&'a std::path::Path> {
        self.registry.and_then(|registry| registry.base_dir())
    }

    /// The run's time limit of a worker learner's unit, if any (see
    /// [`BuildLearner::worker_timeout`]).
    pub fn worker_timeout(&self) -> Option<f64> {
        self.registry.and_then(|registry| registry.worker_timeout())
    }

    /// True when the config gives `key` (false when it is left at its default).
    pub fn is_given(&self, key: &str) -> bool {
        self.values.contains_key(key)
    }

    /// Checks a config table (its `kind` and `name` keys are ignored) against `spec`: unknown
    /// keys, types, ranges and required parameters. Nested learners are built from `registry`.
    pub fn new(
        spec: &'a impl Declares,
        registry: &'a dyn BuildLearner,
        table: &toml::Table,
    ) -> Result<Self, ParamError> {
        let given: Vec<(&String, &toml::Value)> = table
            .iter()
            .filter(|(key, _)| key.as_str() != "kind" && key.as_str() != "name")
            .collect();
        let mut declared = Vec::with_capacity(given.len());
        for &(key, value) in &given {
            let Some(parameter) = spec.parameter(key) else {
                return Err(ParamError::Unknown {
                    kind: spec.name().to_string(),
                    key: key.clone(),
                    allowed: spec.parameter_names(),
                });
            };
            declared.push((parameter, value));
        }
        let mut values = BTreeMap::new();
        for (parameter, value) in declared {
            values.insert(parameter.name(), check(spec.name(), parameter, value)?);
        }
        for parameter in spec.parameters() {
            if *parameter.default() == ParameterDefault::Required
                && !values.contains_key(parameter.name())
            {
                return Err(ParamError::Missing {
                    kind: spec.name().to_string(),
                    key: parameter.name().to_string(),
                    expected: format!("{} ({})", parameter.kind().expected(), parameter.doc()),
                });
            }
        }
        Ok(Params {
            kind: spec.name(),
            parameters: spec.parameters(),
            registry: Some(registry),
            values,
        })
    }

    /// Every parameter at its default (required ones absent), without a registry: for the
    /// `Default` of a learner that wraps no other ([`Params::learner`] refuses).
    pub fn defaults(spec: &'a impl Declares) -> Self {
        Params {
            kind: spec.name(),
            parameters: spec.parameters(),
            registry: None,
            values: BTreeMap::new(),
        }
    }

    /// The learner kind these parameters are for.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The declaration of `key` and its given value, if any.
    fn lookup(
        &self,
        key: &str,
        wanted: &str,
    ) -> Result<(&'a ParameterSpec, Option<&Value>), ParamError> {
        let parameter = self
            .parameters
            .iter()
            .find(|parameter| parameter.name() == key)
            .ok_or_else(|| self.undeclared(key, "that the spec does not declare"))?;
        let matches = matches!(
            (parameter.kind(), wanted),
            (ParameterKind::Real { .. }, "real")
                | (ParameterKind::Integer { .. }, "integer")
                | (ParameterKind::IntegerList { .. }, "integer_list")
                | (ParameterKind::Boolean, "boolean")
                | (ParameterKind::Choice { .. }, "choice")
                | (ParameterKind::StringList, "string_list")
                | (ParameterKind::Text, "text")
                | (ParameterKind::Table, "table")
                | (ParameterKind::RealMatrix { .. }, "real_matrix")
                | (ParameterKind::Learner, "learner")
                | (ParameterKind::Tables, "tables")
        );
        if !matches {
            return Err(self.undeclared(
                key,
                &format!(
                    "as {wanted}, but the spec declares {}",
                    parameter.kind().summary()
                ),
            ));
        }
        Ok((parameter, self.values.get(parameter.name())))
    }

    fn undeclared(&self, key: &str, problem: &str) -> ParamError {
        ParamError::Undeclared {
            kind: self.kind.to_string(),
            key: key.to_string(),
            problem: problem.to_string(),
        }
    }

    fn bad_default(&self, parameter: &ParameterSpec) -> ParamError {
        self.undeclared(
            parameter.name(),
            &format!(
                "whose default {} does not fit its type",
                parameter.default()
            ),
        )
    }

    /// A declared real number: the given value or the default.
    pub fn real(&self, key: &str) -> Result<f64, ParamError> {
        match self.lookup(key, "real")? {
            (_, Some(Value::Real(value))) => Ok(*value),
            (parameter, _) => match parameter.default() {
                ParameterDefault::Real(value) => Ok(*value),
                _ => Err(self.bad_default(parameter)),
            },
        }
    }

    /// A declared whole number: the given value or the default.
    pub fn integer(&self, key: &str) -> Result<usize, ParamError> {
        match self.lookup(key, "integer")? {
            (_, Some(Value::Integer(value))) => Ok(*value),
            (parameter, _) => match parameter.default() {
                ParameterDefault::Integer(value) => Ok(*value),
                _ => Err(self.bad_default(parameter)),
            },
        }
    }

    /// A declared list of whole numbers: the given list or the default.
    pub fn integer_list(&self, key: &str) -> Result<Vec<usize>, ParamError> {
        match self.lookup(key, "integer_list")? {
            (_, Some(Value::IntegerList(values))) => Ok(values.clone()),
            (parameter, _) => match parameter.default() {
                ParameterDefault::IntegerList(values) => Ok(values.to_vec()),
                _ => Err(self.bad_default(parameter)),
            },
        }
    }

    /// A declared boolean: the given value or the default.
    pub fn boolean(&self, key: &str) -> Result<bool, ParamError> {
        match self.lookup(key, "boolean")? {
            (_, Some(Value::Boolean(value))) => Ok(*value),
            (parameter, _) => match parameter.default() {
                ParameterDefault::Boolean(value) => Ok(*value),
                _ => Err(self.bad_default(parameter)),
            },
        }
    }

    /// A declared choice: the given word or the default (one of the declared words).
    pub fn choice(&self, key: &str) -> Result<&'static str, ParamError> {
        match self.lookup(key, "choice")? {
            (_, Some(Value::Word(word))) => Ok(word),
            (parameter, _) => match parameter.default() {
                ParameterDefault::Word(word) => Ok(word),
                _ => Err(self.bad_default(parameter)),
            },
        }
    }

    /// A declared list of strings, or `None` when absent.
    pub fn string_list(&self, key: &str) -> Result<Option<Vec<String>>, ParamError> {
        match self.lookup(key, "string_list")? {
            (_, Some(Value::Strings(values))) => Ok(Some(values.clone())),
            _ => Ok(None),
        }
    }

    /// A declared string: the given one, the default, or `None` for an optional one not given
    /// (or a required one, which [`Params::new`] has refused already).
    pub fn text(&self, key: &str) -> Result<Option<String>, ParamError> {
        match self.lookup(key, "text")? {
            (_, Some(Value::Text(text))) => Ok(Some(text.clone())),
            (parameter, _) => match parameter.default() {
                ParameterDefault::Word(word) => Ok(Some(word.to_string())),
                ParameterDefault::Required | ParameterDefault::Absent(_) => Ok(None),
                _ => Err(self.bad_default(parameter)),
            },
        }
    }

    /// A declared table of any keys and values, or `None` when absent.
    pub fn table(&self, key: &str) -> Result<Option<toml::Table>, ParamError> {
        match self.lookup(key, "table")? {
            (_, Some(Value::Table(table))) => Ok(Some(table.clone())),
            _ => Ok(None),
        }
    }

    /// A declared matrix of reals (rows may differ in length), or `None` when absent.
    pub fn real_matrix(&self, key: &str) -> Result<Option<Vec<Vec<f64>>>, ParamError> {
        match self.lookup(key, "real_matrix")? {
            (_, Some(Value::Matrix(rows))) => Ok(Some(rows.clone())),
            _ => Ok(None),
        }
    }

    /// A declared list of tables, or `None` when absent.
    pub fn tables(&self, key: &str) -> Result<Option<Vec<toml::Table>>, ParamError> {
        match self.lookup(key, "tables")? {
            (_, Some(Value::Tables(tables))) => Ok(Some(tables.clone())),
            _ => Ok(None),
        }
    }

    /// A declared nested learner, built through the registry: from the given table, or the
    /// default kind with its default parameters.
    pub fn learner(&self, key: &str) -> Result<Box<dyn Learner>, ParamError> {
        let (parameter, given) = self.lookup(key, "learner")?;
        let Some(registry) = self.registry else {
            return Err(self.undeclared(key, "from defaults made without a registry"));
        };
        match (given, parameter.default()) {
            (Some(Value::Table(table)), _) => registry.build_learner(table),
            (_, ParameterDefault::Learner(kind)) => {
                let mut table = toml::Table::new();
                table.insert("kind".into(), toml::Value::String(kind.to_string()));
                registry.build_learner(&table)
            }
            _ => Err(self.bad_default(parameter)),
        }
    }

    /// An out-of-range error for a check the spec cannot express (e.g. "a square matrix"),
    /// naming the learner and the key.
    pub fn invalid(
        &self,
        key: &str,
        value: impl Into<String>,
        allowed: impl Into<String>,
    ) -> ParamError {
        ParamError::Range {
            kind: self.kind.to_string(),
            key: key.to_string(),
            value: value.into(),
            allowed: allowed.into(),
        }
    }

    /// A value that cannot be used here ([`ParamError::Unusable`]): a file that is missing, a
    /// program that fails; `problem` says what is wrong and what to do.
    pub fn unusable(
        &self,
        key: &str,
        value: impl Into<String>,
        problem: impl Into<String>,
    ) -> ParamError {
        ParamError::Unusable {
            kind: self.kind.to_string(),
            key: key.to_string(),
            value: value.into(),
            problem: problem.into(),
        }
    }
}

/// Checks one given value against its declaration.
fn check(kind: &str, parameter: &ParameterSpec, value: &toml::Value) -> Result<Value, ParamError> {
    let given = Given { kind, parameter };
    match *parameter.kind() {
        ParameterKind::Real { low, high } => given.real(value, low, high).map(Value::Real),
        ParameterKind::Integer { low, high } => given.integer(value, low, high).map(Value::Integer),
        ParameterKind::IntegerList { low, high } => {
            let items = given.array(value)?;
            if items.is_empty() {
                return Err(given.range_error("[]".into()));
            }
            given
                .each(items, |item| given.integer(item, low, high))
                .map(Value::IntegerList)
        }
        ParameterKind::Boolean => match value {
            toml::Value::Boolean(b) => Ok(Value::Boolean(*b)),
            other => Err(given.type_error(other)),
        },
        ParameterKind::Choice { words } => given.word(value, words).map(Value::Word),
        ParameterKind::StringList => given
            .each(given.array(value)?, |item| given.text(item))
            .map(Value::Strings),
        ParameterKind::Text => given.text(value).map(Value::Text),
        ParameterKind::Table | ParameterKind::Learner => given.table(value).map(Value::Table),
        ParameterKind::RealMatrix { low, high } => {
            given.matrix(value, low, high).map(Value::Matrix)
        }
        ParameterKind::Tables => given
            .each(given.array(value)?, |item| given.table(item))
            .map(Value::Tables),
    }
}

/// One declared parameter of a learner kind, for checking the value given for it.
struct Given<'a> {
    kind: &'a str,
    parameter: &'a ParameterSpec,
}

impl Given<'_> {
    /// The value `got` is of the wrong type.
    fn type_error(&self, got: &toml::Value) -> ParamError {
        ParamError::Type {
            kind: self.kind.to_string(),
            key: self.parameter.name().to_string(),
            expected: self.parameter.kind().expected(),
            got: format!("{} ({})", got, got.type_str()),
        }
    }

    /// The value (as text) is out of the declared range.
    fn range_error(&self, value: String) -> ParamError {
        ParamError::Range {
            kind: self.kind.to_string(),
            key: self.parameter.name().to_string(),
            value,
            allowed: self.parameter.kind().allowed(),
        }
    }

    /// A number (an integer is read as a real) within `low..=high`.
    fn real(&self, item: &toml::Value, low: f64, high: f64) -> Result<f64, ParamError> {
        let number = match item {
            toml::Value::Float(x) => *x,
            toml::Value::Integer(i) => *i as f64,
            other => return Err(self.type_error(other)),
        };
        if number >= low && number <= high {
            Ok(number)
        } else {
            Err(self.range_error(format_number(number)))
        }
    }

    /// An integer within `low..=high`.
    fn integer(&self, item: &toml::Value, low: usize, high: usize) -> Result<usize, ParamError> {
        match item {
            toml::Value::Integer(i) if *i >= low as i64 && *i <= high as i64 => Ok(*i as usize),
            toml::Value::Integer(i) => Err(self.range_error(i.to_string())),
            other => Err(self.type_error(other)),
        }
    }

    /// One of the declared `words`.
    fn word(
        &self,
        value: &toml::Value,
        words: &[&'static str],
    ) -> Result<&'static str, ParamError> {
        let toml::Value::String(word) = value else {
            return Err(self.type_error(value));
        };
        words
            .iter()
            .find(|&&allowed| allowed == word)
            .copied()
            .ok_or_else(|| self.range_error(format!("\"{word}\"")))
    }

    /// A string.
    fn text(&self, value: &toml::Value) -> Result<String, ParamError> {
        match value {
            toml::Value::String(text) => Ok(text.clone()),
            other => Err(self.type_error(other)),
        }
    }

    /// A table.
    fn table(&self, value: &toml::Value) -> Result<toml::Table, ParamError> {
        match value {
            toml::Value::Table(table) => Ok(table.clone()),
            other => Err(self.type_error(other)),
        }
    }

    /// An array (its items are checked by the caller).
    fn array<'v>(&self, value: &'v toml::Value) -> Result<&'v [toml::Value], ParamError> {
        match value {
            toml::Value::Array(items) => Ok(items),
            other => Err(self.type_error(other)),
        }
    }

    /// Each item read by `read`, or the first item's error.
    fn each<T>(
        &self,
        items: &[toml::Value],
        read: impl Fn(&toml::Value) -> Result<T, ParamError>,
    ) -> Result<Vec<T>, ParamError> {
        items.iter().map(read).collect()
    }

    /// A non-empty array of non-empty arrays of numbers within `low..=high`.
    fn matrix(
        &self,
        value: &toml::Value,
        low: f64,
        high: f64,
    ) -> Result<Vec<Vec<f64>>, ParamError> {
        let rows = self.array(value)?;
        if rows.is_empty() {
            return Err(self.type_error(value));
        }
        let mut matrix = Vec::with_capacity(rows.len());
        for row in rows {
            let items = self.array(row)?;
            if items.is_empty() {
                return Err(self.type_error(row));
            }
            matrix.push(self.each(items, |item| self.real(item, low, high))?);
        }
        Ok(matrix)
    }
}

//! One declared parameter of a learner kind ([`ParameterSpec`]: name, type and range, default,
//! one line of documentation), and [`Declares`], what anything a config names declares about
//! itself (a learner kind, and the engine's measures, tests, protocols and analyses), which
//! [`crate::params::Params`] reads a config table against.

use std::fmt;

use crate::tune_space::TuneSpace;

/// What anything a config names declares about itself: what it is, its name, a description and
/// the parameters (options) a config may give, with types, ranges and defaults. A
/// `LearnerSpec` declares a learner kind; the engine's measures, tests, protocols and analyses
/// declare themselves through the same trait, so that one checker ([`crate::params::Params`])
/// reads every config table.
pub trait Declares {
    /// What kind of thing it is, in messages and listings: "learner" (the default), "measure",
    /// "test", "protocol", "analysis".
    const NOUN: &'static str = "learner";

    /// The name configs use (a learner's `kind` string).
    fn name(&self) -> &'static str;
    /// What it is, in one line.
    fn description(&self) -> &'static str;
    /// The declared parameters (a measure's, test's or protocol's options).
    fn parameters(&self) -> &[ParameterSpec];

    /// The declared parameter called `name`.
    fn parameter(&self, name: &str) -> Option<&ParameterSpec> {
        self.parameters()
            .iter()
            .find(|parameter| parameter.name() == name)
    }

    /// The parameter names, comma-separated ("none" without parameters).
    fn parameter_names(&self) -> String {
        if self.parameters().is_empty() {
            return "none".into();
        }
        let names: Vec<&str> = self.parameters().iter().map(ParameterSpec::name).collect();
        names.join(", ")
    }
}

/// Checks a declaration itself: a one-word name, valid and distinct parameters (defaults within
/// their ranges); the message words it as a learner's.
pub fn validate_declaration(spec: &impl Declares) -> Result<(), String> {
    let name = spec.name();
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        return Err(format!(
            "learner kind '{name}': a kind must be a non-empty word"
        ));
    }
    let parameters = spec.parameters();
    for (index, parameter) in parameters.iter().enumerate() {
        parameter
            .validate()
            .map_err(|message| format!("learner '{name}': {message}"))?;
        if parameters[..index]
            .iter()
            .any(|other| other.name() == parameter.name())
        {
            return Err(format!(
                "learner '{name}': parameter '{}' is declared twice",
                parameter.name()
            ));
        }
    }
    Ok(())
}

/// The type and allowed values of one parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParameterKind {
    /// A real number in `[low, high]` (whole numbers are accepted too).
    Real {
        /// Smallest allowed value.
        low: f64,
        /// Largest allowed value.
        high: f64,
    },
    /// A whole number in `[low, high]`.
    Integer {
        /// Smallest allowed value.
        low: usize,
        /// Largest allowed value.
        high: usize,
    },
    /// A non-empty list of whole numbers, each in `[low, high]`.
    IntegerList {
        /// Smallest allowed item.
        low: usize,
        /// Largest allowed item.
        high: usize,
    },
    /// `true` or `false`.
    Boolean,
    /// One of a fixed set of words.
    Choice {
        /// The allowed words.
        words: &'static [&'static str],
    },
    /// A list of strings (e.g. a command line).
    StringList,
    /// Any text (e.g. a module path or an interpreter).
    Text,
    /// A table of any keys and values, handed to the learner as it is (e.g. the keyword
    /// arguments of an outside estimator).
    Table,
    /// A list of tables, each read by its owner (e.g. the comparisons a figure draws).
    Tables,
    /// A non-empty list of non-empty lists of real numbers, each in `[low, high]` (e.g. a cost
    /// matrix; whole numbers are accepted too).
    RealMatrix {
        /// Smallest allowed entry.
        low: f64,
        /// Largest allowed entry.
        high: f64,
    },
    /// A nested learner table (`{ kind = "c45", ... }`), built through the same registry.
    Learner,
}

impl ParameterKind {
    /// The type in words, as error messages name it ("a number", "true or false", ...).
    pub fn expected(&self) -> String {
        match self {
            ParameterKind::Real { .. } => "a number".into(),
            ParameterKind::Integer { .. } => "a whole number".into(),
            ParameterKind::IntegerList { .. } => "a list of whole numbers".into(),
            ParameterKind::Boolean => "true or false".into(),
            ParameterKind::Choice { words } => format!("one of {}", words.join(", ")),
            ParameterKind::StringList => "a list of strings".into(),
            ParameterKind::Text => "a string".into(),
            ParameterKind::Table => "a table such as { key = 1 }".into(),
            ParameterKind::Tables => "a list of tables".into(),
            ParameterKind::RealMatrix { .. } => "a list of lists of numbers".into(),
            ParameterKind::Learner => "a learner table such as { kind = \"c45\" }".into(),
        }
    }

    /// The allowed values in words ("1e-6 to 0.5", "uniform, inverse_distance", ...).
    pub fn allowed(&self) -> String {
        match *self {
            ParameterKind::Real { low, high } | ParameterKind::RealMatrix { low, high } => {
                real_range(low, high)
            }
            ParameterKind::Integer { low, high } => integer_range(low, high),
            ParameterKind::IntegerList { low, high } => format!(
                "a non-empty list of whole numbers from {}",
                integer_range(low, high)
            ),
            ParameterKind::Boolean => "true, false".into(),
            ParameterKind::Choice { words } => words.join(", "),
            ParameterKind::StringList => "any list of strings".into(),
            ParameterKind::Text => "any string".into(),
            ParameterKind::Table => "any table".into(),
            ParameterKind::Tables => "a list of tables { ... }".into(),
            ParameterKind::Learner => "a table with a learner kind and its parameters".into(),
        }
    }

    /// The type and range in a few words, for listings ("real, 1e-6 to 0.5").
    pub fn summary(&self) -> String {
        match *self {
            ParameterKind::Real { low, high } => format!("real, {}", real_range(low, high)),
            ParameterKind::Integer { low, high } => {
                format!("whole number, {}", integer_range(low, high))
            }
            ParameterKind::IntegerList { low, high } => {
                format!("list of whole numbers, each {}", integer_range(low, high))
            }
            ParameterKind::Boolean => "boolean".into(),
            ParameterKind::Choice { words } => format!("one of {}", words.join(", ")),
            ParameterKind::StringList => "list of strings".into(),
            ParameterKind::Text => "string".into(),
            ParameterKind::Table => "table".into(),
            ParameterKind::Tables => "list of tables".into(),
            ParameterKind::RealMatrix { low, high } => {
                format!("matrix of reals, each {}", real_range(low, high))
            }
            ParameterKind::Learner => "learner table".into(),
        }
    }
}

/// A number as a config would write it: `0.25`, `1e-6`, `100000`.
pub(crate) fn format_number(value: f64) -> String {
    let magnitude = value.abs();
    if value != 0.0 && value.is_finite() && !(1e-4..1e7).contains(&magnitude) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

fn real_range(low: f64, high: f64) -> String {
    if high >= f64::MAX {
        format!("at least {}", format_number(low))
    } else {
        format!("{} to {}", format_number(low), format_number(high))
    }
}

fn integer_range(low: usize, high: usize) -> String {
    if high >= usize::MAX >> 1 {
        format!("at least {low}")
    } else {
        format!("{low} to {high}")
    }
}

/// The value a parameter takes when a config does not give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParameterDefault {
    /// A real number.
    Real(f64),
    /// A whole number.
    Integer(usize),
    /// A list of whole numbers.
    IntegerList(&'static [usize]),
    /// A boolean.
    Boolean(bool),
    /// One of the words of a choice.
    Word(&'static str),
    /// A nested learner of this kind with its default parameters.
    Learner(&'static str),
    /// No value; the learner does without, as the text says (e.g. "unit costs").
    Absent(&'static str),
    /// No default: a config must give the parameter.
    Required,
}

impl fmt::Display for ParameterDefault {
    /// The default as a config would write it (`0.25`, `[1, 3]`, `"uniform"`), or in words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParameterDefault::Real(value) => f.write_str(&format_number(value)),
            ParameterDefault::Integer(value) => write!(f, "{value}"),
            ParameterDefault::IntegerList(values) => write!(f, "{values:?}"),
            ParameterDefault::Boolean(value) => write!(f, "{value}"),
            ParameterDefault::Word(word) => write!(f, "\"{word}\""),
            ParameterDefault::Learner(kind) => write!(f, "{{ kind = \"{kind}\" }}"),
            ParameterDefault::Absent(meaning) => f.write_str(meaning),
            ParameterDefault::Required => f.write_str("none (required)"),
        }
    }
}

/// One declared parameter: name, type and range, default, and a line of documentation.
///
/// Built with the constructors ([`ParameterSpec::real`], ...), which keep the type and the
/// default consistent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParameterSpec {
    name: &'static str,
    kind: ParameterKind,
    default: ParameterDefault,
    doc: &'static str,
    tune: Option<TuneSpace>,
}

impl ParameterSpec {
    /// A real number in `[low, high]`, `default` when absent.
    pub const fn real(
        name: &'static str,
        default: f64,
        low: f64,
        high: f64,
        doc: &'static str,
    ) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Real { low, high },
            default: ParameterDefault::Real(default),
            doc,
            tune: None,
        }
    }

    /// A whole number in `[low, high]`, `default` when absent.
    pub const fn integer(
        name: &'static str,
        default: usize,
        low: usize,
        high: usize,
        doc: &'static str,
    ) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Integer { low, high },
            default: ParameterDefault::Integer(default),
            doc,
            tune: None,
        }
    }

    /// A non-empty list of whole numbers, each in `[low, high]`, `default` when absent.
    pub const fn integer_list(
        name: &'static str,
        default: &'static [usize],
        low: usize,
        high: usize,
        doc: &'static str,
    ) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::IntegerList { low, high },
            default: ParameterDefault::IntegerList(default),
            doc,
            tune: None,
        }
    }

    /// A boolean, `default` when absent.
    pub const fn boolean(name: &'static str, default: bool, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Boolean,
            default: ParameterDefault::Boolean(default),
            doc,
            tune: None,
        }
    }

    /// One of `words`, `default` (one of them) when absent.
    pub const fn choice(
        name: &'static str,
        default: &'static str,
        words: &'static [&'static str],
        doc: &'static str,
    ) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Choice { words },
            default: ParameterDefault::Word(default),
            doc,
            tune: None,
        }
    }

    /// A list of strings that a config must give.
    pub const fn required_string_list(name: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::StringList,
            default: ParameterDefault::Required,
            doc,
            tune: None,
        }
    }

    /// A list of strings; when absent the learner does what `absent` says.
    pub const fn string_list(name: &'static str, absent: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::StringList,
            default: ParameterDefault::Absent(absent),
            doc,
            tune: None,
        }
    }

    /// A string, `default` when absent.
    pub const fn text(name: &'static str, default: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Text,
            default: ParameterDefault::Word(default),
            doc,
            tune: None,
        }
    }

    /// A string that a config must give.
    pub const fn required_text(name: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Text,
            default: ParameterDefault::Required,
            doc,
            tune: None,
        }
    }

    /// A string; when absent the owner does what `absent` says.
    pub const fn optional_text(
        name: &'static str,
        absent: &'static str,
        doc: &'static str,
    ) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Text,
            default: ParameterDefault::Absent(absent),
            doc,
            tune: None,
        }
    }

    /// A real number in `[low, high]` that a config must give.
    pub const fn required_real(name: &'static str, low: f64, high: f64, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Real { low, high },
            default: ParameterDefault::Required,
            doc,
            tune: None,
        }
    }

    /// A list of tables, each read by the owner; when absent the owner does what `absent` says.
    pub const fn tables(name: &'static str, absent: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Tables,
            default: ParameterDefault::Absent(absent),
            doc,
            tune: None,
        }
    }

    /// A table of any keys and values; when absent the learner does what `absent` says.
    pub const fn table(name: &'static str, absent: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Table,
            default: ParameterDefault::Absent(absent),
            doc,
            tune: None,
        }
    }

    /// A matrix of reals, each in `[low, high]`; when absent the learner does what `absent`
    /// says.
    pub const fn real_matrix(
        name: &'static str,
        absent: &'static str,
        low: f64,
        high: f64,
        doc: &'static str,
    ) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::RealMatrix { low, high },
            default: ParameterDefault::Absent(absent),
            doc,
            tune: None,
        }
    }

    /// A nested learner table, a learner of kind `default_kind` with its defaults when absent.
    pub const fn learner(
        name: &'static str,
        default_kind: &'static str,
        doc: &'static str,
    ) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Learner,
            default: ParameterDefault::Learner(default_kind),
            doc,
            tune: None,
        }
    }

    /// The config key.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The type and allowed values.
    pub fn kind(&self) -> &ParameterKind {
        &self.kind
    }

    /// The value used when a config does not give the parameter.
    pub fn default(&self) -> &ParameterDefault {
        &self.default
    }

    /// One line of documentation.
    pub fn doc(&self) -> &'static str {
        self.doc
    }

    /// This parameter with a declared search space, the values a grid over the learner's
    /// declared space takes (`tune = "declared"`); each must fit the parameter's type and range.
    pub const fn tuned(mut self, space: TuneSpace) -> Self {
        self.tune = Some(space);
        self
    }

    /// The declared search space, if the parameter has one.
    pub fn tune_space(&self) -> Option<&TuneSpace> {
        self.tune.as_ref()
    }

    /// Checks that the default fits the type and range, and the range is not empty.
    pub(crate) fn validate(&self) -> Result<(), String> {
        let fits = match (self.kind, self.default) {
            (ParameterKind::Real { low, high }, ParameterDefault::Real(value)) => {
                low <= high && value >= low && value <= high
            }
            (ParameterKind::Integer { low, high }, ParameterDefault::Integer(value)) => {
                low <= high && value >= low && value <= high
            }
            (ParameterKind::IntegerList { low, high }, ParameterDefault::IntegerList(values)) => {
                low <= high
                    && !values.is_empty()
                    && values.iter().all(|&value| value >= low && value <= high)
            }
            (ParameterKind::Boolean, ParameterDefault::Boolean(_)) => true,
            (ParameterKind::Choice { words }, ParameterDefault::Word(word)) => {
                words.contains(&word)
            }
            (ParameterKind::Learner, ParameterDefault::Learner(kind)) => !kind.is_empty(),
            (
                ParameterKind::RealMatrix { low, high },
                ParameterDefault::Absent(_) | ParameterDefault::Required,
            ) => low <= high,
            (
                ParameterKind::StringList | ParameterKind::Table | ParameterKind::Tables,
                ParameterDefault::Absent(_) | ParameterDefault::Required,
            ) => true,
            (
                ParameterKind::Text,
                ParameterDefault::Word(_)
                | ParameterDefault::Required
                | ParameterDefault::Absent(_),
            ) => true,
            (ParameterKind::Real { low, high }, ParameterDefault::Required) => low <= high,
            _ => false,
        };
        if !fits {
            return Err(format!(
                "parameter '{}': default {} does not fit {}",
                self.name,
                self.default,
                self.kind.summary()
            ));
        }
        if let Some(space) = &self.tune {
            self.check_space(space)?;
        }
        if self.name.is_empty() || self.name == "kind" || self.name == "name" {
            return Err(format!(
                "parameter '{}': the name must be non-empty and not 'kind' or 'name' (used by configs)",
                self.name
            ));
        }
        Ok(())
    }

    /// Checks a declared search space: at least two values, each of the parameter's type and
    /// within its range.
    fn check_space(&self, space: &TuneSpace) -> Result<(), String> {
        let values = space.values();
        let fits = values.len() >= 2
            && match (self.kind, space) {
                (ParameterKind::Real { low, high }, TuneSpace::Reals(values)) => {
                    values.iter().all(|&v| v >= low && v <= high)
                }
                (ParameterKind::Integer { low, high }, TuneSpace::Integers(values)) => {
                    values.iter().all(|&v| v >= low && v <= high)
                }
                (ParameterKind::Choice { words }, TuneSpace::Words(values)) => {
                    values.iter().all(|value| words.contains(value))
                }
                (ParameterKind::Boolean, TuneSpace::Booleans) => true,
                _ => false,
            };
        if fits {
            return Ok(());
        }
        Err(format!(
            "parameter '{}': declared search space {space} does not fit {} (at least two values)",
            self.name,
            self.kind.summary()
        ))
    }
}

impl fmt::Display for TuneSpace {
    /// The values as a config writes a list of them: `[1e-8, 0.25]`, `["a", "b"]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<String> = match *self {
            TuneSpace::Reals(values) => values.iter().map(|&v| format_number(v)).collect(),
            _ => self.values().iter().map(ToString::to_string).collect(),
        };
        write!(f, "[{}]", values.join(", "))
    }
}

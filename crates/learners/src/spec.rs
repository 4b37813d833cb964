//! What a learner kind declares about itself: its parameters (name, type, range, default, one
//! line of documentation), what data it can handle, the revision of its implementation, and
//! how to build it. [`crate::Params`] reads a config table against these declarations, so ranges
//! and defaults are written once, in the learner's module.

use std::fmt;

use data::{Schema, View};

use crate::params::{ParamError, Params};
use crate::Learner;

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
    /// Any string (e.g. a learner's display name).
    Text,
    /// A list of tables, each read by its owner (e.g. the comparisons a figure draws).
    Tables,
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
            ParameterKind::RealMatrix { .. } => "a list of lists of numbers".into(),
            ParameterKind::Learner => "a learner table such as { kind = \"c45\" }".into(),
            ParameterKind::Text => "a string".into(),
            ParameterKind::Tables => "a list of tables".into(),
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
            ParameterKind::Learner => "a table with a learner kind and its parameters".into(),
            ParameterKind::Text => "any string".into(),
            ParameterKind::Tables => "a list of tables { ... }".into(),
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
            ParameterKind::RealMatrix { low, high } => {
                format!("matrix of reals, each {}", real_range(low, high))
            }
            ParameterKind::Learner => "learner table".into(),
            ParameterKind::Text => "string".into(),
            ParameterKind::Tables => "list of tables".into(),
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
        }
    }

    /// A boolean, `default` when absent.
    pub const fn boolean(name: &'static str, default: bool, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Boolean,
            default: ParameterDefault::Boolean(default),
            doc,
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
        }
    }

    /// A real number in `[low, high]` that a config must give.
    pub const fn required_real(name: &'static str, low: f64, high: f64, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Real { low, high },
            default: ParameterDefault::Required,
            doc,
        }
    }

    /// Any string; when absent the owner does what `absent` says.
    pub const fn text(name: &'static str, absent: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Text,
            default: ParameterDefault::Absent(absent),
            doc,
        }
    }

    /// A list of tables, each read by the owner; when absent the owner does what `absent` says.
    pub const fn tables(name: &'static str, absent: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::Tables,
            default: ParameterDefault::Absent(absent),
            doc,
        }
    }

    /// A list of strings that a config must give.
    pub const fn required_string_list(name: &'static str, doc: &'static str) -> Self {
        ParameterSpec {
            name,
            kind: ParameterKind::StringList,
            default: ParameterDefault::Required,
            doc,
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

    /// Checks that the default fits the type and range, and the range is not empty.
    fn validate(&self) -> Result<(), String> {
        let fits = match (self.kind, self.default) {
            (ParameterKind::Real { low, high }, ParameterDefault::Real(value)) => {
                low <= high && value >= low && value <= high
            }
            (ParameterKind::Real { low, high }, ParameterDefault::Required) => low <= high,
            (
                ParameterKind::Text | ParameterKind::Tables,
                ParameterDefault::Absent(_) | ParameterDefault::Required,
            ) => true,
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
                ParameterKind::StringList,
                ParameterDefault::Absent(_) | ParameterDefault::Required,
            ) => true,
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
        if self.name.is_empty() || self.name == "kind" || self.name == "name" {
            return Err(format!(
                "parameter '{}': the name must be non-empty and not 'kind' or 'name' (used by configs)",
                self.name
            ));
        }
        Ok(())
    }
}

/// What data a learner can handle.
///
/// Every built-in learner reads nominal attributes, missing values and any number of classes;
/// some cannot use arbitrary (fractional) instance weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capabilities {
    /// Nominal attributes (values stored as indices into the attribute's value list).
    pub nominal_attributes: bool,
    /// Missing attribute values (`NaN`) in training and test rows.
    pub missing_values: bool,
    /// More than two classes.
    pub multi_class: bool,
    /// Any non-negative instance weights are honoured (as a row's importance in fitting).
    pub instance_weights: bool,
}

impl Default for Capabilities {
    /// [`Capabilities::ALL`].
    fn default() -> Self {
        Capabilities::ALL
    }
}

impl Capabilities {
    /// Every capability.
    pub const ALL: Capabilities = Capabilities {
        nominal_attributes: true,
        missing_values: true,
        multi_class: true,
        instance_weights: true,
    };

    /// Every capability but instance weights.
    pub const UNWEIGHTED: Capabilities = Capabilities {
        instance_weights: false,
        ..Capabilities::ALL
    };

    /// The capabilities both have.
    pub fn and(self, other: Capabilities) -> Capabilities {
        Capabilities {
            nominal_attributes: self.nominal_attributes && other.nominal_attributes,
            missing_values: self.missing_values && other.missing_values,
            multi_class: self.multi_class && other.multi_class,
            instance_weights: self.instance_weights && other.instance_weights,
        }
    }

    /// True when every capability of `other` is also one of these.
    pub fn covers(&self, other: &Capabilities) -> bool {
        self.and(*other) == *other
    }

    /// Checks a dataset's schema (and whether it has missing values) against these
    /// capabilities; the error says what the learner lacks.
    pub fn accepts(&self, schema: &Schema, has_missing: bool) -> Result<(), String> {
        let mut lacks = Vec::new();
        if !self.nominal_attributes {
            let nominal: Vec<&str> = schema
                .attributes
                .iter()
                .filter(|attribute| !attribute.is_numeric())
                .map(|attribute| attribute.name.as_str())
                .collect();
            if !nominal.is_empty() {
                lacks.push(format!(
                    "nominal attributes (the data has {})",
                    nominal.join(", ")
                ));
            }
        }
        if !self.missing_values && has_missing {
            lacks.push("missing values (the data has some)".to_string());
        }
        if !self.multi_class && schema.num_classes() > 2 {
            lacks.push(format!(
                "more than two classes (the data has {})",
                schema.num_classes()
            ));
        }
        if lacks.is_empty() {
            Ok(())
        } else {
            Err(format!("cannot handle {}", lacks.join("; ")))
        }
    }

    /// [`Capabilities::accepts`] for the rows of a training view, also checking that its
    /// weights are all 1 when instance weights are not honoured.
    pub fn accepts_view(&self, view: &View) -> Result<(), String> {
        let has_missing = (0..view.num_attributes())
            .any(|attribute| view.column(attribute).any(|value| value.is_nan()));
        self.accepts(view.schema(), has_missing)?;
        if !self.instance_weights {
            if let Some(position) = (0..view.len()).find(|&p| view.weight(p) != 1.0) {
                return Err(format!(
                    "cannot honour instance weights (training row {position} has weight {})",
                    view.weight(position)
                ));
            }
        }
        Ok(())
    }

    /// The capabilities in words: "nominal attributes, missing values, multi-class, instance
    /// weights", with "no ..." for those lacking.
    pub fn describe(&self) -> String {
        [
            (self.nominal_attributes, "nominal attributes"),
            (self.missing_values, "missing values"),
            (self.multi_class, "multi-class"),
            (self.instance_weights, "instance weights"),
        ]
        .iter()
        .map(|&(has, what)| {
            if has {
                what.to_string()
            } else {
                format!("no {what}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
    }
}

/// Builds a learner from its parameters, read against its spec.
pub type BuildFn = fn(Params<'_>) -> Result<Box<dyn Learner>, ParamError>;

/// Everything a learner kind declares: its config name, a description, the revision of its
/// implementation, its parameters, its capabilities and its constructor.
///
/// Each learner module defines its spec in one place (`pub fn spec() -> LearnerSpec`), and the
/// registry lists the specs. A user's crate builds one and hands it to
/// [`crate::Registry::register`].
#[derive(Clone, Debug)]
pub struct LearnerSpec {
    /// The `kind` string used in configs.
    pub kind: &'static str,
    /// What the learner is, in one line.
    pub description: &'static str,
    /// Revision of the implementation: bump it whenever the learner's outputs change, so that
    /// cached results keyed on it are not reused (the golden-digest test enforces this for the
    /// built-in learners).
    pub revision: u32,
    /// The parameters a config may give.
    pub parameters: Vec<ParameterSpec>,
    /// What data the learner can handle. For a wrapper: what it can handle given a base
    /// learner that can handle everything (a built learner reports its actual ones).
    pub capabilities: Capabilities,
    /// Builds the learner from its parameters.
    pub build: BuildFn,
}

impl LearnerSpec {
    /// The declared parameter called `name`.
    pub fn parameter(&self, name: &str) -> Option<&ParameterSpec> {
        self.parameters
            .iter()
            .find(|parameter| parameter.name == name)
    }

    /// The parameter names, comma-separated ("none" without parameters).
    pub fn parameter_names(&self) -> String {
        if self.parameters.is_empty() {
            "none".into()
        } else {
            self.parameters
                .iter()
                .map(|parameter| parameter.name)
                .collect::<Vec<_>>()
                .join(", ")
        }
    }

    /// True when a parameter is a nested learner (the kind wraps a base learner).
    pub fn wraps_a_learner(&self) -> bool {
        self.parameters
            .iter()
            .any(|parameter| parameter.kind == ParameterKind::Learner)
    }

    /// The revision as the text [`Learner::revision`] starts with: `"c45 r1"`.
    pub fn revision_text(&self) -> String {
        revision_text(self.kind, self.revision)
    }

    /// Checks the spec itself: a kind name, distinct parameter names, defaults in range.
    pub fn validate(&self) -> Result<(), String> {
        if self.kind.is_empty() || self.kind.chars().any(char::is_whitespace) {
            return Err(format!(
                "learner kind '{}': a kind must be a non-empty word",
                self.kind
            ));
        }
        for (index, parameter) in self.parameters.iter().enumerate() {
            parameter
                .validate()
                .map_err(|message| format!("learner '{}': {message}", self.kind))?;
            if self.parameters[..index]
                .iter()
                .any(|other| other.name == parameter.name)
            {
                return Err(format!(
                    "learner '{}': parameter '{}' is declared twice",
                    self.kind, parameter.name
                ));
            }
        }
        Ok(())
    }

    /// The spec as text for a listing: kind, revision, description, capabilities, and one
    /// line per parameter with its type and range, default and documentation.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "{} (revision {})\n  {}\n  handles: {}{}\n",
            self.kind,
            self.revision,
            self.description,
            self.capabilities.describe(),
            if self.wraps_a_learner() {
                " (as far as its base learner does)"
            } else {
                ""
            }
        );
        if self.parameters.is_empty() {
            text.push_str("  parameters: none\n");
            return text;
        }
        text.push_str("  parameters:\n");
        for parameter in &self.parameters {
            let default = match parameter.default {
                ParameterDefault::Required => "required".to_string(),
                default => format!("default {default}"),
            };
            text.push_str(&format!(
                "    {} ({}; {default}): {}\n",
                parameter.name,
                parameter.kind.summary(),
                parameter.doc
            ));
        }
        text
    }
}

/// The revision text of a learner kind: `"c45 r1"`.
pub fn revision_text(kind: &str, revision: u32) -> String {
    format!("{kind} r{revision}")
}

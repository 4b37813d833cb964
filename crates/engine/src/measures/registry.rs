//! Open registries: the measures, the tests over folds, the tests on a fixed test set and the
//! protocols a config may name, each declared as learners are (a name, a description, options
//! with types, ranges and defaults) and each kind in a [`Registry`] that a user's crate extends
//! with one call ([`Registry::register`]). A config names an entry by a string, or by a table
//! `{ name = ..., <options> }` (a protocol: `{ kind = ..., <options> }`), checked against the
//! entry's declared options by [`learners::Params`], the one checker of declared parameters.

use std::sync::Arc;

use learners::{Declares, ParamError, ParameterDefault, ParameterSpec, Params};

/// Implements [`learners::Declares`] (the one trait of everything a config names) for a spec type with `name`, `description` and `options` fields,
/// as every registry's spec has.
macro_rules! declares_fields {
    ($spec:ty, $noun:literal) => {
        impl learners::Declares for $spec {
            const NOUN: &'static str = $noun;

            fn name(&self) -> &'static str {
                self.name
            }

            fn description(&self) -> &'static str {
                self.description
            }

            fn parameters(&self) -> &[learners::ParameterSpec] {
                &self.options
            }
        }
    };
}
pub(crate) use declares_fields;

/// A registered entry: its spec, whose options [`Params`] checks as it checks a learner's
/// parameters.
pub struct Entry<S> {
    /// The spec as declared.
    pub spec: S,
}

impl<S: Declares> Entry<S> {
    /// Checks a config's table of options against the declaration (`name`, `kind` and
    /// `label` keys are not options); nested learner options are built from `learners`.
    pub fn check<'a>(
        &'a self,
        table: &toml::Table,
        learners: &'a learners::Registry,
    ) -> Result<Params<'a>, String> {
        let mut options = table.clone();
        options.remove("label");
        Params::new(&self.spec, learners, &options)
            .map_err(|error| reword(S::NOUN, self.spec.name(), error))
    }

    /// A build function's error about one of the entry's options, worded for the entry.
    pub fn option_error(&self, error: ParamError) -> String {
        reword(S::NOUN, self.spec.name(), error)
    }

    /// The entry's options at their defaults.
    pub fn defaults(&self) -> Params<'_> {
        Params::defaults(&self.spec)
    }

    /// The entry for a listing: name, description and one line per option.
    pub fn describe(&self) -> String {
        describe(
            self.spec.name(),
            self.spec.description(),
            self.spec.parameters(),
        )
    }
}

/// The built-in learner kinds, which nested learner options are built from when options are
/// checked outside an engine (a config's analysis options).
fn builtin_learners() -> &'static learners::Registry {
    static LEARNERS: std::sync::OnceLock<learners::Registry> = std::sync::OnceLock::new();
    LEARNERS.get_or_init(learners::Registry::builtin)
}

/// Options declared outside a registry (an analysis's), read by the one checker of
/// declarations as a registry's spec is.
struct Declared<'a> {
    name: &'static str,
    parameters: &'a [ParameterSpec],
}

impl Declares for Declared<'_> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn description(&self) -> &'static str {
        ""
    }

    fn parameters(&self) -> &[ParameterSpec] {
        self.parameters
    }
}

/// Checks the options `declared` by the `noun` called `name`: a one-word name, distinct option
/// names (not `kind` or `name`), defaults within their ranges.
pub fn validate(noun: &str, name: &'static str, declared: &[ParameterSpec]) -> Result<(), String> {
    let parameters = declared;
    learners::validate_declaration(&Declared { name, parameters }).map_err(|problem| {
        problem
            .replace("learner kind", noun)
            .replace("learner", noun)
    })
}

/// Checks `table` against the options `declared` by the `noun` called `name`; the error is
/// the key at fault and the problem, worded for the entry.
pub fn check_options(
    noun: &str,
    name: &'static str,
    declared: &[ParameterSpec],
    table: &toml::Table,
) -> Result<(), (String, String)> {
    let parameters = declared;
    match Params::new(&Declared { name, parameters }, builtin_learners(), table) {
        Ok(_) => Ok(()),
        Err(error) => {
            let key = match &error {
                ParamError::Unknown { key, .. }
                | ParamError::Type { key, .. }
                | ParamError::Range { key, .. }
                | ParamError::Unusable { key, .. }
                | ParamError::Missing { key, .. }
                | ParamError::Undeclared { key, .. } => key.clone(),
                ParamError::UnknownKind { kind, .. } => kind.clone(),
            };
            Err((key, reword(noun, name, error)))
        }
    }
}

/// The options `declared` by the `noun` called `name`, read from `table` (each given value,
/// or its default): `read` gets them checked. For an analysis's options, read from a config
/// that [`crate::config::experiment::parse`] has checked.
pub fn with_options<T>(
    name: &'static str,
    declared: &[ParameterSpec],
    table: &toml::Table,
    read: impl FnOnce(&Params<'_>) -> T,
) -> Result<T, String> {
    let declaration = Declared {
        name,
        parameters: declared,
    };
    let given: toml::Table = table
        .iter()
        .filter(|(key, _)| declared.iter().any(|option| option.name() == key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let params = Params::new(&declaration, builtin_learners(), &given)
        .map_err(|error| reword("analysis", name, error))?;
    Ok(read(&params))
}

/// A spec and its options, as the command line lists them.
pub fn describe(name: &str, description: &str, options: &[ParameterSpec]) -> String {
    let mut text = format!("{name}\n  {description}\n");
    if options.is_empty() {
        text.push_str("  options: none\n");
        return text;
    }
    text.push_str("  options:\n");
    for option in options {
        let default = match option.default() {
            ParameterDefault::Required => "required".to_string(),
            default => format!("default {default}"),
        };
        text.push_str(&format!(
            "    {} ({}; {default}): {}\n",
            option.name(),
            option.kind().summary(),
            option.doc()
        ));
    }
    text
}

/// A problem with a config's options of an entry, worded for it rather than for a learner.
fn reword(noun: &str, name: &str, error: ParamError) -> String {
    let what = format!("{noun} '{name}'");
    match error {
        ParamError::Unknown { key, allowed, .. } => {
            format!("{what}: unknown option '{key}' (allowed: {allowed})")
        }
        ParamError::Type {
            key, expected, got, ..
        } => format!("{what}: option '{key}' must be {expected}, got {got}"),
        ParamError::Range {
            key,
            value,
            allowed,
            ..
        } => format!("{what}: option '{key}' = {value} is out of range; allowed: {allowed}"),
        ParamError::Missing { key, expected, .. } => {
            format!("{what}: option '{key}' is required: {expected}")
        }
        other => format!("{what}: {other}"),
    }
}

/// The entries of one kind a config may name, by name.
pub struct Registry<S> {
    entries: Vec<Arc<Entry<S>>>,
}

impl<S> Default for Registry<S> {
    fn default() -> Self {
        Registry {
            entries: Vec::new(),
        }
    }
}

/// Why a spec cannot be registered.
#[derive(Debug, thiserror::Error)]
#[error("cannot register {noun} '{name}': {problem}")]
pub struct RegisterError {
    /// The kind of entry.
    pub noun: &'static str,
    /// Its name.
    pub name: String,
    /// What is wrong with the spec.
    pub problem: String,
}

impl<S: Declares> Registry<S> {
    /// Registers a spec (one call); a spec of the same name is replaced. The spec is checked:
    /// a one-word name, distinct option names, defaults within their ranges.
    pub fn register(&mut self, spec: S) -> Result<(), RegisterError> {
        let name = spec.name();
        validate(S::NOUN, name, spec.parameters()).map_err(|problem| RegisterError {
            noun: S::NOUN,
            name: name.to_string(),
            problem,
        })?;
        self.entries.retain(|entry| entry.spec.name() != name);
        self.entries.push(Arc::new(Entry { spec }));
        Ok(())
    }

    /// The entry of this name.
    pub fn find(&self, name: &str) -> Option<&Arc<Entry<S>>> {
        self.entries.iter().find(|entry| entry.spec.name() == name)
    }

    /// Every entry, in the order registered.
    pub fn entries(&self) -> impl Iterator<Item = &Arc<Entry<S>>> {
        self.entries.iter()
    }

    /// Every name, comma-separated, for messages.
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.entries.iter().map(|entry| entry.spec.name()).collect();
        names.join(", ")
    }

    /// The entry a config's item names (a string, or a table with `name` and options) and the
    /// item's options as a table; the error names what is allowed.
    pub fn lookup(&self, item: &toml::Value) -> Result<(&Arc<Entry<S>>, toml::Table), String> {
        let (name, options) = match item {
            toml::Value::String(name) => (name.as_str(), toml::Table::new()),
            toml::Value::Table(table) => match table.get("name") {
                Some(toml::Value::String(name)) => (name.as_str(), table.clone()),
                _ => {
                    return Err(format!(
                        "a {} given as a table needs a `name` (one of {})",
                        S::NOUN,
                        self.names()
                    ))
                }
            },
            other => {
                return Err(format!(
                    "a {} is a name or a table {{ name = ..., <options> }}, got {}",
                    S::NOUN,
                    other.type_str()
                ))
            }
        };
        let entry = self.find(name).ok_or_else(|| {
            let name = data::shown(name);
            format!("unknown {} '{name}' (allowed: {})", S::NOUN, self.names())
        })?;
        Ok((entry, options))
    }
}

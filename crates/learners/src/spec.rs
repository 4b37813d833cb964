//! What a learner kind declares about itself: its parameters (name, type, range, default, one
//! line of documentation), what data it can handle, the revision of its implementation, and
//! how to build it. `Params` (params.rs) reads a config table against these declarations, so ranges
//! and defaults are written once, in the learner's module.

pub use crate::capabilities::Capabilities;
use crate::model::Learner;
pub use crate::parameter::{Declares, ParameterDefault, ParameterKind, ParameterSpec};
use crate::params::{ParamError, Params};

/// Builds a learner from its parameters, read against its spec.
pub type BuildFn = fn(Params<'_>) -> Result<Box<dyn Learner>, ParamError>;

/// Everything a learner kind declares: its config name, a description, the revision of its
/// implementation, its parameters, its capabilities and its constructor.
///
/// Each learner module defines its spec in one place (`pub fn spec() -> LearnerSpec`), and the
/// registry lists the specs. A user's crate builds one and hands it to `Registry::register`.
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
    /// True when a parameter is a nested learner (the kind wraps a base learner).
    pub fn wraps_a_learner(&self) -> bool {
        self.parameters
            .iter()
            .any(|parameter| *parameter.kind() == ParameterKind::Learner)
    }

    /// The revision as the text [`Learner::revision`] starts with: `"c45 r1"`.
    pub fn revision_text(&self) -> String {
        revision_text(self.kind, self.revision)
    }

    /// Checks the spec itself: a kind name, distinct parameter names, defaults in range.
    pub fn validate(&self) -> Result<(), String> {
        crate::parameter::validate_declaration(self)
    }

    /// The spec as text for a listing: kind, revision, description, capabilities, one line per
    /// parameter with its type and range, default and documentation, and the declared search
    /// space (`tune = "declared"`) if it has one.
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
            let default = match parameter.default() {
                ParameterDefault::Required => "required".to_string(),
                default => format!("default {default}"),
            };
            text.push_str(&format!(
                "    {} ({}; {default}): {}\n",
                parameter.name(),
                parameter.kind().summary(),
                parameter.doc()
            ));
        }
        let spaces: Vec<String> = self
            .parameters
            .iter()
            .filter_map(|parameter| {
                let space = parameter.tune_space()?;
                Some(format!("{} over {space}", parameter.name()))
            })
            .collect();
        if !spaces.is_empty() {
            text.push_str(&format!("  tune = \"declared\": {}\n", spaces.join(", ")));
        }
        text
    }
}

impl Declares for LearnerSpec {
    fn name(&self) -> &'static str {
        self.kind
    }

    fn description(&self) -> &'static str {
        self.description
    }

    fn parameters(&self) -> &[ParameterSpec] {
        &self.parameters
    }
}

/// The revision text of a learner kind: `"c45 r1"`.
pub fn revision_text(kind: &str, revision: u32) -> String {
    format!("{kind} r{revision}")
}

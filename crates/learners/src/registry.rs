//! A set of learner kinds a config can name, and building learners from config tables:
//! `{ kind = "c45", confidence = 0.25 }`.
//!
//! [`Registry::register`] adds a kind (the built-in ones are listed in `builtin.rs`, which
//! also makes `Registry::builtin`). Wrappers build their base learner through the registry that
//! built them, so a registered learner can be wrapped too.

use std::path::{Path, PathBuf};

use crate::model::Learner;
use crate::params::{BuildLearner, ParamError, Params};
use crate::spec::LearnerSpec;

/// Why a spec could not be registered.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RegistryError {
    /// A spec of that kind is already registered.
    #[error("learner kind '{kind}' is already registered")]
    Duplicate {
        /// The kind.
        kind: String,
    },
    /// The spec contradicts itself (a default out of range, a parameter declared twice, ...).
    #[error("invalid learner spec: {message}")]
    Invalid {
        /// What is wrong.
        message: String,
    },
}

/// A set of learner specs that builds learners from config tables.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    specs: Vec<LearnerSpec>,
    base_dir: Option<PathBuf>,
    worker_timeout: Option<f64>,
}

impl Registry {
    /// A registry without any learner.
    pub fn empty() -> Self {
        Registry {
            specs: Vec::new(),
            base_dir: None,
            worker_timeout: None,
        }
    }

    /// This registry, building learners for a config read from `folder`: a learner that names
    /// files (a worker's program, a user's module) looks for them there first.
    pub fn with_base_dir(mut self, folder: Option<&Path>) -> Self {
        self.base_dir = folder.map(Path::to_path_buf);
        self
    }

    /// The folder of the config the learners are built for, if known.
    pub fn base_dir(&self) -> Option<&Path> {
        self.base_dir.as_deref()
    }

    /// This registry, building worker learners (`python`, `worker`) that set no
    /// `timeout_seconds` with a unit time limit of `seconds` (a config's
    /// `worker_timeout_seconds`) instead of their default.
    pub fn with_worker_timeout(mut self, seconds: Option<f64>) -> Self {
        self.worker_timeout = seconds;
        self
    }

    /// Adds a learner kind. Its kind must be new and its spec consistent (see
    /// [`LearnerSpec::validate`]).
    pub fn register(&mut self, spec: LearnerSpec) -> Result<(), RegistryError> {
        spec.validate()
            .map_err(|message| RegistryError::Invalid { message })?;
        if self.spec(spec.kind).is_some() {
            return Err(RegistryError::Duplicate {
                kind: spec.kind.to_string(),
            });
        }
        self.specs.push(spec);
        Ok(())
    }

    /// Every registered spec, in registration order.
    pub fn specs(&self) -> &[LearnerSpec] {
        &self.specs
    }

    /// The spec of one kind.
    pub fn spec(&self, kind: &str) -> Option<&LearnerSpec> {
        self.specs.iter().find(|spec| spec.kind == kind)
    }

    /// The registered kinds, in registration order.
    pub fn kinds(&self) -> Vec<&'static str> {
        self.specs.iter().map(|spec| spec.kind).collect()
    }

    /// Checks a config table (a `kind` key and that kind's parameters; a `name` key is
    /// ignored) against its spec, without building the learner.
    pub fn params<'a>(&'a self, table: &toml::Table) -> Result<Params<'a>, ParamError> {
        Params::new(self.spec_of(table)?, self, table)
    }

    /// Builds a learner from a config table with a `kind` key and that kind's parameters.
    pub fn build(&self, table: &toml::Table) -> Result<Box<dyn Learner>, ParamError> {
        let spec = self.spec_of(table)?;
        (spec.build)(Params::new(spec, self, table)?)
    }

    /// The spec of the kind a config table names.
    fn spec_of(&self, table: &toml::Table) -> Result<&LearnerSpec, ParamError> {
        match table.get("kind") {
            Some(toml::Value::String(kind)) => self.spec(kind).ok_or_else(|| self.unknown(kind)),
            Some(other) => Err(self.unknown(&other.to_string())),
            None => Err(self.unknown("(missing)")),
        }
    }

    fn unknown(&self, kind: &str) -> ParamError {
        let hint = if crate::adapters::ADAPTER_KINDS.contains(&kind) {
            format!(
                "; '{kind}' is an adapter over an outside crate, built only with the `adapters` \
                 feature: cargo run -p experiments --features adapters -- ..."
            )
        } else {
            String::new()
        };
        ParamError::UnknownKind {
            kind: kind.to_string(),
            known: self.kinds().join(", "),
            hint,
        }
    }

    /// Every kind with its description, revision, capabilities and parameters (name, type
    /// and range, default, documentation): the text of a `learners` listing.
    pub fn describe_all(&self) -> String {
        self.specs
            .iter()
            .map(LearnerSpec::describe)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl BuildLearner for Registry {
    fn build_learner(&self, table: &toml::Table) -> Result<Box<dyn Learner>, ParamError> {
        self.build(table)
    }

    fn base_dir(&self) -> Option<&Path> {
        Registry::base_dir(self)
    }

    fn worker_timeout(&self) -> Option<f64> {
        self.worker_timeout
    }
}

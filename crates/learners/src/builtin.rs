//! The built-in learner kinds: [`builtin_specs`] is the one list to extend when adding a
//! learner, [`Registry::builtin`] a registry of them, [`build_learner`] a shorthand.

use std::sync::OnceLock;

use crate::model::Learner;
use crate::params::ParamError;
use crate::registry::Registry;
use crate::spec::LearnerSpec;

/// The spec of every built-in learner kind, in listing order. Adding a learner to the project
/// means writing its module (with its `spec()`) and adding one line here; the conformance
/// suite and the golden-digest test then cover it.
pub fn builtin_specs() -> Vec<LearnerSpec> {
    vec![
        crate::c45::spec(),
        crate::bagging::spec(),
        crate::ripper::spec(),
        crate::external::spec(),
        crate::naive_bayes::spec(),
        crate::cost_sensitive::spec(),
        crate::logistic::spec(),
        #[cfg(feature = "adapters")]
        crate::adapters::logistic::spec(),
        #[cfg(feature = "adapters")]
        crate::adapters::gaussian_nb::spec(),
        #[cfg(feature = "adapters")]
        crate::adapters::decision_tree::spec(),
        #[cfg(feature = "adapters")]
        crate::adapters::smartcore_models::knn_spec(),
        #[cfg(feature = "adapters")]
        crate::adapters::smartcore_models::forest_spec(),
        crate::knn::spec(),
        crate::perceptron::spec(),
        crate::kstar::spec(),
        crate::vfi::spec(),
        crate::worker::kinds::worker_spec(),
        crate::worker::kinds::python_spec(),
        crate::worker::weka::weka_spec(),
    ]
}

impl Registry {
    /// A registry of the built-in learners, to which more can be registered.
    pub fn builtin() -> Self {
        let mut registry = Registry::empty();
        for spec in builtin_specs() {
            if let Err(error) = registry.register(spec) {
                panic!("built-in learner specs: {error}");
            }
        }
        registry
    }
}

/// The built-in registry, made once.
fn builtin_registry() -> &'static Registry {
    static BUILTIN: OnceLock<Registry> = OnceLock::new();
    BUILTIN.get_or_init(Registry::builtin)
}

/// Builds a built-in learner from a config table with a `kind` key and that kind's parameters
/// (shorthand for [`Registry::builtin`] then [`Registry::build`]).
pub fn build_learner(table: &toml::Table) -> Result<Box<dyn Learner>, ParamError> {
    builtin_registry().build(table)
}

/// The specs of the built-in learner kinds (shorthand for [`builtin_specs`]).
pub fn kinds() -> Vec<LearnerSpec> {
    builtin_specs()
}

//! Classifiers that output class probabilities, behind one `Learner`/`Model` interface.

pub mod adapters;
pub mod bagging;
pub mod c45;
pub mod conformance;
pub mod cost_sensitive;
pub mod discretize;
pub mod encoding;
pub mod external;
pub mod knn;
pub mod kstar;
pub mod model;
pub mod naive_bayes;
pub mod params;
pub mod perceptron;
pub mod registry;
pub mod ripper;
pub mod spec;
mod total_order;
pub mod vfi;

pub use bagging::Bagging;
pub use c45::{C45Model, C45};
pub use model::{Learner, LearnerError, Model, Probabilities};
pub use params::{ParamError, Params};
pub use registry::{build_learner, builtin_specs, kinds, Registry, RegistryError};
pub use spec::{Capabilities, LearnerSpec, ParameterDefault, ParameterKind, ParameterSpec};

//! Classifiers that output class probabilities, behind one `Learner`/`Model` interface.

pub mod adapters;
pub mod cost_sensitive;
pub mod discretize;
pub mod encoding;
pub mod knn;
pub mod model;
pub mod naive_bayes;
pub mod params;
pub mod perceptron;
pub mod registry;

pub use model::{Learner, LearnerError, Model, Probabilities};
pub use params::{ParamError, Params};
pub use registry::{build_learner, kinds, LearnerKind};

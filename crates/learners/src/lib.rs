//! Classifiers that output class probabilities, behind one `Learner`/`Model` interface.

pub mod model;

pub use model::{Learner, LearnerError, Model, Probabilities};

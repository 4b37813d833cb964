//! Classifiers that output class probabilities, behind one `Learner`/`Model` interface.
//!
//! - [`Learner`] and [`Model`] ([`model`]): what every classifier implements;
//! - [`LearnerSpec`] ([`spec`]): what a learner kind declares (parameters, capabilities,
//!   revision, constructor); [`Params`] reads a config table against it;
//! - [`Registry`] ([`registry`]): the kinds a config can name, [`Registry::register`] for a
//!   learner of your own, [`Registry::describe_all`] for a listing, and [`build_learner`] for the
//!   built-in kinds;
//! - [`conformance`]: the checks every learner must pass, for your own learners' tests too;
//! - [`worker`]: learners served by persistent worker processes (Python, any language).
//!
//! The crate's `README.md` shows how to add a learner and how to register one from another
//! crate.
#![warn(missing_docs)]

pub mod adapters;
pub mod bagging;
pub mod builtin;
pub mod c45;
pub mod capabilities;
pub mod conformance;
pub mod cost_sensitive;
pub mod discretize;
pub mod encoding;
pub mod external;
pub mod knn;
pub mod kstar;
pub mod logistic;
pub mod model;
pub mod naive_bayes;
pub mod parameter;
pub mod params;
pub mod perceptron;
pub mod registry;
pub mod ripper;
pub mod sorted_columns;
pub mod spec;
mod total_order;
pub mod tune_space;
pub mod vfi;
pub mod worker;

pub use bagging::Bagging;
pub use builtin::{build_learner, builtin_specs, kinds};
pub use c45::{C45Model, C45};
pub use capabilities::Capabilities;
pub use logistic::{Logistic, LogisticModel};
pub use model::{
    panic_message, Learner, LearnerError, Model, Probabilities, ShareHint, SharedState,
};
pub use parameter::{
    validate_declaration, Declares, ParameterDefault, ParameterKind, ParameterSpec,
};
pub use params::{BuildLearner, ParamError, Params};
pub use registry::{Registry, RegistryError};
pub use spec::LearnerSpec;
pub use tune_space::TuneSpace;

/// The code samples of `README.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

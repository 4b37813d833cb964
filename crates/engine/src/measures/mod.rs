//! Stage 0, the vocabulary: what a run can measure and test, each entry declared (name,
//! description, options with types, ranges and defaults) in an open [`registry::Registry`] that
//! a user's crate extends with one call. Takes a fold's predictions (class probabilities and
//! the truth), or a learner pair's per-fold values, or the models' predictions on a fixed test
//! set; gives numbers and verdicts. Knows nothing of configs, plans or runs: the later stages
//! look entries up here by name.

pub mod beyond;
pub mod measure;
pub mod measure_spec;
pub mod paired;
pub mod registry;
pub mod test_set;
pub mod test_set_bootstrap;
pub mod test_set_delong_k;
pub mod test_set_spec;

//! Stage 1, the config: takes the text of a TOML file and gives an
//! [`experiment::ExperimentConfig`], every key checked and every error naming the key and its
//! line. Names (datasets, learners, measures, tests, protocol) are kept as written: the plan
//! looks them up.

pub mod experiment;
pub mod stopping;

pub use experiment::{parse, ExperimentConfig};

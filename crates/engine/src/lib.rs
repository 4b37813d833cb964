//! The experiment engine: the config model, the plan of units (dataset x learner x split), the
//! one unit of work ([`unit::run_unit`]: a [`unit::UnitSpec`] in, a [`unit::UnitResult`] out),
//! the cache and the parallel runner over it, shards of a plan balanced by expected cost and the
//! merge of their results ([`shard`], [`Engine::run_shard`], [`Engine::merge`]), the measure and
//! paired-test registries, and a run's tidy results as a polars `DataFrame`.
//!
//! Analyses beyond the per-dataset tables (a paper's reproduction, say) implement
//! [`analysis::Analysis`] in a crate of their own and are handed to [`experiment::check`] and
//! [`experiment::run`]; nothing here knows them.

pub mod analysis;
pub mod bounds;
pub mod cache;
pub mod config;
pub mod error;
pub mod experiment;
pub mod figures;
pub mod measures;
pub mod paired;
pub mod plan;
pub mod results;
pub mod runner;
pub mod section;
pub mod shard;
pub mod test_set;
pub mod unit;

pub use analysis::{Analyses, Analysis, AnalysisContext};
pub use config::ExperimentConfig;
pub use error::{Context, Error, Result};
pub use experiment::{CheckedExperiment, Engine, RunOutput};
pub use measures::Measure;
pub use paired::{PairedTest, TestOptions};
pub use plan::{Plan, Unit};
pub use results::RunResults;
pub use section::{write_table, Section};
pub use unit::{run_unit, Part, UnitPredictions, UnitResult, UnitSpec, UnitStatus};

//! The experiment engine: the config model, the plan of units (dataset x learner x split), the
//! one unit of work ([`unit::run_unit`]: a [`unit::UnitSpec`] in, a [`unit::UnitResult`] out),
//! the cache and the parallel runner over it, shards of a plan balanced by expected cost and the
//! merge of their results ([`shard`], [`Engine::run_shard`], [`Engine::merge`]), the measure and
//! paired-test registries, and a run's tidy results as a polars `DataFrame`.
//!
//! A run is three steps, each handing a plain value to the next: [`Engine::check_text`] gives
//! a [`CheckedExperiment`] (the config and its plan), [`execute`] a [`RunRecord`] (every unit,
//! the measures per fold and the tests, the predictions left in the cache and read on demand),
//! and [`report`] writes the results folder from the record and the report's sections (data).
//!
//! Analyses beyond the per-dataset tables (a paper's reproduction, say) implement
//! [`analysis::Analysis`] in a crate of their own and are handed to an [`Engine`]; nothing here
//! knows them.

pub mod analysis;
pub mod beyond_measures;
pub mod bounds;
pub mod cache;
pub mod check;
pub mod config;
pub mod curve_figures;
pub mod dataset_names;
pub mod error;
pub mod execute;
pub mod experiment;
pub mod figures;
pub mod free_memory;
pub mod load_notices;
pub mod lock;
pub mod measure_spec;
pub mod measures;
pub mod paired;
pub mod plan;
pub mod protocols;
pub mod publish;
pub mod record;
pub mod registries;
pub mod registry;
pub mod reporting;
pub mod results;
pub mod runner;
pub mod section;
pub mod sections;
pub mod shard;
pub mod test_set;
pub mod test_set_bootstrap;
pub mod test_set_delong_k;
pub mod test_set_run;
pub mod test_set_spec;
pub mod unit;

pub use analysis::{Analyses, Analysis};
pub use check::CheckedExperiment;
pub use config::ExperimentConfig;
pub use error::{AnalysisError, Error, Result};
pub use execute::execute;
pub use experiment::{Engine, RunOutput};
pub use learners::{ParamError, ParameterSpec, Params};
pub use measures::{Measure, MeasureSpec};
pub use paired::{FoldTest, FoldTestSpec, PairedTest, TestOptions, Verdict};
pub use plan::{Plan, Training, Unit};
pub use protocols::{Protocol, ProtocolSpec};
pub use record::RunRecord;
pub use registries::Registries;
pub use registry::Registry;
pub use reporting::{report, write_table};
pub use results::RunResults;
pub use section::{Figure, Section, SectionTable};
pub use test_set::{TestSetTest, TestSetTestSpec};
pub use unit::{run_unit, Part, UnitPredictions, UnitResult, UnitSpec, UnitStatus};

//! The experiment engine, one folder per stage of a run, each handing a plain value to the
//! next (docs/architecture.md draws the flow):
//!
//! - [`measures`]: the vocabulary, what a run can measure and test, in open registries;
//! - [`config`]: a TOML file's text in, an [`ExperimentConfig`] out;
//! - [`plan`]: the config checked against the registries and the datasets prepared, a
//!   [`CheckedExperiment`] out (its [`Plan`]: datasets x learners x splits as units);
//! - [`run`]: one unit of work ([`run_unit`]: a [`UnitSpec`] in, a [`UnitResult`] out), the
//!   cache and the parallel runner over it, shards of a plan ([`Engine::run_shard`],
//!   [`Engine::merge`]) and the results folder's lock and publication;
//! - [`record`]: [`execute`] gives a [`RunRecord`] (every unit, the measures per fold and the
//!   tests, the predictions left in the cache and read on demand);
//! - [`report`]: sections as data and [`report()`], the one writer of the results folder.
//!
//! [`Engine`] drives the stages. Analyses beyond the per-dataset tables (a paper's
//! reproduction, say) implement [`Analysis`] in a crate of their own and are handed to an
//! [`Engine`]; nothing here knows them.

pub mod config;
pub mod error;
pub mod experiment;
pub mod measures;
pub mod plan;
pub mod record;
pub mod report;
pub mod run;
pub mod threads;

pub use config::experiment::ExperimentConfig;
pub use error::{AnalysisError, Error, Result};
pub use experiment::{Engine, RunOutput};
pub use learners::{ParamError, ParameterSpec, Params};
pub use measures::measure::{Measure, MeasureSpec};
pub use measures::paired::{FoldTest, FoldTestSpec, PairedTest, TestOptions, Verdict};
pub use measures::registry::Registry;
pub use measures::test_set::{TestSetTest, TestSetTestSpec};
pub use plan::bounds::Limits;
pub use plan::check::CheckedExperiment;
pub use plan::dataset_names::file_safe;
pub use plan::protocols::{Protocol, ProtocolSpec};
pub use plan::registries::Registries;
pub use plan::units::{Plan, Training, Unit};
pub use record::execute::execute;
pub use record::results::RunResults;
pub use record::run_record::RunRecord;
pub use report::analysis::{Analyses, Analysis};
pub use report::section::{Figure, Headline, Section, SectionTable};
pub use report::write::{report, write_table};
pub use run::unit::{run_unit, Part, UnitPredictions, UnitResult, UnitSpec, UnitStatus};

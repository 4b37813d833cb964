//! OpenML runs out, offline: one learner's predictions on one OpenML task written as
//! openml-python writes a run (`predictions.arff` as `OpenMLRun._generate_arff_dict` lays it
//! out, `description.xml` per `openml.run.upload.xsd`), and the check of such a folder as
//! OpenML's evaluation engine would check it before computing its measures.
//!
//! - [`TaskExpectation`] ([`expectation_of`] an `openml::Task`): what a task fixes (its id, class labels, rows, each fold's test rows
//!   and each row's true label), the one input of the checker;
//! - [`Predictions`] and [`write_predictions`]: the predictions file;
//! - [`RunDescription`] and [`write_description`]: the run's description;
//! - [`check_predictions`]: every problem of a predictions file, each with its line;
//!   [`check_run_folder`] a whole run folder, [`problems_text`] the listing;
//! - [`export_run`] and [`write_run`]: one learner's predictions on a task read back from a
//!   finished run's results folder (its cache), written as a run folder.

mod arff_read;
mod arff_text;
mod arff_write;
mod check;
mod check_description;
mod check_rows;
mod columns;
mod description;
mod error;
mod expectation;
mod export;
mod export_rows;
mod from_task;
mod predictions;
mod problem;
mod run_folder;
mod task_folds;

pub use arff_read::{read_predictions_file, Attribute, PredictionsFile, RawRow};
pub use arff_text::{arff_name, arff_number, arff_quoted};
pub use arff_write::write_predictions;
pub use check::check_predictions;
pub use check_description::check_description;
pub use columns::PROBABILITY_TOLERANCE;
pub use description::{write_description, FoldEvaluation, RunDescription};
pub use error::RunsError;
pub use expectation::{FoldKey, TaskExpectation};
pub use export::{export_run, write_run, ExportRequest, ExportedRun};
pub use from_task::{expectation_of, read_expectation};
pub use predictions::{PredictionRow, Predictions};
pub use problem::Problem;
pub use run_folder::{check_run_folder, problems_text};

//! OpenML tasks read offline from openml-python's cache folder.
//!
//! - [`read_task`] / [`read_task_with`] read a task folder (`task.xml`, `datasplits.arff`)
//!   and its dataset's ARFF into a [`Task`]: the target and its class labels, the estimation
//!   procedure, and every repeat, fold and sample's train and test rows ([`TaskFold`]); a task
//!   whose files disagree is refused with an [`OpenmlError`] naming the file and line;
//! - [`read_suite`] reads a suite file: task ids separated by spaces, commas or lines, `#`
//!   starting a comment;
//! - [`layout`] is the cache's folder layout (`<cache>/org/openml/www/tasks/<id>/`, ...).

mod dataset_facts;
pub mod error;
mod fold_checks;
pub mod layout;
mod splits;
mod suite;
mod task;
mod task_xml;
mod xml;

pub use error::OpenmlError;
pub use layout::{dataset_dir_beside, task_dir};
pub use splits::TaskFold;
pub use suite::read_suite;
pub use task::{read_task, read_task_id, read_task_with, Task};
pub use task_xml::{Estimation, SUPPORTED_TASK_TYPES};

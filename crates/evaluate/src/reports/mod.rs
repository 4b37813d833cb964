//! What the command line prints, as data: the ROC summary of a predictions file (`roc`), its
//! evaluation beyond ROC (`roc --evaluate`) and the bootstrap intervals (`compare bootstrap`).

pub mod evaluation;
pub mod interval_report;
pub mod summary;

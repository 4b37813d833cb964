//! What was decided about the datasets while planning them that the user may not expect (the
//! names given to a file listed twice, the readers' notices about a user's file), as the log
//! lines a check prints; the report's section of the same notices is
//! [`crate::report::load_notices`]'s.

use crate::plan::units::{DatasetRequest, PreparedDataset};

/// The log lines of what was decided about the datasets before and while loading them: the
/// names given to a file listed twice, and the readers' notices.
pub fn log_lines(requests: &[DatasetRequest], datasets: &[PreparedDataset]) -> Vec<String> {
    let named = requests
        .iter()
        .flat_map(|request| request.notes.iter().map(move |note| (&request.name, note)));
    let noticed = datasets.iter().flat_map(|dataset| {
        dataset
            .load_notices
            .iter()
            .map(move |notice| (&dataset.name, notice))
    });
    named
        .chain(noticed)
        .map(|(name, text)| format!("note: dataset '{name}': {text}"))
        .collect()
}

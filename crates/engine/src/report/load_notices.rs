//! What the reader decided on its own about a user's dataset file that the user may not expect
//! (columns of a few whole numbers read as numeric, perhaps category codes; a mostly-text
//! column read as nominal; a header of numbers), each with how to declare otherwise: told in
//! the run's log when the config is checked, and in the report's "Dataset notices" section.

use report::{Cell, Table};

use crate::record::run_record::RunRecord;
use crate::report::section::Section;

/// The report's section of the readers' notices, one row per notice; `None` without any.
pub fn section(record: &RunRecord) -> Option<Section> {
    let header = ["dataset", "notice"].map(String::from).to_vec();
    let mut table = Table::new("Dataset notices", header);
    for dataset in &record.plan.datasets {
        for notice in &dataset.load_notices {
            table.push_row(vec![Cell::text(&dataset.name), Cell::text(notice)]);
        }
    }
    if table.rows.is_empty() {
        return None;
    }
    let mut section = Section::new(
        "Dataset notices",
        "How a dataset file of your own was read where the file alone cannot tell: check each \
         notice, and declare the column types in the config's dataset entry if the reading is \
         not what the file means (the results below are for the reading shown).",
    );
    section.table("dataset_notices", table);
    Some(section)
}

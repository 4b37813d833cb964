//! A part of a run's report: tables and figures written to the results folder, with a reading.

use report::Table;

/// A part of the report: tables and figures already written to the results folder, with a
/// short reading of them.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// A few sentences saying what the tables and figures show.
    pub reading: String,
    /// The tables, in order.
    pub tables: Vec<Table>,
    /// The figures: SVG file name (relative to the results folder) and caption.
    pub figures: Vec<(String, String)>,
    /// Tables too long for the page, linked instead: file (relative to the results folder)
    /// and text.
    pub links: Vec<(String, String)>,
}

//! A part of a run's report: tables and figures written to the results folder, with a reading.

use std::path::Path;

use report::{Table, TableFormat};

use crate::error::Result;

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

/// Writes a table as Markdown, CSV and LaTeX under `folder/stem.{md,csv,tex}`.
pub fn write_table(folder: &Path, stem: &str, table: &Table) -> Result<()> {
    for format in [TableFormat::Markdown, TableFormat::Csv, TableFormat::Latex] {
        let path = folder.join(format!("{stem}.{}", format.extension()));
        report::write_file(&path, &table.render(format)?)?;
    }
    Ok(())
}

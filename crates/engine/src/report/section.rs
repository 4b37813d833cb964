//! A part of a run's report, as data: its tables (each with the file it is written to),
//! figures (SVG text with the file name and caption), links and other files. Analyses and the
//! engine's own sections return these; only [`crate::report::write::report`] writes them.

use report::Table;

/// A part of the report: tables and figures with a short reading of them.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// A few sentences saying what the tables and figures show.
    pub reading: String,
    /// The tables, in order: each written under `tables/` and shown on the page or linked.
    pub tables: Vec<SectionTable>,
    /// The figures, drawn on the page in order and written as SVG files.
    pub figures: Vec<Figure>,
    /// Files linked from the page instead of shown: file (relative to the results folder) and
    /// text.
    pub links: Vec<(String, String)>,
    /// Other files the section writes: path (relative to the results folder) and contents
    /// (e.g. every statistic of a table as JSON).
    pub files: Vec<(String, String)>,
    /// What the section offers the summary screen atop the page, if anything.
    pub headline: Option<Headline>,
}

/// A section's offer to the summary screen: a one-sentence verdict and the figure or table
/// (indices into the section's own) that carries the result.
#[derive(Clone, Debug, Default)]
pub struct Headline {
    /// The measure it speaks of; `None` for the run as a whole (a paper's reproduction).
    pub measure: Option<String>,
    /// One sentence of the verdict.
    pub verdict: String,
    /// The index in the section's figures of the figure that carries the result.
    pub figure: Option<usize>,
    /// A small table that carries it, shown beside the leaderboard (a paper's headline
    /// numbers beside ours: paper, ours, difference).
    pub table: Option<report::Table>,
}

/// A table of a section, with where it is written and whether the page shows it.
#[derive(Clone, Debug)]
pub struct SectionTable {
    /// The table.
    pub table: Table,
    /// The file stem under `tables/` it is written to as Markdown, CSV and LaTeX; `None` for a
    /// table shown on the page only.
    pub file: Option<String>,
    /// False for a table too long for the page: written, and linked rather than shown.
    pub shown: bool,
}

impl SectionTable {
    /// A table shown on the page and written to `tables/<stem>.{md,csv,tex}`.
    pub fn new(stem: impl Into<String>, table: Table) -> Self {
        SectionTable {
            table,
            file: Some(stem.into()),
            shown: true,
        }
    }
}

/// A figure of a section: the SVG, the file it is written to, and its caption.
#[derive(Clone, Debug)]
pub struct Figure {
    /// The file, relative to the results folder (`figures/<name>.svg`).
    pub file: String,
    /// The caption.
    pub caption: String,
    /// The SVG document.
    pub svg: String,
}

impl Section {
    /// A section with a title and a reading, and nothing else yet.
    pub fn new(title: impl Into<String>, reading: impl Into<String>) -> Self {
        Section {
            title: title.into(),
            reading: reading.into(),
            ..Section::default()
        }
    }

    /// Adds a table, shown on the page and written to `tables/<stem>.{md,csv,tex}`.
    pub fn table(&mut self, stem: impl Into<String>, table: Table) {
        self.tables.push(SectionTable::new(stem, table));
    }

    /// Adds a figure: its SVG, written to `file` (relative to the results folder), with its
    /// caption.
    pub fn figure(&mut self, file: impl Into<String>, caption: impl Into<String>, svg: String) {
        self.figures.push(Figure {
            file: file.into(),
            caption: caption.into(),
            svg,
        });
    }

    /// The tables the page shows, in order.
    pub fn shown_tables(&self) -> impl Iterator<Item = &Table> {
        self.tables
            .iter()
            .filter(|table| table.shown)
            .map(|table| &table.table)
    }
}

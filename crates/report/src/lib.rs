//! Report output: tables (Markdown, CSV, LaTeX, HTML, Parquet), an HTML index page, and SVG
//! plots (heat maps, ROC curves, averaged ROC curves with interval bars, distributions over folds, box
//! plots, line plots, critical-difference diagrams and probability simplexes).
//!
//! Inputs are plain values (points, labels, colours), so this crate knows nothing of how the
//! numbers were computed. Plots are drawn with `plotters`' SVG backend without any font
//! feature: text is written as SVG `<text>` elements and the viewer picks the font (plotters
//! then estimates text widths from the character count for its layout).
//!
//! ```
//! use report::{Cell, Curve, PlotOptions, Table, PALETTE};
//!
//! let mut table = Table::new("AUC", vec!["Learner".to_string(), "AUC".to_string()]);
//! table.push_row(vec![Cell::text("k-NN"), Cell::number(0.8412)]);
//! assert!(table.to_markdown()?.contains("| k-NN | 0.841 |"));
//!
//! let curve = Curve::new("k-NN", vec![(0.0, 0.0), (0.2, 0.7), (1.0, 1.0)], PALETTE[0]);
//! let svg = report::roc_plot(&PlotOptions::roc("ROC"), &[curve])?;
//! assert!(svg.starts_with("<svg"));
//! # Ok::<(), report::ReportError>(())
//! ```

pub mod diagram;
pub mod heatmap;
pub mod html;
pub mod parquet;
pub mod plot;
pub mod reliability;
pub mod table;
pub mod text;

pub use diagram::{critical_difference_diagram, simplex_plot, CriticalDifferenceDiagram, Simplex};
pub use heatmap::{heat_map, HeatMap};
pub use html::{HtmlPage, SummaryBlock};
pub use parquet::{write_parquet, ParquetError, ParquetValues};
pub use plot::{
    box_plot, distribution_plot, line_plot, roc_plot, BoxGroup, Curve, Distribution, ErrorBar,
    Interval, LegendPosition, PlotOptions, Rgb, PALETTE,
};
pub use reliability::{reliability_plot, ReliabilityPanel, ReliabilityPoint};
pub use table::{Cell, Table, TableFormat, Value};

/// Why a table or plot could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A table without columns.
    #[error("table '{title}': the header has no columns")]
    EmptyHeader {
        /// The table's title.
        title: String,
    },
    /// A body row with the wrong number of cells.
    #[error("table '{title}': row {row} has {got} cells, the header has {expected} columns")]
    RowLength {
        /// The table's title.
        title: String,
        /// The row number (from 0).
        row: usize,
        /// Its number of cells.
        got: usize,
        /// The number of columns.
        expected: usize,
    },
    /// A plot input that cannot be drawn (non-finite value, empty range, zero bins, ...).
    #[error("plot '{plot}': {problem}")]
    BadPlotInput {
        /// The plot's title.
        plot: String,
        /// What is wrong, naming the curve, point or parameter.
        problem: String,
    },
    /// The plotting library failed.
    #[error("plot '{plot}': drawing failed: {message}")]
    Drawing {
        /// The plot's title.
        plot: String,
        /// The library's message.
        message: String,
    },
    /// Data that cannot be written in the requested form.
    #[error("{what}: {problem}")]
    InvalidInput {
        /// What was being written.
        what: String,
        /// What is wrong.
        problem: String,
    },
    /// Writing an output file failed.
    #[error("cannot write '{path}': {source}")]
    Io {
        /// The file that could not be written.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// Writes a rendered table or plot to a file, creating missing parent directories; see
/// [`write_bytes`].
pub fn write_file(path: &std::path::Path, contents: &str) -> Result<(), ReportError> {
    write_bytes(path, contents.as_bytes())
}

/// This machine's host name as one safe file-name word (empty where it cannot be read).
fn host_name() -> &'static str {
    static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NAME.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .or_else(|_| std::env::var("HOSTNAME"))
            .or_else(|_| std::env::var("COMPUTERNAME"))
            .unwrap_or_default()
            .trim()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    })
}

/// Writes a file atomically, creating missing parent directories: the bytes go to a temporary
/// file in the same folder, which is then renamed, so the file is either complete or absent
/// (an interrupted run never leaves half a file behind).
pub fn write_bytes(path: &std::path::Path, contents: &[u8]) -> Result<(), ReportError> {
    let io_error = |source| ReportError::Io {
        path: path.to_path_buf(),
        source,
    };
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => std::path::Path::new("."),
    };
    std::fs::create_dir_all(folder).map_err(io_error)?;
    // Host, process and thread: unique among all writers sharing the folder, even across
    // machines (the shards of a job array writing one results folder).
    let temporary = folder.join(format!(
        ".{}.tmp-{}-{}-{:?}",
        path.file_name().unwrap_or_default().to_string_lossy(),
        host_name(),
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::write(&temporary, contents).map_err(io_error)?;
    std::fs::rename(&temporary, path).map_err(|source| {
        let _ = std::fs::remove_file(&temporary);
        io_error(source)
    })
}

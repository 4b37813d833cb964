//! Comparisons of learners, and the tables that show them.
//!
//! Across datasets, as an engine analysis: [`AcrossDatasets`]
//! (`across_datasets`) builds one datasets x learners table of means per measure from a run,
//! computes every statistic with [`stats::across_datasets::compare`] (average ranks, Friedman
//! with Iman-Davenport, Nemenyi's critical difference, Holm and Bonferroni-Dunn against the
//! control, pairwise Wilcoxon with Holm's correction, win/tie/loss with the sign test, the
//! Bayesian signed-rank test with a rope; Demšar 2006; García & Herrera 2008; Benavoli et al.
//! 2017), and writes the report's tables, a JSON file, the critical-difference diagrams and
//! the Bayesian simplexes; [`results_table`] reads a table of results (a run's `per_fold` file
//! or a user's own) into the same matrix and prints the same tables for the `compare` command.
//!
//! The text of the other comparisons the command line prints: two learners' per-fold tests
//! ([`fold_tables`], of [`stats::FoldComparison`]) and models' ROC curves and hulls
//! ([`roc_tables`], of [`evaluate::RocSummary`]), and the bootstrap intervals of a predictions
//! file's models ([`bootstrap_file`], of [`evaluate::Intervals`]). What those commands read
//! from a user's file ([`predictions`]) and the ranges of their numeric flags
//! ([`flag_ranges`]) are checked here too, so the command line only parses and prints.

pub mod across;
pub mod across_tables;
pub mod analysis;
pub mod bootstrap_file;
pub mod compare_file;
pub mod error;
pub mod finite;
pub mod flag_ranges;
pub mod fold_tables;
pub mod json_envelope;
pub mod leaderboard;
pub mod predictions;
pub mod results_table;
pub mod roc_file;
pub mod roc_tables;
pub mod single_tests;

pub use across::Settings;
pub use analysis::{measure_tables, AcrossDatasets, ScoreTable};
pub use error::{Error, Result};
pub use fold_tables::fold_text;
pub use results_table::{
    across_text, layout, read_results, read_table, Choice, Layout, ResultsTable, TableError,
};
pub use roc_tables::{binary_text, multiclass_text};

/// The analyses of this crate, by the names configs use in `analyses`.
pub fn analyses() -> engine::Analyses {
    let mut analyses = engine::Analyses::none();
    analyses
        .register(Box::new(AcrossDatasets))
        .expect("across_datasets declares its options validly");
    analyses
}

//! Comparisons of learners across datasets: from a datasets x learners table of one measure,
//! average ranks, Friedman with Iman-Davenport, Nemenyi's critical difference, Holm and
//! Bonferroni-Dunn against a control, pairwise Wilcoxon signed-rank tests with Holm's
//! correction, win/tie/loss counts with the sign test, and the Bayesian signed-rank test with
//! a region of practical equivalence (Demšar 2006; García & Herrera 2008; Benavoli et al.
//! 2017).
//!
//! [`across::compare`] computes them from any table (a run's per-dataset means, or a
//! published table); [`AcrossDatasets`] is the engine analysis `across_datasets` that builds
//! the tables from a run and writes the report's tables, the critical-difference diagrams and
//! the Bayesian simplexes.

pub mod across;
pub mod analysis;

pub use across::{compare, AcrossDatasetsResult, CompareOptions, ScoreTable};
pub use analysis::AcrossDatasets;

/// The analyses of this crate, by the names configs use in `analyses`.
pub fn analyses() -> engine::Analyses {
    let mut analyses = engine::Analyses::none();
    analyses.register(Box::new(AcrossDatasets));
    analyses
}

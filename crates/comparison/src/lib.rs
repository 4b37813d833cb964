//! Comparisons of learners across datasets as an engine analysis: [`AcrossDatasets`]
//! (`across_datasets`) builds one datasets x learners table of means per measure from a run,
//! computes every statistic with [`stats::across_datasets::compare`] (average ranks, Friedman
//! with Iman-Davenport, Nemenyi's critical difference, Holm and Bonferroni-Dunn against the
//! control, pairwise Wilcoxon with Holm's correction, win/tie/loss with the sign test, the
//! Bayesian signed-rank test with a rope; Demšar 2006; García & Herrera 2008; Benavoli et al.
//! 2017), and writes the report's tables, a JSON file, the critical-difference diagrams and
//! the Bayesian simplexes.

pub mod analysis;
pub mod error;

pub use analysis::{AcrossDatasets, ScoreTable};
pub use error::{Error, Result};

/// The analyses of this crate, by the names configs use in `analyses`.
pub fn analyses() -> engine::Analyses {
    let mut analyses = engine::Analyses::none();
    analyses
        .register(Box::new(AcrossDatasets))
        .expect("across_datasets declares its options validly");
    analyses
}

//! Corrections for multiple comparisons (Bonferroni, Holm and the adjustments beyond
//! them) and the cliques of a critical-difference diagram from any pairwise procedure.

pub mod adjust;
pub mod cliques;
pub mod multitest;

//! k learners compared across N data sets: Friedman and its relatives (aligned ranks,
//! Quade, Skillings-Mack, repeated-measures ANOVA), post-hoc comparisons, effect sizes and
//! normality checks, the leaderboard and Elo ratings, autorank's automatic analysis, the Plackett-Luce
//! posterior, and the whole analysis of one measure in one call.

pub mod across_analysis;
pub mod across_datasets;
pub mod aligned_ranks;
pub mod anova;
pub mod autorank;
pub mod autorank_report;
pub mod effect_size;
pub mod elo;
pub mod friedman;
pub mod leaderboard;
pub mod normality;
pub mod plackett_luce;
pub mod posthoc;
pub mod quade;
pub mod skillings_mack;

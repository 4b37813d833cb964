//! Statistical tests for comparing learners: paired and corrected t-tests, 5x2cv tests,
//! sign and Wilcoxon tests, Friedman with Nemenyi, multiple-comparison corrections,
//! McNemar, DeLong, AUC confidence intervals, binomial proportion intervals and the
//! Bayesian tests of Benavoli et al. Pure functions over slices; every result is checked
//! against a reference implementation (see README.md).

pub mod distributions;
pub mod error;
pub mod proportion;

pub use error::StatsError;
pub use proportion::{normal_interval, normal_quantile, wilson_interval, Interval};

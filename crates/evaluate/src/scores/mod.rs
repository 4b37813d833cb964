//! Probability scores judged as probabilities: calibration errors and the Brier score with
//! its decomposition.

pub mod brier;
pub mod calibration;

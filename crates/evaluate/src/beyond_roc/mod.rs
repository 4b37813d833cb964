//! Evaluations beyond ROC: expected cost and cost curves, precision-recall and
//! precision-recall-gain curves, and the H-measure.

pub mod cost;
pub mod cost_curves;
pub mod h_measure;
pub mod pr_gain;
pub mod precision_recall;

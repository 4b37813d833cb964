//! Turns predictions into the measures the papers compare: confusion matrices and rates, ROC
//! curves, AUC, scored AUC, ROC convex hulls with iso-performance slopes, averaged ROC curves,
//! multi-class AUC, costs, and Huang & Ling's consistency and discriminancy of two measures.
//! Every function is checked against an outside reference (see README.md).

mod accurate;
pub mod averaging;
pub mod confusion;
pub mod cost;
pub mod error;
pub mod huang_ling;
pub mod hull;
pub mod multiclass;
pub mod predictions;
pub mod roc;

pub use averaging::{
    pooled_roc_curve, threshold_average, vertical_average, IntervalMethod, ThresholdSample,
    VerticalSample,
};
pub use confusion::{BinaryCounts, ConfusionMatrix};
pub use cost::{
    cost_at_threshold, expected_cost, iso_cost_line, min_cost_threshold, CostMatrix, CostThreshold,
    Decision, IsoCostLine,
};
pub use error::{EvaluateError, Result};
pub use huang_ling::{consistency_discriminancy, ConsistencyCounts, RankingHistogram};
pub use hull::{
    classifiers_hull, iso_performance_slope, roc_convex_hull, ClassifierHull, HullVertex, RocHull,
    SlopeRangeOwner,
};
pub use multiclass::{hand_till_m, one_vs_rest_aucs, pairwise_a_hat, provost_domingos_auc};
pub use predictions::{BinaryScores, Predictions};
pub use roc::{
    auc, auc_or_nan, mann_whitney_u, roc_curve, scored_auc, RocCurve, RocPoint, ScoredAuc,
};

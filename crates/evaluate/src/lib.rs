//! Turns predictions into the measures the papers compare: confusion matrices and rates, ROC
//! curves, AUC, scored AUC, ROC convex hulls with iso-performance slopes, averaged ROC curves,
//! multi-class AUC, costs, coverage (PN) space, interpolation between classifiers, repair of
//! ROC concavities, and Huang & Ling's consistency and discriminancy of two measures;
//! [`summary`] gathers them for a file of predictions as the `roc` command prints it (every
//! result type there serialises as its `--json` output).
//! Every function is checked against an outside reference (see README.md).

mod accurate;
pub mod averaging;
pub mod brier;
pub mod calibration;
pub mod concavity;
pub mod confusion;
pub mod cost;
pub mod cost_curves;
pub mod coverage;
pub mod error;
pub mod evaluation;
mod fast_measures;
pub mod grid_average;
pub mod h_measure;
pub mod huang_ling;
pub mod hull;
pub mod interpolation;
pub mod interval_report;
pub mod intervals;
pub mod multiclass;
pub mod partial_auc;
pub mod pr_gain;
pub mod precision_recall;
pub mod predictions;
pub mod roc;
pub mod summary;

pub use averaging::{
    pooled_roc_curve, threshold_average, vertical_average, IntervalMethod, ThresholdSample,
    VerticalSample,
};
pub use brier::{brier_decomposition, brier_score, multiclass_brier_score, BrierDecomposition};
pub use calibration::{
    calibration, expected_calibration_error, one_vs_rest_calibration, top_label_calibration,
    BinInterval, Binning, Calibration, CalibrationOptions, CalibrationPool, ReliabilityBin,
};
pub use concavity::{concavities, invert_intervals, repair_concavities, ScoreInterval};
pub use confusion::{BinaryCounts, ConfusionMatrix};
pub use cost::{
    cost_at_threshold, expected_cost, iso_cost_line, min_cost_threshold, CostMatrix, CostThreshold,
    Decision, IsoCostLine,
};
pub use cost_curves::{
    cost_curve, models_cost_curve, normalized_expected_cost, probability_cost, CostCurve, CostLine,
    EnvelopeSegment,
};
pub use coverage::{
    cost_coverage_space, coverage_curve, coverage_slope, coverage_to_roc, roc_slope,
    roc_to_coverage,
};
pub use error::{EvaluateError, Result};
pub use evaluation::{
    evaluation, model_evaluation, model_intervals, Evaluation, EvaluationOptions, IntervalMeasure,
    MeasureInterval, ModelEvaluation, PairedInterval, ProbabilityMeasures,
};
pub use fast_measures::FastMeasure;
pub use grid_average::{GridAverage, GridSample};
pub use h_measure::{h_measure, BetaPrior, HMeasure};
pub use huang_ling::{consistency_discriminancy, ConsistencyCounts, RankingHistogram};
pub use hull::{
    classifiers_hull, iso_performance_slope, roc_convex_hull, ClassifierHull, HullVertex, RocHull,
    SlopeRangeOwner,
};
pub use interpolation::{interpolate, mixture_for_fpr, mixture_for_tpr, Mixture};
pub use interval_report::{bootstrap_intervals, Intervals, ModelIntervals};
pub use intervals::{
    bootstrap_fast, bootstrap_measure, paired_bootstrap_fast, paired_bootstrap_measure,
};
pub use multiclass::{hand_till_m, one_vs_rest_aucs, pairwise_a_hat, provost_domingos_auc};
pub use partial_auc::{partial_area, partial_auc, PartialAuc};
pub use pr_gain::{pr_gain_curve, PrGainCurve, PrGainPoint};
pub use precision_recall::{
    average_precision, davis_goadrich_segment, precision_recall_curve, vertical_average_pr,
    InterpolatedPrPoint, PrAverageSample, PrCurve, PrPoint,
};
pub use predictions::{BinaryScores, Predictions};
pub use roc::{
    auc, auc_or_nan, mann_whitney_u, roc_curve, scored_auc, RocCurve, RocPoint, ScoredAuc,
};
pub use summary::{
    binary_summary, class_columns, conventional_positive, multiclass_summary, BinaryOptions,
    BinarySummary, ClassScores, ClassSummary, HullClassifier, ModelSummary, ModelsHull,
    MulticlassModel, MulticlassSummary, OwnedVertex, Repair, RocSummary, ScoreSummary, SlopeRange,
    Target, DEFAULT_THRESHOLD,
};

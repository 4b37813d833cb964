//! Turns predictions into the measures the papers compare: confusion matrices and rates, ROC
//! curves, AUC, scored AUC, ROC convex hulls with iso-performance slopes, averaged ROC curves,
//! multi-class AUC, costs, coverage (PN) space, interpolation between classifiers, repair of
//! ROC concavities, and Huang & Ling's consistency and discriminancy of two measures;
//! [`summary`] gathers them for a file of predictions as the `roc` command prints it (every
//! result type there serialises as its `--json` output).
//! The files are grouped by what they read off the predictions: [`roc_curves`], [`beyond_roc`]
//! (costs, precision-recall, the H-measure), [`scores`] (calibration, Brier), [`bootstrap`]
//! (intervals) and [`reports`] (what the command line prints); every module is also at its path
//! of before the grouping (`evaluate::hull`).
//! Every function is checked against an outside reference (see README.md).

mod accurate;
pub mod beyond_roc;
pub mod bootstrap;
pub mod confusion;
pub mod error;
pub mod huang_ling;
pub mod predictions;
pub mod reports;
pub mod roc_curves;
pub mod scores;

pub use beyond_roc::cost::{
    cost_at_threshold, expected_cost, iso_cost_line, min_cost_threshold, CostMatrix, CostThreshold,
    Decision, IsoCostLine,
};
pub use beyond_roc::cost_curves::{
    cost_curve, models_cost_curve, normalized_expected_cost, probability_cost, CostCurve, CostLine,
    EnvelopeSegment,
};
pub use beyond_roc::h_measure::{h_measure, BetaPrior, HMeasure};
pub use beyond_roc::pr_gain::{pr_gain_curve, PrGainCurve, PrGainPoint};
pub use beyond_roc::precision_recall::{
    average_precision, davis_goadrich_segment, precision_recall_curve, vertical_average_pr,
    InterpolatedPrPoint, PrAverageSample, PrCurve, PrPoint,
};
pub use bootstrap::fast_measures::FastMeasure;
pub use bootstrap::intervals::{
    bootstrap_fast, bootstrap_measure, paired_bootstrap_fast, paired_bootstrap_measure,
};
pub use confusion::{BinaryCounts, ConfusionMatrix};
pub use error::{EvaluateError, Result};
pub use huang_ling::{consistency_discriminancy, ConsistencyCounts, RankingHistogram};
pub use predictions::{BinaryScores, Predictions};
pub use reports::evaluation::{
    evaluation, model_evaluation, model_intervals, Evaluation, EvaluationOptions, IntervalMeasure,
    MeasureInterval, ModelEvaluation, PairedInterval, ProbabilityMeasures,
};
pub use reports::interval_report::{bootstrap_intervals, Intervals, ModelIntervals};
pub use reports::summary::{
    binary_summary, class_columns, conventional_positive, multiclass_summary, BinaryOptions,
    BinarySummary, ClassScores, ClassSummary, HullClassifier, ModelSummary, ModelsHull,
    MulticlassModel, MulticlassSummary, OwnedVertex, Repair, RocSummary, ScoreSummary, SlopeRange,
    Target, DEFAULT_THRESHOLD,
};
pub use roc_curves::averaging::{
    pooled_roc_curve, threshold_average, vertical_average, IntervalMethod, ThresholdSample,
    VerticalSample,
};
pub use roc_curves::concavity::{concavities, invert_intervals, repair_concavities, ScoreInterval};
pub use roc_curves::coverage::{
    cost_coverage_space, coverage_curve, coverage_slope, coverage_to_roc, roc_slope,
    roc_to_coverage,
};
pub use roc_curves::grid_average::{GridAverage, GridSample};
pub use roc_curves::hull::{
    classifiers_hull, iso_performance_slope, roc_convex_hull, ClassifierHull, HullVertex, RocHull,
    SlopeRangeOwner,
};
pub use roc_curves::interpolation::{interpolate, mixture_for_fpr, mixture_for_tpr, Mixture};
pub use roc_curves::multiclass::{
    hand_till_m, one_vs_rest_aucs, pairwise_a_hat, provost_domingos_auc,
};
pub use roc_curves::partial_auc::{partial_area, partial_auc, PartialAuc};
pub use roc_curves::roc::{
    auc, auc_or_nan, mann_whitney_u, roc_curve, scored_auc, RocCurve, RocPoint, ScoredAuc,
};
pub use scores::brier::{
    brier_decomposition, brier_score, multiclass_brier_score, BrierDecomposition,
};
pub use scores::calibration::{
    calibration, expected_calibration_error, one_vs_rest_calibration, top_label_calibration,
    BinInterval, Binning, Calibration, CalibrationOptions, CalibrationPool, ReliabilityBin,
};

// The modules at their paths before the grouping into folders, for users of the crate.
pub use beyond_roc::{cost, cost_curves, h_measure, pr_gain, precision_recall};
pub use bootstrap::intervals;
pub use reports::{evaluation, interval_report, summary};
pub use roc_curves::{
    averaging, concavity, coverage, grid_average, hull, interpolation, multiclass, partial_auc, roc,
};
pub use scores::{brier, calibration};

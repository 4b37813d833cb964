//! The evaluation of two-class score columns beyond ROC, as `roc --evaluate` prints it: per
//! model average precision, the area under Davis & Goadrich's interpolated precision-recall
//! curve, the PR-Gain area, the partial AUC over [0, max_fpr] (raw and McClish-standardised),
//! the H-measure, the cost curve, and for probabilities the Brier score, its Murphy
//! decomposition and the calibration errors over equal-width and equal-mass bins; bootstrap
//! intervals (percentile and BCa, class-stratified, seeded) of each measure; over several
//! models the cost curves' common lower envelope, DeLong's chi-square test of equal AUCs and
//! paired bootstrap intervals of each pair's differences.

use serde::Serialize;
use stats::{BootstrapInterval, BootstrapOptions, DeLongContrastResult};

use crate::beyond_roc::cost_curves::{cost_curve, models_cost_curve, CostCurve};
use crate::beyond_roc::h_measure::{h_measure, BetaPrior, HMeasure};
use crate::beyond_roc::pr_gain::{pr_gain_curve, PrGainCurve};
use crate::beyond_roc::precision_recall::{precision_recall_curve, PrPoint};
use crate::bootstrap::fast_measures::FastMeasure;
use crate::bootstrap::intervals::{
    bootstrap_fast, bootstrap_measure, paired_bootstrap_fast, paired_bootstrap_measure,
};
use crate::error::{EvaluateError, Result};
use crate::predictions::BinaryScores;
use crate::reports::summary::DEFAULT_THRESHOLD;
use crate::roc_curves::partial_auc::{partial_auc, PartialAuc};
use crate::roc_curves::roc::scored_auc;
use crate::scores::brier::{brier_decomposition, brier_score, BrierDecomposition};
use crate::scores::calibration::{
    calibration, check_probabilities, expected_calibration_error, BinInterval, Binning,
    Calibration, CalibrationOptions,
};

/// A measure the evaluation puts a bootstrap interval on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IntervalMeasure {
    /// AUC (ties 1/2).
    Auc,
    /// Wu & Flach's scored AUC.
    #[serde(rename = "sauc")]
    ScoredAuc,
    /// Error rate at the decision threshold 0.5.
    Error,
    /// Brier score (probabilities only).
    Brier,
    /// Average precision (scikit-learn's).
    AveragePrecision,
    /// Area under the interpolated precision-recall curve.
    PrArea,
    /// Area under the PR-Gain curve.
    #[serde(rename = "prg_area")]
    PrGainArea,
    /// McClish-standardised partial AUC over [0, max_fpr].
    PartialAuc,
    /// H-measure.
    HMeasure,
    /// Expected calibration error, equal-width bins (probabilities only).
    Ece,
}

impl IntervalMeasure {
    /// Every measure, in the order of the output.
    pub const ALL: [IntervalMeasure; 10] = [
        IntervalMeasure::Auc,
        IntervalMeasure::ScoredAuc,
        IntervalMeasure::Error,
        IntervalMeasure::Brier,
        IntervalMeasure::AveragePrecision,
        IntervalMeasure::PrArea,
        IntervalMeasure::PrGainArea,
        IntervalMeasure::PartialAuc,
        IntervalMeasure::HMeasure,
        IntervalMeasure::Ece,
    ];

    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            IntervalMeasure::Auc => "auc",
            IntervalMeasure::ScoredAuc => "sauc",
            IntervalMeasure::Error => "error",
            IntervalMeasure::Brier => "brier",
            IntervalMeasure::AveragePrecision => "average_precision",
            IntervalMeasure::PrArea => "pr_area",
            IntervalMeasure::PrGainArea => "prg_area",
            IntervalMeasure::PartialAuc => "partial_auc",
            IntervalMeasure::HMeasure => "h_measure",
            IntervalMeasure::Ece => "ece",
        }
    }

    /// True when it needs probabilities in [0, 1].
    pub fn needs_probabilities(self) -> bool {
        matches!(self, IntervalMeasure::Brier | IntervalMeasure::Ece)
    }

    fn fast(self) -> Option<FastMeasure> {
        match self {
            IntervalMeasure::Auc => Some(FastMeasure::Auc),
            IntervalMeasure::ScoredAuc => Some(FastMeasure::ScoredAuc),
            IntervalMeasure::Error => Some(FastMeasure::ErrorRate),
            IntervalMeasure::Brier => Some(FastMeasure::Brier),
            _ => None,
        }
    }

    /// The measure's value on `data` with `options`.
    pub fn value(self, data: &BinaryScores, options: &EvaluationOptions) -> Result<f64> {
        match self {
            IntervalMeasure::Auc => crate::roc_curves::roc::auc(data),
            IntervalMeasure::ScoredAuc => Ok(scored_auc(data)?.sauc),
            IntervalMeasure::Error => error_rate(data),
            IntervalMeasure::Brier => brier_score(data),
            IntervalMeasure::AveragePrecision => {
                crate::beyond_roc::precision_recall::average_precision(data)
            }
            IntervalMeasure::PrArea => Ok(precision_recall_curve(data)?.interpolated_area()),
            IntervalMeasure::PrGainArea => Ok(pr_gain_curve(data)?.area),
            IntervalMeasure::PartialAuc => {
                Ok(partial_auc(data, 0.0, options.max_fpr)?.standardized)
            }
            IntervalMeasure::HMeasure => Ok(h_measure(data, options.prior)?.h),
            IntervalMeasure::Ece => expected_calibration_error(data, options.bins),
        }
    }
}

/// Weighted error rate of "positive iff score >= the decision threshold".
fn error_rate(data: &BinaryScores) -> Result<f64> {
    let (mut wrong, mut total) = (0.0, 0.0);
    for (i, (&label, &score)) in data.labels().iter().zip(data.scores()).enumerate() {
        let w = data.weight(i);
        total += w;
        if (score >= data.decision_threshold()) != label {
            wrong += w;
        }
    }
    if total <= 0.0 {
        return Err(EvaluateError::Empty { what: "scores" });
    }
    Ok(wrong / total)
}

/// What the evaluation computes with: the FPR range, the bins, the H-measure's prior and the
/// bootstrap.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EvaluationOptions {
    /// Upper end of the partial AUC's FPR range, in (0, 1].
    pub max_fpr: f64,
    /// Number of calibration bins (1 to 1 000 000).
    pub bins: usize,
    /// Interval of each bin's frequency.
    pub bin_interval: BinInterval,
    /// The H-measure's Beta prior (`None`: the class-ratio prior of the `hmeasure` packages).
    pub prior: Option<BetaPrior>,
    /// Resamples, 1 - confidence level (also the bins' intervals') and seed.
    pub bootstrap: BootstrapOptions,
    /// Jackknife groups per class for BCa's acceleration of the measures without a fast path
    /// (exact delete-one when at least the class sizes).
    pub jackknife_groups: usize,
}

impl EvaluationOptions {
    /// Checked options.
    pub fn new(
        max_fpr: f64,
        bins: usize,
        bin_interval: BinInterval,
        prior: Option<BetaPrior>,
        bootstrap: BootstrapOptions,
        jackknife_groups: usize,
    ) -> Result<Self> {
        if !(max_fpr > 0.0 && max_fpr <= 1.0) {
            return Err(EvaluateError::BadParameter {
                name: "max_fpr",
                value: max_fpr,
                allowed: "in (0, 1]",
            });
        }
        CalibrationOptions::new(bins, Binning::EqualWidth, bin_interval, bootstrap.alpha)?;
        if !(1..=1_000_000).contains(&jackknife_groups) {
            return Err(EvaluateError::BadParameter {
                name: "jackknife_groups",
                value: jackknife_groups as f64,
                allowed: "an integer from 1 to 1000000",
            });
        }
        Ok(EvaluationOptions {
            max_fpr,
            bins,
            bin_interval,
            prior,
            bootstrap,
            jackknife_groups,
        })
    }

    /// The calibration options for `binning`.
    pub fn calibration(&self, binning: Binning) -> CalibrationOptions {
        CalibrationOptions {
            bins: self.bins,
            binning,
            interval: self.bin_interval,
            alpha: self.bootstrap.alpha,
        }
    }
}

/// The measures of probability scores (each in [0, 1]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProbabilityMeasures {
    /// Brier score (scikit-learn's `brier_score_loss`).
    pub brier: f64,
    /// Murphy's decomposition over the equal-width bins.
    pub brier_decomposition: BrierDecomposition,
    /// Calibration over equal-width bins: ECE, MCE and the reliability diagram.
    pub equal_width: Calibration,
    /// Calibration over equal-mass bins.
    pub equal_mass: Calibration,
}

/// A bootstrap interval of one measure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeasureInterval {
    /// The measure.
    pub measure: IntervalMeasure,
    /// Its estimate and intervals.
    #[serde(flatten)]
    pub interval: BootstrapInterval,
}

/// The evaluation of one model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelEvaluation {
    /// The score column's name.
    pub name: String,
    /// Average precision as scikit-learn's `average_precision_score`.
    pub average_precision: f64,
    /// Area under Davis & Goadrich's interpolated precision-recall curve.
    pub pr_area: f64,
    /// The precision-recall points, by decreasing threshold.
    pub pr_curve: Vec<PrPoint>,
    /// The PR-Gain curve and its area.
    pub pr_gain: PrGainCurve,
    /// Partial AUC over [0, max_fpr].
    pub partial_auc: PartialAuc,
    /// H-measure.
    pub h_measure: HMeasure,
    /// The cost curve (Drummond & Holte).
    pub cost_curve: CostCurve,
    /// Brier score, decomposition and calibration; `None` when a score is outside [0, 1].
    pub probabilities: Option<ProbabilityMeasures>,
    /// Bootstrap intervals of each measure.
    pub intervals: Vec<MeasureInterval>,
}

/// Paired bootstrap intervals of a measure for two models and their difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedInterval {
    /// The first model.
    pub first: String,
    /// The second model.
    pub second: String,
    /// The measure.
    pub measure: IntervalMeasure,
    /// The interval of first - second.
    pub difference: BootstrapInterval,
}

/// The evaluation of a file's two-class score columns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evaluation {
    /// The options used.
    pub options: EvaluationOptions,
    /// One per model, in file order.
    pub models: Vec<ModelEvaluation>,
    /// Over several models: the cost curve of every model's points and their lower envelope
    /// (the operating points of the ROC hull's classifiers).
    pub models_cost_curve: Option<CostCurve>,
    /// Over several models: DeLong's chi-square test that all AUCs are equal (k - 1 df).
    pub delong: Option<DeLongContrastResult>,
    /// Over several models: paired intervals of each pair's difference, for each measure.
    pub differences: Vec<PairedInterval>,
}

/// The measures to bootstrap for these scores: all, or all but those needing probabilities.
fn interval_measures(probabilities: bool) -> Vec<IntervalMeasure> {
    IntervalMeasure::ALL
        .into_iter()
        .filter(|m| probabilities || !m.needs_probabilities())
        .collect()
}

/// The bootstrap interval of `measure` on `data`.
pub fn measure_interval(
    data: &BinaryScores,
    measure: IntervalMeasure,
    options: &EvaluationOptions,
) -> Result<BootstrapInterval> {
    match measure.fast() {
        Some(fast) => bootstrap_fast(data, fast, &options.bootstrap),
        None => bootstrap_measure(data, &options.bootstrap, options.jackknife_groups, |d| {
            measure.value(d, options)
        }),
    }
}

/// The paired bootstrap of `measure` on two models' scores of the same rows.
pub fn paired_interval(
    first: &BinaryScores,
    second: &BinaryScores,
    measure: IntervalMeasure,
    options: &EvaluationOptions,
) -> Result<stats::PairedBootstrap> {
    match measure.fast() {
        Some(fast) => paired_bootstrap_fast(first, second, fast, &options.bootstrap),
        None => paired_bootstrap_measure(
            first,
            second,
            &options.bootstrap,
            options.jackknife_groups,
            |d| measure.value(d, options),
        ),
    }
}

/// The bootstrap interval of every measure of [`IntervalMeasure::ALL`] on `data`, but the
/// probability measures when `probabilities` is false.
pub fn model_intervals(
    data: &BinaryScores,
    probabilities: bool,
    options: &EvaluationOptions,
) -> Result<Vec<MeasureInterval>> {
    interval_measures(probabilities)
        .into_iter()
        .map(|measure| {
            Ok(MeasureInterval {
                measure,
                interval: measure_interval(data, measure, options)?,
            })
        })
        .collect()
}

/// The probability measures of `data`, `None` when a score is outside [0, 1].
fn probability_measures(
    data: &BinaryScores,
    options: &EvaluationOptions,
) -> Result<Option<ProbabilityMeasures>> {
    if check_probabilities("calibration", data).is_err() {
        return Ok(None);
    }
    Ok(Some(ProbabilityMeasures {
        brier: brier_score(data)?,
        brier_decomposition: brier_decomposition(data, options.bins, Binning::EqualWidth)?,
        equal_width: calibration(data, &options.calibration(Binning::EqualWidth))?,
        equal_mass: calibration(data, &options.calibration(Binning::EqualMass))?,
    }))
}

/// The evaluation of one model.
pub fn model_evaluation(
    name: &str,
    data: &BinaryScores,
    options: &EvaluationOptions,
) -> Result<ModelEvaluation> {
    let pr = precision_recall_curve(data)?;
    let probabilities = probability_measures(data, options)?;
    let intervals = model_intervals(data, probabilities.is_some(), options)?;
    Ok(ModelEvaluation {
        name: name.to_string(),
        average_precision: pr.average_precision(),
        pr_area: pr.interpolated_area(),
        pr_curve: pr.points().to_vec(),
        pr_gain: pr_gain_curve(data)?,
        partial_auc: partial_auc(data, 0.0, options.max_fpr)?,
        h_measure: h_measure(data, options.prior)?,
        cost_curve: cost_curve(data)?,
        probabilities,
        intervals,
    })
}

/// The paired intervals of every pair of models (i < j) for every measure both support.
pub(crate) fn differences(
    columns: &[(String, BinaryScores)],
    probabilities: &[bool],
    options: &EvaluationOptions,
) -> Result<Vec<PairedInterval>> {
    let mut out = Vec::new();
    for i in 0..columns.len() {
        for j in i + 1..columns.len() {
            let both = probabilities[i] && probabilities[j];
            for measure in interval_measures(both) {
                let paired = paired_interval(&columns[i].1, &columns[j].1, measure, options)?;
                out.push(PairedInterval {
                    first: columns[i].0.clone(),
                    second: columns[j].0.clone(),
                    measure,
                    difference: paired.difference,
                });
            }
        }
    }
    Ok(out)
}

/// One score column against the labels, with the decision threshold 0.5 of the error rate.
pub(crate) fn column_scores(labels: &[bool], scores: &[f64]) -> Result<BinaryScores> {
    BinaryScores::new(labels.to_vec(), scores.to_vec())?.with_decision_threshold(DEFAULT_THRESHOLD)
}

/// The evaluation of score columns `(name, scores)` against `truth` with positive label
/// `positive`; each model's errors are marked with its column.
pub fn evaluation(
    truth: &[String],
    positive: &str,
    columns: &[(String, Vec<f64>)],
    options: &EvaluationOptions,
) -> Result<Evaluation> {
    let labels: Vec<bool> = truth.iter().map(|label| label == positive).collect();
    let mut data = Vec::with_capacity(columns.len());
    let mut models = Vec::with_capacity(columns.len());
    for (name, scores) in columns {
        let scores = column_scores(&labels, scores)?;
        let model =
            model_evaluation(name, &scores, options).map_err(|error| EvaluateError::In {
                what: format!("column '{name}'"),
                error: Box::new(error),
            })?;
        models.push(model);
        data.push((name.clone(), scores));
    }
    let several = columns.len() > 1;
    let probabilities: Vec<bool> = models.iter().map(|m| m.probabilities.is_some()).collect();
    let models_cost_curve = if several {
        let all: Vec<_> = data.iter().map(|(_, d)| d.clone()).collect();
        Some(models_cost_curve(&all)?)
    } else {
        None
    };
    let delong = if several {
        let scores: Vec<&[f64]> = columns.iter().map(|(_, s)| s.as_slice()).collect();
        let test = stats::delong_contrast_test(&labels, &scores, None, options.bootstrap.alpha);
        Some(test.map_err(|e| EvaluateError::Interval(e.to_string()))?)
    } else {
        None
    };
    Ok(Evaluation {
        options: *options,
        models,
        models_cost_curve,
        delong,
        differences: differences(&data, &probabilities, options)?,
    })
}

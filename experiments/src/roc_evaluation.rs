//! The options of `roc --evaluate` (two classes): the evaluation beyond ROC of
//! `evaluate::evaluation` (precision-recall, PR-Gain, partial AUC, H-measure, cost curves,
//! Brier decomposition, calibration, bootstrap intervals, DeLong's k-model test). Giving any
//! option implies `--evaluate`; each is checked against its documented range
//! (`comparison::flag_ranges::MeasureFlags`).

use clap::{Args, ValueEnum};
use comparison::flag_ranges::MeasureFlags;
use evaluate::BinInterval;

/// The per-bin interval of a reliability diagram.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BinIntervalArg {
    /// Wilson score interval.
    Wilson,
    /// Clopper-Pearson ("exact") interval.
    ClopperPearson,
}

/// Options of the evaluation beyond ROC.
#[derive(Args, Debug, Default)]
pub struct EvaluationArgs {
    /// Two classes: add precision-recall (AP, interpolated area, PR-Gain), partial AUC,
    /// H-measure, cost curves, Brier decomposition, calibration errors, bootstrap intervals of
    /// each measure and, for several models, DeLong's chi-square and paired differences.
    #[arg(long)]
    evaluate: bool,

    /// Per-bin interval of the reliability diagrams (default wilson).
    #[arg(long, value_enum, value_name = "KIND")]
    bin_interval: Option<BinIntervalArg>,

    #[command(flatten)]
    measures: MeasureArgs,
}

/// The options of the measures and their bootstrap intervals, shared by `roc --evaluate` and
/// `compare bootstrap`.
#[derive(Args, Debug, Default)]
pub struct MeasureArgs {
    /// Upper end F of the partial AUC's FPR range [0, F], in (0, 1] (default 1).
    #[arg(long, value_name = "F")]
    max_fpr: Option<f64>,

    /// Number of calibration bins, 1 to 1000000 (default 10); x 2 diagrams x models at most
    /// 2000000.
    #[arg(long, value_name = "B")]
    bins: Option<usize>,

    /// The H-measure's Beta prior, first shape parameter (> 0; with --h-beta; default: the
    /// class-ratio prior Beta(2, 1 + n0/n1) of the hmeasure packages).
    #[arg(long, value_name = "A")]
    h_alpha: Option<f64>,

    /// The H-measure's Beta prior, second shape parameter (> 0; with --h-alpha).
    #[arg(long, value_name = "B")]
    h_beta: Option<f64>,

    /// Bootstrap resamples, 2 to 1000000 (default 2000); more than 2000, with the jackknife
    /// samples, x rows x models² at most 50000000.
    #[arg(long, value_name = "N")]
    resamples: Option<usize>,

    /// Seed of the bootstrap resamples (default 1).
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,

    /// Confidence level of the intervals (bootstrap and per-bin), in (0, 1) (default 0.95).
    #[arg(long, value_name = "LEVEL")]
    confidence: Option<f64>,

    /// Jackknife groups per class for BCa's acceleration of the measures without a fast path,
    /// 1 to 1000000 (default 200; exact delete-one when at least the class sizes).
    #[arg(long, value_name = "G")]
    jackknife_groups: Option<usize>,
}

impl EvaluationArgs {
    /// The reliability bins' interval and the measures' flags, `None` when neither `--evaluate`
    /// nor any option is given.
    pub fn flags(&self) -> Option<(BinInterval, MeasureFlags)> {
        let measures = self.measures.flags();
        if !(self.evaluate || self.bin_interval.is_some() || measures.any()) {
            return None;
        }
        let interval = match self.bin_interval.unwrap_or(BinIntervalArg::Wilson) {
            BinIntervalArg::Wilson => BinInterval::Wilson,
            BinIntervalArg::ClopperPearson => BinInterval::ClopperPearson,
        };
        Some((interval, measures))
    }
}

impl MeasureArgs {
    /// The flags as given (checked by `comparison::flag_ranges`).
    pub fn flags(&self) -> MeasureFlags {
        MeasureFlags {
            max_fpr: self.max_fpr,
            bins: self.bins,
            h_alpha: self.h_alpha,
            h_beta: self.h_beta,
            resamples: self.resamples,
            seed: self.seed,
            confidence: self.confidence,
            jackknife_groups: self.jackknife_groups,
        }
    }
}

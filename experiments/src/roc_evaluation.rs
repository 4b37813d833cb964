//! The options of `roc --evaluate` (two classes): the evaluation beyond ROC of
//! `evaluate::evaluation` (precision-recall, PR-Gain, partial AUC, H-measure, cost curves,
//! Brier decomposition, calibration, bootstrap intervals, DeLong's k-model test). Giving any
//! option implies `--evaluate`; each is checked against its documented range.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use evaluate::{BetaPrior, BinInterval, EvaluationOptions};
use stats::BootstrapOptions;

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

    /// Number of calibration bins, 1 to 1000000 (default 10).
    #[arg(long, value_name = "B")]
    bins: Option<usize>,

    /// The H-measure's Beta prior, first shape parameter (> 0; with --h-beta; default: the
    /// class-ratio prior Beta(2, 1 + n0/n1) of the hmeasure packages).
    #[arg(long, value_name = "A")]
    h_alpha: Option<f64>,

    /// The H-measure's Beta prior, second shape parameter (> 0; with --h-alpha).
    #[arg(long, value_name = "B")]
    h_beta: Option<f64>,

    /// Bootstrap resamples, 2 to 1000000 (default 2000).
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
    /// The checked options, `None` when neither `--evaluate` nor any option is given.
    pub fn options(&self) -> Result<Option<EvaluationOptions>> {
        if !(self.evaluate || self.bin_interval.is_some() || self.measures.any()) {
            return Ok(None);
        }
        let interval = match self.bin_interval.unwrap_or(BinIntervalArg::Wilson) {
            BinIntervalArg::Wilson => BinInterval::Wilson,
            BinIntervalArg::ClopperPearson => BinInterval::ClopperPearson,
        };
        self.measures.options(interval).map(Some)
    }
}

impl MeasureArgs {
    /// Whether any option is given.
    fn any(&self) -> bool {
        self.max_fpr.is_some()
            || self.bins.is_some()
            || self.h_alpha.is_some()
            || self.h_beta.is_some()
            || self.resamples.is_some()
            || self.seed.is_some()
            || self.confidence.is_some()
            || self.jackknife_groups.is_some()
    }

    /// The checked options, with `interval` the reliability bins' interval.
    pub fn options(&self, interval: BinInterval) -> Result<EvaluationOptions> {
        let max_fpr = self.max_fpr.unwrap_or(1.0);
        if !(max_fpr > 0.0 && max_fpr <= 1.0) {
            bail!("--max-fpr {max_fpr}: the partial AUC's upper false positive rate must be in (0, 1]");
        }
        let bins = self.bins.unwrap_or(10);
        if !(1..=1_000_000).contains(&bins) {
            bail!("--bins {bins}: the number of calibration bins must be from 1 to 1000000");
        }
        let resamples = self.resamples.unwrap_or(2000);
        if !(2..=1_000_000).contains(&resamples) {
            bail!("--resamples {resamples}: the number of bootstrap resamples must be from 2 to 1000000");
        }
        let confidence = self.confidence.unwrap_or(0.95);
        if !(confidence > 0.0 && confidence < 1.0) {
            bail!(
                "--confidence {confidence}: the confidence level must be strictly between 0 and 1"
            );
        }
        let groups = self.jackknife_groups.unwrap_or(200);
        if !(1..=1_000_000).contains(&groups) {
            bail!("--jackknife-groups {groups}: must be from 1 to 1000000");
        }
        let prior = match (self.h_alpha, self.h_beta) {
            (None, None) => None,
            (Some(a), Some(b)) => Some(BetaPrior::new(a, b).map_err(|_| {
                anyhow::anyhow!(
                    "--h-alpha {a} --h-beta {b}: the Beta prior's parameters must be finite and > 0"
                )
            })?),
            _ => bail!(
                "--h-alpha and --h-beta: give both of the Beta prior's parameters, or neither"
            ),
        };
        let bootstrap = BootstrapOptions::new(resamples, 1.0 - confidence, self.seed.unwrap_or(1))?;
        Ok(EvaluationOptions::new(
            max_fpr, bins, interval, prior, bootstrap, groups,
        )?)
    }
}

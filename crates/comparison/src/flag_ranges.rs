//! The documented range of every numeric flag of `compare`, `roc`, `slurm` and `--shard`,
//! checked before any work (issue 28): a value outside it is refused with the flag, the value
//! and what is allowed, never an allocation of terabytes, an overflow or an hour-long loop.
//!
//! | flag | allowed |
//! | --- | --- |
//! | `--alpha` | in (0, 1) |
//! | `--rope` | finite, >= 0 |
//! | `--test-fraction` | finite, > 0 |
//! | `compare TABLE --samples` | 1 to [`MAX_SAMPLES`] |
//! | `compare TABLE`: learners | at most [`stats::MAX_RANKED_LEARNERS`] |
//! | `compare delong --resamples` | 1 to [`MAX_RESAMPLES`] |
//! | `compare mcnemar --b + --c`, `sign --wins + --losses`, `binomial --trials` | at most [`stats::MAX_EXACT_COUNT`] |
//! | `compare auc-interval --positives`, `--negatives` | at least 1; with `--errors`, their sum at most [`stats::MAX_CORTES_MOHRI_INSTANCES`] |
//! | `compare ranks` | 2 to [`stats::MAX_RANKED_LEARNERS`] ranks, each in [1, k]; `--datasets` 2 to [`stats::MAX_RANKED_DATASETS`] |
//! | `roc --evaluate`, `compare bootstrap`: the measures' flags | [`MeasureFlags`] |
//! | `roc --evaluate`, `compare bootstrap`: (`--resamples` + jackknife samples) x rows x models² | at most [`MAX_RESAMPLED_ROWS`] beyond the default 2000 resamples ([`check_bootstrap_work`]) |
//! | `roc --evaluate`: `--bins` x 2 diagrams x models | at most [`MAX_RELIABILITY_BINS`] ([`check_reliability_bins`]) |
//! | `compare TABLE --hierarchical-samples` | 0 to [`crate::across::MAX_HIERARCHICAL_SAMPLES`] |
//! | `--shard I/N`, `slurm --tasks N` | N from 1 to [`engine::run::shard::MAX_SHARDS`] (the argument parser's check) |
//!
//! Per-fold values must also differ and add up within f64 (`compare_file::folds_output`).

use evaluate::{BetaPrior, BinInterval, EvaluateError, EvaluationOptions};
use stats::{BootstrapOptions, StatsError};

/// The most Monte Carlo samples of the Bayesian signed-rank test (`compare TABLE --samples`).
pub const MAX_SAMPLES: usize = 1_000_000;

/// The most bootstrap resamples of `compare delong --resamples`.
pub const MAX_RESAMPLES: usize = 1_000_000;

/// The most rows the bootstrap of `roc --evaluate` and `compare bootstrap` may resample in all:
/// (resamples + jackknife samples) x rows x models² (every model, and both of every pair of
/// models for the paired intervals). A resampled row costs about a microsecond (the measures
/// without a fast path: H-measure, precision-recall, PR-Gain, partial AUC), so the limit is
/// about a minute of work.
pub const MAX_RESAMPLED_ROWS: u64 = 50_000_000;

/// The bootstrap's resamples when `--resamples` is not given. The default is never refused by
/// the work bound: its work grows with the user's own file alone.
pub const DEFAULT_RESAMPLES: usize = 2000;

/// The most reliability bins `roc --evaluate` may build and print: `--bins` x 2 diagrams
/// (equal-width and equal-mass) x models; the JSON lists every bin, about 300 bytes each.
pub const MAX_RELIABILITY_BINS: u64 = 2_000_000;

/// A flag's value outside its documented range.
#[derive(Debug, thiserror::Error)]
pub enum RangeError {
    /// A count outside `low..=high`.
    #[error("{flag} {value} is out of range: {what} must be from {low} to {high}")]
    Count {
        /// The flag.
        flag: String,
        /// Its value.
        value: u64,
        /// The least allowed.
        low: u64,
        /// The most allowed.
        high: u64,
        /// What it counts.
        what: String,
    },
    /// Two counts whose sum is more than allowed.
    #[error("{first} {a} plus {second} {b} is more than {high}, the most {why}")]
    Sum {
        /// The first flag.
        first: String,
        /// Its value.
        a: u64,
        /// The second flag.
        second: String,
        /// Its value.
        b: u64,
        /// The most allowed.
        high: u64,
        /// What the bound is.
        why: String,
    },
    /// The bootstrap's flags ask for more work than [`MAX_RESAMPLED_ROWS`] on this file.
    #[error(
        "--resamples {resamples} on {rows} rows and {models} model(s) is more work than allowed: \
         ({resamples} resamples + {jackknife} jackknife samples) x {rows} rows x {passes} model \
         passes (each model, and each pair of models twice) = {work} resampled rows, over the \
         limit of {MAX_RESAMPLED_ROWS}; {}",
        work_advice(*.most)
    )]
    Work {
        /// `--resamples`.
        resamples: u64,
        /// The jackknife samples `--jackknife-groups` gives on this file's classes.
        jackknife: u64,
        /// The file's rows.
        rows: u64,
        /// Its models (score columns).
        models: u64,
        /// models².
        passes: u64,
        /// The product.
        work: u64,
        /// The most resamples within the limit (fewer than 2: none).
        most: u64,
    },
    /// `--bins` x 2 diagrams x models over [`MAX_RELIABILITY_BINS`].
    #[error(
        "--bins {bins} for {models} model(s) is more than allowed: {bins} bins x 2 reliability \
         diagrams (equal-width and equal-mass) x {models} model(s) = {total} bins, over the limit \
         of {MAX_RELIABILITY_BINS}; give --bins at most {most}"
    )]
    ReliabilityBins {
        /// `--bins`.
        bins: u64,
        /// The file's models.
        models: u64,
        /// The product.
        total: u64,
        /// The most bins within the limit.
        most: u64,
    },
    /// `--alpha` outside (0, 1).
    #[error("--alpha {0} is out of range: must be in (0, 1)")]
    Alpha(f64),
    /// `--rope` negative or not finite.
    #[error("--rope {0} is out of range: must be finite and >= 0")]
    Rope(f64),
    /// `--test-fraction` not finite or not positive.
    #[error("--test-fraction {0} is out of range: must be n_test / n_train, finite and > 0")]
    TestFraction(f64),
    /// `--correlation` outside [0, 1).
    #[error("--correlation {0} is out of range: must be in [0, 1)")]
    Correlation(f64),
    /// `--max-fpr` outside (0, 1].
    #[error("--max-fpr {0}: the partial AUC's upper false positive rate must be in (0, 1]")]
    MaxFpr(f64),
    /// `--bins` outside 1 to 1000000.
    #[error("--bins {0}: the number of calibration bins must be from 1 to 1000000")]
    Bins(usize),
    /// `--resamples` of the measures' bootstrap outside 2 to 1000000.
    #[error("--resamples {0}: the number of bootstrap resamples must be from 2 to 1000000")]
    Resamples(usize),
    /// `--confidence` outside (0, 1).
    #[error("--confidence {0}: the confidence level must be strictly between 0 and 1")]
    Confidence(f64),
    /// `--jackknife-groups` outside 1 to 1000000.
    #[error("--jackknife-groups {0}: must be from 1 to 1000000")]
    JackknifeGroups(usize),
    /// A Beta prior that is not one.
    #[error("--h-alpha {0} --h-beta {1}: the Beta prior's parameters must be finite and > 0")]
    Prior(f64, f64),
    /// One of the Beta prior's parameters without the other.
    #[error("--h-alpha and --h-beta: give both of the Beta prior's parameters, or neither")]
    HalfPrior,
    /// The bootstrap's options refused.
    #[error(transparent)]
    Bootstrap(#[from] StatsError),
    /// The evaluation's options refused.
    #[error(transparent)]
    Evaluation(#[from] EvaluateError),
}

/// `compare FILE`'s flags that apply to both kinds of file: `--alpha`, `--rope`,
/// `--test-fraction` and `--samples` (the Bayesian signed-rank test's).
pub fn check_compare_flags(
    alpha: f64,
    rope: f64,
    test_fraction: Option<f64>,
    samples: usize,
) -> Result<(), RangeError> {
    check_alpha(alpha)?;
    if !(rope.is_finite() && rope >= 0.0) {
        return Err(RangeError::Rope(rope));
    }
    if let Some(fraction) = test_fraction.filter(|f| !(f.is_finite() && *f > 0.0)) {
        return Err(RangeError::TestFraction(fraction));
    }
    let what = "the Monte Carlo samples of the Bayesian signed-rank test";
    check_count("--samples", samples as u64, 1, MAX_SAMPLES as u64, what)
}

/// `compare TABLE`'s hierarchical test flags: `--hierarchical-samples` and `--correlation`.
pub fn check_hierarchical_flags(
    samples: usize,
    correlation: Option<f64>,
) -> Result<(), RangeError> {
    let what = "the draws kept per chain of the hierarchical test (0 skips it)";
    let most = crate::across::MAX_HIERARCHICAL_SAMPLES as u64;
    check_count("--hierarchical-samples", samples as u64, 0, most, what)?;
    match correlation {
        Some(rho) if !(rho.is_finite() && (0.0..1.0).contains(&rho)) => {
            Err(RangeError::Correlation(rho))
        }
        _ => Ok(()),
    }
}

/// Reads a number such as `0.25` or a fraction such as `1/9` (`--test-fraction`,
/// `--correlation`).
pub fn parse_fraction(text: &str) -> Result<f64, String> {
    let number = |part: &str| {
        part.trim()
            .parse::<f64>()
            .map_err(|_| format!("'{text}' is not a number or a fraction such as 1/9"))
    };
    match text.split_once('/') {
        Some((numerator, denominator)) => Ok(number(numerator)? / number(denominator)?),
        None => number(text),
    }
}

/// A count flag in `low..=high`.
pub fn check_count(
    flag: &str,
    value: u64,
    low: u64,
    high: u64,
    what: &str,
) -> Result<(), RangeError> {
    if !(low..=high).contains(&value) {
        let (flag, what) = (flag.to_string(), what.to_string());
        return Err(RangeError::Count {
            flag,
            value,
            low,
            high,
            what,
        });
    }
    Ok(())
}

/// The sum of two count flags, at most `high` (without overflow).
pub fn check_sum(flags: [(&str, u64); 2], high: u64, why: &str) -> Result<(), RangeError> {
    let [(first, a), (second, b)] = flags;
    match a.checked_add(b) {
        Some(sum) if sum <= high => Ok(()),
        _ => Err(RangeError::Sum {
            first: first.into(),
            a,
            second: second.into(),
            b,
            high,
            why: why.into(),
        }),
    }
}

/// What to do when the bootstrap is too much work: `most` resamples fit.
fn work_advice(most: u64) -> String {
    if most >= 2 {
        format!("give --resamples at most {most}")
    } else {
        "give fewer --jackknife-groups, or a file with fewer rows or score columns".to_string()
    }
}

/// The bootstrap of `options` on `models` score columns of the rows whose true labels are
/// `truth` (`positive` the positive one) within [`MAX_RESAMPLED_ROWS`]: the resamples and the
/// jackknife samples (per class, `options.jackknife_groups` but at most the class's rows); at
/// most [`DEFAULT_RESAMPLES`] resamples always pass.
pub fn check_bootstrap_work(
    options: &EvaluationOptions,
    truth: &[String],
    positive: &str,
    models: usize,
) -> Result<(), RangeError> {
    let positives = truth.iter().filter(|label| *label == positive).count();
    let groups = options.jackknife_groups;
    let jackknife = [positives, truth.len() - positives]
        .iter()
        .map(|&size| size.min(groups) as u64)
        .sum::<u64>();
    let (rows, models) = (truth.len() as u64, models as u64);
    let passes = models.saturating_mul(models);
    let per_sample = rows.saturating_mul(passes).max(1);
    let resamples = options.bootstrap.resamples as u64;
    let work = resamples
        .saturating_add(jackknife)
        .saturating_mul(per_sample);
    if work <= MAX_RESAMPLED_ROWS || resamples <= DEFAULT_RESAMPLES as u64 {
        return Ok(());
    }
    Err(RangeError::Work {
        resamples,
        jackknife,
        rows,
        models,
        passes,
        work,
        most: (MAX_RESAMPLED_ROWS / per_sample).saturating_sub(jackknife),
    })
}

/// The reliability diagrams of `options.bins` bins of `models` score columns within
/// [`MAX_RELIABILITY_BINS`].
pub fn check_reliability_bins(
    options: &EvaluationOptions,
    models: usize,
) -> Result<(), RangeError> {
    let (bins, models) = (options.bins as u64, models as u64);
    let diagrams = models.saturating_mul(2).max(1);
    let total = bins.saturating_mul(diagrams);
    if total <= MAX_RELIABILITY_BINS {
        return Ok(());
    }
    Err(RangeError::ReliabilityBins {
        bins,
        models,
        total,
        most: MAX_RELIABILITY_BINS / diagrams,
    })
}

/// `--alpha`: a significance level, in (0, 1).
pub fn check_alpha(alpha: f64) -> Result<(), RangeError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(RangeError::Alpha(alpha));
    }
    Ok(())
}

/// The flags of the measures and their bootstrap intervals, shared by `roc --evaluate` and
/// `compare bootstrap` (`None`: not given, the default).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MeasureFlags {
    /// Upper end F of the partial AUC's FPR range [0, F], in (0, 1] (default 1).
    pub max_fpr: Option<f64>,
    /// Number of calibration bins, 1 to 1000000 (default 10).
    pub bins: Option<usize>,
    /// The H-measure's Beta prior, first shape parameter (> 0; with `h_beta`).
    pub h_alpha: Option<f64>,
    /// The H-measure's Beta prior, second shape parameter (> 0; with `h_alpha`).
    pub h_beta: Option<f64>,
    /// Bootstrap resamples, 2 to 1000000 (default 2000).
    pub resamples: Option<usize>,
    /// Seed of the bootstrap resamples (default 1).
    pub seed: Option<u64>,
    /// Confidence level of the intervals, in (0, 1) (default 0.95).
    pub confidence: Option<f64>,
    /// Jackknife groups per class for BCa's acceleration, 1 to 1000000 (default 200).
    pub jackknife_groups: Option<usize>,
}

impl MeasureFlags {
    /// Whether any flag is given.
    pub fn any(&self) -> bool {
        *self != Self::default()
    }

    /// The checked options, with `interval` the reliability bins' interval.
    pub fn options(&self, interval: BinInterval) -> Result<EvaluationOptions, RangeError> {
        let max_fpr = self.max_fpr.unwrap_or(1.0);
        if !(max_fpr > 0.0 && max_fpr <= 1.0) {
            return Err(RangeError::MaxFpr(max_fpr));
        }
        let bins = self.bins.unwrap_or(10);
        if !(1..=1_000_000).contains(&bins) {
            return Err(RangeError::Bins(bins));
        }
        let resamples = self.resamples.unwrap_or(DEFAULT_RESAMPLES);
        if !(2..=1_000_000).contains(&resamples) {
            return Err(RangeError::Resamples(resamples));
        }
        let confidence = self.confidence.unwrap_or(0.95);
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(RangeError::Confidence(confidence));
        }
        let groups = self.jackknife_groups.unwrap_or(200);
        if !(1..=1_000_000).contains(&groups) {
            return Err(RangeError::JackknifeGroups(groups));
        }
        let prior = match (self.h_alpha, self.h_beta) {
            (None, None) => None,
            (Some(a), Some(b)) => Some(BetaPrior::new(a, b).map_err(|_| RangeError::Prior(a, b))?),
            _ => return Err(RangeError::HalfPrior),
        };
        let bootstrap = BootstrapOptions::new(resamples, 1.0 - confidence, self.seed.unwrap_or(1))?;
        Ok(EvaluationOptions::new(
            max_fpr, bins, interval, prior, bootstrap, groups,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(resamples: usize) -> EvaluationOptions {
        let bootstrap = stats::BootstrapOptions::new(resamples, 0.05, 1).unwrap();
        EvaluationOptions::new(1.0, 10, evaluate::BinInterval::Wilson, None, bootstrap, 200)
            .unwrap()
    }

    /// The default 2000 resamples pass on any file (3,000 rows of 3 models, 200 jackknife groups
    /// a class: (2000 + 400) x 3000 x 9 = 64,800,000 resampled rows, over the limit); one more,
    /// (2001 + 400) x 3000 x 9 = 64,827,000, is refused.
    #[test]
    fn the_default_resamples_always_pass_the_work_bound() {
        let truth: Vec<String> = (0..3000)
            .map(|row| ["a", "b"][row % 2].to_string())
            .collect();
        assert!(check_bootstrap_work(&options(DEFAULT_RESAMPLES), &truth, "a", 3).is_ok());
        let refused = check_bootstrap_work(&options(DEFAULT_RESAMPLES + 1), &truth, "a", 3);
        assert!(
            matches!(
                refused,
                Err(RangeError::Work {
                    work: 64_827_000,
                    ..
                })
            ),
            "{refused:?}"
        );
    }
}

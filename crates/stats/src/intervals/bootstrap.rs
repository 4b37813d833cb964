//! Stratified, seeded bootstrap: resamples drawn as per-row multiplicities (counts), and the
//! percentile and BCa intervals of any statistic computed from them.
//!
//! Resample `r` draws from `ChaCha8Rng::seed_from_u64(seeds::derive_seed(seed, [r]))`: stratum
//! by stratum (in the order of [`Strata::new`]'s stratum indices), as many uniform draws among the
//! stratum's rows (`random_range(0..size)`, rows in input order) as it has rows, each adding 1 to
//! that row's count. A resample depends only on the seed, its index and the strata, so the
//! replicates do not depend on how many threads compute them.
//!
//! Intervals follow `scipy.stats.bootstrap` (1.17): the percentile interval takes numpy's
//! linear quantiles of the replicates at alpha/2 and 1 - alpha/2; BCa takes them at
//! Phi(z0 + (z0 + z) / (1 - a (z0 + z))) for z = Phi^-1(alpha/2) and Phi^-1(1 - alpha/2), with
//! z0 = Phi^-1((#{replicate < estimate} + #{replicate <= estimate}) / (2 B)) and the acceleration
//! a from jackknife values per stratum (scipy's multi-sample formula, [`acceleration`]).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::distributions::{normal_cdf, normal_quantile};
use crate::error::{check_alpha, StatsError};
use crate::intervals::proportion::Interval;

/// Number of resamples, confidence level and seed of a bootstrap.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BootstrapOptions {
    /// Number of resamples B (>= 2).
    pub resamples: usize,
    /// 1 - confidence level, in (0, 1).
    pub alpha: f64,
    /// Seed of the resamples.
    pub seed: u64,
}

impl BootstrapOptions {
    /// Checked options: `resamples` from 2 to 1 000 000, `alpha` in (0, 1).
    pub fn new(resamples: usize, alpha: f64, seed: u64) -> Result<Self, StatsError> {
        if !(2..=1_000_000).contains(&resamples) {
            return Err(StatsError::OutOfRange {
                name: "resamples",
                value: resamples as f64,
                allowed: "an integer from 2 to 1000000",
            });
        }
        check_alpha(alpha)?;
        Ok(BootstrapOptions {
            resamples,
            alpha,
            seed,
        })
    }
}

/// Rows grouped into strata (e.g. the classes): a resample keeps every stratum's size.
#[derive(Debug, Clone, PartialEq)]
pub struct Strata {
    members: Vec<Vec<usize>>,
    rows: usize,
}

impl Strata {
    /// Strata from the stratum index of each row (any indices; strata in increasing index
    /// order). Rows keep their input order inside a stratum.
    pub fn new(stratum_of_row: &[usize]) -> Self {
        let mut by_index: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for (row, &stratum) in stratum_of_row.iter().enumerate() {
            by_index.entry(stratum).or_default().push(row);
        }
        Strata {
            members: by_index.into_values().collect(),
            rows: stratum_of_row.len(),
        }
    }

    /// Two strata from binary labels: the negatives (false) and the positives (true).
    pub fn from_labels(labels: &[bool]) -> Self {
        let indices: Vec<usize> = labels.iter().map(|&l| usize::from(l)).collect();
        Self::new(&indices)
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The rows of each stratum, in input order.
    pub fn members(&self) -> &[Vec<usize>] {
        &self.members
    }
}

/// Writes into `counts` (one per row: `counts.len()` must be `strata.rows()`) the
/// multiplicities of resample `index` (see the module documentation for the exact stream).
pub fn resample_counts(strata: &Strata, seed: u64, index: usize, counts: &mut [u32]) {
    let mut generator = ChaCha8Rng::seed_from_u64(seeds::derive_seed(seed, &[index as u64]));
    counts.fill(0);
    for stratum in &strata.members {
        let size = stratum.len();
        for _ in 0..size {
            counts[stratum[generator.random_range(0..size)]] += 1;
        }
    }
}

/// Replicates of a `width`-valued statistic over `options.resamples` stratified resamples:
/// `statistic(counts, out)` writes the statistic of the resample with per-row multiplicities
/// `counts` into `out` (length `width`). Returns one vector of B replicates per value.
pub fn replicates<E>(
    strata: &Strata,
    options: &BootstrapOptions,
    width: usize,
    mut statistic: impl FnMut(&[u32], &mut [f64]) -> Result<(), E>,
) -> Result<Vec<Vec<f64>>, E> {
    let mut counts = vec![0u32; strata.rows];
    let mut out = vec![0.0; width];
    let mut columns = vec![Vec::with_capacity(options.resamples); width];
    for index in 0..options.resamples {
        resample_counts(strata, options.seed, index, &mut counts);
        statistic(&counts, &mut out)?;
        for (column, &value) in columns.iter_mut().zip(&out) {
            column.push(value);
        }
    }
    Ok(columns)
}

/// Delete-group jackknife per stratum: rows of stratum j are dealt round-robin (by their
/// position in the stratum) into min(`groups`, size_j) groups, and `statistic` is evaluated with
/// each group's counts set to 0 (all other counts 1). With `groups` >= the stratum size this is
/// the ordinary delete-one jackknife. A stratum of one row gets the statistic of the full sample
/// (its weight in the acceleration is 0). Returns the values per stratum, group by group.
pub fn grouped_jackknife<E>(
    strata: &Strata,
    groups: usize,
    mut statistic: impl FnMut(&[u32]) -> Result<f64, E>,
) -> Result<Vec<Vec<f64>>, E> {
    let mut counts = vec![1u32; strata.rows];
    let mut values = Vec::with_capacity(strata.members.len());
    for stratum in &strata.members {
        if stratum.len() == 1 {
            // deleting the only row may leave the statistic undefined; a single jackknife
            // value enters the acceleration with weight n - 1 = 0, so the full sample stands in
            values.push(vec![statistic(&counts)?]);
            continue;
        }
        let group_count = groups.clamp(1, stratum.len());
        let mut stratum_values = Vec::with_capacity(group_count);
        for group in 0..group_count {
            for &row in stratum.iter().skip(group).step_by(group_count) {
                counts[row] = 0;
            }
            stratum_values.push(statistic(&counts)?);
            for &row in stratum.iter().skip(group).step_by(group_count) {
                counts[row] = 1;
            }
        }
        values.push(stratum_values);
    }
    Ok(values)
}

/// numpy's `quantile(sorted, p)` with the default method 'linear' (virtual index p (n - 1),
/// numpy's two-sided lerp); `sorted` must be increasing; NaN when it is empty.
pub fn quantile_linear(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let last = sorted.len() - 1;
    let virtual_index = (last as f64) * p;
    if virtual_index <= 0.0 {
        return sorted[0];
    }
    if virtual_index >= last as f64 {
        return sorted[last];
    }
    let below = virtual_index.floor() as usize;
    let gamma = virtual_index - below as f64;
    let (a, b) = (sorted[below], sorted[below + 1]);
    let difference = b - a;
    if gamma >= 0.5 {
        b - difference * (1.0 - gamma)
    } else {
        a + difference * gamma
    }
}

/// BCa acceleration from jackknife values per stratum (scipy's multi-sample formula):
/// U_ji = (n_j - 1)(mean_j - theta_ji), a = sum_j (sum_i U_ji^3 / n_j^3) /
/// (6 (sum_j sum_i U_ji^2 / n_j^2)^(3/2)). NaN when every U is 0.
pub fn acceleration(jackknife: &[Vec<f64>]) -> f64 {
    let (mut numerator, mut denominator) = (0.0, 0.0);
    for values in jackknife.iter().filter(|v| !v.is_empty()) {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let (mut cubes, mut squares) = (0.0, 0.0);
        for &value in values {
            let u = (n - 1.0) * (mean - value);
            squares += u * u;
            cubes += u * u * u;
        }
        numerator += cubes / (n * n * n);
        denominator += squares / (n * n);
    }
    numerator / (6.0 * denominator.powf(1.5))
}

/// A BCa interval with its bias correction, acceleration and the two quantile levels used.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BcaInterval {
    /// The interval.
    pub interval: Interval,
    /// z0 = Phi^-1 of the (mid-)share of replicates below the estimate.
    pub bias_correction: f64,
    /// Acceleration a from the jackknife.
    pub acceleration: f64,
    /// Quantile level of the lower limit.
    pub level_low: f64,
    /// Quantile level of the upper limit.
    pub level_high: f64,
}

/// BCa interval from the estimate, the sorted replicates and the jackknife values; `None` when
/// undefined: every replicate on one side of the estimate (z0 infinite) or a jackknife without
/// variation (a is NaN), where scipy returns NaN limits.
pub fn bca_interval(
    estimate: f64,
    sorted: &[f64],
    jackknife: &[Vec<f64>],
    alpha: f64,
) -> Option<BcaInterval> {
    let below = sorted.partition_point(|&v| v < estimate);
    let at_most = sorted.partition_point(|&v| v <= estimate);
    let share = (below + at_most) as f64 / (2.0 * sorted.len() as f64);
    let bias_correction = normal_quantile(share);
    let acceleration = acceleration(jackknife);
    if !bias_correction.is_finite() || !acceleration.is_finite() {
        return None;
    }
    let level = |z: f64| {
        let shifted = bias_correction + z;
        normal_cdf(bias_correction + shifted / (1.0 - acceleration * shifted))
    };
    let level_low = level(normal_quantile(alpha / 2.0));
    let level_high = level(normal_quantile(1.0 - alpha / 2.0));
    if !(level_low.is_finite() && level_high.is_finite()) {
        return None;
    }
    Some(BcaInterval {
        interval: Interval {
            low: quantile_linear(sorted, level_low),
            high: quantile_linear(sorted, level_high),
        },
        bias_correction,
        acceleration,
        level_low,
        level_high,
    })
}

/// A statistic's estimate with its bootstrap distribution summarised as intervals.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BootstrapInterval {
    /// The statistic on the data.
    #[serde(serialize_with = "crate::json::float")]
    pub estimate: f64,
    /// Mean of the replicates.
    #[serde(serialize_with = "crate::json::float")]
    pub replicate_mean: f64,
    /// Standard deviation of the replicates (ddof 1): the bootstrap standard error.
    #[serde(serialize_with = "crate::json::float")]
    pub standard_error: f64,
    /// Percentile interval.
    pub percentile: Interval,
    /// BCa interval (`None` when undefined, see [`bca_interval`]).
    pub bca: Option<BcaInterval>,
    /// Resamples, alpha and seed.
    pub options: BootstrapOptions,
}

/// Summarises the replicates of one statistic: percentile and BCa intervals, mean and standard
/// error. Replicates must not be NaN (`NonFinite` otherwise).
pub fn summarize(
    estimate: f64,
    mut replicates: Vec<f64>,
    jackknife: &[Vec<f64>],
    options: &BootstrapOptions,
) -> Result<BootstrapInterval, StatsError> {
    if let Some(index) = replicates.iter().position(|v| v.is_nan()) {
        return Err(StatsError::NonFinite {
            name: "bootstrap replicates",
            index,
            value: f64::NAN,
        });
    }
    replicates.sort_by(f64::total_cmp);
    let b = replicates.len() as f64;
    let replicate_mean = replicates.iter().sum::<f64>() / b;
    let squares: f64 = replicates
        .iter()
        .map(|v| (v - replicate_mean) * (v - replicate_mean))
        .sum();
    Ok(BootstrapInterval {
        estimate,
        replicate_mean,
        standard_error: (squares / (b - 1.0)).sqrt(),
        percentile: Interval {
            low: quantile_linear(&replicates, options.alpha / 2.0),
            high: quantile_linear(&replicates, 1.0 - options.alpha / 2.0),
        },
        bca: bca_interval(estimate, &replicates, jackknife, options.alpha),
        options: *options,
    })
}

//! The Bayesian hierarchical correlated t-test (Corani, Benavoli, Demsar, Mangili & Zaffalon
//! 2017), the model of baycomp's `HierarchicalTest` and its Stan file, sampled natively.
//!
//! For data set i with fold differences x_i (a - b, n_i of them, cross-validation correlation
//! rho): x_i ~ MVN(delta_i 1, sigma_i^2 ((1 - rho) I + rho 1 1')); delta_i ~ t(nu, delta0,
//! std0); delta0 ~ U(-max|x|, max|x|); std0 ~ U(0, 1000 s_among); sigma_i ~ U(0, 1000
//! s_within); nu - 1 ~ Gamma(alpha, rate beta), alpha ~ U(1, 2), beta ~ U(0.01, 0.1), with
//! s_within the mean of the data sets' standard deviations and s_among the standard deviation
//! of their means (baycomp's bounds). As baycomp, the differences and the rope are divided by
//! the mean standard deviation before sampling, and a data set whose differences are all equal
//! (to c) gets them replaced by c + h u_j, u_j evenly spaced in (-1, 1), h = the rope (or, with
//! rope 0, a thousandth of the mean standard deviation of the other data sets); baycomp draws
//! that noise at random and centres it on 0.
//!
//! Sampler: Gibbs with the model's conditionals, the Student t written as a scale mixture of
//! normals (delta_i | lambda_i ~ N(delta0, std0^2 / lambda_i), lambda_i ~ Gamma(nu/2, nu/2)):
//! delta_i, delta0 normal, 1/sigma_i^2 and 1/std0^2 gamma (their bounds enforced by keeping
//! the current value when a draw falls outside, a valid Metropolis step), (nu, lambda) as a
//! block (nu by slice sampling from its conditional with lambda integrated out, then lambda),
//! alpha and beta by slice sampling. Several chains from dispersed starts, each seeded from
//! the seed and its index (ChaCha8); convergence is checked by split R-hat and the effective
//! sample size (Vehtari et al. 2021) of delta0, std0, nu and every delta_i.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use crate::bayes::bayesian::{gamma_sample, RegionProbabilities};
use crate::bayes::mcmc::{diagnostics, slice_sample, Diagnostics};
use crate::distributions::{ln_gamma, student_t_cdf};
use crate::error::StatsError;

/// Settings of [`hierarchical_t_test`]; `Default` gives rope 0.01, correlation 0.1 (10-fold
/// cross-validation), 4 chains of 2,000 warm-up and 10,000 kept draws (std0 mixes slowly
/// under Gibbs: its effective sample size is about a tenth of the draws), seed 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HierarchicalOptions {
    /// Half-width of the region of practical equivalence, in the units of the measure.
    pub rope: f64,
    /// Correlation of fold differences within a data set: the test fraction of the
    /// cross-validation, 1 / folds (baycomp's rho).
    pub correlation: f64,
    /// Number of chains (at least 2 for R-hat).
    pub chains: usize,
    /// Warm-up draws discarded per chain.
    pub warmup: usize,
    /// Draws kept per chain.
    pub samples: usize,
    /// Seed; chain c uses a seed derived from it and c.
    pub seed: u64,
}

impl Default for HierarchicalOptions {
    fn default() -> Self {
        Self {
            rope: 0.01,
            correlation: 0.1,
            chains: 4,
            warmup: 2000,
            samples: 10_000,
            seed: 0,
        }
    }
}

/// Posterior of one data set's mean difference delta_i.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DatasetPosterior {
    /// Mean of the data set's fold differences.
    pub observed_mean: f64,
    /// Posterior mean of delta_i (shrunk towards delta0).
    pub posterior_mean: f64,
    /// Shares of the draws of delta_i below -rope, within the rope, above the rope.
    pub probabilities: RegionProbabilities,
}

/// Result of the hierarchical test of one pair (differences a - b; `right` = a better).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HierarchicalResult {
    /// baycomp's probabilities: for each draw, the probabilities that the difference on a new
    /// data set, t(nu, delta0, std0), falls left of, within or right of the rope; the shares of
    /// draws in which each region is the most probable.
    pub probabilities: RegionProbabilities,
    /// Posterior mean of those per-draw probabilities (the posterior predictive).
    pub mean_probabilities: RegionProbabilities,
    /// Shares of the draws of the mean difference delta0 in each region.
    pub delta0_probabilities: RegionProbabilities,
    /// Posterior mean of delta0, in the units of the measure.
    pub delta0_mean: f64,
    /// Each data set's posterior, in input order.
    pub datasets: Vec<DatasetPosterior>,
    /// Convergence diagnostics of delta0, std0, nu and each delta_i.
    pub diagnostics: Vec<Diagnostics>,
    /// Largest split R-hat over those parameters.
    #[serde(serialize_with = "crate::json::float")]
    pub max_rhat: f64,
    /// Smallest effective sample size over those parameters.
    #[serde(serialize_with = "crate::json::float")]
    pub min_effective_sample_size: f64,
    /// True when max R-hat < 1.01 and the smallest ESS > 400 (Vehtari et al. 2021).
    pub converged: bool,
    /// Draws kept in all (chains x samples).
    pub draws: usize,
    /// The options used.
    pub options: HierarchicalOptions,
}

/// One data set's sufficient statistics (scaled units).
struct Dataset {
    n: f64,
    sum: f64,
    sum_squares: f64,
}

/// The data and fixed bounds of the model, in scaled units.
struct Model {
    datasets: Vec<Dataset>,
    /// 1' M^-1 1 / n scale: precision factor n / (1 + (n - 1) rho) per data set.
    rho: f64,
    delta_bound: f64,
    std0_bound: f64,
    sigma_bound: f64,
}

/// The state of one chain.
#[derive(Clone)]
struct State {
    delta: Vec<f64>,
    lambda: Vec<f64>,
    sigma: Vec<f64>,
    delta0: f64,
    std0: f64,
    nu: f64,
    alpha: f64,
    beta: f64,
}

fn check_options(options: &HierarchicalOptions) -> Result<(), StatsError> {
    if !(options.rope.is_finite() && options.rope >= 0.0) {
        return Err(StatsError::OutOfRange {
            name: "rope",
            value: options.rope,
            allowed: "finite and >= 0",
        });
    }
    if !(options.correlation >= 0.0 && options.correlation < 1.0) {
        return Err(StatsError::OutOfRange {
            name: "correlation",
            value: options.correlation,
            allowed: "in [0, 1) (the test fraction 1 / folds)",
        });
    }
    let limits = [
        ("chains", options.chains, 1, 64),
        ("warmup", options.warmup, 0, 1_000_000),
        ("samples", options.samples, 4, 1_000_000),
    ];
    for (name, value, low, high) in limits {
        if value < low || value > high {
            return Err(StatsError::OutOfRange {
                name,
                value: value as f64,
                allowed: "chains 1..=64, warmup <= 1e6, samples 4..=1e6",
            });
        }
    }
    Ok(())
}

fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    (mean, variance.sqrt())
}

/// Validates the differences, replaces constant data sets and scales (see the module
/// documentation); returns the scaled data and the scale.
fn prepare(differences: &[Vec<f64>], rope: f64) -> Result<(Vec<Vec<f64>>, f64), StatsError> {
    if differences.len() < 2 {
        return Err(StatsError::TooFew {
            name: "data sets",
            got: differences.len(),
            needed: 2,
        });
    }
    for (index, row) in differences.iter().enumerate() {
        if row.len() < 2 {
            return Err(StatsError::TooFew {
                name: "fold differences of a data set",
                got: row.len(),
                needed: 2,
            });
        }
        crate::error::check_finite("fold differences", row).map_err(|_| StatsError::NonFinite {
            name: "fold differences (data set index)",
            index,
            value: f64::NAN,
        })?;
    }
    let spreads: Vec<f64> = differences.iter().map(|row| mean_sd(row).1).collect();
    let positive: Vec<f64> = spreads.iter().copied().filter(|s| *s > 0.0).collect();
    if positive.is_empty() && rope == 0.0 {
        return Err(StatsError::Undefined {
            test: "hierarchical Bayesian t-test",
            reason: "every data set's fold differences are constant and the rope is 0",
        });
    }
    let half_width = if rope > 0.0 {
        rope
    } else {
        1e-3 * positive.iter().sum::<f64>() / positive.len() as f64
    };
    let filled: Vec<Vec<f64>> = differences
        .iter()
        .zip(&spreads)
        .map(|(row, &spread)| {
            if spread > 0.0 {
                return row.clone();
            }
            let n = row.len() as f64;
            (0..row.len())
                .map(|j| row[0] + half_width * (-1.0 + (2.0 * j as f64 + 1.0) / n))
                .collect()
        })
        .collect();
    let scale = if positive.is_empty() {
        filled.iter().map(|row| mean_sd(row).1).sum::<f64>() / filled.len() as f64
    } else {
        spreads.iter().sum::<f64>() / spreads.len() as f64
    };
    let scaled = filled
        .iter()
        .map(|row| row.iter().map(|v| v / scale).collect())
        .collect();
    Ok((scaled, scale))
}

fn build_model(scaled: &[Vec<f64>], rho: f64) -> Model {
    let datasets: Vec<Dataset> = scaled
        .iter()
        .map(|row| Dataset {
            n: row.len() as f64,
            sum: row.iter().sum(),
            sum_squares: row.iter().map(|v| v * v).sum(),
        })
        .collect();
    let within = scaled.iter().map(|row| mean_sd(row).1).sum::<f64>() / scaled.len() as f64;
    let means: Vec<f64> = scaled.iter().map(|row| mean_sd(row).0).collect();
    let among = mean_sd(&means).1;
    let max_abs = scaled
        .iter()
        .flatten()
        .fold(0.0f64, |largest, v| largest.max(v.abs()));
    Model {
        datasets,
        rho,
        delta_bound: max_abs.max(1e-12),
        std0_bound: 1000.0 * if among > 0.0 { among } else { within },
        sigma_bound: 1000.0 * within,
    }
}

impl Model {
    /// (x - delta 1)' M^-1 (x - delta 1) for data set i (M^-1 of compound symmetry).
    fn quadratic(&self, i: usize, delta: f64) -> f64 {
        let d = &self.datasets[i];
        let centred_squares = d.sum_squares - 2.0 * delta * d.sum + d.n * delta * delta;
        let centred_sum = d.sum - d.n * delta;
        let rho = self.rho;
        (centred_squares - rho / (1.0 + (d.n - 1.0) * rho) * centred_sum * centred_sum)
            / (1.0 - rho)
    }

    /// n / (1 + (n - 1) rho): the likelihood's precision factor for delta_i.
    fn precision_factor(&self, i: usize) -> f64 {
        let n = self.datasets[i].n;
        n / (1.0 + (n - 1.0) * self.rho)
    }
}

/// Log density of t(nu, center, scale) at x, up to nothing (normalised).
fn log_student_t(x: f64, nu: f64, center: f64, scale: f64) -> f64 {
    let z = (x - center) / scale;
    ln_gamma((nu + 1.0) / 2.0)
        - ln_gamma(nu / 2.0)
        - 0.5 * (nu * std::f64::consts::PI).ln()
        - scale.ln()
        - (nu + 1.0) / 2.0 * (z * z / nu).ln_1p()
}

/// A normal draw.
fn normal<R: Rng + ?Sized>(generator: &mut R, mean: f64, sd: f64) -> f64 {
    let z: f64 = generator.sample(StandardNormal);
    mean + sd * z
}

/// A Gamma(shape, rate) draw (rate > 0).
fn gamma<R: Rng + ?Sized>(generator: &mut R, shape: f64, rate: f64) -> f64 {
    gamma_sample(generator, shape) / rate
}

fn initial_state<R: Rng + ?Sized>(generator: &mut R, model: &Model, chain: usize) -> State {
    let q = model.datasets.len();
    let means: Vec<f64> = model.datasets.iter().map(|d| d.sum / d.n).collect();
    let spread = mean_sd(&means).1.max(1e-3);
    let delta: Vec<f64> = means
        .iter()
        .map(|m| m + 0.5 * spread * (generator.random::<f64>() - 0.5))
        .collect();
    let center = mean_sd(&means).0;
    State {
        sigma: vec![1.0; q],
        lambda: vec![1.0; q],
        delta0: (center + spread * (generator.random::<f64>() - 0.5))
            .clamp(-0.99 * model.delta_bound, 0.99 * model.delta_bound),
        std0: spread * (0.5 + generator.random::<f64>()),
        nu: 2.0 + 30.0 * chain as f64 + 10.0 * generator.random::<f64>(),
        alpha: 1.0 + generator.random::<f64>(),
        beta: 0.01 + 0.09 * generator.random::<f64>(),
        delta,
    }
}

/// One Gibbs sweep over every parameter.
fn sweep<R: Rng + ?Sized>(generator: &mut R, model: &Model, s: &mut State) {
    let q = s.delta.len();
    // (nu, lambda) block: nu given delta, delta0, std0 (lambda integrated out), then lambda.
    let log_nu = |u: f64| -> f64 {
        let nu = 1.0 + u.exp();
        let prior = (s.alpha - 1.0) * u - s.beta * u.exp() + u;
        prior
            + s.delta
                .iter()
                .map(|&d| log_student_t(d, nu, s.delta0, s.std0))
                .sum::<f64>()
    };
    let u = slice_sample(
        generator,
        (s.nu - 1.0).ln(),
        f64::NEG_INFINITY,
        f64::INFINITY,
        1.0,
        log_nu,
    );
    s.nu = 1.0 + u.exp();
    for i in 0..q {
        let z = (s.delta[i] - s.delta0) / s.std0;
        s.lambda[i] = gamma(generator, (s.nu + 1.0) / 2.0, (s.nu + z * z) / 2.0);
    }
    for i in 0..q {
        let d = &model.datasets[i];
        let likelihood = model.precision_factor(i) / (s.sigma[i] * s.sigma[i]);
        let prior = s.lambda[i] / (s.std0 * s.std0);
        let precision = likelihood + prior;
        let mean = (likelihood * d.sum / d.n + prior * s.delta0) / precision;
        s.delta[i] = normal(generator, mean, precision.sqrt().recip());
        let shape = (d.n - 1.0) / 2.0;
        let rate = model.quadratic(i, s.delta[i]).max(1e-300) / 2.0;
        let tau = gamma(generator, shape, rate);
        if tau > 0.0 && tau.recip().sqrt() < model.sigma_bound {
            s.sigma[i] = tau.recip().sqrt();
        }
    }
    let weight: f64 = s.lambda.iter().sum();
    let center = s
        .lambda
        .iter()
        .zip(&s.delta)
        .map(|(l, d)| l * d)
        .sum::<f64>()
        / weight;
    let proposal = normal(generator, center, s.std0 / weight.sqrt());
    if proposal.abs() < model.delta_bound {
        s.delta0 = proposal;
    }
    let spread: f64 = s
        .lambda
        .iter()
        .zip(&s.delta)
        .map(|(l, d)| l * (d - s.delta0) * (d - s.delta0))
        .sum();
    let tau0 = gamma(generator, (q as f64 - 1.0) / 2.0, spread.max(1e-300) / 2.0);
    if tau0 > 0.0 && tau0.recip().sqrt() < model.std0_bound {
        s.std0 = tau0.recip().sqrt();
    }
    let log_nu_minus_one = (s.nu - 1.0).ln();
    let beta = s.beta;
    s.alpha = slice_sample(generator, s.alpha, 1.0, 2.0, 0.5, |a| {
        a * beta.ln() - ln_gamma(a) + (a - 1.0) * log_nu_minus_one
    });
    let (alpha, excess) = (s.alpha, s.nu - 1.0);
    s.beta = slice_sample(generator, s.beta, 0.01, 0.1, 0.05, |b| {
        alpha * b.ln() - b * excess
    });
}

/// Shares of values below -rope, within, above rope (rope 0: `rope` share 0, ties to left).
fn region_shares(values: impl Iterator<Item = f64>, rope: f64) -> RegionProbabilities {
    let (mut left, mut middle, mut right, mut count) = (0usize, 0usize, 0usize, 0usize);
    for v in values {
        count += 1;
        if v > rope {
            right += 1;
        } else if v < -rope || (rope == 0.0 && v <= 0.0) {
            left += 1;
        } else {
            middle += 1;
        }
    }
    let c = count.max(1) as f64;
    RegionProbabilities {
        left: left as f64 / c,
        rope: middle as f64 / c,
        right: right as f64 / c,
    }
}

/// The draws of one chain: delta0, std0, nu, and each delta_i (scaled units).
struct ChainDraws {
    delta0: Vec<f64>,
    std0: Vec<f64>,
    nu: Vec<f64>,
    delta: Vec<Vec<f64>>,
}

fn run_chain(model: &Model, options: &HierarchicalOptions, chain: usize) -> ChainDraws {
    let seed = seeds::derive_seed_from_label(options.seed, &format!("hierarchical/chain/{chain}"));
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let mut state = initial_state(&mut generator, model, chain);
    for _ in 0..options.warmup {
        sweep(&mut generator, model, &mut state);
    }
    let q = model.datasets.len();
    let mut draws = ChainDraws {
        delta0: Vec::with_capacity(options.samples),
        std0: Vec::with_capacity(options.samples),
        nu: Vec::with_capacity(options.samples),
        delta: vec![Vec::with_capacity(options.samples); q],
    };
    for _ in 0..options.samples {
        sweep(&mut generator, model, &mut state);
        draws.delta0.push(state.delta0);
        draws.std0.push(state.std0);
        draws.nu.push(state.nu);
        for (slot, value) in draws.delta.iter_mut().zip(&state.delta) {
            slot.push(*value);
        }
    }
    draws
}

/// The hierarchical Bayesian correlated t-test of one pair of learners from the fold
/// differences a - b of every data set (`differences[dataset]`, at least 2 folds each; data
/// sets may have different numbers of folds). See the module documentation for the model and
/// the sampler.
///
/// Errors: fewer than 2 data sets or a data set with fewer than 2 folds -> `TooFew`; NaN/inf ->
/// `NonFinite`; rope < 0, correlation outside [0, 1), chains outside 1..=64, samples < 4 or
/// more than 1e6 -> `OutOfRange`; every data set constant with rope 0 -> `Undefined`.
pub fn hierarchical_t_test(
    differences: &[Vec<f64>],
    options: &HierarchicalOptions,
) -> Result<HierarchicalResult, StatsError> {
    check_options(options)?;
    let (scaled, scale) = prepare(differences, options.rope)?;
    let model = build_model(&scaled, options.correlation);
    let chains: Vec<ChainDraws> = (0..options.chains)
        .map(|chain| run_chain(&model, options, chain))
        .collect();
    let rope = options.rope / scale;
    let mut wins = [0usize; 3];
    let mut totals = [0.0; 3];
    for chain in &chains {
        for ((&mu, &sd), &nu) in chain.delta0.iter().zip(&chain.std0).zip(&chain.nu) {
            let right = 1.0 - student_t_cdf((rope - mu) / sd, nu);
            let left = student_t_cdf((-rope - mu) / sd, nu);
            let values = [left, (1.0 - left - right).max(0.0), right];
            let winner = (1..3).fold(0, |best, r| if values[r] > values[best] { r } else { best });
            wins[winner] += 1;
            for (slot, value) in totals.iter_mut().zip(values) {
                *slot += value;
            }
        }
    }
    let draws = options.chains * options.samples;
    let count = draws as f64;
    let as_regions = |v: [f64; 3]| RegionProbabilities {
        left: v[0],
        rope: v[1],
        right: v[2],
    };
    let all = |pick: &dyn Fn(&ChainDraws) -> &Vec<f64>| -> Vec<Vec<f64>> {
        chains.iter().map(|c| pick(c).clone()).collect()
    };
    let mut diagnostics_list = vec![
        diagnostics("delta0", &all(&|c| &c.delta0)),
        diagnostics("std0", &all(&|c| &c.std0)),
        diagnostics("nu", &all(&|c| &c.nu)),
    ];
    let mut datasets = Vec::with_capacity(scaled.len());
    for (i, row) in differences.iter().enumerate() {
        let per_chain: Vec<Vec<f64>> = chains.iter().map(|c| c.delta[i].clone()).collect();
        diagnostics_list.push(diagnostics(&format!("delta[{i}]"), &per_chain));
        let flat = per_chain.iter().flatten();
        datasets.push(DatasetPosterior {
            observed_mean: row.iter().sum::<f64>() / row.len() as f64,
            posterior_mean: scale * flat.clone().sum::<f64>() / count,
            probabilities: region_shares(flat.copied(), rope),
        });
    }
    let max_rhat = diagnostics_list
        .iter()
        .map(|d| d.split_rhat)
        .fold(f64::NEG_INFINITY, f64::max);
    let min_ess = diagnostics_list
        .iter()
        .map(|d| d.effective_sample_size)
        .fold(f64::INFINITY, f64::min);
    let delta0_draws = chains.iter().flat_map(|c| c.delta0.iter().copied());
    Ok(HierarchicalResult {
        probabilities: as_regions(wins.map(|w| w as f64 / count)),
        mean_probabilities: as_regions(totals.map(|t| t / count)),
        delta0_probabilities: region_shares(delta0_draws.clone(), rope),
        delta0_mean: scale * delta0_draws.sum::<f64>() / count,
        datasets,
        converged: max_rhat < 1.01 && min_ess > 400.0,
        max_rhat,
        min_effective_sample_size: min_ess,
        diagnostics: diagnostics_list,
        draws,
        options: options.clone(),
    })
}

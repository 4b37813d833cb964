//! Markov chain Monte Carlo tools for the crate's Bayesian models: a univariate slice sampler
//! (Neal 2003, stepping out and shrinkage, with bounded work) and the convergence diagnostics
//! of Vehtari et al. (2021) as Stan reports them: split R-hat and the effective sample size
//! from Geyer's initial monotone sequence over all chains.

use rand::{Rng, RngExt};
use serde::Serialize;

/// One slice-sampling update of x from the log density `log_density` (up to a constant) on
/// the interval (low, high), which may be infinite. Steps out by `width` at most 64 times on
/// each side, then shrinks at most 200 times; if nothing is accepted (a density that is NaN
/// or a slice of zero width) the current value is kept, so the update never hangs.
pub fn slice_sample<R: Rng + ?Sized>(
    generator: &mut R,
    x: f64,
    low: f64,
    high: f64,
    width: f64,
    log_density: impl Fn(f64) -> f64,
) -> f64 {
    let current = log_density(x);
    if !current.is_finite() {
        return x;
    }
    // Level: log f(x) - Exp(1).
    let level = current + (1.0 - generator.random::<f64>()).ln();
    let mut left = x - width * generator.random::<f64>();
    let mut right = left + width;
    for _ in 0..64 {
        if left <= low || log_density(left) < level {
            break;
        }
        left -= width;
    }
    for _ in 0..64 {
        if right >= high || log_density(right) < level {
            break;
        }
        right += width;
    }
    left = left.max(low);
    right = right.min(high);
    for _ in 0..200 {
        let candidate = left + (right - left) * generator.random::<f64>();
        if candidate > low && candidate < high && log_density(candidate) >= level {
            return candidate;
        }
        if candidate < x {
            left = candidate;
        } else {
            right = candidate;
        }
    }
    x
}

/// Convergence diagnostics of one scalar parameter over several chains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostics {
    /// Name of the parameter.
    pub parameter: String,
    /// Split R-hat (Gelman et al. 2013, BDA3 section 11.4): near 1 when the half-chains agree.
    #[serde(serialize_with = "crate::json::float")]
    pub split_rhat: f64,
    /// Effective sample size over all chains (Geyer's initial monotone sequence of the
    /// multi-chain autocorrelation, as Stan).
    #[serde(serialize_with = "crate::json::float")]
    pub effective_sample_size: f64,
}

fn mean_and_variance(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    (mean, variance)
}

/// Split R-hat and effective sample size of `chains` (each the draws of one chain, equal
/// lengths of at least 4). A parameter constant across all draws gets R-hat 1 and ESS equal to
/// the number of draws.
pub fn diagnostics(parameter: &str, chains: &[Vec<f64>]) -> Diagnostics {
    let length = chains.iter().map(Vec::len).min().unwrap_or(0);
    let total = (length * chains.len()) as f64;
    if length < 4 || chains.is_empty() {
        return Diagnostics {
            parameter: parameter.to_string(),
            split_rhat: f64::NAN,
            effective_sample_size: f64::NAN,
        };
    }
    let half = length / 2;
    let halves: Vec<&[f64]> = chains
        .iter()
        .flat_map(|chain| [&chain[..half], &chain[length - half..length]])
        .collect();
    let stats: Vec<(f64, f64)> = halves.iter().map(|h| mean_and_variance(h)).collect();
    let within = stats.iter().map(|s| s.1).sum::<f64>() / stats.len() as f64;
    let means: Vec<f64> = stats.iter().map(|s| s.0).collect();
    let between = half as f64 * mean_and_variance(&means).1;
    if within <= 0.0 {
        let rhat = if between <= 0.0 { 1.0 } else { f64::INFINITY };
        return Diagnostics {
            parameter: parameter.to_string(),
            split_rhat: rhat,
            effective_sample_size: if between <= 0.0 { total } else { 1.0 },
        };
    }
    let n = half as f64;
    let pooled = (n - 1.0) / n * within + between / n;
    Diagnostics {
        parameter: parameter.to_string(),
        split_rhat: (pooled / within).sqrt(),
        effective_sample_size: effective_sample_size(chains, length),
    }
}

/// Stan's multi-chain ESS: rho_t = 1 - (W - mean of the chains' autocovariances at lag t) /
/// var+, summed in pairs while the pair sums stay positive, made monotone; tau is at least
/// 1 / log10(total draws). Autocovariances are computed lag by lag, only as far as needed.
fn effective_sample_size(chains: &[Vec<f64>], length: usize) -> f64 {
    let m = chains.len() as f64;
    let n = length as f64;
    let centred: Vec<Vec<f64>> = chains
        .iter()
        .map(|chain| {
            let mean = chain[..length].iter().sum::<f64>() / n;
            chain[..length].iter().map(|v| v - mean).collect()
        })
        .collect();
    let chain_means: Vec<f64> = chains
        .iter()
        .map(|c| c[..length].iter().sum::<f64>() / n)
        .collect();
    let autocovariance = |lag: usize| -> f64 {
        centred
            .iter()
            .map(|c| {
                c[..length - lag]
                    .iter()
                    .zip(&c[lag..])
                    .map(|(a, b)| a * b)
                    .sum::<f64>()
                    / n
            })
            .sum::<f64>()
            / m
    };
    let within = autocovariance(0) * n / (n - 1.0);
    let between = if chains.len() > 1 {
        mean_and_variance(&chain_means).1
    } else {
        0.0
    };
    let variance_plus = within * (n - 1.0) / n + between;
    let rho = |lag: usize| 1.0 - (within - autocovariance(lag)) / variance_plus;
    let mut sum = 0.0;
    let mut previous_pair = f64::INFINITY;
    let mut lag = 0;
    while lag + 1 < length {
        let pair = rho(lag) + rho(lag + 1);
        if pair < 0.0 {
            break;
        }
        let pair = pair.min(previous_pair);
        previous_pair = pair;
        sum += pair;
        lag += 2;
    }
    let total = m * n;
    let tau = (-1.0 + 2.0 * sum).max(1.0 / total.log10());
    total / tau
}

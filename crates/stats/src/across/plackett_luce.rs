//! The Bayesian Plackett-Luce model of learners' rankings over data sets (Calvo, Ceberio &
//! Lozano 2018; scmamp's `bPlackettLuceModel`): each data set's ranking is a Plackett-Luce
//! draw with weights w (w_i = the probability that learner i ranks first), w ~ Dirichlet(prior,
//! default all 1). Ties within a data set are broken at random (seeded), as scmamp does.
//!
//! Sampler: Gibbs with Caron & Doucet's (2012) latent variables: unnormalised weights lambda_i
//! ~ Gamma(prior_i, 1) (normalised, a Dirichlet), and per data set and stage j an exponential
//! Z_j with rate the sum of the weights still unranked; then lambda_i | Z is Gamma(prior_i +
//! the stages it wins, 1 + the sum of Z over the stages where it is unranked), followed by a
//! fresh draw of the scale sum(lambda) ~ Gamma(sum prior, 1). Several seeded chains; split
//! R-hat and ESS of every w_i.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::across::friedman::check_scores;
use crate::bayes::bayesian::gamma_sample;
use crate::bayes::mcmc::{diagnostics, Diagnostics};
use crate::error::StatsError;

/// Settings of [`plackett_luce`]; `Default`: higher is better, a uniform Dirichlet prior, 4
/// chains of 500 warm-up and 2,500 kept draws, seed 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlackettLuceOptions {
    /// True when larger values are better (rank 1 = largest).
    pub higher_is_better: bool,
    /// Dirichlet prior, one positive value per learner; `None` = all 1.
    pub prior: Option<Vec<f64>>,
    /// Number of chains.
    pub chains: usize,
    /// Warm-up draws discarded per chain.
    pub warmup: usize,
    /// Draws kept per chain.
    pub samples: usize,
    /// Seed of the tie-breaking and of each chain.
    pub seed: u64,
}

impl Default for PlackettLuceOptions {
    fn default() -> Self {
        Self {
            higher_is_better: true,
            prior: None,
            chains: 4,
            warmup: 500,
            samples: 2500,
            seed: 0,
        }
    }
}

/// Posterior summaries of the Plackett-Luce weights.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlackettLuceResult {
    /// Posterior mean of each learner's weight: the probability it ranks first on a new data
    /// set (scmamp's `expected.win.prob`).
    pub expected_win_probability: Vec<f64>,
    /// Posterior probability that each learner has the largest weight (is the best).
    pub probability_best: Vec<f64>,
    /// Posterior mean of each learner's rank by weight, 1 = largest (scmamp's
    /// `expected.mode.rank`).
    pub expected_rank: Vec<f64>,
    /// Number of data sets whose ranking had ties broken at random.
    pub datasets_with_ties: usize,
    /// Split R-hat and ESS of each weight.
    pub diagnostics: Vec<Diagnostics>,
    /// Largest split R-hat.
    #[serde(serialize_with = "crate::json::float")]
    pub max_rhat: f64,
    /// Smallest effective sample size.
    #[serde(serialize_with = "crate::json::float")]
    pub min_effective_sample_size: f64,
    /// True when max R-hat < 1.01 and the smallest ESS > 400.
    pub converged: bool,
    /// The options used.
    pub options: PlackettLuceOptions,
}

/// Orders (best first) of every data set, ties broken by a seeded shuffle.
fn orderings(scores: &[Vec<f64>], options: &PlackettLuceOptions) -> (Vec<Vec<usize>>, usize) {
    let mut generator = ChaCha8Rng::seed_from_u64(seeds::derive_seed_from_label(
        options.seed,
        "plackett_luce/ties",
    ));
    let mut with_ties = 0;
    let orders = scores
        .iter()
        .map(|row| {
            let key: Vec<f64> = row
                .iter()
                .map(|&v| if options.higher_is_better { -v } else { v })
                .collect();
            let noise: Vec<f64> = row.iter().map(|_| generator.random::<f64>()).collect();
            let mut order: Vec<usize> = (0..row.len()).collect();
            order.sort_by(|&a, &b| {
                key[a]
                    .total_cmp(&key[b])
                    .then(noise[a].total_cmp(&noise[b]))
            });
            if order.windows(2).any(|w| key[w[0]] == key[w[1]]) {
                with_ties += 1;
            }
            order
        })
        .collect();
    (orders, with_ties)
}

fn check_options(options: &PlackettLuceOptions, k: usize) -> Result<Vec<f64>, StatsError> {
    if options.chains == 0
        || options.chains > 64
        || options.samples < 4
        || options.samples > 1_000_000
        || options.warmup > 1_000_000
    {
        return Err(StatsError::OutOfRange {
            name: "chains / samples / warmup",
            value: options.samples as f64,
            allowed: "chains 1..=64, samples 4..=1e6, warmup <= 1e6",
        });
    }
    let prior = options.prior.clone().unwrap_or_else(|| vec![1.0; k]);
    if prior.len() != k {
        return Err(StatsError::LengthMismatch {
            first: "prior",
            first_len: prior.len(),
            second: "learners",
            second_len: k,
        });
    }
    if let Some(&bad) = prior.iter().find(|p| !(p.is_finite() && **p > 0.0)) {
        return Err(StatsError::OutOfRange {
            name: "prior",
            value: bad,
            allowed: "finite and > 0 for every learner",
        });
    }
    Ok(prior)
}

/// Runs one chain; returns the normalised weight draws, `[learner][draw]`.
fn run_chain(
    orders: &[Vec<usize>],
    prior: &[f64],
    options: &PlackettLuceOptions,
    chain: usize,
) -> Vec<Vec<f64>> {
    let k = prior.len();
    let seed = seeds::derive_seed_from_label(options.seed, &format!("plackett_luce/chain/{chain}"));
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let mut lambda: Vec<f64> = prior
        .iter()
        .map(|&a| gamma_sample(&mut generator, a).max(1e-300))
        .collect();
    // Stages won: each learner wins every stage where it is chosen, i.e. wherever it is not last.
    let mut wins = vec![0.0; k];
    for order in orders {
        for &l in &order[..k - 1] {
            wins[l] += 1.0;
        }
    }
    let prior_total: f64 = prior.iter().sum();
    let mut draws = vec![Vec::with_capacity(options.samples); k];
    for iteration in 0..options.warmup + options.samples {
        let mut exposure = vec![0.0; k];
        let mut suffix = vec![0.0; k + 1];
        for order in orders {
            // suffix[p]: the weight still unranked at stage p; O(k) per data set.
            for position in (0..k).rev() {
                suffix[position] = suffix[position + 1] + lambda[order[position]];
            }
            let mut cumulative = 0.0;
            for (position, &l) in order.iter().enumerate() {
                if position < k - 1 {
                    let rate = suffix[position].max(1e-300);
                    cumulative += -(1.0 - generator.random::<f64>()).ln() / rate;
                }
                // Learner l is unranked at every stage up to its own (or the last one).
                exposure[l] += cumulative;
            }
        }
        for l in 0..k {
            lambda[l] = (gamma_sample(&mut generator, prior[l] + wins[l]) / (1.0 + exposure[l]))
                .max(1e-300);
        }
        // Scale move: a posteriori the scale sum(lambda) is Gamma(sum prior, 1) independent of
        // w, so drawing it afresh leaves the posterior invariant and keeps it from drifting.
        let total: f64 = lambda.iter().sum();
        let scale = gamma_sample(&mut generator, prior_total).max(1e-300) / total;
        for value in &mut lambda {
            *value *= scale;
        }
        if iteration >= options.warmup {
            let total: f64 = lambda.iter().sum();
            for (slot, value) in draws.iter_mut().zip(&lambda) {
                slot.push(*value / total);
            }
        }
    }
    draws
}

/// The Plackett-Luce posterior of `scores[dataset][learner]` (complete table).
///
/// Errors: fewer than 2 data sets or learners -> `TooFew`; ragged rows -> `LengthMismatch`;
/// NaN/inf -> `NonFinite`; a prior of the wrong length -> `LengthMismatch`; a prior value <= 0,
/// chains outside 1..=64 or samples < 4 -> `OutOfRange`.
pub fn plackett_luce(
    scores: &[Vec<f64>],
    options: &PlackettLuceOptions,
) -> Result<PlackettLuceResult, StatsError> {
    let (_, k) = check_scores(scores)?;
    let prior = check_options(options, k)?;
    let (orders, datasets_with_ties) = orderings(scores, options);
    let chains: Vec<Vec<Vec<f64>>> = (0..options.chains)
        .map(|c| run_chain(&orders, &prior, options, c))
        .collect();
    let draws = options.chains * options.samples;
    let mut win = vec![0.0; k];
    let mut best = vec![0.0; k];
    let mut rank = vec![0.0; k];
    for chain in &chains {
        for d in 0..options.samples {
            let w: Vec<f64> = chain.iter().map(|draws| draws[d]).collect();
            let top = (1..k).fold(0, |b, l| if w[l] > w[b] { l } else { b });
            best[top] += 1.0;
            for l in 0..k {
                win[l] += w[l];
                rank[l] += 1.0 + w.iter().filter(|&&other| other > w[l]).count() as f64;
            }
        }
    }
    let count = draws as f64;
    let diagnostics_list: Vec<Diagnostics> = (0..k)
        .map(|l| {
            let per_chain: Vec<Vec<f64>> = chains.iter().map(|c| c[l].clone()).collect();
            diagnostics(&format!("w[{l}]"), &per_chain)
        })
        .collect();
    let max_rhat = diagnostics_list
        .iter()
        .map(|d| d.split_rhat)
        .fold(f64::NEG_INFINITY, f64::max);
    let min_ess = diagnostics_list
        .iter()
        .map(|d| d.effective_sample_size)
        .fold(f64::INFINITY, f64::min);
    Ok(PlackettLuceResult {
        expected_win_probability: win.iter().map(|v| v / count).collect(),
        probability_best: best.iter().map(|v| v / count).collect(),
        expected_rank: rank.iter().map(|v| v / count).collect(),
        datasets_with_ties,
        diagnostics: diagnostics_list,
        converged: max_rhat < 1.01 && min_ess > 400.0,
        max_rhat,
        min_effective_sample_size: min_ess,
        options: options.clone(),
    })
}

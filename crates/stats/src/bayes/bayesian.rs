//! Bayesian comparison of two learners (Benavoli, Corani, Demsar & Zaffalon 2017, as in the
//! `baycomp` package): the correlated Bayesian t-test on one data set and the Bayesian
//! signed-rank test over several data sets.
//!
//! Differences are d = a - b. `left` is the posterior probability that b is better by more
//! than the rope, `rope` that the two are practically equivalent (|d| <= rope), `right` that a
//! is better by more than the rope. (baycomp computes y - x: call it with x = b, y = a.)

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use crate::distributions::student_t_cdf;
use crate::error::{check_finite, StatsError};
use crate::paired::ttest::paired_differences;
use crate::summary::{mean, sample_variance};

/// Posterior probabilities of the three regions.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RegionProbabilities {
    /// P(d < -rope): b is better.
    pub left: f64,
    /// P(-rope <= d <= rope): practically equivalent (0 when rope = 0).
    pub rope: f64,
    /// P(d > rope): a is better.
    pub right: f64,
}

/// Result of the correlated Bayesian t-test: a Student posterior of the mean difference.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CorrelatedTTestResult {
    /// Posterior location: mean of the differences a - b.
    pub mean: f64,
    /// Posterior scale squared: (1/n + 1/(n/runs - 1)) var(d) (Nadeau-Bengio correction).
    pub variance: f64,
    /// Degrees of freedom, n - 1.
    pub df: f64,
    /// Posterior probabilities of left / rope / right.
    pub probabilities: RegionProbabilities,
}

fn check_rope(rope: f64) -> Result<(), StatsError> {
    if rope.is_finite() && rope >= 0.0 {
        Ok(())
    } else {
        Err(StatsError::OutOfRange {
            name: "rope",
            value: rope,
            allowed: "finite and >= 0",
        })
    }
}

/// Correlated Bayesian t-test (Corani & Benavoli 2015) on the scores of `runs` repetitions of
/// k-fold cross-validation (n = runs k paired scores), as baycomp's `CorrelatedTTest`:
/// the correlation is rho = 1/k, giving the scale (1/n + rho/(1-rho)) var(d).
///
/// Degenerate input: n < 2 -> `TooFew`; n not divisible by runs, runs = 0, or k = n/runs < 2
/// -> `OutOfRange`; NaN -> `NonFinite`. Zero variance: the posterior is a point mass at the
/// mean (baycomp's rule: with rope = 0, right = 1, 0.5 or 0 for mean > 0, = 0, < 0).
pub fn correlated_bayesian_t_test(
    a: &[f64],
    b: &[f64],
    rope: f64,
    runs: usize,
) -> Result<CorrelatedTTestResult, StatsError> {
    check_rope(rope)?;
    let differences = paired_differences(a, b)?;
    let n = differences.len();
    if n < 2 {
        return Err(StatsError::TooFew {
            name: "pairs",
            got: n,
            needed: 2,
        });
    }
    if runs == 0 || n % runs != 0 || n / runs < 2 {
        return Err(StatsError::OutOfRange {
            name: "runs",
            value: runs as f64,
            allowed: ">= 1, dividing the number of pairs into folds of at least 2",
        });
    }
    let folds = (n / runs) as f64;
    let center = mean(&differences);
    let variance = sample_variance(&differences) * (1.0 / n as f64 + 1.0 / (folds - 1.0));
    let df = (n - 1) as f64;
    let probabilities = if variance > 0.0 {
        let scale = variance.sqrt();
        let cdf = |x: f64| student_t_cdf((x - center) / scale, df);
        if rope == 0.0 {
            let right = 1.0 - cdf(0.0);
            RegionProbabilities {
                left: 1.0 - right,
                rope: 0.0,
                right,
            }
        } else {
            let left = cdf(-rope);
            let right = 1.0 - cdf(rope);
            RegionProbabilities {
                left,
                rope: 1.0 - left - right,
                right,
            }
        }
    } else if rope == 0.0 {
        let right = if center > 0.0 {
            1.0
        } else if center == 0.0 {
            0.5
        } else {
            0.0
        };
        RegionProbabilities {
            left: 1.0 - right,
            rope: 0.0,
            right,
        }
    } else {
        let left = f64::from(u8::from(center < -rope));
        let right = f64::from(u8::from(center > rope));
        RegionProbabilities {
            left,
            rope: 1.0 - left - right,
            right,
        }
    };
    Ok(CorrelatedTTestResult {
        mean: center,
        variance,
        df,
        probabilities,
    })
}

/// Result of the Bayesian signed-rank test.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SignedRankResult {
    /// Share of posterior samples in which each region has the largest probability
    /// (what baycomp reports as the probabilities).
    pub probabilities: RegionProbabilities,
    /// Posterior mean of the three region probabilities.
    pub mean_probabilities: RegionProbabilities,
    /// Number of Monte Carlo samples drawn.
    pub samples: usize,
}

/// Draws Gamma(shape, 1) by Marsaglia & Tsang (2000), boosting shapes below 1.
pub(crate) fn gamma_sample<R: Rng + ?Sized>(generator: &mut R, shape: f64) -> f64 {
    if shape == 1.0 {
        // Exponential(1) by inversion.
        return -(1.0 - generator.random::<f64>()).ln();
    }
    if shape < 1.0 {
        let boost = loop {
            let u = generator.random::<f64>();
            if u > 0.0 {
                break u.powf(1.0 / shape);
            }
        };
        return gamma_sample(generator, shape + 1.0) * boost;
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x: f64 = generator.sample(StandardNormal);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u = generator.random::<f64>();
        if u < 1.0 - 0.0331 * x * x * x * x {
            return d * v;
        }
        if u > 0.0 && u.ln() < 0.5 * x * x + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// Posterior samples of the Bayesian signed-rank test (Benavoli et al. 2014/2017), as
/// baycomp's `SignedRankTest.sample`: a Dirichlet process posterior with a pseudo-observation
/// at 0 of weight `prior` (baycomp's default 0.5), drawn by seeded Monte Carlo `samples`
/// times. For each draw w ~ Dirichlet(prior, 1, ..., 1), the region probabilities are
/// sum_{i,j} w_i w_j H(d_i + d_j vs +-2 rope), with H counting equality as 1/2; these are the
/// points of baycomp's simplex plot.
///
/// Degenerate input: no pair -> `TooFew`; rope < 0, prior <= 0 or samples = 0 -> `OutOfRange`;
/// NaN -> `NonFinite`. Results depend only on the inputs and `seed`.
pub fn bayesian_signed_rank_posterior(
    a: &[f64],
    b: &[f64],
    rope: f64,
    prior: f64,
    samples: usize,
    seed: u64,
) -> Result<Vec<RegionProbabilities>, StatsError> {
    check_rope(rope)?;
    if !(prior.is_finite() && prior > 0.0) {
        return Err(StatsError::OutOfRange {
            name: "prior",
            value: prior,
            allowed: "finite and > 0",
        });
    }
    if samples == 0 {
        return Err(StatsError::OutOfRange {
            name: "samples",
            value: 0.0,
            allowed: ">= 1",
        });
    }
    let mut differences = paired_differences(a, b)?;
    check_finite("differences", &differences)?;
    if differences.is_empty() {
        return Err(StatsError::TooFew {
            name: "pairs",
            got: 0,
            needed: 1,
        });
    }
    differences.insert(0, 0.0);
    let m = differences.len();
    // Heaviside weights of each pair sum: above +2 rope, below -2 rope (1, 1/2 at equality).
    let heaviside = |value: f64, threshold: f64| {
        if value > threshold {
            1.0
        } else if value == threshold {
            0.5
        } else {
            0.0
        }
    };
    let mut above = vec![0.0; m * m];
    let mut below = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            let sum = differences[i] + differences[j];
            above[i * m + j] = heaviside(sum, 2.0 * rope);
            below[i * m + j] = heaviside(-sum, 2.0 * rope);
        }
    }
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let mut weights = vec![0.0; m];
    let mut posterior = Vec::with_capacity(samples);
    for _ in 0..samples {
        let mut total = 0.0;
        for (index, weight) in weights.iter_mut().enumerate() {
            *weight = gamma_sample(&mut generator, if index == 0 { prior } else { 1.0 });
            total += *weight;
        }
        for weight in &mut weights {
            *weight /= total;
        }
        let (mut left, mut right) = (0.0, 0.0);
        for i in 0..m {
            let (mut row_left, mut row_right) = (0.0, 0.0);
            for j in 0..m {
                row_left += weights[j] * below[i * m + j];
                row_right += weights[j] * above[i * m + j];
            }
            left += weights[i] * row_left;
            right += weights[i] * row_right;
        }
        let middle = if rope > 0.0 { 1.0 - left - right } else { 0.0 };
        if rope == 0.0 {
            left = 1.0 - right;
        }
        posterior.push(RegionProbabilities {
            left,
            rope: middle,
            right,
        });
    }
    Ok(posterior)
}

/// Bayesian signed-rank test (Benavoli et al. 2014/2017) over data sets, as baycomp's
/// `SignedRankTest`: the share of [`bayesian_signed_rank_posterior`]'s samples in which each
/// region is the most probable (ties go to the first maximum, as numpy's argmax), and the
/// posterior mean of the three probabilities. Same inputs, checks and seeding as
/// [`bayesian_signed_rank_posterior`].
pub fn bayesian_signed_rank_test(
    a: &[f64],
    b: &[f64],
    rope: f64,
    prior: f64,
    samples: usize,
    seed: u64,
) -> Result<SignedRankResult, StatsError> {
    let posterior = bayesian_signed_rank_posterior(a, b, rope, prior, samples, seed)?;
    let mut wins = [0usize; 3];
    let mut totals = [0.0; 3];
    for sample in &posterior {
        let values = [sample.left, sample.rope, sample.right];
        let mut winner = 0;
        for region in 1..3 {
            if values[region] > values[winner] {
                winner = region;
            }
        }
        wins[winner] += 1;
        for (slot, value) in totals.iter_mut().zip(values) {
            *slot += value;
        }
    }
    let count = samples as f64;
    Ok(SignedRankResult {
        probabilities: RegionProbabilities {
            left: wins[0] as f64 / count,
            rope: wins[1] as f64 / count,
            right: wins[2] as f64 / count,
        },
        mean_probabilities: RegionProbabilities {
            left: totals[0] / count,
            rope: totals[1] / count,
            right: totals[2] / count,
        },
        samples,
    })
}

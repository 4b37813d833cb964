//! Elo ratings of learners from their results on datasets, as TabArena computes them (after
//! Chatbot Arena): every two learners on every dataset play one battle, won by the better value
//! (a tie is half a win each); a Bradley-Terry model is fitted by maximum likelihood, P(a beats
//! b) = 1 / (1 + 10^((R_b - R_a) / 400)), and the ratings are shifted so that the reference
//! learner has 1000. Unlike TabArena, every two learners also play one virtual tie, so that a
//! learner that wins (or loses) every battle gets a finite rating, as with few datasets it
//! often would not. The fit is Hunter's (2004) MM algorithm; the intervals are percentile
//! bootstrap intervals over resamples of the datasets, seeded.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::across::leaderboard::LeaderboardOptions;
use crate::intervals::bootstrap::quantile_linear;

/// Rating points per factor of 10 in the odds of winning.
pub const SCALE: f64 = 400.0;

/// The reference learner's rating.
pub const REFERENCE_RATING: f64 = 1000.0;

/// One learner's Elo rating with its bootstrap interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EloRating {
    /// The rating (the reference learner's is 1000).
    pub elo: f64,
    /// Lower end of the bootstrap interval.
    pub elo_low: f64,
    /// Upper end of the bootstrap interval.
    pub elo_high: f64,
}

/// Each learner's battle points against each other on `rows` (datasets x learners, complete):
/// `points[a][b]` counts a's wins over b, a tie one half, plus one half for the virtual tie.
pub fn battle_points(rows: &[Vec<f64>], higher_is_better: bool) -> Vec<Vec<f64>> {
    let k = rows.first().map_or(0, Vec::len);
    let mut points = vec![vec![0.0; k]; k];
    for (a, row) in points.iter_mut().enumerate() {
        for (b, cell) in row.iter_mut().enumerate().filter(|(b, _)| *b != a) {
            *cell = 0.5;
            for values in rows {
                let (x, y) = (values[a], values[b]);
                let better = if higher_is_better { x > y } else { x < y };
                *cell += if better {
                    1.0
                } else if x == y {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    points
}

/// The Bradley-Terry ratings of `points` (see [`battle_points`]), the learner `reference` at
/// 1000.
pub fn ratings(points: &[Vec<f64>], reference: usize) -> Vec<f64> {
    let k = points.len();
    let wins: Vec<f64> = points.iter().map(|row| row.iter().sum()).collect();
    let mut strength = vec![1.0; k];
    for _ in 0..100_000 {
        let next: Vec<f64> = (0..k)
            .map(|i| {
                let games: f64 = (0..k)
                    .filter(|&j| j != i)
                    .map(|j| (points[i][j] + points[j][i]) / (strength[i] + strength[j]))
                    .sum();
                wins[i] / games
            })
            .collect();
        let total: f64 = next.iter().sum();
        let next: Vec<f64> = next.iter().map(|s| s * k as f64 / total).collect();
        let change = (0..k)
            .map(|i| (next[i] / strength[i]).ln().abs())
            .fold(0.0, f64::max);
        strength = next;
        if change < 1e-14 {
            break;
        }
    }
    let per_unit = SCALE / std::f64::consts::LN_10;
    let anchor = strength[reference].ln();
    strength
        .iter()
        .map(|s| REFERENCE_RATING + per_unit * (s.ln() - anchor))
        .collect()
}

/// Every learner's Elo rating on `rows` (complete datasets x learners) with the percentile
/// bootstrap interval of `options` (the datasets resampled with replacement).
pub fn elo(
    rows: &[Vec<f64>],
    higher_is_better: bool,
    reference: usize,
    options: &LeaderboardOptions,
) -> Vec<EloRating> {
    let k = rows.first().map_or(0, Vec::len);
    if k == 0 || reference >= k {
        return Vec::new();
    }
    let fitted = ratings(&battle_points(rows, higher_is_better), reference);
    let mut generator = ChaCha8Rng::seed_from_u64(options.seed);
    let mut samples = vec![Vec::with_capacity(options.resamples); k];
    for _ in 0..options.resamples {
        let resample: Vec<Vec<f64>> = (0..rows.len())
            .map(|_| rows[generator.random_range(0..rows.len())].clone())
            .collect();
        let rated = ratings(&battle_points(&resample, higher_is_better), reference);
        for (column, rating) in samples.iter_mut().zip(rated) {
            column.push(rating);
        }
    }
    fitted
        .into_iter()
        .zip(samples)
        .map(|(rating, mut column)| {
            column.sort_by(f64::total_cmp);
            EloRating {
                elo: rating,
                elo_low: quantile_linear(&column, options.alpha / 2.0),
                elo_high: quantile_linear(&column, 1.0 - options.alpha / 2.0),
            }
        })
        .collect()
}
